"""`sane.py learn ...`: reflect, skip, observe (the agent or the person), list, search, stats,
trace (anyone), maintain (the person only)."""

import json
import os
import sys
import time

from core import log
from core.cli import common
from core.cli.args import actions, add
from core.cli.common import (
    CLI,
    CliError,
    caller,
    err,
    hand_off,
    open_store,
    out,
    project_of,
    under_claude,
)
from core.wording import plural

MAX_INPUT = 1024 * 1024


SESSION_HELP = (
    "session id (default: the SID argument, $CLAUDE_CODE_SESSION_ID, else the most recent)"
)


def add_arguments(sp):
    acts = actions(sp, "learn_cmd")

    def action(name, help_, session=False):
        return add(acts, name, help_, session=SESSION_HELP if session else False)

    a = action(
        "reflect",
        "record learnings (JSON on stdin or --file): opens the gate when at least one passes",
        session=True,
    )
    a.add_argument("sid", nargs="?", metavar="SID")
    a.add_argument("--file", "-f", metavar="F", help="read the JSON from F instead of stdin")
    a = action("skip", 'log that there is nothing to learn: learn skip SID "reason"', session=True)
    a.add_argument("words", nargs="+", metavar="[SID] REASON")
    a = action(
        "observe", 'a subagent\'s note for the reflection: learn observe SID "note"', session=True
    )
    a.add_argument("words", nargs="+", metavar="[SID] NOTE")
    a = action("list", "stored learnings, newest first")
    a.add_argument("--all", action="store_true", help="include archived and superseded ones")
    a.add_argument("--limit", "-n", type=int, default=50)
    a.add_argument("--json", action="store_true")
    a = action("search", "learnings matching a query (tags, files, keywords)")
    a.add_argument("query", nargs="+", metavar="QUERY")
    a.add_argument("--limit", "-n", type=int, default=10)
    a.add_argument("--json", action="store_true")
    a = action("stats", "hit rates by category, write-gate pass rate, skip rate, insights")
    a.add_argument("--json", action="store_true")
    a = action("trace", "the learning gate's trace events for a session", session=True)
    a.add_argument("sid", nargs="?", metavar="SID")
    a.add_argument("--json", action="store_true")
    a = action(
        "maintain",
        "passive decay now, cache rebuild, or restore an archived learning (the person only)",
    )
    a.add_argument("--restore", metavar="ID")
    a.add_argument("--rebuild", action="store_true", help="rebuild the retrieval cache first")


def run(args, argv):
    act = getattr(args, "learn_cmd", None)
    if not act:
        raise CliError(
            "learn needs an action: reflect | skip | observe | list | search | stats "
            "| trace | maintain"
        )
    return {
        "reflect": reflect,
        "skip": skip,
        "observe": observe,
        "list": list_,
        "search": search,
        "stats": stats_,
        "trace": trace,
        "maintain": maintain,
    }[act](args, argv)


# ---------------------------------------------------------------- helpers


def _config(project, st):
    from core import config

    return config.load(project, st.state["cache"].setdefault("yaml", {}))


def _session(args, st, who, positional=None, own=True):
    """The session the call acts for; the agent may change only its own session."""
    sid = positional or getattr(args, "session", None)
    how = "given"
    if not sid:
        if who.session:
            sid, how = who.session, "caller"
        elif os.environ.get("CLAUDE_CODE_SESSION_ID"):
            sid, how = os.environ["CLAUDE_CODE_SESSION_ID"], "CLAUDE_CODE_SESSION_ID"
        elif st.state.get("last_session"):
            sid, how = st.state["last_session"], "most recent"
        else:
            raise CliError("no session: pass the session id (no session has been recorded yet)")
    if own and who.by == "agent" and who.session and sid != who.session:
        raise CliError(
            "refused: this call was authorised for session %s, not %s; use your own "
            "session id" % (who.session, sid),
            2,
        )
    if sid not in (st.state.get("sessions") or {}):
        raise CliError("unknown session %s (see `%s status`)" % (sid, CLI))
    return sid, how


