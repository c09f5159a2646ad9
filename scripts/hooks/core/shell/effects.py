"""Effects of one simple command: wrappers peeled off, then what it reads, writes, destroys,
or runs that the analysis cannot see (`unknown`).

The driver. The program table (core.shell.programs) names one function per program, in the
module of its family; a handler gets the Command, its arguments (argv[1:]), the parser (for
code it runs: `bash -c`, `eval`, heredocs fed to a shell) and the raw command (stdin: pipe,
heredoc, herestring), fills reads / writes / flags, and returns the argument values the
generic "looks like a path" read rule must skip (patterns, scripts, messages).
"""

from __future__ import annotations

from core.shell import arrivals, authprint, envwatch, programs
from core.shell.builtins import alias_use, env_code
from core.shell.command import (
    DISKS,
    NOT_FILES,
    Command,
    every_word,
    fd_path,
    interp_scan,  # noqa: F401 (API: core.shell.analysis)
    join,
    norm,
    own_script,
    pathlike,
    prog_name,
    stdin_text,
    vague,
)
from core.shell.lexer import DYNAMIC, Redirect

__all__ = ["Command", "expand", "prog_name"]


def _exec_stdin(raw, ctx):
    """`exec` with only redirections changes the shell's own descriptors: after `exec <file`
    or `exec 0<<EOF`, every later command that reads stdin (a bare `bash`) reads that. The
    redirect goes before the command's own, which win."""
    own = None
    for r in raw.redirs:
        if r.fd in (None, 0) and r.op in ("<<", "<<-", "<<<", "<", "<>", "<&"):
            own = r
    if own is None and ctx.exec_stdin is not None and not raw.piped:
        raw.redirs = [ctx.exec_stdin] + list(raw.redirs)
    if own is not None and len(raw.words) == 1 and prog_name(raw.words[0]) == "exec":
        # a descriptor duplicated onto stdin holds what the analysis cannot see: a file
        ctx.exec_stdin = own if own.op != "<&" else Redirect(0, "<", "")


def expand(raw, p):
    """Judge one raw simple command; append its Command(s) to the analysis."""
    ctx = p.ctx
    ctx.budget.spend(32)  # judging a command costs about four tokens
    words = raw.words
    if words:
        _exec_stdin(raw, ctx)
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
        alias_use(args, p)
    hops = 0
    key = None
    outer = ctx.cwd  # a wrapper's working-directory option moves only the command it runs
    while args and hops < 32:
        hops += 1
        key = programs.key(prog_name(args[0]))
        w = programs.wrapper(key)
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
    for name, val, dyn in raw.assigns:
        envwatch.value_code(c, val, p)
    envwatch.watch(c, args, p)
    if not args and not raw.redirs:
        return
    if c.env:
        env_code(c, c.env, p)
    cwd = ctx.cwd
    if cwd is not None:
        c.cwd = "$PWD" if cwd is DYNAMIC else cwd
    ctx.out.append(c)
    c.program = prog_name(args[0]) if args else ""
    c.text = " ".join([c.program] + args[1:]) if args else ""
    skip = None
    # a cd before it may have failed (not joined to it by &&): it may run where it was
    fallback = p.cd_fallback(raw, c) if hasattr(p, "cd_fallback") else None
    links = dict(ctx.links) if ctx.links else None  # links this command makes apply later
    if args:
        resolved = _which(args[0])
        if resolved:
            c.program = resolved
            c.text = " ".join([c.program] + args[1:])
        else:
            c.program = canonical(c.program)  # ggrep, Grep -> grep: every later check sees it
        if not resolved and (vague(args[0]) and args[0] not in ("[", "[[") or args[0] == ""):
            c.flag("program name not static", unknown=True)
        else:
            skip = _judge(c, args, key if key is not None and not resolved else None, p, raw)
    if args and not c.remote:
        _publish_verbs(c, args, programs.key(c.program))
    if args and (c.unknown or c.remote) and not c.destructive:
        _destroy_verbs(c, args, ctx.budget)
    _redirects(c)
    _generic_reads(c, args[1:] + list(c.env.values()) if c.env else args[1:], skip)
    _startup_files(c, args[1:])
    rel = [w for w in c.writes if w[:1] not in ("/", "$", "~")] if fallback else []
    _settle(c, cwd, links)
    for f in fallback or ():
        if f is not cwd:
            c.writes.extend(x for x in (_at_cwd(f, w) for w in rel) if x not in c.writes)
    if cwd is not outer:
        _outer_redirects(c, outer)
        ctx.cwd = outer
    if c.writes and c.program not in _META_ONLY:
        _remember_writes(c, raw, ctx)
    if c.argv and arrivals.carrier(programs.key(c.program), c.argv):
        arrivals.note(ctx.links, arrivals.roots(c, cwd))
    if c.unknown:
        every_word(c, args[1:] + list(c.env.values()) + [r.target for r in c.redirects] + c.code)


