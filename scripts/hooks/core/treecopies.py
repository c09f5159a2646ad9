"""Copies whose files land by names the command's words do not show: `cp SRC DIR`, `mv SRC .`,
`install SRC DIR`, `ln SRC DIR` (DIR/basename(SRC)), `cp -a SRC/* DEST`,
`cp -r SRC/. DEST`, `cp --parents`, `rsync -a [-R] SRC/ DEST`, `scp -r host:x DEST`,
`cpio -p DEST`. When DEST holds protected files, the source decides which of them are
replaced: a source that exists now is enumerated (bounded: only the protected paths under
DEST are looked up in it); one that cannot be (a glob that does not expand now, a $VAR, a
remote path, a file list, names on stdin, a tree an earlier step of the same command writes)
is a blind write of DEST.
"""

from __future__ import annotations

import os

from core import paths
from core.shell.command import long_match

# program: (short letters that copy directories, their long names, short letters that keep
# the source's relative path under DEST, their long names, short options that take a value)
_FLAGS = {
    "cp": ("rRa", ("--recursive", "--archive"), "", ("--parents",), "tS"),
    "rsync": ("rad", ("--recursive", "--archive", "--dirs"), "R", ("--relative",), "eBfTM"),
    "scp": ("r", ("--recursive",), "", (), "cFiJloPSDX"),
    "ditto": ("", (), "", (), ""),
    "pax": ("", (), "", (), "bfopsxBDEGTU"),
    "mv": ("", (), "", (), "tS"),  # a directory moves whole: always a tree (below)
    "install": ("", (), "", (), "tSmog"),
    "ln": ("", (), "", (), "tS"),  # a link by the source's name, never its tree
}


# directory sources mapped onto a destination in one call; more is a copy not enumerated
MAX_TREES = 64


def pax_copies(argv: list[str]) -> bool:
    """pax -r -w: a copy of its operands under the last one, paths kept."""
    short, _ = _options(argv, _FLAGS["pax"][4])
    return "r" in short and "w" in short


def _options(argv: list[str], valued: str) -> tuple[str, list[str]]:
    """(short letters, long option names) given before `--`."""
    short = ""
    longs = []
    for w in argv[1:]:
        if w == "--":
            break
        if w[:2] == "--":
            longs.append(w.split("=", 1)[0])
        elif w[:1] == "-" and len(w) > 1:
            for ch in w[1:]:
                short += ch
                if ch in valued:
                    break  # the rest of the word is its value
    return short, longs


def _given(short: str, longs: list[str], letters: str, names: tuple) -> bool:
    return any(ch in short for ch in letters) or any(long_match(x, n) for x in longs for n in names)


def _remote(word: str) -> bool:
    """host:path, user@host:path, rsync://host/x: files of another machine."""
    if "://" in word:
        return True
    k = word.find(":")
    return k > 0 and "/" not in word[:k] and word[:1] != "-"


def _dynamic(word: str) -> bool:
    return "$" in word or "`" in word


