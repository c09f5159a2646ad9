"""The learning gate: when a ticket closes, the agent records what it learned before
it may stop, and the next session starts with the relevant learnings.

These are the engine's hook points. Every hook imports this module, so it imports nothing at
module level and returns at once from calls that do not concern it; the work lives in
learning_gate (state machine, Stop), learning_tickets (discovery, close detection),
learning_retrieval / learning_index (SessionStart), learning_store / learning_stats (files).
"""

CLI = "python3 scripts/hooks/sane.py"
OPEN = ("pending", "blocked")
TASK_TOOLS = ("TaskUpdate", "TodoWrite", "TaskCreate")


def _sec(sess):
    sec = sess.get("learning")
    return sec if isinstance(sec, dict) else None


def _concerns(facts):
    """Could this tool call start or close a ticket? (a cheap test before any parsing)"""
    tool = facts.tool
    if tool in ("Bash", "PowerShell"):
        t = facts.text
        return "tissue" in t or "bd" in t or "beads" in t
    return tool.startswith(("mcp__tissue__", "mcp__beads__")) or tool == "TaskUpdate"


def _scan(ctx, facts):
    from core.learning import tickets

    systems = tickets.systems_enabled(ctx.cfg)
    if facts.tool in ("Bash", "PowerShell"):
        try:
            return tickets.scan_shell(facts.analysis, systems)
        except Exception as exc:  # an analysis we cannot walk: no detection, never a crash
            ctx.log("warn", "learning: close detection failed: %s" % exc.__class__.__name__)
            return []
    if facts.tool.startswith("mcp__"):
        return tickets.scan_mcp(facts.tool, ctx.tool_input, systems)
    if "tasks" in systems:
        return tickets.scan_task_tool(facts.tool, ctx.tool_input)
    return []


def pre_tool(ctx, facts):
    """PreToolUse: a ticket close is noted as pending under its tool_use_id (never denied:
    the close should succeed; the reflection comes before the session stops)."""
    if not _concerns(facts):
        return None
    events = [e for e in _scan(ctx, facts) if e[0] == "close"]
    if events:
        from core.learning import gate

        sec = gate.section(ctx.session)
        a = facts.analysis
        compound = bool(a is not None and len(getattr(a, "commands", ())) > 1)
        gate.pending_close(sec, ctx.payload.get("tool_use_id") or "?", events, compound, ctx.now)
    return None


def post_tool(ctx, facts, ok):
    """PostToolUse arms a pending close; PostToolUseFailure drops it unless the command was
    compound and the tracker says the ticket is closed anyway. Also: tickets started,
    injected learnings referenced."""
    sess = ctx.session
    sec = _sec(sess)
    tid = ctx.payload.get("tool_use_id")
    pend = sec.get("pending_close") if sec else None
    if pend and tid in pend:
        _settle(ctx, sec, pend.pop(tid), ok)
    if facts.tool in TASK_TOOLS and (sec is None or not sec.get("tasks_seen")):
        from core.learning import gate

        sec = gate.section(sess)
        sec["tasks_seen"] = True
    if ok and _concerns(facts):
        starts = [e for e in _scan(ctx, facts) if e[0] == "start"]
        if starts:
            from core.learning import gate, tickets

            sec = gate.section(sess)
            for _, system, ticket_id in starts[:3]:
                t = tickets.show(system, ticket_id, ctx.project) or {}
                t.update(id=ticket_id, source=system)
                gate.activate(sec, ctx.now, t, "a command started it")
    if ok and sec and sec.get("injected"):
        _referenced(ctx, sec, facts)


def _settle(ctx, sec, ent, ok):
    from core.learning import gate, tickets

    for system, ticket_id in ent.get("events") or []:
        if ok:
            known = sec.get("ticket") or {}
            title = None
            if system in tickets.TRACKER_CLI and not (
                known.get("id") == ticket_id and known.get("title")
            ):
                title = (tickets.show(system, ticket_id, ctx.project) or {}).get("title")
            gate.arm(sec, ctx.now, system, ticket_id, "PostToolUse", title=title)
        elif (
            ent.get("compound")
            and system in tickets.TRACKER_CLI
            and tickets.is_closed(system, ticket_id, ctx.project)
        ):
            gate.arm(
                sec,
                ctx.now,
                system,
                ticket_id,
                "the compound command failed but the tracker says closed",
            )
        else:
            gate.trace(
                sec,
                ctx.now,
                "TicketCloseFailed",
                "%s %s: the command failed; the gate stays %s"
                % (system, ticket_id, sec.get("status", "idle")),
            )