def _at_cwd(cwd, w: str) -> str:
    """w as a command run in cwd writes it (None: the caller's cwd; DYNAMIC: any dir)."""
    if cwd is None:
        return w
    if cwd is DYNAMIC:
        return "$PWD/" + w
    return join(cwd, w)


def _outer_redirects(c, outer):
    """The shell opens a redirect in its own cwd, before a wrapper moves the command."""
    for r in c.redirects:
        t = r.target if isinstance(r.target, str) else ""
        if not t or t[:1] in ("/", "&") or t.isdigit():
            continue
        if outer is DYNAMIC:
            c.flag("redirect target in a directory the analysis cannot know", unknown=True)
            w = "$PWD/" + t
        else:
            w = join(outer, t) if outer is not None else t
        if r.op in (">", ">>", ">|", "<>", "&>", "&>>") and w not in c.writes:
            c.writes.append(w)
        elif w not in c.reads:
            c.reads.append(w)


def canonical(name):
    """The table's name for a program the table maps by letter case or a GNU g- prefix
    (ggrep, gdate, Grep, DATE): checks keyed on the name (the recursive-reader and secret
    checks, date -s) then see the program the handler judged. Version suffixes (python3)
    and other names are kept as written."""
    k = programs.key(name)
    if k != name and (k == name.lower() or name.lower() == "g" + k):
        if programs.handler(k) is not None or programs.wrapper(k) is not None:
            return k
    return name


# programs run by path from these directories are the system's own
_SYSTEM_BIN = (
    "/bin/",
    "/usr/bin/",
    "/usr/local/bin/",
    "/sbin/",
    "/usr/sbin/",
    "/usr/local/sbin/",
    "/opt/homebrew/bin/",
    "/opt/local/bin/",
    "/usr/libexec/",
)
# `shutdown -h` halts: for these a short -h / -V is not a request for help
_SHORT_HELP_RISKY = frozenset(
    ("shutdown", "reboot", "halt", "poweroff", "init", "telinit", "mkfs", "crontab", "sort")
)
_HELP = frozenset(("--help", "-h", "-help", "--version", "-V", "-version", "--usage", "-?"))
# Shells, interpreters and runners may run code before (or instead of) printing: bash -h is
# hashall and then runs stdin, pytest --help imports conftest.py, tox/just/hugo -v and ctest
# -V are verbose runs, sqlite3 -version reads ~/.sqliterc first, yarn runs the project's
# yarnPath. For them only the profile below says which lone option just prints.
_HELP_RUNS = ("interpreters.", "runners.h_runner", "runners.h_npx", "remote.h_sqlite3")
_HELP_RUNS_NAMES = frozenset(("yarn", "mvn", "mvnw", "gradlew"))
_LONG = ("--version", "--help")
_CC = _LONG + ("-v",)  # gcc -v, clang -v: version and configuration
_PRINTS_FIRST = {
    **dict.fromkeys(("python", "pypy"), _LONG + ("-V", "-VV", "-h")),
    **dict.fromkeys(("node", "nodejs"), _LONG + ("-v", "-h")),
    **dict.fromkeys(("deno", "rustc", "mypy"), _LONG + ("-V", "-h")),
    **dict.fromkeys(("perl", "php"), _LONG + ("-v", "-h")),
    **dict.fromkeys(("ruby", "julia", "dotnet", "tsc", "ninja", "meson", "swift"), _LONG),
    **dict.fromkeys(("bash", "zsh", "ksh", "mksh", "fish", "tcsh", "yash", "bun"), _LONG),
    **dict.fromkeys(("lua", "luajit"), ("-v",)),
    **dict.fromkeys(("gcc", "g++", "cc", "c++", "clang", "clang++"), _CC),
    **dict.fromkeys(("make", "gmake", "bmake", "gradle", "npx"), _LONG + ("-v", "-h")),
    **dict.fromkeys(("java", "javac"), _LONG + ("-version", "-help")),
}
# -v is verbose for most programs: a version (or a help screen) only for these
_V_PRINTS = frozenset(
    ("npm", "pnpm", "cargo", "gem", "brew", "docker", "podman", "terraform", "tofu")
    + ("vault", "consul", "nomad", "composer", "pip", "pipx", "uv", "poetry", "pdm")
)


