"""Archivers and patch: what they unpack or change."""

from __future__ import annotations

from core.shell.command import has, join, long_match, opts, risky_prefix, stdin_text, vals
from core.shell.feeds import NAMES_ON_STDIN


def h_patch(c, a, p, raw):
    found, ops = opts(
        a,
        "pioidDFBYzVgr",
        (
            "--strip",
            "--input",
            "--output",
            "--directory",
            "--ifdef",
            "--fuzz",
            "--prefix",
            "--basename-prefix",
            "--suffix",
            "--version-control",
            "--get",
            "--reject-file",
            "--quoting-style",
        ),
    )
    if has(found, "--dry-run", "-C", "--check"):
        c.reads.extend(ops)
        c.reads.extend(vals(found, "-i", "--input"))
        return
    d = (vals(found, "-d", "--directory") or [None])[-1]
    strip = vals(found, "-p", "--strip")
    c.writes.extend(vals(found, "-r", "--reject-file"))
    out = vals(found, "-o", "--output")
    inputs = vals(found, "-i", "--input")
    c.reads.extend(inputs)
    if len(ops) > 1:
        c.reads.append(ops[1])
    if out:
        c.writes.extend(out)
        c.reads.extend(ops[:1])
        return
    if ops:
        c.writes.append(join(d, ops[0]) if d else ops[0])
        return
    body = stdin_text(raw) if not inputs else None
    if body:
        targets = patch_targets(body, int(strip[0]) if strip and strip[0].isdigit() else None)
        if targets:
            c.writes.extend(join(d, t) if d else t for t in targets)
            return
    c.writes.append(d or ".")
    c.flag("patch targets not visible", unknown=True)


def patch_targets(body, strip, default_strip=None):
    out = []
    for line in body.split("\n"):
        if line.startswith("+++ ") or line.startswith("--- "):
            path = line[4:].split("\t")[0].strip()
            if path == "/dev/null" or not path:
                continue
            k = strip if strip is not None else default_strip
            if k:
                parts = path.split("/")
                path = "/".join(parts[k:]) if len(parts) > k else parts[-1]
            elif k is None and "/" in path:
                base = path.rsplit("/", 1)[1]
                if base not in out:
                    out.append(base)
            if path not in out:
                out.append(path)
        elif line.startswith("rename to ") or line.startswith("copy to "):
            path = line.split(" ", 2)[2]
            if path not in out:
                out.append(path)
    return out


_TAR_RISKY = (
    "--to-command",
    "--checkpoint-action",
    "--info-script",
    "--new-volume-script",
    "--rsh-command",
    "--rmt-command",
    "--use-compress-program",
    "--index-file",
    "--listed-incremental",
    "--remove-files",
    "--directory",
    "--file",
    "--files-from",
)


# compressors tar -I may name: they only filter the archive through stdin and stdout
_COMPRESSORS = frozenset(
    (
        "gzip", "gunzip", "pigz", "bzip2", "pbzip2", "lbzip2", "xz", "pixz", "lzma", "lzip",
        "plzip", "zstd", "zstdmt", "unzstd", "lz4", "lzop", "brotli", "compress",
    )
)  # fmt: skip


def _plain_compressor(prog: str) -> bool:
    """`zstd -T0 -19`: a known compressor with plain flags only (no file, no other program)."""
    words = prog.split()
    if not words or words[0].rsplit("/", 1)[-1] not in _COMPRESSORS:
        return False
    return all(
        w[:1] == "-" and w[1:].replace("-", "").replace("=", "").isalnum() for w in words[1:]
    )


def _remote_archive(name: str) -> bool:
    """GNU tar reads `host:file` (a colon before any slash) as a remote archive over rsh."""
    head, colon, _ = name.partition(":")
    return bool(colon) and bool(head) and "/" not in head


_TAR_SHORT_ARGS = "fCTXIbgHKLNVF"
_TAR_LONG_ARGS = (
    "--file",
    "--directory",
    "--files-from",
    "--exclude-from",
    "--use-compress-program",
    "--listed-incremental",
    "--format",
    "--to-command",
    "--checkpoint-action",
    "--index-file",
    "--info-script",
    "--new-volume-script",
    "--rsh-command",
    "--rmt-command",
    "--transform",
    "--xform",
    "--owner",
    "--group",
    "--mode",
    "--mtime",
    "--exclude",
    "--strip-components",
    "--blocking-factor",
    "--label",
    "--newer",
    "--after-date",
)


