"""This machine's interpreter for the hooks: found once (by `install` or `doctor`), recorded
in <config>/sane-hooks/python, read by the launcher (scripts/hooks/run) on every call.

The rules are the launcher's: Python 3.9+, never under a directory the agent can write (the
project, e.g. its .venv; the temp dir), and past any version-manager shim (a pyenv shim
starts a second interpreter on every call): each candidate is asked for its own
sys.executable, which is the real interpreter behind a shim and stays the venv's python for a
venv (so its packages come with it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from core.launch import choice_path, python_name, write_choice

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from collections.abc import Mapping

KNOWN = (
    "/usr/bin/python3",
    "/usr/local/bin/python3",
    "/opt/homebrew/bin/python3",
    "/opt/local/bin/python3",
)
PROBE = (
    "import json, sys\n"
    "try:\n    import yaml  # noqa\n    y = True\nexcept Exception:\n    y = False\n"
    "print(json.dumps([sys.executable, list(sys.version_info[:3]), y]))"
)


def temp_roots(env: Mapping[str, str] | None = None) -> list[str]:
    env = os.environ if env is None else env
    out = ["/tmp", "/var/tmp", "/dev/shm"]
    for k in ("TMPDIR", "CLAUDE_CODE_TMPDIR"):
        if env.get(k):
            out.append(env[k])
    return [os.path.realpath(d) for d in out]


def agent_writable(path: str, project: str | None, env: dict | None = None) -> str | None:
    """Why the agent could replace this interpreter, or None. Both the path as written and
    its resolved form count (a project .venv's python links out to a system one, but the
    link itself lives in the project)."""
    if not path or not os.path.isabs(path):
        return "not an absolute path"
    roots = [(r, "the temp dir") for r in temp_roots(env)]
    if project:
        roots.append((os.path.realpath(project), "the project"))
    for p in {os.path.normpath(path), os.path.realpath(path)}:
        for root, what in roots:
            if p == root or p.startswith(root.rstrip("/") + "/"):
                return "%s is under %s (%s), which the agent can write" % (path, what, root)
    return None


def probe(python: str, timeout: float = 10.0) -> dict | None:
    """{executable, version, yaml} as the interpreter itself reports them, or None."""
    try:
        proc = subprocess.run(
            [python, "-I", "-c", PROBE],
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
        exe, ver, has_yaml = json.loads(proc.stdout.strip().splitlines()[-1])
    except (OSError, ValueError, IndexError, TypeError, subprocess.SubprocessError):
        return None
    return {"executable": exe, "version": tuple(ver), "yaml": bool(has_yaml), "asked": python}


def candidates(env: Mapping[str, str] | None = None) -> list[str]:
    env = os.environ if env is None else env
    out = [os.path.abspath(sys.executable)]
    for d in (env.get("PATH") or "").split(os.pathsep):
        for n in ("python3", "python"):
            p = os.path.join(d, n)
            if d and os.access(p, os.X_OK) and not os.path.isdir(p):
                out.append(p)
    out += [p for p in KNOWN if os.access(p, os.X_OK)]
    seen, uniq = set(), []
    for p in out:
        if p not in seen:
            seen.add(p)
            uniq.append(p)
    return uniq


def choose(project: str | None, env: dict | None = None) -> tuple[dict | None, list[str]]:
    """(the best interpreter, notes on the ones passed over). Best: 3.9+, not
    agent-writable, with pyyaml; else 3.9+ without pyyaml."""
    notes, fallback = [], None
    for cand in candidates(env):
        info = probe(cand)
        if info is None:
            notes.append("%s: does not run" % cand)
            continue
        exe = info["executable"]
        if not exe or info["version"] < (3, 9):
            notes.append("%s: Python %s, need 3.9+" % (cand, ".".join(map(str, info["version"]))))
            continue
        why = agent_writable(exe, project, env) or agent_writable(cand, project, env)
        if not why and not python_name(exe):
            why = "%s: the launcher runs only python, python3, python3.N or pypy3" % exe
        if why:
            notes.append(why)
            continue
        if info["yaml"]:
            return info, notes
        notes.append("%s: no pyyaml" % exe)
        fallback = fallback or info
    return fallback, notes


def recorded(env: dict | None = None) -> str | None:
    try:
        with open(choice_path(env), encoding="utf-8") as fh:
            return fh.readline().strip() or None
    except OSError:
        return None


def record(python: str, env: dict | None = None) -> str:
    path = choice_path(env)
    write_choice(path, python)
    return path


def launcher_pick(project: str, hook: str = "sanetools", env: dict | None = None) -> str | None:
    """The interpreter the launcher itself picks for a hook in this project (what every hook
    call will run), by asking it: `sh scripts/hooks/run --which HOOK`."""
    run = os.path.join(project, "scripts", "hooks", "run")
    if not os.path.exists(run):
        return None
    e = dict(os.environ if env is None else env, CLAUDE_PROJECT_DIR=project)
    try:
        proc = subprocess.run(
            ["sh", run, "--which", hook],
            capture_output=True,
            text=True,
            timeout=20,
            env=e,
            cwd=project,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    line = proc.stdout.strip()
    return line if proc.returncode == 0 and line and not line.startswith("{") else None
