"""Programs that write, move, link or delete local files: rm, cp, mv, ln, chmod, sed -i,
sort -o, dd, find -delete, ..."""

from __future__ import annotations

from core.shell import looks
from core.shell.command import (
    has,
    join,
    link,
    long_match,
    opts,
    pipe_path,
    prefix_of,
    prog_name,
    spawn,
    stdin_redirect,
    stdin_text,
    vague,
    vals,
)
from core.shell.judge import FIND_RM

_STDIN = ("-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0")


def script_file(c, path, p, raw, what):
    """The text of a script file operand (sed -f F, awk -f F, perl F) when the analysis
    parsed it: stdin fed by a here-string, a heredoc or echo. Anything else is code nobody
    saw: stdin from a file or a pipe, another descriptor or a process substitution
    (/dev/fd/N), a name built by $(..) or $VAR, or a file on disk (None, flagged)."""
    if path in _STDIN:
        body = stdin_text(raw)
        if body:
            c.code.append(body)
            return body
        if body is None:
            r = stdin_redirect(raw)
            if r is not None and r.op in ("<", "<>"):
                c.reads.append(r.target)
        c.flag("%s script on stdin the hooks cannot see" % what, unknown=True)
        return None
    if pipe_path(path) or path in p.dyn or vague(path):
        c.flag(
            "%s script from a pipe, substitution or variable the hooks cannot see" % what,
            unknown=True,
        )
        return None
    c.reads.append(path)
    c.flag("%s runs the script file %s, code the hooks cannot see" % (what, path), unknown=True)
    return None


def h_rm(c, a, p, raw):
    found, ops = opts(a, "")
    rec = has(found, "-r", "-R", "--recursive")
    force = has(found, "-f", "--force")
    c.writes.extend(ops)
    if rec and force:
        c.flag("recursive force delete", destructive=True)
    elif rec and any(
        o in ("/", "~", ".", "..", "*", "/*", p.ctx.home, p.ctx.home + "/") for o in ops
    ):
        c.flag("recursive delete of a top directory", destructive=True)
    if has(found, "--no-preserve-root"):
        c.flag("rm --no-preserve-root", destructive=True)


def h_writes_operands(short_arg="", long_arg=()):
    def h(c, a, p, raw):
        found, ops = opts(a, short_arg, long_arg)
        c.writes.extend(ops)

    return h


def h_touch(c, a, p, raw):
    found, ops = opts(a, "dtr", ("--date", "--reference", "--time"))
    c.reads.extend(vals(found, "-r", "--reference"))
    c.writes.extend(ops)


def h_chmod(c, a, p, raw):
    if c.program == "chattr":
        c.writes.extend(w for w in a if w[:1] not in ("+", "-", "="))
        if "-R" in a:
            c.flag("recursive chattr", destructive=True)
        return None
    ops = []
    rec = False
    ref = False
    i = 0
    mode_seen = False
    while i < len(a):
        w = a[i]
        if w == "--":
            ops.extend(a[i + 1 :])
            break
        name, eq, val = w.partition("=")
        if w == "-R" or long_match(name, "--recursive"):
            rec = True
        elif long_match(name, "--reference") and name[:5] == "--ref":
            ref = True  # --ref=FILE or --reference FILE: the mode comes from FILE
            if not eq and i + 1 < len(a):
                i += 1
                val = a[i]
            c.reads.append(val)
        elif w[:2] == "--":
            pass
        elif (
            w[:1] == "-"
            and len(w) > 1
            and not mode_seen
            and c.program == "chmod"
            and all(ch in "rwxXstugoa+-=,01234567" for ch in w[1:])
        ):
            mode_seen = True
        elif w[:1] == "-" and len(w) > 1:
            if "R" in w:
                rec = True
        else:
            ops.append(w)
        i += 1
    if not ref and not mode_seen and ops:
        ops = ops[1:]
    c.writes.extend(ops)
    if rec:
        c.flag("recursive %s" % c.program, destructive=True)