def _prints_only(k, flag):
    """A lone help or version option of this program prints and exits, running nothing."""
    prof = _PRINTS_FIRST.get(k)
    if prof is not None:
        return flag in prof
    h = programs.HANDLERS.get(k, "")
    if h.startswith(_HELP_RUNS) or k in _HELP_RUNS_NAMES:
        return False
    if flag == "-v":
        return k in _V_PRINTS
    return flag in _HELP and (flag[:2] == "--" or k not in _SHORT_HELP_RISKY)


def _judge(c, args, key, p, raw):
    """Run the program's handler. A program the table does not know, or one run from a path
    outside the system's bin directories (./x.sh, /tmp/t/cat), is code the hooks cannot
    see: `unknown`. A known program asked only for its help or version just prints."""
    path = args[0]
    if "/" in path and path[:1] != "$" and not path.startswith(_SYSTEM_BIN):
        if own_script(c, path, args[1:], p, c.program, shell=True) or c.program == "sane.py":
            return None  # a script this command wrote (analysed); our CLI (the caller judges)
        c.flag("runs %s, a program the hooks cannot see" % path, runner=True)
        return None
    k = key if key is not None else programs.key(c.program)
    h = programs.handler(k)
    store = authprint.store_key(k, c.program)
    if store is not None:
        authprint.credential_reads(c, store, args[1:], p.ctx.home)
    if h is None:
        if programs.wrapper(k) is not None or path in p.ctx.funcs:
            return None  # a wrapper that runs nothing itself (exec > log, sudo -l); a function
        c.flag(
            "%s is not a program the hooks know (code they cannot see)" % c.program, unknown=True
        )
        return None
    if len(args) == 2 and _prints_only(k, args[1]):
        return None
    skip = h(c, args[1:], p, raw)
    if programs.HANDLERS.get(k) in ("builtins.h_readers", "builtins.h_pager"):
        from core.shell import outputs  # readers and pagers only

        outputs.judge(c, c.program, args[1:])
    return skip


# verbs that delete, destroy or replace state, whatever the program (cdk destroy, rails
# db:drop, gsutil rm, heroku apps:destroy, manage.py flush, prisma migrate reset)
# (besides verbs.DESTROYS, which destroying() always counts)
_DESTROY_VERBS = frozenset(("flush", "nuke", "teardown", "clear", "clobber"))
_DESTROY_PREFIX = ("drop", "purge", "wipe", "destroy", "delete", "remove", "nuke", "erase")
_STOPS = frozenset(("stop", "kill", "down", "shutdown", "disable"))
_SQL_HEADS = frozenset(("drop", "truncate", "delete", "alter", "with", "do", "execute"))
_DESTROY_OPTION_PARTS = frozenset(
    ("delete", "purge", "prune", "wipe", "drop", "destroy", "reset", "truncate")
)
_DESTROY_OPTIONS = ("--delete", "--purge", "--prune", "--wipe", "--drop", "--remove", "--destroy")


def _destroy_verbs(c, args, budget=None):
    """A command that runs code the hooks cannot see, or changes a remote, is destructive
    when a word of its verb path (the leading words before the first option, split on : - _
    and .), its program name (dropdb) or a long option (--delete, --prune-*) names a delete,
    destroy, drop, purge, reset or replace. --force is one for a remote change."""
    from core.shell.verbs import destroying  # unknown and remote commands only

    name = c.program.lower()
    hit = ""
    judged_sql = programs.family(programs.key(c.program)).startswith("databases.")
    if c.unknown and not c.remote and name.startswith(_DESTROY_PREFIX):
        hit = name  # dropdb, dropuser
    elif c.unknown and not c.remote and "-" in name and destroying(name):
        hit = name  # kafka-delete-records (a bare `kill PID` is not a verb of a CLI)
    for i, w in enumerate(args[1:6]):
        if hit or w == "--" or w[:1] == "-" and c.runner:
            break  # a runner's options select tests (pytest -k delete): not verbs
        if " " in w and w.strip() and w.split()[0].lower() in _SQL_HEADS:
            if not judged_sql and _sql_destroys(w, budget):  # cockroach sql -e 'DROP ...'
                hit = w.split()[0]
            continue
        if w[:3] == "db." and "(" in w and not judged_sql:  # mongos --eval 'db.dropDatabase()'
            if _mongo_destroys(w, budget):
                hit = w.split("(", 1)[0]
            continue
        if vague(w) or "." in w and i > 0:
            continue  # a word the hooks cannot see; a dotted word after the verb (alias.x)
        if c.runner and w.lower() in _STOPS:
            continue  # npm stop, a project's own script: not a service taken down
        if destroying(w, _DESTROY_VERBS):  # db:drop, ecto.reset, delete_user, apps:destroy
            hit = w
    if not hit and c.unknown and not c.remote and not programs.known(programs.key(name)):
        # pssh -h hosts 'rm -rf /x', mosh host -- rm -rf /x (the family module loads on use)
        hit = programs.function("services.remote_lines")(args, budget)
    for w in args[1:] if not hit else ():
        o = w.split("=", 1)[0].lower()
        parts = o[2:].split("-") if o[:2] == "--" and o[2:5] not in ("no-", "dry") else []
        if (
            o.startswith(_DESTROY_OPTIONS)
            or o == "--force"
            and c.remote
            or any(x in _DESTROY_OPTION_PARTS for x in parts)
        ):
            hit = o
            break
    if hit:
        c.flag("%s %s destroys or replaces state" % (c.program, hit), destructive=True)


