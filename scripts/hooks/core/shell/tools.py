"""The long tail of program handlers for shell_effects (issue 3): git, package managers,
downloaders, archivers, patch, find, awk, perl, editors, disks, remote and multiplexed shells.
Imported on the first command that needs one of them, so `import core.shell` stays cheap."""

from core.shell.effects import _has, _join, _spawn, _stdin_code, _vals, opts, stdin_text


def _h_base64(c, a, p, raw):
    found, ops = opts(a, "wbio", ("--wrap", "--input", "--output"))
    c.reads.extend(ops)
    c.reads.extend(_vals(found, "-i", "--input"))
    c.writes.extend(_vals(found, "-o", "--output"))


def _h_jq(c, a, p, raw):
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
    if ops and not _has(found, "-f", "--from-file"):
        skip.add(ops[0])
        ops = ops[1:]
    if c.program == "yq" and _has(found, "-i", "--inplace"):
        c.writes.extend(ops)  # yq -i '.research.required = []' .claude/sane.yaml
    c.reads.extend(ops)
    c.reads.extend(_vals(found, "-f", "--from-file"))
    return skip


def _h_shred(c, a, p, raw):
    found, ops = opts(a, "ns", ("--iterations", "--size", "--random-source"))
    c.writes.extend(ops)
    c.flag("shred destroys file contents", destructive=True)


def _h_truncate(c, a, p, raw):
    found, ops = opts(a, "sr", ("--size", "--reference"))
    c.reads.extend(_vals(found, "-r", "--reference"))
    c.writes.extend(ops)


def _remote(x):
    """host:path or rsync://: not a local path."""
    if x.startswith("rsync://") or "://" in x:
        return True
    k = x.find(":")
    return k > 0 and "/" not in x[:k]


def _h_rsync(c, a, p, raw):
    found, ops = opts(
        a,
        "eBfTM",
        (
            "--exclude",
            "--include",
            "--filter",
            "--rsh",
            "--rsync-path",
            "--exclude-from",
            "--include-from",
            "--files-from",
            "--password-file",
            "--log-file",
            "--temp-dir",
            "--backup-dir",
            "--compare-dest",
            "--link-dest",
            "--copy-dest",
            "--partial-dir",
            "--chmod",
            "--chown",
            "--bwlimit",
            "--timeout",
            "--max-size",
            "--min-size",
            "--port",
            "--out-format",
            "--suffix",
            "--info",
            "--debug",
            "--iconv",
            "--usermap",
            "--groupmap",
            "--contimeout",
            "--sockopts",
            "--protocol",
            "--modify-window",
            "--block-size",
            "--max-delete",
            "--remote-option",
            "--write-batch",
            "--read-batch",
            "--only-write-batch",
        ),
    )
    c.reads.extend(
        _vals(found, "--exclude-from", "--include-from", "--files-from", "--password-file")
    )
    c.writes.extend(_vals(found, "--log-file"))
    if len(ops) >= 2:
        dst = ops[-1]
        if not _remote(dst):
            c.writes.append(dst)
        srcs = [s for s in ops[:-1] if not _remote(s)]
    else:
        srcs = [s for s in ops if not _remote(s)]
    c.reads.extend(srcs)
    if _has(found, "--remove-source-files"):
        c.writes.extend(srcs)
    if any(k.startswith("--delete") for k, _ in found):
        c.flag("rsync --delete removes files", destructive=True)
    if _vals(found, "-e", "--rsh"):
        c.flag("rsync -e runs a command", unknown=True)


def _h_scp(c, a, p, raw):
    found, ops = opts(a, "cFiJloPSDX", ())
    c.reads.extend(_vals(found, "-F", "-i"))
    if len(ops) >= 2:
        if not _remote(ops[-1]):
            c.writes.append(ops[-1])
        c.reads.extend(s for s in ops[:-1] if not _remote(s))


def _h_dd(c, a, p, raw):
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


def _h_sponge(c, a, p, raw):
    found, ops = opts(a, "")
    c.writes.extend(ops)


def _h_sort(c, a, p, raw):
    found, ops = opts(
        a,
        "oktST",
        (
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
        ),
    )
    c.writes.extend(_vals(found, "-o", "--output"))
    c.reads.extend(ops)
    c.reads.extend(_vals(found, "--files0-from"))
    if _vals(found, "--compress-program"):
        c.flag("sort --compress-program runs a command", unknown=True)
    return set(_vals(found, "-k", "--key", "-t", "--field-separator"))


def _h_uniq(c, a, p, raw):
    found, ops = opts(
        a, "fswD", ("--skip-fields", "--skip-chars", "--check-chars", "--all-repeated", "--group")
    )
    if ops:
        c.reads.append(ops[0])
    if len(ops) > 1:
        c.writes.append(ops[1])


def _h_out_opt(short="o", long_=("--output",), arg_short="", arg_long=()):
    """A tool whose -o/--output FILE is its only write (shuf, gpg, ...)."""
    outs = frozenset(["-" + ch for ch in short] + list(long_))

    def h(c, a, p, raw):
        found, ops = opts(a, short + arg_short, long_ + arg_long)
        c.writes.extend(v for k, v in found if k in outs and v is not True)
        c.reads.extend(ops)

    return h


def _h_xxd(c, a, p, raw):
    found, ops = opts(a, "cglosnC", ("-cols", "-len", "-seek", "-name"))
    if ops:
        c.reads.append(ops[0])
    if len(ops) > 1:
        c.writes.append(ops[1])


def _h_openssl(c, a, p, raw):
    i = 0
    while i < len(a) - 1:
        w = a[i]
        if w in ("-out", "-keyout", "-certout", "-signature", "-outform_file"):
            c.writes.append(a[i + 1])
            i += 1
        elif w in (
            "-in",
            "-key",
            "-inkey",
            "-CAfile",
            "-cert",
            "-config",
            "-kfile",
            "-passin",
            "-pass",
        ):
            v = a[i + 1]
            c.reads.append(v[5:] if v.startswith("file:") else v)
            i += 1
        i += 1


def _h_sshkeygen(c, a, p, raw):
    found, ops = opts(a, "bCDEfFIJjmMnNOPrstVwYzZaGK", ())
    files = _vals(found, "-f")
    if _has(found, "-l", "-y", "-F", "-B", "-L"):
        c.reads.extend(files)
    else:
        c.writes.extend(files)
        c.writes.extend(f + ".pub" for f in files)
    if _has(found, "-R"):
        c.writes.append(p.ctx.home + "/.ssh/known_hosts")


def _h_mkfs(c, a, p, raw):
    found, ops = opts(a, "tLbcCgGiIjJlmMnNoOrsSTUEFdDeEf", ())
    c.writes.extend(o for o in ops if o[:1] == "/")
    c.flag("formats or partitions a disk", destructive=True)


def _h_power(c, a, p, raw):
    c.flag("shuts down or reboots the machine", destructive=True)


def _h_init(c, a, p, raw):
    if a and a[0] in ("0", "6"):
        c.flag("shuts down or reboots the machine", destructive=True)


def _h_systemctl(c, a, p, raw):
    if any(w in ("poweroff", "reboot", "halt", "kexec", "suspend", "hibernate") for w in a):
        c.flag("shuts down or reboots the machine", destructive=True)


