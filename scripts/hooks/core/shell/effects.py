"""Effects of one simple command (issue 3): wrappers peeled off, then what it reads, writes,
destroys, or runs that the analysis cannot see (`unknown`).

One handler per program family, registered in HANDLERS.  A handler gets the Command, its
arguments (argv[1:]), the parser (for code it runs: `bash -c`, `eval`, heredocs fed to a
shell) and the raw command (stdin: pipe, heredoc, herestring), fills reads / writes / flags,
and returns the argument values the generic "looks like a path" read rule must skip
(patterns, scripts, messages).  Unknown programs are normal commands: path-like arguments
are reads, nothing else.
"""

from core.shell.lexer import DYNAMIC, DYNPOS, Raw

__all__ = ["Command", "expand", "prog_name"]


class Command:
    """One simple command that would run."""

    __slots__ = (
        "argv",
        "program",
        "env",
        "redirects",
        "reads",
        "writes",
        "destructive",
        "unknown",
        "reasons",
        "stdin_is_data",
        "text",
        "wrappers",
        "code",
        "cwd",
    )

    def __init__(self):
        self.argv = []
        self.program = ""
        self.env = {}
        self.redirects = []
        self.reads = []
        self.writes = []
        self.destructive = False
        self.unknown = False
        self.reasons = []
        self.stdin_is_data = False
        self.text = ""
        self.wrappers = []
        self.code = []
        self.cwd = None  # after an earlier `cd` in the same command: where it runs

    def __repr__(self):
        return "Command(%r)" % (self.argv,)

    def flag(self, reason, unknown=False, destructive=False):
        if unknown:
            self.unknown = True
        if destructive:
            self.destructive = True
        if reason not in self.reasons:
            self.reasons.append(reason)


# ---------------------------------------------------------------------------- helpers


_NOT_FILES = frozenset(
    (
        "/dev/null",
        "/dev/zero",
        "/dev/stdout",
        "/dev/stderr",
        "/dev/stdin",
        "/dev/tty",
        "/dev/random",
        "/dev/urandom",
        "/dev/full",
        "-",
        "",
    )
)

_DISKS = (
    "/dev/sd",
    "/dev/hd",
    "/dev/vd",
    "/dev/xvd",
    "/dev/nvme",
    "/dev/mmcblk",
    "/dev/disk",
    "/dev/rdisk",
    "/dev/md",
    "/dev/dm-",
    "/dev/mapper/",
    "/dev/loop",
    "/dev/sr",
)

_VAGUE = frozenset("$`*?[")


def prog_name(w):
    """Normalised program name: basename, quotes and a leading backslash already gone."""
    j = w.rfind("/")
    if j >= 0:
        w = w[j + 1 :]
    w = w.lstrip("\\")
    if w[-4:].lower() == ".exe":
        w = w[:-4]
    return w


def vague(p):
    """A path the analysis cannot pin down: unexpanded $VAR, $(..), backtick or a glob."""
    for ch in p:
        if ch in _VAGUE:
            return True
    return False


def pathlike(a):
    return (
        (a[:1] in (".", "~", "/") or "/" in a)
        and a[:1] != "-"
        and "\n" not in a
        and " " not in a
        and "://" not in a
    )


def opts(a, short_arg="", long_arg=(), first_operand_stops=False):
    """Generic getopt: -> (list of (name, value|True), operands).  `short_arg` lists short
    options that take a value (attached or next word); `long_arg` long ones (--x=v or --x v)."""
    found = []
    ops = []
    i = 0
    n = len(a)
    while i < n:
        w = a[i]
        if w == "--":
            ops.extend(a[i + 1 :])
            break
        if w[:2] == "--":
            name, eq, val = w.partition("=")
            if eq:
                found.append((name, val))
            elif name in long_arg and i + 1 < n:
                found.append((name, a[i + 1]))
                i += 1
            else:
                found.append((name, True))
        elif w[:1] == "-" and len(w) > 1:
            j = 1
            while j < len(w):
                ch = w[j]
                if ch in short_arg:
                    if j + 1 < len(w):
                        found.append(("-" + ch, w[j + 1 :]))
                    elif i + 1 < n:
                        found.append(("-" + ch, a[i + 1]))
                        i += 1
                    else:
                        found.append(("-" + ch, ""))
                    break
                found.append(("-" + ch, True))
                j += 1
        else:
            if first_operand_stops:
                ops.extend(a[i:])
                break
            ops.append(w)
        i += 1
    return found, ops


def _has(found, *names):
    for k, _ in found:
        if k in names:
            return True
    return False


def _vals(found, *names):
    return [v for k, v in found if k in names and v is not True]


def _stdin_redirect(raw):
    for r in reversed(raw.redirs):
        if r.fd in (None, 0) and r.op in ("<<", "<<-", "<<<", "<", "<>"):
            return r
    return None


def stdin_text(raw):
    """The text a command gets on stdin when the analysis can see it; None when it cannot
    (a pipe from curl, `< file`); '' when nothing is fed."""
    r = _stdin_redirect(raw)
    if r is not None:
        return None if r.op in ("<", "<>") else (r.body or "")
    if not raw.piped:
        return ""
    prev = raw.prev
    pc = prev.cmd if prev is not None else None
    if pc is None or pc.unknown:
        return None
    a = pc.argv[1:]
    if pc.program == "echo":
        while a and a[0] in ("-n", "-e", "-E", "-ne", "-en"):
            a = a[1:]
        return " ".join(a) + "\n"
    if pc.program == "printf" and len(a) == 1 and "%" not in a[0]:
        return a[0].replace("\\n", "\n").replace("\\t", "\t")
    if pc.program == "cat" and not a:
        r = _stdin_redirect(prev)
        if r is not None and r.op != "<":
            return r.body or ""
    return None


def _spawn(words, p, piped=False, prev=None):
    """Run words as a command of their own (find -exec, parallel, flock ...)."""
    if words:
        expand(Raw(list(words), [], [], piped, prev), p)


def _stdin_code(c, a, p, raw, lang, shell=False):
    """An interpreter with no script: its stdin is code."""
    if not c.stdin_is_data:
        return
    body = stdin_text(raw)
    if body is None:
        r = _stdin_redirect(raw)
        if r is not None and r.op in ("<", "<>"):
            c.reads.append(r.target)
        c.flag("script piped into %s" % lang if shell else "%s code on stdin" % lang, unknown=True)
        return
    if body == "":
        return
    c.code.append(body)
    if shell:
        p.subparse(body, pos=list(a))
    else:
        c.flag("%s code on stdin" % lang, unknown=True)


