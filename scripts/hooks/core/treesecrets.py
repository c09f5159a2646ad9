"""Recursive content readers (grep -r, rg --hidden, tar/zip of a tree, readers fed a listing)
print or copy every file under the directories they read: refuse one when such a tree holds a
file the blocked name rules cover (.env, *.pem, credentials), unless the command leaves it out.
"""

from __future__ import annotations

import os

from core import paths

_GREPS = ("grep", "egrep", "fgrep", "zgrep")
_SEARCHERS = ("rg", "ag", "ack", "pt")
_ARCHIVERS = ("tar", "bsdtar", "gtar", "zip", "7z", "7za", "7zz")
_SKIP_DIRS = frozenset((".git", "node_modules", "__pycache__", ".venv", "venv", ".tox"))
TREE_SCAN = 3000  # directory entries looked at for secrets a recursive read would print


def check(ctx, facts):
    """A recursive content reader (grep -r, rg --hidden, tar/zip/cp -r of a tree) prints or
    copies every file under the directories it reads: refuse it when one holds a file the
    blocked name rules cover (.env, *.pem, credentials), unless the command excludes it
    (--exclude=.env, -g '!.env'). rg, ag and ack skip dotfiles unless told otherwise."""
    dirs: list[str] = []
    includes: list[str] = []
    hidden = True
    excludes: list[str] = []
    dir_excludes: list[str] = []
    searchers = 0
    for cmd in facts.analysis.commands:
        argv = cmd.argv
        prog = cmd.program
        here = cmd.cwd if isinstance(cmd.cwd, str) and cmd.cwd != "$PWD" else "."
        if prog in _GREPS + _SEARCHERS and _names_only(argv, prog == "rg"):
            continue  # grep -l / -c / -q print names or counts, not contents
        if prog in ("ln", "new-item", "ni"):
            continue  # a link to a tree reads none of it (gates_pre judges what it exposes)
        dirs.extend(cmd.tree)
        if prog in _GREPS and _recursive(argv):
            dirs.extend(cmd.reads or [here])
        if prog in _ARCHIVERS:
            dirs.extend(cmd.reads)  # tar -czf x.tgz ., tar cf - .: every file is copied
        if prog in _SEARCHERS:
            searchers += 1
            dirs.extend(cmd.reads or [here])
            if not any(
                w in ("--hidden", "-.", "-uu", "-uuu", "-u", "--unrestricted") for w in argv
            ):
                hidden = False
        left_out = _excludes(argv)
        excludes.extend(left_out[0])
        dir_excludes.extend(left_out[1])
        includes.extend(_includes(argv))
        if prog == "git":
            from core.shell import feeds

            if feeds.git_lists(argv):  # git ls-files '*.py' | xargs R: only those names
                includes.extend(feeds.git_pathspecs(argv)[1])
    if searchers < len([c for c in facts.analysis.commands if c.reads or c.tree]):
        hidden = True  # another command reads the tree too
    names = [
        p for p in ctx.cfg.list("paths.blocked") if isinstance(p, str) and p and p[:1] not in "~/"
    ]
    allow = ctx.cfg.list("paths.blocked_allow")
    plain = [d for c in facts.analysis.commands for d in getattr(c, "plain_tree", None) or []]
    seen = set()
    todo = [(d, hidden) for d in dirs] + [(d, False) for d in plain]
    for raw, dots in [(r, dots) for d, dots in todo for r in _roots(d, ctx) if r]:
        root = paths.normalise(raw, ctx.cwd, ctx.home)
        if (root, dots) in seen or not os.path.isdir(root):
            continue
        seen.add((root, dots))
        hit = _scan(root, names, allow, (excludes, dir_excludes), dots, includes, _aliases(ctx))
        if hit:
            return (
                "[blocked-path] %s holds %s (blocked path rule %r), and this call reads the files "
                "under it. Exclude it (e.g. %s=%s, rg -g '!%s') or search a "
                "narrower directory." % (raw, hit[0], hit[1], _exclude_opt(hit[0]), hit[2], hit[2])
            )
    return None


def _roots(raw: str, ctx) -> list[str]:
    """A globbed operand (`grep -r . ~/.con*`) reads the trees of its matches, or, past the
    bound, every path its literal prefix reaches."""
    if "$" in raw or "`" in raw or not paths.has_glob(raw):
        return [raw]
    return paths.tree_roots(raw, ctx.cwd, ctx.home)


def _exclude_opt(path: str) -> str:
    """grep leaves a file out with --exclude, a directory with --exclude-dir."""
    return "--exclude-dir" if os.path.isdir(path) and not os.path.islink(path) else "--exclude"


def _recursive(argv):
    for w in argv[1:]:
        if w in ("--recursive", "--dereference-recursive", "--directories=recurse"):
            return True
        if w[:1] == "-" and w[:2] != "--" and ("r" in w or "R" in w):
            return True
    return False


def _excludes(argv):
    """(file patterns, directory patterns) left out: grep's --exclude skips files and
    --exclude-dir directories; rg -g '!x', ag --ignore skip both."""
    files, dirs = [], []
    for i, w in enumerate(argv):
        nxt = argv[i + 1] if i + 1 < len(argv) else ""
        for opt in ("--exclude", "--exclude-dir", "--glob", "--iglob", "-g", "--ignore"):
            if w == opt:
                val = nxt
            elif w.startswith(opt + "="):
                val = w.split("=", 1)[1]
            else:
                continue
            if opt in ("--glob", "--iglob", "-g") and val[:1] != "!":
                continue  # a positive glob narrows (_includes), it leaves nothing out
            val = val.lstrip("!")
            if val and opt != "--exclude-dir":
                files.append(val)
            if val and opt != "--exclude":
                dirs.append(val)
    return files, dirs