def h_ln(c, a, p, raw):
    found, ops = opts(a, "St", ("--suffix", "--target-directory"))
    tdir = vals(found, "-t", "--target-directory")
    if tdir:
        srcs = ops
        c.writes.extend(tdir)
    elif len(ops) == 1:
        srcs = ops
        c.writes.append(ops[0].rstrip("/").rsplit("/", 1)[-1])
    else:
        srcs = ops[:-1]
        c.writes.extend(ops[-1:])
    c.reads.extend(srcs)
    if has(found, "-s", "--symbolic"):
        # a symbolic link is a new name for every file under its target: a later recursive
        # read that follows links (find -L, grep -R) reads them there
        c.tree.extend(srcs)
    if not has(found, "-s", "--symbolic"):
        c.writes.extend(srcs)  # a hard link makes the source writable by a new name
    elif len(srcs) == 1 and (tdir or len(ops) >= 1):
        name = c.writes[-1] if not tdir else join(tdir[-1], srcs[0].rstrip("/").rsplit("/", 1)[-1])
        link(
            p,
            name,
            srcs[0],
            not tdir and len(ops) >= 2 and not has(found, "-T", "--no-target-directory"),
        )


def h_cp(c, a, p, raw):
    prog = c.program
    found, ops = opts(
        a,
        "tSo" if prog == "install" else "tS",
        (
            "--target-directory",
            "--suffix",
            "--backup",
            "--reflink",
            "--preserve",
            "--sparse",
            "--no-preserve",
            "--mode",
            "--owner",
            "--group",
        ),
    )
    if prog == "install":
        if has(found, "-d", "--directory"):
            c.writes.extend(ops)
            return
        found, ops = opts(
            a,
            "tSmogbCc",
            ("--target-directory", "--suffix", "--mode", "--owner", "--group", "--backup"),
        )
    tdir = vals(found, "-t", "--target-directory")
    if tdir:
        srcs = ops
        c.writes.extend(tdir)
    elif len(ops) >= 2:
        srcs = ops[:-1]
        c.writes.append(ops[-1])
    else:
        srcs = ops
    c.reads.extend(srcs)
    if prog == "cp" and has(found, "-s", "--symbolic-link") and len(srcs) == 1 and c.writes:
        link(p, c.writes[-1], srcs[0], not tdir)  # cp -s makes a symlink, not a copy
    if prog == "mv" or has(found, "-l", "--link"):
        c.writes.extend(srcs)
    if has(found, "-L", "--dereference") and has(found, "-r", "-R", "--recursive", "-a"):
        c.tree.extend(srcs)  # each link under them becomes a copy of what it leads to


def h_tee(c, a, p, raw):
    found, ops = opts(a, "", ("--output-error",))
    c.writes.extend(ops)