def _placed(a: list[str]) -> tuple[list[str], list[str]]:
    """tar's operands, each joined to the -C/--directory in force where it stands (a -C
    applies to the names after it, relative to the one before), and every such directory.
    A `./x` word may be `$PWD/x` (the analysis writes the project as `.`): it stands for
    itself too."""
    heres = ["."]
    dirs: list[str] = []
    out: list[str] = []
    i = 0
    n = len(a)
    while i < n:
        w = a[i]
        i += 1
        if w == "--":
            for o in a[i:]:
                out.extend(_under(heres, o))
            break
        val = None
        if w[:2] == "--":
            name, eq, v = w.partition("=")
            full = [x for x in _TAR_LONG_ARGS if x == name or long_match(name, x)]
            if name != "--" and full and not eq and i < n:
                v = a[i]
                i += 1
            if full and (full == ["--directory"] or name == "--directory"):
                val = v
        elif w[:1] == "-" and len(w) > 1:
            for j in range(1, len(w)):
                if w[j] in _TAR_SHORT_ARGS:
                    v = w[j + 1 :]
                    if not v and i < n:
                        v = a[i]
                        i += 1
                    if w[j] == "C":
                        val = v
                    break
        else:
            out.extend(_under(heres, w))
            continue
        if val:
            heres = _under(heres, val)
            dirs.extend(heres)
    return out, dirs


def _under(heres: list[str], w: str) -> list[str]:
    out = [join(h, w) for h in heres]
    if w[:2] == "./" and w not in out:
        out.append(w)
    return out


def _old_style(a: list[str]) -> list[str]:
    """tar's old options (`tar cfC x.tar dir .`): every letter is an option, and each one that
    takes a value takes the next word after the letters, in order."""
    out: list[str] = []
    k = 1
    for ch in a[0]:
        out.append("-" + ch)
        if ch in _TAR_SHORT_ARGS and k < len(a):
            out.append(a[k])
            k += 1
    return out + a[k:]


def h_tar(c, a, p, raw):
    a = list(a)
    if a and a[0][:1] != "-" and a[0] and all(ch.isalpha() for ch in a[0]):
        a = _old_style(a)
    # an exact option name wins over a prefix of a longer one (`--list` is not
    # `--listed-incremental`, `--checkpoint[=N]` not `--checkpoint-action`)
    a = ["-t" if w == "--list" else w for w in a if w.partition("=")[0] != "--checkpoint"]
    found, ops = opts(a, _TAR_SHORT_ARGS, _TAR_LONG_ARGS)
    archive = vals(found, "-f", "--file")
    c.reads.extend(vals(found, "-T", "--files-from", "-X", "--exclude-from"))
    c.writes.extend(vals(found, "-g", "--listed-incremental", "--index-file"))
    if any(v.startswith("exec") for v in vals(found, "--checkpoint-action")) or has(
        found, "--to-command", "--info-script", "-F", "--new-volume-script", "--rsh-command"
    ):
        c.flag("tar runs a command", unknown=True)
    for prog in vals(found, "-I", "--use-compress-program"):
        if not _plain_compressor(prog):
            c.flag("tar -I runs %s as its compressor" % prog, unknown=True)
    if has(found, "--rmt-command") or (
        not has(found, "--force-local") and any(_remote_archive(x) for x in archive)
    ):
        c.flag("tar on a host:file archive runs rsh/ssh and a remote command", unknown=True)
    abbr = risky_prefix(a, _TAR_RISKY)
    if abbr:
        c.flag("tar %s abbreviates an option that runs a command or writes" % abbr, unknown=True)
    # GNU tar takes any unambiguous prefix of a long option: `--extr` extracts
    extract = has(found, "-x", "--extract", "--get")
    create = has(
        found,
        "-c",
        "--create",
        "-r",
        "--append",
        "-u",
        "--update",
        "-A",
        "--catenate",
        "--concatenate",
        "--delete",
    )
    placed, dirs = _placed(a)
    if extract:
        c.reads.extend(x for x in archive if x != "-")
        if has(found, "-O", "--to-stdout"):
            pass
        elif ops:
            c.writes.extend(placed)
        else:
            c.writes.extend(dirs or ["."])
    elif create:
        c.writes.extend(x for x in archive if x != "-")
        c.reads.extend(placed)
        if has(found, "--remove-files"):
            c.writes.extend(placed)
    else:
        c.reads.extend(x for x in archive if x != "-")
    # operands and -C values are judged above, where they stand
    return set(vals(found, "--transform", "--xform", "--exclude", "-C", "--directory")) | set(ops)


def h_unzip(c, a, p, raw):
    if "-x" in a:
        a = a[: a.index("-x")]
    found, ops = opts(a, "dP", ())
    if ops:
        c.reads.append(ops[0])
    if has(found, "-l", "-t", "-v", "-z", "-Z", "-p", "-c"):
        return None
    d = (vals(found, "-d") or [None])[-1]
    members = ops[1:]
    if members:
        c.writes.extend(join(d, m) if d else m for m in members)
    else:
        c.writes.append(d or ".")


def h_zip(c, a, p, raw):
    for flag in ("-x", "-i"):
        if flag in a:
            a = a[: a.index(flag)]
    found, ops = opts(
        a,
        "bntPZO",
        (
            "--temp-path",
            "--suffixes",
            "--output-file",
            "--password",
            "--compression-method",
            "--unzip-command",
        ),
    )
    if (
        has(found, "--unzip-command", "-TT")
        or risky_prefix(a, ("--unzip-command",))
        or any(w[:3] == "-TT" for w in a)
    ):
        c.flag("zip -TT runs a command to test the archive", unknown=True)
    if ops:
        c.writes.append(ops[0])
        c.reads.extend(ops[1:])
        if has(found, "-m", "--move"):
            c.writes.extend(ops[1:])
    c.writes.extend(vals(found, "-O", "--output-file"))