def _writable(st):
    if st.tamper or st.state["tamper"].get("locked"):
        raise CliError(
            "the state is tamper-locked (%s): the person runs `sane.py doctor` and "
            "`unlock` first" % (st.tamper or st.state["tamper"].get("reason")),
            2,
        )


def _acting(args, argv, st, sid_arg):
    """(caller, the session it acts for) of a call that changes the state, once it may."""
    who = caller(st, argv)
    _writable(st)
    sid, _ = _session(args, st, who, sid_arg)
    return who, sid


def _split_words(words):
    """[SID] TEXT: one word is the text; more: the first is the session id."""
    if len(words) == 1:
        return None, words[0]
    return words[0], " ".join(words[1:])


def _read_input(args):
    """The reflection document: from --file or stdin, read by this process under the agent's
    own restrictions; in a hook, the document the request carried (the hook never opens the
    agent's file or reads its stdin)."""
    if common.RT.mode == "hook":
        doc = common.RT.input
        if doc is None:
            raise CliError("the request carried no reflection")
        return doc
    if args.file:
        try:
            with open(args.file, "rb") as fh:
                raw = fh.read(MAX_INPUT + 1)
        except OSError as exc:
            raise CliError("cannot read %s: %s" % (args.file, exc.strerror or exc))
    else:
        if sys.stdin is None or sys.stdin.isatty():
            raise CliError("pipe the reflection JSON on stdin (a heredoc works) or pass --file F")
        raw = sys.stdin.buffer.read(MAX_INPUT + 1)
    if len(raw) > MAX_INPUT:
        raise CliError("the reflection is larger than %d bytes" % MAX_INPUT)
    text = raw.decode("utf-8", "replace").strip()
    if not text:
        raise CliError("no reflection JSON given (stdin was empty)")
    try:
        return json.loads(text)
    except ValueError as exc:
        raise CliError("the reflection is not valid JSON (%s)" % str(exc).split(":")[0])


def _active(idx):
    from core.learning.index import STATUS

    summaries, ids = {}, set()
    for i in range(idx.n):
        if idx.status[i] != STATUS["active"]:
            continue
        lid = idx.id_of(i)
        text = idx.summ[idx.summ_pos[i] : idx.summ_pos[i + 1] - 1]
        summaries[text] = (lid, text)
        ids.add(lid)
    return summaries, ids


def _refresh(project, cfg, save=True):
    from core.learning import index as lidx

    if common.handing_off() and not common.key_readable():
        # The cache is signed with the key: without it, build the index from the files and
        # keep it in memory (never creating a key, never writing the cache).
        return lidx.refresh(project, cfg, lidx.Index())
    idx = lidx.refresh(project, cfg)
    if save and idx.dirty and not common.handing_off():
        lidx.save(idx, project)
    return idx


# ---------------------------------------------------------------- reflect, skip, observe


