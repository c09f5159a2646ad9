"""sane.py install / uninstall: the hooks travel with the project; settings are merged, never
replaced; our entries are recognised by their script names so uninstall removes only ours."""

import json
import os
import shutil
import sys
import time

from core.cli.common import CliError, out

SCRIPTS = {
    "saneprompt": ("UserPromptSubmit", "SessionStart", "SubagentStart"),
    "sanetools": ("PreToolUse",),
    "sanetrack": ("PostToolUse", "PostToolUseFailure"),
    "sanestop": ("Stop", "SubagentStop", "SessionEnd", "TaskCompleted"),
}
# Events whose matcher selects tools or agents; the others take no matcher.
MATCHED = (
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "SubagentStart",
    "SubagentStop",
    "SessionStart",
)
TIMEOUTS = {"SessionStart": 15, "SessionEnd": 5}
PLACEHOLDER = "__PYTHON__"
GITIGNORE_MARK = "# sane-hooks (generated; state, locks and logs stay local)"
GITIGNORE_LINES = (
    ".claude/state.json",
    ".claude/state.json.lock",
    ".claude/state.json.*.tmp",
    ".claude/audit.jsonl",
    ".claude/*.log",
    ".claude/*.log.*",
    "scripts/hooks/**/__pycache__/",
)
HOOKS_SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def is_ours(handler):
    cmd = handler.get("command", "") if isinstance(handler, dict) else ""
    cmd = (
        cmd + " " + " ".join(str(a) for a in handler.get("args") or [])
        if isinstance(handler, dict)
        else cmd
    )
    return any("scripts/hooks/%s.py" % s in cmd for s in SCRIPTS)


def our_hooks(python):
    hooks = {}
    for script, events in SCRIPTS.items():
        for ev in events:
            handler = {
                "type": "command",
                "command": '"%s" "$CLAUDE_PROJECT_DIR/scripts/hooks/%s.py"' % (python, script),
                "timeout": TIMEOUTS.get(ev, 10),
            }
            group = {"matcher": "*", "hooks": [handler]} if ev in MATCHED else {"hooks": [handler]}
            hooks[ev] = group
    return hooks


def merge(settings, python):
    """settings with our handlers in place of any old ones of ours; everything else kept."""
    new = json.loads(json.dumps(settings))
    hooks = new.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise CliError('settings.json: "hooks" is not an object; fix it by hand first')
    strip(hooks)
    for ev, group in our_hooks(python).items():
        hooks.setdefault(ev, []).append(group)
    return new


def strip(hooks):
    """Remove our handlers (and groups left empty) from a settings 'hooks' object."""
    for ev in list(hooks):
        groups = hooks[ev]
        if not isinstance(groups, list):
            continue
        kept = []
        for g in groups:
            if isinstance(g, dict) and isinstance(g.get("hooks"), list):
                hs = [h for h in g["hooks"] if not is_ours(h)]
                if not hs and g["hooks"]:
                    continue
                g = dict(g, hooks=hs)
            kept.append(g)
        if kept:
            hooks[ev] = kept
        else:
            del hooks[ev]


def _read_settings(path):
    if not os.path.exists(path):
        return {}
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except ValueError as exc:
        raise CliError("%s is not valid JSON (%s); fix it first, nothing was changed" % (path, exc))
    if not isinstance(data, dict):
        raise CliError("%s is not a JSON object; nothing was changed" % path)
    return data


def _write_settings(path, old, new):
    if os.path.exists(path):
        backup = "%s.bak-%s" % (path, time.strftime("%Y%m%d-%H%M%S"))
        shutil.copy2(path, backup)
        out("backed up %s -> %s" % (path, os.path.basename(backup)))
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(new, fh, indent=2)
        fh.write("\n")
    os.replace(tmp, path)


