"""Writes a shell command makes to whole trees, which its own words do not show: directory
copies, archives and patch files unpacked member by member, editors fed the files a lister
names, Python's zipfile/tarfile modules. Each adds what lands on protected paths to the facts
(raw_writes), or, when the members cannot be seen, the directories it may write (blind_writes).
"""

from __future__ import annotations

import os

from core import paths

TREE_COPIERS = frozenset(("cp", "rsync", "ditto", "scp", "mv", "install", "ln"))
UNPACKERS = frozenset(("tar", "bsdtar", "gtar", "unzip", "7z", "7za", "7zz", "cpio", "ar", "pax"))
PATCHERS = ("patch",)
ARCHIVE_LIMIT = 64 * 1024 * 1024


def python_unpack(f, cmd, mod, cwd, project, home, cfg):
    """`python -m zipfile -e A DIR` / `python -m tarfile -e A [DIR]` unpack like unzip/tar."""
    name, args = mod
    if name not in ("zipfile", "tarfile"):
        return
    for i, w in enumerate(args):
        if w in ("-e", "--extract") and i + 1 < len(args):
            dest = args[i + 2] if i + 2 < len(args) else "."
            f.raw_reads.append(args[i + 1])
            f.raw_writes.append(dest)
            if paths.holds_protected(dest, cwd, project, cfg, home):
                members = archive_members(cmd, cwd, home, args[i + 1])
                if members is None:
                    f.blind_writes.append(dest)
                else:
                    f.raw_writes.extend(landing(dest, members, cwd, project, home, cfg))
            return


# Programs that change the files they are given, and the ones that list files to give them.
EDITORS = frozenset(
    (
        "sed",
        "gsed",
        "perl",
        "ruby",
        "awk",
        "gawk",
        "truncate",
        "shred",
        "rm",
        "unlink",
        "tee",
        "dd",
        "cp",
        "mv",
        "install",
        "ln",
        "patch",
        "chmod",
        "yq",
        "black",
        "ruff",
        "prettier",
        "gofmt",
        "rustfmt",
        "clang-format",
        "dos2unix",
    )
)
LISTERS = frozenset(
    ("find", "gfind", "fd", "fdfind", "git", "grep", "egrep", "rg", "ag", "ack", "ls")
)


def fed_writes(f, cmd, prev, cwd, project, home, cfg):
    """`find . -name '*.py' | xargs sed -i ...`, `grep -rl x . | xargs ...`, `find . -exec
    sed -i ... {} +`: an editor fed the files a lister finds under a directory that holds
    sane-hooks files could change them. find's -name filters narrow it down; otherwise the
    whole directory counts."""
    if prev is None or cmd.program not in EDITORS or prev.program not in LISTERS:
        return
    is_find = prev.program in ("find", "gfind")
    fed = (
        "xargs" in cmd.wrappers
        or is_find
        and any(w in ("-exec", "-execdir", "-ok", "-okdir") for w in prev.argv)
    )
    if not fed:
        return
    f.fed_cmds.append(cmd)  # its '.' stands for files found under it, judged here
    roots = [r for r in prev.reads if os.path.isdir(paths.normalise(r, cwd, home))]
    if prev.program == "git":
        roots = [
            w
            for w in prev.argv[2:]
            if not w.startswith("-") and os.path.isdir(paths.normalise(w, cwd, home))
        ]
    roots = roots or ["."]
    names = None
    if is_find and not any(w in ("-o", "-or", "!", "-not") for w in prev.argv):
        names = [prev.argv[i + 1] for i, w in enumerate(prev.argv[:-1]) if w in ("-name", "-iname")]
    from core.globs import fnmatchcase

    for r in roots:
        for c in paths.protected_under(r, cwd, project, cfg, home):
            base = os.path.basename(c)
            if not names or all(fnmatchcase(base, n) for n in names):
                f.blind_writes.append(r)
                return


