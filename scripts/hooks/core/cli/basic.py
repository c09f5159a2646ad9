"""sane.py status, config, logs, reset, unlock, loop."""

import json
import os
import time

from core import log
from core.cli.colour import paint
from core.cli.common import (
    CLI,
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


def _open_for_reading(project):
    """The store for a read-only command: without a state file (a fresh or foreign
    directory) nothing is created in the project; otherwise the usual store, whatever way
    this process reads it (the person's, a hook's, a hand-off's snapshot)."""
    from core.cli.common import choose_mode
    from core.cli.readonly import ReadOnlyStore
    from core.state import STATE_NAME

    if choose_mode(project) == "direct" and not os.path.exists(
        os.path.join(project, ".claude", STATE_NAME)
    ):
        return ReadOnlyStore(project).open()
    return open_store(project)


def status(args):
    from core.cli.readonly import installed, not_installed
    from core.state import tamper_note

    project = project_of(args)
    st = _open_for_reading(project)  # read-only: creates nothing in the project
    try:
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
        here = installed(project)
        if not here and getattr(st, "fresh", False):
            out(paint(not_installed(project, CLI), "warn"))
            return 0
        if getattr(st, "fresh", False):
            out("project: %s (no state yet: defaults)" % project)
        else:
            out(
                "project: %s (state verified: %s, seq %s)"
                % (
                    project,
                    paint("NO - " + st.tamper, "fail")
                    if st.tamper
                    else paint("yes", "ok")
                    if checked
                    else paint("not checked (the key is not readable in this shell)", "warn"),
                    state.get("seq"),
                )
            )
        if not here:
            out(paint(not_installed(project, CLI), "warn"))
        if note:
            t = state["tamper"]
            out(
                paint(
                    "TAMPER LOCK: %s (the person lifts it with `unlock`)" % t.get("reason"), "fail"
                )
            )
            out(paint(note, "warn"))
        _status_lines(state)
        return 0
    finally:
        st.close()


def _status_lines(state):
    from core import breaker
    from core.wording import plural

    on = state["safemode"].get("active")
    out(paint("safemode is %s" % ("ON" if on else "OFF"), "warn" if on else "ok"))
    cb = state["circuit_breaker"]
    out(paint(breaker.status_text(state), "fail" if cb.get("tripped") else "ok"))
    sessions = state.get("sessions") or {}
    last = state.get("last_session")
    if not sessions:
        out("sessions: none yet")
    else:
        recent = " (most recent: %s)" % last if last in sessions else ""
        out("sessions: %d%s" % (len(sessions), recent))
    for sid in sorted(sessions, key=lambda k: sessions[k].get("updated_at") or 0, reverse=True)[:5]:
        s = sessions[sid]
        r = s.get("research") or {}
        done = [c for c in ("local", "web", "docs", "github", "memory") if r.get(c)]
        e = s.get("edits") or {}
        loop = s.get("saneloop") or {}
        out(
            "  %s: %s in %s; research: %s%s%s"
            % (
                sid,
                plural(e.get("count", 0), "edit"),
                plural(e.get("unique_count", 0), "file"),
                ", ".join(done) or "none",
                "; waived: " + ", ".join(r.get("waived")) if r.get("waived") else "",
                "; SaneLoop: %s (iteration %d)" % (loop.get("task"), loop.get("iteration", 0))
                if loop.get("active")
                else "",
            )
        )


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


LEVEL_COLOUR = {"error": "fail", "warn": "warn", "block": "warn"}


def _fmt(hook, rec):
    ts = time.strftime("%H:%M:%S", time.localtime(rec.get("ts") or 0))
    extra = " ".join(
        "%s=%s" % (k, v)
        for k, v in rec.items()
        if k not in ("ts", "level", "msg", "trace") and v not in (None, "")
    )
    level = str(rec.get("level", rec.get("event", "")))
    kind = LEVEL_COLOUR.get(level) or ("warn" if rec.get("decision") == "block" else None)
    head = "%s %-10s %-5s" % (ts, hook, level)
    return "%s %s %s" % (paint(head, kind) if kind else head, rec.get("msg", ""), extra)


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
    if not rows:
        from core.cli.readonly import installed, not_installed

        names = ", ".join("audit.jsonl" if h == "audit" else h + ".log" for h in hooks)
        out(
            "no logs yet: the hooks write them to %s (%s) once they run in a Claude Code "
            "session" % (os.path.join(project, ".claude"), names)
        )
        if not installed(project):
            out(paint(not_installed(project, CLI), "warn"))
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
