"""File names that flow into a command as data: `find D | xargs cat`, `find D | while read f;
do cat "$f"; done`, `for f in D/*; do cat "$f"; done`, `cat $(find D -name .env)`. The
command fed so reads what the producer lists: the producer's directories are read file by
file (checked like `grep -r`), its name patterns select the files read (checked like a search
glob), and literal names are read as named."""

from __future__ import annotations

from core.shell import looks

# the reason a command gets when it reads the files whose names arrive on its stdin
# (cpio -o / -p, pax -w without operands): it is fed the producer's listing
NAMES_ON_STDIN = "reads the files named on its stdin"
# programs whose output is a list of paths under their operands (the cwd when none)
_LISTERS = frozenset(("find", "ls", "fd", "fdfind", "tree", "du", "rg", "grep", "ag", "locate"))
_NAME_TESTS = frozenset(("-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename"))
_GLOB = frozenset("*?[")


def _split_glob(word: str) -> tuple[str, str]:
    """`~/.ssh/*` -> ('~/.ssh', '*'); a glob in a directory part keeps its parent."""
    head = word
    while any(ch in _GLOB for ch in head):
        if "/" not in head:
            return ".", word.rsplit("/", 1)[-1]
        head = head.rsplit("/", 1)[0] or "/"
    return head, word.rsplit("/", 1)[-1]


def _nocase(glob: str) -> str:
    """-iname .ENV -> .[eE][nN][vV]: the glob that matches the same names in any case."""
    if "[" in glob or len(glob) > 128:
        return "*"
    return "".join("[%s%s]" % (ch.lower(), ch.upper()) if ch.isalpha() else ch for ch in glob)


def _all(args: list) -> bool:
    """ls -a / -A / --all / --almost-all: dot files are listed too."""
    for w in args:
        if w in ("--all", "--almost-all"):
            return True
        if w[:1] == "-" and w[1:2] != "-" and ("a" in w or "A" in w):
            return True
    return False


def _deep(argv: list[str]) -> bool:
    """ls -R / --recursive: it lists the names under every directory."""
    return any(w == "--recursive" or (w[:1] == "-" and w[1:2] != "-" and "R" in w) for w in argv)


def apply(ctx) -> None:
    """Give every command fed file names by a producer in this command the producer's
    listing as its own reads."""
    dirs: list[str] = []
    plain: list[str] = []
    globs: list[str] = []
    names: list[str] = []
    listers: list[tuple[list[str], list[str]]] = []  # (dirs, name globs) of path listers
    for w in ctx.listed:
        if any(ch in _GLOB for ch in w):
            d, g = _split_glob(w)
            dirs.append(d)
            globs.append(g)
        else:
            names.append(w)
    for c in ctx.out:
        if c.program == "git" and git_lists(c.argv):
            # `git ls-files | xargs cat`: every tracked file, a tracked .env too
            paths, pats = git_pathspecs(c.argv)
            dirs.extend(paths or ["."])
            globs.extend(pats[:8])
            listers.append(((paths or ["."])[:8], pats[:8]))
            continue
        if c.program not in _LISTERS:
            continue
        starts = [r for r in c.reads + c.looks if r[:1] != "-"]
        if not starts and "xargs" in c.wrappers:
            continue  # `find | xargs ls -la`: it lists the names it is fed, not the cwd
        starts = starts or ["."]
        if c.program == "ls" and not _all(c.argv[1:]) and not _deep(c.argv[1:]):
            plain.extend(starts)  # names of the non-dot entries only
        else:
            dirs.extend(starts)
        if c.program == "ls" and _all(c.argv[1:]):
            # `ls -a | grep env | xargs cat`: the dot files it lists are read by name
            names.extend(d.rstrip("/") + "/.[!.]*" for d in starts[:8])
        argv = c.argv
        own = []
        for i, w in enumerate(argv[:-1]):
            if c.program == "find" and w in _NAME_TESTS:
                g = argv[i + 1].rsplit("/", 1)[-1]
                own.append(_nocase(g) if w[1] == "i" else g)
        globs.extend(own)
        if c.tree:  # find -exec: the command it runs reads the files the tests select
            c.globs.extend(own[:64])
        if c.program != "ls" or _deep(c.argv[1:]):
            either = any(w in ("!", "-not", "-o", "-or", "(", "-prune") for w in argv)
            listers.append((starts[:8], [] if either else own[:8]))
    _fed_writes(ctx, listers)
    if not (dirs or plain or globs or names):
        return
    for c in ctx.out:
        if c.program in _LISTERS and "xargs" not in c.wrappers:
            continue
        fed = "xargs" in c.wrappers or any("$" in r or "`" in r for r in c.reads)
        fed = fed or NAMES_ON_STDIN in c.reasons  # cpio -o, pax -w: the names piped in
        if not fed:
            continue
        # a program that prints only what it learns about a file (size, type, a digest)
        # reveals no secret when fed every file of a tree (`find / | xargs du -h`)
        tree_safe = looks.only_looks(c.program, c.argv[1:])
        for d in dirs if not tree_safe else ():
            if d not in c.tree and len(c.tree) < 64:
                c.tree.append(d)
        for d in plain if not tree_safe else ():
            if d not in c.plain_tree and len(c.plain_tree) < 64:
                c.plain_tree.append(d)
        for g in globs if not (tree_safe and c.program in looks.LOOKERS) else ():
            if g not in c.globs and len(c.globs) < 64:
                c.globs.append(g)
        # names fed to a looker are looked at; to anything else (a digest too) read
        into = c.looks if tree_safe and c.program in looks.LOOKERS else c.reads
        for n in names:
            if n not in into and len(into) < 256:
                into.append(n)