# ---------------------------------------------------------------------------- wrappers
# Each returns the wrapped command's words, or None when the wrapper runs nothing itself.


def _env_assigns(c, a):
    i = 0
    while (
        i < len(a)
        and "=" in a[i]
        and a[i][:1] not in ("-", "=")
        and a[i].split("=", 1)[0].replace("_", "a").isalnum()
    ):
        k, _, v = a[i].partition("=")
        c.env[k] = v
        i += 1
    return a[i:]


def _w_sudo(c, a, p, raw):
    found, rest = opts(
        a[1:],
        "ugCDhprtTU",
        (
            "--user",
            "--group",
            "--chdir",
            "--host",
            "--prompt",
            "--role",
            "--type",
            "--close-from",
            "--command-timeout",
            "--other-user",
        ),
        True,
    )
    if _has(found, "-e", "--edit"):
        return ["sudoedit"] + rest
    rest = _env_assigns(c, rest)
    if not rest and _has(found, "-s", "--shell", "-i", "--login"):
        return ["sh"]  # a root shell reading its stdin
    return rest or None


def _w_doas(c, a, p, raw):
    found, rest = opts(a[1:], "uC", (), True)
    if not rest and _has(found, "-s"):
        return ["sh"]
    return rest or None


def _w_env(c, a, p, raw):
    i = 1
    a = list(a)
    while i < len(a):
        w = a[i]
        if w == "--":
            i += 1
            break
        if w in ("-u", "--unset", "-P"):
            i += 2
            continue
        if w in ("-C", "--chdir"):
            _cd(p.ctx, a[i + 1] if i + 1 < len(a) else "")
            i += 2
            continue
        if w.startswith("--chdir="):
            _cd(p.ctx, w[8:])
            i += 1
            continue
        if (
            w in ("-S", "--split-string")
            or w.startswith("--split-string=")
            or (w.startswith("-S") and len(w) > 2)
        ):
            if w in ("-S", "--split-string"):
                text = a[i + 1] if i + 1 < len(a) else ""
                i += 2
            else:
                text = w[15:] if w.startswith("--") else w[2:]
                i += 1
            a[i:i] = text.split()
            continue
        if w[:1] == "-" and len(w) > 1:
            i += 1
            continue
        break
    rest = _env_assigns(c, a[i:])
    return rest or None


def _w_plain(short_arg="", long_arg=()):
    def w(c, a, p, raw):
        found, rest = opts(a[1:], short_arg, long_arg, True)
        return rest or None

    return w


def _w_nice(c, a, p, raw):
    rest = a[1:]
    while rest and rest[0][:1] == "-":
        if rest[0] in ("-n", "--adjustment"):
            rest = rest[2:]
        elif rest[0] == "--":
            rest = rest[1:]
            break
        else:
            rest = rest[1:]
    return rest or None


def _w_timeout(c, a, p, raw):
    found, rest = opts(a[1:], "sk", ("--signal", "--kill-after"), True)
    return rest[1:] or None


def _w_time(c, a, p, raw):
    found, rest = opts(a[1:], "of", ("--output", "--format"), True)
    for v in _vals(found, "-o", "--output"):
        c.writes.append(v)
    return rest or None


def _w_command(c, a, p, raw):
    found, rest = opts(a[1:], "", (), True)
    if _has(found, "-v", "-V"):
        return None
    return rest or None


def _w_exec(c, a, p, raw):
    found, rest = opts(a[1:], "a", (), True)
    return rest or None


def _w_ionice(c, a, p, raw):
    found, rest = opts(a[1:], "cnp", ("--class", "--classdata", "--pid", "--pgid", "--uid"), True)
    if _has(found, "-p", "--pid", "-P", "--pgid", "-u", "--uid"):
        return None
    return rest or None


def _w_taskset(c, a, p, raw):
    found, rest = opts(a[1:], "", (), True)
    if _has(found, "-p", "--pid"):
        return None
    return rest[1:] or None


def _w_chrt(c, a, p, raw):
    found, rest = opts(a[1:], "T", ("--sched-runtime", "--sched-period", "--sched-deadline"), True)
    if _has(found, "-p", "--pid"):
        return None
    return rest[1:] or None


def _w_chroot(c, a, p, raw):
    found, rest = opts(a[1:], "", ("--userspec", "--groups"), True)
    return rest[1:] or None


def _w_trace(c, a, p, raw):
    found, rest = opts(a[1:], "oeEpPsSuUaIXb", ("--output",), True)
    for v in _vals(found, "-o", "--output"):
        c.writes.append(v)
    if _has(found, "-p"):
        return None
    return rest or None


def _w_valgrind(c, a, p, raw):
    rest = a[1:]
    while rest and rest[0][:1] == "-":
        if rest[0].startswith("--log-file="):
            c.writes.append(rest[0][11:])
        rest = rest[1:]
    return rest or None


def _w_run(short_arg="", long_arg=()):
    """`uv run`, `poetry run`, `conda run -n x`: the rest is a command."""

    def w(c, a, p, raw):
        if len(a) < 2 or a[1] != "run":
            return None
        found, rest = opts(a[2:], short_arg, long_arg, True)
        return rest or None

    return w


def _w_busybox(c, a, p, raw):
    return a[1:] or None


def _w_xargs(c, a, p, raw):
    rest = a[1:]
    rep = None
    i = 0
    n = len(rest)
    while i < n:
        w = rest[i]
        if w == "--":
            i += 1
            break
        if w[:1] != "-" or w == "-":
            break
        name, eq, val = w.partition("=")
        if w[:2] == "--":
            if name == "--replace":
                rep = val if eq else "{}"
            elif name == "--arg-file":
                c.reads.append(val if eq else (rest[i + 1] if i + 1 < n else ""))
                i += 0 if eq else 1
            elif name in ("--eof", "--max-lines"):
                pass
            elif not eq and name in (
                "--max-args",
                "--max-procs",
                "--max-chars",
                "--delimiter",
                "--process-slot-var",
            ):
                i += 1
            i += 1
            continue
        ch = w[1]
        if ch in "IaLnPsd":
            val = w[2:]
            if not val and i + 1 < n:
                val = rest[i + 1]
                i += 1
            if ch == "I":
                rep = val
            elif ch == "a":
                c.reads.append(val)
        elif ch == "i":
            rep = w[2:] or "{}"
        i += 1
    rest = rest[i:] or ["echo"]
    feed = "$(xargs-input)"
    prev = raw.prev.cmd if raw.piped and raw.prev is not None else None
    if (
        prev is not None
        and prev.program == "find"
        and prev.reads
        and not any(vague(r) for r in prev.reads)
    ):
        feed = prev.reads[0]
    if rep:
        return [w.replace(rep, feed) for w in rest]
    return rest + [feed]


