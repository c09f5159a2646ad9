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
_PLACES = ("~/", "/")


def _cached(key: tuple, build: Callable[[], tuple]) -> tuple:
    hit = _RULES.get(key)
    if hit is None:
        if len(_RULES) > 16:
            _RULES.clear()
        hit = _RULES[key] = build()
    return hit


def blocked(cfg, home: str) -> tuple:
    """(rules in their order, allowed names, the secret's path, read-only allowed locations),
    folded. A rule is (pattern,
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
    names = tuple(_fold(a) for a in allow if isinstance(a, str) and not a.startswith(_PLACES))
    # an allow entry with a location (~/.ssh/*.pub) lets a file under a blocked location be
    # READ (public keys, known_hosts); a write there stays blocked
    places = tuple(
        _fold(normalise(a, "/", home))
        for a in allow
        if isinstance(a, str) and a.startswith(_PLACES)
    )
    return rules, names, _fold(os.path.join(cdir, "secret")), places


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


_SECRETS: dict = {}  # (home, project, rules) -> {(dev, ino): (rule, readable)}, once per process
LINK_SCAN = 2000  # directory entries looked at under the blocked locations
PROJECT_SCAN = 3000  # and in the project, for the files the blocked name rules cover
_SKIP_DIRS = frozenset((".git", "node_modules", "__pycache__", ".venv", "venv", ".tox"))


def linked_secret(
    path: str, cwd: str, cfg, home: str | None, project: str | None = None, reading: bool = False
) -> str | None:
    """The blocked rule of the secret file that path is a hard link of: a path with more than
    one link is compared with the files under the blocked locations (~/.ssh, /etc/shadow, ...)
    and the project's files the blocked name rules cover (.env, *.pem), looked at once per
    process and at most LINK_SCAN + PROJECT_SCAN entries. A file with one link costs one
    stat. `reading`: a link to a file a read-only allow entry names (~/.ssh/*.pub) is no hit."""
    from core.pathnorm import linked_stat

    st = linked_stat(path, cwd, home)
    return inode_secret(st, cfg, home, project or cwd, reading) if st else None


def inode_secret(
    st: os.stat_result, cfg, home: str | None, project: str, reading: bool
) -> str | None:
    """linked_secret() for a file already stat'ed (a recursive reader's tree walk)."""
    home = home or os.path.expanduser("~")
    rules, names, _secret, places = blocked(cfg, home)
    key = ("secrets", home, project, tuple(r[0] for r in rules), places)
    table: dict | None = _SECRETS.get(key)
    if table is None:
        table = {}
        _scan_locations(table, cfg, home, places)
        _scan_project(table, project, rules, names, places)
        if len(_SECRETS) > 8:
            _SECRETS.clear()
        _SECRETS[key] = table
    hit = table.get((st.st_dev, st.st_ino))
    if not hit or (reading and hit[1]):
        return None
    return "%s (a hard link to a file under it)" % hit[0]


def _note(table: dict, f: str, rule: str, places: tuple) -> None:
    from core.globs import fnmatchcase
    from core.pathnorm import fold

    try:
        fst = os.stat(f)
    except (OSError, ValueError):
        return
    readable = any(fnmatchcase(fold(f), a) for a in places)
    old = table.get((fst.st_dev, fst.st_ino))
    if old is None or old[1] and not readable:  # one name that is no public file decides
        table[(fst.st_dev, fst.st_ino)] = (rule, readable)


def _scan_locations(table: dict, cfg, home: str, places: tuple) -> None:
    from core.globs import fnmatchcase
    from core.pathnorm import fold, sensitive_roots

    left = LINK_SCAN
    for root, rule in sensitive_roots(cfg, home)[1:]:
        walk = os.walk(root) if os.path.isdir(root) else [("", [], [root])]
        for d, _dirs, files in walk:
            for name in files:
                left -= 1
                _note(table, os.path.join(d, name), rule, places)
            if left < 0:
                return
    rules = blocked(cfg, home)[0]
    for pat, how, low, head, _tail in rules:  # /etc/shadow*, /etc/ssh/ssh_host_*_key
        d = os.path.dirname(head)
        if how != "glob" or "/" in low[len(d) + 1 :] or not os.path.isdir(d):
            continue  # only a glob in the last part: its directory's files, not a tree
        try:
            entries = list(os.scandir(d))
        except OSError:
            continue
        for e in entries[: max(left, 0)]:
            left -= 1
            if fnmatchcase(fold(e.path), low) and e.is_file(follow_symlinks=False):
                _note(table, e.path, pat, places)


def _scan_project(table: dict, proj: str, rules: list, names: tuple, places: tuple) -> None:
    """The project's files a blocked name rule covers (.env, config/secrets.yml, x.pem)."""
    from core.globs import fnmatchcase
    from core.pathnorm import fold

    exact = {low: pat for pat, how, low, _h, _t in reversed(rules) if how == "name"}
    globs = [(pat, low, head, tail) for pat, how, low, head, tail in rules if how == "name-glob"]
    if not (exact or globs) or not os.path.isdir(proj):
        return

    def rule_of(n: str) -> str | None:
        hit = exact.get(n)
        if hit is None:
            for pat, low, head, tail in globs:
                if n.startswith(head) and n.endswith(tail) and fnmatchcase(n, low):
                    return pat
        return hit

    stack, left = [proj], PROJECT_SCAN
    while stack and left > 0:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for e in entries:
            left -= 1
            n = fold(e.name)
            rule = rule_of(n)
            try:
                isdir = e.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if isdir:
                if rule:  # a directory a name rule covers (.ssh, secrets/): its files
                    left -= _scan_under(table, e.path, rule, places, min(200, left))
                elif e.name not in _SKIP_DIRS:
                    stack.append(e.path)
            elif rule and not any(fnmatchcase(n, a) for a in names):
                _note(table, e.path, rule, places)


def _scan_under(table: dict, root: str, rule: str, places: tuple, limit: int) -> int:
    """Note the files under root (at most about limit); -> the entries looked at."""
    seen = 0
    for d, _dirs, files in os.walk(root):
        for name in files:
            seen += 1
            _note(table, os.path.join(d, name), rule, places)
        if seen > limit:
            break
    return seen
