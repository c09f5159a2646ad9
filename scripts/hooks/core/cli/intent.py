"""sane.py intent select ID | show [ID] | list | clear: the session's intent (the agent, through
an authorised Bash call, or the person)."""

import json

from core import log
from core.cli.args import actions, add
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
from core.intents import hooks as gov
from core.intents import loader as intents_file


def add_arguments(sp):
    isub = actions(sp, "intent_cmd")

    def action(name, help_):
        return add(isub, name, help_, session="session id", keep_session=True)

    a = action("select", "select an IN_PROGRESS intent for the session")
    a.add_argument("id", metavar="ID")
    a = action("show", "show the selected intent (or ID): scope, constraints, criteria, history")
    a.add_argument("id", nargs="?", metavar="ID")
    a.add_argument("--json", action="store_true")
    a = action("list", "list the intents of .claude/active_intents.yaml")
    a.add_argument("--json", action="store_true")
    action("clear", "clear the session's selection")


def _load(project, st):
    intents = intents_file.load(project, st.state["cache"].setdefault("yaml", {}))
    if intents.broken:
        for e in intents.errors[1:]:
            from core.cli.common import err

            err("sane.py: " + e)
        raise CliError(intents.errors[0], 1)
    return intents


def _need_file(intents):
    if not intents.exists:
        raise CliError(
            "no intents file: the person writes .claude/active_intents.yaml "
            "(see the README for an example)",
            1,
        )


def run(args, argv):
    if not getattr(args, "intent_cmd", None):
        raise CliError("intent needs an action: select ID | show [ID] | list | clear")
    project = project_of(args)
    args.argv = list(argv)
    st = open_store(project)
    try:
        changes = args.intent_cmd in ("select", "clear")
        who = caller(st, argv, changes_state=changes)
        intents = _load(project, st) if args.intent_cmd != "clear" else None
        code = {"select": _select, "show": _show, "list": _list, "clear": _clear}[args.intent_cmd](
            args, project, st, who, intents
        )
        st.commit()  # the YAML cache, a consumed authorisation, the selection
        return code
    finally:
        st.close()


def _select(args, project, st, who, intents):
    _need_file(intents)
    it = intents.get(args.id)
    if it is None:
        known = ", ".join(x["id"] for x in intents.intents) or "none"
        raise CliError("no intent %r in .claude/active_intents.yaml (ids: %s)" % (args.id, known))
    if it["status"] != "IN_PROGRESS":
        raise CliError(
            "intent %s is %s: only an IN_PROGRESS intent can be selected (the person "
            "changes its status in .claude/active_intents.yaml)" % (it["id"], it["status"])
        )
    sid, how = resolve_session(args, st.state, who)
    sess = st.session(sid)
    if hand_off(args.argv):
        return 0
    gov.select(sess, it, who.by, who.agent_id, __import__("time").time())
    log.audit(project, "intent_select", intent=it["id"], session=sid, **who.record())
    out("intent %s selected for session %s (%s)." % (it["id"], sid, how))
    out("%s: %s [%s]" % (it["id"], it["name"], it["status"]))
    out(gov.describe(project, it))
    return 0


def _session_of(args, st, who):
    try:
        return resolve_session(args, st.state, who)
    except CliError:
        return None, None


def _show(args, project, st, who, intents):
    _need_file(intents)
    sid, how = _session_of(args, st, who)
    sel = gov.selected_id(st.state["sessions"].get(sid) or {}) if sid else None
    iid = args.id or sel
    if not iid:
        out(
            "no intent is selected for session %s (%s)." % (sid, how)
            if sid
            else "no intent is selected (no session recorded yet)."
        )
        if intents.active:
            out("active intents: %s" % gov.active_text(intents))
            out("select one: %s intent select <ID>" % CLI)
        return 0
    it = intents.get(iid)
    if it is None:
        raise CliError("no intent %r in .claude/active_intents.yaml" % iid)
    if args.json:
        out(json.dumps(dict(it, selected=(it["id"] == sel), session=sid), indent=2))
        return 0
    if it["id"] == sel:
        out("selected for session %s (%s)" % (sid, how))
    out("%s: %s [%s]" % (it["id"], it["name"], it["status"]))
    out(gov.describe(project, it))
    return 0


def _list(args, project, st, who, intents):
    sid, _how = _session_of(args, st, who)
    sel = gov.selected_id(st.state["sessions"].get(sid) or {}) if sid else None
    if args.json:
        out(
            json.dumps(
                {
                    "file": intents.path,
                    "exists": intents.exists,
                    "selected": sel,
                    "session": sid,
                    "intents": intents.intents,
                },
                indent=2,
            )
        )
        return 0
    if not intents.exists:
        out("no intents file (.claude/active_intents.yaml): the intent gates are off.")
        return 0
    if not intents.intents:
        out(".claude/active_intents.yaml holds no intents.")
        return 0
    for it in intents.intents:
        out(
            "%s %-12s %-11s %s  (scope: %s)"
            % (
                "*" if it["id"] == sel else " ",
                it["id"],
                it["status"],
                it["name"],
                ", ".join(it["scope"]) or "none",
            )
        )
    if sel:
        out("* selected for session %s" % sid)
    elif intents.active:
        out("no intent selected; select one: %s intent select <ID>" % CLI)
    return 0


def _clear(args, project, st, who, intents):
    sid, how = resolve_session(args, st.state, who)
    if hand_off(args.argv):
        return 0
    if sid not in st.state["sessions"]:
        out("no intent was selected for session %s (%s)." % (sid, how))
        return 0
    was = gov.clear(st.session(sid))
    if was:
        log.audit(project, "intent_clear", intent=was, session=sid, **who.record())
        out("intent %s cleared for session %s (%s)." % (was, sid, how))
    else:
        out("no intent was selected for session %s (%s)." % (sid, how))
    return 0
