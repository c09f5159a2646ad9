"""sane.py doctor: is everything wired and trustworthy? One line per check, exit 1 on problems."""

import json
import os
import stat
import sys

from core import log
from core.cli.colour import paint
from core.cli.common import CLI, out, project_of
from core.cli.readonly import ReadOnlyStore, installed, not_installed
from core.cli.wiring import MATCHED, SCRIPTS, is_ours
from core.wording import plural


def _check(results, ok, name, detail, hint=None):
    results.append(ok)
    out(
        "%s %-10s %s%s"
        % (
            paint("ok  ", "ok") if ok else paint("FAIL", "fail"),
            name,
            detail,
            ("\n           hint: " + hint) if hint and not ok else "",
        )
    )


def settings_problems(path, project):
    """What would make Claude Code ignore or mis-run our entries in this settings file."""
    if not os.path.exists(path):
        return ["%s does not exist (run `sane.py install`)" % path]
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except ValueError as exc:
        return ["%s is not valid JSON (%s): Claude Code ignores the whole file" % (path, exc)]
    hooks = data.get("hooks") if isinstance(data, dict) else None
    if not isinstance(hooks, dict):
        return ['no "hooks" object in %s' % path]
    problems = []
    for script, events in SCRIPTS.items():
        for ev in events:
            groups = hooks.get(ev)
            found = []
            for g in groups if isinstance(groups, list) else []:
                if not isinstance(g, dict) or not isinstance(g.get("hooks"), list):
                    problems.append(
                        "%s: a group is not {matcher, hooks: [...]} (the flat form is invalid)" % ev
                    )
                    continue
                for h in g["hooks"]:
                    cmd = h.get("command", "") if isinstance(h, dict) else ""
                    if is_ours(h) and (
                        "%s.py" % script in cmd or cmd.rstrip().endswith(" " + script)
                    ):
                        found.append((g, h))
            if not found:
                problems.append("%s is not wired to %s" % (ev, script))
                continue
            if len(found) > 1:
                problems.append("%s runs %s %d times" % (ev, script, len(found)))
            for g, h in found:
                cmd = h.get("command", "")
                if h.get("type") != "command":
                    problems.append('%s: type must be "command"' % ev)
                if "||" in cmd or "; true" in cmd:
                    problems.append("%s: `|| true` turns every block into an allow" % ev)
                t = h.get("timeout")
                if t is not None and (not isinstance(t, (int, float)) or t > 600 or t <= 0):
                    problems.append("%s: timeout %r is not seconds in (0, 600]" % (ev, t))
                if ev in MATCHED and g.get("matcher") not in (None, "", "*"):
                    problems.append(
                        "%s: matcher %r does not cover every tool" % (ev, g.get("matcher"))
                    )
                if "scripts/hooks/run" not in cmd:
                    problems.append(
                        "%s: names a machine's interpreter (%s), which other machines lack; "
                        "run `sane.py install` again to upgrade" % (ev, cmd.split('"')[1:2])
                    )
    for f in ["run"] + ["%s.py" % s for s in SCRIPTS]:
        p = os.path.join(project, "scripts", "hooks", f)
        if not os.path.exists(p):
            problems.append("%s is missing (run `sane.py install`)" % p)
    return sorted(set(problems))


def _interpreter(res, project):
    """The interpreter every hook would run, asked of the launcher itself; recorded for this
    machine when no usable one is."""
    from core.cli import interp

    if not os.path.exists(os.path.join(project, "scripts", "hooks", "run")):
        _check(
            res,
            False,
            "python",
            "scripts/hooks/run (the launcher every hook runs through) is missing: an older "
            "install, or none",
            "run `sane.py install %s` to install or upgrade" % project,
        )
        return
    picks = {h: interp.launcher_pick(project, h) for h in SCRIPTS}
    py = picks.get("sanetools")
    rec = interp.recorded()
    if not rec or py != rec:
        info, notes = interp.choose(project)
        if info is not None and info["executable"] != rec:
            path = interp.record(info["executable"])
            out("recorded %s as this machine's hooks interpreter (%s)" % (info["executable"], path))
            picks = {h: interp.launcher_pick(project, h) for h in SCRIPTS}
            py = picks.get("sanetools")
    if len(set(picks.values())) > 1:
        _check(res, False, "python", "the hooks would run different interpreters: %s" % picks)
    if not py:
        _check(
            res,
            False,
            "python",
            "the launcher finds no Python 3.9+ for the hooks (every PreToolUse is denied)",
            "install Python 3.9+ and run `sane.py doctor` again",
        )
        return
    info = interp.probe(py)
    why = interp.agent_writable(py, project)
    ok = info is not None and info["version"] >= (3, 9) and not why
    ver = ".".join(map(str, info["version"])) if info else "?"
    _check(
        res,
        ok,
        "python",
        "every hook runs %s (Python %s)%s" % (py, ver, ("; " + why) if why else ""),
        "run `sane.py doctor` from a Python 3.9+ outside the project",
    )
    if info is not None:
        _check(
            res,
            info["yaml"],
            "deps",
            "pyyaml %s for the hooks' interpreter"
            % ("importable" if info["yaml"] else "NOT installed"),
            "%s -m pip install pyyaml (without it, config files stop every tool call)" % py,
        )


