"""Path forms with no policy in them: normalising what the agent wrote, case folding, the
directories that hold secrets and our config. Shared by paths (the rules) and pathrules
(their per-call cache), so neither imports the other."""

from __future__ import annotations

import os
import sys

CASE_INSENSITIVE = sys.platform in ("darwin", "win32")


def unquote(p):
    """Decode %xx escapes (the %2e%2e style); leave anything else alone."""
    if "%" not in p:
        return p
    out, i, n = [], 0, len(p)
    while i < n:
        c = p[i]
        if c == "%" and i + 2 < n:
            h = p[i + 1 : i + 3]
            try:
                out.append(chr(int(h, 16)))
                i += 3
                continue
            except ValueError:
                pass
        out.append(c)
        i += 1
    return "".join(out)


def normalise(path, cwd, home=None, keep_dots=False):
    """Absolute, normalised form of path as the agent wrote it (no symlink resolution).
    keep_dots: absolute only, `..` left for realpath (a link before it is followed first)."""
    if not isinstance(path, str):
        return ""
    p = path.replace("\x00", "")
    for _ in range(3):  # %252e -> %2e -> .
        q = unquote(p)
        if q == p:
            break
        p = q
    p = p.replace("\\", "/") if os.sep == "/" and "\\" in p and sys.platform == "win32" else p
    home = home or os.path.expanduser("~")
    if p == "~" or p.startswith("~/"):
        p = home + p[1:]
    elif p.startswith("$HOME/") or p == "$HOME":
        p = home + p[5:]
    elif p.startswith("${HOME}"):
        p = home + p[7:]
    if not os.path.isabs(p):
        p = os.path.join(cwd or os.getcwd(), p)
    return p if keep_dots else os.path.normpath(p)


def real(path):
    if len(path) > 4096:  # past PATH_MAX the kernel refuses the name: no file to resolve,
        return path  # and realpath would lstat each of its thousands of prefixes
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return path


def forms(path, cwd, home=None):
    """The literal normalised path and its symlink-resolved form (both are checked)."""
    lit = normalise(path, cwd, home)
    rp = real(lit)
    out = (lit,) if rp == lit else (lit, rp)
    if isinstance(path, str) and ".." in path:
        # the kernel follows a link before the `..` after it (/dev/fd/../.. is /proc, not /);
        # normpath drops the pair first
        raw = real(normalise(path, cwd, home, keep_dots=True))
        if raw not in out:
            out += (raw,)
    return out


_FOLDED: set = set()  # projects found on a case-insensitive file system (note_case)


def fold(p):
    return p.lower() if CASE_INSENSITIVE or _FOLDED else p


def note_case(project: str) -> None:
    """A project on a case-insensitive file system on Linux (WSL's /mnt/c, a casefold ext4
    directory, vfat/exFAT/NTFS mounts): `.CLAUDE/SETTINGS.JSON` is the settings file there,
    so names are compared folded from here on. Two stats of the project's .claude."""
    if CASE_INSENSITIVE or _FOLDED or not project:
        return
    try:
        a = os.stat(os.path.join(project, ".claude"))
        b = os.stat(os.path.join(project, ".CLAUDE"))
    except (OSError, ValueError):
        return
    if (a.st_ino, a.st_dev) == (b.st_ino, b.st_dev):
        _FOLDED.add(project)


def is_under(path, root):
    path, root = fold(path), fold(root.rstrip("/") or "/")
    return path == root or path.startswith(root + "/") or root == "/"


def config_dir():
    from core.state import config_dir

    return config_dir()


def stat_isreg(mode: int) -> bool:
    return mode & 0o170000 == 0o100000


def linked_stat(path, cwd, home):
    """The stat of `path` when it is a regular file with more than one name (a hard link may
    be another name of a secret or a protected file), else None: one stat for almost every
    path, and no further work for a file with one link."""
    try:
        st = os.stat(normalise(path, cwd, home))
    except (OSError, ValueError):
        return None
    if st.st_nlink < 2 or not stat_isreg(st.st_mode):
        return None
    return st


def claude_user_dirs(home=None):
    """Claude Code's user config dir: ~/.claude, or $CLAUDE_CONFIG_DIR."""
    home = home or os.path.expanduser("~")
    dirs = [os.path.join(home, ".claude")]
    env = os.environ.get("CLAUDE_CONFIG_DIR")
    if env and os.path.isabs(env):
        dirs.append(env.rstrip("/") or "/")
    return dirs


GLOB_CHARS = "*?["


def has_glob(p):
    return isinstance(p, str) and any(ch in p for ch in GLOB_CHARS)


def sensitive_roots(cfg, home=None):
    """(directory, rule) for every blocked directory and our config dir: a recursive read of
    any directory above one of them reads it too."""
    home = home or os.path.expanduser("~")
    out = [(config_dir(), None)]
    for pat in cfg.list("paths.blocked"):
        if (
            isinstance(pat, str)
            and (pat.startswith("~/") or pat.startswith("/"))
            and not has_glob(pat)
        ):
            out.append((normalise(pat, "/", home), pat))
    return out
