"""Code runners: test runners, build tools, compilers, package scripts, debuggers. They run
code the hooks cannot see (the project's tests, a Makefile, a build script), so they are
`unknown` (runner): safemode denies them, normal mode lets them through the research gate.
Some run a command line the hooks can read (npx -c, cmake -E, gdb -ex shell, tmux new-session):
that command is analysed as well."""

from __future__ import annotations

from core.shell.command import has, long_match, opts, spawn, vals
from core.shell.wrappers import cwd_of

# options of a runner that only print
_PRINTS = frozenset(("--help", "-h", "--version", "-V", "-v", "version", "help", "--list", "-l"))


_MAKE_DRY = ("-n", "--just-print", "--dry-run", "--recon")


def h_runner(c, a, p, raw):
    """pytest, make, cargo-less builds, compilers ...: code the hooks cannot see."""
    if c.program in ("make", "gmake") and any(
        w in _MAKE_DRY or w[:1] == "-" and w[1:2] != "-" and "n" in w[1:] for w in a
    ):
        # GNU make -n still runs recipe lines that hold $(MAKE) or start with +, and $(shell)
        c.flag("make -n still runs $(MAKE) and + recipe lines and $(shell ...)", runner=True)
        return None
    c.flag("%s runs code the hooks cannot see (tests, builds, scripts)" % c.program, runner=True)
    return None


def h_npx(c, a, p, raw):
    """npx [-p pkg] [-c 'cmd' | pkg args]: runs a package's code, or a shell command line."""
    found, ops = opts(a, "pc", ("--package", "--call", "--node-options", "--shell"), True)
    calls = [v for k, v in found if k in ("-c", "--call") and v is not True]
    for code in calls:
        c.code.append(code)
        p.subparse(code)
    if not calls or ops:
        c.flag("npx runs a package's code the hooks cannot see", runner=True)
    return set(calls)


def npm_exec(c, a, p):
    """`npm exec [--] cmd args`, `npm exec -c 'cmd'`, `npm x`: the command runs, and with it
    whatever package code npm resolves it to."""
    found, ops = opts(a, "pc", ("--package", "--call", "--workspace", "-w"), True)
    calls = [v for k, v in found if k in ("-c", "--call") and v is not True]
    for code in calls:
        c.code.append(code)
        p.subparse(code)
    if ops:
        spawn(ops, p)
    c.flag("npm exec runs a package's code the hooks cannot see", runner=True)
    return set(calls)


# cmake -E commands: the plain program each one is
_CMAKE_E = {
    "rm": ["rm"],
    "remove": ["rm"],
    "remove_directory": ["rm", "-r"],
    "copy": ["cp"],
    "copy_if_different": ["cp"],
    "copy_directory": ["cp", "-r"],
    "copy_directory_if_different": ["cp", "-r"],
    "make_directory": ["mkdir", "-p"],
    "rename": ["mv"],
    "touch": ["touch"],
    "touch_nocreate": ["touch", "-c"],
    "create_symlink": ["ln", "-s"],
    "create_hardlink": ["ln"],
    "tar": ["tar"],  # cmake -E tar xf a.tar: tar's letters and options
    "cat": ["cat"],
    "compare_files": ["cmp"],
    "md5sum": ["md5sum"],
    "sha1sum": ["sha1sum"],
    "sha256sum": ["sha256sum"],
    "sha512sum": ["sha512sum"],
    "echo": ["echo"],
    "echo_append": ["echo"],
    "env": ["env"],
    "time": ["env"],
    "true": ["true"],
    "false": ["true"],
    "sleep": ["true"],
    "capabilities": ["true"],
    "environment": ["true"],
}


def h_cmake(c, a, p, raw):
    """cmake -E <command> is a plain program (judged as one); everything else (configure,
    --build, -P script) runs code the hooks cannot see."""
    if a[:1] == ["-E"] and len(a) > 1:
        cmd = a[1]
        rest = a[2:]
        if cmd == "chdir" and len(rest) >= 2:
            spawn(["env", "-C", rest[0]] + rest[1:], p)
            return set(a)
        base = _CMAKE_E.get(cmd)
        if base is None:
            c.flag("cmake -E %s is a command the hooks do not know" % cmd, unknown=True)
            return set(a)
        spawn(base + rest, p)
        return set(a)
    c.flag("cmake runs code the hooks cannot see (a build, a script)", runner=True)
    return None