def _h_crontab(c, a, p, raw):
    found, ops = opts(a, "u", ())
    if _has(found, "-r"):
        c.flag("crontab -r removes every job", destructive=True)
    elif not _has(found, "-l"):
        c.flag("installs a crontab", unknown=True)
        c.reads.extend(ops)


def _h_find(c, a, p, raw):
    starts = []
    i = 0
    while i < len(a) and a[i][:1] not in ("-", "(", "!", ",") and a[i] != "\\(":
        starts.append(a[i])
        i += 1
    if i < len(a) and a[i] in ("-H", "-L", "-P"):
        pass
    if not starts:
        starts = ["."]
    c.reads.extend(starts)
    skip = set()
    while i < len(a):
        w = a[i]
        if w in ("-exec", "-execdir", "-ok", "-okdir"):
            j = i + 1
            while j < len(a) and a[j] not in (";", "+"):
                j += 1
            inner = a[i + 1 : j]
            skip.update(a[i + 1 : j + 1])
            start = starts[0] if len(starts) == 1 else "$(find-result)"
            _spawn([x.replace("{}", start) for x in inner], p)
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
        i += 1
    return skip


def _h_awk(c, a, p, raw):
    found, ops = opts(
        a,
        "fvFeilE",
        ("--file", "--assign", "--field-separator", "--source", "--include", "--load", "--exec"),
    )
    progs = _vals(found, "-e", "--source")
    files = _vals(found, "-f", "--file", "-E", "--exec", "-i", "--include")
    c.reads.extend(files)
    skip = set(_vals(found, "-v", "--assign", "-F", "--field-separator"))
    if not progs and not files and ops:
        progs = [ops[0]]
        ops = ops[1:]
    skip.update(progs)
    c.reads.extend(o for o in ops if "=" not in o or "/" in o.split("=", 1)[0])
    for prog in progs:
        if len(prog) > 20000 or _awk_runs(prog):
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
    if "system" in code or "|" in code.replace("||", ""):
        return True
    for stmt in code.replace("{", ";").replace("}", ";").replace("\n", ";").split(";"):
        st = stmt.strip()
        if (st.startswith("print") or st.startswith("printf")) and ">" in st:
            return True
    return False


def _h_perl(c, a, p, raw):
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
    elif ops and ops[0] != "-":
        c.reads.append(ops[0])
        files = ops[1:]
    else:
        _stdin_code(c, ops[1:], p, raw, "perl")
        files = []
    c.reads.extend(files)
    if inplace:
        c.writes.extend(files)
    return {code} if code else None


# interpreters: name -> (label, short code opts, long code opts, short opts with a value,
#                        long opts with a value, short module opt)


def _h_deno_bun(c, a, p, raw):
    if not a:
        return _stdin_code(c, a, p, raw, c.program)
    sub = a[0]
    if sub == "eval" or sub in ("-e", "--eval", "-p", "--print"):
        code = a[1] if len(a) > 1 else ""
        c.code.append(code)
        c.flag("inline %s code (%s %s)" % (c.program, c.program, sub), unknown=True)
        return {code}
    if sub in ("add", "install", "i", "remove", "rm", "update", "upgrade", "link"):
        return _pkg_node(c, a, p, raw)
    if sub == "run" and len(a) > 1:
        found, ops = opts(a[1:], "", ())
        if ops and ops[0] == "-":
            return _stdin_code(c, ops[1:], p, raw, c.program)
        c.reads.extend(ops[:1])
    return None


def _h_pwsh(c, a, p, raw):
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
    _stdin_code(c, [], p, raw, "PowerShell")


def _h_watch(c, a, p, raw):
    found, ops = opts(a, "ndq", ("--interval", "--differences", "--equexit"), True)
    if not ops:
        return None
    if _has(found, "-x", "--exec"):
        _spawn(ops, p)
    else:
        code = " ".join(ops)
        c.code.append(code)
        p.subparse(code)
    return set(ops)


def _h_flock(c, a, p, raw):
    found, ops = opts(a, "wEc", ("--timeout", "--conflict-exit-code", "--command"), True)
    code = _vals(found, "-c", "--command")
    if ops:
        c.writes.append(ops[0])
        rest = ops[1:]
        if rest[:1] in (["-c"], ["--command"]) and len(rest) > 1:
            code = [rest[1]]
        elif rest:
            _spawn(rest, p)
            return set(rest)
    if code:
        c.code.append(code[0])
        p.subparse(code[0])
        return set(code)


def _h_su(c, a, p, raw):
    found, ops = opts(
        a,
        "cgGsw",
        (
            "--command",
            "--session-command",
            "--group",
            "--supp-group",
            "--shell",
            "--whitelist-environment",
        ),
    )
    code = _vals(found, "-c", "--command", "--session-command")
    if code:
        c.code.append(code[0])
        p.subparse(code[0])
        return set(code)
    if c.program == "runuser" and ops and ops[0] != "-":
        _spawn(ops[1:] if len(ops) > 1 and not _has(found, "-u", "--user") else ops, p)
        return set(ops)
    _stdin_code(c, [], p, raw, "sh", shell=True)


def _h_runuser(c, a, p, raw):
    found, ops = opts(
        a,
        "cgGsu",
        ("--command", "--session-command", "--group", "--user", "--supp-group", "--shell"),
        False,
    )
    code = _vals(found, "-c", "--command", "--session-command")
    if code:
        c.code.append(code[0])
        p.subparse(code[0])
        return set(code)
    if _has(found, "-u", "--user"):
        _spawn(ops, p)
    elif len(ops) > 1:
        _spawn(ops[1:], p)
    return set(ops)


def _h_script(c, a, p, raw):
    found, ops = opts(
        a,
        "cEoTIOBm",
        (
            "--command",
            "--echo",
            "--output-limit",
            "--log-timing",
            "--log-in",
            "--log-out",
            "--log-io",
            "--logging-format",
        ),
    )
    code = _vals(found, "-c", "--command")
    c.writes.extend(ops[:1] or ([] if code else ["typescript"]))
    c.writes.extend(
        _vals(found, "-T", "--log-timing", "-I", "--log-in", "-O", "--log-out", "-B", "--log-io")
    )
    if code:
        c.code.append(code[0])
        p.subparse(code[0])
        return set(code)


def _h_ssh(c, a, p, raw):
    found, ops = opts(a, "bcDEeFIiJLlmOopQRSWwB", (), True)
    c.reads.extend(_vals(found, "-F", "-i"))
    if len(ops) > 1:
        c.code.append(" ".join(ops[1:]))
        c.flag("remote command over ssh", unknown=True)
    elif ops and c.stdin_is_data and c.program == "ssh":
        c.flag("remote command over ssh", unknown=True)  # a script on the remote's stdin
    return set(ops)


def _h_tmux(c, a, p, raw):
    if any(w in ("send-keys", "send", "send-key", "run-shell", "run") for w in a) or (
        any(
            w
            in (
                "new-window",
                "neww",
                "new-session",
                "new",
                "split-window",
                "splitw",
                "respawn-pane",
                "respawnp",
                "respawn-window",
                "respawnw",
            )
            for w in a
        )
        and any(" " in w for w in a)
    ):
        c.flag("keystrokes or commands sent to another shell", unknown=True)
    return set(a)