def tree_writes(f, cmd, cwd, project, home, cfg):
    """Writes whose files come from elsewhere (a directory copied over, an archive unpacked, a
    patch applied) into a directory that holds protected files: the protected files they
    would replace, or `blind_writes` when what they write cannot be seen."""
    from core.shell import programs

    prog = programs.key(cmd.program)
    is_git_patch = False
    if prog == "git":
        from core.shell.gitverbs import subcommand

        is_git_patch = subcommand(cmd.argv)[0] in ("apply", "am")  # not `git stash apply`
    if (
        prog not in TREE_COPIERS
        and prog not in UNPACKERS
        and prog != "dpkg"
        and prog not in PATCHERS
        and not is_git_patch
    ):
        return
    from core import treecopies  # copiers, unpackers and patchers only

    dests = [w for w in cmd.writes if paths.holds_protected(w, cwd, project, cfg, home)]
    if prog in ("tar", "bsdtar", "gtar") and any(
        w == "--absolute-names" or w[:1] == "-" and w[1:2] != "-" and "P" in w for w in cmd.argv[1:]
    ):
        dests = cmd.writes or ["."]  # -P: members may climb out with .. or be absolute
    if prog == "cpio" and any(
        w[:1] == "-" and w[1:2] != "-" and "i" in w and "t" not in w or w == "--extract"
        for w in cmd.argv[1:]
    ):
        dests = [cwd] if paths.holds_protected(cwd, cwd, project, cfg, home) else []
    if prog == "cpio":
        treecopies.pass_through(f, cmd, cwd, project, home, cfg)
    if not dests:
        return
    if prog in TREE_COPIERS or prog == "pax" and treecopies.pax_copies(cmd.argv):
        treecopies.copy_writes(f, cmd, prog, dests, cwd, project, home, cfg)
        return
    if prog == "dpkg":  # dpkg -x: a .deb's data members are a tar inside an ar: unseen
        f.blind_writes.extend(dests)
        return
    if prog in UNPACKERS or prog == "pax":
        members = archive_members(cmd, cwd, home)
        if members is None:
            f.blind_writes.extend(dests)
            return
        for d in dests:
            f.raw_writes.extend(landing(d, members, cwd, project, home, cfg))
        return
    body = None
    for r in cmd.reads[:1]:
        p = paths.normalise(r, cwd, home)
        try:
            if os.path.isfile(p) and os.path.getsize(p) <= ARCHIVE_LIMIT // 16:
                with open(p, "rb") as fh:
                    body = fh.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            body = None
    if body is None:
        f.blind_writes.extend(dests)
        return
    from core.shell.archives import patch_targets

    strip = [int(v[2:]) for v in cmd.argv if v.startswith("-p") and v[2:].isdigit()]
    targets = patch_targets(body, strip[-1] if strip else None, 1 if is_git_patch else None)
    f.raw_writes.extend(targets)


def landing(dest, members, cwd, project, home, cfg):
    """Where unpacked members land that matter: those outside dest (`..`) and those on a
    protected path (a big archive must not become a big list for every gate)."""
    base = paths.normalise(dest, cwd, home)
    prot = set(paths.protected_under(dest, cwd, project, cfg, home))
    out = []
    for m in members:
        t = os.path.normpath(os.path.join(base, m))
        if t in prot or not paths.is_under(t, base):
            out.append(t)
            if len(out) > 50:
                break
    return out


def archive_members(cmd, cwd, home, archive=None):
    """Member paths of the archive a tar/unzip/7z command unpacks (with --strip-components and
    unzip -j applied), or None when it cannot be seen (stdin, too big, not a tar or zip)."""
    archive = archive or (cmd.reads[0] if cmd.reads else None)
    if not archive:
        return None
    p = paths.normalise(archive, cwd, home)
    try:
        if not os.path.isfile(p) or os.path.getsize(p) > ARCHIVE_LIMIT:
            return None
        import zipfile

        if zipfile.is_zipfile(p):
            with zipfile.ZipFile(p) as z:
                infos = z.infolist()[:200000]
                if any((i.external_attr >> 16) & 0o170000 == 0o120000 for i in infos):
                    return None  # a symlink member: later members may write through it
                names = [i.filename for i in infos]
        else:
            import tarfile
            import time

            stop = time.monotonic() + 1.5  # a decompression bomb must not outlast the hook
            names = []
            with tarfile.open(p) as t:
                for i in t:
                    if i.issym() or i.islnk() or len(names) > 200000 or time.monotonic() > stop:
                        return None
                    names.append(i.name)
    except Exception:  # a damaged or unknown archive: we cannot see what it writes
        return None
    strip = 0
    for i, w in enumerate(cmd.argv):
        if w.startswith("--strip-components="):
            strip = int(w.split("=", 1)[1]) if w.split("=", 1)[1].isdigit() else strip
        elif (
            w in ("--strip-components", "--strip")
            and i + 1 < len(cmd.argv)
            and cmd.argv[i + 1].isdigit()
        ):
            strip = int(cmd.argv[i + 1])
    junk = cmd.program == "unzip" and any(w.startswith("-") and "j" in w for w in cmd.argv[1:])
    out = []
    for n in names:
        parts = [x for x in n.split("/") if x not in ("", ".")]
        parts = parts[strip:] if not junk else parts[-1:]
        if parts:
            out.append("/".join(parts))
    return out


def python_module(cmd):
    """`python -m MOD args`: (MOD, args) or None."""
    low = cmd.program.lower()
    if not (low.startswith("python") or low.startswith("pypy")):
        return None
    argv = cmd.argv
    for i, w in enumerate(argv[1:], 1):
        if w == "-m" and i + 1 < len(argv):
            return argv[i + 1], argv[i + 2 :]
        if w.startswith("-m") and len(w) > 2:
            return w[2:], argv[i + 1 :]
        if not w.startswith("-") or w in ("-c", "-"):
            return None
    return None


# interpreter options that keep it running our CLI and nothing else