WRAPPERS = {
    "sudo": _w_sudo,
    "doas": _w_doas,
    "env": _w_env,
    "nohup": _w_plain(),
    "setsid": _w_plain(),
    "time": _w_time,
    "nice": _w_nice,
    "timeout": _w_timeout,
    "ionice": _w_ionice,
    "stdbuf": _w_plain("ioe", ("--input", "--output", "--error")),
    "command": _w_command,
    "builtin": _w_plain(),
    "exec": _w_exec,
    "xargs": _w_xargs,
    "taskset": _w_taskset,
    "chrt": _w_chrt,
    "caffeinate": _w_plain("tw"),
    "unbuffer": _w_plain(),
    "torsocks": _w_plain(),
    "proxychains": _w_plain("f"),
    "proxychains4": _w_plain("f"),
    "busybox": _w_busybox,
    "toybox": _w_busybox,
    "chroot": _w_chroot,
    "strace": _w_trace,
    "ltrace": _w_trace,
    "valgrind": _w_valgrind,
    "uv": _w_run(
        "p",
        (
            "--python",
            "--with",
            "--project",
            "--directory",
            "--package",
            "--extra",
            "--group",
            "--env-file",
            "--index",
            "--from",
        ),
    ),
    "poetry": _w_run(),
    "pipenv": _w_run(),
    "pdm": _w_run(),
    "hatch": _w_run(),
    "rye": _w_run(),
    "conda": _w_run("np", ("--name", "--prefix")),
    "mamba": _w_run("np", ("--name", "--prefix")),
    "micromamba": _w_run("np", ("--name",)),
    "nsenter": _w_plain("tTSG"),
    "unshare": _w_plain(),
    "firejail": _w_plain(),
    "catchsegv": _w_plain(),
    "systemd-run": _w_plain(
        "upMEH",
        (
            "--unit",
            "--property",
            "--machine",
            "--setenv",
            "--host",
            "--description",
            "--slice",
            "--uid",
            "--gid",
            "--working-directory",
            "--on-calendar",
            "--on-active",
        ),
    ),
}


# ---------------------------------------------------------------------------- handlers


def _h_default(c, a, p, raw):
    return None


def _h_readers(c, a, p, raw):
    """cat, head, base64 ...: every operand is read."""
    if c.program == "iconv":
        found, ops = opts(a, "fto", ("--from-code", "--to-code", "--output"))
        c.writes.extend(_vals(found, "-o", "--output"))
        c.reads.extend(ops)
        return None
    if c.program == "tree":
        found, ops = opts(
            a,
            "oLPIHT",
            (
                "--filelimit",
                "--fromfile",
                "--charset",
                "--sort",
                "--timefmt",
                "--hintro",
                "--houtro",
            ),
        )
        c.writes.extend(_vals(found, "-o"))
        c.reads.extend(ops)
        return None
    found, ops = opts(a, "nNcbwi" if c.program in ("head", "tail") else "")
    c.reads.extend(ops)


def _h_grep(c, a, p, raw):
    prog = c.program
    short = "efmABCdDX" if prog in ("grep", "egrep", "fgrep", "zgrep") else "efmABCtTgjrM"
    long_ = (
        "--regexp",
        "--file",
        "--max-count",
        "--after-context",
        "--before-context",
        "--context",
        "--type",
        "--type-not",
        "--glob",
        "--iglob",
        "--threads",
        "--replace",
        "--max-depth",
        "--max-filesize",
        "--ignore-file",
        "--include",
        "--exclude",
        "--exclude-dir",
        "--label",
        "--color",
        "--colors",
        "--sort",
        "--sortr",
        "--type-add",
        "--encoding",
        "--engine",
        "--pre",
        "--path-separator",
        "--context-separator",
        "--field-match-separator",
        "--max-columns",
    )
    found, ops = opts(a, short, long_)
    skip = set(
        _vals(
            found,
            "-e",
            "--regexp",
            "-g",
            "--glob",
            "--iglob",
            "--include",
            "--exclude",
            "--exclude-dir",
            "-r",
            "--replace",
        )
    )
    pats = _vals(found, "-f", "--file")
    c.reads.extend(pats)
    if _vals(found, "--pre"):
        c.flag("rg --pre runs a command", unknown=True)
    if (
        not _has(found, "-e", "--regexp", "-f", "--file")
        and ops
        and not _has(found, "--files", "--type-list")
    ):
        skip.add(ops[0])
        ops = ops[1:]
    c.reads.extend(ops)
    return skip


def _h_cd(c, a, p, raw):
    found, ops = opts(a, "")
    target = ops[0] if ops else p.ctx.home
    c.reads.extend(ops[:1])
    if c.program == "popd":
        p.ctx.cwd = p.ctx.stack.pop() if p.ctx.stack else DYNAMIC
        return None
    if c.program == "pushd":
        p.ctx.stack.append(p.ctx.cwd)
    _cd(p.ctx, target)


def _cd(ctx, target):
    if target == "-" or vague(target) or ctx.cwd is DYNAMIC and target[:1] != "/":
        ctx.cwd = DYNAMIC
    elif target[:1] == "/" or ctx.cwd is None:
        ctx.cwd = target.rstrip("/") or "/"
    else:
        ctx.cwd = _join(ctx.cwd, target)


def _join(base, p):
    if p[:1] == "/":
        return p
    if p in ("", "."):
        return base
    if base == ".":
        return p
    return base.rstrip("/") + "/" + p


