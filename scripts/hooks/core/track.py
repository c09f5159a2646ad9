"""PostToolUse / PostToolUseFailure: the tracker list (edits, research credit, failures and the
breaker, the action log, the capability packages). Decides from explicit fields only: text in stdout is never an error."""

from __future__ import annotations

import os

from core import breaker, paths, policy, research

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from core.contracts import Tracker
    from core.engine import Ctx
    from core.policy import Facts

UNIQUE_FILES_CAP = 200
ACTION_LOG_CAP = 20


def track_edits(ctx: Ctx, facts: Facts, ok: bool) -> None:
    if not ok:
        return
    targets = []
    if facts.kind == "write":
        targets = facts.writes
    elif facts.kind == "shell":
        targets = [w for w in facts.writes if paths.is_under(w, ctx.project)]
    if not targets:
        return
    e = ctx.session["edits"]
    e["count"] = e.get("count", 0) + 1
    files = e.setdefault("unique_files", [])
    for t in targets:
        rel = os.path.relpath(t, ctx.project) if paths.is_under(t, ctx.project) else t
        if rel not in files:
            e["unique_count"] = e.get("unique_count", len(files)) + 1
            files.append(rel)
        e["last_file"] = rel
    if len(files) > UNIQUE_FILES_CAP:
        del files[: len(files) - UNIQUE_FILES_CAP]


def log_action(ctx: Ctx, facts: Facts, ok: bool) -> None:
    log = ctx.session.setdefault("action_log", [])
    target = (facts.raw_writes or facts.raw_reads or [facts.text[:80]])[0]
    log.append(
        {
            "ts": round(ctx.now, 3),
            "tool": ctx.tool,
            "ok": ok,
            "target": target[:200] if isinstance(target, str) else None,
        }
    )
    if len(log) > ACTION_LOG_CAP:
        del log[: len(log) - ACTION_LOG_CAP]


def drop_auth(ctx: Ctx, facts: Facts, ok: bool) -> None:
    tid = ctx.payload.get("tool_use_id")
    auth = ctx.state.get("auth") or []
    keep = [
        a
        for a in auth
        if isinstance(a, dict) and a.get("tool_use_id") != tid and a.get("expires", 0) > ctx.now
    ]
    if len(keep) != len(auth):
        ctx.state["auth"] = keep


def sandbox_refusal(ctx: Ctx, facts: Facts, ok: bool) -> None:
    if ctx.tool in ("Bash", "PowerShell"):
        from core import sandbox

        sandbox.post_tool(ctx, facts, ok)


# The feature trackers below load their modules only for the calls they act on.
def handoff_tracker(ctx: Ctx, facts: Facts, ok: bool) -> None:
    if ctx.tool == "Bash" and facts.sane_calls:  # requests come from our CLI's Bash calls only
        from core import handoff

        handoff.post_tool(ctx, facts, ok)


def review_tracker(ctx: Ctx, facts: Facts, ok: bool) -> None:
    r = ctx.session.get("review")
    if isinstance(r, dict) and r.get("status"):  # the trace is kept while a review exists
        from core.review import hooks as review

        review.post_tool(ctx, facts, ok)


TASK_TOOLS = ("TaskUpdate", "TodoWrite", "TaskCreate")  # learning.hooks.TASK_TOOLS


def learning_tracker(ctx: Ctx, facts: Facts, ok: bool) -> None:
    sec = ctx.session.get("learning")
    # after a failure only a pending ticket close or a task tool counts
    if ok or isinstance(sec, dict) and sec.get("pending_close") or facts.tool in TASK_TOOLS:
        from core.learning import hooks as learning

        learning.post_tool(ctx, facts, ok)


def intents_tracker(ctx: Ctx, facts: Facts, ok: bool) -> None:
    if ok:  # baselines and the trace follow what was done; a failure changed nothing known
        from core.intents import hooks as intents

        intents.post_tool(ctx, facts, ok)


TRACKERS: list[Tracker] = [
    handoff_tracker,  # before drop_auth: it consumes this call's authorisations
    drop_auth,
    breaker.track,
    track_edits,
    research.track,
    log_action,
    sandbox_refusal,
    review_tracker,
    learning_tracker,
    intents_tracker,
]


def on_post_tool(ctx: Ctx) -> None:
    ok = ctx.event == "PostToolUse"
    facts = policy.facts_for(ctx.tool, ctx.tool_input, ctx.cwd, ctx.project, ctx.home)
    ctx.facts = facts
    for tracker in TRACKERS:
        tracker(ctx, facts, ok)