def h_gdb(c, a, p, raw):
    """gdb runs the program it debugs; -ex 'shell cmd' / '!cmd' runs a command line."""
    i = 0
    while i < len(a):
        name, eq, val = a[i].partition("=")
        # getopt_long_only: one dash or two, any unambiguous prefix (`--eval-c`, `-init-ev`)
        long = "-" + name if name[:2] != "--" else name
        if (
            long in ("--ex", "--iex")
            or len(long) > 3
            and (long_match(long, "--eval-command") or long_match(long, "--init-eval-command"))
        ):
            if not eq:
                i += 1
                val = a[i] if i < len(a) else ""
            cmd = val.strip()
            for lead in ("shell ", "!", "pipe ", "|"):
                if cmd.startswith(lead):
                    code = cmd[len(lead) :]
                    c.code.append(code)
                    p.subparse(code)
        i += 1
    c.flag("%s runs a program and commands the hooks cannot see" % c.program, runner=True)
    return set(a)


_TMUX_HERE = frozenset(("new-session", "new"))  # started in the client's cwd
_TMUX_RUNS = frozenset(
    (
        "new-session",
        "new",
        "new-window",
        "neww",
        "split-window",
        "splitw",
        "respawn-pane",
        "respawnp",
        "respawn-window",
        "respawnw",
        "run-shell",
        "run",
        "display-popup",
        "popup",
    )
)
_TMUX_READS = frozenset(
    (
        "ls",
        "list-sessions",
        "list-windows",
        "lsw",
        "list-panes",
        "lsp",
        "list-clients",
        "lsc",
        "list-buffers",
        "lsb",
        "list-keys",
        "lsk",
        "list-commands",
        "lscm",
        "display-message",
        "display",
        "show-options",
        "show",
        "show-environment",
        "showenv",
        "has-session",
        "has",
        "info",
        "capture-pane",
        "capturep",
        "show-buffer",
        "showb",
        "-V",
    )
)


def h_tmux(c, a, p, raw):
    """tmux subcommands that start a shell command (new-session, run-shell ...) run it: it is
    analysed; keystrokes sent to a pane are code the hooks cannot see."""
    found, ops = opts(a, "LSfc", (), True)
    sub = ops[0] if ops else "new-session"
    if sub in _TMUX_READS:
        return set(a)
    if sub in _TMUX_RUNS:
        found, rest = opts(ops[1:], "censtFxylTw", (), True)
        if rest:
            code = rest[0] if len(rest) == 1 else " ".join(rest)
            c.code.append(code)
            # -c DIR: the shell command runs there; a window or pane of a running session
            # without it starts in that session's directory, not this shell's
            wd = vals(found, "-c")
            with cwd_of(p, wd[-1] if wd else None if sub in _TMUX_HERE else True):
                p.subparse(code)
        elif sub not in ("run-shell", "run"):
            c.flag("tmux %s opens a shell the hooks cannot see" % sub, unknown=True)
        return set(a)
    c.flag("tmux %s sends keys or changes sessions the hooks cannot see" % sub, unknown=True)
    return set(a)


def h_history(c, a, p, raw):
    """history [N] prints; -w/-a write the history file, -r/-n read one, -c/-d/-s change it."""
    found, ops = opts(a, "d", ())
    names = [k for k, _ in found]
    target = ops[0] if ops else p.ctx.home + "/.bash_history"
    for k in names:
        if k in ("-w", "-a"):
            c.writes.append(target)
        elif k in ("-r", "-n"):
            c.reads.append(target)
        elif k in ("-c", "-d", "-s", "-p"):
            c.flag("history %s changes the shell's history" % k, unknown=True)
        else:
            c.flag("history option %s the hooks do not know" % k, unknown=True)
    return set(ops) if not names else None


def h_mktemp(c, a, p, raw):
    """mktemp makes a file (or dir) in $TMPDIR, in -p/--tmpdir DIR, or where its template
    says; -u only prints a name."""
    found, ops = opts(a, "pt", ("--tmpdir", "--suffix"))
    names = [k for k, _ in found]
    for k in names:
        if k not in (
            "-p",
            "--tmpdir",
            "-t",
            "-d",
            "--directory",
            "-u",
            "--dry-run",
            "-q",
            "--quiet",
            "--suffix",
        ):
            c.flag("mktemp option %s the hooks do not know" % k, unknown=True)
    if has(found, "-u", "--dry-run"):
        return set(ops)
    dirs = [v for k, v in found if k in ("-p", "--tmpdir") and v is not True]
    tmpl = ops[0] if ops else "tmp.XXXXXXXXXX"
    if dirs:
        c.writes.append(dirs[-1].rstrip("/") + "/" + tmpl.rsplit("/", 1)[-1])
    elif ops and "-t" not in names:
        c.writes.append(tmpl)  # a template without -t/-p is a name relative to the cwd
    return set(ops)  # else a new name in the temp dir