def _h_screen(c, a, p, raw):
    if "-X" in a or any(len(w) > 1 and w[0] == "-" and "X" in w for w in a):
        c.flag("keystrokes or commands sent to another shell", unknown=True)
        return set(a)
    i = 0
    while i < len(a):  # `screen -dmS x sh -c '...'` runs the rest, detached
        w = a[i]
        if w in ("-S", "-c", "-e", "-h", "-p", "-s", "-T", "-t", "-Logfile") or (
            w[:1] == "-"
            and len(w) > 2
            and w[1] != "-"
            and w[-1] in "ScehpsTt"
            and w not in ("-list", "-wipe")
        ):
            if w == "-Logfile" and i + 1 < len(a):
                c.writes.append(a[i + 1])
            i += 2
            continue
        if w[:1] != "-":
            break
        i += 1
    if a[i:]:
        _spawn(a[i:], p)
    return set(a)


_SQLITE_CODE = ("attach", "vacuum", "load_extension", "writefile", "edit(", "backup")


def _h_sqlite3(c, a, p, raw):
    """The database file is written; dot-commands (.system, .shell, .output, .backup) and
    ATTACH / VACUUM INTO / writefile() reach other files or run commands."""
    found, ops = opts(a, "", ("-cmd", "-separator", "-newline", "-nullvalue", "-init"))
    if ops and ops[0] != ":memory:" and "-readonly" not in a and "--readonly" not in a:
        c.writes.append(ops[0])
    sql = ops[1:] + _vals(found, "-cmd")
    body = stdin_text(raw) if c.stdin_is_data else ""
    if body is None or _vals(found, "-init"):
        c.flag("sqlite3 script we cannot see", unknown=True)
    else:
        sql.append(body)
    for s in sql:
        low = s.lower()
        if s.lstrip()[:1] == "." or "\n." in s or any(k in low for k in _SQLITE_CODE):
            c.flag("sqlite3 command that reaches files or runs commands", unknown=True)
    return set(ops[1:])


def _h_parallel(c, a, p, raw):
    for sep in (":::", "::::", ":::+", "::::+"):
        if sep in a:
            k = a.index(sep)
            break
    else:
        k = len(a)
    head, tail = a[:k], [x for x in a[k + 1 :] if x not in (":::", "::::", ":::+", "::::+")]
    found, tmpl = opts(
        head,
        "jNnLlsIaSEd",
        (
            "--jobs",
            "--arg-file",
            "--colsep",
            "--sshlogin",
            "--delimiter",
            "--tmpdir",
            "--results",
            "--joblog",
            "--workdir",
            "--env",
            "--halt",
        ),
        True,
    )
    c.reads.extend(_vals(found, "-a", "--arg-file"))
    args = tail[:16] if tail and not any(x == "::::" for x in a) else ["$(parallel-input)"]
    if not tmpl:
        for x in args:
            c.code.append(x)
            p.subparse(x)
        return set(a)
    code = " ".join(tmpl)
    for x in args:
        line = code.replace("{}", x) if "{}" in code else code + " " + x
        c.code.append(line)
        p.subparse(line)
    return set(a)


def _h_editor(c, a, p, raw):
    prog = c.program
    if prog in ("ed", "red"):
        found, ops = opts(a, "p", ())
        body = stdin_text(raw)
        if body is None or any(line.startswith("!") for line in body.split("\n")):
            c.flag("editor script runs commands", unknown=True)
    elif prog in ("emacs",):
        found, ops = opts(
            a, "lLfu", ("--eval", "--load", "--funcall", "--directory", "--user", "--script")
        )
        if _vals(found, "--eval", "-l", "--load", "-f", "--funcall", "--script"):
            c.flag("editor runs a script", unknown=True)
    else:
        found, ops = opts(a, "cSsTuiwW" if prog != "ex" else "cSTuiwW", ("--cmd",))
        if _vals(found, "-c", "--cmd", "-S", "-s") or any(o[:1] == "+" for o in ops):
            c.flag("editor runs a script", unknown=True)
    files = [o for o in ops if o[:1] != "+"]
    if not _has(found, "-R") and prog != "view":
        c.writes.extend(files)
    c.reads.extend(files)
    return set(_vals(found, "-c", "--cmd", "--eval")) | set(o for o in ops if o[:1] == "+")


def _h_patch(c, a, p, raw):
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
    if _has(found, "--dry-run", "-C", "--check"):
        c.reads.extend(ops)
        c.reads.extend(_vals(found, "-i", "--input"))
        return
    d = (_vals(found, "-d", "--directory") or [None])[-1]
    strip = _vals(found, "-p", "--strip")
    c.writes.extend(_vals(found, "-r", "--reject-file"))
    out = _vals(found, "-o", "--output")
    inputs = _vals(found, "-i", "--input")
    c.reads.extend(inputs)
    if len(ops) > 1:
        c.reads.append(ops[1])
    if out:
        c.writes.extend(out)
        c.reads.extend(ops[:1])
        return
    if ops:
        c.writes.append(_join(d, ops[0]) if d else ops[0])
        return
    body = stdin_text(raw) if not inputs else None
    if body:
        targets = _patch_targets(body, int(strip[0]) if strip and strip[0].isdigit() else None)
        if targets:
            c.writes.extend(_join(d, t) if d else t for t in targets)
            return
    c.writes.append(d or ".")
    c.flag("patch targets not visible", unknown=True)


def _patch_targets(body, strip, default_strip=None):
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