# variables whose value is a command some program runs, and ones that load code
_ENV_COMMANDS = frozenset(
    (
        "GIT_SSH_COMMAND",
        "GIT_SSH",
        "GIT_EDITOR",
        "GIT_SEQUENCE_EDITOR",
        "GIT_PAGER",
        "GIT_ASKPASS",
        "SSH_ASKPASS",
        "SUDO_ASKPASS",
        "EDITOR",
        "VISUAL",
        "PAGER",
        "MANPAGER",
        "GIT_EXTERNAL_DIFF",
        "PROMPT_COMMAND",
        "LESSOPEN",
        "LESSCLOSE",
        "GIT_PROXY_COMMAND",
    )
)
_ENV_LOADS = frozenset(
    (
        "LD_PRELOAD",
        "LD_AUDIT",
        "DYLD_INSERT_LIBRARIES",
        "BASH_ENV",
        "ENV",
        "PERL5OPT",
        "RUBYOPT",
        "GIT_CONFIG_PARAMETERS",
        "GIT_CONFIG_COUNT",
        "PYTHONSTARTUP",
        "PYTHONHOME",
        "ZDOTDIR",
        "PYTHONINSPECT",
    )
)


def _env_code(c, env, p):
    for k, v in env.items():
        if k in _ENV_COMMANDS and v.strip():
            c.code.append(v)
            p.subparse(v)
        elif (
            k in _ENV_LOADS
            or k == "NODE_OPTIONS"
            and any(x in v for x in ("-r", "require", "import", "loader"))
        ):
            c.flag("%s makes the program load code" % k, unknown=True)


def _h_declare(c, a, p, raw):
    ctx = p.ctx
    env = {}
    for w in a:
        name, eq, val = w.partition("=")
        if eq and w[:1] not in ("-", "+"):
            env[name.rstrip("+")] = val
    if env:
        _env_code(c, env, p)
    # `declare -n r=x`: $r is whatever x holds when it is used
    ref = any(w[:1] == "-" and "n" in w[1:] and w[1:2] != "-" for w in a)
    for w in a:
        if w[:1] in ("-", "+"):
            continue
        name, eq, val = w.partition("=")
        if eq:
            ctx.setvar(name.rstrip("+"), None if ref else val)
        else:
            ctx.vars.setdefault(name, None)


def _h_set(c, a, p, raw):
    i = 0
    while i < len(a):
        w = a[i]
        if w == "--":
            i += 1
            break
        if w[:1] in ("-", "+") and len(w) > 1:
            i += 2 if "o" in w[1:] else 1
            continue
        break
    if i < len(a) or "--" in a:
        if p.pos is not DYNPOS:
            p.pos = list(a[i:])


def _h_shift(c, a, p, raw):
    if p.pos is DYNPOS or p.pos is None:
        return
    k = int(a[0]) if a and a[0].isdigit() else 1
    p.pos = p.pos[k:]


def _h_at(c, a, p, raw):
    found, ops = opts(a, "fqtmMuv", ())
    files = _vals(found, "-f")
    if files:
        c.reads.extend(files)
        c.flag("schedules a script file", unknown=True)
    elif not _has(found, "-l", "-r", "-d", "-c"):
        _stdin_code(c, [], p, raw, "sh", shell=True)
    return set(ops)


def _h_read(c, a, p, raw):
    found, ops = opts(a, "adinNptu", ())
    for name in ops + _vals(found, "-a"):
        p.ctx.vars[name] = None


def _h_unset(c, a, p, raw):
    for w in a:
        if w[:1] != "-":
            p.ctx.vars[w] = ""


def _h_printf(c, a, p, raw):
    if len(a) >= 2 and a[0] == "-v":
        p.ctx.vars[a[1]] = None
    return set(a[:1])


def _h_echo(c, a, p, raw):
    return None


def _h_rm(c, a, p, raw):
    found, ops = opts(a, "")
    rec = _has(found, "-r", "-R", "--recursive")
    force = _has(found, "-f", "--force")
    c.writes.extend(ops)
    if rec and force:
        c.flag("recursive force delete", destructive=True)
    elif rec and any(
        o in ("/", "~", ".", "..", "*", "/*", p.ctx.home, p.ctx.home + "/") for o in ops
    ):
        c.flag("recursive delete of a top directory", destructive=True)
    if _has(found, "--no-preserve-root"):
        c.flag("rm --no-preserve-root", destructive=True)


def _h_writes_operands(short_arg="", long_arg=()):
    def h(c, a, p, raw):
        found, ops = opts(a, short_arg, long_arg)
        c.writes.extend(ops)

    return h


def _h_touch(c, a, p, raw):
    found, ops = opts(a, "dtr", ("--date", "--reference", "--time"))
    c.reads.extend(_vals(found, "-r", "--reference"))
    c.writes.extend(ops)


def _h_chmod(c, a, p, raw):
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
        if w in ("-R", "--recursive"):
            rec = True
        elif w.startswith("--reference="):
            ref = True
            c.reads.append(w[12:])
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


def _h_ln(c, a, p, raw):
    found, ops = opts(a, "St", ("--suffix", "--target-directory"))
    tdir = _vals(found, "-t", "--target-directory")
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
    if not _has(found, "-s", "--symbolic"):
        c.writes.extend(srcs)  # a hard link makes the source writable by a new name
    elif len(srcs) == 1 and (tdir or len(ops) >= 1):
        name = c.writes[-1] if not tdir else _join(tdir[-1], srcs[0].rstrip("/").rsplit("/", 1)[-1])
        _link(
            p,
            name,
            srcs[0],
            not tdir and len(ops) >= 2 and not _has(found, "-T", "--no-target-directory"),
        )


def _link(p, name, raw_target, maybe_dir):
    """Remember a symlink this command makes, so later writes through it are seen. A dynamic
    or globbed target is kept as it is (the write through it is then half-seen, not
    missed); `ln -s T D` into an existing directory D makes D/<name of T>."""
    cwd = p.ctx.cwd if isinstance(p.ctx.cwd, str) else None
    names = [name]
    if maybe_dir:
        names.append(_join(name.rstrip("/"), raw_target.rstrip("/").rsplit("/", 1)[-1]))
    for name in names:
        targets = [raw_target]
        if raw_target[:1] != "/" and "/" in name.rstrip("/"):
            # relative to the link's directory; '$PWD/..' renders as './..', so keep both
            targets.insert(0, _join(name.rstrip("/").rsplit("/", 1)[0], raw_target))
        name = _norm(_join(cwd, name) if cwd else name)
        targets = [_norm(_join(cwd, t) if cwd and t[:1] not in ("/", "$") else t) for t in targets]
        if not vague(name) and len(p.ctx.links) < 256:
            p.ctx.links[name.rstrip("/")] = [t.rstrip("/") or "/" for t in targets]