def h_7z(c, a, p, raw):
    if not a:
        return None
    sub = a[0]
    ops = [x for x in a[1:] if x[:1] != "-"]
    outs = [x[2:] for x in a[1:] if x.startswith("-o")]
    if sub in ("x", "e"):
        c.reads.extend(ops[:1])
        c.writes.append(outs[-1] if outs else ".")
    elif sub in ("a", "u", "d", "rn"):
        c.writes.extend(ops[:1])
        c.reads.extend(ops[1:])
        if any(x.lower() == "-sdel" for x in a[1:]):
            c.writes.extend(ops[1:])  # -sdel deletes the files after adding them
    else:
        c.reads.extend(ops)


def h_gzip(c, a, p, raw):
    found, ops = opts(a, "SbLo", ("--suffix", "--output"))
    outs = vals(found, "-o", "--output")
    c.reads.extend(ops)
    if outs:
        c.writes.extend(outs)
    elif not has(found, "-c", "--stdout", "--to-stdout", "-t", "--test", "-l", "--list"):
        c.writes.extend(ops)


_CPIO_KNOWN = frozenset(
    "-o --create -i --extract -p --pass-through -t --list -a -b -B -c -d -f -k -l -L -m -n "
    "-s -S -u -v -V -0 --null --make-directories --preserve-modification-time "
    "--unconditional --verbose --quiet --dot --no-absolute-filenames --sparse "
    "--reset-access-time --link --dereference --swap --swap-bytes --swap-halfwords "
    "--to-stdout --only-verify-crc --no-preserve-owner --nonmatching --numeric-uid-gid "
    "-H --format -F --file -O -I -E --pattern-file -R --owner -C --io-size --block-size "
    "-D --directory --force-local --ignore-devno --renumber-inodes --device-independent "
    "--reproducible --preserve-owner".split()
)


def h_cpio(c, a, p, raw):
    """cpio -o writes an archive of the files named on stdin, -p copies them into DEST, -i
    unpacks an archive into the cwd (or -D), -t lists it. An option we do not know (-M runs
    with a message, --rsh-command runs a program, -r asks for names) is unknown."""
    found, ops = opts(
        a,
        "HFOIERCDM",
        ("--format", "--file", "--pattern-file", "--owner", "--io-size", "--block-size",
         "--directory", "--rsh-command", "--message"),
    )  # fmt: skip
    for k, _ in found:
        if k not in _CPIO_KNOWN:
            c.flag("cpio %s is an option the hooks do not know" % k, unknown=True)
    files = vals(found, "-F", "--file", "-O", "-I")
    if any(_remote_archive(x) for x in files) and not has(found, "--force-local"):
        c.flag("cpio on a host:file archive runs rsh/ssh", unknown=True)
    c.reads.extend(vals(found, "-E", "--pattern-file"))
    if has(found, "-o", "--create"):
        c.writes.extend(vals(found, "-F", "--file", "-O"))
        _names_on_stdin(c, raw)
    elif has(found, "-p", "--pass-through"):
        c.writes.extend(ops[:1] or ["."])
        _names_on_stdin(c, raw)
    elif has(found, "-i", "--extract") and not has(found, "--to-stdout", "-t", "--list"):
        c.reads.extend(vals(found, "-F", "--file", "-I"))
        c.writes.extend(vals(found, "-D", "--directory") or ["."])
    else:
        c.reads.extend(vals(found, "-F", "--file", "-I"))


def h_pax(c, a, p, raw):
    """pax: -w archives its operands (or the files named on stdin), -r unpacks into the cwd,
    -rw copies the operands under the last one keeping their paths, neither lists. -s renames
    members and -i asks for names: where they land is not seen."""
    found, ops = opts(a, "bfopsxBDEGTU", ())
    read, write = has(found, "-r"), has(found, "-w")
    archive = vals(found, "-f")
    if has(found, "-s", "-i", "-o"):
        c.flag("pax -s/-i/-o rename members or run with options the hooks do not read", True)
    if read and write:
        c.reads.extend(ops[:-1])
        c.writes.extend(ops[-1:])
    elif write:
        c.writes.extend(archive)
        c.tree.extend(ops)  # every file under them is copied into the archive
        c.reads.extend(ops)
        if not ops:
            _names_on_stdin(c, raw)
    elif read:
        c.reads.extend(archive)
        c.writes.append(".")
    else:
        c.reads.extend(archive)


def _names_on_stdin(c, raw) -> None:
    """The files it reads are named on stdin: here-doc text names them; a pipe from a lister
    (find, ls) gets the lister's trees (feeds.py); any other source of names is unseen."""
    text = stdin_text(raw)
    if text is not None:
        c.reads.extend(x.strip() for x in text.replace("\0", "\n").split("\n")[:256] if x.strip())
        return
    c.flag(NAMES_ON_STDIN, unknown=True)