def reflect(args, argv):
    from core.learning import gate, schema, stats, store

    project = project_of(args)
    st = open_store(project)
    try:
        who, sid = _acting(args, argv, st, args.sid)
        doc = _read_input(args)
        cands = schema.candidates_of(doc)
        if cands is None:
            raise CliError(
                'the reflection must be {"learnings": [...]}, a list of candidates, '
                "or one candidate object"
            )
        cfg = _config(project, st)
        mode = cfg.get("learning.write_gate")
        mode = "off" if mode is False else str(mode or "lenient").lower()  # YAML reads off as false
        if mode not in schema.WRITE_GATE_MODES:
            mode = "lenient"
        now = time.time()
        idx = _refresh(project, cfg, save=False)
        accepted, rejected = schema.validate(cands, _active(idx), mode)
        sess = st.session(sid)
        sec = gate.section(sess)
        ticket = (sec.get("ticket") or {}).get("id") if sec.get("armed_by") != "session" else None
        if not accepted:
            if not common.handing_off():  # a failed call hands nothing to the hooks
                gate.trace(
                    sec, now, "ReflectionRejected", "%d candidate(s), none accepted" % len(cands)
                )
                stats.append(
                    project,
                    "reflection",
                    session=sid,
                    produced=len(cands),
                    accepted=0,
                    rejected=len(rejected),
                    mode=mode,
                    rejected_summaries=[r.summary for r in rejected if r.summary],
                    reasons=[r.reason for r in rejected][:20],
                )
                st.commit()
            err(
                "sane.py: no learning was accepted, so nothing was written and the gate stays "
                "%s:" % sec.get("status", "idle")
            )
            for r in rejected or [schema.Rejection(0, "", "no candidates in the reflection")]:
                err(
                    "  #%d %s: %s"
                    % (r.index, '"%s"' % r.summary[:80] if r.summary else "", r.reason)
                )
            err(
                'Fix them and run `%s learn reflect %s` again, or `%s learn skip %s "reason"` '
                "if there is nothing worth keeping." % (CLI, sid, CLI, sid)
            )
            return 1
        if hand_off(argv, cands):
            return 0
        recs = [schema.build(f, sid, ticket, now) for f in accepted]
        where, notes = store.write(project, cfg, recs, now)
        sup = {r["supersedes"]: r["id"] for r in recs if r.get("supersedes")}
        if sup:
            _supersede(project, idx, sup, now)
        for r in recs:
            stats.append(
                project,
                "written",
                id=r["id"],
                session=sid,
                ticket=ticket,
                category=r["category"],
                scope=r["scope"],
                confidence=r["confidence"],
                criteria=r["criteria_met"],
                where=where.get(r["id"]),
            )
        stats.append(
            project,
            "reflection",
            session=sid,
            produced=len(cands),
            accepted=len(recs),
            rejected=len(rejected),
            mode=mode,
            accepted_summaries=[r["summary"] for r in recs],
            rejected_summaries=[r.summary for r in rejected if r.summary],
            reasons=[r.reason for r in rejected][:20],
        )
        opened = gate.record_reflection(
            sec, now, [r["id"] for r in recs], len(cands), len(rejected)
        )
        lost = [lid for lid, w in where.items() if w == "audit"]
        if lost or any("failed" in n for n in notes):
            sec["notice"] = "; ".join(notes)[:1000]
        st.commit()
        log.audit(
            project,
            "learning_reflect",
            session=sid,
            accepted=len(recs),
            rejected=len(rejected),
            **who.record(),
        )
    finally:
        st.close()
    _refresh(project, cfg)
    out(
        "recorded %d learning(s) for session %s%s:"
        % (len(recs), sid, " (ticket %s)" % ticket if ticket else "")
    )
    for r in recs:
        out(
            "  %s [%s] %s -> %s"
            % (r["id"], r["category"], r["summary"], _where_text(where.get(r["id"])))
        )
    for n in notes:
        out("note: " + n)
    if rejected:
        out("rejected %d:" % len(rejected))
        for r in rejected:
            out("  #%d %s: %s" % (r.index, '"%s"' % r.summary[:80] if r.summary else "", r.reason))
    out(
        "the learning gate is open: you may stop now."
        if opened
        else "(no reflection was pending; the learnings are stored)"
    )
    return 0


def _where_text(w):
    return {
        "markdown": ".claude/learnings.md",
        "personal": "personal-learnings.md (your config dir)",
        "dropped": "dropped (ephemeral, and Total Recall is not active)",
        "audit": ".claude/audit.jsonl (every store failed)",
    }.get(w, (w or "?").replace("total-recall:", "Total Recall "))


def _supersede(project, idx, sup, now):
    from core.learning import stats, store

    md = {}
    for old, new in sup.items():
        i = idx.find(old)
        kind = idx.kind_of(i) if i is not None else "md"
        if kind not in ("tr", "reg"):
            md[old] = {"status": "superseded", "superseded_by": new}
        stats.append(
            project,
            "superseded",
            id=old,
            by=new,
            backend="total-recall" if kind in ("tr", "reg") else "markdown",
        )
    if md:
        store.set_status(project, md, now)


