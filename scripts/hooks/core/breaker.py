"""The breakers: the circuit breaker (consecutive or same-signature tool failures) and the
enforcement halt (the same denial N times in a row). Both hold the agent to read-only tools
until the person types `rb-`. Here live their gates, their PostToolUse failure tracking,
the denial counter and the person's commands (`rb-`, `rb+`, `rb?`)."""

from __future__ import annotations

import hashlib

from core import research
from core.policy import is_read_only_tool

TYPE_CHECKING = False  # typing costs milliseconds on the hot path; only mypy reads it
if TYPE_CHECKING:
    from typing import Any, Callable

# ---------------------------------------------------------------- PreToolUse gates


def held_back(ctx: Any, facts: Any) -> bool:
    """Not a read-only tool and not purely our own agent-allowed CLI."""
    if is_read_only_tool(facts.tool):
        return False
    if facts.only_sane:
        return False
    from core.review import hooks as review  # only when the breaker is tripped

    return not review.reviewer_spawn_allowed(ctx, facts)


def gate(ctx: Any, facts: Any) -> str | None:
    cb = ctx.state["circuit_breaker"]
    if cb.get("tripped") and held_back(ctx, facts):
        return (
            "[breaker] The circuit breaker is TRIPPED (%s; last error: %s). Only read-only "
            "tools (Read, Grep, Glob, WebSearch, WebFetch) work now, and Bash is not one. "
            "Stop, explain the failures to the person and ask how to proceed; they reset it "
            "by typing `rb-`."
            % (cb.get("trip_reason") or "repeated failures", (cb.get("last_error") or "?")[:120])
        )
    return None


def halt_gate(ctx: Any, facts: Any) -> str | None:
    enf = ctx.state["enforcement"]
    if enf.get("halted") and held_back(ctx, facts):
        return (
            "[enforcement] Enforcement halted: %s. Stop retrying; explain to the person what "
            "you were trying to do and ask how to proceed. They clear it by typing `rb-`."
            % (enf.get("halted_reason") or "the same block repeated")
        )
    return None


def _signature(code: str, facts: Any) -> str:
    key = "%s|%s|%s" % (
        code,
        facts.tool,
        facts.text or "|".join(facts.raw_writes + facts.raw_reads),
    )
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()[:16]


def count_denial(ctx: Any, facts: Any, reason: str) -> str:
    """The enforcement breaker: the same denial N times in a row halts the agent."""
    enf = ctx.state["enforcement"]
    code = reason.split("]", 1)[0] + "]"
    if code in ("[enforcement]", "[busy]"):
        return reason
    sig = _signature(code, facts)
    enf["repeats"] = enf.get("repeats", 0) + 1 if enf.get("last_signature") == sig else 1
    enf["last_signature"] = sig
    blocks = enf.get("blocks") or []
    blocks.append({"ts": ctx.now, "code": code, "tool": facts.tool, "session": ctx.sid})
    enf["blocks"] = blocks[-20:]
    limit = ctx.cfg.int("enforcement.max_repeats")
    if enf["repeats"] >= limit and not enf.get("halted"):
        enf.update(
            halted=True,
            halted_at=ctx.now,
            halted_reason="%s denied %d times in a row for %s" % (code, enf["repeats"], facts.tool),
        )
        ctx.audit("enforcement_halt", code=code, tool=facts.tool, repeats=enf["repeats"])
        ctx.answer.tell_user(
            "sane-hooks: the agent hit the same %s block %d times in a row; "
            "enforcement halted it. Type `rb-` to clear once you have talked."
            % (code, enf["repeats"])
        )
        return (
            "[enforcement] The same call was denied %d times in a row (%s). Stop retrying: "
            "explain to the person what you are trying to do and ask them how to proceed. "
            "Original reason: %s" % (enf["repeats"], code, reason)
        )
    return reason


def allowed(ctx: Any, facts: Any) -> None:
    """A call went through: a changing call ends a run of identical denials."""
    enf = ctx.state["enforcement"]
    if enf.get("repeats") and not facts.read_only:
        enf["repeats"], enf["last_signature"] = 0, None


# ---------------------------------------------------------------- PostToolUse tracking


def error_signature(tool: str, error: Any) -> str:
    """A normalised signature for a failure, from the explicit error field."""
    text = error if isinstance(error, str) else ""
    lines = text.splitlines()
    exit_code = None
    if lines and lines[0].startswith("Exit code "):
        exit_code = lines[0][10:].strip()
        body = "\n".join(lines[1:]).lower()
    else:
        body = text.lower()
    if "command not found" in body or "not recognized as" in body:
        kind = "COMMAND_NOT_FOUND"
    elif "syntax error" in body or "syntaxerror" in body or "unexpected token" in body:
        kind = "SYNTAX_ERROR"
    elif "permission denied" in body or "eacces" in body:
        kind = "PERMISSION_DENIED"
    elif (
        "no such file" in body
        or "enoent" in body
        or "does not exist" in body
        or "not found" in body
    ):
        kind = "FILE_NOT_FOUND"
    elif "modulenotfounderror" in body or "importerror" in body or "cannot find module" in body:
        kind = "IMPORT_ERROR"
    elif "timed out" in body or "timeout" in body:
        kind = "TIMEOUT"
    elif "assert" in body or "failed" in body or "failures" in body:
        kind = "TEST_FAILURE"
    elif "connection" in body or "network" in body or "resolve host" in body:
        kind = "NETWORK"
    elif "string to replace not found" in body or "old_string" in body:
        kind = "EDIT_MISMATCH"
    else:
        kind = "EXIT_%s" % exit_code if exit_code else "ERROR"
    return "%s:%s" % (tool or "?", kind)