def _h_curl(c, a, p, raw):
    found, ops = opts(
        a,
        "AbcCdDeEFHKmoPQrtTuUwxXyYz",
        (
            "--output",
            "--output-dir",
            "--dump-header",
            "--cookie-jar",
            "--cookie",
            "--config",
            "--upload-file",
            "--data",
            "--data-binary",
            "--data-raw",
            "--data-urlencode",
            "--data-ascii",
            "--form",
            "--form-string",
            "--json",
            "--header",
            "--user-agent",
            "--user",
            "--proxy",
            "--request",
            "--referer",
            "--cert",
            "--key",
            "--cacert",
            "--capath",
            "--max-time",
            "--connect-timeout",
            "--retry",
            "--range",
            "--write-out",
            "--trace",
            "--trace-ascii",
            "--stderr",
            "--libcurl",
            "--etag-save",
            "--etag-compare",
            "--hsts",
            "--alt-svc",
            "--netrc-file",
            "--url",
            "--resolve",
            "--interface",
            "--limit-rate",
            "--max-filesize",
            "--oauth2-bearer",
            "--time-cond",
            "--quote",
            "--continue-at",
            "--proto",
            "--proto-redir",
            "--aws-sigv4",
            "--variable",
        ),
    )
    dirs = _vals(found, "--output-dir")
    base = dirs[-1] if dirs else None
    for v in _vals(found, "-o", "--output"):
        if v != "-":
            c.writes.append(_join(base, v) if base else v)
    urls = ops + _vals(found, "--url")
    if _has(found, "-O", "--remote-name", "--remote-name-all", "-J", "--remote-header-name"):
        for u in urls:
            name = u.split("?")[0].split("#")[0].rstrip("/").rsplit("/", 1)[-1]
            if (
                _has(found, "-J", "--remote-header-name")
                or not name
                or "://" in u
                and u.split("://", 1)[1].find("/") < 0
            ):
                c.writes.append(base or ".")
                c.flag("curl names the downloaded file itself", unknown=True)
            else:
                c.writes.append(_join(base, name) if base else name)
    for v in _vals(
        found,
        "-D",
        "--dump-header",
        "-c",
        "--cookie-jar",
        "--trace",
        "--trace-ascii",
        "--stderr",
        "--libcurl",
        "--etag-save",
        "--hsts",
        "--alt-svc",
    ):
        if v != "-":
            c.writes.append(v)
    c.reads.extend(
        _vals(
            found,
            "-K",
            "--config",
            "-T",
            "--upload-file",
            "-E",
            "--cert",
            "--key",
            "--cacert",
            "--netrc-file",
            "--etag-compare",
        )
    )
    for v in _vals(found, "-b", "--cookie"):
        if "=" not in v:
            c.reads.append(v)
    for v in _vals(
        found,
        "-d",
        "--data",
        "--data-binary",
        "--data-urlencode",
        "--data-ascii",
        "--json",
        "-F",
        "--form",
    ):
        at = v.find("@")
        lt = v.find("<") if v[:1] != "<" else 0
        if at >= 0 and (at == 0 or v[at - 1] == "="):
            c.reads.append(v[at + 1 :].split(";")[0])
        elif lt >= 0 and (lt == 0 or v[lt - 1] == "="):
            c.reads.append(v[lt + 1 :].split(";")[0])
    return set(
        _vals(
            found,
            "-H",
            "--header",
            "-d",
            "--data",
            "--data-raw",
            "-A",
            "--user-agent",
            "-w",
            "--write-out",
            "-X",
            "--request",
        )
    )


def _h_wget(c, a, p, raw):
    found, ops = opts(
        a,
        "OoaPiUtTwlAReDQ",
        (
            "--output-document",
            "--output-file",
            "--append-output",
            "--directory-prefix",
            "--input-file",
            "--post-file",
            "--body-file",
            "--load-cookies",
            "--save-cookies",
            "--user-agent",
            "--tries",
            "--timeout",
            "--wait",
            "--level",
            "--accept",
            "--reject",
            "--header",
            "--user",
            "--password",
            "--post-data",
            "--method",
            "--body-data",
            "--domains",
            "--exclude-domains",
            "--ca-certificate",
            "--certificate",
            "--private-key",
        ),
    )
    out = _vals(found, "-O", "--output-document")
    pref = (_vals(found, "-P", "--directory-prefix") or [None])[-1]
    for v in out:
        if v != "-":
            c.writes.append(v)
    c.writes.extend(_vals(found, "-o", "--output-file", "-a", "--append-output", "--save-cookies"))
    c.reads.extend(
        _vals(
            found,
            "-i",
            "--input-file",
            "--post-file",
            "--body-file",
            "--load-cookies",
            "--ca-certificate",
            "--certificate",
            "--private-key",
        )
    )
    if not out:
        if _has(found, "-r", "--recursive", "-m", "--mirror"):
            c.writes.append(pref or ".")
        else:
            for u in ops:
                name = (
                    u.split("?")[0].split("#")[0].rsplit("/", 1)[-1]
                    if "/" in u.split("://", 1)[-1]
                    else ""
                )
                name = name or "index.html"
                c.writes.append(_join(pref, name) if pref else name)
    return set(ops)