def skip(args, argv):
    from core.learning import gate, stats

    project = project_of(args)
    sid_arg, reason = _split_words(args.words)
    reason = " ".join(reason.split())
    if not reason:
        raise CliError('a skip needs a reason: learn skip SID "why there is nothing to learn"')
    st = open_store(project)
    try:
        who, sid = _acting(args, argv, st, sid_arg)
        sec = gate.section(st.session(sid))
        status = sec.get("status", "idle")
        if status not in gate.OPEN:
            raise CliError(
                "nothing to skip: the learning gate of session %s is %s (no "
                "reflection is pending)" % (sid, status)
            )
        if hand_off(argv):
            return 0
        lines = (sec.get("diff") or {}).get("lines")
        decider = "agent" if who.by == "agent" else "person"
        gate.record_skip(sec, time.time(), reason, decider, lines)
        stats.append(
            project,
            "skip",
            session=sid,
            decider=decider,
            reason=reason[:500],
            lines=lines,
            ticket=(sec.get("ticket") or {}).get("id"),
        )
        st.commit()
        log.audit(project, "learning_skip", session=sid, reason=reason[:500], **who.record())
    finally:
        st.close()
    out(
        "skip logged for session %s: %s\nthe learning gate is open: you may stop now."
        % (sid, reason)
    )
    return 0


def observe(args, argv):
    from core.learning import gate

    project = project_of(args)
    sid_arg, note = _split_words(args.words)
    note = note.strip()
    if not note:
        raise CliError('an observation needs text: learn observe SID "note"')
    st = open_store(project)
    try:
        who, sid = _acting(args, argv, st, sid_arg)
        sec = gate.section(st.session(sid))
        if hand_off(argv):
            return 0
        gate.record_observation(sec, time.time(), note, who.agent_id, who.agent_type, who.by)
        st.commit()
    finally:
        st.close()
    out("observation recorded for session %s; the main agent's reflection will see it." % sid)
    return 0


# ---------------------------------------------------------------- list, search, stats, trace


def _index_readonly(project):
    st = open_store(project)
    try:
        cfg = _config(project, st)
    finally:
        st.close()
    if common.handing_off() and not common.key_readable():
        err(
            "sane.py: note: personal learnings (<config>/sane-hooks/personal-learnings.md) "
            "are not readable in this shell (Claude Code's sandbox hides that directory) and "
            "are left out; project learnings are all here."
        )
    return cfg, _refresh(project, cfg)


def _full(idx, i):
    from core.learning import retrieval
    from core.learning.index import STATUS_NAME

    rec = retrieval.view(idx, i) or {
        "id": idx.id_of(i),
        "summary": idx.summ[idx.summ_pos[i] : idx.summ_pos[i + 1] - 1],
    }
    rec["status"] = STATUS_NAME.get(idx.status[i], "active")
    rec["surfaced"], rec["referenced"] = idx.sur[i], idx.ref[i]
    return rec


def _row(rec, score=None):
    s = "%-32s %-10s %-10s %s" % (
        rec["id"],
        rec.get("category") or "?",
        rec.get("status") or "",
        rec.get("summary") or "",
    )
    return ("%5.3f " % score + s) if score is not None else s


def list_(args, argv):
    project = project_of(args)
    _, idx = _index_readonly(project)
    order = sorted(range(idx.n), key=lambda i: idx.created[i], reverse=True)
    if not args.all:
        order = [i for i in order if idx.status[i] == 97]
    recs = [_full(idx, i) for i in order[: max(0, args.limit)]]
    if args.json:
        out(json.dumps({"count": len(order), "learnings": recs}, indent=2, ensure_ascii=False))
        return 0
    out("%d learning(s)%s; newest first:" % (len(order), "" if args.all else " active"))
    for r in recs:
        out(_row(r))
    if len(order) > len(recs):
        out("... %d more (--limit N)" % (len(order) - len(recs)))
    return 0