def _referenced(ctx, sec, facts, text=None):
    """An injected learning counts as referenced when the agent reads one of its context
    files or names its id."""
    import os

    todo = [x for x in sec["injected"] if x.get("outcome") != "referenced"]
    if not todo:
        return
    if text is None:
        ti = ctx.tool_input
        text = facts.text or " ".join(v for v in ti.values() if isinstance(v, str))[:20000]
    reads = set()
    for p in facts.reads:
        reads.add(p)
        if p.startswith(ctx.project + os.sep):
            reads.add(p[len(ctx.project) + 1 :])
    for x in todo:
        how = None
        if x["id"] in text:
            how = "named its id"
        elif reads and any(
            f in reads or os.path.normpath(os.path.join(ctx.project, f)) in reads
            for f in x.get("files") or []
        ):
            how = "read one of its files"
        if how:
            _mark_referenced(ctx, sec, x, how)


def _mark_referenced(ctx, sec, x, how):
    from core.learning import gate, stats

    x["outcome"] = "referenced"
    stats.append(
        ctx.project, "referenced", id=x["id"], session=ctx.sid, how=how, category=x.get("category")
    )
    gate.trace(sec, ctx.now, "LearningReferenced", "%s (%s)" % (x["id"], how))


def on_prompt(ctx, prompt):
    """A reflection still pending (after a resume, clear or compact, say): remind the agent."""
    sec = _sec(ctx.session)
    if not sec:
        return
    _notice(ctx, sec)
    if sec.get("status") in OPEN:
        ctx.answer.add_context(reminder(ctx, sec))


def reminder(ctx, sec):
    t = sec.get("ticket") or {}
    what = (
        "this session's changes"
        if sec.get("armed_by") == "session"
        else "ticket %s" % (t.get("id") or "?")
    )
    return (
        "sane: a reflection is pending for %s. Before stopping, record what it taught with "
        '`%s learn reflect %s` (JSON on stdin), or `%s learn skip %s "reason"`.'
        % (what, CLI, ctx.sid, CLI, ctx.sid)
    )


def _notice(ctx, sec):
    note = sec.pop("notice", None)
    if note:
        ctx.answer.tell_user("sane-hooks: " + note)


def session_start(ctx):
    """Discover the ticketing system and an in-progress ticket; inject the relevant learnings;
    passive decay once a day."""
    from core.learning import gate, store, tickets

    sec = gate.section(ctx.session)
    gate.trace(sec, ctx.now, "SessionStart", ctx.payload.get("source") or "startup")
    for other, s in ctx.state["sessions"].items():
        if other != ctx.sid and isinstance(s, dict) and s.get("learning") is sec:
            # prompt._carry_over moved a pending reflection here: release the old session
            s["learning"] = {"status": "idle", "moved_to": ctx.sid}
            gate.trace(sec, ctx.now, "CarriedOver", "from session %s" % other)
    _notice(ctx, sec)
    mode = tickets.mode(ctx.cfg, ctx.project, sec)
    backend = store.backend_of(ctx.project, ctx.cfg)
    if sec.get("backend") != backend:
        sec["backend"] = backend
        gate.trace(sec, ctx.now, "BackendDetected", backend)
    if mode == "session" and "baseline" not in sec:
        _take_baseline(ctx, sec)
    if sec.get("status", "idle") == "idle" and mode in tickets.TRACKER_CLI:
        t = tickets.in_progress(mode, ctx.project)
        if t:
            gate.activate(sec, ctx.now, t, "in progress at SessionStart")
    try:
        from core.learning import retrieval

        retrieval.inject(ctx, sec)
    except Exception as exc:  # retrieval must never cost the session its start
        import traceback

        ctx.log(
            "error",
            "learning retrieval failed open: %s" % exc.__class__.__name__,
            trace=traceback.format_exc()[-2000:],
        )
    if sec.get("status") in OPEN:
        ctx.answer.add_context(reminder(ctx, sec))