def _h_cp(c, a, p, raw):
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
        found2 = [k for k, v in found]
        if "-d" in found2 or "--directory" in found2:
            c.writes.extend(ops)
            return
        found, ops = opts(
            a,
            "tSmogbCc",
            ("--target-directory", "--suffix", "--mode", "--owner", "--group", "--backup"),
        )
    tdir = _vals(found, "-t", "--target-directory")
    if tdir:
        srcs = ops
        c.writes.extend(tdir)
    elif len(ops) >= 2:
        srcs = ops[:-1]
        c.writes.append(ops[-1])
    else:
        srcs = ops
    c.reads.extend(srcs)
    if prog == "cp" and _has(found, "-s", "--symbolic-link") and len(srcs) == 1 and c.writes:
        _link(p, c.writes[-1], srcs[0], not tdir)  # cp -s makes a symlink, not a copy
    if prog == "mv" or _has(found, "-l", "--link"):
        c.writes.extend(srcs)


def _h_tee(c, a, p, raw):
    found, ops = opts(a, "", ("--output-error",))
    c.writes.extend(ops)


def _h_sed(c, a, p, raw):
    inplace = False
    scripts = []
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
            if name == "--in-place":
                inplace = True
            elif name == "--expression":
                scripts.append(val if eq else (a[i + 1] if i + 1 < n else ""))
                script_given = True
                i += 0 if eq else 1
            elif name == "--file":
                c.reads.append(val if eq else (a[i + 1] if i + 1 < n else ""))
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
                        c.reads.append(val)
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
    for sc in scripts:
        if len(sc) > 20000:
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


_INTERP = {
    "python": ("python", "c", (), "WXQ", ("--check-hash-based-pycs",), "m"),
    "pypy": ("python", "c", (), "WXQ", (), "m"),
    "node": (
        "node",
        "ep",
        ("--eval", "--print"),
        "rC",
        (
            "--require",
            "--import",
            "--loader",
            "--experimental-loader",
            "--conditions",
            "--input-type",
            "--env-file",
            "--title",
            "--inspect-port",
            "--stack-size",
        ),
        "",
    ),
    "nodejs": None,
    "ts-node": None,
    "tsx": None,
    "ruby": ("ruby", "e", (), "IrCE", (), ""),
    "php": ("php", "rBRE", (), "cdztS", (), "f"),
    "lua": ("lua", "e", (), "l", (), ""),
    "luajit": None,
    "rscript": ("R", "e", (), "", (), ""),
    "r": ("R", "e", (), "", (), ""),
    "osascript": ("osascript", "e", (), "ls", (), ""),
    "julia": ("julia", "eE", ("--eval", "--print"), "LJCtp", ("--project",), ""),
    "elixir": ("elixir", "e", ("--eval",), "r", (), ""),
    "groovy": ("groovy", "e", (), "cp", (), ""),
    "expect": ("expect", "c", (), "f", (), ""),
    "tclsh": ("tcl", "", (), "", (), ""),
    "wish": None,
    "jshell": ("java", "", (), "", (), ""),
    "irb": ("ruby", "", (), "", (), ""),
    "ghci": ("haskell", "e", (), "", (), ""),
    "erl": ("erlang", "", ("-eval",), "", (), ""),
}

for _k, _v in (
    ("nodejs", "node"),
    ("ts-node", "node"),
    ("tsx", "node"),
    ("luajit", "lua"),
    ("wish", "tclsh"),
):
    _INTERP[_k] = _INTERP[_v]


def interp_scan(a, short_code, long_code, short_arg, long_arg, short_mod):
    """-> (kind, value, rest): kind is 'code', 'module', 'script', 'stdin' or 'none'."""
    i = 0
    n = len(a)
    while i < n:
        w = a[i]
        if w == "-":
            return "stdin", None, a[i + 1 :]
        if w == "--":
            return ("script", a[i + 1], a[i + 2 :]) if i + 1 < n else ("none", None, [])
        if w[:1] != "-" or len(w) < 2:
            return "script", w, a[i + 1 :]
        if w[:2] == "--":
            name, eq, val = w.partition("=")
            if name in long_code:
                return "code", val if eq else (a[i + 1] if i + 1 < n else ""), a[i + 2 :]
            if name in long_arg and not eq:
                i += 1
            i += 1
            continue
        if w in long_code:  # erl -eval
            return "code", a[i + 1] if i + 1 < n else "", a[i + 2 :]
        j = 1
        while j < len(w):
            ch = w[j]
            if ch in short_code or ch in short_mod or ch in short_arg:
                v = w[j + 1 :]
                step = 1
                if not v:
                    v = a[i + 1] if i + 1 < n else ""
                    step = 2
                if ch in short_code:
                    return "code", v, a[i + step :]
                if ch in short_mod:
                    return "module", v, a[i + step :]
                i += step - 1
                break
            j += 1
        i += 1
    return "none", None, []


def _h_interp(c, a, p, raw):
    key = _key(c.program)
    spec = _INTERP.get(key)
    if spec is None:
        return None
    label, sc, lc, sa, la, sm = spec
    kind, val, rest = interp_scan(a, sc, lc, sa, la, sm)
    if kind == "code":
        c.code.append(val)
        flag = "-" + sc[0] if sc else lc[0]
        c.flag("inline %s code (%s %s)" % (label, c.program, flag), unknown=True)
        return {val}
    if kind == "module" and label != "python":
        c.reads.append(val)  # php -f script.php
        return None
    if kind == "module":
        if val in ("pip", "pip3"):
            from core.shell.tools import pkg_pip

            pkg_pip(c, rest, p)
        elif val in ("black", "isort", "autopep8", "yapf", "ruff"):
            from core.shell.tools import formatter

            formatter(c, rest, p, raw, val)
        elif val in ("venv", "virtualenv"):
            found, ops = opts(rest, "", ("--prompt",))
            c.writes.extend(ops)
        elif val == "json.tool" and len([x for x in rest if x[:1] != "-"]) >= 2:
            c.writes.append([x for x in rest if x[:1] != "-"][1])
        return None
    if kind == "script":
        if val == "/dev/stdin":
            return _stdin_code(c, rest, p, raw, label)
        if _vague_script(val):
            c.flag("%s script path not static" % label, unknown=True)
        if _pipe_path(val):
            c.flag("script from a pipe into %s" % c.program, unknown=True)
            return None
        c.reads.append(val)
        _own_script(c, val, rest, p, label)
        return None
    _stdin_code(c, rest, p, raw, label)