def _version(res, project):
    from core.cli.install import version_of
    from core.version import VERSION, parse

    have = version_of(project)
    if have is None:
        return
    older = parse(have) < parse(VERSION)
    _check(
        res,
        not older,
        "version",
        "installed hooks %s, this copy %s"
        % ("from before 0.2.0 (no version recorded)" if have == "0" else have, VERSION),
        "the project's hooks are older: run `%s install %s` to upgrade in place"
        % (os.path.abspath(sys.argv[0]), project),
    )


def _sandbox(res, project):
    from core import sandbox

    active, line = sandbox.status(project)
    _check(res, active, "sandbox", line, "without it: " + sandbox.LOST)


def doctor(args):
    from core.state import config_dir, read_counter

    project = project_of(args)
    res = []
    out("sane doctor for %s" % project)
    if not installed(project):
        out(paint(not_installed(project, CLI), "warn"))
    _interpreter(res, project)
    if os.name == "nt":
        try:
            __import__("filelock")
        except ImportError:
            _check(res, False, "deps", "filelock not installed (locking)", "pip install filelock")
    problems = settings_problems(os.path.join(project, ".claude", "settings.json"), project)
    _check(
        res,
        not problems,
        "settings",
        "all %d events wired" % sum(len(e) for e in SCRIPTS.values())
        if not problems
        else "; ".join(problems),
        "run `sane.py install %s`" % project,
    )
    _version(res, project)
    _sandbox(res, project)
    from core.cli.common import choose_mode

    boxed = choose_mode(project) == "handoff"  # the agent's shell under Claude Code's sandbox
    if os.environ.get("SANE_HOOK_SECRET"):
        _check(res, True, "secret", "from SANE_HOOK_SECRET")
    elif boxed:
        _check(res, True, "secret", "not readable in this shell (the sandbox hides it)")
    else:
        sp = os.path.join(config_dir(), "secret")
        if os.path.exists(sp):
            mode = stat.S_IMODE(os.stat(sp).st_mode)
            _check(
                res, mode & 0o077 == 0, "secret", "%s (mode %o)" % (sp, mode), "chmod 600 %s" % sp
            )
        else:
            _check(res, True, "secret", "not created yet (made on first hook run)")
    if boxed:
        _check(
            res,
            True,
            "state",
            "not checked here: in this shell the key is not readable or the state is "
            "read-only (Claude Code's sandbox); the hooks verify it on every call, and "
            "`sane.py doctor` in your own terminal checks it",
        )
    else:
        counter = read_counter(project)
        st = ReadOnlyStore(project, lock_wait=3.0)  # creates nothing in the project
        st.open()
        try:
            seq = st.state.get("seq")
            if st.busy:
                _check(
                    res,
                    False,
                    "lock",
                    "the state lock is held by another process",
                    "retry in a moment",
                )
            if st.fresh:
                _check(res, True, "state", "no state yet (first run gets defaults)")
            elif st.tamper:
                hint = (
                    "the project was moved from %s: type `unlock` (or run `sane.py unlock`) to adopt "
                    "its state" % st.moved_from
                    if st.moved_from
                    else "check .claude/audit.jsonl, then type `unlock` in Claude Code"
                )
                _check(res, False, "state", "does not verify: %s" % st.tamper, hint)
            elif st.state["tamper"].get("locked"):
                t = st.state["tamper"]
                hint = (
                    ("moved from %s; `unlock` adopts its state" % t.get("moved_from"))
                    if t.get("moved_from")
                    else "type `unlock` once you know why"
                )
                _check(
                    res,
                    False,
                    "state",
                    "tamper-locked since %s: %s" % (t.get("since"), t.get("reason")),
                    hint,
                )
            else:
                _check(res, True, "state", "signature verified, seq %s" % seq)
            _check(
                res,
                st.fresh or counter is not None,
                "counter",
                "last committed seq %s" % counter
                if counter is not None
                else "no entry for this project",
            )
        finally:
            st.close()
    from core import config as cfgmod

    cfg = cfgmod.load(project, {})
    _check(
        res,
        not cfg.errors,
        "config",
        "ok" if not cfg.errors else "; ".join(cfg.errors),
        "fix the file; defaults apply meanwhile",
    )
    cdir = os.path.join(project, ".claude")
    errors = 0
    for h in ("saneprompt", "sanetools", "sanetrack", "sanestop"):
        errors += sum(
            1
            for r in log.read_lines(os.path.join(cdir, h + ".log"), 500)
            if r.get("level") == "error"
        )
    writable = os.access(cdir, os.W_OK) if os.path.isdir(cdir) else os.access(project, os.W_OK)
    writable = writable or boxed  # the sandbox keeps the agent's shell from writing them
    _check(
        res,
        writable and errors == 0,
        "logs",
        "%s %s; %d recent errors"
        % (cdir, "written by the hooks (read-only in this shell)" if boxed else "writable", errors),
        "see `sane.py logs`",
    )
    bad = res.count(False)
    out(
        paint(
            "%s, %s" % (plural(len(res), "check"), plural(bad, "problem")), "fail" if bad else "ok"
        )
    )
    return 0 if bad == 0 else 1
