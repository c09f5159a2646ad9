"""Stop, SubagentStop, SessionEnd, TaskCompleted. Stop gates run in order (SaneLoop, review,
learning); each sees stop_hook_active and decides for itself; the first block answers."""

from __future__ import annotations

from core import saneloop
from core.intents import hooks as intents
from core.learning import hooks as learning
from core.review import hooks as review
from core.saneloop import block_cap
from core.wording import plural

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from typing import Any

    from core.contracts import StopGate
    from core.engine import Ctx

STOP_GATES: list[StopGate] = [saneloop.stop_gate, review.stop_gate, learning.stop_gate]


def held(state: dict[str, Any]) -> bool:
    """The agent could not act on a Stop block now."""
    return bool(
        state["circuit_breaker"].get("tripped")
        or state["enforcement"].get("halted")
        or state["tamper"].get("locked")
    )


def summary(ctx: Ctx) -> str:
    s = ctx.session
    e = s["edits"]
    r = s["research"]
    done = [c for c in ("local", "web", "docs", "github", "memory") if r.get(c)]
    cb = ctx.state["circuit_breaker"]
    return "sane: session summary: %s in %s (last: %s); %s; research: %s; breaker %s" % (
        plural(e.get("count", 0), "edit"),
        plural(e.get("unique_count", len(e.get("unique_files") or [])), "file"),
        e.get("last_file") or "-",
        plural(s.get("blocks", 0), "block"),
        ", ".join(done) or "none",
        "TRIPPED" if cb.get("tripped") else "OK",
    )


def on_stop(ctx: Ctx) -> None:
    sess = ctx.session
    is_held = held(ctx.state)
    for gate in STOP_GATES:
        reason = gate(ctx, is_held)
        if reason:
            sess["stop_blocks"] = sess.get("stop_blocks", 0) + 1
            cap = block_cap()
            if cap and sess["stop_blocks"] >= cap:
                ctx.answer.tell_user(
                    "sane-hooks: %d Stop blocks in a row; Claude Code ends the "
                    "turn at %d (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP). What is pending "
                    "stays pending for your next prompt." % (sess["stop_blocks"], cap)
                )
            ctx.audit(
                "stop_block",
                code=reason.split("]", 1)[0] + "]",
                stop_hook_active=bool(ctx.payload.get("stop_hook_active")),
            )
            ctx.answer.deny(reason)
            return
    sess["stop_blocks"] = 0
    if is_held:
        ctx.answer.tell_user(
            "sane-hooks: the agent is held (breaker, enforcement halt or tamper "
            "lock); anything pending stays pending."
        )
    text = summary(ctx)
    ctx.log("info", "session summary", summary=text)
    ctx.answer.tell_user(text)


def on_subagent_stop(ctx: Ctx) -> None:
    agents = ctx.session.setdefault("agents", {})
    if ctx.agent_id in agents:
        agents[ctx.agent_id]["stopped_at"] = ctx.now
    review.subagent_stop(ctx)
    if not ctx.answer.blocked:
        learning.subagent_stop(ctx)


def on_session_end(ctx: Ctx) -> None:
    ctx.log("info", "session end", reason=ctx.payload.get("reason"), summary=summary(ctx))
    review.session_end(ctx)
    learning.session_end(ctx)
    intents.session_end(ctx)


def on_task_completed(ctx: Ctx) -> None:
    learning.task_completed(ctx)