def _copy_hooks(dest):
    src = os.path.realpath(HOOKS_SRC)
    if os.path.realpath(dest) == src:
        return 0
    n = 0
    for root, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        rel = os.path.relpath(root, src)
        os.makedirs(os.path.join(dest, rel), exist_ok=True)
        for f in files:
            if f.endswith((".pyc", ".tmp")):
                continue
            s, d = os.path.join(root, f), os.path.join(dest, rel, f)
            with open(s, "rb") as fh:
                data = fh.read()
            if os.path.exists(d):
                with open(d, "rb") as fh:
                    if fh.read() == data:
                        continue
            shutil.copy2(s, d)
            n += 1
    return n


def _gitignore(project, add=True):
    path = os.path.join(project, ".gitignore")
    lines = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    if add:
        missing = [x for x in GITIGNORE_LINES if x not in lines]
        if not missing:
            return False
        if GITIGNORE_MARK not in lines:
            lines += ([""] if lines and lines[-1] else []) + [GITIGNORE_MARK]
        lines += missing
    else:
        if GITIGNORE_MARK not in lines:
            return False
        lines = [x for x in lines if x != GITIGNORE_MARK and x not in GITIGNORE_LINES]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    return True


def _assets(project):
    """reviewer agent and block templates, installed once (never overwriting the person's)."""
    n = 0
    assets = os.path.join(HOOKS_SRC, "assets")
    for rel, dest in (("reviewer.md", ".claude/agents/reviewer.md"),):
        s = os.path.join(assets, rel)
        d = os.path.join(project, dest)
        if os.path.exists(s) and not os.path.exists(d):
            os.makedirs(os.path.dirname(d), exist_ok=True)
            shutil.copy2(s, d)
            n += 1
    tdir = os.path.join(assets, "sane-templates")
    if os.path.isdir(tdir):
        for f in sorted(os.listdir(tdir)):
            d = os.path.join(project, ".claude", "sane-templates", f)
            if not os.path.exists(d):
                os.makedirs(os.path.dirname(d), exist_ok=True)
                shutil.copy2(os.path.join(tdir, f), d)
                n += 1
    return n


def install(args):
    project = os.path.realpath(args.target or getattr(args, "project", None) or os.getcwd())
    if not os.path.isdir(project):
        raise CliError("no such project directory: %s" % project)
    # The interpreter as it was started (pre-commit's habit): a venv's python keeps its venv's
    # packages, where realpath would jump to the base interpreter without them.
    python = os.path.abspath(sys.executable)
    settings_path = os.path.join(project, ".claude", "settings.json")
    old = _read_settings(settings_path)
    new = merge(old, python)
    copied = _copy_hooks(os.path.join(project, "scripts", "hooks"))
    os.makedirs(os.path.join(project, ".claude"), exist_ok=True)
    assets = _assets(project)
    if new != old:
        _write_settings(settings_path, old, new)
        out("wired %d events into %s" % (len(our_hooks(python)), settings_path))
    else:
        out("settings already up to date: %s" % settings_path)
    if _gitignore(project, True):
        out("added sane-hooks entries to .gitignore")
    try:
        import compileall

        compileall.compile_dir(os.path.join(project, "scripts", "hooks"), quiet=1)
    except Exception:
        pass
    out("copied %d files into scripts/hooks, %d assets; interpreter %s" % (copied, assets, python))
    out("next: `%s %s/scripts/hooks/sane.py doctor --project %s`" % (python, project, project))
    return 0


def uninstall(args):
    project = os.path.realpath(args.target or getattr(args, "project", None) or os.getcwd())
    settings_path = os.path.join(project, ".claude", "settings.json")
    old = _read_settings(settings_path)
    new = json.loads(json.dumps(old))
    if isinstance(new.get("hooks"), dict):
        strip(new["hooks"])
        if not new["hooks"]:
            del new["hooks"]
    if new != old:
        _write_settings(settings_path, old, new)
        out("removed the sane-hooks entries from %s (everything else kept)" % settings_path)
    else:
        out("no sane-hooks entries in %s" % settings_path)
    if _gitignore(project, False):
        out("removed the sane-hooks block from .gitignore")
    out("scripts/hooks and .claude/state.json were left in place; delete them by hand if wanted")
    return 0


def example_settings():
    """settings.example.json: exactly what install writes into an empty project."""
    return merge({}, PLACEHOLDER)
