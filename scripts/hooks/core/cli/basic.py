"""sane.py status, config, logs, reset, unlock, loop."""

import json
import os
import time

from core import log
from core.cli.common import (
    CliError,
    caller,
    hand_off,
    open_store,
    out,
    project_of,
    resolve_session,
)

SECTIONS = ("circuit_breaker", "enforcement", "safemode", "tamper")
SESSION_SECTIONS = (
    "research",
    "requirements",
    "edits",
    "saneloop",
    "action_log",
    "review",
    "learning",
    "intent",
    "reads",
)
ALIASES = {"breaker": "circuit_breaker", "loop": "saneloop"}


def status(args):
    project = project_of(args)
    st = open_store(project)
    try:
        from core.state import tamper_note

        state = st.state
        note = tamper_note(state)
        checked = getattr(st, "verified", True)  # False: read without the key (sandbox)
        if args.json:
            doc = dict(state)
            doc["verified"] = note is None and st.tamper is None and checked
            doc["problem"] = (
                st.tamper
                or (state["tamper"].get("reason") if note else None)
                or (None if checked else "not checked: the key is not readable in this shell")
            )
            doc["shown"] = (
                "last verified"
                if isinstance(state["tamper"].get("restored"), dict)
                else "defaults"
                if note
                else "verified"
            )
            out(json.dumps(doc, indent=2, sort_keys=True, default=str))
            return 0
        if st.fresh:
            out("project: %s (no state yet: defaults)" % project)
        else:
            out(
                "project: %s (state verified: %s, seq %s)"
                % (
                    project,
                    "NO - " + st.tamper
                    if st.tamper
                    else "yes"
                    if checked
                    else "not checked (the key is not readable in this shell)",
                    state.get("seq"),
                )
            )
        t = state["tamper"]
        if note:
            out("TAMPER LOCK: %s (the person lifts it with `unlock`)" % t.get("reason"))
            out(note)
        out("safemode is %s" % ("ON" if state["safemode"].get("active") else "OFF"))
        cb = state["circuit_breaker"]
        out(
            "breaker is %s (%d consecutive failures)"
            % (
                "TRIPPED: %s" % cb.get("trip_reason") if cb.get("tripped") else "OK",
                cb.get("failures", 0),
            )
        )
        enf = state["enforcement"]
        if enf.get("halted"):
            out("enforcement HALTED: %s" % enf.get("halted_reason"))
        sessions = state.get("sessions") or {}
        out("sessions: %d (most recent: %s)" % (len(sessions), state.get("last_session")))
        for sid in sorted(sessions, key=lambda k: sessions[k].get("updated_at") or 0, reverse=True)[
            :5
        ]:
            s = sessions[sid]
            r = s.get("research") or {}
            done = [c for c in ("local", "web", "docs", "github", "memory") if r.get(c)]
            e = s.get("edits") or {}
            loop = s.get("saneloop") or {}
            out(
                "  %s: %d edits in %d files; research: %s%s%s"
                % (
                    sid,
                    e.get("count", 0),
                    e.get("unique_count", 0),
                    ", ".join(done) or "none",
                    "; waived: " + ", ".join(r.get("waived")) if r.get("waived") else "",
                    "; SaneLoop: %s (iteration %d)" % (loop.get("task"), loop.get("iteration", 0))
                    if loop.get("active")
                    else "",
                )
            )
        return 0
    finally:
        st.close()


def _flatten(d, prefix=""):
    for k, v in sorted(d.items()):
        if isinstance(v, dict) and v:
            yield from _flatten(v, prefix + k + ".")
        else:
            yield prefix + k, v


def config(args):
    from core import config as cfgmod

    project = project_of(args)
    st = open_store(project)
    try:
        cfg = cfgmod.load(project, st.state["cache"].setdefault("yaml", {}))
    finally:
        st.close()
    if args.json:
        out(
            json.dumps({"config": cfg.data, "sources": cfg.sources, "errors": cfg.errors}, indent=2)
        )
        return 0
    for key, value in _flatten(cfg.data):
        out("%-42s %-30s (%s)" % (key, json.dumps(value), cfg.sources.get(key, "default")))
    for e in cfg.errors:
        out("config problem: %s (defaults apply for that file)" % e)
    return 0


HOOKS = ("saneprompt", "sanetools", "sanetrack", "sanestop")


def _fmt(hook, rec):
    ts = time.strftime("%H:%M:%S", time.localtime(rec.get("ts") or 0))
    extra = " ".join(
        "%s=%s" % (k, v)
        for k, v in rec.items()
        if k not in ("ts", "level", "msg", "trace") and v not in (None, "")
    )
    return "%s %-10s %-5s %s %s" % (
        ts,
        hook,
        rec.get("level", rec.get("event", "")),
        rec.get("msg", ""),
        extra,
    )


