"""`.claude/learning-stats.jsonl`: the append-only event log of the learning gate, folded into
the retrieval index's counters and totals, and the insights `sane.py learn stats` shows.

Events: written, surfaced, referenced, dismissed, reflection, rejected, skip, archived,
restored, superseded, breaker, decay. One JSON object per line, each line one write() on an
O_APPEND descriptor, so concurrent hooks and CLI runs never interleave.
"""

import json
import os
import time

STATS = os.path.join(".claude", "learning-stats.jsonl")
REJECTED_KEEP = 50


def stats_path(project):
    return os.path.join(project, STATS)


def append(project, event, **fields):
    """One event line. Never raises (a lost stats line is better than a stuck developer)."""
    rec = {"ts": round(time.time(), 3), "event": event}
    rec.update((k, v) for k, v in fields.items() if v is not None)
    line = (json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    try:
        path = stats_path(project)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)
        return True
    except OSError:
        return False


def _bump(d, key, n=1):
    d[key] = d.get(key, 0) + n


def decode(lines):
    """Parsed stats lines: one json.loads for the lot (fast), line by line if one is bad."""
    try:
        return json.loads(b"[" + b",".join(lines) + b"]")
    except ValueError:
        out = []
        for line in lines:
            try:
                out.append(json.loads(line))
            except ValueError:
                pass  # a torn or foreign line: skipped, never fatal
        return out


def fold(idx, rec, touched):
    """Fold one stats record into the index (per-learning counters) and its totals; the
    entries whose weight must be recomputed go into touched."""
    if not isinstance(rec, dict):
        return
    ev = rec.get("event")
    t = idx.totals
    ts = rec.get("ts") if isinstance(rec.get("ts"), (int, float)) else 0
    lid = rec.get("id")
    if ev in ("surfaced", "referenced", "dismissed"):
        _bump(t, ev)
        cat = rec.get("category")
        if isinstance(cat, str):
            _bump(t.setdefault("by_cat_" + ev, {}), cat)
        i = idx.find(lid) if isinstance(lid, str) else None
        if i is None:
            return
        if ev == "surfaced":
            idx.sur[i] += 1
        elif ev == "referenced":
            idx.ref[i] += 1
            idx.last_ref[i] = max(idx.last_ref[i], int(ts))
        else:
            idx.dis[i] += 1
        touched.add(i)
    elif ev in ("archived", "restored", "superseded"):
        _bump(t, ev)
        if not isinstance(lid, str):
            return
        status = "active" if ev == "restored" else ev
        i = idx.find(lid)
        if i is not None and idx.kind_of(i) in ("tr", "reg"):
            idx.overrides[lid] = status
            idx.status[i] = {"active": 97, "archived": 114, "superseded": 115}[status]
        elif i is None and rec.get("backend") == "total-recall":
            idx.overrides[lid] = status
        if ev == "restored" and i is not None:
            idx.last_ref[i] = max(idx.last_ref[i], int(ts))
            touched.add(i)
    elif ev == "written":
        _bump(t, "written")
        _bump(t.setdefault("by_cat_written", {}), rec.get("category") or "?")
        for c in rec.get("criteria") or []:
            if isinstance(c, str):
                _bump(t.setdefault("criteria", {}), c)
        _bump(t.setdefault("where", {}), (rec.get("where") or "?").split(":")[0])
    elif ev == "reflection":
        _bump(t, "reflections")
        _bump(t, "candidates", int(rec.get("produced") or 0))
        _bump(t, "accepted", int(rec.get("accepted") or 0))
        _bump(t, "rejected", int(rec.get("rejected") or 0))
        if not rec.get("accepted"):
            _bump(t, "failed_reflections")
        acc = [s.lower() for s in rec.get("accepted_summaries") or [] if isinstance(s, str)]
        old = t.get("rejected_topics") or []
        if acc and old:
            again = [s for s in old if any(_overlap(s, a) for a in acc)]
            if again:
                _bump(t, "rejected_then_accepted", len(again))
                old = [s for s in old if s not in again]
        new = [s.lower() for s in rec.get("rejected_summaries") or [] if isinstance(s, str) and s]
        t["rejected_topics"] = (old + new)[-REJECTED_KEEP:]
    elif ev == "skip":
        _bump(t, "skips")
        _bump(t.setdefault("skips_by", {}), rec.get("decider") or "agent")
    elif ev in ("breaker", "decay"):
        _bump(t, ev)


def _overlap(a, b):
    wa = {w for w in a.split() if len(w) > 3}
    wb = {w for w in b.split() if len(w) > 3}
    return bool(wa) and len(wa & wb) / float(len(wa)) >= 0.6


# ---------------------------------------------------------------- report


