"""Symlinks that arrive in a command without `ln`: an archive extracted, a tree copied with
its links (cp -a/-r/-P, rsync), a link moved (mv), a repository cloned. Later writes in the
same command below what such a step wrote may go through a link to anywhere: they are
checked as that path below a target the analysis cannot know (`$ARRIVED/...`)."""

from __future__ import annotations

from core.shell.budget import TOO_COMPLEX, Bound
from core.shell.command import join, vague

ARRIVED = "$ARRIVED"  # the target of a link the analysis cannot see (dynamic: half-seen)

# programs whose writes may be symlinks or trees holding them
_ALWAYS = frozenset(("tar", "bsdtar", "unzip", "7z", "7za", "7zz", "cpio", "pax", "rsync", "mv"))
_ALWAYS |= frozenset(("ditto", "unar", "bsdcpio", "ark", "gio", "busybox", "unrar", "jar", "xar"))
_ALWAYS |= frozenset(("dpkg-deb", "rpm2archive", "lsar"))
_MODULES = frozenset(("zipfile", "tarfile", "shutil"))  # python -m zipfile -e A DIR
_GIT_TREE = frozenset(
    ("clone", "worktree", "checkout", "switch", "merge", "pull", "reset", "restore", "stash")
    + ("cherry-pick", "rebase", "am", "apply", "revert", "submodule")
)
_CP_LETTERS = frozenset("arRPds")
_CP_LONG = ("--archive", "--recursive", "--no-dereference", "--preserve", "--symbolic-link")


def _cp_keeps_links(argv: list[str]) -> bool:
    for w in argv[1:]:
        if w == "--":
            break
        if w[:2] == "--":
            name = w.split("=", 1)[0]
            if any(x.startswith(name) and len(name) > 3 for x in _CP_LONG):
                return True
        elif w[:1] == "-" and any(ch in _CP_LETTERS for ch in w[1:]):
            return True
    return False


def carrier(key: str, argv: list[str]) -> bool:
    """The command may leave symlinks where it writes."""
    if key in _ALWAYS:
        return True
    if key == "cp":
        return _cp_keeps_links(argv)
    if key == "dpkg":
        return any(w in ("-x", "--extract", "-X", "--vextract") for w in argv[1:])
    if key == "python" and "-m" in argv:
        k = argv.index("-m")
        return k + 1 < len(argv) and argv[k + 1] in _MODULES
    if key == "git":  # a tracked symlink checked out, pulled or applied is a link too
        return any(w in _GIT_TREE for w in argv[1:4])
    return False


def roots(c, cwd) -> list[str]:
    """Where a carrier may leave links: its writes and its path operands (dpkg -x DEB DIR,
    python -m zipfile -e A DIR name no write, or not that one)."""
    out = list(c.writes)
    for a in c.argv[1:]:
        if a[:1] == "-" or vague(a) or not ("/" in a or a == "."):
            continue
        w = a if a[:1] == "/" or not isinstance(cwd, str) else join(cwd, a)
        if w not in out:
            out.append(w)
    return out


def note(links: dict, writes: list[str]) -> None:
    """Remember what a carrier wrote: later paths below it may go through a link."""
    for w in writes:
        w = w.rstrip("/")
        if w and not vague(w) and w not in links:
            if len(links) >= 256:
                raise Bound(TOO_COMPLEX + " (more symlinks and copied trees than it follows)")
            links[w] = [ARRIVED]


def through(rest: str) -> list[str]:
    """The forms a path `rest` below an arrived root may take: a link at any level of it
    puts what follows under the unknown target."""
    comps = [p for p in rest.split("/") if p and p != "."]
    out = []
    for k in range(len(comps)):
        tail = "/".join(comps[k:])
        if tail != ".git":  # the repository's store, not a name a link would be written at
            out.append(ARRIVED + "/" + tail)
    return out if comps else [ARRIVED]
