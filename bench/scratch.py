"""What the benchmarks share: a scratch project holding its own copy of the hooks, with its own
HOME and hook environment, and that copy's engine driven inside this process to prepare a state
before the timed runs (which start the real scripts)."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from collections.abc import Iterator

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOOKS = os.path.join(ROOT, "scripts", "hooks")


def project(tmp: str, name: str, home: str, dirs: tuple[str, ...] = ("src",)) -> str:
    """tmp/name with .claude/, the given dirs and a copy of scripts/hooks; an empty HOME at home."""
    path = os.path.realpath(os.path.join(tmp, name))
    for d in (".claude",) + dirs:
        os.makedirs(os.path.join(path, d))
    os.makedirs(home)
    shutil.copytree(
        HOOKS, os.path.join(path, "scripts", "hooks"), ignore=shutil.ignore_patterns("__pycache__")
    )
    return path


def hook_env(path: str, home: str, **extra: str) -> dict[str, str]:
    """This environment without Claude Code's and sane-hooks' variables, as the hooks get it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "SANE_"))}
    env.update(
        HOME=home,
        XDG_CONFIG_HOME=os.path.join(home, ".config"),
        SANE_HOOK_SECRET="bench-secret",
        CLAUDE_PROJECT_DIR=path,
        **extra,
    )
    return env


@contextlib.contextmanager
def engine_of(path: str, env: dict[str, str]) -> Iterator:
    """The project's own core.engine, imported with os.environ = env; after the block the
    environment, sys.path and sys.modules are as before (the next project imports its copy)."""
    old = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    sys.path.insert(0, os.path.join(path, "scripts", "hooks"))
    try:
        from core import engine

        yield engine
    finally:
        os.environ.clear()
        os.environ.update(old)
        sys.path.pop(0)
        for name in [m for m in sys.modules if m == "core" or m.startswith("core.")]:
            del sys.modules[name]
