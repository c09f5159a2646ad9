"""Files whose writing makes code run later, outside every check: git config files (a key
there names a program git runs), a .git that points git at another directory, Python startup
files (*.pth, sitecustomize.py: every Python runs them, the hooks' too) and the person's
start-up files (core/homestartup.py). A file tool's write needs only this check; shell
commands get it through core/protect_shell.py."""

from __future__ import annotations

import os

from core import homestartup, paths

# git config files: a key there (core.fsmonitor, core.hooksPath, alias.x=!cmd) runs a program
# in the person's own git, outside every check
GIT_CONFIG_FILES = (".git/config", ".git/config.worktree")
HOME_GIT_CONFIG = (".gitconfig", ".config/git/config")
# files the Python interpreter runs at startup from any site directory
PY_STARTUP = ("sitecustomize.py", "usercustomize.py")


def check(ctx, facts) -> str | None:
    """The [self-protection] block message for a file tool's writes, or None."""
    for raw in facts.raw_writes:
        msg = message(ctx, raw, ctx.cwd)
        if msg:
            return msg
    return None


def git_file(ctx, norm: str) -> bool:
    """`norm` is <project>/.git and no real directory is there (missing, a file, a link), or
    a .git (or a file in one) below the project's root: git run in that directory takes its
    config and hooks from what it names."""
    root = paths.real(ctx.project)
    parent = paths.real(os.path.dirname(norm))
    if os.path.basename(norm) != ".git":
        rel = os.path.relpath(parent, root) if paths.is_under(parent, root) else ""
        return ".git" in rel.split(os.sep)[1:]
    here = os.path.join(parent, ".git")
    if here != os.path.join(root, ".git"):
        return paths.is_under(parent, root)
    return os.path.islink(here) or not os.path.isdir(here)


def home_startup(full: str, home: str) -> bool:
    """A shell start-up file, session autostart entry or PATH directory of the person."""
    root = paths.real(home).rstrip("/")
    if not full.startswith(root + "/"):
        return False
    return homestartup.is_startup(full[len(root) + 1 :])


def message(ctx, raw: str, cwd: str) -> str | None:
    """The block message when `raw` is one of these files (a git config file, a Python
    startup file, a start-up file in HOME), else None."""
    home = ctx.home or os.path.expanduser("~")
    gitfiles = [paths.real(os.path.join(ctx.project, f)) for f in GIT_CONFIG_FILES]
    gitfiles += [paths.real(os.path.join(home, f)) for f in HOME_GIT_CONFIG]
    xdg = os.environ.get("XDG_CONFIG_HOME")
    if xdg:
        gitfiles.append(paths.real(os.path.join(xdg, "git", "config")))
    norm = paths.normalise(raw, cwd, ctx.home)
    full = paths.real(norm)
    base = os.path.basename(full)
    if git_file(ctx, norm):
        what = (
            "a .git of the project (its root's, not a directory now, or one in a "
            "subdirectory): it names the directory git works in there, whose config and "
            "hooks git runs (only `git init`, `git clone` or `git submodule` make one)"
        )
    elif full in gitfiles or (full.endswith("/config") and "/.git/" in full):
        what = "a git config file (a key there can name a program git runs)"
    elif base.endswith(".pth") or base in PY_STARTUP:
        what = "a Python startup file (site dirs run it inside every Python, the hooks too)"
    elif home_startup(full, home):
        what = "a start-up file the person's shell, editor or tools run later (or a PATH dir)"
    else:
        return None
    return (
        "[self-protection] %s is %s; writing it runs code outside every check. Ask the "
        "person to make that change." % (raw, what)
    )