def logs(args):
    project = project_of(args)
    hooks = [args.hook] if args.hook else list(HOOKS)
    for h in hooks:
        if h not in HOOKS + ("audit",):
            raise CliError("unknown log %r: one of %s, audit" % (h, ", ".join(HOOKS)))

    def path(h):
        return os.path.join(project, ".claude", "audit.jsonl" if h == "audit" else h + ".log")

    rows = []
    for h in hooks:
        rows += [(r.get("ts") or 0, h, r) for r in log.read_lines(path(h), args.lines)]
    for _, h, r in sorted(rows, key=lambda x: x[0])[-args.lines :]:
        out(_fmt(h, r))
    if not args.follow:
        return 0
    sizes = {h: os.path.getsize(path(h)) if os.path.exists(path(h)) else 0 for h in hooks}
    try:
        while True:
            time.sleep(0.5)
            for h in hooks:
                p = path(h)
                size = os.path.getsize(p) if os.path.exists(p) else 0
                if size < sizes[h]:
                    sizes[h] = 0  # rotated
                if size > sizes[h]:
                    with open(p, "rb") as fh:
                        fh.seek(sizes[h])
                        for raw in fh.read().splitlines():
                            try:
                                out(_fmt(h, json.loads(raw)))
                            except ValueError:
                                out(raw.decode("utf-8", "replace"))
                    sizes[h] = size
    except KeyboardInterrupt:
        return 0


def reset(args, argv):
    from core.state import defaults, session_defaults

    project = project_of(args)
    section = ALIASES.get(args.section, args.section) if args.section else "all"
    valid = ("all", "sessions") + SECTIONS + SESSION_SECTIONS
    if section not in valid:
        raise CliError("unknown section %r: one of %s" % (args.section, ", ".join(valid)))
    if section == "tamper":
        raise CliError("use `sane.py unlock` to lift a tamper lock")
    st = open_store(project)
    try:
        who = caller(st, argv)
        state = st.state
        if st.tamper or state["tamper"].get("locked"):
            raise CliError(
                "the state is tamper-locked (%s): run `sane.py unlock` first"
                % (st.tamper or state["tamper"].get("reason")),
                2,
            )
        base = defaults(project)
        if section == "all":
            for key in SECTIONS[:3] + ("auth",):
                state[key] = base[key]
            state["sessions"] = {}
        elif section == "sessions":
            state["sessions"] = {}
        elif section in SECTIONS:
            state[section] = base[section]
        else:
            sid, how = resolve_session(args, state, who)
            sess = st.session(sid)
            sess[section] = session_defaults()[section]
            out("session %s (%s)" % (sid, how))
        st.commit()
        log.audit(project, "reset", section=section, **who.record())
        out("reset: %s" % section)
        return 0
    finally:
        st.close()


def unlock(args, argv):
    from core.state import unlock as lift

    project = project_of(args)
    st = open_store(project)
    try:
        who = caller(st, argv)
        t = st.state["tamper"]
        if not t.get("locked"):
            out("no tamper lock is on; nothing to do")
            return 0
        from core.state import unlock_text

        was, text = t.get("reason"), unlock_text(t)
        restored = t.get("restored")
        st.state = lift(st.state, project)
        st.commit(force=True)
        log.audit(project, "unlock", reason=was, restored=restored, **who.record())
        out(text)
        state = st.state
        out("safemode is %s" % ("ON" if state["safemode"].get("active") else "OFF"))
        cb = state["circuit_breaker"]
        out(
            "breaker is %s" % ("TRIPPED: %s" % cb.get("trip_reason") if cb.get("tripped") else "OK")
        )
        if state["enforcement"].get("halted"):
            out("enforcement HALTED: %s" % state["enforcement"].get("halted_reason"))
        return 0
    finally:
        st.close()


def loop(args, argv):
    project = project_of(args)
    st = open_store(project)
    try:
        changes = args.loop_cmd == "check"
        who = caller(st, argv, changes_state=changes)
        sid, how = resolve_session(args, st.state, who)
        if sid not in st.state["sessions"]:
            raise CliError("unknown session %s" % sid)
        sess = st.session(sid)
        lp = sess["saneloop"]
        from core.saneloop import status_text

        if args.loop_cmd == "status":
            out("session %s (%s)" % (sid, how))
            out(status_text(lp))
            return 0
        if not lp.get("active"):
            raise CliError("no SaneLoop is active in session %s" % sid)
        crit = lp.get("acceptance_criteria") or []
        if not 1 <= args.n <= len(crit):
            raise CliError("criterion %d does not exist (the loop has %d)" % (args.n, len(crit)))
        c = crit[args.n - 1]
        if hand_off(argv):
            return 0
        c.update(met=True, met_at=time.time())
        st.commit()
        log.audit(project, "saneloop_check", session=sid, criterion=args.n, **who.record())
        out("criterion %d met: %s" % (args.n, c.get("text")))
        out(status_text(lp))
        return 0
    finally:
        st.close()
