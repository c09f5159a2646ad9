"""Interpreters and editors: python, node, ruby, shells (-c code, scripts, stdin), awk, perl,
deno, pwsh, vi."""

from __future__ import annotations

from core.shell.command import (
    has,
    interp_scan,
    opts,
    own_script,
    pipe_path,
    prog_name,
    stdin_code,
    stdin_redirect,
    stdin_text,
    vague,
    vague_script,
    vals,
)
from core.shell.files import script_file
from core.shell.packages import formatter, h_pip, h_pkg_node

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


def h_interp(c, a, p, raw):
    key = c.program.lower()
    spec = _INTERP.get(key) or _INTERP.get(key.rstrip("0123456789."))
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
        c.flag("%s runs %s, code the hooks cannot see" % (c.program, val), runner=True)
        return None
    if kind == "module":
        if val in ("pip", "pip3"):
            h_pip(c, rest, p)
        elif val in ("black", "isort", "autopep8", "yapf", "ruff"):
            formatter(c, rest, p, raw, val)
        elif val in ("venv", "virtualenv"):
            found, ops = opts(rest, "", ("--prompt",))
            c.writes.extend(ops)
        elif val == "dotenv":
            h_dotenv(c, rest, p, None)
        elif val == "json.tool":
            ops = opts(rest, "", ("--indent",))[1]  # past --indent N
            c.reads.extend(ops[:1])
            c.writes.extend(ops[1:2])
        elif val not in _PRINT_MODULES and val not in ("sane", "core.cli", "core.cli.main"):
            c.flag("%s -m %s runs code the hooks cannot see" % (c.program, val), runner=True)
        return None
    if kind == "script":
        if val == "/dev/stdin":
            return stdin_code(c, rest, p, raw, label)
        if vague_script(val):
            c.flag("%s script path not static" % label, unknown=True)
        if pipe_path(val):
            c.flag("script from a pipe into %s" % c.program, unknown=True)
            return None
        c.reads.append(val)
        if not own_script(c, val, rest, p, label) and prog_name(val) != "sane.py":
            # sane.py: the caller knows whether it is this project's CLI or a copy
            c.flag("%s runs %s, code the hooks cannot see" % (c.program, val), runner=True)
        return None
    # an option that takes a value is never one that only prints (php -S serves the
    # directory's PHP, php -d extension=x.so loads native code)
    if any(w[:1] == "-" and (w not in _PRINT_OPTS or w[1:] in sa) for w in a) and not (
        c.stdin_is_data
    ):
        # no script and no code on stdin, yet options: `node --test`, `node --run build`,
        # `node --watch` run the project's code the hooks cannot see
        c.flag("%s %s runs code the hooks cannot see" % (c.program, a[0]), runner=True)
        return None
    stdin_code(c, rest, p, raw, label)


# interpreter options that only print (no script, no code)
# or only set a mode of the interactive prompt, which gets no input here
_PRINT_OPTS = frozenset(
    "--version -v -V -VV --help -h --v8-options -i -q -u -B -E -s -S -I -b -bb -d -O -OO".split()
)

# python -m modules that only print
_PRINT_MODULES = frozenset(("platform", "sysconfig", "site", "calendar", "this", "tokenize"))


def h_shell(c, a, p, raw):
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
                # an interactive shell (-i, or a prompt on a terminal) runs that file first
                c.flag(
                    "%s %s runs %s, code the hooks cannot see" % (c.program, w, a[i + 1]),
                    unknown=True,
                )
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
    if rest and not stdin and not pipe_path(rest[0]):
        if vague_script(rest[0]):
            c.flag("%s script path not static" % prog, unknown=True)
        c.reads.append(rest[0])
        if not own_script(c, rest[0], rest[1:], p, prog, shell=True):
            c.flag("%s runs %s, a script the hooks cannot see" % (prog, rest[0]), runner=True)
        return None
    if rest and rest[0] != "/dev/stdin" and pipe_path(rest[0]):
        if p.ctx.written.get(rest[0]) is not None:  # <(printf ..): its text is seen
            own_script(c, rest[0], rest[1:], p, prog, shell=True)
            return None
        c.flag("script from a pipe into %s" % prog, unknown=True)
        return None
    stdin_code(c, rest[1:] if rest and not stdin else rest, p, raw, prog, shell=True)