def summary(idx):
    """The numbers `learn stats` shows, as a dict."""
    t = idx.totals
    by_cat = {}
    for i in range(idx.n):
        c = idx.cat[i]
        name = CATS[c] if c < len(CATS) else "?"
        row = by_cat.setdefault(name, {"learnings": 0, "active": 0, "surfaced": 0, "referenced": 0})
        row["learnings"] += 1
        row["active"] += idx.status[i] == 97
        row["surfaced"] += idx.sur[i]
        row["referenced"] += idx.ref[i]
    for row in by_cat.values():
        row["hit_rate"] = round(row["referenced"] / row["surfaced"], 3) if row["surfaced"] else None
    sur = sum(r["surfaced"] for r in by_cat.values())
    ref = sum(r["referenced"] for r in by_cat.values())
    cand = t.get("candidates", 0)
    decisions = t.get("reflections", 0) - t.get("failed_reflections", 0) + t.get("skips", 0)
    return {
        "learnings": idx.n,
        "active": sum(1 for s in idx.status if s == 97),
        "by_category": by_cat,
        "hit_rate": round(ref / sur, 3) if sur else None,
        "surfaced": sur,
        "referenced": ref,
        "dismissed": sum(idx.dis),
        "reflections": t.get("reflections", 0),
        "candidates": cand,
        "accepted": t.get("accepted", 0),
        "rejected": t.get("rejected", 0),
        "write_gate_pass_rate": round(t.get("accepted", 0) / cand, 3) if cand else None,
        "skips": t.get("skips", 0),
        "skips_by": t.get("skips_by", {}),
        "skip_rate": round(t.get("skips", 0) / decisions, 3) if decisions else None,
        "criteria": t.get("criteria", {}),
        "written": t.get("written", 0),
        "rejected_then_accepted": t.get("rejected_then_accepted", 0),
        "breaker_trips": t.get("breaker", 0),
        "archived": t.get("archived", 0),
    }


CATS = "pattern pitfall convention dependency process domain debugging".split()


def insights(s):
    """The seed's tuning hints: rubber-stamping, a gate too strict or too loose, low-hit
    categories, a high skip rate."""
    out = []
    written = s["written"]
    crit = s["criteria"]
    if (
        written >= 5
        and crit.get("behavior_changing", 0) >= 0.9 * written
        and (s["hit_rate"] is None or s["hit_rate"] < 0.2)
    ):
        out.append(
            "rubber-stamping: %d%% of learnings claim behavior_changing and the hit rate "
            "is %s; the criteria may be claimed by habit"
            % (
                round(100.0 * crit.get("behavior_changing", 0) / written),
                "unknown" if s["hit_rate"] is None else "%.0f%%" % (100 * s["hit_rate"]),
            )
        )
    pr = s["write_gate_pass_rate"]
    if pr is not None and s["candidates"] >= 10 and pr < 0.3:
        out.append(
            "gate too strict: only %.0f%% of candidates pass; consider "
            "learning.write_gate: lenient" % (100 * pr)
        )
    if s["rejected_then_accepted"] >= 2:
        out.append(
            "gate too strict: %d rejected topics were accepted later" % s["rejected_then_accepted"]
        )
    if (
        pr is not None
        and s["candidates"] >= 20
        and pr > 0.95
        and (s["hit_rate"] is not None and s["hit_rate"] < 0.2 and s["surfaced"] >= 20)
    ):
        out.append(
            "gate too loose: %.0f%% of candidates pass but only %.0f%% of surfaced "
            "learnings are used; consider learning.write_gate: strict"
            % (100 * pr, 100 * s["hit_rate"])
        )
    for name, row in sorted(s["by_category"].items()):
        if row["surfaced"] >= 10 and (row["hit_rate"] or 0) < 0.1:
            out.append(
                "low-hit category: %s (%d surfaced, %.0f%% used)"
                % (name, row["surfaced"], 100 * (row["hit_rate"] or 0))
            )
    if s["skip_rate"] is not None and s["skips"] >= 4 and s["skip_rate"] > 0.6:
        out.append("high skip rate: %.0f%% of gate decisions were skips" % (100 * s["skip_rate"]))
    return out


def table(s):
    """`learn stats` as text tables."""
    pct = lambda v: "-" if v is None else "%.0f%%" % (100 * v)  # noqa: E731
    lines = [
        "learnings: %d (%d active); surfaced %d, referenced %d, dismissed %d; hit rate %s"
        % (
            s["learnings"],
            s["active"],
            s["surfaced"],
            s["referenced"],
            s["dismissed"],
            pct(s["hit_rate"]),
        ),
        "",
        "%-12s %9s %7s %9s %10s %8s"
        % ("category", "learnings", "active", "surfaced", "referenced", "hit rate"),
    ]
    for name in CATS:
        row = s["by_category"].get(name)
        if row:
            lines.append(
                "%-12s %9d %7d %9d %10d %8s"
                % (
                    name,
                    row["learnings"],
                    row["active"],
                    row["surfaced"],
                    row["referenced"],
                    pct(row["hit_rate"]),
                )
            )
    lines += [
        "",
        "%-28s %s" % ("reflections", s["reflections"]),
        "%-28s %d of %d (%s)"
        % ("write gate: accepted", s["accepted"], s["candidates"], pct(s["write_gate_pass_rate"])),
        "%-28s %s"
        % ("skips", ", ".join("%s %d" % kv for kv in sorted(s["skips_by"].items())) or "0"),
        "%-28s %s" % ("skip rate", pct(s["skip_rate"])),
        "%-28s %s"
        % (
            "criteria claimed",
            ", ".join("%s %d" % kv for kv in sorted(s["criteria"].items())) or "-",
        ),
        "%-28s %d" % ("breaker trips", s["breaker_trips"]),
    ]
    ins = insights(s)
    lines += ["", "insights:"] + (["  - " + x for x in ins] or ["  none"])
    return "\n".join(lines)