def _h_shell(c, a, p, raw):
    """bash/sh/zsh -c 'code' [arg0 args], a script file, or code on stdin."""
    cmdflag = False
    stdin = False
    i = 0
    n = len(a)
    while i < n:
        w = a[i]
        if w == "-" or w == "--":
            stdin = stdin or w == "-"
            i += 1
            break
        if w[:2] == "--":
            if w in ("--rcfile", "--init-file") and i + 1 < n:
                c.reads.append(a[i + 1])
                i += 1
            i += 1
            continue
        if w[:1] in ("-", "+") and len(w) > 1:
            takes = False
            for ch in w[1:]:
                if ch == "c":
                    cmdflag = True
                elif ch == "s":
                    stdin = True
                elif ch in "oO":
                    takes = True
            i += 2 if takes else 1
            continue
        break
    rest = a[i:]
    prog = c.program
    if cmdflag:
        if not rest:
            return None
        code = rest[0]
        c.code.append(code)
        p.subparse(code, pos=list(rest[2:]), arg0=rest[1] if len(rest) > 1 else prog)
        return {code}
    if rest and not stdin and not _pipe_path(rest[0]):
        if _vague_script(rest[0]):
            c.flag("%s script path not static" % prog, unknown=True)
        c.reads.append(rest[0])
        _own_script(c, rest[0], rest[1:], p, prog, shell=True)
        return None
    if rest and rest[0] != "/dev/stdin" and _pipe_path(rest[0]):
        c.flag("script from a pipe into %s" % prog, unknown=True)
        return None
    _stdin_code(c, rest[1:] if rest and not stdin else rest, p, raw, prog, shell=True)


def _h_eval(c, a, p, raw):
    code = " ".join(a)
    if not code.strip():
        return None
    c.code.append(code)
    p.subparse(code, keep_cwd=True)
    return set(a)


def _own_script(c, path, args, p, lang, shell=False):
    """A script written earlier in this same command: code we may be able to see."""
    ctx = p.ctx
    key = _norm(_join(ctx.cwd, path) if isinstance(ctx.cwd, str) else path)
    if key not in ctx.written:
        return
    body = ctx.written[key]
    if body is not None:
        c.code.append(body)
    first = (body or "").split("\n", 1)[0]
    if (
        shell
        and body is not None
        and (
            not first.startswith("#!")
            or first.rstrip().endswith(("sh", "bash", "zsh", "dash", "ksh"))
        )
    ):
        p.subparse(body, pos=list(args))
    else:
        c.flag("runs a script written by this same command (%s)" % lang, unknown=True)


def _vague_script(path):
    """A script path we cannot pin down; $CLAUDE_PROJECT_DIR/... is the caller's to resolve."""
    for var in ("$CLAUDE_PROJECT_DIR/", "${CLAUDE_PROJECT_DIR}/"):
        if path.startswith(var):
            return vague(path[len(var) :])
    return vague(path)


def _pipe_path(f):
    return f.startswith("/dev/fd/") or f.startswith("/proc/self/fd/") or f == "/dev/stdin"


def _h_source(c, a, p, raw):
    if not a:
        return None
    f = a[0]
    if f == "/dev/stdin" and c.stdin_is_data:
        body = stdin_text(raw)
        if body is not None:
            c.code.append(body)
            p.subparse(body, keep_cwd=True)
            return None
    c.reads.append(f)
    base = f.rstrip("/").rsplit("/", 1)[-1]
    if base in (
        "activate",
        "activate.sh",
        "activate.bash",
        "activate.zsh",
        "activate.fish",
    ) and not vague(f):
        return None  # a virtualenv's activate script: setting PATH, not work
    c.flag("source runs a script in this shell", unknown=True)


def _h_trap(c, a, p, raw):
    found, ops = opts(a, "", (), True)
    if len(ops) >= 2 and ops[0] not in ("-", ""):
        c.code.append(ops[0])
        p.subparse(ops[0], keep_cwd=True)
        return {ops[0]}


def _h_alias(c, a, p, raw):
    skip = set()
    for w in a:
        name, eq, val = w.partition("=")
        if eq and val.strip():
            c.code.append(val)
            p.subparse(val)
            skip.add(w)
            if len(p.ctx.aliases) < 64:
                p.ctx.aliases[name] = val
    return skip


def _alias_use(args, p):
    """A command whose name is an alias defined earlier (Claude Code's shell expands aliases):
    its text with these arguments runs too."""
    text = p.ctx.aliases.get(args[0])
    if text is not None:
        q = ["'" + w.replace("'", "'\\''") + "'" for w in args[1:]]
        p.subparse(" ".join([text] + q), keep_cwd=True)


