"""The retrieval index: every stored learning in columns, with its usage counters, cached in
one signed file so that SessionStart reads no more than it needs.

Why a column store: SessionStart must rank 10,000 learnings in well under 150 ms including
the interpreter. Loading 10,000 dicts costs tens of milliseconds; a few strings and arrays
load in under one (`marshal`). Tags and context files are postings (key -> entry numbers, as
array bytes); keywords are `str.find` over the joined summaries, mapped back to entries by
bisecting the offsets.

Freshness: each source file is keyed by (size, mtime); an appended `learnings.md` is parsed
only from where the cache stopped (its tail is checked), any other change re-parses that one
file. The stats log is append-only: the cache remembers the offset it has folded in, and
folds in only the new lines. The cache lives in the user's config dir, signed with the hook
secret (HMAC over the project path and the bytes); a bad signature or another Python version
just means a rebuild, never trusted data.
"""

import array
import hashlib
import hmac
import marshal
import math
import os
import sys
from bisect import bisect_right

from core.learning import store

VERSION = 5
MAGIC = b"SANEIDX%d " % VERSION
PRIOR_HIT_RATE = 0.5  # a learning never surfaced yet: neither good nor bad
RECENCY_90D = 0.3  # recency weight at 90 days
K_DAY = -math.log(RECENCY_90D) / 90.0
K_SEC = K_DAY / 86400.0
TR_DETAIL = 400
STATUS = {"active": 97, "archived": 114, "superseded": 115}  # a r s
STATUS_NAME = {v: k for k, v in STATUS.items()}
CAT = "pattern pitfall convention dependency process domain debugging".split()
COUNTERS = ("created", "off", "ln", "sur", "ref", "dis", "last_ref")
TR_KINDS = ("tr", "reg")  # Total Recall daily logs, registers: never rewritten by us


def cache_path(project):
    from core.state import config_dir

    h = hashlib.sha256(project.encode("utf-8", "replace")).hexdigest()[:20]
    return os.path.join(config_dir(), "learning-cache", h + ".idx")


def hit_rate(sur, ref):
    return ref / sur if sur else PRIOR_HIT_RATE


def log_weight(created, last_ref, sur, ref):
    """log of recency x (0.1 + 0.9 x hit rate), up to the constant exp(-k now): rankings by
    it never go stale, since every entry's recency decays at the same rate."""
    return K_SEC * max(created, last_ref) + math.log(0.1 + 0.9 * min(1.0, hit_rate(sur, ref)))


class Entry:
    """One learning while the columns are being rebuilt."""

    __slots__ = (
        "id",
        "summ",
        "tags",
        "files",
        "cat",
        "status",
        "created",
        "src",
        "off",
        "ln",
        "sur",
        "ref",
        "dis",
        "last_ref",
        "tr",
    )

    def __init__(self, lid, summ, tags, files, cat, status, created, src, off, ln, tr=None):
        self.id, self.summ, self.tags, self.files, self.cat = lid, summ, tags, files, cat
        self.status, self.created, self.src, self.off, self.ln = status, created, src, off, ln
        self.sur = self.ref = self.dis = self.last_ref = 0
        self.tr = tr


def _entry(rec, src, off, ln, kind):
    tr = None
    if kind in TR_KINDS:
        tr = [
            rec.get("summary") or "",
            (rec.get("detail") or "")[:TR_DETAIL],
            rec.get("category") or "",
            rec.get("tags") or [],
            rec.get("context_files") or [],
            rec.get("confidence") or "medium",
        ]
    cat = rec.get("category") or ""
    return Entry(
        rec["id"],
        " ".join((rec.get("summary") or "").split()).lower(),
        [t.lower() for t in rec.get("tags") or [] if t],
        [f.rstrip("/") for f in rec.get("context_files") or [] if f.rstrip("/")],
        CAT.index(cat) if cat in CAT else 255,
        STATUS.get(rec.get("status") or "active", 97),
        int(rec.get("created") or 0),
        src,
        off,
        ln,
        tr,
    )