def h_fallocate(c, a, p, raw):
    found, ops = opts(a, "lo", ("--length", "--offset"))
    c.writes.extend(ops[-1:])
    return None


def h_link(c, a, p, raw):
    """link FILE1 FILE2: a hard link; both names reach the same file."""
    c.writes.extend(a[-2:])
    return None


def h_fd(c, a, p, raw):
    """fd/fdfind: a search; -x/--exec/-X/--exec-batch run a command on every match."""
    found, ops = opts(
        a,
        "etdEcjxXS",
        (
            "--extension",
            "--type",
            "--max-depth",
            "--exclude",
            "--color",
            "--threads",
            "--exec",
            "--exec-batch",
            "--size",
            "--changed-within",
            "--changed-before",
            "--owner",
            "--base-directory",
            "--search-path",
            "--ignore-file",
            "--max-results",
        ),
    )
    if any(k in ("-x", "--exec", "-X", "--exec-batch") for k, _ in found):
        c.flag("fd -x runs a command on every file it finds", unknown=True)
    c.reads.extend(ops[1:])
    c.reads.extend(
        v for k, v in found if k in ("--search-path", "--base-directory") and v is not True
    )
    return set(ops[:1])


_IP_READ = frozenset(("show", "list", "ls", "lst", "get", "help", "monitor"))
# ip's global options in the order ip.c tries them: (name, takes a value, exact only). A word
# is an option when it is a prefix of the name (`-b` is -batch, `-br` -brief), the first wins.
_IP_OPTIONS = (
    ("-loops", True, False),
    ("-family", True, False),
    ("-4", False, True),
    ("-6", False, True),
    ("-0", False, True),
    ("-M", False, True),
    ("-B", False, True),
    ("-human-readable", False, False),
    ("-iec", False, False),
    ("-statistics", False, False),
    ("-details", False, False),
    ("-resolve", False, False),
    ("-oneline", False, False),
    ("-timestamp", False, False),
    ("-tshort", False, False),
    ("-Version", False, False),
    ("-force", False, False),
    ("-batch", True, False),
    ("-brief", False, False),
    ("-json", False, False),
    ("-pretty", False, False),
    ("-rcvbuf", True, False),
    ("-color", False, False),
    ("-help", False, False),
    ("-netns", True, False),
    ("-Numeric", False, False),
    ("-all", False, False),
)


def _ip_option(word: str) -> tuple[str, bool] | None:
    """The ip option a word names (and whether it takes a value), or None."""
    opt = word[1:] if word[:2] == "--" else word
    if opt[:2] == "-c":
        opt = opt.partition("=")[0]  # -color=always
    for name, valued, exact in _IP_OPTIONS:
        if opt == name or not exact and len(opt) > 1 and name.startswith(opt):
            return name, valued
    return None


def h_ip(c, a, p, raw):
    """ip [OPTIONS] OBJECT [show|list|get]: a read; add, del, set, flush, change: a change.
    -batch FILE (any prefix: -b) reads FILE and runs the ip commands it holds."""
    i = 0
    while i < len(a) and a[i][:1] == "-" and a[i] != "--":
        found = _ip_option(a[i])
        if found is None:
            c.flag("ip %s is an option the hooks do not know" % a[i], unknown=True)
            return set(a)
        name, valued = found
        val = a[i + 1] if valued and i + 1 < len(a) else None
        i += 2 if valued else 1
        if name == "-batch":
            if val is not None and val != "-":
                c.reads.append(val)
            c.flag("ip -batch runs the ip commands its file holds (changes)", unknown=True)
            return {w for w in a if w != val}
        if name == "-help":
            return set(a)
    ops = a[i + 1 :] if a[i : i + 1] == ["--"] else a[i:]
    if len(ops) < 2 or ops[1] in _IP_READ or ops[0] in ("help",) or ops[-1] == "help":
        return set(a)
    c.flag("ip %s %s changes the network configuration" % (ops[0], ops[1]), unknown=True)
    return set(a)
