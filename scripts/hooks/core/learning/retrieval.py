"""Retrieval: which stored learnings a session starts with, and passive decay.

Relevance from a structured query (the ticket's title, description and labels, the files git
says changed, keywords): exact tag 1.0, partial tag 0.5, a context file that changed (or its
directory) 0.8, a keyword in the summary 0.3; an entry's relevance is its best match.
composite = relevance x recency x (0.1 + 0.9 x hit rate), recency = exp(-k x days since it was
written or last referenced), k chosen so that 90 days weigh 0.3. Strategies: conservative
(relevance >= 0.8, at most 3), moderate (>= 0.3, at most 5; with no context at all, the best
learnings overall), aggressive (at most 10, topped up with the best learnings overall at a
base relevance of 0.1). An explicitly configured learning.retrieval.max_injections caps all.
"""

import heapq
import math
import os
from bisect import bisect_right

from core.learning import index as lidx
from core.learning import store

STRATEGIES = {"conservative": (0.8, 3), "moderate": (0.3, 5), "aggressive": (0.1, 10)}
BASE_RELEVANCE = 0.1
EXACT_TAG, PARTIAL_TAG, FILE_OVERLAP, KEYWORD = 1.0, 0.5, 0.8, 0.3
HITS_CAP = 5000
CONTEXT_CAP = 4000
DETAIL_SHOWN = 300
STOPWORDS = frozenset(
    """the and for with that this from into have has was were will would
should could about them then than there their what when where which while your you our are
not but can just also some more most very make sure please need want like does done onto over
under file files code todo ticket issue task work fix add""".split()
)


class Query:
    __slots__ = ("tags", "files", "keywords")

    def __init__(self, tags=(), files=(), keywords=()):
        self.tags = list(dict.fromkeys(tags))
        self.files = list(dict.fromkeys(files))
        self.keywords = list(dict.fromkeys(keywords))

    @property
    def empty(self):
        return not (self.tags or self.files or self.keywords)


def words(text, limit=12):
    out = []
    for w in "".join(c.lower() if c.isalnum() or c in "_-" else " " for c in text or "").split():
        w = w.strip("-_")
        if len(w) >= 4 and w not in STOPWORDS and not w.isdigit() and w not in out:
            out.append(w)
    return out[:limit]


def query_for(ticket=None, changed=(), text=""):
    ticket = ticket or {}
    kws = words("%s %s %s" % (ticket.get("title") or "", ticket.get("description") or "", text))
    tags = [str(x).lower().lstrip("#") for x in ticket.get("labels") or []]
    tags += words(ticket.get("title") or "", 8) + words(text, 8)
    for f in changed:
        stem = os.path.splitext(os.path.basename(f))[0].lower()
        if len(stem) >= 3:
            tags.append(stem)
        parent = os.path.basename(os.path.dirname(f)).lower()
        if len(parent) >= 3:
            tags.append(parent)
    return Query([t for t in tags if t and "|" not in t], [f for f in changed if "|" not in f], kws)


def changed_files(project, cap=50):
    """Files git sees changed or untracked (one `git status` call, 2 s timeout)."""
    return changed_files_finish(changed_files_start(project), cap)


def changed_files_start(project):
    """Start `git status` in the background (SessionStart loads the index meanwhile)."""
    if not os.path.exists(os.path.join(project, ".git")):
        return None
    from core import gitrun
    from core.learning.tickets import spawn

    argv = gitrun.argv(project, "status", "--porcelain", "-z", "--untracked-files=all")
    return spawn(argv) or ("sync", argv)


def changed_files_finish(handle, cap=50):
    if handle is None:
        return []
    from core.learning.tickets import collect, run

    if handle[0] == "sync":
        out = run(handle[1], None)
        out = out.encode("utf-8") if out is not None else None
    else:
        out = collect(handle)
    if not out:
        return []
    files = []
    recs = out.decode("utf-8", "replace").split("\0")
    i = 0
    while i < len(recs) and len(files) < cap:
        r = recs[i]
        i += 1
        if len(r) < 4:
            continue
        files.append(r[3:])
        if r[0] in "RC":
            i += 1  # the rename's source path follows
    return files


# ---------------------------------------------------------------- ranking


def _hits(blob, pos, needle):
    out = []
    start = 0
    find = blob.find
    while len(out) < HITS_CAP:
        k = find(needle, start)
        if k < 0:
            break
        out.append(bisect_right(pos, k) - 1)
        start = k + 1
    return out