def h_sed(c, a, p, raw):
    inplace = False
    scripts = []
    sfiles = []  # -f FILE: scripts read from files
    files = []
    script_given = False
    i = 0
    n = len(a)
    while i < n:
        w = a[i]
        if w == "--":
            files.extend(a[i + 1 :])
            break
        if w[:2] == "--":
            name, eq, val = w.partition("=")
            for full in ("--in-place", "--expression", "--file"):
                if prefix_of(name, full) and not (full == "--file" and len(name) < 5):
                    name = full  # GNU sed takes --in-pl for --in-place
            if name == "--in-place":
                inplace = True
            elif name == "--expression":
                scripts.append(val if eq else (a[i + 1] if i + 1 < n else ""))
                script_given = True
                i += 0 if eq else 1
            elif name == "--file":
                sfiles.append(val if eq else (a[i + 1] if i + 1 < n else ""))
                script_given = True
                i += 0 if eq else 1
            elif name in ("--line-length",) and not eq:
                i += 1
            i += 1
            continue
        if w[:1] == "-" and len(w) > 1:
            j = 1
            while j < len(w):
                ch = w[j]
                if ch == "i":
                    inplace = True
                    if (
                        j == len(w) - 1
                        and w == "-i"
                        and i + 1 < n
                        and (
                            a[i + 1] == ""
                            or (
                                a[i + 1][:1] == "."
                                and "/" not in a[i + 1]
                                and len(a[i + 1]) < 10
                                and i + 2 < n
                            )
                        )
                    ):
                        i += 1  # BSD sed: -i '' / -i .bak
                    break
                if ch in "efl":
                    val = w[j + 1 :]
                    if not val and i + 1 < n:
                        val = a[i + 1]
                        i += 1
                    if ch == "e":
                        scripts.append(val)
                        script_given = True
                    elif ch == "f":
                        sfiles.append(val)
                        script_given = True
                    break
                j += 1
            i += 1
            continue
        if not script_given:
            scripts.append(w)
            script_given = True
        else:
            files.append(w)
        i += 1
    c.reads.extend(files)
    if inplace:
        c.writes.extend(files)
        if not files:
            c.flag("sed -i without a file", unknown=True)
    for f in sfiles:
        body = script_file(c, f, p, raw, "sed")
        if body is not None:
            scripts.append(body)
    for sc in scripts:
        p.ctx.budget.spend(len(sc) // 16)  # the scan below: a step per character, cheap ones
        if sc in p.dyn:
            c.flag(
                "sed script built by a substitution or variable the hooks cannot see", unknown=True
            )
        elif len(sc) > 20000:
            c.flag("sed script too long to analyse", unknown=True)
        else:
            _sed_script(c, sc)
    return set(scripts)


def _sed_script(c, s):
    """w/W/r/R file and the e command inside a sed script."""
    i = 0
    n = len(s)
    while i < n:
        while i < n and s[i] in " \t\n;{}!":
            i += 1
        # address(es)
        while i < n:
            ch = s[i]
            if ch in "0123456789$,~+ !":
                i += 1
            elif ch == "/" or ch == "\\":
                if ch == "\\":
                    i += 1
                    if i >= n:
                        return
                d = s[i]
                i += 1
                while i < n and s[i] != d:
                    i += 2 if s[i] == "\\" else 1
                i += 1
                while i < n and s[i] in "IM":
                    i += 1
            else:
                break
        if i >= n:
            return
        cmd = s[i]
        i += 1
        if cmd in "sy":
            if i >= n:
                return
            d = s[i]
            i += 1
            for _ in range(2):
                while i < n and s[i] != d:
                    i += 2 if s[i] == "\\" else 1
                i += 1
            flags = ""
            while i < n and s[i] not in ";\n}":
                if s[i] in "wW" and cmd == "s":
                    _sed_file(c, s, i + 1, True)
                    i = _eol(s, i)
                    break
                flags += s[i]
                i += 1
            if cmd == "s" and "e" in flags:
                c.flag("sed e runs a command", unknown=True)
        elif cmd in "wW":
            _sed_file(c, s, i, True)
            i = _eol(s, i)
        elif cmd in "rR":
            _sed_file(c, s, i, False)
            i = _eol(s, i)
        elif cmd == "e":
            c.flag("sed e runs a command", unknown=True)
            i = _eol(s, i)
        elif cmd in "aic":
            while True:
                k = _eol(s, i)
                if k > 1 and s[k - 2 : k - 1] == "\\" and k < n:
                    i = k
                    continue
                i = k
                break
        elif cmd in "btT:":
            while i < n and s[i] not in ";\n":
                i += 1


def _eol(s, i):
    k = s.find("\n", i)
    return len(s) if k < 0 else k + 1


def _sed_file(c, s, i, write):
    k = s.find("\n", i)
    name = (s[i:] if k < 0 else s[i:k]).strip()
    if name:
        (c.writes if write else c.reads).append(name)


def h_shred(c, a, p, raw):
    found, ops = opts(a, "ns", ("--iterations", "--size", "--random-source"))
    c.writes.extend(ops)
    c.flag("shred destroys file contents", destructive=True)


def h_truncate(c, a, p, raw):
    found, ops = opts(a, "sr", ("--size", "--reference"))
    c.reads.extend(vals(found, "-r", "--reference"))
    c.writes.extend(ops)


def h_dd(c, a, p, raw):
    skip = set()
    for w in a:
        k, eq, v = w.partition("=")
        if not eq:
            continue
        skip.add(w)
        if k == "if":
            c.reads.append(v)
        elif k == "of":
            c.writes.append(v)
    return skip


def h_sponge(c, a, p, raw):
    found, ops = opts(a, "")
    c.writes.extend(ops)


# sort's options that take a value, then every long option it has (an unknown one may be a
# prefix of one that writes or runs code)
_SORT_VALUED = (
    "--output",
    "--key",
    "--field-separator",
    "--buffer-size",
    "--temporary-directory",
    "--parallel",
    "--batch-size",
    "--files0-from",
    "--compress-program",
    "--sort",
    "--random-source",
)
_SORT_LONG = frozenset(
    _SORT_VALUED
    + (
        "--ignore-leading-blanks",
        "--dictionary-order",
        "--ignore-case",
        "--general-numeric-sort",
        "--ignore-nonprinting",
        "--month-sort",
        "--human-numeric-sort",
        "--numeric-sort",
        "--random-sort",
        "--reverse",
        "--version-sort",
        "--check",
        "--debug",
        "--merge",
        "--stable",
        "--unique",
        "--zero-terminated",
        "--help",
        "--version",
    )
)


def h_sort(c, a, p, raw):
    found, ops = opts(a, "oktST", _SORT_VALUED)
    c.writes.extend(vals(found, "-o", "--output"))
    c.reads.extend(ops)
    c.reads.extend(vals(found, "--files0-from"))
    for k, _ in found:
        if k[:2] == "--" and not any(long_match(k, x) for x in _SORT_LONG):
            c.flag("sort option %s the hooks do not know" % k, unknown=True)
    if vals(found, "--compress-program"):
        c.flag("sort --compress-program runs a command", unknown=True)
    return set(vals(found, "-k", "--key", "-t", "--field-separator"))


def h_uniq(c, a, p, raw):
    found, ops = opts(
        a, "fswD", ("--skip-fields", "--skip-chars", "--check-chars", "--all-repeated", "--group")
    )
    if ops:
        c.reads.append(ops[0])
    if len(ops) > 1:
        c.writes.append(ops[1])


def h_out_opt(short="o", long_=("--output",), arg_short="", arg_long=()):
    """A tool whose -o/--output FILE is its only write (shuf, gpg, ...)."""
    outs = frozenset(["-" + ch for ch in short] + list(long_))

    def h(c, a, p, raw):
        found, ops = opts(a, short + arg_short, long_ + arg_long)
        c.writes.extend(v for k, v in found if k in outs and v is not True)
        c.reads.extend(ops)

    return h


def h_xxd(c, a, p, raw):
    found, ops = opts(a, "cglosnC", ("-cols", "-len", "-seek", "-name"))
    if ops:
        c.reads.append(ops[0])
    if len(ops) > 1:
        c.writes.append(ops[1])


def _narrowed_digest(prog: str, a: list[str]) -> bool:
    """A digest of the files a name test picks (`find . -name .env -exec md5sum {} +`) is
    the digest of those files: a short secret's can be guessed back.  Of a whole tree it
    says nothing of one file's text."""
    return prog in looks.DIGESTS and any(w in _FIND_NAMES for w in a)


_FIND_NAMES = frozenset(
    "-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname".split()
    + "-samefile -inum -newer -links".split()
)


_RM_OPTS = frozenset(("-r", "-R", "-f", "-rf", "-fr", "-Rf", "-fR", "-v", "--recursive", "--force"))


def _removes_found(inner: list[str]) -> bool:
    """`rm -r[f] {}`: a recursive rm of exactly what find found, nothing else named (a plain
    `rm {}` stays an rm of the found files)."""
    return (
        len(inner) >= 2
        and prog_name(inner[0]) == "rm"
        and inner.count("{}") == 1
        and all(x == "{}" or x in _RM_OPTS for x in inner[1:])
        and any(x != "{}" and ("r" in x.lower() or x == "--recursive") for x in inner[1:])
    )


def h_find(c, a, p, raw):
    starts = []
    i = 0
    while i < len(a) and a[i][:1] not in ("-", "(", "!", ",") and a[i] != "\\(":
        starts.append(a[i])
        i += 1
    if i < len(a) and a[i] in ("-H", "-L", "-P"):
        pass
    # a word made by $(..), `..` or $VAR can be any primary or action (-delete, -exec,
    # -fprint): the starts (and "." when that word is the only one) may be written or deleted
    unseen = [w for w in starts if w in p.dyn]
    starts = [w for w in starts if w not in p.dyn]
    if not starts:
        starts = ["."]
    c.reads.extend(starts)
    skip = set()
    while i < len(a):
        w = a[i]
        if w in p.dyn:
            unseen.append(w)
            i += 1
            continue
        if w in ("-exec", "-execdir", "-ok", "-okdir"):
            j = i + 1
            while j < len(a) and a[j] not in (";", "+"):
                j += 1
            inner = a[i + 1 : j]
            skip.update(a[i + 1 : j + 1])
            if w in ("-exec", "-execdir") and _removes_found(inner):
                # find ... -exec rm -rf {} +: the found paths go, trees and all, like -delete
                c.writes.extend(starts)
                c.flag(FIND_RM, destructive=True)
                i = j + 1
                continue
            prog = prog_name(inner[0]) if inner else ""
            if not inner or not looks.only_looks(prog, inner[1:]) or _narrowed_digest(prog, a):
                c.tree.extend(starts)  # the command gets every file found under the starts
            start = starts[0] if len(starts) == 1 else "$(find-result)"
            spawn([x.replace("{}", start) for x in inner], p)
            i = j + 1
            continue
        if w == "-delete":
            c.writes.extend(starts)
            c.flag("find -delete", destructive=True)
        elif w in ("-fprint", "-fprint0", "-fls", "-fprintf") and i + 1 < len(a):
            c.writes.append(a[i + 1])
            skip.add(a[i + 1])
            i += 1
            if w == "-fprintf":
                i += 1
        elif w in (
            "-name",
            "-iname",
            "-path",
            "-ipath",
            "-wholename",
            "-iwholename",
            "-regex",
            "-iregex",
            "-lname",
            "-ilname",
            "-newer",
            "-samefile",
            "-printf",
            "-fstype",
            "-user",
            "-group",
            "-perm",
            "-size",
            "-type",
            "-mtime",
            "-mmin",
            "-atime",
            "-amin",
            "-ctime",
            "-cmin",
            "-maxdepth",
            "-mindepth",
            "-inum",
            "-links",
            "-uid",
            "-gid",
            "-used",
            "-context",
            "-regextype",
            "-xtype",
            "-files0-from",
        ) and i + 1 < len(a):
            if w in ("-newer", "-samefile", "-files0-from"):
                c.reads.append(a[i + 1])
            else:
                skip.add(a[i + 1])
            i += 1
        elif w[:1] == "-" and w not in _FIND_PLAIN and w[:6] != "-newer":
            c.flag("find %s is a primary the hooks do not know" % w, unknown=True)
        i += 1
    if unseen:
        c.reads.extend(unseen)
        c.writes.extend(starts)
        c.flag(
            "find %s: a word the hooks cannot see may be any action (-delete, -exec)" % unseen[0],
            unknown=True,
        )
    return skip


# find primaries and options that take no value and change nothing
_FIND_PLAIN = frozenset(
    (
        "-print",
        "-print0",
        "-ls",
        "-prune",
        "-quit",
        "-true",
        "-false",
        "-empty",
        "-executable",
        "-readable",
        "-writable",
        "-nouser",
        "-nogroup",
        "-depth",
        "-d",
        "-mount",
        "-xdev",
        "-noleaf",
        "-follow",
        "-daystart",
        "-ignore_readdir_race",
        "-noignore_readdir_race",
        "-not",
        "-a",
        "-and",
        "-o",
        "-or",
        "-H",
        "-L",
        "-P",
        "-O0",
        "-O1",
        "-O2",
        "-O3",
        "-help",
        "--help",
        "-version",
        "--version",
        "-delete",
        "-s",
        "-x",
        "-E",
        "-X",
    )
)


def h_dos2unix(c, a, p, raw):
    found, ops = opts(a, "", ())
    c.reads.extend(ops)
    if has(found, "-n", "--newfile"):
        c.writes.extend(ops[1::2])
    else:
        c.writes.extend(ops)


def h_split(c, a, p, raw):
    found, ops = opts(
        a,
        "abCdlnt",
        (
            "--suffix-length",
            "--bytes",
            "--line-bytes",
            "--lines",
            "--number",
            "--separator",
            "--additional-suffix",
            "--filter",
        ),
    )
    c.reads.extend(ops[:1])
    c.writes.append((ops[1] if len(ops) > 1 else "x") + "*")
    if has(found, "--filter"):
        c.flag("split --filter runs a command", unknown=True)


h_rmdir = h_writes_operands()
h_mkdir = h_writes_operands("mZ", ("--mode", "--context"))
h_mkfifo = h_writes_operands("mZ", ("--mode",))
h_mknod = h_writes_operands("mZ")
h_setfacl = h_writes_operands("mxMX")
h_shuf = h_out_opt("o", ("--output",), "nei", ("--head-count", "--input-range", "--random-source"))
h_gpg = h_out_opt("o", ("--output",), "urf", ("--recipient", "--local-user", "--homedir"))