def _names_only(argv, rg=False):
    """grep -l / -L / -c / -q print names or counts (rg's -L is --follow: it prints contents).
    A letter after one that takes a value is that value (`grep -r -elocal`), as is the word
    after such an option (`grep -e -l`)."""
    letters, valued = ("lcq", "efgmABCtTjMEr") if rg else ("lLcq", "efmABCdDX")
    skip = False
    for w in argv[1:]:
        if skip:
            skip = False
            continue
        if w == "--":
            return False
        if w in ("--files-with-matches", "--files-without-match", "--count", "--quiet", "--files"):
            return True
        if w[:1] != "-" or w[:2] == "--":
            continue
        for k, ch in enumerate(w[1:], 1):
            if ch in valued:
                skip = k == len(w) - 1
                break
            if ch in letters:
                return True
    return False


def _includes(argv):
    """Name filters that narrow what is read: --include=*.py, rg -g '*.py', find -name.  Not
    find's tests under a negation, an -o or a -prune (`! -name '*.py'`, `-name x -prune -o`):
    the files they pick are the ones left out."""
    if any(w in _FIND_OPS for w in argv[1:]):
        return []
    out = []
    for i, w in enumerate(argv):
        nxt = argv[i + 1] if i + 1 < len(argv) else ""
        if w in ("--include", "-name", "-iname", "-g", "--glob", "--iglob") and nxt[:1] != "!":
            out.append(nxt)
        elif w.startswith(("--include=", "--glob=", "--iglob=")) and "=!" not in w:
            out.append(w.split("=", 1)[1])
    return [x for x in out if x]


_FIND_OPS = frozenset(("!", "-not", "-o", "-or", "-prune", ","))


def _aliases(ctx):
    """For the tree walk: the blocked rule a file reaches under another name (a hard link to a
    secret, a symlink to one), or None. A file with one link costs its lstat."""
    from core import pathrules

    def check(e) -> str | None:
        try:
            if e.is_symlink():  # grep -R, rg -L, zip, tar -h follow it
                real = os.path.realpath(e.path)
                rule = paths.blocked_rule(real, "/", ctx.cfg, ctx.home, ctx.project, True)
                held = None if rule else paths.tree_holds(real, "/", ctx.cfg, ctx.home)
                if held:  # a link to a directory above secrets or the hooks' key
                    return held[1] or "the hook secret, counters and locks"
                return rule
            if not e.is_file(follow_symlinks=False):
                return None  # the directory's type came with the listing: no stat
            st = e.stat(follow_symlinks=False)
        except (OSError, ValueError):
            return None
        if st.st_nlink < 2:
            return None
        if (st.st_dev, st.st_ino) in paths._inodes(paths._untouchable_files()):
            return "the hook secret, counters and locks"
        return pathrules.inode_secret(st, ctx.cfg, ctx.home, ctx.project, True)

    return check


def _scan(root, names, allow, excludes, hidden, includes=(), alias=None):
    """(path, rule, name) of the first file under root the command reads that a blocked name
    rule covers (or, by `alias`, a link to a secret), or of a directory such a rule covers
    whose files it reads, looking at TREE_SCAN entries at most. `excludes` is (file
    patterns, directory patterns); `includes` narrow which files are read, never which
    directories are entered (`--include=*.yml` still reads secrets/prod.yml)."""
    from core.globs import fnmatchcase

    files_out, dirs_out = excludes
    stack: list[tuple[str, tuple | None]] = [(root, None)]
    budget = TREE_SCAN
    while stack and budget > 0:
        d, inside = stack.pop()  # inside: (path, rule, name) of a blocked directory above
        try:
            entries = list(os.scandir(d))
        except OSError:
            continue
        for e in entries:
            budget -= 1
            n = e.name
            if not hidden and n[:1] == ".":
                continue
            try:
                is_dir = e.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                if n in _SKIP_DIRS or any(fnmatchcase(n, x) for x in dirs_out):
                    continue
                rule = next((p for p in names if fnmatchcase(n, p)), None)
                if rule and not any(fnmatchcase(n, a) for a in allow):
                    if not includes:
                        return e.path, rule, n
                    stack.append((e.path, (e.path, rule, n)))  # its files the filters select
                else:
                    stack.append((e.path, inside))
                continue
            if any(fnmatchcase(n, x) for x in files_out):
                continue
            if includes and not any(fnmatchcase(n, x) for x in includes):
                # a link to a directory is entered by those that follow links, whatever the
                # name filters pick there (find -L . -name secret)
                linked = alias(e) if alias is not None and _dir_link(e) else None
                if linked:
                    return e.path, linked, n
                continue
            if inside:
                return inside
            rule = next((p for p in names if fnmatchcase(n, p)), None)
            if rule and not any(fnmatchcase(n, a) for a in allow):
                return e.path, rule, n
            linked = alias(e) if alias is not None and not rule else None
            if linked:
                return e.path, linked, n
    return None


def _dir_link(e) -> bool:
    """A directory entry that is a symbolic link to a directory."""
    try:
        return e.is_symlink() and e.is_dir()
    except OSError:
        return False