class Index:
    def __init__(self):
        self.sources = {}  # path -> [kind, size, mtime_ns, parsed bytes, tail hex]
        self.paths = []  # src number -> path
        self.overrides = {}  # Total Recall ids -> status (their files are never rewritten)
        self.totals = {}
        self.stats_off = 0
        self.stats_tail = ""
        self.decay_at = 0
        self.dirty = False
        self._compose([])

    # ------------------------------------------------------------ columns

    def _compose(self, entries):
        n = len(entries)
        self.n = n
        self._map, self._finds = None, 0
        self.ids = "".join(e.id + "\n" for e in entries)
        self.id_pos = _positions(entries, lambda e: len(e.id) + 1)
        self.summ = "".join(e.summ + "\n" for e in entries)
        self.summ_pos = _positions(entries, lambda e: len(e.summ) + 1)
        self.tag_post = _postings(entries, lambda e: e.tags)
        self.file_post = _postings(entries, lambda e: e.files)
        self.cat = bytearray(e.cat for e in entries)
        self.status = bytearray(e.status for e in entries)
        paths = {}
        for e in entries:
            paths.setdefault(e.src, len(paths))
        self.paths = list(paths)
        self.src = array.array("H", (paths[e.src] for e in entries))
        for name in COUNTERS:
            setattr(self, name, array.array("q", (getattr(e, name) for e in entries)))
        self.lw = array.array(
            "d", (log_weight(e.created, e.last_ref, e.sur, e.ref) for e in entries)
        )
        self.tr = {e.id: e.tr for e in entries if e.tr is not None}

    def decompose(self):
        tags = [[] for _ in range(self.n)]
        files = [[] for _ in range(self.n)]
        for post, out in ((self.tag_post, tags), (self.file_post, files)):
            for key in post:
                for i in self.postings(post, key):
                    out[i].append(key)
        res = []
        for i in range(self.n):
            lid = self.id_of(i)
            e = Entry(
                lid,
                self.summ[self.summ_pos[i] : self.summ_pos[i + 1] - 1],
                tags[i],
                files[i],
                self.cat[i],
                self.status[i],
                self.created[i],
                self.paths[self.src[i]],
                self.off[i],
                self.ln[i],
                self.tr.get(lid),
            )
            e.sur, e.ref, e.dis, e.last_ref = (
                self.sur[i],
                self.ref[i],
                self.dis[i],
                self.last_ref[i],
            )
            res.append(e)
        return res

    @staticmethod
    def postings(post, key):
        """Entry numbers under key of a postings dict (an array decoded from bytes)."""
        raw = post.get(key)
        a = array.array("i")
        if raw:
            a.frombytes(raw)
        return a

    def id_of(self, i):
        return self.ids[self.id_pos[i] : self.id_pos[i + 1] - 1]

    def find(self, lid):
        """Entry number of an id, or None. A few look-ups scan the ids; more build a map."""
        if not lid:
            return None
        if self._map is None:
            self._finds += 1
            if self._finds <= 3:
                pos = self.ids.find(lid + "\n")
                while pos > 0 and self.ids[pos - 1] != "\n":
                    pos = self.ids.find(lid + "\n", pos + 1)
                return None if pos < 0 else bisect_right(self.id_pos, pos) - 1
            self._map = dict(zip(self.ids.split("\n"), range(self.n)))
        return self._map.get(lid)

    def path_of(self, i):
        return self.paths[self.src[i]]

    def kind_of(self, i):
        return (self.sources.get(self.path_of(i)) or ["md"])[0]

    def reweigh(self, i):
        self.lw[i] = log_weight(self.created[i], self.last_ref[i], self.sur[i], self.ref[i])

    # ------------------------------------------------------------ disk

    def dump(self):
        doc = {
            "sources": self.sources,
            "paths": self.paths,
            "overrides": self.overrides,
            "totals": self.totals,
            "stats_off": self.stats_off,
            "stats_tail": self.stats_tail,
            "decay_at": self.decay_at,
            "n": self.n,
            "ids": self.ids,
            "summ": self.summ,
            "tag_post": self.tag_post,
            "file_post": self.file_post,
            "cat": bytes(self.cat),
            "status": bytes(self.status),
            "tr": self.tr,
            "lw": self.lw.tobytes(),
            "src": self.src.tobytes(),
        }
        for name in ("id_pos", "summ_pos") + COUNTERS:
            doc[name] = getattr(self, name).tobytes()
        return marshal.dumps(doc)

    @classmethod
    def undump(cls, data):
        doc = marshal.loads(data)
        idx = cls.__new__(cls)
        idx.dirty = False
        idx._map, idx._finds = None, 0
        for key in (
            "sources",
            "paths",
            "overrides",
            "totals",
            "stats_off",
            "stats_tail",
            "decay_at",
            "n",
            "ids",
            "summ",
            "tag_post",
            "file_post",
            "tr",
        ):
            setattr(idx, key, doc[key])
        idx.cat = bytearray(doc["cat"])
        idx.status = bytearray(doc["status"])
        for name, code in (("lw", "d"), ("src", "H")):
            a = array.array(code)
            a.frombytes(doc[name])
            setattr(idx, name, a)
        for name in ("id_pos", "summ_pos") + COUNTERS:
            a = array.array("q")
            a.frombytes(doc[name])
            setattr(idx, name, a)
        return idx