_GIT_LISTS = frozenset(("ls-files", "ls-tree", "diff-tree"))
_GIT_VALUED = frozenset(("-C", "-c", "--git-dir", "--work-tree", "--namespace"))


def git_lists(argv: list[str]) -> bool:
    """git ls-files / ls-tree / diff-tree and `diff --name-only`: they print file names."""
    i = 1
    while i < len(argv) and argv[i][:1] == "-":
        i += 2 if argv[i] in _GIT_VALUED else 1
    sub = argv[i] if i < len(argv) else ""
    if sub in _GIT_LISTS:
        return True
    return sub in ("diff", "show", "log") and any(
        w in ("--name-only", "--name-status", "--stat") for w in argv[i + 1 :]
    )


def git_pathspecs(argv: list[str]) -> tuple[list[str], list[str]]:
    """(directories, name globs) among the pathspecs after `--` or the operands of ls-files."""
    ops = argv[argv.index("--") + 1 :] if "--" in argv else []
    if not ops and "ls-files" in argv:
        ops = [w for w in argv[argv.index("ls-files") + 1 :] if w[:1] != "-"]
    dirs = [w for w in ops if not any(ch in w for ch in "*?[") and w[:1] != ":"]
    pats = [w.rsplit("/", 1)[-1] for w in ops if any(ch in w for ch in "*?[")]
    if any(w[:1] == ":" for w in ops):
        dirs = ["."]  # pathspec magic (:/, :!x): the whole tree may be listed
    return dirs, pats


def _fed_writes(ctx, listers) -> None:
    """A write to a name that arrives from a lister (`find D | while read f; do rm "$f"`,
    `for f in $(find D)`) may be any path it lists: D/<anything><name glob>, checked as a
    half-seen target (a dynamic part for what comes between), or every entry of D."""
    if not listers:
        return
    for c in ctx.out:
        if c.program in _LISTERS and "xargs" not in c.wrappers:
            continue
        if not any("$" in w or "`" in w for w in c.writes):
            continue
        for starts, names in listers:
            for d in starts:
                d = d.rstrip("/") or "/"
                # no name test: every entry below d (a glob: names protected paths below)
                for w in [d + "/${FEED}" + g for g in names] or [d + "/*", d + "/.*"]:
                    if w not in c.writes and len(c.writes) < 256:
                        c.writes.append(w)