def relevance(idx, q):
    """{entry: [best relevance, number of matches]}."""
    rel = {}

    def bump(i, r):
        cur = rel.get(i)
        if cur is None:
            rel[i] = [r, 1]
        else:
            if r > cur[0]:
                cur[0] = r
            cur[1] += 1

    post = idx.postings
    for t in q.tags:
        exact = post(idx.tag_post, t)
        for i in exact:
            bump(i, EXACT_TAG)
        if len(t) >= 3:
            for tag in idx.tag_post:
                if t in tag and tag != t:
                    for i in post(idx.tag_post, tag):
                        bump(i, PARTIAL_TAG)
    for f in q.files:
        keys = [f]
        d = os.path.dirname(f)
        while d and d not in ("/", "."):
            keys.append(d)  # a learning about a directory covers the files in it
            d = os.path.dirname(d)
        if "/" not in f:  # a bare file name matches it in any directory
            keys += [k for k in idx.file_post if k.endswith("/" + f)]
        for key in keys:
            for i in post(idx.file_post, key):
                bump(i, FILE_OVERLAP)
    for kw in q.keywords:
        for i in set(_hits(idx.summ, idx.summ_pos, kw)):
            bump(i, KEYWORD)
    return rel


def limits(cfg):
    strategy = cfg.text("learning.retrieval.strategy").lower()
    min_rel, cap = STRATEGIES.get(strategy, STRATEGIES["moderate"])
    if "learning.retrieval.max_injections" in getattr(cfg, "sources", {}):
        # Only a value the person set narrows the strategy's cap; one that is not a number
        # leaves the strategy's cap (not the default) in force.
        try:
            cap = min(cap, max(0, int(cfg.get("learning.retrieval.max_injections"))))
        except (TypeError, ValueError):
            pass
    return strategy, min_rel, cap


def rank(idx, q, now, strategy, min_rel, cap):
    """[(composite score, entry, relevance)], best first, at most cap."""
    if cap <= 0 or idx.n == 0:
        return []
    rel = relevance(idx, q)
    shift = lidx.K_SEC * now
    lw, status, log = idx.lw, idx.status, math.log
    # rank by log(composite) = log(relevance) + lw - k now (one log per match), then compute
    # the composite of the few kept
    keyed = []
    for i, (r, n) in rel.items():
        if r < min_rel or status[i] != 97:
            continue
        eff = r + 0.01 * (n - 1) if n < 10 else r + 0.09
        keyed.append((log(eff if eff < 1.0 else 1.0) + lw[i], i, r))
    scored = [
        (math.exp(min(0.0, k - shift)), i, round(r, 3)) for k, i, r in heapq.nlargest(cap, keyed)
    ]
    if strategy == "aggressive" or (q.empty and strategy == "moderate"):
        rest = (i for i in range(idx.n) if status[i] == 97 and i not in rel)
        for i in heapq.nlargest(cap, rest, key=lw.__getitem__):
            scored.append((BASE_RELEVANCE * math.exp(min(0.0, lw[i] - shift)), i, BASE_RELEVANCE))
    return heapq.nlargest(cap, scored)


def view(idx, i):
    """The full learning behind an index entry (read by offset, not the whole file)."""
    lid = idx.id_of(i)
    tr = idx.tr.get(lid)
    if tr is not None:
        return {
            "id": lid,
            "summary": tr[0],
            "detail": tr[1],
            "category": tr[2],
            "tags": tr[3],
            "context_files": tr[4],
            "confidence": tr[5],
            "source": "total-recall",
        }
    path = idx.path_of(i)
    rec = store.read_entry(path, idx.off[i], idx.ln[i])
    if rec is None or rec.get("id") != lid:
        rec = find_entry(path, lid)
    if rec is not None:
        rec["source"] = idx.kind_of(i)
    return rec


def find_entry(path, lid):
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    needle = ("## %s:" % lid).encode()
    k = data.find(b"\n" + needle)
    k = k + 1 if k >= 0 else (0 if data.startswith(needle) else -1)
    if k < 0:
        return None
    end = data.find(store.ENTRY, k)
    return store.parse_entry(data[k : end if end >= 0 else len(data)].decode("utf-8", "replace"))