_PUBLISH = frozenset(("publish", "upload", "release", "push", "deploy", "unpublish", "yank"))


def _family(k):
    h = programs.HANDLERS.get(k, "")
    return h.split(".", 1)[0] if h else ("wrapper" if programs.wrapper(k) else "")


def _publish_verbs(c, args, k):
    """A package, build or runtime tool (known or not) whose verb publishes, uploads,
    releases or deploys changes a registry: bun publish, hatch publish, flit publish."""
    if _family(k) not in ("packages", "interpreters", "runners", "wrapper") and not c.unknown:
        return
    if "--help" in args:
        return
    for w in args[1:4]:
        if w[:1] == "-" or w == "--":
            break
        if w.lower() in _PUBLISH:
            c.flag("%s %s publishes to a registry or deploys" % (c.program, w), remote=True)
            return


_META_ONLY = frozenset(
    ("chmod", "chown", "chgrp", "chattr", "setfacl", "chflags", "touch", "mkdir", "ln")
)


def _remember_writes(c, raw, ctx):
    """Note what this command wrote (and the text, when it is plain to see)."""
    text = None
    if (
        c.program in ("cat", "tee", "")
        and not [a for a in c.argv[1:] if a[:1] != "-"]
        or c.program == "tee"
    ):
        text = stdin_text(raw) if c.stdin_is_data else None
    elif c.program in ("echo", "printf") and c.argv[:1] == [c.program]:
        from core.shell import printfmt  # what it prints: escapes and formats applied

        a = c.argv[1:]
        if c.program == "printf":
            text = printfmt.printf_argv(a)
        elif not any("\\" in w for w in a) and not (a and a[0][:1] == "-"):
            text = printfmt.echo(a)  # backslashes and options vary (xpg_echo, /bin/echo)
    appended = any(r.append for r in c.redirects)
    for w in c.writes:
        w = norm(w)
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


# options whose value is a file the program reads (--rawfile NAME FILE, --env-file F, -batch F)
_FILE_OPTION_ENDS = ("file", "files", "config", "batch", "input")
_SCHEMES = ("file://", "fileb://")


def _option_files(a):
    """The files a command reads through option values, whatever the program: the values of
    options named *file / *config / -batch (and the second value of --rawfile-style NAME
    FILE pairs), @FILE response files and curl-style @FILE values, file:// and fileb://
    parameters. Checked against the blocked paths like operands, even where the handler
    took the word for a pattern."""
    out = []
    for i, x in enumerate(a):
        if x[:1] == "-" and "=" not in x and len(x) > 1:
            name = x.lstrip("-").lower()
            if name.endswith(_FILE_OPTION_ENDS) and i + 1 < len(a):
                out.append(a[i + 1])
                if name in ("rawfile", "slurpfile", "argfile") and i + 2 < len(a):
                    out.append(a[i + 2])
            continue
        v = x.split("=", 1)[1] if x[:1] == "-" and "=" in x else x
        if x[:1] == "-" and x.split("=", 1)[0].lstrip("-").lower().endswith(_FILE_OPTION_ENDS):
            out.append(v)  # -var-file=.env, --token-file=.env
        for scheme in _SCHEMES:
            k = v.find(scheme)
            if k >= 0:
                out.append(v[k + len(scheme) :])
        for call in ('load("', 'load_str("', "load_str('", "load('", 'import "', 'include "'):
            k = v.find(call)
            if k >= 0:  # jq/yq code that reads a file: load(".env"), import "x" as y
                q = call[-1]
                out.append(v[k + len(call) :].split(q, 1)[0])
        if v[:1] == "@" and len(v) > 1:
            out.append(v[1:])
        elif "=@" in v:
            out.append(v.split("=@", 1)[1])
    return [x for x in out if x and pathlike(x)]


