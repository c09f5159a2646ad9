"""The review gate: the agent may not stop, or run a gated command, until a reviewer
subagent has approved its work.

The engine calls these functions on every hook, so each starts with a cheap test of whether
the call concerns the review gate at all; the state machine (review_state) and the words
(review_text) are imported only when it does.

Binding a decision to the reviewer: SubagentStart announces a reviewer (its agent_id and the
reviewer's agent type) in the session's review section; only a PreToolUse from an announced
reviewer may run `sane.py review decide` (that allowance is the single-use authorisation the
gates record, consumed by cli_review); the decision counts once that reviewer's SubagentStop
confirms it. The main thread's decide is denied here, before the authorisation is recorded.
"""

from __future__ import annotations

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from typing import Any

    from core.engine import Ctx
    from core.policy import Facts

AGENT_TOOLS = ("Agent", "Task")
OPEN = ("pending", "blocked")
SCOPES = ("session", "prompt", "tool")
# A running reviewer that showed no sign of life for this long (and that Claude Code does not
# list as a running background task) is taken as gone: a Stop no longer waits for it.
REVIEWER_IDLE = 900
# sane.py subcommands the reviewer may run besides `review decide`: they only read.
READ_ONLY_SANE = frozenset(
    (
        ("status",),
        ("doctor",),
        ("config",),
        ("logs",),
        ("loop", "status"),
        ("review", "context"),
        ("review", "trace"),
        ("review", "debug"),
        ("review", "stats"),
        ("review", "sessions"),
        ("learn", "list"),
        ("learn", "search"),
        ("learn", "stats"),
        ("learn", "trace"),
        ("trace", "verify"),
        ("trace", "blame"),
        ("intent", "show"),
        ("intent", "list"),
    )
)
VALUE_OPTIONS = (
    "--project",
    "--session",
    "--message",
    "--opinions",
    "--days",
    "--before",
    "--lines",
    "--file",
)


# ---------------------------------------------------------------- small helpers


def reviewer_type(ctx: Ctx) -> str:
    name = ctx.cfg.get("review.reviewer_agent")
    return name if isinstance(name, str) and name else "reviewer"


def mode(ctx: Ctx) -> str:
    m = ctx.cfg.get("review.mode")
    return m if m in ("prompt", "always", "never") else "prompt"


def scope(ctx: Ctx) -> str:
    s = ctx.cfg.get("review.scope")
    return s if s in SCOPES else "prompt"


