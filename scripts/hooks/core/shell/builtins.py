"""Shell builtins (cd, declare, set, read, eval, source, trap, alias) and the plain readers
(cat, grep, jq, base64, ...)."""

from __future__ import annotations

from core.shell import envwatch, looks
from core.shell.command import (
    cd_to,
    has,
    join,
    opts,
    own_script,
    stdin_code,
    stdin_text,
    vague,
    vals,
)
from core.shell.lexer import DYNAMIC, DYNPOS, NAME0, NAMEC


def h_prints(c, a, p, raw):
    """Programs that only print or look (pwd, date, ps, uname ...), whatever their options."""
    return None


def h_readers(c, a, p, raw):
    """cat, head, base64 ...: every operand is read."""
    if c.program == "iconv":
        found, ops = opts(a, "fto", ("--from-code", "--to-code", "--output"))
        c.writes.extend(vals(found, "-o", "--output"))
        c.reads.extend(ops)
        return None
    if c.program == "bc":
        # GNU bc and Gavin Howard's bc: arithmetic printed to stdout, no shell escape, no file
        # output; operands and -f files are bc programs it reads
        found, ops = opts(a, "ef", ("--expression", "--file"))
        c.reads.extend(ops + vals(found, "-f", "--file"))
        return None
    if c.program == "tree":
        found, ops = opts(
            a,
            "oLPIHT",
            (
                "--filelimit",
                "--charset",
                "--sort",
                "--timefmt",
                "--hintro",
                "--houtro",
            ),
        )
        c.writes.extend(vals(found, "-o"))
        if has(found, "-R"):  # with -H or -o it writes 00Tree.html into every directory
            c.flag("tree -R writes a listing into every directory", unknown=True)
        skip = looks.split(c, a)
        if skip is None:  # tree --fromfile F prints F's lines
            c.reads.extend(ops)
        return skip
    if c.program == "file" and has(opts(a, "eFfmP")[0], "-C", "--compile"):
        c.flag("file -C writes a compiled magic file", unknown=True)
    if c.program == "ldd" and any(
        w[:1] != "-" and not w.startswith(_SYSTEM_LIBS) for w in a
    ):  # ldd may run the program to list its libraries (an ELF interpreter of its own)
        c.flag("ldd may run %s, a program the hooks cannot see" % a[-1], unknown=True)
    if c.program == "identify" and any(_magick_special(w) for w in a):
        c.flag("identify runs a pipe or an ImageMagick coder the hooks cannot see", unknown=True)
    if c.program in looks.LOOKERS:
        skip = looks.split(c, a)
        if skip is not None:
            return skip
    found, ops = opts(a, "nNcbwi" if c.program in ("head", "tail") else "")
    c.reads.extend(ops)
    if c.program in ("diff", "colordiff") and has(found, "-r", "--recursive"):
        c.tree.extend(ops)  # every file under both trees is read and printed


_SYSTEM_LIBS = ("/usr/", "/bin/", "/sbin/", "/lib/", "/lib32/", "/lib64/", "/libx32/")


def _magick_special(w: str) -> bool:
    """An ImageMagick file name that is not a plain file: `|cmd` runs cmd, `coder:name`
    (msl:, mvg:, ephemeral:, text:@file) reads or runs through a coder, `@list` names files."""
    if w[:1] in ("|", "@"):
        return True
    head, colon, _ = w.partition(":")
    return bool(colon) and head.isalnum()


