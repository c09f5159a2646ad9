"""The blocked and protected rule lists of core/paths.py, normalised and folded once per hook
call instead of once per path (a command of 600 paths asked 29,000 normalisations), and the
blocked files a hard link could share."""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing costs milliseconds on the hot path; only mypy reads it
if TYPE_CHECKING:
    from typing import Callable

# Keyed by everything the normal forms depend on; a hook process holds one or two keys.
_RULES: dict = {}


def _cached(key: tuple, build: Callable[[], tuple]) -> tuple:
    hit = _RULES.get(key)
    if hit is None:
        if len(_RULES) > 16:
            _RULES.clear()
        hit = _RULES[key] = build()
    return hit


def blocked(cfg, home: str) -> tuple:
    """(rules in their order, allowed names, the secret's path), folded. A rule is (pattern,
    how, folded form, head, tail): "under" a directory (head is it with a slash), "glob" (head
    is its literal start, tail the glob of what is under it), "all" (/), a literal "name" or a
    "name-glob" (a name must start with the literal head and end with the literal tail): most
    paths are turned away by a startswith, without glob matching."""
    from core import pathnorm

    pats = tuple(cfg.list("paths.blocked"))
    allow = tuple(cfg.list("paths.blocked_allow"))
    cdir = pathnorm.config_dir()
    return _cached(
        ("blocked", home, cdir, pats, allow),
        lambda: _build_blocked(pats, allow, home, cdir),
    )


def _build_blocked(pats: tuple, allow: tuple, home: str, cdir: str) -> tuple:
    from core.pathnorm import fold as _fold
    from core.pathnorm import normalise

    rules = []
    for pat in pats:
        if not isinstance(pat, str) or not pat:
            continue
        if pat.startswith("~/") or pat.startswith("/"):
            root = _fold(normalise(pat, "/", home))
            if any(ch in root for ch in "*?["):
                cut = min(root.find(ch) for ch in "*?[" if ch in root)
                rules.append((pat, "glob", root, root[:cut], root + "/*"))
            elif root == "/":
                rules.append((pat, "all", root, "", ""))
            else:
                rules.append((pat, "under", root, root + "/", ""))
            continue
        low = _fold(pat)
        cut = min([low.find(ch) for ch in "*?[" if ch in low] or [len(low)])
        if cut == len(low):
            rules.append((pat, "name", low, "", ""))
            continue
        last = max(low.rfind("*"), low.rfind("?"))
        tail = "" if "[" in low else low[last + 1 :]
        rules.append((pat, "name-glob", low, low[:cut], tail))
    folded_allow = tuple(_fold(a) for a in allow if isinstance(a, str))
    return rules, folded_allow, _fold(os.path.join(cdir, "secret"))


def protected(project: str, cfg, home: str) -> tuple:
    """What protected() compares every path with, worked out once: (Claude Code's user dirs,
    the same folded, the project's two forms folded, [(protected_extra entry, its normal form
    folded)])."""
    extra = tuple(x for x in cfg.list("paths.protected_extra") if isinstance(x, str) and x)
    env = os.environ.get("CLAUDE_CONFIG_DIR")
    return _cached(
        ("protected", project, home, env, extra),
        lambda: _build_protected(project, extra, home),
    )


def _build_protected(project: str, extra: tuple, home: str) -> tuple:
    from core.pathnorm import claude_user_dirs, normalise, real
    from core.pathnorm import fold as _fold

    user_dirs = claude_user_dirs(home)
    roots = (_fold(project), _fold(real(project)))
    extras = [(x, _fold(normalise(x, project, home))) for x in extra]
    return user_dirs, [_fold(d) for d in user_dirs], roots, extras


_SECRETS: dict = {}  # (home, blocked rules) -> {(dev, ino): rule}, once per process
LINK_SCAN = 2000  # directory entries looked at for the secrets a hard link could share


def linked_secret(path: str, cwd: str, cfg, home: str | None) -> str | None:
    """The blocked rule of the secret file that path is a hard link of (only asked for a file
    with more than one link): the files under the blocked locations (~/.ssh, /etc/shadow, ...),
    looked at once per process, at most LINK_SCAN entries."""
    from core.pathnorm import normalise, sensitive_roots, stat_isreg

    try:
        st = os.stat(normalise(path, cwd, home))
    except (OSError, ValueError):
        return None
    if st.st_nlink < 2 or not stat_isreg(st.st_mode):
        return None
    key = ("secrets", home, tuple(x for x in cfg.list("paths.blocked") if isinstance(x, str)))
    table: dict | None = _SECRETS.get(key)
    if table is None:
        table, left = {}, LINK_SCAN
        for root, rule in sensitive_roots(cfg, home)[1:]:
            for d, _dirs, files in os.walk(root) if os.path.isdir(root) else [("", [], [root])]:
                for name in files:
                    left -= 1
                    try:
                        fst = os.stat(os.path.join(d, name))
                    except (OSError, ValueError):
                        continue
                    table.setdefault((fst.st_dev, fst.st_ino), rule)
                if left < 0:
                    break
            if left < 0:
                break
        _SECRETS[key] = table
    hit = table.get((st.st_dev, st.st_ino))
    return "%s (a hard link to a file under it)" % hit if hit else None
