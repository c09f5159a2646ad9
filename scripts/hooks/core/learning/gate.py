"""The learning gate's state machine (seed 002, section 4), per session in the signed state.

    idle -> active        a ticket in progress (SessionStart discovery, or a command starts one)
    idle|active|reflected|skipped -> pending
                          a ticket close (armed at PostToolUse, or TaskCompleted), or, in
                          session mode, a Stop after the session recorded writes
    pending -> blocked    Stop: block with the reflect / skip instructions (each block counted)
    pending|blocked -> reflected   `learn reflect` accepted at least one learning
    pending|blocked -> skipped     `learn skip "reason"`, or the auto-skip of a small diff
    pending|blocked -> idle        the breaker: max_blocks blocks, then the next Stop approves
    active -> idle        the session ends without a close

`stop_hook_active` never opens the gate; while the agent is held (breaker, enforcement halt,
tamper) the gate never blocks and what is pending stays pending.
"""

from core.learning import tickets
from core.wording import plural

CLI = "python3 scripts/hooks/sane.py"
TRACE_CAP = 100
OBS_CAP = 30
OBS_LEN = 500
PENDING_CAP = 20
CLOSES_CAP = 10
OPEN = ("pending", "blocked")
EXAMPLE_SUMMARY = "Example: set the session cookie before the login redirect"
CATEGORIES_TEXT = "pattern, pitfall, convention, dependency, process, domain, debugging"
CRITERIA_TEXT = (
    "behavior_changing (you would act differently next time), decision_rationale "
    "(why X over Y), stable_fact (still true and useful in later sessions), "
    "explicit_request (the person asked you to remember it)"
)


def section(sess):
    sec = sess.get("learning")
    if not isinstance(sec, dict):
        sec = sess["learning"] = {}
    sec.setdefault("status", "idle")
    return sec


def status_of(sess):
    sec = sess.get("learning") if isinstance(sess, dict) else None
    return sec.get("status", "idle") if isinstance(sec, dict) else "idle"


def trace(sec, now, event, details=None):
    tr = sec.setdefault("trace", [])
    tr.append(
        {
            "ts": round(now, 3),
            "event": event,
            "details": details[:300] if isinstance(details, str) else details,
        }
    )
    if len(tr) > TRACE_CAP:
        del tr[: len(tr) - TRACE_CAP]


def goto(sec, status, now, why):
    old = sec.get("status", "idle")
    if old != status:
        sec["status"] = status
        trace(sec, now, "GateStatusChanged", "%s -> %s: %s" % (old, status, why))


def _reset_breaker(sec):
    sec["block_count"] = 0
    sec.pop("offered_skip", None)


def activate(sec, now, ticket, why):
    """A ticket in progress: keep its context for retrieval; idle -> active."""
    ticket = dict(ticket)
    ticket["detected_at"] = round(now, 3)
    sec["ticket"] = ticket
    trace(
        sec,
        now,
        "TicketDetected",
        "%s %s %s (%s)" % (ticket.get("source"), ticket.get("id"), ticket.get("title") or "", why),
    )
    if sec.get("status", "idle") in ("idle", "reflected", "skipped"):
        goto(sec, "active", now, why)


def arm(sec, now, system, tid, why, title=None):
    """A confirmed close: the gate wants a reflection (each close re-arms it)."""
    closes = sec.setdefault("closes", [])
    closes.append({"id": tid, "source": system, "at": round(now, 3)})
    del closes[:-CLOSES_CAP]
    t = sec.get("ticket") or {}
    if t.get("id") != tid:
        sec["ticket"] = {
            "id": tid,
            "source": system,
            "title": title or "",
            "description": "",
            "labels": [],
            "detected_at": round(now, 3),
        }
    elif title and not t.get("title"):
        t["title"] = title
    sec["armed_by"] = system
    trace(sec, now, "TicketClosed", "%s %s (%s)" % (system, tid, why))
    if sec.get("reflected_for") == tid and sec.get("status") in ("active", "reflected"):
        goto(sec, "reflected", now, "a reflection for %s was recorded before its close" % tid)
        return
    if sec.get("status") not in OPEN:
        _reset_breaker(sec)
        goto(sec, "pending", now, "%s %s closed" % (system, tid))