def _postings(entries, keys):
    """{key: array('i') of entry numbers, as bytes}: exact look-ups without a scan."""
    post = {}
    for i, e in enumerate(entries):
        for k in keys(e):
            post.setdefault(k, []).append(i)
    return {k: array.array("i", v).tobytes() for k, v in post.items()}


def _positions(items, size):
    pos = array.array("q", [0])
    total = 0
    for it in items:
        total += size(it)
        pos.append(total)
    return pos


def _key(project):
    from core.state import secret_key

    return (
        secret_key() + b"|" + project.encode("utf-8", "replace") + b"|%d.%d" % sys.version_info[:2]
    )


def load(project):
    try:
        with open(cache_path(project), "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    head, _, body = raw.partition(b"\n")
    if not head.startswith(MAGIC):
        return None
    sig = head[len(MAGIC) :].decode("ascii", "replace")
    if not hmac.compare_digest(hmac.new(_key(project), body, hashlib.sha256).hexdigest(), sig):
        return None
    try:
        return Index.undump(body)
    except Exception:  # a cache is only a cache: rebuild it
        return None


def save(idx, project):
    body = idx.dump()
    sig = hmac.new(_key(project), body, hashlib.sha256).hexdigest().encode()
    path = cache_path(project)
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        tmp = "%s.%d.tmp" % (path, os.getpid())
        with open(tmp, "wb") as fh:
            fh.write(MAGIC + sig + b"\n" + body)
        os.replace(tmp, path)
        idx.dirty = False
        return True
    except OSError:
        return False


# ---------------------------------------------------------------- refresh


def wanted_sources(project, cfg):
    """[(path, kind)] in merge priority: project markdown, personal, Total Recall."""
    out = [(store.markdown_path(project), "md"), (store.personal_path(), "personal")]
    if store.backend_of(project, cfg) == "total-recall" or store.total_recall_detected(project):
        daily, regs = store.tr_files(project)
        out += [(p, "tr") for p in daily] + [(p, "reg") for p in regs]
    return out


def _parse_source(path, kind, data, base=0, mtime=0):
    if kind in TR_KINDS:
        text = data.decode("utf-8", "replace")
        date = store.date_of(path) if kind == "tr" else None
        out = []
        for rec, off, ln in store.parse_tr(text, date):
            rec.setdefault("created", int(mtime))  # a register entry: as recent as its file
            out.append(_entry(rec, path, off, ln, kind))
        return out
    return [_entry(rec, path, base + off, ln, kind) for rec, off, ln in store.scan_md(data)]


def _tail(data):
    return hashlib.sha1(data[-64:]).hexdigest()[:16]


def refresh(project, cfg, idx=None):
    """The index, up to date with the source files and the stats log. idx.dirty says whether
    it should be saved."""
    if idx is None:
        idx = load(project)
    if idx is None:
        idx = Index()
        idx.dirty = True
    want = wanted_sources(project, cfg)
    entries = None
    seen = set()
    for path, kind in want:
        try:
            st = os.stat(path)
        except OSError:
            continue
        seen.add(path)
        old = idx.sources.get(path)
        if old and old[1] == st.st_size and old[2] == st.st_mtime_ns:
            continue
        if entries is None:
            entries = idx.decompose()
        try:
            with open(path, "rb") as fh:
                if (
                    old
                    and kind not in TR_KINDS
                    and old[3]
                    and st.st_size > old[3]
                    and old[0] == kind
                ):
                    fh.seek(max(0, old[3] - 64))
                    prefix = fh.read(old[3] - max(0, old[3] - 64))
                    if _tail(prefix) == old[4]:
                        fresh = fh.read()
                        new = _parse_source(path, kind, fresh, base=old[3])
                        known = {e.id for e in entries if e.src == path}
                        entries.extend(e for e in new if e.id not in known)
                        parsed = old[3] + len(fresh)
                        idx.sources[path] = [
                            kind,
                            st.st_size,
                            st.st_mtime_ns,
                            parsed,
                            _tail(prefix + fresh),
                        ]
                        continue
                    fh.seek(0)
                data = fh.read()
        except OSError:
            continue
        keep = {e.id: e for e in entries if e.src == path}
        entries = [e for e in entries if e.src != path]
        for e in _parse_source(path, kind, data, mtime=st.st_mtime):
            o = keep.get(e.id)
            if o is not None:
                e.sur, e.ref, e.dis, e.last_ref = o.sur, o.ref, o.dis, o.last_ref
            if kind in TR_KINDS and e.id in idx.overrides:
                e.status = STATUS.get(idx.overrides[e.id], 97)
            entries.append(e)
        idx.sources[path] = [kind, st.st_size, st.st_mtime_ns, len(data), _tail(data)]
    gone = [p for p in idx.sources if p not in seen]
    if gone:
        if entries is None:
            entries = idx.decompose()
        entries = [e for e in entries if e.src not in gone]
        for p in gone:
            del idx.sources[p]
    if entries is not None:
        # one id, one entry: the first source in priority order wins
        order = {p: n for n, (p, _) in enumerate(want)}
        entries.sort(key=lambda e: order.get(e.src, 1 << 30))
        uniq, ids = [], set()
        for e in entries:
            if e.id not in ids:
                ids.add(e.id)
                uniq.append(e)
        idx._compose(uniq)
        idx.dirty = True
    fold_stats(project, idx)
    return idx


def fold_stats(project, idx):
    """Fold the stats lines appended since the cache last saw the log."""
    from core.learning import stats

    path = stats.stats_path(project)
    try:
        size = os.path.getsize(path)
    except OSError:
        size = 0
    if size < idx.stats_off:
        _reset_counters(idx)
    if size == idx.stats_off:
        return
    try:
        with open(path, "rb") as fh:
            if idx.stats_off:
                fh.seek(max(0, idx.stats_off - 64))
                prefix = fh.read(idx.stats_off - max(0, idx.stats_off - 64))
                if _tail(prefix) != idx.stats_tail:
                    _reset_counters(idx)
                    fh.seek(0)
            data = fh.read()
    except OSError:
        return
    end = data.rfind(b"\n") + 1
    if end <= 0:
        return
    start = idx.stats_off
    touched = set()
    for rec in stats.decode([ln for ln in data[:end].split(b"\n") if ln.strip()]):
        stats.fold(idx, rec, touched)
    for i in touched:
        idx.reweigh(i)
    idx.stats_off = start + end
    tail_src = (prefix if start else b"") + data[:end] if start else data[:end]
    idx.stats_tail = _tail(tail_src)
    if end > 16384 or idx.dirty:
        idx.dirty = True


def _reset_counters(idx):
    for name in ("sur", "ref", "dis", "last_ref"):
        setattr(idx, name, array.array("q", bytes(8 * idx.n)))
    for i in range(idx.n):
        idx.reweigh(i)
    idx.totals = {}
    idx.stats_off = 0
    idx.stats_tail = ""
    idx.dirty = True