def _existing(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.session.get("review")
    return r if isinstance(r, dict) and r.get("status") else None


def _section(ctx):
    """The session's review section, created (Idle) on first use."""
    sess = ctx.session
    r = sess.get("review")
    if not isinstance(r, dict):
        r = sess["review"] = {}
    if not r.get("status"):
        from core.review import state as review_state

        review_state.init(r, ctx.sid, ctx.now, sess.get("created_at"))
    return r


def session_id_in(prompt: object) -> str | None:
    """The SESSION_ID=<sid> value the reviewer's prompt starts with ('' if empty), or None."""
    if not isinstance(prompt, str):
        return None
    for line in prompt.lstrip().splitlines()[:3]:
        line = line.strip().strip("`").strip()
        if line.startswith("SESSION_ID="):
            value = line[11:].strip().strip("`'\"")
            return value.split()[0] if value else ""
    return None


def words(args: list[str]) -> list[str]:
    """The positional words of a sane.py call (options and their values left out; an
    abbreviated option counts as the one it abbreviates, as argparse reads it)."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a.startswith("-"):
            if (
                a.startswith("--")
                and "=" not in a
                and len(a) > 2
                and any(o.startswith(a) for o in VALUE_OPTIONS)
            ):
                skip = True
            elif a == "-m":
                skip = True
            continue
        out.append(a)
    return out


def is_decide(args: list[str]) -> bool:
    """Conservative: any call with `decide` after `review` is a decide."""
    return "decide" in args and "review" in args[: args.index("decide")]


def _approval(ctx, r):
    """(approved?, why) for a gated call, per scope and approval_ttl_seconds."""
    if r is None or r.get("status") != "approved":
        return False, None
    at = float(r.get("approved_at") or 0)
    ttl = ctx.cfg.get("review.approval_ttl_seconds")
    if isinstance(ttl, (int, float)) and not isinstance(ttl, bool) and ttl >= 0:
        if ctx.now - at > ttl:
            return False, "expired"
        left = " (expires in %ds)" % int(ttl - (ctx.now - at))
    else:
        left = ""
    sc = scope(ctx)
    if sc == "prompt" and float(r.get("last_prompt_at") or 0) > at:
        return False, "expired"
    return True, "approved by the reviewer, scope %s%s" % (sc, left)


# ---------------------------------------------------------------- PreToolUse


def reviewer_spawn_allowed(ctx: Ctx, facts: Facts) -> bool:
    """The main thread's Agent call for the reviewer, with this session's SESSION_ID: the
    breaker and the enforcement halt let it through."""
    if facts.tool not in AGENT_TOOLS or ctx.agent_id is not None:
        return False
    ti = ctx.tool_input
    return (
        ti.get("subagent_type") == reviewer_type(ctx) and session_id_in(ti.get("prompt")) == ctx.sid
    )


def pre_tool(ctx: Ctx, facts: Facts) -> str | None:
    """PreToolUse, after the project-wide gates. Return a deny reason or None."""
    if ctx.agent_id is not None:
        r = _existing(ctx)
        announced = r is not None and ctx.agent_id in (r.get("reviewers") or {})
        if announced or ctx.agent_type == reviewer_type(ctx):
            return _reviewer_call(ctx, facts, r if announced else None)
    if facts.sane_calls:
        for call in facts.sane_calls:
            if is_decide(call.args):
                from core.review import text as review_text

                return review_text.main_thread_decide(ctx.sid, reviewer_type(ctx), ctx.session)
    if facts.tool in AGENT_TOOLS and ctx.agent_id is None:
        ti = ctx.tool_input
        if ti.get("subagent_type") == reviewer_type(ctx):
            got = session_id_in(ti.get("prompt"))
            if got != ctx.sid:
                return _bad_session_id(ctx, got)
            return None  # the reviewer's own spawn is never held by a review gate
    gates = ctx.cfg.get("review.gates")
    if gates:
        return _gate(ctx, facts, gates if isinstance(gates, list) else [gates])
    return None


def _reviewer_call(ctx, facts, r):
    """The reviewer only reads; its one change is its own decide, for its own session."""
    from core.review import text as review_text

    for call in facts.sane_calls:
        w = words(call.args)
        if is_decide(call.args):
            if r is None:
                return review_text.main_thread_decide(ctx.sid, reviewer_type(ctx), ctx.session)
            sid = w[2] if len(w) > 2 and w[:2] == ["review", "decide"] else None
            if sid != ctx.sid:
                return review_text.reviewer_wrong_session(sid, ctx.sid)
        elif tuple(w[:1]) not in READ_ONLY_SANE and tuple(w[:2]) not in READ_ONLY_SANE:
            return review_text.reviewer_cli(" ".join(w[:2]) or "(no subcommand)")
    if facts.kind in ("write", "mcp_write"):
        return review_text.reviewer_mutation(
            "%s %s" % (facts.tool, ", ".join(facts.raw_writes[:3]))
            if facts.raw_writes
            else facts.tool
        )
    if facts.kind == "shell" and facts.mutation(ctx.project, ctx.cfg):
        return review_text.reviewer_mutation("`%s`" % facts.text[:200])
    if r is not None:
        r["reviewers"][ctx.agent_id]["last_seen"] = round(ctx.now, 3)
    return None


def _bad_session_id(ctx, got):
    from core.review import state as rs
    from core.review import text as review_text

    r = _section(ctx)
    a = rs.pending_attempt(r)
    if a is not None:
        rs.finish_attempt(r, a, "BadSessionId", ctx.now, ctx.audit, got=(got or "")[:128])
    rs.trace(r, "GateBlocked", ctx.now, tool=ctx.tool, reason="BadSessionId", got=(got or "")[:128])
    tid = review_text.select_template(ctx.cfg)
    text, problem = review_text.load_template(ctx.project, tid)
    if problem:
        ctx.log("warn", problem)
    return review_text.bad_session_id(got, ctx.sid, reviewer_type(ctx), ctx.session, text)


def _glob_head(pat):
    head = pat
    for ch in "*?[":
        head = head.split(ch, 1)[0]
    return " ".join(head.split())


def _globber():
    """fnmatchcase(name, pattern) without importing `re` (about 7 ms)."""
    from core.globs import fnmatchcase

    return fnmatchcase


def match_gate(ctx: Ctx, facts: Facts, gates: list[Any]) -> str | None:
    """The first pattern of review.gates this call matches, or None. `Tool:glob` (Bash
    through the shell analyser, on every segment) or a bare tool-name glob."""
    fnmatchcase = _globber()
    tool = facts.tool
    for pat in gates:
        if not isinstance(pat, str) or not pat.strip():
            continue
        pat = pat.strip()
        if ":" not in pat:
            if fnmatchcase(tool, pat):
                return pat
            continue
        tpat, cpat = (x.strip() for x in pat.split(":", 1))
        if not (fnmatchcase(tool, tpat) or (tpat == "Bash" and tool == "PowerShell")):
            continue
        if facts.kind == "shell":
            from core.shell import analysis as shell

            if facts.analysis is not None and shell.matches(cpat, facts.analysis):
                return pat
            head = _glob_head(cpat)
            if facts.unknown and head and head in " ".join(facts.text.split()):
                return pat  # code we cannot parse that names the gated command: gated
            continue
        ti = ctx.tool_input
        for key in ("file_path", "notebook_path", "path", "url", "command", "query"):
            v = ti.get(key)
            if isinstance(v, str) and v and fnmatchcase(v, cpat):
                return pat
    return None


def _gate(ctx, facts, gates):
    pattern = match_gate(ctx, facts, gates)
    if pattern is None:
        return None
    from core.review import state as rs
    from core.review import text as review_text

    r = _section(ctx)
    tid = ctx.payload.get("tool_use_id")
    call = rs.summary_of(facts.tool, ctx.tool_input, 200)
    ok, why = _approval(ctx, r)
    if ok:
        used = scope(ctx) == "tool"
        if used:
            rs.drop_approval(r)  # the seed's Approved -> Idle: one approval, one gated call
        rs.trace(
            r,
            "GateAllowed",
            ctx.now,
            tool=facts.tool,
            call=call,
            pattern=pattern,
            reason=why + ("; approval used" if used else ""),
            tool_use_id=tid,
        )
        r["last_gate_tid"] = tid
        ctx.audit("review_gate_allowed", tool=facts.tool, pattern=pattern, reason=why)
        return None
    status = r.get("status")
    if status == "approved":
        rs.drop_approval(r)
    trigger = {
        "tool_name": facts.tool,
        "tool_input": rs.truncated(ctx.tool_input),
        "triggered_at": round(ctx.now, 3),
        "pattern_matched": pattern,
        "tool_use_id": tid,
    }
    opened = rs.open_review(r, ctx.now, "gate", trigger)
    rs.trace(
        r,
        "GateBlocked",
        ctx.now,
        tool=facts.tool,
        call=call,
        pattern=pattern,
        opened=opened,
        tool_use_id=tid,
    )
    return review_text.gate_denied(
        "`%s`" % call, pattern, status, ctx.sid, reviewer_type(ctx), ctx.session, scope(ctx)
    )


# ---------------------------------------------------------------- PostToolUse


def post_tool(ctx: Ctx, facts: Facts, ok: bool) -> None:
    """PostToolUse (ok=True) and PostToolUseFailure (ok=False): ToolCompleted in the trace
    while a review is open, for a gated call that was let through, and for the reviewer."""
    r = ctx.session.get("review")
    if not isinstance(r, dict) or not r.get("status"):
        return
    tid = ctx.payload.get("tool_use_id")
    rec = (r.get("reviewers") or {}).get(ctx.agent_id) if ctx.agent_id else None
    if rec is not None:
        rec["last_seen"] = round(ctx.now, 3)
    if rec is None and r.get("status") not in OPEN and (not tid or tid != r.get("last_gate_tid")):
        return
    from core.review import state as rs

    rs.trace(
        r,
        "ToolCompleted",
        ctx.now,
        tool=ctx.tool,
        ok=ok,
        tool_use_id=tid,
        call=rs.summary_of(ctx.tool, ctx.tool_input, 200),
        **({"agent_id": ctx.agent_id} if ctx.agent_id else {}),
    )


# ---------------------------------------------------------------- prompts and sessions


def on_prompt(ctx: Ctx, prompt: str) -> None:
    """UserPromptSubmit for a prompt that is not a consumed command: `#review` / `#roz` (or
    review.mode always) opens a review; a new prompt ends a scope-prompt approval."""
    text = prompt.strip()
    if text.startswith("<task-notification>"):
        return  # a background subagent reporting back: not the person's prompt
    m = mode(ctx)
    parts = text.split(None, 1)
    tagged = bool(parts) and parts[0].lower().rstrip(":") in ("#review", "#roz")
    opens = (tagged and m != "never") or m == "always"
    r = _existing(ctx)
    if r is None and not opens:
        return
    from core.review import state as rs

    r = _section(ctx)
    r["last_prompt_at"] = round(ctx.now, 3)
    ended = False
    if r.get("status") == "approved" and (opens or scope(ctx) == "prompt"):
        ended = rs.drop_approval(r)
    opened = rs.open_review(r, ctx.now, "prompt" if tagged else m) if opens else False
    if opens or r.get("status") in OPEN:
        rs.add_prompt(r, text, ctx.now)
    rs.trace(
        r,
        "PromptReceived",
        ctx.now,
        tagged=tagged,
        opened=opened,
        **({"approval": "ended"} if ended else {}),
    )
    if opened:
        ctx.audit("review_open", by="prompt" if tagged else m)
        ctx.answer.add_context(
            "sane: a review is open for this session (SESSION_ID=%s). Before you stop, an "
            "independent reviewer subagent (`%s`) must approve the work; the Stop hook will "
            "give you the exact Agent call." % (ctx.sid, reviewer_type(ctx))
        )


def session_start(ctx: Ctx) -> None:
    """SessionStart: a review carried over from a cleared/resumed/compacted session becomes
    this session's own (fresh breaker); an open one is mentioned."""
    r = _existing(ctx)
    if r is None:
        return
    from core.review import state as rs

    if r.get("sid") != ctx.sid:
        import json

        old_sid = r.get("sid")
        new: dict[str, Any] = json.loads(json.dumps(r))
        new.update(
            sid=ctx.sid, carried_from=old_sid, block_count=0, last_block_at=None, reviewers={}
        )
        new.pop("carried_to", None)
        ctx.session["review"] = new
        old = ctx.state["sessions"].get(old_sid) if isinstance(old_sid, str) else None
        if isinstance(old, dict) and old.get("review") is r:
            old["review"]["carried_to"] = ctx.sid  # r itself: the old session's section
        r = new
    rs.trace(r, "SessionStart", ctx.now, source=str(ctx.payload.get("source") or "")[:20])
    if r.get("status") in OPEN:
        ctx.answer.add_context(
            "sane: a review is still pending for this session (SESSION_ID=%s); "
            "the reviewer must approve before you stop." % ctx.sid
        )


def subagent_start(ctx: Ctx) -> None:
    """SubagentStart: announce the reviewer (agent_id + type) and brief it."""
    if ctx.agent_id is None or ctx.agent_type != reviewer_type(ctx):
        return
    from core.review import state as rs
    from core.review import text as review_text

    r = _section(ctx)
    rs.announce(r, ctx.agent_id, ctx.agent_type, ctx.now)
    rs.trace(r, "ReviewerStart", ctx.now, agent_id=ctx.agent_id)
    ctx.audit("reviewer_start", agent_type=ctx.agent_type)
    ext = ctx.cfg.get("review.external_models") or {}
    names, tools = [], []
    import shutil

    for name in ("codex", "gemini"):
        cmd = ext.get(name) if isinstance(ext, dict) else None
        if isinstance(cmd, str) and cmd.strip():
            names.append(name)
            if shutil.which(cmd.strip()):
                tools.append((name, cmd.strip()))
    ctx.answer.add_context(review_text.reviewer_context(ctx.sid, tools, names))


def subagent_stop(ctx: Ctx) -> None:
    """SubagentStop: the reviewer's own decision is confirmed; a reviewer finishing without
    one is sent back once with both decide commands, then let go (NoDecision)."""
    if ctx.agent_id is None:
        return
    r = _existing(ctx)
    rec = (r.get("reviewers") or {}).get(ctx.agent_id) if r is not None else None
    if rec is None or r is None:
        return
    from core.review import state as rs

    d = rec.get("pending")
    if isinstance(d, dict):
        rec.update(stopped_at=round(ctx.now, 3), pending=None, decided=d.get("word"))
        rs.apply_decision(r, d, ctx.now, ctx.audit)
        ctx.audit("review_confirmed", decision=d.get("word"), agent_type=ctx.agent_type)
        return
    if rec.get("decided"):
        rec["stopped_at"] = round(ctx.now, 3)
        return
    if not rec.get("nudged"):
        from core.review import text as review_text

        rec["nudged"] = True
        rs.trace(
            r, "ReviewerStop", ctx.now, agent_id=ctx.agent_id, outcome="no decision: sent back"
        )
        ctx.answer.deny(review_text.nudge(ctx.sid))
        return
    rec["stopped_at"] = round(ctx.now, 3)
    a = rs.pending_attempt(r)
    if a is not None:
        rs.finish_attempt(r, a, "NoDecision", ctx.now, ctx.audit)
    rs.trace(r, "ReviewerStop", ctx.now, agent_id=ctx.agent_id, outcome="NoDecision")
    ctx.audit("reviewer_no_decision", agent_type=ctx.agent_type)


# ---------------------------------------------------------------- Stop


def stop_gate(ctx: Ctx, held: bool) -> str | None:
    """Stop. Return a block reason or None. held: the gates may not block now (breaker,
    enforcement halt, tamper): keep what is pending and return None."""
    r = ctx.session.get("review")
    if not isinstance(r, dict) or r.get("status") not in OPEN or mode(ctx) == "never":
        return None
    from core.review import state as rs
    from core.review import text as review_text

    now = ctx.now
    active = ctx.payload.get("stop_hook_active") is True
    if held:
        rs.trace(r, "StopHookCalled", now, outcome="held", stop_hook_active=active)
        return None
    cooldown = ctx.cfg.get("review.cooldown_seconds")
    if (
        r.get("block_count")
        and isinstance(cooldown, (int, float))
        and cooldown > 0
        and now - float(r.get("last_block_at") or now) > cooldown
    ):
        r["block_count"] = 0
    live = rs.running(r, now, REVIEWER_IDLE, ctx.payload.get("background_tasks"))
    if live:
        rs.trace(
            r, "StopHookCalled", now, outcome="waiting", stop_hook_active=active, reviewers=live
        )
        return review_text.waiting(live, now, r.get("reviewers") or {})
    rs.settle_attempts(r, now, ctx.audit)
    max_blocks = ctx.cfg.int("review.max_blocks")
    if r.get("block_count", 0) >= max_blocks:
        blocks = rs.force_approve(r, now, ctx.audit)
        ctx.audit("force_approve", blocks=blocks, max_blocks=max_blocks)
        rs.trace(
            r,
            "StopHookCalled",
            now,
            outcome="force_approve",
            stop_hook_active=active,
            blocks=blocks,
        )
        from core.wording import plural

        ctx.answer.tell_user(
            "sane-hooks: the review gate let this Stop through after %s with no reviewer "
            "decision (review.max_blocks = %d). The work was NOT approved and gated commands "
            "stay gated; start a new review with a `#review` prompt."
            % (plural(blocks, "block"), max_blocks)
        )
        return None
    tid = review_text.select_template(ctx.cfg)
    text, problem = review_text.load_template(ctx.project, tid)
    if problem:
        ctx.log("warn", problem)
        tid = "builtin"
    r["block_count"] = int(r.get("block_count") or 0) + 1
    r["cycle_blocks"] = int(r.get("cycle_blocks") or 0) + 1
    r["last_block_at"] = round(now, 3)
    r["status"] = "blocked"
    rs.new_attempt(r, tid, now)
    rs.trace(
        r,
        "StopHookCalled",
        now,
        outcome="blocked",
        stop_hook_active=active,
        block=r["block_count"],
        template=tid,
    )
    body = review_text.render(text, ctx.sid, reviewer_type(ctx), ctx.session)
    return review_text.stop_block(body, r.get("decision"))


def session_end(ctx: Ctx) -> None:
    """SessionEnd."""
    r = _existing(ctx)
    if r is not None:
        from core.review import state as rs

        rs.trace(r, "SessionEnd", ctx.now, reason=str(ctx.payload.get("reason") or "")[:40])


def task_completed(ctx: Ctx) -> None:
    """TaskCompleted: the review gate has nothing to say."""


def pending(sess: dict[str, Any]) -> bool:
    """True when this session has an open review (one carried to a new session is not)."""
    r = sess.get("review") if isinstance(sess, dict) else None
    return isinstance(r, dict) and r.get("status") in OPEN and not r.get("carried_to")