def arm_session(sec, now, diff):
    sec["armed_by"] = "session"
    sec["diff"] = diff
    _reset_breaker(sec)
    goto(sec, "pending", now, "session mode: the session recorded writes (%s)" % _size_text(diff))


def record_reflection(sec, now, accepted_ids, produced, rejected):
    ticket = (sec.get("ticket") or {}).get("id") if sec.get("armed_by") != "session" else None
    sec["reflection"] = {
        "at": round(now, 3),
        "accepted": accepted_ids[:20],
        "produced": produced,
        "rejected": rejected,
    }
    trace(sec, now, "ReflectionComplete", "%d of %d accepted" % (len(accepted_ids), produced))
    if sec.get("status") in OPEN or sec.get("status") == "active":
        sec["reflected_for"] = ticket or "session"
    if sec.get("status") in OPEN:
        if sec.get("armed_by") == "session":
            sec["session_done"] = True
        _reset_breaker(sec)
        goto(sec, "reflected", now, "reflection recorded")
        return True
    return False


def record_skip(sec, now, reason, decider, lines):
    sec["skip"] = {
        "reason": reason[:500],
        "decider": decider,
        "lines_changed": lines,
        "at": round(now, 3),
    }
    trace(sec, now, "Skip", "%s: %s" % (decider, reason[:200]))
    if sec.get("armed_by") == "session":
        sec["session_done"] = True
    _reset_breaker(sec)
    goto(sec, "skipped", now, "skip (%s)" % decider)


def record_observation(sec, now, note, agent_id, agent_type, by):
    obs = sec.setdefault("observations", [])
    obs.append(
        {
            "note": note[:OBS_LEN],
            "at": round(now, 3),
            "agent_id": agent_id,
            "agent_type": agent_type,
            "by": by,
        }
    )
    del obs[:-OBS_CAP]
    trace(sec, now, "ObservationRecorded", "%s: %s" % (agent_type or by, note[:120]))


def pending_close(sec, tool_use_id, events, compound, now):
    pc = sec.setdefault("pending_close", {})
    pc[str(tool_use_id)] = {
        "events": [[s, t] for _, s, t in events],
        "compound": compound,
        "at": round(now, 3),
    }
    if len(pc) > PENDING_CAP:
        for k in sorted(pc, key=lambda k: pc[k].get("at") or 0)[: len(pc) - PENDING_CAP]:
            del pc[k]
    for _, s, t in events:
        trace(sec, now, "TicketCloseDetected", "%s %s (PreToolUse)" % (s, t))


# ---------------------------------------------------------------- Stop


def _size_text(diff):
    if not diff:
        return "size unknown"
    if diff.get("lines") is None:
        return "size unknown: %s" % (diff.get("why") or "not a git repository")
    where = {
        "start": "since the session started",
        "written": "in the files this session wrote",
    }.get(diff.get("since"), "since HEAD")
    return "%s changed in %s %s" % (
        plural(diff["lines"], "line"),
        plural(diff.get("files", 0), "file"),
        where,
    )


def session_diff(ctx, sec):
    """What this session changed: from its SessionStart baseline, else from the files its
    own tool calls wrote."""
    from core.learning import baseline

    base = sec.get("baseline")
    if isinstance(base, dict) and isinstance(base.get("files"), dict):
        return baseline.measure(ctx.project, base)
    written = (ctx.session.get("edits") or {}).get("unique_files") or []
    return baseline.measure_written(ctx.project, written)


