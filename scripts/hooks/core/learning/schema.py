"""The learning entity and the two validation layers of `sane.py learn reflect`.

Layer 1 (schema) is deterministic; layer 2 (the write gate) judges whether the claimed
criteria are plausible given the text (strict: an implausible claim rejects; lenient: it only
lowers the confidence; off: no judgement). Near-duplicates of an active learning, or of
another candidate in the same batch, are rejected. Every rejection carries its reason.
"""

import os
import time

SCHEMA_VERSION = 1
CATEGORIES = ("pattern", "pitfall", "convention", "dependency", "process", "domain", "debugging")
CRITERIA = ("behavior_changing", "decision_rationale", "stable_fact", "explicit_request")
SCOPES = ("project", "team", "personal", "ephemeral")
CONFIDENCES = ("high", "medium", "low")
STATUSES = ("active", "archived", "superseded")
WRITE_GATE_MODES = ("strict", "lenient", "off")
SUMMARY_LEN = (10, 200)
DETAIL_LEN = (20, 2000)
TAGS_LEN = (1, 10)
TAG_MAX = 40
FILES_MAX = 20
MAX_CANDIDATES = 20

# Indicator phrases per criterion: the write gate's plausibility check (seed 002, 6.2).
INDICATORS = {
    "behavior_changing": (
        "instead",
        "always",
        "never",
        "don't",
        "do not",
        "avoid",
        "must",
        "should",
        "next time",
        "prefer",
        "make sure",
        "remember to",
        "before",
        "otherwise",
        "use ",
        "rather",
        "only ",
        "need to",
        "needs to",
        "careful",
        "watch out",
        "beware",
        "breaks",
        "fails",
        "check ",
    ),
    "decision_rationale": (
        "because",
        "chose",
        "chosen",
        "choose",
        "instead of",
        "over ",
        "trade-off",
        "tradeoff",
        "rather than",
        "so that",
        "decided",
        "reason",
        "why ",
        "since ",
        "in order to",
        "alternative",
        "versus",
        " vs ",
        "pros",
        "cons",
        "cheaper",
        "faster",
        "simpler",
        "safer",
    ),
    "stable_fact": (
        "is ",
        "are ",
        "requires",
        "uses",
        "lives in",
        "located",
        "defined in",
        "configured",
        "version",
        "returns",
        "expects",
        "depends on",
        "default",
        "takes ",
        "runs ",
        "stored",
        "`",
        "/",
        ".py",
        "()",
        "=",
        "::",
    ),
    "explicit_request": (
        "remember",
        "user asked",
        "user said",
        "user wants",
        "the person",
        "asked me",
        "asked to",
        "requested",
        "request",
        "told me",
        "wants ",
        "insisted",
        "explicitly",
    ),
}


class Rejection:
    __slots__ = ("index", "summary", "reason")

    def __init__(self, index, summary, reason):
        self.index = index
        self.summary = summary
        self.reason = reason

    def as_dict(self):
        return {"index": self.index, "summary": self.summary, "reason": self.reason}


# ---------------------------------------------------------------- ids and times

_last_ms = [0, 0]
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def new_id(now=None):
    """`learn-<ULID>`: 48-bit milliseconds + 80 random bits, Crockford base32, monotonic
    within the process so a batch keeps its order."""
    ms = int((time.time() if now is None else now) * 1000)
    rnd = int.from_bytes(os.urandom(10), "big")
    if ms <= _last_ms[0]:
        ms, rnd = _last_ms[0], (_last_ms[1] + 1) % (1 << 80)
    _last_ms[0], _last_ms[1] = ms, rnd
    n = (ms << 80) | rnd
    out = []
    for _ in range(26):
        out.append(_CROCKFORD[n & 31])
        n >>= 5
    return "learn-" + "".join(reversed(out))


def iso(ts):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def parse_iso(text):
    """Epoch seconds from `YYYY-MM-DDTHH:MM:SSZ` (or a date); None if it is not one."""
    import calendar

    t = text.strip()
    try:
        y, mo, d = int(t[0:4]), int(t[5:7]), int(t[8:10])
        h = mi = s = 0
        if len(t) >= 16:
            h, mi = int(t[11:13]), int(t[14:16])
        if len(t) >= 19 and t[16] == ":":
            s = int(t[17:19])
        return calendar.timegm((y, mo, d, h, mi, s, 0, 0, 0))
    except (ValueError, IndexError):
        return None