# option names whose value is a file of commands the program runs first (sqlite3 -init,
# --init-file, --rcfile): code nobody saw, whatever the program
_STARTUP_ENDS = ("init-file", "initfile", "rcfile", "rc-file", "init-script", "startup-file")


def _startup_files(c, a):
    for i, x in enumerate(a):
        if x[:1] != "-" or len(x) < 3:
            continue
        name, eq, val = x.lstrip("-").lower().replace("_", "-").partition("=")
        single = x[1] != "-" and name == "init"  # sqlite3 -init FILE (not the --init flag)
        if not (single or name == "init" and eq or name.endswith(_STARTUP_ENDS)):
            continue
        v = val if eq else (a[i + 1] if i + 1 < len(a) and a[i + 1][:1] != "-" else "")
        if v:
            if v not in c.reads:
                c.reads.append(v)
            if not c.unknown:
                c.flag(
                    "%s runs the commands in %s, which the hooks cannot see" % (x, v), unknown=True
                )
            return


def _generic_reads(c, a, skip):
    writes = set(c.writes)
    for x in _option_files(a):
        if x not in writes and x not in c.reads:
            c.reads.append(x)
    for x in a:
        if skip and x in skip:
            continue
        if x[:2] == "--" and "=" in x:
            x = x.split("=", 1)[1]
            if skip and x in skip:
                continue  # --exclude=.env: a pattern the handler named
        if x and pathlike(x) and x not in writes:
            c.reads.append(x)


def _settle(c, cwd, links=None):
    """Make paths relative to where the command runs; drop non-files; flag vague writes;
    see through symlinks this same command made earlier."""
    out = []
    seen = set()
    there = ""  # after a cd to an unknown place: the same name in any directory
    for w in c.writes:
        if w in NOT_FILES or fd_path(w):
            continue
        if w.startswith("/dev/tcp/") or w.startswith("/dev/udp/"):
            c.flag("network redirect", unknown=True)
            continue
        if vague(w):
            c.flag("write target not static", unknown=True)
        elif w.startswith(DISKS):
            c.flag("writes to a disk device", destructive=True)
        if w[:1] != "/" and cwd is not None:
            if cwd is DYNAMIC:
                c.flag("write after cd to an unknown directory", unknown=True)
                # the same name in any directory: checked against every protected path
                name = w[2:] if w[:2] == "./" else w
                if "$" not in w and name.rstrip("/") not in ("", ".", ".git"):
                    there = "$PWD/" + name  # a repository's store is not a name to match
            else:
                w = join(cwd, w)
        for x in (w, there) if there else (w,):
            if x not in seen:
                seen.add(x)
                out.append(x)
        there = ""
        for t in _through(w, links) if links else ():
            if t not in seen:
                seen.add(t)
                out.append(t)
                if t.startswith(arrivals.ARRIVED):
                    c.flag(
                        "writes below what an archive, copy or clone put there earlier in "
                        "the command: a symlink there may lead anywhere",
                        unknown=True,
                    )
    c.writes = out
    c.reads = _settle_reads(c.reads, cwd, links)
    if c.looks:
        c.looks = _settle_reads(c.looks, cwd, links)


def _settle_reads(reads, cwd, links):
    out = []
    seen = set()
    for r in reads:
        if r in NOT_FILES or fd_path(r):
            continue
        if r[:1] != "/" and cwd is not None and cwd is not DYNAMIC:
            r = join(cwd, r)
        if r not in seen:
            seen.add(r)
            out.append(r)
        for t in _through(r, links) if links else ():
            if t not in seen:
                seen.add(t)
                out.append(t)
    return out


def _through(path, links):
    """The paths a path reaches through symlinks made earlier in the command."""
    path = norm(path)
    out = []
    for name, targets in links.items():
        if targets == [arrivals.ARRIVED]:
            if path == name or path.startswith(name + "/") or name == ".":
                rest = path if name == "." else path[len(name) :]
                out.extend(arrivals.through(rest))
        elif path == name:
            out.extend(targets)
        elif path.startswith(name + "/"):
            out.extend(t.rstrip("/") + path[len(name) :] for t in targets)
    return out


def _mongo_destroys(text: str, budget=None) -> bool:
    from core.shell.databases import mongo_effect  # loaded only for Mongo-looking words

    if budget is not None:
        budget.spend(len(text) // 2 + 1)
    return mongo_effect(text) == "destroy"


def _sql_destroys(text: str, budget=None) -> bool:
    from core.shell.databases import sql_effect  # loaded only for SQL-looking words

    return sql_effect(text, budget) == "destroy"