def _resolve_stale_closes(ctx, sec):
    """Closes seen at PreToolUse whose PostToolUse never came (a later gate denied the call,
    or the event was lost): the tracker decides."""
    pc = sec.get("pending_close")
    if not pc:
        return
    checked = 0
    for key in list(pc):
        ent = pc.pop(key)
        for system, tid in ent.get("events") or []:
            if checked >= 3:
                break
            checked += 1
            if system in tickets.TRACKER_CLI and tickets.is_closed(system, tid, ctx.project):
                arm(sec, ctx.now, system, tid, "the tracker says closed (no PostToolUse seen)")
            else:
                trace(
                    sec,
                    ctx.now,
                    "TicketCloseFailed",
                    "%s %s: no PostToolUse and not closed in the tracker" % (system, tid),
                )


def stop(ctx, held):
    """The Stop gate: a block reason, or None."""
    sess = ctx.session
    sec = sess.get("learning") if isinstance(sess.get("learning"), dict) else None
    mode = tickets.mode(ctx.cfg, ctx.project, sec)
    if mode is None and not (sec and sec.get("status") in OPEN):
        return None
    sec = section(sess)
    _resolve_stale_closes(ctx, sec)
    status = sec.get("status", "idle")
    if (
        status == "idle"
        and mode == "session"
        and not sec.get("session_done")
        and (sess.get("edits") or {}).get("count", 0) > 0
    ):
        diff = sec.get("diff") or session_diff(ctx, sec)
        if diff.get("lines") == 0:
            return None  # written back as it was, or only our own files: nothing to reflect on
        arm_session(sec, ctx.now, diff)
        status = "pending"
    if status not in OPEN:
        return None
    trace(
        sec,
        ctx.now,
        "StopHookCalled",
        "stop_hook_active=%s%s"
        % (bool(ctx.payload.get("stop_hook_active")), ", held" if held else ""),
    )
    if held:
        return None
    lc = ctx.cfg
    if sec.get("armed_by") == "session" and lc.get("learning.auto_skip.enabled"):
        diff = sec.get("diff") or {}
        lines = diff.get("lines")
        threshold = lc.int("learning.auto_skip.line_threshold")
        decider = lc.text("learning.auto_skip.decider").lower()
        if lines is not None and lines < threshold and decider in ("always", "agent"):
            if decider == "always" or sec.get("offered_skip"):
                why = (
                    "auto: %s changed, under the threshold of %d"
                    % (plural(lines, "line"), threshold)
                    if decider == "always"
                    else "auto: %s changed, under %d; the agent was asked once and chose "
                    "neither" % (plural(lines, "line"), threshold)
                )
                auto_skip(ctx, sec, why, lines)
                return None
            sec["offered_skip"] = True
            return _block(ctx, sec, small=(lines, threshold))
    max_blocks = lc.int("learning.max_blocks")
    cooldown = lc.int("learning.cooldown_seconds")
    if sec.get("last_blocked_session") not in (None, ctx.sid) or (
        cooldown > 0 and ctx.now - (sec.get("last_block_at") or ctx.now) > cooldown
    ):
        sec["block_count"] = 0
    if sec.get("block_count", 0) >= max_blocks:
        return _trip(ctx, sec, max_blocks)
    return _block(ctx, sec)


def auto_skip(ctx, sec, reason, lines):
    from core.learning import stats

    record_skip(sec, ctx.now, reason, "auto", lines)
    stats.append(
        ctx.project,
        "skip",
        session=ctx.sid,
        decider="auto",
        reason=reason,
        lines=lines,
        ticket=None,
    )
    ctx.audit("learning_skip", decider="auto", reason=reason)