def copy_writes(f, cmd, prog, dests, cwd, project, home, cfg) -> None:
    """Protected paths a copy into `dests` (directories holding protected files) replaces go
    to f.raw_writes; a destination its source cannot be enumerated for goes to blind_writes."""
    rec_l, rec_n, rel_l, rel_n, valued = _FLAGS.get(prog, _FLAGS["cp"])
    short, longs = _options(cmd.argv, valued)
    recursive = prog in ("ditto", "pax", "mv") or _given(short, longs, rec_l, rec_n)
    relative = prog == "pax" or _given(short, longs, rel_l, rel_n)
    unseen = [w for w in cmd.reads if _dynamic(w)]
    if prog == "pax" and ("s" in short or "i" in short):
        unseen.append("-s")  # members renamed by a pattern or by hand
    if prog in ("rsync", "scp"):
        # the handlers leave remote sources out of reads: what they hold is never seen here
        unseen += [w for w in cmd.argv[1:] if _remote(w) and w not in cmd.writes]
    if prog == "rsync" and any(long_match(x, "--files-from") for x in longs):
        unseen.append("--files-from")  # the names come from a list: any path under DEST
        recursive = True
    budget = dict(paths.GLOB_BUDGET)
    before = [paths.normalise(w, cwd, home) for w in f.raw_writes + f.blind_writes]
    if prog == "mv":  # mv writes (takes away) its own sources: not an earlier step's work
        own = {paths.normalise(w, cwd, home) for w in cmd.reads}
        before = [b for b in before if b not in own]
    sources: list[tuple[str, str]] = []  # (the path under DEST for --parents, the path now)
    cdir = (cmd.cwd or "").rstrip("/")
    for w in cmd.reads:
        if _dynamic(w) or cdir == "$PWD" and w[:1] != "/":
            unseen.append(w)  # a relative name after a `cd` the analysis cannot follow
            continue
        found = [paths.normalise(w, cwd, home)]
        if paths.has_glob(w):
            found, complete = paths.expand(w, cwd, home, True, budget)
            if not found or not complete:
                unseen.append(w)
                continue
        sources += [(_kept(w, m, cdir, prog, cwd, home), m) for m in found]
    dirs = [given for given, s in sources if recursive and os.path.isdir(s)]
    if len(dirs) > MAX_TREES:
        unseen.append(dirs[0])  # each tree is looked up for every protected path: bounded
    for given, s in sources:
        if any(b == s or paths.is_under(b, s) for b in before):
            unseen.append(given)  # an earlier step of this command fills it: not what is there now
        elif recursive and not os.path.lexists(s) and prog != "mv":
            unseen.append(given)  # made by an earlier step (a clone, an unpack) or absent
        # (mv of a name nothing made fails, or lands at DEST/its name: judged so below)
    for d in dests:
        base = paths.normalise(d, cwd, home)
        prot = paths.protected_under(d, cwd, project, cfg, home)
        if any(_reaches(w, base, prot, recursive or relative) for w in unseen):
            f.blind_writes.append(d)
            continue
        for given, s in sources:
            if relative:
                root = os.path.normpath(os.path.join(base, given))
                f.raw_writes.extend(_under(root, s, prot))
            elif recursive and os.path.isdir(s):
                f.raw_writes.extend(paths.tree_copy_hits(s, d, cwd, project, cfg, home))
            else:
                f.raw_writes.extend(_under(os.path.join(base, os.path.basename(s)), s, prot))


def _kept(word: str, now: str, cdir: str, prog: str, cwd: str, home) -> str:
    """The part of a source's path that `cp --parents` / `rsync -R` recreate under DEST: the
    name as typed (relative to a `cd` made earlier in the command), without a leading `/`;
    rsync keeps only what follows a `/./` in it."""
    joined = bool(cdir) and word.startswith(cdir + "/")
    shown = word[len(cdir) + 1 :] if joined else word
    anchor = paths.normalise(cdir, cwd, home) if joined else cwd
    if shown[:1] == "/":
        anchor = "/"
    if prog == "rsync" and "/./" in shown:
        anchor = paths.normalise(shown.split("/./", 1)[0] or "/", anchor, home)
    return os.path.relpath(now, anchor)


def _under(root: str, src: str, prot: list[str]) -> list[str]:
    """The protected paths at or under `root` that copying `src` to `root` writes: those
    whose path relative to root exists under src (src itself for root)."""
    out = []
    for c in prot:
        if c == root:
            out.append(c)
        elif paths.is_under(c, root) and os.path.lexists(
            os.path.join(src, os.path.relpath(c, root))
        ):
            out.append(c)
    return out


def _reaches(word: str, base: str, prot: list[str], deep: bool) -> bool:
    """Whether an unseen source may land on a protected path under base: any of them for a
    tree copy; for a plain one only those directly in base whose name its last part (with
    every dynamic part as `*`) can match."""
    if deep:
        return bool(prot)
    from core.globs import fnmatchcase

    if _remote(word):
        word = word.split(":", 1)[1] or "*"
    pat = (paths.dyn_pattern(word) or word).rstrip("/").rsplit("/", 1)[-1] or "*"
    return any(os.path.dirname(c) == base and fnmatchcase(os.path.basename(c), pat) for c in prot)


def pass_through(f, cmd, cwd, project, home, cfg) -> None:
    """`cpio -p DEST` copies the files named on stdin to DEST by their relative names:
    DEST holding protected files is a blind write."""
    argv = cmd.argv
    if not any(
        w[:1] == "-" and w[1:2] != "-" and "p" in w or long_match(w, "--pass-through")
        for w in argv[1:]
    ):
        return
    ops = []
    skip = False
    for w in argv[1:]:
        if skip:
            skip = False
        elif w[:1] == "-":
            skip = w[:2] != "--" and w[-1:] in "RECHMFIOs" and len(w) == 2
        else:
            ops.append(w)
    for d in ops or ["."]:
        if _dynamic(d) or paths.holds_protected(d, cwd, project, cfg, home):
            f.blind_writes.append(d)
