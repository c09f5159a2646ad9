"""sane.py review: decide (the reviewer subagent, or the person outside Claude Code), context,
trace, debug, sessions, stats (anyone), clean (the person only)."""

import json
import os
import time

from core import log
from core.cli.args import actions, add
from core.cli.common import (
    CliError,
    caller,
    hand_off,
    open_store,
    out,
    project_of,
    resolve_session,
    under_claude,
)
from core.wording import plural

ACTIONS = ("decide", "context", "trace", "debug", "sessions", "stats", "clean")
# Set by Claude Code for every command its Bash tool runs; without CLAUDECODE they mean the
# command runs inside Claude Code with CLAUDECODE taken out of its environment.
CLAUDE_MARKERS = ("CLAUDE_CODE_SESSION_ID", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_PID")


def add_arguments(p):
    rsub = actions(p, "review_cmd")

    def action(name, help_, session=False):
        return add(rsub, name, help_, session=session)

    sp = action(
        "decide",
        "record the reviewer's verdict (the reviewer subagent, or the person outside Claude Code)",
    )
    sp.add_argument("sid", metavar="SID")
    sp.add_argument("decision", metavar="COMPLETE|ISSUES")
    sp.add_argument("summary")
    sp.add_argument("--message", "-m", help="what the agent must fix (required for ISSUES)")
    sp.add_argument("--opinions", help="which second opinions were obtained (or none)")
    for name, help_ in (
        ("context", "what the reviewer needs: prompts, gate trigger, changed files"),
        ("debug", "the session's whole state as JSON"),
    ):
        sp = action(name, help_, session=True)
        sp.add_argument("sid", nargs="?", metavar="SID")
    sp = action("trace", "the review trace of a session", session=True)
    sp.add_argument("sid", nargs="?", metavar="SID")
    sp.add_argument("-v", "--verbose", action="store_true", help="with each event's data")
    action("sessions", "sessions and their review state")
    sp = action("stats", "block-template results: success rate, blocks, failures")
    sp.add_argument("--days", type=int, default=30)
    sp = action("clean", "remove old sessions (never one with a pending review; person only)")
    g = sp.add_mutually_exclusive_group()
    g.add_argument("--before", default="7d", help="age like 7d, 12h, 30m (default 7d)")
    g.add_argument("--all", action="store_true", help="every session without pending work")


def run(args, argv):
    action = getattr(args, "review_cmd", None)
    if action not in ACTIONS:
        raise CliError("review needs an action: %s" % " | ".join(ACTIONS))
    if action == "clean" and under_claude():
        raise CliError(
            "refused: `sane.py review clean` is for the person only; run it in your "
            "own terminal, outside Claude Code",
            2,
        )
    return globals()["cmd_" + action](args, argv)


# ---------------------------------------------------------------- helpers


def _iso(ts):
    if not isinstance(ts, (int, float)) or not ts:
        return "-"
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def _open(project):
    st = open_store(project)
    if st.tamper:
        reason = st.tamper
        st.close()
        raise CliError(
            "the state failed verification (%s); run `sane.py doctor` (the person "
            "lifts the lock with `sane.py unlock`)" % reason
        )
    return st


def _session(state, sid):
    sess = (state.get("sessions") or {}).get(sid)
    if not isinstance(sess, dict):
        raise CliError("unknown session %r (see `sane.py review sessions`)" % sid)
    return sess


def _sid(args, state):
    if args.sid:
        return args.sid, "given"
    return resolve_session(args, state)


def _read_session(args):
    """(session id, its state) of the session the arguments name, read under the lock."""
    st = _open(project_of(args))
    try:
        sid, _ = _sid(args, st.state)
        return sid, _session(st.state, sid)
    finally:
        st.close()


def _review(sess):
    r = sess.get("review")
    return r if isinstance(r, dict) and r.get("status") else None


def _indent(text, pad="    "):
    return "\n".join(pad + line for line in (text or "").splitlines() or [""])


# ---------------------------------------------------------------- decide


def cmd_decide(args, argv):
    from core import config as cfgmod
    from core.review import state as rs

    word = args.decision.strip().upper()
    if word not in rs.DECISIONS:
        raise CliError("the decision must be COMPLETE or ISSUES (got %r)" % args.decision)
    if not args.summary.strip():
        raise CliError("the summary is empty: say what you checked")
    if word == "ISSUES" and not (args.message or "").strip():
        raise CliError('ISSUES needs --message "what the agent must fix"')
    if not under_claude() and any(os.environ.get(k) for k in CLAUDE_MARKERS):
        raise CliError(
            "refused: this runs inside Claude Code with CLAUDECODE removed from its "
            "environment; only the reviewer subagent (through the hooks) or the person "
            "in their own terminal may decide",
            2,
        )
    project = project_of(args)
    st = _open(project)
    try:
        who = caller(st, argv)
        sess = _session(st.state, args.sid)
        cfg = cfgmod.load(project, st.state["cache"].setdefault("yaml", {}))
        reviewer = cfg.text("review.reviewer_agent")
        r = sess.get("review")
        if not isinstance(r, dict):
            r = sess["review"] = {}
        if not r.get("status"):
            rs.init(r, args.sid, time.time(), sess.get("created_at"))
        rec = None
        if who.by == "agent":
            if who.session != args.sid:
                raise CliError(
                    "refused: a reviewer decides only for the session it reviews "
                    "(%s), not %s" % (who.session, args.sid),
                    2,
                )
            rec = (r.get("reviewers") or {}).get(who.agent_id) if who.agent_id else None
            if rec is None or who.agent_type != reviewer:
                raise CliError(
                    "refused: only the reviewer subagent (%r, announced when it "
                    "started) may decide; the reviewed agent cannot approve its own "
                    "work" % reviewer,
                    2,
                )
            if rec.get("stopped_at"):
                raise CliError("refused: this reviewer has already finished", 2)
        if hand_off(argv):
            return 0
        now = time.time()
        d = {
            "word": word,
            "summary": rs.clip(args.summary.strip()),
            "message": rs.clip((args.message or "").strip()) or None,
            "opinions": rs.clip((args.opinions or "").strip()) or None,
            "at": round(now, 3),
            "by": who.by,
            "agent_id": who.agent_id,
            "confirmed": False,
        }
        rs.record_decision(r, d)

        def audit(event, **fields):
            log.audit(project, event, session=args.sid, **fields)

        if rec is None:
            rs.apply_decision(r, d, now, audit)
        else:
            rec.update(pending=d, last_seen=round(now, 3))
            rs.trace(
                r,
                "ReviewDecision",
                now,
                decision=word,
                by="agent",
                agent_id=who.agent_id,
                confirmed=False,
                summary=d["summary"][:300],
            )
        st.commit()
        audit(
            "review_decision",
            decision=word,
            confirmed=rec is None,
            opinions=d["opinions"],
            **who.record(),
        )
    finally:
        st.close()
    if rec is None:
        out(
            "Decision recorded: %s for session %s (by the person; it counts now)."
            % (word, args.sid)
        )
    else:
        out(
            "Decision recorded: %s for session %s (by reviewer agent %s; it counts once you, the "
            "reviewer, finish)." % (word, args.sid, who.agent_id)
        )
    return 0


# ---------------------------------------------------------------- reading


def cmd_context(args, argv):
    sid, sess = _read_session(args)
    r = _review(sess) or {}
    out("Session: %s" % sid)
    out("Created: %s" % _iso(sess.get("created_at")))
    if r:
        out(
            "Review: %s (opened %s by %s)"
            % (r.get("status"), _iso(r.get("opened_at")), r.get("opened_by") or "-")
        )
    out("")
    prompts = r.get("prompts") or []
    if prompts:
        out("User prompts:")
        for i, p in enumerate(prompts, 1):
            out("[%d] %s" % (i, _iso(p.get("at"))))
            out(_indent(p.get("text")))
    else:
        recent = (sess.get("requirements") or {}).get("requested") or []
        out(
            "User prompts: none recorded for the review%s"
            % ("; the session's recent task prompts (times not recorded):" if recent else "")
        )
        for i, text in enumerate(recent, 1):
            out("[%d] -" % i)
            out(_indent(text))
    g = r.get("gate_trigger")
    out("")
    if isinstance(g, dict):
        ti = g.get("tool_input") or {}
        out(
            "Gate trigger: %s matched %r at %s"
            % (g.get("tool_name"), g.get("pattern_matched"), _iso(g.get("triggered_at")))
        )
        value = ti.get("value")
        out(_indent(value if isinstance(value, str) else json.dumps(value, sort_keys=True)))
        if ti.get("truncated"):
            out(
                "    (truncated at 10 KB; original %s bytes, sha256 %s)"
                % (ti.get("size"), ti.get("sha256"))
            )
    else:
        out("Gate trigger: none")
    files = (sess.get("edits") or {}).get("unique_files") or []
    out("")
    out("Files changed (%d):" % len(files))
    for f in files:
        out("  - %s" % f)
    d = r.get("decision")
    if isinstance(d, dict):
        out("")
        out(
            "Last decision: %s by %s at %s: %s"
            % (d.get("word"), d.get("by"), _iso(d.get("at")), d.get("summary"))
        )
        if d.get("message"):
            out(_indent(d["message"]))
    return 0


def cmd_trace(args, argv):
    sid, sess = _read_session(args)
    r = _review(sess)
    events = (r or {}).get("trace") or []
    out("Trace of session %s (%s)" % (sid, plural(len(events), "event")))
    for ev in events:
        data = ev.get("data") or {}
        brief = " ".join(
            "%s=%s" % (k, v)
            for k, v in sorted(data.items())
            if k
            in (
                "outcome",
                "decision",
                "by",
                "pattern",
                "tool",
                "reason",
                "dropped",
                "agent_id",
                "opened",
                "tagged",
                "ok",
                "template",
            )
        )
        out("#%-4s %s %-15s %s" % (ev.get("n"), _iso(ev.get("ts")), ev.get("type"), brief))
        if args.verbose and data:
            out(_indent(json.dumps(data, indent=2, sort_keys=True), "      "))
    return 0


def cmd_debug(args, argv):
    sid, sess = _read_session(args)
    out(json.dumps({"session": sid, "state": sess}, indent=2, sort_keys=True, default=str))
    return 0


def cmd_sessions(args, argv):
    project = project_of(args)
    st = _open(project)
    try:
        sessions = dict(st.state.get("sessions") or {})
    finally:
        st.close()
    if not sessions:
        out("no sessions recorded")
        return 0
    out(
        "%-38s %-20s %-9s %-8s %-7s %s"
        % ("SESSION", "CREATED", "REVIEW", "DECISION", "BLOCKS", "FIRST PROMPT")
    )
    for sid in sorted(sessions, key=lambda k: sessions[k].get("updated_at") or 0, reverse=True):
        s = sessions[sid]
        r = _review(s) or {}
        d = r.get("decision") or {}
        prompts = r.get("prompts") or []
        first = (prompts[0].get("text") if prompts else "") or ""
        out(
            "%-38s %-20s %-9s %-8s %-7s %s"
            % (
                sid[:38],
                _iso(s.get("created_at")),
                r.get("status") or "-",
                d.get("word") or "-",
                sum(1 for a in r.get("attempts") or [] if isinstance(a, dict)),
                " ".join(first.split())[:50],
            )
        )
    return 0


def cmd_stats(args, argv):
    if args.days < 1:
        raise CliError("--days must be at least 1")
    project = project_of(args)
    cutoff = time.time() - args.days * 86400
    rows = {}
    failures = {}
    for rec in log.read_lines(os.path.join(project, ".claude", "audit.jsonl")):
        if rec.get("event") != "review_attempt" or (rec.get("ts") or 0) < cutoff:
            continue
        t = str(rec.get("template") or "?")
        row = rows.setdefault(t, {"success": 0, "failure": 0, "blocks": 0})
        if rec.get("outcome") == "Success":
            row["success"] += 1
            row["blocks"] += int(rec.get("blocks") or 0)
        else:
            row["failure"] += 1
            failures[rec.get("outcome")] = failures.get(rec.get("outcome"), 0) + 1
    out("Template performance (last %s):" % plural(args.days, "day"))
    if not rows:
        out("  no finished review attempts")
        return 0
    line = "+----------+---------+---------+------------+--------------+"
    out(line)
    out("| Template | Success | Failure | Avg blocks | Success rate |")
    out(line)
    for t in sorted(rows):
        row = rows[t]
        n = row["success"] + row["failure"]
        avg = row["blocks"] / float(row["success"]) if row["success"] else 0.0
        out(
            "| %-8s | %7d | %7d | %10.1f | %11.1f%% |"
            % (t[:8], row["success"], row["failure"], avg, 100.0 * row["success"] / n)
        )
    out(line)
    total = sum(failures.values())
    if total:
        out("")
        out("Failure breakdown:")
        for name in ("NotSpawned", "NoDecision", "BadSessionId"):
            if failures.get(name):
                out(
                    "  %-13s %d (%d%%)"
                    % (name + ":", failures[name], round(100.0 * failures[name] / total))
                )
    return 0


# ---------------------------------------------------------------- clean (person only)


def parse_age(text):
    """'7d' / '12h' / '30m' / '90s' / '2w' / '7' (days) -> seconds."""
    t = (text or "").strip().lower()
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
    mult = units.get(t[-1:]) if t else None
    num = t[:-1] if mult else t
    try:
        value = float(num)
    except ValueError:
        raise CliError("--before wants an age like 7d, 12h or 30m (got %r)" % text)
    if value < 0:
        raise CliError("--before must not be negative")
    return value * (mult or 86400)


def _pending_work(sess):
    from core.learning import hooks as learning
    from core.review import hooks as review

    return bool(
        review.pending(sess) or learning.pending(sess) or (sess.get("saneloop") or {}).get("active")
    )


def cmd_clean(args, argv):
    cutoff = None if args.all else time.time() - parse_age(args.before)
    project = project_of(args)
    st = _open(project)
    try:
        caller(st, argv)
        sessions = st.state["sessions"]
        removed, kept = [], 0
        for sid in list(sessions):
            s = sessions[sid]
            if not isinstance(s, dict):
                del sessions[sid]
                continue
            if cutoff is not None and (s.get("updated_at") or 0) >= cutoff:
                continue
            if _pending_work(s):
                kept += 1
                continue
            del sessions[sid]
            removed.append(sid)
        if st.state.get("last_session") in removed:
            st.state["last_session"] = None
        st.commit()
    finally:
        st.close()
    log.audit(
        project,
        "review_clean",
        by="person",
        removed=len(removed),
        kept_pending=kept,
        before=None if args.all else args.before,
    )
    out(
        "removed %d session%s%s"
        % (
            len(removed),
            "" if len(removed) == 1 else "s",
            "; kept %d with pending work (a review, loop or reflection)" % kept if kept else "",
        )
    )
    return 0
