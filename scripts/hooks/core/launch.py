"""What the hook scripts do when their interpreter or a dependency is not right.

Written without annotations or f-strings on purpose: `too_old` must still run (and say what
is wrong) on the old Python the launcher may have found. Per event, as the launcher does:
PreToolUse (sanetools) blocks with exit 2, every other event tells the person and exits 0
(a Stop that can never pass is no help)."""

import json
import os
import sys

CHOICE_NAME = "python"  # <config>/sane-hooks/python: this machine's interpreter for the hooks


def refuse(hook, text):
    """Exit code for `hook` when the hooks cannot work: 2 with the reason for PreToolUse,
    0 with a systemMessage for the others."""
    if hook == "sanetools":
        sys.stderr.write(
            "[self-protection] sane-hooks cannot run, so every tool call is denied: " + text + "\n"
        )
        return 2
    sys.stdout.write(json.dumps({"systemMessage": "sane-hooks is OFF for this event: " + text}))
    sys.stdout.write("\n")
    return 0


def too_old(hook):
    v = sys.version_info
    return refuse(
        hook,
        "%s is Python %d.%d; the hooks need 3.9 or newer. Install one and run "
        "`python3 scripts/hooks/sane.py doctor` in your own terminal to record it."
        % (sys.executable, v[0], v[1]),
    )


def optional(name):
    """Import a dependency (pyyaml). The launcher runs Python with -s, so the user
    site-packages is not processed (no .pth file there runs inside the hooks); a package the
    person installed there with --user is still found: that directory is searched as a plain
    path, after every other one."""
    try:
        return __import__(name)
    except ImportError:
        if not sys.flags.no_user_site:
            raise
        import site

        user = site.getusersitepackages()
        if not user or user in sys.path or not os.path.isdir(user):
            raise
        sys.path.append(user)
        return __import__(name)


def choice_path(env=None):
    env = os.environ if env is None else env
    base = env.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "sane-hooks", CHOICE_NAME)


def python_name(path):
    """The names scripts/hooks/run accepts for a recorded interpreter (anything else there
    is refused: the choice file must not be a switch that turns the hooks off)."""
    base = os.path.basename(path)
    for stem in ("python3.", "pypy3."):
        if base.startswith(stem):
            tail = base[len(stem) :]
            return tail.isdigit() and len(tail) <= 2
    return base in ("python", "python3", "pypy3")


def remember():
    """The launcher had to search (no choice recorded on this machine): record the
    interpreter it found (the path it checked, which may be a wrapper that execs another),
    so later calls skip the search. Only one that can read the
    person's config (pyyaml), and never over an existing choice."""
    path = choice_path()
    found = os.environ.get("SANE_HOOK_SEARCHED") or ""
    python = found if os.path.isabs(found) else sys.executable
    try:
        if os.path.exists(path) or not python_name(python):
            return
        import importlib.util

        if importlib.util.find_spec("yaml") is None:
            return
        write_choice(path, python)
    except Exception:
        pass  # a cache: the search still works next time


def write_choice(path, python):
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    tmp = "%s.%d.tmp" % (path, os.getpid())
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, (python + "\n").encode())
    finally:
        os.close(fd)
    os.replace(tmp, path)