# awk options that neither run, load nor write anything (gawk, mawk, busybox, onetrue awk);
# the rest (gawk --dump-variables=F, --profile=F, --pretty-print=F, --debug, -W exec F) are
# not seen, so unknown
_AWK_PLAIN = frozenset(
    "-b -c -C -g -h -k -L -M -n -N -O -P -r -s -S -t -V -v -F -e -f -E -i -l -W -- --csv".split()
    + "--characters-as-bytes --traditional --copyright --gen-pot --help --usage --lint".split()
    + "--bignum --non-decimal-data --use-lc-numeric --optimize --no-optimize --posix".split()
    + "--re-interval --sandbox --version --file --assign --field-separator --source".split()
    + "--include --load --exec --lint-old --compat".split()
)
# mawk -W values that only set a mode or print (-W exec F runs F: not here)
_AWK_W_PLAIN = (
    "version help usage posix traditional compat lint re-interval interactive sprintf "
    "posix_space dump random"
).split()


def h_awk(c, a, p, raw):
    found, ops = opts(
        a,
        "fvFeilEW",
        ("--file", "--assign", "--field-separator", "--source", "--include", "--load", "--exec"),
    )
    for name, v in found:
        w = v.split("=", 1)[0] if name == "-W" and isinstance(v, str) else "?"
        if (
            name not in _AWK_PLAIN
            or name == "-W"
            and not any(x.startswith(w) for x in _AWK_W_PLAIN)
        ):
            what = name + (" " + w if name == "-W" else "")
            c.flag(
                "%s %s runs, loads or writes what the hooks cannot see" % (c.program, what),
                unknown=True,
            )
    progs = vals(found, "-e", "--source")
    files = vals(found, "-f", "--file", "-E", "--exec", "-i", "--include")
    for f in vals(found, "-f", "--file", "-E", "--exec"):
        body = script_file(c, f, p, raw, c.program)
        if body is not None:
            progs.append(body)
    c.reads.extend(x for x in files if x not in vals(found, "-f", "--file", "-E", "--exec"))
    includes = vals(found, "-i", "--include")
    inplace = [x for x in includes if x in ("inplace", "inplace.awk")]
    if len(inplace) < len(includes) or vals(found, "-f", "--file", "-E", "--exec", "-l", "--load"):
        c.flag("awk loads program code from a file the hooks cannot see", unknown=True)
    skip = set(vals(found, "-v", "--assign", "-F", "--field-separator"))
    if not progs and not vals(found, "-f", "--file", "-E", "--exec") and ops:
        progs = [ops[0]]
        ops = ops[1:]
    skip.update(progs)
    c.reads.extend(o for o in ops if "=" not in o or "/" in o.split("=", 1)[0])
    if inplace:
        c.writes.extend(o for o in ops if "=" not in o or "/" in o.split("=", 1)[0])
    for prog in progs:
        p.ctx.budget.spend(len(prog) // 16)  # the scan below: a step per character
        if prog in p.dyn:
            c.flag(
                "awk program built by a substitution or variable the hooks cannot see", unknown=True
            )
        elif len(prog) > 20000 or _awk_runs(prog):
            c.code.append(prog)
            c.flag("awk program runs commands or writes files", unknown=True)
    return skip


def _awk_runs(prog):
    """system(), pipes to or from commands, print > file, outside string literals."""
    out = []
    i = 0
    n = len(prog)
    while i < n:
        ch = prog[i]
        if ch == '"':
            i += 1
            while i < n and prog[i] != '"':
                i += 2 if prog[i] == "\\" else 1
            out.append('""')
            i += 1
            continue
        if ch == "/" and (
            not out or out[-1].strip()[-1:] in ("", "(", ",", "~", "{", ";", "!", "&", "|")
        ):
            i += 1
            while i < n and prog[i] != "/":
                i += 2 if prog[i] == "\\" else 1
            out.append("//")
            i += 1
            continue
        out.append(ch)
        i += 1
    code = "".join(out)
    if "system" in code or "|" in code.replace("||", "") or "@" in code:
        return True  # system(), pipes, @include/@load
    if "getline" in code and "<" in code:
        return True  # getline < "file" reads a file named in the program
    for stmt in code.replace("{", ";").replace("}", ";").replace("\n", ";").split(";"):
        st = stmt.strip()
        if (st.startswith("print") or st.startswith("printf")) and ">" in st:
            return True
    return False


def h_perl(c, a, p, raw):
    code = None
    inplace = False
    ops = []
    i = 0
    n = len(a)
    while i < n:
        w = a[i]
        if w == "--" or w == "-":
            ops.extend(a[i + 1 :] if w == "--" else a[i:])
            break
        if w[:1] != "-" or len(w) < 2:
            ops.extend(a[i:])
            break
        if w[:2] == "--":
            i += 1
            continue
        j = 1
        while j < len(w):
            ch = w[j]
            if ch in "eE":
                v = w[j + 1 :]
                if not v and i + 1 < n:
                    v = a[i + 1]
                    i += 1
                code = (code + "\n" + v) if code else v
                break
            if ch == "i":
                inplace = True
                break
            if ch in "IMmdDxFC0l":
                if ch in "IMm" and j == len(w) - 1 and i + 1 < n:
                    i += 1
                break
            j += 1
        i += 1
    if code is not None:
        c.code.append(code)
        c.flag("inline perl code (perl -e)", unknown=True)
        files = ops
    elif ops and ops[0] not in ("-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"):
        c.reads.append(ops[0])  # the script: code, like python's or ruby's
        if pipe_path(ops[0]) or ops[0] in p.dyn or vague(ops[0]):
            c.flag(
                "perl script from a pipe, substitution or variable the hooks cannot see",
                unknown=True,
            )
        elif not own_script(c, ops[0], ops[1:], p, "perl"):
            c.flag("%s runs %s, code the hooks cannot see" % (c.program, ops[0]), runner=True)
        files = ops[1:]
    else:
        stdin_code(c, ops[1:], p, raw, "perl")
        files = []
    c.reads.extend(files)
    if inplace:
        c.writes.extend(files)
    return {code} if code else None


def h_deno_bun(c, a, p, raw):
    if not a:
        return stdin_code(c, a, p, raw, c.program)
    sub = a[0]
    if sub == "eval" or sub in ("-e", "--eval", "-p", "--print"):
        code = a[1] if len(a) > 1 else ""
        c.code.append(code)
        c.flag("inline %s code (%s %s)" % (c.program, c.program, sub), unknown=True)
        return {code}
    if sub in ("add", "install", "i", "remove", "rm", "update", "upgrade", "link"):
        return h_pkg_node(c, a, p, raw)
    if sub == "run" and len(a) > 1:
        found, ops = opts(a[1:], "", ())
        if ops and ops[0] == "-":
            return stdin_code(c, ops[1:], p, raw, c.program)
        c.reads.extend(ops[:1])
    if sub in _DENO_BUN_PRINTS or sub == "types" and c.program == "deno":
        return None
    if c.program == "deno" and sub in ("lint", "check", "doc", "info", "fmt"):
        return _deno_reader(c, sub, a[1:])
    # run, test, task, x, build, serve, bench, compile, a script file ...: code the hooks
    # cannot see (default-deny: a verb not listed as a read runs something)
    c.flag("%s %s runs code the hooks cannot see" % (c.program, sub), runner=True)
    return None


_DENO_BUN_PRINTS = frozenset(("--version", "-v", "-V", "--help", "-h", "help", "completions"))


def _deno_reader(c, sub, a):
    """deno lint/check/doc/info/fmt: what each writes. fmt without --check and lint --fix
    rewrite the files; doc --html/--output write the docs; check, doc and info resolve
    modules and update the lock file (deno.lock, or --lock=F) unless it is frozen or off."""
    found, ops = opts(a, "", ("--output", "--lock", "--config"))
    on = [k for k, v in found if v is True or str(v).lower() not in ("false", "0")]
    if sub == "fmt" and "--check" not in on or sub == "lint" and "--fix" in on:
        c.writes.extend([o for o in ops if o[:1] != "-"] or ["."])
    if sub == "doc" and ("--html" in on or has(found, "--output")):
        c.writes.extend(vals(found, "--output") or ["docs"])
    if (sub in ("check", "doc") or sub == "info" and ops) and not {"--frozen", "--no-lock"} & set(
        on
    ):
        c.writes.extend([v for v in vals(found, "--lock") if v is not True] or ["deno.lock"])
    return None


def h_pwsh(c, a, p, raw):
    i = 0
    while i < len(a):
        w = a[i].lower()
        if w in ("-file", "-f") and i + 1 < len(a):
            c.reads.append(a[i + 1])
            return None
        if (
            w in ("-command", "-c", "-encodedcommand", "-ec", "-e", "-commandwithargs", "-cwa")
            or w[:1] != "-"
        ):
            code = " ".join(a[i + 1 :] if w[:1] == "-" else a[i:])
            c.code.append(code)
            c.flag("inline PowerShell code", unknown=True)
            return set(a[i:])
        if w in (
            "-executionpolicy",
            "-ep",
            "-workingdirectory",
            "-wd",
            "-outputformat",
            "-of",
            "-inputformat",
            "-if",
            "-configurationname",
            "-settingsfile",
            "-windowstyle",
            "-version",
            "-v",
            "-custompipename",
        ):
            i += 1
        i += 1
    stdin_code(c, [], p, raw, "PowerShell")


def _fed_unseen(raw, p, body: str) -> bool:
    """Stdin text with parts the analysis did not see: a here-string of an expansion, an
    unquoted heredoc's $X or `..`, echo/printf words from an expansion or with escapes
    (printf's \\056 is a dot) it did not decode."""
    r = stdin_redirect(raw)
    if r is not None:
        if r.op == "<<<":
            return r.target in p.dyn
        if r.quoted or "$" not in body and "`" not in body:
            return False
        return "`" in body or any(
            body[k + 1 : k + 2] in _EXPANDS for k in range(len(body)) if body[k] == "$"
        )
    prev = raw.prev.cmd if raw.piped and raw.prev is not None else None
    return prev is None or "\\" in body or any(w in p.dyn for w in prev.argv)


_EXPANDS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789{(@*#?$!-")


def h_editor(c, a, p, raw):
    prog = c.program
    if prog in ("ed", "red"):
        found, ops = opts(a, "p", ())
        body = stdin_text(raw)
        from core.shell import edscript

        files = [o for o in ops if o[:1] != "+" and o != "-"]
        for f in files:
            if f[:1] == "!":
                edscript.run(c, f[1:], None, p)  # ed reads the output of the command
        files = [f for f in files if f[:1] != "!"]
        c.reads.extend(files)
        if body is None or _fed_unseen(raw, p, body):
            c.flag(
                "ed reads commands (which write files and run programs) the hooks cannot see",
                unknown=True,
            )
            c.writes.extend(files)
        else:
            edscript.judge(c, body, files[0] if files else None, p)
        return set()
    elif prog in ("emacs",):
        found, ops = opts(
            a, "lLfu", ("--eval", "--load", "--funcall", "--directory", "--user", "--script")
        )
        if vals(found, "--eval", "-l", "--load", "-f", "--funcall", "--script"):
            c.flag("editor runs a script", unknown=True)
    else:
        found, ops = opts(a, "cSsTuiwW" if prog != "ex" else "cSTuiwW", ("--cmd",))
        if vals(found, "-c", "--cmd", "-S", "-s") or any(o[:1] == "+" for o in ops):
            c.flag("editor runs a script", unknown=True)
        odd = [k for k, _ in found if not _editor_plain(prog, k)]
        if odd:  # vim -u FILE sources it, nvim -l runs Lua, -V9FILE and -W write, --remote
            c.flag("%s %s is an option the hooks do not know" % (prog, odd[0]), unknown=True)
        elif prog == "ex" or has(found, "-e", "-E", "-s", "-es") or stdin_text(raw) != "":
            # ex mode (and vi fed keys) reads editor commands from stdin: `:!cmd` runs cmd
            c.flag(
                "%s reads editor commands (which can run programs) from stdin" % prog, unknown=True
            )
    files = [o for o in ops if o[:1] != "+"]
    if not has(found, "-R") and prog != "view":
        c.writes.extend(files)
    c.reads.extend(files)
    return set(vals(found, "-c", "--cmd", "--eval")) | set(o for o in ops if o[:1] == "+")


# vi-family options that only choose how files are shown or edited; any other may source a
# script (-u, -S, -l in nvim), write one (-W, -V9file, -i, --startuptime) or reach a server
_VI_PLAIN = frozenset(
    "-R -M -m -n -N -b -d -o -O -p -L -Z -y -v -f -g -h -A -H -F -r -e -E -es -Es -s -c --cmd "
    "-S -t -q -x -X --noplugin --clean --not-a-term --ttyfail --version --help -".split()
)


def _editor_plain(prog: str, k: str) -> bool:
    if prog in ("vi", "vim", "nvim", "view", "ex", "sudoedit"):
        return k in _VI_PLAIN or k[1:].isdigit() or k[:2] in ("-o", "-O", "-p") and k[2:].isdigit()
    return k in ("--help", "--version", "-h")


# pygmentize options that pick a built-in lexer, formatter, filter or style, or only print;
# -x loads lexers and formatters from files (code), -o writes, -O/-P options may name files
_PYG_PLAIN = frozenset("-l -f -F -S -a -g -s -v -h -V -L -N -C -H --json --help".split())


def h_pygmentize(c, a, p, raw):
    found, ops = opts(a, "lfFOPaoSN", ())
    for k, v in found:
        if k == "-o":
            c.writes.append(v)
        elif k in ("-O", "-P") and "file" not in str(v).lower():
            continue
        elif k not in _PYG_PLAIN or k in ("-l", "-f") and ":" in str(v):
            c.flag(
                "pygmentize %s loads code or writes a file the hooks cannot see" % k, unknown=True
            )
    c.reads.extend(ops)
    return {v for _, v in found if isinstance(v, str)}


def h_dotenv(c, a, p, raw):
    """dotenv (python-dotenv's CLI, node's dotenv-cli) loads a .env file, .env itself when
    none is named, and prints it (list, get) or hands it to the command it runs."""
    found, _ = opts(a, "fec", ("--file",))
    c.reads.extend(vals(found, "-f", "--file", "-e") or [".env"])
    c.flag("dotenv loads a .env file and runs or prints with it", unknown=True)
    return set(w for w in a if w[:1] != "-")