def track(ctx: Any, facts: Any, ok: bool) -> None:
    """Count failures; trip the breaker at breaker.max_consecutive or max_same_signature."""
    cb = ctx.state["circuit_breaker"]
    if ok:
        if cb.get("failures") and not cb.get("tripped"):
            cb["failures"] = 0
        return
    if ctx.payload.get("is_interrupt") is True:
        return  # the person stopped it: not a failure of the agent
    if research.network_failure(ctx):
        return  # research without network: the research module tells both sides what to do
    sig = error_signature(ctx.tool, ctx.payload.get("error"))
    cb["failures"] = cb.get("failures", 0) + 1
    sigs = cb.setdefault("error_signatures", {})
    sigs[sig] = sigs.get(sig, 0) + 1
    if len(sigs) > 50:
        for k in sorted(sigs, key=sigs.get)[: len(sigs) - 50]:
            del sigs[k]
    err = ctx.payload.get("error")
    cb["last_error"] = (err if isinstance(err, str) else sig)[:300]
    max_c = ctx.cfg.int("breaker.max_consecutive")
    max_s = ctx.cfg.int("breaker.max_same_signature")
    if cb.get("tripped"):
        return
    if cb["failures"] >= max_c or sigs[sig] >= max_s:
        from core.wording import plural  # the trip's words, once

        why = (
            "%d consecutive failures" % cb["failures"]
            if cb["failures"] >= max_c
            else "%s with the signature %s" % (plural(sigs[sig], "failure"), sig)
        )
        cb.update(tripped=True, tripped_at=ctx.now, trip_reason=why)
        ctx.audit("breaker_trip", reason=why, signature=sig)
        ctx.answer.add_context(
            "sane: the circuit breaker TRIPPED (%s). Only read-only tools work "
            "now. Stop and explain the failures to the person; they reset it "
            "with `rb-`." % why
        )
        ctx.answer.tell_user(
            "sane-hooks: circuit breaker TRIPPED (%s). Type `rb-` to reset it." % why
        )
    else:
        ctx.answer.add_context(
            "sane: failure %d of %d before the circuit breaker trips (%s seen "
            "%d of %d times). Change the approach rather than retrying."
            % (cb["failures"], max_c, sig, sigs[sig], max_s)
        )


# ---------------------------------------------------------------- the person's commands


def status_text(state: dict) -> str:
    """What `rb?` shows (and `rb-` after resetting, and `sane.py status`): the one place
    these words live."""
    from core.wording import plural

    cb, enf = state["circuit_breaker"], state["enforcement"]
    sigs = cb.get("error_signatures") or {}
    top = max(sigs.items(), key=lambda kv: kv[1]) if sigs else None
    if cb.get("tripped"):
        why = cb.get("trip_reason") or "repeated failures"
        text = "breaker is TRIPPED: %s" % why
        if top and top[0] not in why:
            text += ", most common %s x%d" % top
        text += "; the person resets it with `rb-`"
    else:
        text = "breaker is OK: %s in a row" % plural(cb.get("failures", 0), "failure")
        if top and cb.get("failures"):
            text += ", most common %s x%d" % top
    if enf.get("halted"):
        text += "; enforcement HALTED (%s)" % enf.get("halted_reason")
    return text


def note(state: dict) -> str | None:
    """What the model is told at each prompt and SessionStart while the breaker is tripped."""
    if not state["circuit_breaker"].get("tripped"):
        return None
    return (
        "sane: the circuit breaker is TRIPPED; only read-only tools work until the person "
        "types `rb-`."
    )


def cmd_reset(ctx: Any) -> str:
    ctx.state["circuit_breaker"].update(
        failures=0,
        tripped=False,
        tripped_at=None,
        last_error=None,
        error_signatures={},
        trip_reason=None,
    )
    ctx.state["enforcement"].update(
        halted=False, halted_at=None, halted_reason=None, last_signature=None, repeats=0
    )
    ctx.audit("breaker_reset")
    return "breaker reset: " + status_text(ctx.state)


def cmd_status(ctx: Any) -> str:
    return status_text(ctx.state)


COMMANDS: dict[str, Callable[[Any], str]] = {
    "rb-": cmd_reset,
    "rb+": cmd_reset,
    "reset breaker": cmd_reset,
    "rb?": cmd_status,
    "breaker status": cmd_status,
}
HELP = [
    ("rb- | rb+ | reset breaker", "reset the circuit breaker and the enforcement halt"),
    ("rb? | breaker status", "show the circuit breaker"),
]