def _take_baseline(ctx, sec):
    """Session mode measures what this session changes: note what was dirty already. Taken
    once per session (a later SessionStart would absorb the session's own work)."""
    from core.learning import baseline, gate

    try:
        sec["baseline"] = baseline.take(ctx.project, ctx.now)
    except Exception as exc:  # no baseline: the gate counts only the files the session wrote
        sec["baseline"] = None
        ctx.log("warn", "learning baseline failed: %s: %s" % (type(exc).__name__, exc))
    b = sec["baseline"]
    gate.trace(
        sec,
        ctx.now,
        "BaselineTaken" if b else "BaselineMissing",
        "%d dirty files" % len(b["files"]) if b else "not git, too slow or too many dirty files",
    )


def carry_baseline(old, new):
    """clear/resume/compact: the new session id measures from the old session's baseline,
    unless the old session already reflected on (or skipped) its changes. True if carried."""
    sec = _sec(old) if isinstance(old, dict) else None
    if not sec or "baseline" not in sec or sec.get("session_done"):
        return False
    dest = new.get("learning")
    if not isinstance(dest, dict):
        dest = new["learning"] = {"status": "idle"}
    if "baseline" in dest:
        return False
    dest["baseline"] = sec["baseline"]
    return True


def subagent_start(ctx):
    """Subagents do not reflect; they can leave notes the main thread's reflection draws on."""
    ctx.answer.add_context(
        "sane: noticed something a later session should know (a pitfall, a convention, a "
        "fact about this code)? Leave a note for the main agent's reflection: `%s learn "
        'observe %s "note"`.' % (CLI, ctx.sid)
    )


def subagent_stop(ctx):
    """The gate fires for the main thread only: a subagent's stop is never blocked."""


def stop_gate(ctx, held):
    """Stop (main thread only; runs after SaneLoop and review)."""
    sess = ctx.session
    sec = _sec(sess)
    if sec:
        _notice(ctx, sec)
        if sec.get("injected"):
            msg = ctx.payload.get("last_assistant_message")
            if isinstance(msg, str) and "learn-" in msg:
                from core.policy import Facts

                _referenced(ctx, sec, Facts("Stop", "other"), text=msg)
    if (not sec or sec.get("status", "idle") not in OPEN and not sec.get("pending_close")) and (
        (sess.get("edits") or {}).get("count", 0) == 0 or (sec or {}).get("session_done")
    ):
        return None  # nothing closed and nothing written: nothing to reflect on
    from core.learning import gate

    return gate.stop(ctx, held)


def session_end(ctx):
    """`dismissed` for every injected learning never referenced; active -> idle."""
    sec = _sec(ctx.session)
    if not sec:
        return
    from core.learning import gate

    for x in sec.get("injected") or []:
        if x.get("outcome") == "surfaced":
            from core.learning import stats

            x["outcome"] = "dismissed"
            stats.append(
                ctx.project, "dismissed", id=x["id"], session=ctx.sid, category=x.get("category")
            )
            gate.trace(sec, ctx.now, "LearningDismissed", x["id"])
    gate.trace(sec, ctx.now, "SessionEnd", ctx.payload.get("reason"))
    if sec.get("status") == "active":
        gate.goto(sec, "idle", ctx.now, "the session ended without a close")


def task_completed(ctx):
    """Claude Code's task list: a completed task is a ticket close (armed, never blocked)."""
    from core.learning import tickets

    if "tasks" not in tickets.systems_enabled(ctx.cfg):
        return
    from core.learning import gate

    sec = gate.section(ctx.session)
    sec["tasks_seen"] = True
    tid = ctx.payload.get("task_id")
    subject = ctx.payload.get("task_subject")
    gate.arm(
        sec,
        ctx.now,
        "tasks",
        str(tid)[:100] if tid is not None else "?",
        "TaskCompleted",
        title=subject[:300] if isinstance(subject, str) else None,
    )


def pending(sess):
    """A reflection is due (or a close is in flight): keep the section across prune/clear."""
    sec = _sec(sess) if isinstance(sess, dict) else None
    return bool(sec and (sec.get("status") in OPEN or sec.get("pending_close")))