HANDLERS = {
    "cd": _h_cd,
    "pushd": _h_cd,
    "popd": _h_cd,
    "export": _h_declare,
    "declare": _h_declare,
    "typeset": _h_declare,
    "local": _h_declare,
    "readonly": _h_declare,
    "read": _h_read,
    "mapfile": _h_read,
    "readarray": _h_read,
    "unset": _h_unset,
    "printf": _h_printf,
    "echo": _h_echo,
    "rm": _h_rm,
    "rmdir": _h_writes_operands(),
    "unlink": _h_writes_operands(),
    "touch": _h_touch,
    "mkdir": _h_writes_operands("mZ", ("--mode", "--context")),
    "mkfifo": _h_writes_operands("mZ", ("--mode",)),
    "mknod": _h_writes_operands("mZ"),
    "chmod": _h_chmod,
    "chown": _h_chmod,
    "chgrp": _h_chmod,
    "chattr": _h_chmod,
    "setfacl": _h_writes_operands("mxMX"),
    "chflags": _h_chmod,
    "ln": _h_ln,
    "cp": _h_cp,
    "mv": _h_cp,
    "install": _h_cp,
    "ditto": _h_cp,
    "tee": _h_tee,
    "grep": _h_grep,
    "egrep": _h_grep,
    "fgrep": _h_grep,
    "zgrep": _h_grep,
    "rg": _h_grep,
    "ag": _h_grep,
    "ack": _h_grep,
    "sed": _h_sed,
    "python": _h_interp,
    "pypy": _h_interp,
    "node": _h_interp,
    "nodejs": _h_interp,
    "ts-node": _h_interp,
    "tsx": _h_interp,
    "ruby": _h_interp,
    "php": _h_interp,
    "lua": _h_interp,
    "luajit": _h_interp,
    "rscript": _h_interp,
    "r": _h_interp,
    "osascript": _h_interp,
    "julia": _h_interp,
    "elixir": _h_interp,
    "groovy": _h_interp,
    "expect": _h_interp,
    "tclsh": _h_interp,
    "wish": _h_interp,
    "jshell": _h_interp,
    "irb": _h_interp,
    "ghci": _h_interp,
    "erl": _h_interp,
    "sh": _h_shell,
    "bash": _h_shell,
    "zsh": _h_shell,
    "dash": _h_shell,
    "ksh": _h_shell,
    "mksh": _h_shell,
    "ash": _h_shell,
    "fish": _h_shell,
    "yash": _h_shell,
    "tcsh": _h_shell,
    "csh": _h_shell,
    "rbash": _h_shell,
    "eval": _h_eval,
    "source": _h_source,
    ".": _h_source,
    "trap": _h_trap,
    "alias": _h_alias,
    "set": _h_set,
    "shift": _h_shift,
    "at": _h_at,
    "batch": _h_at,
}
for _k in (
    "cat",
    "tac",
    "nl",
    "head",
    "tail",
    "less",
    "more",
    "most",
    "bat",
    "batcat",
    "hexdump",
    "hd",
    "od",
    "strings",
    "file",
    "wc",
    "cut",
    "paste",
    "join",
    "comm",
    "diff",
    "diff3",
    "sdiff",
    "cmp",
    "md5sum",
    "sha1sum",
    "sha224sum",
    "sha256sum",
    "sha384sum",
    "sha512sum",
    "b2sum",
    "cksum",
    "sum",
    "shasum",
    "md5",
    "fold",
    "fmt",
    "column",
    "expand",
    "unexpand",
    "rev",
    "zcat",
    "bzcat",
    "xzcat",
    "zstdcat",
    "gzcat",
    "lzcat",
    "zless",
    "zmore",
    "stat",
    "ls",
    "du",
    "tree",
    "xmllint",
    "look",
    "iconv",
    "readlink",
    "realpath",
    "exiftool",
    "objdump",
    "readelf",
    "nm",
    "ldd",
    "lsattr",
    "getfacl",
    "pr",
    "tsort",
    "source-highlight",
    "pygmentize",
    "vimcat",
    "clip",
    "pbcopy",
    "xclip",
    "xsel",
    "wl-copy",
):
    HANDLERS[_k] = _h_readers

# Programs judged in shell_tools, imported on first use (keeps this import cheap).
# tests/test_shell.py checks this list against shell_tools.TOOLS.
TOOL_NAMES = frozenset(
    (
        "7z",
        "7za",
        "7zz",
        "apk",
        "apt",
        "apt-get",
        "aptitude",
        "awk",
        "base32",
        "base64",
        "basenc",
        "biome",
        "black",
        "blkdiscard",
        "brew",
        "bsdtar",
        "bun",
        "bundle",
        "bunzip2",
        "bzip2",
        "cargo",
        "cfdisk",
        "choco",
        "clang-format",
        "composer",
        "compress",
        "conda",
        "crontab",
        "csplit",
        "curl",
        "dd",
        "deno",
        "diskutil",
        "dnf",
        "dos2unix",
        "dpkg",
        "dprint",
        "ed",
        "emacs",
        "emerge",
        "eslint",
        "ex",
        "fdisk",
        "find",
        "flatpak",
        "flock",
        "gawk",
        "gdisk",
        "gem",
        "gh",
        "git",
        "go",
        "gofmt",
        "goimports",
        "gpg",
        "gunzip",
        "gzip",
        "halt",
        "hx",
        "init",
        "isort",
        "jaq",
        "joe",
        "jq",
        "kak",
        "lz4",
        "lzma",
        "mamba",
        "mawk",
        "micro",
        "micromamba",
        "microdnf",
        "mkfs",
        "mkswap",
        "nano",
        "nawk",
        "nix-env",
        "npm",
        "nvim",
        "openssl",
        "pacman",
        "parallel",
        "parted",
        "patch",
        "pdm",
        "perl",
        "pico",
        "pigz",
        "pip",
        "pipenv",
        "pipx",
        "pkg",
        "pnpm",
        "poetry",
        "port",
        "poweroff",
        "powershell",
        "prettier",
        "pwsh",
        "reboot",
        "red",
        "rpm",
        "rsync",
        "ruff",
        "runuser",
        "rustfmt",
        "scoop",
        "scp",
        "screen",
        "script",
        "sfdisk",
        "sftp",
        "sgdisk",
        "shfmt",
        "shred",
        "shuf",
        "shutdown",
        "snap",
        "sort",
        "split",
        "sponge",
        "srm",
        "ssh",
        "ssh-keygen",
        "stylua",
        "su",
        "sudoedit",
        "systemctl",
        "tar",
        "telinit",
        "terraform",
        "tmux",
        "truncate",
        "uncompress",
        "uniq",
        "unix2dos",
        "unxz",
        "unzip",
        "unzstd",
        "uv",
        "vi",
        "view",
        "vim",
        "watch",
        "wget",
        "winget",
        "wipe",
        "wipefs",
        "xbps-install",
        "xxd",
        "xz",
        "yarn",
        "yapf",
        "yq",
        "gojq",
        "autopep8",
        "zip",
        "zstd",
        "zypper",
        "yum",
        "mkfs",
        "sqlite3",
    )
)


def handler(key):
    h = HANDLERS.get(key)
    if h is None and key in TOOL_NAMES:
        from core.shell import tools as shell_tools

        HANDLERS.update(shell_tools.TOOLS)
        h = HANDLERS.get(key)
    return h


def _key(prog):
    k = prog.lower()
    if k in HANDLERS or k in TOOL_NAMES or k in WRAPPERS:
        return k
    if k.startswith("mkfs"):
        return "mkfs"
    s = k.rstrip("0123456789.")
    if s != k and (s in HANDLERS or s in TOOL_NAMES):
        return s
    if (
        k[:1] == "g"
        and (k[1:] in HANDLERS or k[1:] in TOOL_NAMES)
        and k[1:] not in ("it", "h", "o")
    ):
        return k[1:]  # GNU coreutils on macOS: gsed, gtar, grm ...
    return k


# ---------------------------------------------------------------------------- driver