# ---------------------------------------------------------------- normalisation


def one_line(text):
    return " ".join(text.split())


def norm_tag(tag):
    t = "-".join(tag.strip().lstrip("#").split()).lower()
    return t.strip(",")


def norm_summary_key(text):
    return one_line(text).lower()


def _str_list(value, what):
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return None, "%s must be a list of strings" % what
    if not all(isinstance(x, str) for x in value):
        return None, "%s must be a list of strings" % what
    return value, None


def _enum(value, allowed, what, default=None):
    if value is None or value == "":
        if default is not None:
            return default, None
        return None, "%s is missing (one of %s)" % (what, ", ".join(allowed))
    if not isinstance(value, str) or value.strip().lower() not in allowed:
        return None, "%s %r is not one of %s" % (what, value, ", ".join(allowed))
    return value.strip().lower(), None


def plausible(criterion, text):
    """How many indicator phrases of the criterion the text has (0: implausible)."""
    low = " " + text.lower() + " "
    return sum(1 for phrase in INDICATORS.get(criterion, ()) if phrase in low)


# ---------------------------------------------------------------- layer 1 and 2


def check_candidate(raw, mode="lenient"):
    """(learning fields dict, None) or (None, reason). No ids or session data yet."""
    if not isinstance(raw, dict):
        return None, "a candidate must be a JSON object"
    cat, why = _enum(raw.get("category"), CATEGORIES, "category")
    if why:
        return None, why
    summary = raw.get("summary")
    if not isinstance(summary, str):
        return None, "summary is missing (a string of %d-%d characters)" % SUMMARY_LEN
    summary = one_line(summary)
    if not SUMMARY_LEN[0] <= len(summary) <= SUMMARY_LEN[1]:
        return None, "summary has %d characters (needs %d-%d)" % ((len(summary),) + SUMMARY_LEN)
    if summary.lower().startswith("example:"):
        return None, "summary is the example from the instructions; write what you learned"
    detail = raw.get("detail")
    if not isinstance(detail, str):
        return None, "detail is missing (a string of %d-%d characters)" % DETAIL_LEN
    detail = detail.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not DETAIL_LEN[0] <= len(detail) <= DETAIL_LEN[1]:
        return None, "detail has %d characters (needs %d-%d)" % ((len(detail),) + DETAIL_LEN)
    if one_line(detail).lower() == summary.lower():
        return None, "detail repeats the summary; say more in the detail"
    if raw.get("tags") is None:
        return None, "tags is missing (1-10 strings)"
    tags, why = _str_list(raw.get("tags"), "tags")
    if why:
        return None, why
    tags = [norm_tag(t) for t in tags]
    if any(not t for t in tags):
        return None, "tags must be non-empty strings"
    if any(len(t) > TAG_MAX for t in tags):
        return None, "a tag is longer than %d characters" % TAG_MAX
    tags = list(dict.fromkeys(tags))
    if not TAGS_LEN[0] <= len(tags) <= TAGS_LEN[1]:
        return None, "tags has %d entries (needs %d-%d)" % ((len(tags),) + TAGS_LEN)
    if raw.get("criteria_met") is None:
        return None, "criteria_met is missing (at least one of %s)" % ", ".join(CRITERIA)
    crit, why = _str_list(raw.get("criteria_met"), "criteria_met")
    if why:
        return None, why
    crit = [c.strip().lower() for c in crit]
    bad = [c for c in crit if c not in CRITERIA]
    if bad:
        return None, "criteria_met %r is not one of %s" % (bad[0], ", ".join(CRITERIA))
    crit = list(dict.fromkeys(crit))
    if not crit:
        return None, "criteria_met needs at least one of %s" % ", ".join(CRITERIA)
    scope, why = _enum(raw.get("scope"), SCOPES, "scope", default="project")
    if why:
        return None, why
    given, why = _enum(raw.get("confidence"), CONFIDENCES, "confidence", default="")
    if why:
        return None, why
    files, why = _str_list(raw.get("context_files") or [], "context_files")
    if why:
        return None, why
    files = list(dict.fromkeys(f.strip() for f in files if f.strip()))[:FILES_MAX]
    sup = raw.get("supersedes")
    if sup is not None and not (isinstance(sup, str) and sup.strip().startswith("learn-")):
        return None, "supersedes must be the id of an active learning (learn-...)"
    # Layer 2: are the claimed criteria plausible for this text?
    text = summary + "\n" + detail
    hits = {c: plausible(c, text) for c in crit}
    plausible_n = sum(1 for c in crit if hits[c])
    if mode == "strict" and not plausible_n:
        return None, (
            "write gate (strict): nothing in the text supports the claimed criteria "
            "(%s); say why it changes behaviour, the rationale, the stable fact, or "
            "that the person asked" % ", ".join(crit)
        )
    if mode == "strict" and "explicit_request" in crit and not hits["explicit_request"]:
        return (
            None,
            "write gate (strict): explicit_request claimed but the text never says the person asked",
        )
    if mode == "off":
        computed = "medium"
    elif plausible_n == 0:
        computed = "low"
    elif plausible_n == len(crit) and max(hits.values()) >= 2:
        computed = "high"
    else:
        computed = "medium"
    confidence = given or computed
    if computed == "low" and mode != "off":
        confidence = "low"  # an unsupported claim never keeps a higher confidence
    return {
        "category": cat,
        "summary": summary,
        "detail": detail,
        "tags": tags,
        "criteria_met": crit,
        "scope": scope,
        "confidence": confidence,
        "context_files": files,
        "supersedes": sup.strip() if sup else None,
    }, None