def h_grep(c, a, p, raw):
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
        vals(
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
    pats = vals(found, "-f", "--file")
    c.reads.extend(pats)
    if vals(found, "--pre"):
        c.flag("rg --pre runs a command", unknown=True)
    if (
        not has(found, "-e", "--regexp", "-f", "--file")
        and ops
        and not has(found, "--files", "--type-list")
    ):
        skip.add(ops[0])
        ops = ops[1:]
    c.reads.extend(ops)
    return skip


def h_cd(c, a, p, raw):
    found, ops = opts(a, "")
    target = ops[0] if ops else p.ctx.home
    c.reads.extend(ops[:1])
    old = p.ctx.cwd
    if c.program == "popd":
        p.ctx.cwd = p.ctx.stack.pop() if p.ctx.stack else DYNAMIC
        return None
    if target == "" or c.program == "pushd" and has(found, "-n"):
        return None  # `cd ""` stays; `pushd -n` only adds to the stack
    if c.program == "pushd":
        p.ctx.stack.append(p.ctx.cwd)
        if target[:1] in ("+", "-") and target[1:].isdigit():
            target = "-"  # rotates the stack: where it lands is not known here
    places = _cdpath_places(c, p, target)
    if places == []:
        target = "-"  # CDPATH set to what the analysis cannot see: where is not known
    elif places:
        target = places[0]  # the first CDPATH entry; the others and ./target stay possible
    also = _cdable_value(p, target) if c.program == "cd" else None
    if also == "-":
        target = also  # a variable's value the analysis cannot see: where is not known
    cd_to(p.ctx, target)
    if hasattr(p, "cd_done"):
        p.cd_done(old, target)  # a cd that fails leaves later commands where they were
        if also and also != "-":
            p.cd_also([also if also[:1] == "/" or not isinstance(old, str) else join(old, also)])
        if places and len(places) > 1:
            p.cd_also(
                [
                    q if q[:1] == "/" or not isinstance(old, str) else join(old, q)
                    for q in places[1:]
                ]
            )


def _cdable_value(p, target: str) -> str | None:
    """With `shopt -s cdable_vars`, `cd NAME` that finds no directory NAME goes to $NAME: its
    value (another place it may land), "-" when the value is not known, None otherwise."""
    if not target.isidentifier():
        return None
    on = False
    for c in p.ctx.out:
        if c.program == "shopt" and any(w[:1] == "-" and "s" in w for w in c.argv[1:]):
            on = on or any(w == "cdable_vars" or "$" in w for w in c.argv[1:])
    if not on:
        return None
    val = p.ctx.vars.get(target) if target in p.ctx.vars else (p.ctx.env or {}).get(target)
    return val if isinstance(val, str) and val and "$" not in val else "-"


def _cdpath_places(c, p, target: str) -> list[str] | None:
    """cd looks a relative name up in each CDPATH directory before the cwd (not /x, ., ..,
    ./x or ../x), CDPATH set on the cd, earlier in the command, or in the environment the
    command inherits (the hooks' own). -> the places it may land (entry/target ..., then
    target), [] when CDPATH's value is not known, None when CDPATH plays no part."""
    if target[:1] in ("/", "") or target in (".", "..") or target.startswith(("./", "../")):
        return None
    if "CDPATH" in c.env:
        val = c.env["CDPATH"]
    elif "CDPATH" in p.ctx.vars:
        val = p.ctx.vars["CDPATH"]
    else:
        val = (p.ctx.env or {}).get("CDPATH")
    if val is None:
        return [] if "CDPATH" in c.env or "CDPATH" in p.ctx.vars else None
    entries = [e for e in val.split(":")[:8] if e not in ("", ".", "./")]
    if not entries:
        return None
    if any(vague(e) for e in entries):
        return []
    return [join(e, target) for e in entries] + [target]


def env_code(c, env, p, declared=False):
    """Variables in a command's environment: a command some program runs is analysed, one
    that loads code is `unknown`, and (for a program run with them, not a `declare`) any
    other that is not plain is too (envwatch.env_judge)."""
    for k, v in env.items():
        if k in envwatch.ENV_COMMANDS and v.strip():
            c.code.append(v)
            p.subparse(v)
        elif (
            k in envwatch.ENV_LOADS
            or k == "NODE_OPTIONS"
            and any(x in v for x in ("-r", "require", "import", "loader"))
        ):
            c.flag("%s makes the program load code" % k, unknown=True)
        elif not declared and c.argv:
            envwatch.env_judge(c, k, v)


def h_declare(c, a, p, raw):
    from core.shell import arith  # loaded for arithmetic only

    ctx = p.ctx
    env = {}
    # declare/local/typeset/export/readonly on a CLAUDE* name may unexport, localise, retype
    # or change it, whatever the options (-p and -f only print or name functions)
    printing = any(w[:1] == "-" and w[1:2] != "-" and ("p" in w or "f" in w) for w in a)
    named = any(w[:1] == "-" and "n" in w[1:] and w[1:2] != "-" for w in a)
    export = (
        c.program == "export"
        and not named
        or any(w[:1] == "-" and "x" in w[1:] and w[1:2] != "-" for w in a)
    )
    for w in a:
        name, eq, val = w.partition("=")
        if eq and w[:1] not in ("-", "+"):
            env[name.rstrip("+")] = val
            envwatch.note_assign(ctx, name.rstrip("+"), val, p, export)
            envwatch.value_code(c, val, p)
        elif export and w[:1] not in ("-", "+"):
            envwatch.exported(ctx, name, ctx.vars.get(name))  # `export NAME`: its value now
        if w[:1] not in ("-", "+"):
            envwatch.eval_words(c, [name], p)
            if not printing:
                envwatch.name_changes(ctx, name)
            if named and eq:
                envwatch.name_changes(ctx, val)  # declare -n r=CLAUDECODE; r=0
    if env:
        env_code(c, env, p, declared=True)
    # `declare -n r=x`: $r is whatever x holds when it is used
    ref = any(w[:1] == "-" and "n" in w[1:] and w[1:2] != "-" for w in a)
    # `declare -i n=V`: V is arithmetic, now and in every later assignment to n
    integer = any(w[:1] == "-" and "i" in w[1:] and w[1:2] != "-" for w in a)
    assoc = any(w[:1] == "-" and "A" in w[1:] and w[1:2] != "-" for w in a)
    for w in a:
        if w[:1] in ("-", "+"):
            continue
        name, eq, val = w.partition("=")
        name = name.rstrip("+")
        if assoc:
            ctx.vars.assoc.add(name)
        if integer:
            if eq:
                arith.check_words(c, p, [val])
            ctx.vars.integers.add(name)
            ctx.vars.number(name)
        elif eq and ref and val and val[0] in NAME0 and all(ch in NAMEC for ch in val):
            ctx.vars.pop(name, None)
            ctx.vars.refs[name] = val  # `declare -n r=x`: $r reads x, r=v sets x
        elif eq and (ref or not arith.number_value(val)):
            ctx.setvar(name, None if ref else val)
        elif eq:
            ctx.vars.number(name)
        else:
            ctx.vars.setdefault(name, None)


def h_set(c, a, p, raw):
    i = 0
    while i < len(a):
        w = a[i]
        if w == "--":
            i += 1
            break
        if w[:1] in ("-", "+") and (
            "a" in w[1:] or w[1:] == "o" and a[i + 1 : i + 2] == ["allexport"]
        ):
            p.ctx.allexport = w[:1] == "-"  # set -a: every later NAME=V is exported
        if w[:1] in ("-", "+") and len(w) > 1:
            i += 2 if "o" in w[1:] else 1
            continue
        break
    if i < len(a) or "--" in a:
        if p.pos is not DYNPOS:
            p.pos = list(a[i:])


def h_shift(c, a, p, raw):
    if p.pos is DYNPOS or p.pos is None:
        return
    k = int(a[0]) if a and a[0].isdigit() else 1
    p.pos = p.pos[k:]


def h_at(c, a, p, raw):
    found, ops = opts(a, "fqtmMuv", ())
    files = vals(found, "-f")
    if files:
        c.reads.extend(files)
        c.flag("schedules a script file", unknown=True)
    elif not has(found, "-l", "-r", "-d", "-c"):
        stdin_code(c, [], p, raw, "sh", shell=True)
    return set(ops)


def h_read(c, a, p, raw):
    if c.program in ("mapfile", "readarray"):
        found, ops = opts(a, "dnOsuCc", ())
        for code in vals(found, "-C"):
            # the callback runs as shell code for every chunk of lines read
            c.code.append(code)
            p.subparse(code, keep_cwd=True)
    else:
        found, ops = opts(a, "adinNptu", ())
    names = ops + vals(found, "-a")
    envwatch.eval_words(c, names, p)
    if c.program != "read":
        _mapped(c, p, found, ops)
        return set(names) | set(vals(found, "-C"))
    line = None
    if c.program == "read" and all(k in ("-r", "-p", "-t", "-s") for k, _ in found):
        line = _fed_line(c, p, ("-r", True) in found)
    fields = None
    ifs = p.ctx.vars.get("IFS", " \t\n")
    if line is not None and ops and "IFS" not in c.env and ifs is not None:
        from core.shell.paramops import ifs_split

        white = "".join(ch for ch in ifs if ch in " \t\n")
        fields = [line.strip(white) if white else line] if len(ops) == 1 else ifs_split(line, ifs)
    for k, name in enumerate(names):
        envwatch.name_changes(p.ctx, name)
        # `read f <<< .env`: f holds the line (a field of it), when the line is seen
        known = fields is not None and name in ops and (k < len(ops) - 1 or len(fields) <= k + 1)
        p.ctx.vars[name] = (fields[k] if k < len(fields) else "") if known and fields else None
    return set(names) | set(vals(found, "-C"))


def _mapped(c, p, found, ops):
    """mapfile/readarray NAME: NAME holds the lines fed to it when they are seen (an array's
    (..) text, followed like name=(..)), else nothing the analysis knows."""
    name = ops[0] if ops else "MAPFILE"
    envwatch.name_changes(p.ctx, name)
    body = _fed_text(c, p) if all(k in ("-t", "-s", "-n") for k, _ in found) else None
    lines = body.split("\n") if body is not None else []
    if lines and lines[-1] == "":
        lines.pop()
    if body is None or any("'" in x for x in lines) or len(lines) > 256:
        p.ctx.vars[name] = None
        return
    p.ctx.vars[name] = "(" + " ".join("'%s'" % x for x in lines) + ")"


def _fed_line(c, p, raw_mode):
    """The first line a here-string or a quoted heredoc feeds the command (None when
    another redirect feeds it, its text is not seen, or a backslash needs read's own
    rules without -r)."""
    body = _fed_text(c, p)
    if body is None:
        return None
    line = body.split("\n", 1)[0]
    return None if "\\" in line and not raw_mode else line


def _fed_text(c, p):
    """The text a here-string or a heredoc without expansions feeds the command, or None."""
    feeds = [
        r for r in c.redirects if r.op in ("<<<", "<<", "<<-", "<", "<>") and r.fd in (None, 0)
    ]
    if not feeds or feeds[-1].op not in ("<<<", "<<", "<<-"):
        return None
    r = feeds[-1]
    body = r.body
    if body is None or r.op == "<<<" and r.target in p.dyn:
        return None
    if r.op != "<<<" and not r.quoted and ("$" in body or "`" in body or "\\" in body):
        return None
    return body


def h_unset(c, a, p, raw):
    envwatch.eval_words(c, a, p)
    funcs = "-f" in a and "-v" not in a
    for w in a:
        if w[:1] != "-":
            p.ctx.vars[w] = ""
            if not funcs:
                envwatch.name_changes(p.ctx, w)


def h_printf(c, a, p, raw):
    if a[:1] == ["-v"] and len(a) >= 2 or a and a[0][:2] == "-v" and len(a[0]) > 2:
        name, rest = (a[1], a[2:]) if a[0] == "-v" else (a[0][2:], a[1:])
        envwatch.eval_words(c, [name], p)
        envwatch.name_changes(p.ctx, name)
        # printf -v f '%s%s' .e nv: f holds what printf would print, when its words are seen
        static = not any(w in p.dyn for w in rest) and c.program not in p.ctx.funcs
        from core.shell import printfmt

        p.ctx.vars[name] = printfmt.printf_argv(rest) if static else None
    return set(a[:1])


def h_arith(c, a, p, raw):
    """let, test, [ [[, shift, wait, getopts: words bash may evaluate as names or numbers.
    let's words and the operands of [[ -eq ]] and its kin are arithmetic; the operand of -v
    in [[ and test is a name."""
    from core.shell import arith

    envwatch.eval_words(c, a, p, names=False)
    if c.program == "getopts" and len(a) >= 2:
        envwatch.name_changes(p.ctx, a[1])
    if c.program == "wait":
        for k, w in enumerate(a[:-1]):
            if w[:1] == "-" and w[-1:] == "p":
                envwatch.name_changes(p.ctx, a[k + 1])  # wait -p NAME
    for w in a:
        envwatch.arith_assigns(p.ctx, w)  # let CLAUDECODE=0, [[ CLAUDECODE=0 -eq 0 ]]
    if c.program == "let":
        arith.check_words(c, p, a)
    elif c.program in ("[[", "test", "["):
        for k, w in enumerate(a):
            if w == "-v":
                arith.subscripts(c, p, a[k + 1 : k + 2])
            elif w in arith.TEST_OPS and c.program == "[[" and 0 < k < len(a) - 1:
                arith.check_words(c, p, (a[k - 1], a[k + 1]))
        return looks.split(c, a)  # -f FILE, A -nt B: a file's type, size or times only
    return None


def h_callbacks(c, a, p, raw):
    """Builtins whose option values are code or change what names run: compgen/complete -C
    CMD (analysed), -F FUNC (a function), hash -p PATH NAME (NAME then runs PATH), enable -f
    (loads a shared object) and enable NAME (switches builtins)."""
    prog = c.program
    if prog in ("compgen", "complete"):
        found, ops = opts(a, "oAGWFCXPSa", ())
        for code in vals(found, "-C"):
            c.code.append(code)
            p.subparse(code, keep_cwd=True)
        if vals(found, "-F"):
            c.flag("%s -F runs a shell function" % prog, unknown=True)
        return set(vals(found, "-C", "-W", "-G", "-X", "-P", "-S", "-F"))
    if prog == "hash":
        found, ops = opts(a, "pd", ())
        if vals(found, "-p"):
            p.ctx.path_changed = True
            c.flag("hash -p makes a name run another file", unknown=True)
        return None
    if prog == "enable":
        found, ops = opts(a, "fd", ())
        if vals(found, "-f") or has(found, "-d"):
            c.flag("enable -f loads a shared object into the shell", unknown=True)
        elif ops:
            c.flag("enable switches which builtins run", unknown=True)
        return None
    return None


def h_echo(c, a, p, raw):
    return None


def h_eval(c, a, p, raw):
    code = " ".join(a)
    if not code.strip():
        return None
    c.code.append(code)
    if "$" in code or "`" in code:
        # eval parses the value again: `eval echo $X` runs whatever X holds
        c.flag("eval runs the value of an expansion as code", unknown=True)
    p.subparse(code, keep_cwd=True)
    return set(a)


def h_source(c, a, p, raw):
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
    if f in p.ctx.written and p.ctx.written[f] is not None:
        own_script(c, f, a[1:], p, "source", shell=True)  # written here (<(printf ..) too)
        return None
    c.flag("source runs a script in this shell", unknown=True)


def h_trap(c, a, p, raw):
    found, ops = opts(a, "", (), True)
    if len(ops) >= 2 and ops[0] not in ("-", ""):
        c.code.append(ops[0])
        p.subparse(ops[0], keep_cwd=True)
        return {ops[0]}


def h_alias(c, a, p, raw):
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


def alias_use(args, p):
    """A command whose name is an alias defined earlier (Claude Code's shell expands aliases):
    its text with these arguments runs too."""
    text = p.ctx.aliases.get(args[0])
    if text is not None:
        q = ["'" + w.replace("'", "'\\''") + "'" for w in args[1:]]
        p.subparse(" ".join([text] + q), keep_cwd=True)


def h_base64(c, a, p, raw):
    found, ops = opts(a, "wbio", ("--wrap", "--input", "--output"))
    c.reads.extend(ops)
    c.reads.extend(vals(found, "-i", "--input"))
    c.writes.extend(vals(found, "-o", "--output"))


def h_jq(c, a, p, raw):
    found, ops = opts(
        a,
        "fL",
        (
            "--arg",
            "--argjson",
            "--slurpfile",
            "--rawfile",
            "--from-file",
            "--indent",
            "--args",
            "--jsonargs",
        ),
    )
    skip = set()
    if c.program == "yq" and ops[:1] in (["e"], ["eval"], ["ea"], ["eval-all"]):
        skip.add(ops[0])
        ops = ops[1:]
    if ops and not has(found, "-f", "--from-file"):
        skip.add(ops[0])
        ops = ops[1:]
    if c.program == "yq" and has(found, "-i", "--inplace"):
        c.writes.extend(ops)  # yq -i '.research.required = []' .claude/sane.yaml
    if c.program == "yq" and any(w in ("-s", "--split-exp") or w[:4] == "--sp" for w in a):
        c.writes.append(".")  # one file per document, named by an expression
        c.flag("yq --split-exp writes files named by its expression", unknown=True)
    c.reads.extend(ops)
    c.reads.extend(vals(found, "-f", "--from-file"))
    return skip


def h_pager(c, a, p, raw):
    """less, more, man: readers, except the options that write a log, run a pager or a
    browser, or run a command at start (`less '+!cmd'`)."""
    found, ops = opts(
        a,
        "oOkPHCMSLpEt" if c.program == "man" else "oOkbhjpPtTxyz#",
        ("--log-file", "--LOG-FILE", "--lesskey-file", "--pager", "--html", "--config-file"),
    )
    c.writes.extend(
        vals(found, "-o", "-O", "--log-file", "--LOG-FILE") if c.program != "man" else ()
    )
    if c.program == "man" and has(found, "-P", "--pager", "-H", "--html", "--config-file", "-C"):
        c.flag("man -P/-H runs a program the hooks cannot see", unknown=True)
    if c.program == "man" and has(found, "-l", "--local-file"):
        c.reads.extend(ops)
    elif c.program == "man":
        c.reads.extend(o for o in ops if "/" in o)  # man ./x.1 formats and prints that file
    if any(w[:1] == "+" and ("!" in w or "|" in w) for w in a):
        c.flag("%s runs a command at start" % c.program, unknown=True)
    if c.program != "man":
        c.reads.extend(o for o in ops if o[:1] != "+")
    return set(ops) if c.program == "man" else None


# the read forms of programs that can also change the system: any other form is unknown
_CTL_READ = frozenset(("", "status", "show", "timesync-status", "show-timesync", "help"))
_SMI_READ = (
    "-L",
    "-q",
    "-x",
    "-h",
    "--help",
    "-a",
    "--query",
    "--format",
    "-i",
    "--id",
    "-d",
    "-l",
)
_LFS_READ = frozenset(("ls-files", "status", "env", "version", "locks", "logs", "ext"))


def h_look(c, a, p, raw):
    """Programs that print the system's state in some forms and change it in others (date -s,
    hostname NAME, sysctl -w, ifconfig IF down, timedatectl set-*, ss -K, umask 077 ...)."""
    prog = c.program
    found, ops = opts(a, "dfrI" if prog == "date" else "", ())
    change = False
    if prog == "date":
        change = has(found, "-s", "--set") or any(o[:1] != "+" for o in ops)
        c.reads.extend(vals(found, "-f", "--file", "-r", "--reference"))
    elif prog == "hostname":
        change = bool(ops) or has(found, "-F", "--file", "-b", "--boot")
    elif prog == "sysctl":
        change = has(found, "-w", "--write", "-p", "--load", "-f", "--system") or any(
            "=" in o for o in ops
        )
    elif prog in ("timedatectl", "hostnamectl", "localectl"):
        change = (ops[0] if ops else "") not in _CTL_READ and not ops[0].startswith("list-")
    elif prog == "ifconfig":
        change = len(ops) > 1
    elif prog == "nvidia-smi":
        change = bool(ops) or any(not k.startswith(_SMI_READ) for k, _ in found)
    elif prog == "ss":
        change = has(found, "-K", "--kill", "-D", "--diag")
    elif prog == "git-lfs":
        change = bool(ops) and ops[0] not in _LFS_READ
    elif prog in ("umask", "ulimit"):
        change = bool(ops)
    elif prog == "mount":  # with no device or mount point it lists the mounts
        found, ops = opts(a, "t", ("--types",))
        change = bool(ops) or any(k not in _MOUNT_LIST for k, _ in found)
    elif prog == "stty":  # -a, -g, size, speed print; any other word is a setting
        change = _stty_sets(a)
    if change:
        c.flag("%s changes the system in this form" % prog, unknown=True)
    return None


_MOUNT_LIST = frozenset(("-l", "--show-labels", "-t", "--types", "-h", "--help", "-V", "--version"))
_STTY_READ = frozenset(("-a", "--all", "-g", "--save", "size", "speed", "--help", "--version"))


def _stty_sets(a) -> bool:
    """stty words that change the terminal: everything but the printing forms (and the device
    they print, -F DEV / --file=DEV)."""
    i = 0
    while i < len(a):
        w = a[i]
        if w in ("-F", "--file"):
            i += 2
            continue
        if w[:2] == "-F" or w[:7] == "--file=" or w in _STTY_READ:
            i += 1
            continue
        return True
    return False