def render(picks):
    """additionalContext text for the injected learnings."""
    out = [
        "sane: learnings recorded in earlier sessions of this project, most relevant "
        "first. Use them where they apply; when one helps, mention its id."
    ]
    size = len(out[0])
    for score, rec in picks:
        extra = []
        if rec.get("tags"):
            extra.append("tags: " + ", ".join(rec["tags"][:6]))
        if rec.get("context_files"):
            extra.append("files: " + ", ".join(rec["context_files"][:4]))
        detail = " ".join((rec.get("detail") or "").split())
        if len(detail) > DETAIL_SHOWN:
            detail = detail[: DETAIL_SHOWN - 3] + "..."
        item = "- [%s] %s (%s%s)\n  %s" % (
            rec.get("category") or "?",
            rec.get("summary") or "",
            rec["id"],
            "; " + "; ".join(extra) if extra else "",
            detail,
        )
        if size + len(item) > CONTEXT_CAP:
            break
        out.append(item)
        size += len(item) + 1
    return "\n".join(out) if len(out) > 1 else ""


# ---------------------------------------------------------------- decay


def decay(project, cfg, idx, now, force=False):
    """Archive active learnings unused for passive_duration_days, unless their hit rate is at
    or above immunity_hit_rate. Once a day unless forced. Returns the archived ids."""
    from core.learning import stats

    if not force and now - (idx.decay_at or 0) < 86400:
        return []
    idx.decay_at = now
    idx.dirty = True
    try:
        days = float(cfg.get("learning.decay.passive_duration_days"))
        immunity = float(cfg.get("learning.decay.immunity_hit_rate"))
    except (TypeError, ValueError):
        return []
    limit = now - days * 86400
    md, tr = {}, []
    for i in range(idx.n):
        if idx.status[i] != 97 or max(idx.created[i], idx.last_ref[i]) >= limit:
            continue
        if idx.sur[i] and idx.ref[i] / float(idx.sur[i]) >= immunity:
            continue
        lid = idx.id_of(i)
        kind = idx.kind_of(i)
        if kind == "reg":
            continue  # registers are the person's promoted memory: decay leaves them alone
        if kind == "tr":
            tr.append(lid)
            idx.overrides[lid] = "archived"
            idx.status[i] = 114
        else:
            md[lid] = {"status": "archived"}
    done = store.set_status(project, md, now) if md else set()
    archived = sorted(done) + tr
    for lid in archived:
        stats.append(
            project,
            "archived",
            id=lid,
            reason="passive decay (unused %g days)" % days,
            backend="total-recall" if lid in tr else "markdown",
        )
    if archived:
        stats.append(project, "decay", archived=len(archived))
        lidx.refresh(project, cfg, idx)
    return archived


def inject(ctx, sec):
    """SessionStart: rank, inject, record `surfaced`, decay once a day."""
    from core.learning import gate, stats

    project, cfg, now = ctx.project, ctx.cfg, ctx.now
    git = changed_files_start(project)
    idx = lidx.refresh(project, cfg)
    archived = decay(project, cfg, idx, now)
    if archived:
        gate.trace(sec, now, "LearningsArchived", "%d by passive decay" % len(archived))
    picks = []
    changed = changed_files_finish(git)
    if idx.n:
        strategy, min_rel, cap = limits(cfg)
        q = query_for(sec.get("ticket"), changed)
        for score, i, rel in rank(idx, q, now, strategy, min_rel, cap):
            rec = view(idx, i)
            if rec is not None:
                picks.append((score, rec))
    text = render(picks)
    shown = picks[: text.count("\n- [")] if text else []
    if text:
        ctx.answer.add_context(text)
        inj = [x for x in sec.get("injected") or [] if x.get("outcome") == "referenced"]
        known = {x["id"] for x in inj}
        for score, rec in shown:
            cat = rec.get("category")
            if rec["id"] not in known:
                inj.append(
                    {
                        "id": rec["id"],
                        "score": round(score, 4),
                        "category": cat,
                        "files": (rec.get("context_files") or [])[:10],
                        "outcome": "surfaced",
                    }
                )
            stats.append(
                project,
                "surfaced",
                id=rec["id"],
                session=ctx.sid,
                score=round(score, 4),
                category=cat,
            )
        sec["injected"] = inj[-20:]
        gate.trace(sec, now, "LearningsInjected", "%d (see injected)" % len(shown))
    if idx.dirty:
        lidx.save(idx, project)
    return shown