def expand(raw, p):
    """Judge one raw simple command; append its Command(s) to the analysis."""
    ctx = p.ctx
    ctx.budget -= 32  # judging a command costs about four tokens
    words = raw.words
    c = Command()
    for name, val, dyn in raw.assigns:
        c.env[name] = val
    c.redirects = raw.redirs
    c.stdin_is_data = (
        raw.piped
        or bool(raw.redirs)
        and any(r.op in ("<<", "<<-", "<<<", "<") and r.fd in (None, 0) for r in raw.redirs)
    )
    args = words
    if args and ctx.aliases:
        _alias_use(args, p)
    hops = 0
    key = None
    while args and hops < 32:
        hops += 1
        key = _key(prog_name(args[0]))
        w = WRAPPERS.get(key)
        if w is None:
            break
        key = None
        rest = w(c, args, p, raw)
        if rest is None:
            break
        k = len(args) - len(rest)
        c.wrappers.extend(args[:k] if 0 < k and args[k:] == rest else args[:1])
        args = rest
    c.argv = args
    raw.cmd = c
    if not args and not raw.redirs:
        return
    if c.env:
        _env_code(c, c.env, p)
    cwd = ctx.cwd
    if cwd is not None:
        c.cwd = "$PWD" if cwd is DYNAMIC else cwd
    ctx.out.append(c)
    c.program = prog_name(args[0]) if args else ""
    c.text = " ".join([c.program] + args[1:]) if args else ""
    skip = None
    links = dict(ctx.links) if ctx.links else None  # links this command makes apply later
    if args:
        resolved = _which(args[0])
        if resolved:
            c.program = resolved
            c.text = " ".join([c.program] + args[1:])
        if not resolved and (vague(args[0]) and args[0] not in ("[", "[[") or args[0] == ""):
            c.flag("program name not static", unknown=True)
        else:
            h = handler(key if key is not None and not resolved else _key(c.program)) or _h_default
            skip = h(c, args[1:], p, raw)
    _redirects(c)
    _generic_reads(c, args[1:] + list(c.env.values()) if c.env else args[1:], skip)
    _settle(c, cwd, links)
    if c.writes and c.program not in _META_ONLY:
        _remember_writes(c, raw, ctx)
    elif args and c.program != args[0] and args[0][:1] != "$" and "/" in args[0]:
        _own_script(c, args[0], args[1:], p, c.program, shell=True)  # ./tool.sh


_META_ONLY = frozenset(
    ("chmod", "chown", "chgrp", "chattr", "setfacl", "chflags", "touch", "mkdir", "ln")
)


def _norm(path):
    while path[:2] == "./" and len(path) > 2:
        path = path[2:]
    return path


def _remember_writes(c, raw, ctx):
    """Note what this command wrote (and the text, when it is plain to see)."""
    text = None
    if (
        c.program in ("cat", "tee", "")
        and not [a for a in c.argv[1:] if a[:1] != "-"]
        or c.program == "tee"
    ):
        text = stdin_text(raw) if c.stdin_is_data else None
    elif c.program == "echo":
        a = c.argv[1:]
        while a and a[0] in ("-n", "-e", "-E"):
            a = a[1:]
        text = " ".join(a) + "\n"
    elif c.program == "printf" and len(c.argv) == 2 and "%" not in c.argv[1]:
        text = c.argv[1]
    appended = any(r.append for r in c.redirects)
    for w in c.writes:
        w = _norm(w)
        if appended and w in ctx.written:
            ctx.written[w] = None
        else:
            ctx.written[w] = text if text else None


def _which(w):
    """`$(which rm)`, `$(command -v rm)` or backticked `which rm`: the program is rm."""
    if w[:2] == "$(" and w[-1:] == ")":
        inner = w[2:-1].split()
    elif w[:1] == "`" and w[-1:] == "`" and len(w) > 1:
        inner = w[1:-1].split()
    else:
        return None
    if (
        len(inner) == 2
        and inner[0] in ("which", "type")
        or len(inner) == 3
        and inner[:2] in (["command", "-v"], ["type", "-P"], ["type", "-p"])
    ):
        name = inner[-1]
        if not vague(name) and "/" not in name:
            return name
    return None


def _redirects(c):
    for r in c.redirects:
        op = r.op
        t = r.target
        if op in (">", ">>", ">|", "&>", "&>>"):
            c.writes.append(t)
        elif op == ">&":
            if not (t.isdigit() or t == "-" or t.endswith("-") and t[:-1].isdigit()):
                c.writes.append(t)
        elif op == "<":
            c.reads.append(t)
        elif op == "<>":
            c.reads.append(t)
            c.writes.append(t)


def _generic_reads(c, a, skip):
    writes = set(c.writes)
    for x in a:
        if skip and x in skip:
            continue
        if x[:2] == "--" and "=" in x:
            x = x.split("=", 1)[1]
        if x and pathlike(x) and x not in writes:
            c.reads.append(x)


def _settle(c, cwd, links=None):
    """Make paths relative to where the command runs; drop non-files; flag vague writes;
    see through symlinks this same command made earlier."""
    out = []
    seen = set()
    for w in c.writes:
        if w in _NOT_FILES or w.startswith("/dev/fd/") or w.startswith("/proc/self/fd/"):
            continue
        if w.startswith("/dev/tcp/") or w.startswith("/dev/udp/"):
            c.flag("network redirect", unknown=True)
            continue
        if vague(w):
            c.flag("write target not static", unknown=True)
        elif w.startswith(_DISKS):
            c.flag("writes to a disk device", destructive=True)
        if w[:1] != "/" and cwd is not None:
            if cwd is DYNAMIC:
                c.flag("write after cd to an unknown directory", unknown=True)
            else:
                w = _join(cwd, w)
        if w not in seen:
            seen.add(w)
            out.append(w)
        for t in _through(w, links) if links else ():
            if t not in seen:
                seen.add(t)
                out.append(t)
    c.writes = out
    out = []
    seen = set()
    for r in c.reads:
        if r in _NOT_FILES or r.startswith("/dev/fd/") or r.startswith("/proc/self/fd/"):
            continue
        if r[:1] != "/" and cwd is not None and cwd is not DYNAMIC:
            r = _join(cwd, r)
        if r not in seen:
            seen.add(r)
            out.append(r)
        for t in _through(r, links) if links else ():
            if t not in seen:
                seen.add(t)
                out.append(t)
    c.reads = out


def _through(path, links):
    """The paths a path reaches through symlinks made earlier in the command."""
    path = _norm(path)
    out = []
    for name, targets in links.items():
        if path == name:
            out.extend(targets)
        elif path.startswith(name + "/"):
            out.extend(t.rstrip("/") + path[len(name) :] for t in targets)
    return out
