"""The review section of one session: the seed's state machine, its trace, the announced
reviewers and the Stop-block attempts. Only JSON types; every list and dict is capped.

States (roz): idle (no review), pending (awaiting review), blocked (a Stop was blocked: spawn
the reviewer), approved (a confirmed COMPLETE). Imported only when the review gate has work.
"""

from __future__ import annotations

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

OPEN = ("pending", "blocked")
TRACE_CAP = 120  # events kept per session before compaction ...
TRACE_KEEP = 80  # ... down to this many, behind one TraceCompacted marker
PROMPTS_CAP = 20
PROMPT_CHARS = 2000
HISTORY_CAP = 20
ATTEMPTS_CAP = 30
REVIEWERS_CAP = 10
INPUT_LIMIT = 10 * 1024  # stored tool inputs: 10 KB, then sha256 + size of the original
TEXT_CAP = 4000  # summary / message / opinions of a decision
DECISIONS = ("COMPLETE", "ISSUES")


def init(
    r: dict[str, Any], sid: str, now: float, created_at: float | None = None
) -> dict[str, Any]:
    """A fresh section (the seed's Idle), its trace opening with SessionStart."""
    r.clear()
    r.update(
        sid=sid,
        status="idle",
        created_at=created_at or now,
        opened_at=None,
        opened_by=None,
        prompts=[],
        last_prompt_at=None,
        gate_trigger=None,
        decision=None,
        history=[],
        approved_at=None,
        block_count=0,
        last_block_at=None,
        cycle_blocks=0,
        forced=0,
        forced_at=None,
        reviewers={},
        attempts=[],
        trace=[],
        trace_n=0,
        last_gate_tid=None,
    )
    trace(r, "SessionStart", created_at or now)
    return r


def trace(r: dict[str, Any], kind: str, now: float, **data: Any) -> dict[str, Any]:
    """Append a trace event; past TRACE_CAP compact to the newest TRACE_KEEP plus a marker."""
    t = r.get("trace")
    if not isinstance(t, list):
        t = r["trace"] = []
    r["trace_n"] = n = int(r.get("trace_n") or 0) + 1
    ev = {"n": n, "ts": round(now, 3), "type": kind}
    if data:
        ev["data"] = data
    t.append(ev)
    if len(t) > TRACE_CAP:
        cut = len(t) - TRACE_KEEP
        dropped = 0
        for old in t[:cut]:
            if old.get("type") == "TraceCompacted":
                dropped += int((old.get("data") or {}).get("dropped") or 0)
            else:
                dropped += 1
        del t[:cut]
        t.insert(
            0,
            {
                "n": t[0]["n"] - 1 if t else n,
                "ts": round(now, 3),
                "type": "TraceCompacted",
                "data": {"dropped": dropped, "kept": TRACE_KEEP},
            },
        )
    return ev


def clip(text: object, limit: int = TEXT_CAP) -> str | None:
    return text[:limit] if isinstance(text, str) else None


def truncated(value: object, limit: int = INPUT_LIMIT) -> dict[str, Any]:
    """A tool input as stored: as is up to `limit` bytes of JSON, else the first `limit` bytes
    with the original's sha256 and size (the seed's TruncatedInput)."""
    import json

    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    raw = text.encode("utf-8", "replace")
    if len(raw) <= limit:
        return {"value": value, "truncated": False}
    import hashlib

    return {
        "value": raw[:limit].decode("utf-8", "ignore"),
        "truncated": True,
        "sha256": hashlib.sha256(raw).hexdigest(),
        "size": len(raw),
    }


def summary_of(tool: str, tool_input: object, limit: int = 300) -> str:
    """A short one-line description of a tool call for the trace."""
    ti = tool_input if isinstance(tool_input, dict) else {}
    for key in (
        "command",
        "file_path",
        "notebook_path",
        "path",
        "url",
        "query",
        "pattern",
        "description",
    ):
        v = ti.get(key)
        if isinstance(v, str) and v:
            return ("%s: %s" % (tool, v))[:limit]
    return tool[:limit]


# ---------------------------------------------------------------- prompts


def add_prompt(r: dict[str, Any], text: str, now: float) -> None:
    p = r.setdefault("prompts", [])
    p.append({"at": round(now, 3), "text": text[:PROMPT_CHARS]})
    if len(p) > PROMPTS_CAP:
        del p[: len(p) - PROMPTS_CAP]


# ---------------------------------------------------------------- transitions


def open_review(
    r: dict[str, Any], now: float, by: str, trigger: dict[str, Any] | None = None
) -> bool:
    """Idle/Approved -> Pending. An open review only gains the newer gate trigger.
    Returns True when a new review was opened."""
    if trigger is not None:
        r["gate_trigger"] = trigger
    if r.get("status") in OPEN:
        return False
    r.update(
        status="pending",
        opened_at=now,
        opened_by=by,
        approved_at=None,
        block_count=0,
        last_block_at=None,
        cycle_blocks=0,
    )
    return True


def drop_approval(r: dict[str, Any]) -> bool:
    """Approved -> Idle (scope prompt: a new user prompt; scope tool: the approval was used;
    or the TTL ran out). The caller traces why."""
    if r.get("status") == "approved":
        r.update(status="idle", approved_at=None)
        return True
    return False