def _trip(ctx, sec, max_blocks):
    from core.learning import stats

    n = sec.get("block_count", 0)
    trace(sec, ctx.now, "CircuitBreakerTripped", "%d blocks without a reflection" % n)
    if sec.get("armed_by") == "session":
        sec["session_done"] = True
    goto(sec, "idle", ctx.now, "breaker: %d blocks" % n)
    _reset_breaker(sec)
    stats.append(
        ctx.project,
        "breaker",
        session=ctx.sid,
        blocks=n,
        ticket=(sec.get("ticket") or {}).get("id"),
    )
    ctx.audit("learning_breaker", blocks=n, ticket=(sec.get("ticket") or {}).get("id"))
    ctx.answer.tell_user(
        "sane-hooks: the learning gate let the agent stop after %s "
        "without a reflection (learning.max_blocks). Nothing was recorded "
        "for %s." % (plural(n, "block"), _what(sec))
    )
    return None


def _what(sec):
    if sec.get("armed_by") == "session":
        return "this session's changes"
    t = sec.get("ticket") or {}
    return "ticket %s" % (t.get("id") or "?")


def _block(ctx, sec, small=None):
    sec["block_count"] = sec.get("block_count", 0) + 1
    sec["last_block_at"] = round(ctx.now, 3)
    sec["last_blocked_session"] = ctx.sid
    goto(sec, "blocked", ctx.now, "Stop")
    trace(sec, ctx.now, "GateBlocked", "block %d" % sec["block_count"])
    return block_message(ctx, sec, small)


def _example(ctx, sec):
    import json

    files = []
    last = (ctx.session.get("edits") or {}).get("last_file")
    if isinstance(last, str) and last:
        files = [last]
    ex = {
        "category": "pitfall",
        "summary": EXAMPLE_SUMMARY,
        "detail": (
            "Example: what happened, why it matters, and what to do next time. The "
            "login view redirected before the cookie was set, so the next request was "
            "anonymous; set it first."
        ),
        "tags": ["auth", "cookies"],
        "criteria_met": ["behavior_changing"],
        "scope": "project",
        "confidence": "medium",
        "context_files": files or ["src/login.py"],
    }
    return json.dumps({"learnings": [ex]})


def block_message(ctx, sec, small=None):
    sid = ctx.sid
    max_blocks = ctx.cfg.int("learning.max_blocks")
    if small:
        head = (
            "[learning] This session changed %s (under the auto-skip threshold of %d). "
            "Decide once: skip if nothing here is worth remembering, or record what is."
            % (plural(small[0], "line"), small[1])
        )
    elif sec.get("armed_by") == "session":
        head = (
            "[learning] This session changed files (%s): before stopping, record what the "
            "work taught that a later session needs (block %d of %d)."
            % (_size_text(sec.get("diff")), sec.get("block_count", 0), max_blocks)
        )
    else:
        t = sec.get("ticket") or {}
        closed = [c["id"] for c in sec.get("closes") or []][-3:]
        head = (
            "[learning] Ticket %s%s was closed: before stopping, record what this work "
            "taught that a later session needs (block %d of %d)."
            % (
                ", ".join(closed) or t.get("id") or "?",
                ' ("%s")' % t["title"][:80] if t.get("title") else "",
                sec.get("block_count", 0),
                max_blocks,
            )
        )
    lines = [
        head,
        "Record it (JSON on stdin; the example shows every field, write your own):",
        "%s learn reflect %s <<'EOF'" % (CLI, sid),
        _example(ctx, sec),
        "EOF",
        "Rules: category one of %s; summary 10-200 characters; detail 20-2000, saying more "
        "than the summary; tags 1-10; criteria_met at least one that is true: %s; scope "
        "project | team | personal | ephemeral (default project); optional confidence "
        "high | medium | low, context_files, supersedes (the id of a learning this "
        "corrects). Near-duplicates of existing learnings are rejected."
        % (CATEGORIES_TEXT, CRITERIA_TEXT),
    ]
    obs = sec.get("observations") or []
    if obs:
        lines.append("Subagent observations to draw on:")
        for o in obs[-10:]:
            lines.append("- (%s) %s" % (o.get("agent_type") or o.get("by") or "?", o.get("note")))
    lines.append(
        'Nothing worth keeping? %s learn skip %s "why there is nothing to learn"' % (CLI, sid)
    )
    return "\n".join(lines)