def _h_tar(c, a, p, raw):
    a = list(a)
    if a and a[0][:1] != "-" and a[0] and all(ch.isalpha() for ch in a[0]):
        a[0] = "-" + a[0]  # old style: tar xzf file
    found, ops = opts(
        a,
        "fCTXIbgHKLNVF",
        (
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
        ),
    )
    names = [k for k, v in found]
    archive = _vals(found, "-f", "--file")
    dirs = _vals(found, "-C", "--directory")
    d = dirs[-1] if dirs else None
    c.reads.extend(_vals(found, "-T", "--files-from", "-X", "--exclude-from"))
    c.writes.extend(_vals(found, "-g", "--listed-incremental", "--index-file"))
    if any(v.startswith("exec") for v in _vals(found, "--checkpoint-action")) or _has(
        found, "--to-command", "--info-script", "-F", "--new-volume-script", "--rsh-command"
    ):
        c.flag("tar runs a command", unknown=True)
    extract = any(k in ("-x", "--extract", "--get") for k in names)
    create = any(
        k
        in (
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
        for k in names
    )
    if extract:
        c.reads.extend(x for x in archive if x != "-")
        if _has(found, "-O", "--to-stdout"):
            pass
        elif ops:
            c.writes.extend(_join(d, o) if d else o for o in ops)
        else:
            c.writes.append(d or ".")
    elif create:
        c.writes.extend(x for x in archive if x != "-")
        c.reads.extend(_join(d, o) if d else o for o in ops)
        if _has(found, "--remove-files"):
            c.writes.extend(_join(d, o) if d else o for o in ops)
    else:
        c.reads.extend(x for x in archive if x != "-")
    return set(_vals(found, "--transform", "--xform", "--exclude"))


def _h_unzip(c, a, p, raw):
    if "-x" in a:
        a = a[: a.index("-x")]
    found, ops = opts(a, "dP", ())
    if ops:
        c.reads.append(ops[0])
    if _has(found, "-l", "-t", "-v", "-z", "-Z", "-p", "-c"):
        return None
    d = (_vals(found, "-d") or [None])[-1]
    members = ops[1:]
    if members:
        c.writes.extend(_join(d, m) if d else m for m in members)
    else:
        c.writes.append(d or ".")


def _h_zip(c, a, p, raw):
    for flag in ("-x", "-i"):
        if flag in a:
            a = a[: a.index(flag)]
    found, ops = opts(
        a,
        "bntPZO",
        ("--temp-path", "--suffixes", "--output-file", "--password", "--compression-method"),
    )
    if ops:
        c.writes.append(ops[0])
        c.reads.extend(ops[1:])
        if _has(found, "-m", "--move"):
            c.writes.extend(ops[1:])
    c.writes.extend(_vals(found, "-O", "--output-file"))


def _h_7z(c, a, p, raw):
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
    else:
        c.reads.extend(ops)


def _h_gzip(c, a, p, raw):
    found, ops = opts(a, "SbLo", ("--suffix", "--output"))
    outs = _vals(found, "-o", "--output")
    c.reads.extend(ops)
    if outs:
        c.writes.extend(outs)
    elif not _has(found, "-c", "--stdout", "--to-stdout", "-t", "--test", "-l", "--list"):
        c.writes.extend(ops)


def _h_dos2unix(c, a, p, raw):
    found, ops = opts(a, "", ())
    c.reads.extend(ops)
    if _has(found, "-n", "--newfile"):
        c.writes.extend(ops[1::2])
    else:
        c.writes.extend(ops)


def _h_split(c, a, p, raw):
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
    if _has(found, "--filter"):
        c.flag("split --filter runs a command", unknown=True)


# -- package managers ---------------------------------------------------------------


_PKG_SUBS = frozenset(
    (
        "install",
        "i",
        "add",
        "ci",
        "uninstall",
        "remove",
        "rm",
        "un",
        "r",
        "update",
        "up",
        "upgrade",
        "link",
        "prune",
        "dedupe",
        "sync",
        "lock",
        "init",
        "new",
        "download",
        "wheel",
        "purge",
        "autoremove",
        "reinstall",
        "require",
        "get",
        "tidy",
        "fix",
        "create",
        "build-dep",
        "unlink",
        "dist-upgrade",
        "full-upgrade",
        "erase",
        "localinstall",
        "del",
        "update-lock",
        "patch",
        "pack",
        "venv",
    )
)


_SYSTEM_PKG = {
    "apt": "/usr",
    "apt-get": "/usr",
    "aptitude": "/usr",
    "dpkg": "/usr",
    "dnf": "/usr",
    "yum": "/usr",
    "microdnf": "/usr",
    "rpm": "/usr",
    "apk": "/usr",
    "pacman": "/usr",
    "zypper": "/usr",
    "emerge": "/usr",
    "xbps-install": "/usr",
    "snap": "/snap",
    "flatpak": "/var/lib/flatpak",
    "port": "/opt/local",
    "brew": "/usr/local",
    "nix-env": "/nix",
    "pkg": "/usr/local",
    "choco": "C:/ProgramData/chocolatey",
    "winget": "C:/Program Files",
    "scoop": "~/scoop",
}


def pkg_pip(c, a, p, raw=None):
    found, ops = opts(
        a,
        "rtcedi",
        (
            "--requirement",
            "--target",
            "--constraint",
            "--prefix",
            "--root",
            "--editable",
            "--index-url",
            "--extra-index-url",
            "--dest",
            "--wheel-dir",
            "--python",
            "--find-links",
            "--src",
            "--cache-dir",
            "--report",
            "--platform",
        ),
    )
    sub = ops[0] if ops else ""
    c.reads.extend(_vals(found, "-r", "--requirement", "-c", "--constraint"))
    if sub in ("install", "uninstall", "download", "wheel"):
        dest = _vals(
            found, "-t", "--target", "--prefix", "--root", "-d", "--dest", "-w", "--wheel-dir"
        )
        if dest:
            c.writes.extend(dest)
        elif _has(found, "--user"):
            c.writes.append(p.ctx.home + "/.local")
        else:
            c.writes.append(".")
        c.flag("package install")
    return set(ops)


def _pkg_node(c, a, p, raw):
    found, ops = opts(a, "C", ("--prefix", "--dir", "--cwd", "--workspace", "--filter"))
    sub = ops[0] if ops else ("install" if c.program in ("yarn", "bun") else "")
    if c.program == "npm" and sub in (
        "exec",
        "x",
        "run",
        "run-script",
        "test",
        "t",
        "start",
        "stop",
        "restart",
    ):
        return set(ops)
    if sub in _PKG_SUBS or (c.program == "yarn" and not ops):
        if _has(found, "-g", "--global") or (c.program == "yarn" and ops[:1] == ["global"]):
            c.flag("global package install", unknown=True)
        d = _vals(found, "--prefix", "--dir", "--cwd", "-C")
        c.writes.append(d[-1] if d else ".")
        c.flag("package install")
    return set(ops)


def _pkg_generic(c, a, p, raw):
    found, ops = opts(a, "C", ("--manifest-path", "--directory", "--project", "--python"))
    prog = c.program
    sub = ops[0] if ops else ""
    if prog in _SYSTEM_PKG:
        names = [k for k, _ in found]
        if prog in ("dpkg", "rpm"):
            changes = any(
                k in ("-i", "--install", "-r", "--remove", "-P", "--purge", "-U", "-e", "--erase")
                for k in names
            )
        elif prog == "pacman":
            changes = any(k in ("-S", "-R", "-U") for k in names)
        elif prog == "emerge":
            changes = bool(ops)
        else:
            changes = sub in _PKG_SUBS
        if changes:
            c.writes.append(_SYSTEM_PKG[prog].replace("~", p.ctx.home))
            c.flag("system package install")
            if sub in ("purge", "autoremove") or prog == "pacman" and "-R" in names:
                c.flag("removes system packages", destructive=True)
        return set(ops)
    if prog in ("cargo", "go") and sub == "install":
        c.writes.append(p.ctx.home + ("/.cargo" if prog == "cargo" else "/go"))
        c.flag("package install")
        return set(ops)
    if prog in ("gem",) and sub in ("install", "uninstall", "update"):
        c.flag("global package install", unknown=True)
        c.writes.append(".")
        return set(ops)
    if prog == "uv" and sub == "pip":
        return pkg_pip(c, a[a.index("pip") + 1 :], p)
    if prog == "uv" and sub == "tool" and ops[1:2] in (["install"], ["uninstall"]):
        c.writes.append(p.ctx.home + "/.local")
        c.flag("package install")
        return set(ops)
    if prog in ("conda", "mamba", "micromamba") and sub in (
        "install",
        "create",
        "remove",
        "update",
        "uninstall",
    ):
        c.flag("global package install", unknown=True)
        c.writes.append(".")
        return set(ops)
    if (
        prog == "go"
        and sub in ("get", "generate", "fmt")
        or prog == "go"
        and sub == "mod"
        and ops[1:2] in (["tidy"], ["init"], ["edit"], ["vendor"], ["download"])
        or prog == "cargo"
        and sub in ("add", "remove", "rm", "update", "new", "init", "fix", "fmt", "clippy")
        and (sub != "clippy" or "--fix" in a)
        or prog not in ("go", "cargo")
        and sub in _PKG_SUBS
    ):
        d = _vals(found, "-C", "--directory", "--project")
        c.writes.append(d[-1] if d else ".")
        c.flag("package install" if sub not in ("fmt", "fix", "clippy") else "formats code")
    return set(ops)


# -- formatters that rewrite files ----------------------------------------------------


_FORMATTERS = {
    # name: (flags that make it write, flags that keep it read-only)
    "black": (None, ("--check", "--diff")),
    "isort": (None, ("--check", "--check-only", "--diff", "-c")),
    "autopep8": (("-i", "--in-place"), ()),
    "yapf": (("-i", "--in-place"), ()),
    "prettier": (("--write", "-w"), ()),
    "eslint": (("--fix",), ()),
    "gofmt": (("-w",), ()),
    "goimports": (("-w",), ()),
    "rustfmt": (None, ("--check",)),
    "clang-format": (("-i",), ()),
    "shfmt": (("-w", "--write"), ()),
    "stylua": (None, ("--check",)),
    "terraform": (None, ("-check",)),
    "biome": (("--write", "--apply", "--fix"), ()),
    "dprint": (None, ("check",)),
    "ruff": (None, ("--check", "--diff")),
}


def _h_formatter(c, a, p, raw, prog=None):
    prog = (prog or c.program).lower()
    prog = (
        prog
        if prog in _FORMATTERS
        else prog[1:]
        if prog[1:] in _FORMATTERS
        else prog.rstrip("0123456789.")
    )
    if prog not in _FORMATTERS:
        return None
    on, off = _FORMATTERS[prog]
    if prog == "ruff":
        if not a or a[0] not in ("format", "check"):
            return None
        if a[0] == "check" and "--fix" not in a:
            return None
        a = a[1:]
    if prog == "terraform":
        if not a or a[0] != "fmt":
            return None
        a = a[1:]
    if prog == "dprint" and (not a or a[0] != "fmt"):
        return None
    if (
        prog == "biome"
        and a
        and a[0] in ("format", "check", "lint")
        and a[0] == "format"
        and "--write" not in a
    ):
        return None
    if on is not None and not any(w in on or w.split("=")[0] in on for w in a):
        return None
    if any(w in off for w in a):
        return None
    ops = [w for w in a if w[:1] != "-"]
    c.writes.extend(ops or ["."])
    c.flag("formats code")


# -- git -------------------------------------------------------------------------------


_GIT_READ = frozenset(
    (
        "status",
        "log",
        "diff",
        "show",
        "blame",
        "annotate",
        "shortlog",
        "describe",
        "rev-parse",
        "rev-list",
        "ls-files",
        "ls-tree",
        "ls-remote",
        "cat-file",
        "grep",
        "help",
        "version",
        "whatchanged",
        "cherry",
        "merge-base",
        "name-rev",
        "for-each-ref",
        "count-objects",
        "fsck",
        "verify-commit",
        "verify-tag",
        "verify-pack",
        "show-ref",
        "show-branch",
        "range-diff",
        "check-ignore",
        "check-attr",
        "check-ref-format",
        "var",
        "diff-tree",
        "diff-index",
        "diff-files",
        "show-index",
        "get-tar-commit-id",
        "request-pull",
        "difftool",
        "instaweb",
        "citool",
        "gui",
        "gitk",
        "bugreport",
        "mailinfo",
        "mailsplit",
        "column",
        "credential",
        "hash-object",
        "interpret-trailers",
        "patch-id",
        "fetch-pack",
        "send-pack",
        "unpack-file",
        "ls-remote",
        "remote-show",
    )
)


_GIT_META = frozenset(
    (
        "add",
        "commit",
        "fetch",
        "notes",
        "update-ref",
        "update-index",
        "gc",
        "prune",
        "repack",
        "replace",
        "symbolic-ref",
        "pack-refs",
        "maintenance",
        "commit-tree",
        "mktag",
        "mktree",
        "write-tree",
        "fast-import",
        "unpack-objects",
        "index-pack",
        "commit-graph",
        "multi-pack-index",
        "prune-packed",
        "rerere",
        "lfs",
        "push",
        "filter-branch",
        "filter-repo",
        "tag",
        "branch",
        "remote",
        "config",
        "reflog",
        "bundle",
        "fast-export",
        "archive",
        "format-patch",
    )
)


_GIT_TREE = frozenset(
    (
        "checkout",
        "switch",
        "restore",
        "merge",
        "rebase",
        "pull",
        "cherry-pick",
        "revert",
        "am",
        "apply",
        "reset",
        "mv",
        "rm",
        "clean",
        "bisect",
        "submodule",
        "worktree",
        "sparse-checkout",
        "stash",
        "clone",
        "init",
        "read-tree",
        "checkout-index",
        "merge-file",
        "merge-index",
        "mergetool",
        "stage",
        "subtree",
    )
)


# short options that take a value, per subcommand (the rest are flags)
_GIT_SHORT_ARGS = {
    "commit": "mFCct",
    "tag": "mFu",
    "merge": "mFsX",
    "notes": "mFCc",
    "revert": "mX",
    "cherry-pick": "mX",
    "stash": "m",
    "pull": "sX",
    "checkout": "bB",
    "switch": "cC",
    "clone": "bocu",
    "worktree": "bB",
    "log": "nL",
    "show": "n",
    "blame": "L",
    "grep": "efABCm",
    "rebase": "xsX",
    "branch": "u",
    "push": "o",
    "fetch": "o",
    "archive": "o",
    "format-patch": "o",
    "config": "f",
    "am": "p",
    "apply": "pC",
    "restore": "s",
    "reset": "",
    "clean": "eX",
    "rm": "",
    "mv": "",
    "submodule": "",
    "bisect": "",
    "init": "",
    "bugreport": "os",
    "difftool": "xty",
}
_GIT_LONG_ARGS = (
    "--message",
    "--file",
    "--author",
    "--date",
    "--template",
    "--reuse-message",
    "--reedit-message",
    "--fixup",
    "--squash",
    "--cleanup",
    "--trailer",
    "--branch",
    "--depth",
    "--origin",
    "--reference",
    "--separate-git-dir",
    "--upstream",
    "--onto",
    "--strategy",
    "--strategy-option",
    "--exec",
    "--format",
    "--pretty",
    "--since",
    "--until",
    "--grep",
    "--source",
    "--pathspec-from-file",
    "--conflict",
    "--set-upstream-to",
    "--output",
    "--prefix",
    "--remote",
    "--jobs",
    "--config",
    "--shallow-since",
    "--shallow-exclude",
    "--filter",
    "--add-file",
    "--output-directory",
    "--exclude",
    "--directory",
    "--push-option",
    "--receive-pack",
    "--upload-pack",
    "--repo",
)
_GIT_RISKY_CONFIG = (
    "alias.",
    "core.pager",
    "core.editor",
    "core.sshcommand",
    "core.hookspath",
    "core.fsmonitor",
    "core.askpass",
    "diff.external",
    "sequence.editor",
    "gpg.program",
    "credential.helper",
    "pager.",
    "filter.",
    "merge.",
    "diff.",
    "uploadpack.packobjectshook",
    "core.gitproxy",
    "protocol.",
    "include.path",
    "includeif.",
)


def _h_git(c, a, p, raw):
    repo = None
    i = 0
    n = len(a)
    skip = set()
    while i < n:
        w = a[i]
        if w == "-C" and i + 1 < n:
            repo = _join(repo, a[i + 1]) if repo else a[i + 1]
            i += 2
            continue
        if w == "-c" and i + 1 < n:
            key = a[i + 1].split("=", 1)[0].lower()
            val = a[i + 1].split("=", 1)[1] if "=" in a[i + 1] else ""
            harmless = key.startswith(("core.pager", "pager.")) and val in ("cat", "less", "")
            if not harmless and (key.startswith(_GIT_RISKY_CONFIG) or "!" in val):
                c.flag("git -c sets a command to run", unknown=True)
            i += 2
            continue
        if (
            w in ("--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env")
            and i + 1 < n
        ):
            if w in ("--git-dir", "--work-tree"):
                repo = a[i + 1] if w == "--work-tree" else repo
            i += 2
            continue
        if w.startswith("--work-tree="):
            repo = w[12:]
        if w[:1] == "-":
            if w in ("--version", "--help", "-h"):
                return None
            i += 1
            continue
        break
    if i >= n:
        return None
    sub = a[i]
    rest = a[i + 1 :]
    base = repo or "."
    gitdir = _join(base, ".git")
    found, ops = opts(rest, _GIT_SHORT_ARGS.get(sub, ""), _GIT_LONG_ARGS)
    names = [k for k, _ in found]
    skip.update(
        _vals(
            found, "-m", "--message", "-F", "--file", "--format", "--pretty", "--grep", "--author"
        )
    )
    for code in _vals(found, "-x", "--exec") if sub == "rebase" else ():
        c.code.append(code)
        p.subparse(code)
        skip.add(code)
    dashdash = rest.index("--") + 1 if "--" in rest else -1
    paths = rest[dashdash:] if dashdash > 0 else []

    def write(*ps):
        for x in ps:
            c.writes.append(_join(repo, x) if repo else x)

    if sub in _GIT_READ:
        if sub in ("show", "cat-file", "grep") or sub == "log":
            for o in ops:
                if ":" in o and not o.startswith(":") and "://" not in o:
                    c.reads.append(o.split(":", 1)[1] or ".")
        if sub == "grep" and ops and not _has(found, "-e", "-f"):
            skip.add(ops[0])
            c.reads.extend(o for o in ops[1:] if o != "--")
        c.reads.extend(paths)
        if sub == "hash-object" and "-w" in names:
            write(gitdir)
        # the diff family writes its output to a file (`git log --format=X --output=F`
        # writes any text anywhere); mailinfo writes its two operands, bugreport a file
        write(*_vals(found, "--output"))
        if sub == "mailinfo":
            write(*ops[:2])
        elif sub in ("bugreport", "mailsplit"):
            write(
                *(
                    _vals(found, "-o", "--output-directory")
                    or [v[2:] for v in rest if v.startswith("-o") and len(v) > 2]
                    or ["."]
                )
            )
        elif sub == "fsck" and "--lost-found" in names:
            write(gitdir)
        if (
            sub in ("difftool", "instaweb")
            or sub == "grep"
            and any(
                k in ("-O", "--open-files-in-pager") or k.startswith("--open-files-in-pager=")
                for k in names
            )
        ):
            c.flag("git %s runs a command" % sub, unknown=True)
        return skip
    if sub in _GIT_META:
        if sub == "branch":
            if not ops and not any(
                k
                in (
                    "-d",
                    "-D",
                    "-m",
                    "-M",
                    "-c",
                    "-C",
                    "--delete",
                    "--move",
                    "--copy",
                    "-u",
                    "--set-upstream-to",
                    "--unset-upstream",
                    "--edit-description",
                    "-f",
                    "--force",
                )
                for k in names
            ):
                return skip
            if (
                "-D" in names
                or ("-d" in names or "--delete" in names)
                and ("-f" in names or "--force" in names)
            ):
                c.flag("force-deletes a branch", destructive=True)
        elif sub == "tag" and not ops and not _has(found, "-d", "--delete", "-a", "-s", "-f"):
            return skip
        elif sub == "remote" and not (
            ops
            and ops[0]
            in (
                "add",
                "remove",
                "rm",
                "rename",
                "set-url",
                "set-head",
                "prune",
                "set-branches",
                "update",
            )
        ):
            return skip
        elif sub == "notes" and (not ops or ops[0] in ("list", "show")):
            return skip
        elif sub == "reflog":
            if ops[:1] in (["expire"], ["delete"]):
                c.flag("rewrites the reflog", destructive=True)
            else:
                return skip
        elif sub == "lfs" and ops[:1] in (["ls-files"], ["status"], ["env"], ["version"], ["logs"]):
            return skip
        elif sub == "config":
            return _git_config(c, found, ops, repo, gitdir, p) or skip
        elif sub == "push":
            if any(
                k
                in (
                    "-f",
                    "--force",
                    "--force-with-lease",
                    "--force-if-includes",
                    "--mirror",
                    "-d",
                    "--delete",
                    "--prune",
                )
                or k.startswith("--force-with-lease")
                for k in names
            ) or any(o[:1] in ("+", ":") and len(o) > 1 for o in ops[1:]):
                c.flag("git push --force rewrites or deletes remote history", destructive=True)
        elif sub in ("filter-branch", "filter-repo"):
            c.flag("rewrites repository history", destructive=True)
        elif sub == "gc" and any(k.startswith("--prune") for k in names):
            c.flag("prunes unreachable objects", destructive=True)
        elif sub == "archive":
            out = _vals(found, "-o", "--output")
            if out:
                write(*out)
            return skip
        elif sub == "format-patch":
            out = _vals(found, "-o", "--output-directory")
            write(*(out or ["."]))
            return skip
        elif sub == "bundle" and ops[:1] == ["create"] and len(ops) > 1:
            write(ops[1])
        write(gitdir)
        return skip
    if sub in _GIT_TREE:
        if sub == "clone":
            url = ops[0] if ops else ""
            if len(ops) > 1:
                c.writes.append(ops[1])
            elif url:
                name = url.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
                c.writes.append(name[:-4] if name.endswith(".git") else name)
            return skip | set(ops[:1])
        if sub == "init":
            write(_join(ops[0], ".git") if ops else gitdir)
            return skip
        if sub == "stash":
            op = ops[0] if ops else "push"
            if op in ("list", "show"):
                return skip
            if op in ("drop", "clear"):
                c.flag("git stash %s discards stashed work" % op, destructive=True)
                write(gitdir)
                return skip
            write(*(paths or ["."]))
            return skip
        if sub == "reset":
            if "--hard" in names:
                c.flag("git reset --hard discards work", destructive=True)
                write(".")
            elif "--merge" in names or "--keep" in names:
                write(".")
            else:
                write(gitdir)
            return skip
        if sub == "clean":
            if "-n" in names or "--dry-run" in names:
                return skip
            write(*(paths or [o for o in ops] or ["."]))
            if "-f" in names or "--force" in names:
                c.flag("git clean -f deletes untracked files", destructive=True)
            return skip
        if sub in ("rm", "mv"):
            if "--cached" in names:
                write(gitdir)
            else:
                write(*(ops or ["."]))
            return skip
        if sub == "restore":
            if names == ["--staged"] or (
                ("-S" in names or "--staged" in names)
                and not ("-W" in names or "--worktree" in names)
            ):
                write(gitdir)
            else:
                write(*(ops or ["."]))
                if any(o in (".", ":/", "*") for o in ops):
                    c.flag("discards every uncommitted change", destructive=True)
            return skip
        if sub == "checkout":
            if paths:
                write(*paths)
                if any(x in (".", ":/", "*") for x in paths):
                    c.flag("discards every uncommitted change", destructive=True)
            else:
                write(".")
                write(*[o for o in ops if ("/" in o or "." in o) and o != "."])
                if "." in ops or "-f" in names or "--force" in names:
                    c.flag("discards every uncommitted change", destructive=True)
            return skip
        if sub == "apply" or sub == "am":
            if any(k in ("--check", "--stat", "--numstat", "--summary") for k in names):
                c.reads.extend(ops)
                return skip
            c.reads.extend(ops)
            if "--cached" in names:
                write(gitdir)
                return skip
            body = stdin_text(raw) if not ops else None
            strip = [int(v[2:]) for v in rest if v.startswith("-p") and v[2:].isdigit()]
            targets = _patch_targets(body, strip[-1] if strip else None, 1) if body else []
            write(*(targets or ["."]))
            return skip
        if sub == "worktree":
            if ops[:1] == ["add"] and len(ops) > 1:
                c.writes.append(ops[1])
            elif ops[:1] == ["remove"] and len(ops) > 1:
                c.writes.append(ops[1])
                if "-f" in names or "--force" in names:
                    c.flag("removes a worktree with its changes", destructive=True)
            elif ops[:1] in (["list"], []):
                return skip
            write(gitdir)
            return skip
        write(".")
        return skip
    c.flag("unrecognised git subcommand (an alias can run anything)", unknown=True)
    return skip


def _git_config(c, found, ops, repo, gitdir, p):
    names = [k for k, _ in found]
    writing = (
        any(
            k
            in (
                "--unset",
                "--unset-all",
                "--add",
                "--replace-all",
                "--edit",
                "-e",
                "--rename-section",
                "--remove-section",
            )
            for k in names
        )
        or len(ops) >= 2
        and ops[0] not in ("get", "list", "--get")
        or ops[:1] in (["set"], ["unset"], ["edit"], ["rename-section"], ["remove-section"])
    )
    if not writing or any(
        k in ("--get", "--get-all", "--get-regexp", "--list", "-l", "--get-urlmatch") for k in names
    ):
        return None
    files = _vals(found, "-f", "--file")
    if files:
        c.writes.extend(files)
    elif "--global" in names:
        c.writes.append(p.ctx.home + "/.gitconfig")
    elif "--system" in names:
        c.writes.append("/etc/gitconfig")
    else:
        c.writes.append(gitdir + "/config")
    key = (ops[1] if ops[:1] == ["set"] and len(ops) > 1 else ops[0] if ops else "").lower()
    if key.startswith(_GIT_RISKY_CONFIG):
        c.flag("git config sets a command to run", unknown=True)
    return set(ops)


def _h_gh(c, a, p, raw):
    if len(a) >= 2 and a[0] == "repo" and a[1] == "clone" and len(a) > 2:
        ops = [x for x in a[2:] if x[:1] != "-"]
        if len(ops) > 1:
            c.writes.append(ops[1])
        elif ops:
            c.writes.append(ops[0].rstrip("/").rsplit("/", 1)[-1])
    elif len(a) >= 2 and a[0] == "pr" and a[1] == "checkout":
        c.writes.append(".")
    elif len(a) >= 2 and a[0] in ("release", "run") and a[1] == "download":
        found, ops = opts(a[2:], "DOpn", ("--dir", "--output", "--pattern", "--name"))
        c.writes.extend(_vals(found, "-D", "--dir", "-O", "--output") or ["."])
    return set(a)


formatter = _h_formatter


TOOLS = {
    "shred": _h_shred,
    "srm": _h_shred,
    "wipe": _h_shred,
    "truncate": _h_truncate,
    "rsync": _h_rsync,
    "scp": _h_scp,
    "sftp": _h_ssh,
    "dd": _h_dd,
    "sponge": _h_sponge,
    "sort": _h_sort,
    "uniq": _h_uniq,
    "shuf": _h_out_opt(
        "o", ("--output",), "nei", ("--head-count", "--input-range", "--random-source")
    ),
    "gpg": _h_out_opt("o", ("--output",), "urf", ("--recipient", "--local-user", "--homedir")),
    "xxd": _h_xxd,
    "openssl": _h_openssl,
    "ssh-keygen": _h_sshkeygen,
    "base64": _h_base64,
    "base32": _h_base64,
    "basenc": _h_base64,
    "jq": _h_jq,
    "yq": _h_jq,
    "gojq": _h_jq,
    "jaq": _h_jq,
    "find": _h_find,
    "awk": _h_awk,
    "gawk": _h_awk,
    "mawk": _h_awk,
    "nawk": _h_awk,
    "perl": _h_perl,
    "deno": _h_deno_bun,
    "bun": _h_deno_bun,
    "pwsh": _h_pwsh,
    "powershell": _h_pwsh,
    "watch": _h_watch,
    "flock": _h_flock,
    "su": _h_su,
    "runuser": _h_runuser,
    "script": _h_script,
    "ssh": _h_ssh,
    "tmux": _h_tmux,
    "screen": _h_screen,
    "sqlite3": _h_sqlite3,
    "parallel": _h_parallel,
    "vi": _h_editor,
    "vim": _h_editor,
    "nvim": _h_editor,
    "view": _h_editor,
    "ex": _h_editor,
    "ed": _h_editor,
    "red": _h_editor,
    "nano": _h_editor,
    "pico": _h_editor,
    "emacs": _h_editor,
    "micro": _h_editor,
    "joe": _h_editor,
    "kak": _h_editor,
    "hx": _h_editor,
    "sudoedit": _h_editor,
    "patch": _h_patch,
    "curl": _h_curl,
    "wget": _h_wget,
    "tar": _h_tar,
    "bsdtar": _h_tar,
    "unzip": _h_unzip,
    "zip": _h_zip,
    "7z": _h_7z,
    "7za": _h_7z,
    "7zz": _h_7z,
    "gzip": _h_gzip,
    "gunzip": _h_gzip,
    "bzip2": _h_gzip,
    "bunzip2": _h_gzip,
    "xz": _h_gzip,
    "unxz": _h_gzip,
    "zstd": _h_gzip,
    "unzstd": _h_gzip,
    "lz4": _h_gzip,
    "pigz": _h_gzip,
    "compress": _h_gzip,
    "uncompress": _h_gzip,
    "lzma": _h_gzip,
    "dos2unix": _h_dos2unix,
    "unix2dos": _h_dos2unix,
    "split": _h_split,
    "csplit": _h_split,
    "mkfs": _h_mkfs,
    "mkswap": _h_mkfs,
    "fdisk": _h_mkfs,
    "sfdisk": _h_mkfs,
    "parted": _h_mkfs,
    "wipefs": _h_mkfs,
    "sgdisk": _h_mkfs,
    "gdisk": _h_mkfs,
    "cfdisk": _h_mkfs,
    "blkdiscard": _h_mkfs,
    "diskutil": _h_mkfs,
    "shutdown": _h_power,
    "reboot": _h_power,
    "halt": _h_power,
    "poweroff": _h_power,
    "init": _h_init,
    "telinit": _h_init,
    "systemctl": _h_systemctl,
    "crontab": _h_crontab,
    "git": _h_git,
    "gh": _h_gh,
    "pip": pkg_pip,
    "pipx": pkg_pip,
    "npm": _pkg_node,
    "pnpm": _pkg_node,
    "yarn": _pkg_node,
    "uv": _pkg_generic,
    "poetry": _pkg_generic,
    "pipenv": _pkg_generic,
    "pdm": _pkg_generic,
    "cargo": _pkg_generic,
    "go": _pkg_generic,
    "gem": _pkg_generic,
    "bundle": _pkg_generic,
    "composer": _pkg_generic,
    "conda": _pkg_generic,
    "mamba": _pkg_generic,
    "micromamba": _pkg_generic,
}
for _k in _SYSTEM_PKG:
    TOOLS[_k] = _pkg_generic
for _k in _FORMATTERS:
    TOOLS[_k] = _h_formatter