def record_decision(r: dict[str, Any], d: dict[str, Any]) -> None:
    """Every decision (confirmed or not) goes into the history."""
    h = r.setdefault("history", [])
    h.append({k: d.get(k) for k in ("word", "summary", "by", "agent_id", "at", "confirmed")})
    if len(h) > HISTORY_CAP:
        del h[: len(h) - HISTORY_CAP]


def apply_decision(
    r: dict[str, Any], d: dict[str, Any], now: float, audit: Callable[..., None]
) -> None:
    """A confirmed decision: COMPLETE -> Approved, ISSUES -> Pending (gate stays closed).
    Either resets the review breaker and ends the pending Stop attempt as Success."""
    d["confirmed"] = True
    d["confirmed_at"] = round(now, 3)
    r["decision"] = d
    for h in reversed(r.get("history") or []):
        if h.get("at") == d.get("at") and h.get("word") == d.get("word"):
            h["confirmed"] = True
            break
    a = pending_attempt(r)
    if a is not None:
        finish_attempt(
            r, a, "Success", now, audit, decision=d["word"], blocks=int(r.get("cycle_blocks") or 0)
        )
    r.update(block_count=0, last_block_at=None, cycle_blocks=0)
    if d["word"] == "COMPLETE":
        r.update(status="approved", approved_at=now)
    else:
        if r.get("status") not in OPEN:
            r.update(opened_at=now, opened_by="issues")
        r["status"] = "pending"
    trace(
        r,
        "ReviewDecision",
        now,
        decision=d["word"],
        by=d.get("by"),
        agent_id=d.get("agent_id"),
        confirmed=True,
        summary=(d.get("summary") or "")[:300],
    )


def force_approve(r: dict[str, Any], now: float, audit: Callable[..., None]) -> Any:
    """The review breaker: Pending/Blocked -> Idle. Releases this Stop only; gated tools
    stay gated (nothing is approved)."""
    a = pending_attempt(r)
    if a is not None:
        finish_attempt(r, a, "NoDecision" if spawned_since(r, a) else "NotSpawned", now, audit)
    blocks = int(r.get("block_count") or 0)
    r.update(
        status="idle",
        block_count=0,
        last_block_at=None,
        cycle_blocks=0,
        forced=int(r.get("forced") or 0) + 1,
        forced_at=now,
        approved_at=None,
    )
    return blocks


# ---------------------------------------------------------------- reviewers


def announce(r: dict[str, Any], agent_id: str, agent_type: str | None, now: float) -> None:
    rv = r.setdefault("reviewers", {})
    rv[agent_id] = {
        "type": agent_type,
        "started_at": round(now, 3),
        "last_seen": round(now, 3),
        "stopped_at": None,
        "decided": None,
        "nudged": False,
    }
    if len(rv) > REVIEWERS_CAP:
        for k in sorted(rv, key=lambda a: rv[a].get("started_at") or 0)[: len(rv) - REVIEWERS_CAP]:
            if k != agent_id:
                del rv[k]


def running(
    r: dict[str, Any], now: float, idle_limit: float, background: list[Any] | None = None
) -> list[str]:
    """Announced reviewers that have not finished (and showed life within idle_limit, or
    that Claude Code lists as a running background task)."""
    live = set()
    for t in background or ():
        if isinstance(t, dict) and t.get("status") == "running" and isinstance(t.get("id"), str):
            live.add(t["id"])
    out = []
    for aid, rec in (r.get("reviewers") or {}).items():
        if not isinstance(rec, dict) or rec.get("stopped_at"):
            continue
        if aid in live or now - float(rec.get("last_seen") or 0) <= idle_limit:
            out.append(aid)
    return out


def spawned_since(r: dict[str, Any], a: dict[str, Any]) -> bool:
    at = a.get("at") or 0
    return any(
        isinstance(rec, dict) and (rec.get("started_at") or 0) >= at
        for rec in (r.get("reviewers") or {}).values()
    )


# ---------------------------------------------------------------- attempts (template A/B stats)


def new_attempt(r: dict[str, Any], template: str, now: float) -> dict[str, Any]:
    at = r.setdefault("attempts", [])
    a = {"template": template, "at": round(now, 3), "outcome": "Pending"}
    at.append(a)
    if len(at) > ATTEMPTS_CAP:
        del at[: len(at) - ATTEMPTS_CAP]
    return a


def pending_attempt(r: dict[str, Any]) -> dict[str, Any] | None:
    for a in reversed(r.get("attempts") or []):
        if isinstance(a, dict) and a.get("outcome") == "Pending":
            return a
    return None


def settle_attempts(r: dict[str, Any], now: float, audit: Callable[..., None]) -> None:
    """At a Stop: an attempt still Pending with no reviewer spawned since is NotSpawned."""
    for a in r.get("attempts") or []:
        if isinstance(a, dict) and a.get("outcome") == "Pending" and not spawned_since(r, a):
            finish_attempt(r, a, "NotSpawned", now, audit)


def finish_attempt(
    r: dict[str, Any],
    a: dict[str, Any],
    outcome: str,
    now: float,
    audit: Callable[..., None],
    **extra: Any,
) -> None:
    a["outcome"] = outcome
    a["ended_at"] = round(now, 3)
    a.update(extra)
    audit(
        "review_attempt", template=a.get("template"), outcome=outcome, started=a.get("at"), **extra
    )