def candidates_of(doc):
    """The candidate list from reflect's JSON: a list, or {"learnings": [...]} /
    {"candidates": [...]}, or one candidate object."""
    if isinstance(doc, list):
        return doc
    if isinstance(doc, dict):
        for key in ("learnings", "candidates"):
            if isinstance(doc.get(key), list):
                return doc[key]
        if "summary" in doc or "category" in doc:
            return [doc]
    return None


def validate(candidates, active, mode="lenient"):
    """(accepted fields list, rejections list). active: ({summary key: (id, summary)}, set of
    active ids) of the active learnings."""
    summaries, ids = active
    accepted, rejected = [], []
    seen = []
    for i, raw in enumerate(candidates[:MAX_CANDIDATES], 1):
        shown = (
            raw.get("summary")
            if isinstance(raw, dict) and isinstance(raw.get("summary"), str)
            else ""
        )
        fields, why = check_candidate(raw, mode)
        if why is None:
            key = norm_summary_key(fields["summary"])
            sup = fields["supersedes"]
            if sup and sup not in ids:
                why = "supersedes %s, which is not an active learning" % sup
            else:
                dup = _duplicate(key, summaries, skip_id=sup)
                if dup:
                    why = "near-duplicate of active learning %s (%r)" % dup
                else:
                    for other_i, other in seen:
                        if key in other or other in key:
                            why = "near-duplicate of candidate %d in this batch" % other_i
                            break
        if why:
            rejected.append(Rejection(i, one_line(shown)[:200], why))
            continue
        seen.append((i, key))
        accepted.append(fields)
    for i in range(MAX_CANDIDATES, len(candidates)):
        rejected.append(
            Rejection(i + 1, "", "more than %d candidates in one reflection" % MAX_CANDIDATES)
        )
    return accepted, rejected


def _duplicate(key, summaries, skip_id=None):
    """(id, summary) of an active learning whose summary contains key or is contained in it."""
    for other, (lid, text) in summaries.items():
        if lid == skip_id:
            continue
        if key in other or other in key:
            return lid, text
    return None


def build(fields, session, ticket, now):
    """A full learning record from validated fields."""
    rec = {
        "id": new_id(now),
        "schema": SCHEMA_VERSION,
        "status": "active",
        "session": session,
        "ticket": ticket,
        "created": int(now),
    }
    rec.update(fields)
    return rec