def search(args, argv):
    from core.learning import retrieval, schema

    project = project_of(args)
    _, idx = _index_readonly(project)
    text = " ".join(" ".join(args.query).split())
    terms = text.split()
    files = [t for t in terms if "/" in t or "." in t.strip(".")]
    tags = [schema.norm_tag(t) for t in terms if t not in files]
    keywords = retrieval.words(text) + ([text.lower()] if len(terms) > 1 else [])
    q = retrieval.Query(tags, files, keywords or [text.lower()])
    hits = retrieval.rank(idx, q, time.time(), "search", 0.0, max(0, args.limit))
    recs = [(score, _full(idx, i)) for score, i, _ in hits]
    if args.json:
        out(json.dumps([dict(r, score=round(s, 4)) for s, r in recs], indent=2, ensure_ascii=False))
        return 0
    if not recs:
        out("no learning matches %r" % text)
        return 0
    for s, r in recs:
        out(_row(r, s))
    return 0


def stats_(args, argv):
    from core.learning import stats

    project = project_of(args)
    _, idx = _index_readonly(project)
    s = stats.summary(idx)
    if args.json:
        s["insights"] = stats.insights(s)
        out(json.dumps(s, indent=2, sort_keys=True))
        return 0
    out(stats.table(s))
    return 0


def trace(args, argv):
    project = project_of(args)
    st = open_store(project)
    try:
        who = caller(st, argv, changes_state=False)
        sid, how = _session(args, st, who, args.sid, own=False)
        sec = (st.state["sessions"].get(sid) or {}).get("learning") or {}
    finally:
        st.close()
    if args.json:
        out(
            json.dumps(
                {
                    "session": sid,
                    "status": sec.get("status", "idle"),
                    "trace": sec.get("trace") or [],
                },
                indent=2,
            )
        )
        return 0
    out(
        "session %s (%s): learning gate %s%s"
        % (
            sid,
            how,
            sec.get("status", "idle"),
            ", ticket %s" % sec["ticket"].get("id") if sec.get("ticket") else "",
        )
    )
    for ev in sec.get("trace") or []:
        out(
            "%s  %-22s %s"
            % (
                time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(ev.get("ts") or 0)),
                ev.get("event"),
                ev.get("details") or "",
            )
        )
    return 0


# ---------------------------------------------------------------- maintain (person only)


def maintain(args, argv):
    from core.learning import index as lidx
    from core.learning import retrieval, stats, store

    if under_claude():
        raise CliError(
            "refused: `sane.py learn maintain` is for the person only; run it in "
            "your own terminal, outside Claude Code",
            2,
        )
    project = project_of(args)
    st = open_store(project)
    try:
        _writable(st)
        cfg = _config(project, st)
        now = time.time()
        if args.rebuild:
            try:
                os.unlink(lidx.cache_path(project))
            except OSError:
                pass
        idx = lidx.refresh(project, cfg)
        if args.restore:
            i = idx.find(args.restore)
            if i is None:
                raise CliError("no learning %s (see `%s learn list --all`)" % (args.restore, CLI))
            if idx.status[i] != lidx.STATUS["archived"]:
                raise CliError(
                    "%s is %s, not archived; only archived learnings are restored"
                    % (args.restore, lidx.STATUS_NAME.get(idx.status[i]))
                )
            kind = idx.kind_of(i)
            if kind not in ("tr", "reg"):
                store.set_status(project, {args.restore: {"status": "active"}}, now)
            else:
                idx.overrides[args.restore] = "active"
                idx.status[i] = lidx.STATUS["active"]
            stats.append(
                project,
                "restored",
                id=args.restore,
                backend="total-recall" if kind in ("tr", "reg") else "markdown",
            )
            log.audit(project, "learning_restore", id=args.restore, by="person")
            lidx.save(lidx.refresh(project, cfg, idx), project)
            out("restored %s: active again (its decay timer starts now)" % args.restore)
            return 0
        archived = retrieval.decay(project, cfg, idx, now, force=True)
        lidx.save(idx, project)
        log.audit(project, "learning_maintain", archived=len(archived), by="person")
    finally:
        st.close()
    out(
        "passive decay: %d learning(s) archived%s"
        % (len(archived), (": " + ", ".join(archived)) if archived else "")
    )
    out(
        "retrieval cache %s: %s"
        % ("rebuilt" if args.rebuild else "up to date", plural(idx.n, "learning"))
    )
    return 0
