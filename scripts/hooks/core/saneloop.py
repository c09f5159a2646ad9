"""SaneLoop: `sl+ <task>` keeps the agent working until its acceptance criteria are met."""

from __future__ import annotations

import os

from core.wording import plural

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from typing import Any

    from core.engine import Ctx

CLI = "python3 scripts/hooks/sane.py"


def block_cap() -> int:
    """Claude Code ends a turn after this many consecutive Stop blocks (0: no cap)."""
    raw = os.environ.get("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "8")
    try:
        return max(0, int(raw))
    except ValueError:
        return 8


def brief(loop: dict[str, Any]) -> str:
    unmet = [i + 1 for i, c in enumerate(loop.get("acceptance_criteria") or []) if not c.get("met")]
    return (
        "sane: SaneLoop active: %s (iteration %d of %d; unmet criteria: %s). Mark one met "
        "with `%s loop check N`."
        % (
            loop.get("task"),
            loop.get("iteration", 0),
            loop.get("max_iterations", 20),
            ", ".join(map(str, unmet)) or "none",
            CLI,
        )
    )


def cmd_start(ctx: Ctx, text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines()]
    task = lines[0] if lines else ""
    criteria = []
    for ln in lines[1:]:
        ln = ln.lstrip("-*• ").strip()
        if ln[:2].rstrip(".").isdigit():
            ln = ln.split(".", 1)[-1].strip() if "." in ln[:3] else ln
        if ln:
            criteria.append({"text": ln[:300], "met": False, "met_at": None})
    loop = ctx.session["saneloop"]
    loop.update(
        active=True,
        task=task[:300],
        iteration=0,
        max_iterations=ctx.cfg.int("loop.max_iterations"),
        acceptance_criteria=criteria[:30],
        started_at=ctx.now,
    )
    ctx.audit("saneloop_start", task=task[:300], criteria=len(criteria))
    return "SaneLoop started: %s\n%s" % (task, status_text(loop))


def status_text(loop: dict[str, Any]) -> str:
    if not loop.get("active"):
        return "SaneLoop is OFF"
    out = [
        "SaneLoop is ON: %s" % loop.get("task"),
        "iteration %d of %d" % (loop.get("iteration", 0), loop.get("max_iterations", 20)),
    ]
    for i, c in enumerate(loop.get("acceptance_criteria") or []):
        out.append("  %d. [%s] %s" % (i + 1, "x" if c.get("met") else " ", c.get("text")))
    if not loop.get("acceptance_criteria"):
        out.append("  (no criteria: the loop runs until max_iterations or `sl-`)")
    cap = block_cap()
    if cap:
        out.append(
            "note: Claude Code ends a turn after %d consecutive Stop blocks "
            "(CLAUDE_CODE_STOP_HOOK_BLOCK_CAP); the loop stays on and resumes at your next "
            "prompt. Set CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=0 to lift the cap." % cap
        )
    return "\n".join(out)


def cmd_status(ctx: Ctx) -> str:
    return status_text(ctx.session["saneloop"])


def cmd_stop(ctx: Ctx) -> str:
    loop = ctx.session["saneloop"]
    if not loop.get("active"):
        return "SaneLoop is OFF (nothing to stop)"
    loop["active"] = False
    ctx.audit("saneloop_stop", by="person", iteration=loop.get("iteration"))
    return "SaneLoop stopped after %s: %s" % (
        plural(loop.get("iteration", 0), "iteration"),
        loop.get("task"),
    )


def stop_gate(ctx: Ctx, held: bool) -> str | None:
    loop = ctx.session["saneloop"]
    if not loop.get("active"):
        return None
    if held or ctx.state["safemode"].get("active"):
        ctx.answer.tell_user(
            "sane-hooks: the SaneLoop is still on but cannot continue now "
            "(breaker, halt, tamper lock or safemode)."
        )
        return None
    criteria = loop.get("acceptance_criteria") or []
    unmet = [(i + 1, c.get("text")) for i, c in enumerate(criteria) if not c.get("met")]
    if criteria and not unmet:
        loop["active"] = False
        ctx.audit("saneloop_done", iteration=loop.get("iteration"))
        ctx.answer.tell_user(
            "sane-hooks: SaneLoop done: every criterion met after %s."
            % plural(loop.get("iteration", 0), "iteration")
        )
        return None
    if loop.get("iteration", 0) >= loop.get("max_iterations", 20):
        loop["active"] = False
        ctx.audit("saneloop_max", iteration=loop.get("iteration"))
        ctx.answer.tell_user(
            "sane-hooks: SaneLoop ended at max_iterations (%d) with %d unmet "
            "criteria." % (loop.get("max_iterations", 20), len(unmet))
        )
        return None
    loop["iteration"] = loop.get("iteration", 0) + 1
    ctx.audit("saneloop_iteration", iteration=loop["iteration"])
    todo = (
        "\n".join("  %d. %s" % (n, t) for n, t in unmet)
        or "  (no criteria: keep improving the task)"
    )
    return (
        "[saneloop] SaneLoop iteration %d of %d for: %s\nUnmet acceptance criteria:\n%s\n"
        "Keep working. When a criterion is really met (verified, not assumed), mark it with "
        "`%s loop check N`. The person can stop the loop with `sl-`."
        % (loop["iteration"], loop.get("max_iterations", 20), loop.get("task"), todo, CLI)
    )
