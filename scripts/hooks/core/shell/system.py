"""System programs: disks, power, init, cron, sessions and multiplexers (su, tmux, screen),
parallel, openssl, ssh-keygen."""

from __future__ import annotations

from core.shell.command import has, opts, spawn, stdin_code, vals
from core.shell.wrappers import cwd_of


def h_openssl(c, a, p, raw):
    if a[:1] in (["s_client"], ["s_server"], ["s_time"]) and not any(
        r.op == "<" and r.target == "/dev/null" for r in c.redirects
    ):
        # a raw TLS connection: its stdin goes to the remote
        c.flag("openssl %s sends stdin to a remote" % a[0], remote=True)
    if (
        a[:1] == ["engine"]
        and len(a) > 1
        or any(_openssl_loads(w, a[i + 1 : i + 2]) for i, w in enumerate(a))
    ):
        # engines and providers are shared objects it loads; a config file can name them
        c.flag("openssl loads an engine, provider or config the hooks cannot see", unknown=True)
    i = 0
    while i < len(a) - 1:
        w = a[i]
        if w in _OPENSSL_OUT:
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


# options whose value is a file openssl writes
_OPENSSL_OUT = frozenset(
    "-out -keyout -certout -signature -outform_file -writerand -sess_out -msgfile -keylogfile "
    "-outdir -reqout -crlout -CAserial -serial_file -dcert_out -sigfile".split()
)


def _openssl_loads(w, nxt):
    """-engine, -provider, -provider-path, -config/-conf, -ssl_client_engine, a key or input
    form `engine`: openssl loads code or a config that names code."""
    name = w.split("=", 1)[0]
    if name in ("-engine", "-provider", "-provider-path", "-ssl_client_engine", "-config", "-conf"):
        return True
    return name.endswith("form") and nxt[:1] == ["engine"]


def h_sshkeygen(c, a, p, raw):
    found, ops = opts(a, "bCDEfFIJjmMnNOPrstVwYzZaGK", ())
    files = vals(found, "-f")
    if has(found, "-l", "-y", "-F", "-B", "-L"):
        c.reads.extend(files)
    else:
        c.writes.extend(files)
        c.writes.extend(f + ".pub" for f in files)
    if has(found, "-R"):
        c.writes.append(p.ctx.home + "/.ssh/known_hosts")
    if has(found, "-D", "-w") or any(
        str(v).lower().startswith(("sk-provider", "pkcs11")) for k, v in found if k == "-O"
    ):  # a PKCS#11 or FIDO provider: a shared library loaded into ssh-keygen
        c.flag("ssh-keygen loads a provider library the hooks cannot see", unknown=True)
    if has(found, "-K"):
        c.writes.append(".")  # resident keys downloaded into the current directory


def h_mkfs(c, a, p, raw):
    found, ops = opts(a, "tLbcCgGiIjJlmMnNoOrsSTUEFdDeEf", ())
    c.writes.extend(o for o in ops if o[:1] == "/")
    c.flag("formats or partitions a disk", destructive=True)


def h_power(c, a, p, raw):
    c.flag("shuts down or reboots the machine", destructive=True)


def h_init(c, a, p, raw):
    """init/telinit RUNLEVEL: 0 and 6 stop the machine, 1/S stop every service; any other
    word changes the runlevel or reloads init (q, u). Only --help and --version print."""
    if a and all(w in ("--help", "--version", "-h") for w in a):
        return
    if a and a[0].lower() in ("0", "6", "1", "s", "single", "rescue", "emergency"):
        c.flag("%s %s stops the machine's services" % (c.program, a[0]), destructive=True)
    else:
        c.flag("%s changes the machine's runlevel" % c.program, remote=True)


def h_systemctl(c, a, p, raw):
    if any(w in ("poweroff", "reboot", "halt", "kexec", "suspend", "hibernate") for w in a):
        c.flag("shuts down or reboots the machine", destructive=True)


def h_crontab(c, a, p, raw):
    found, ops = opts(a, "u", ())
    if has(found, "-r"):
        c.flag("crontab -r removes every job", destructive=True)
    elif not has(found, "-l"):
        c.flag("installs a crontab", unknown=True)
        c.reads.extend(ops)


def h_watch(c, a, p, raw):
    found, ops = opts(a, "ndq", ("--interval", "--differences", "--equexit"), True)
    if not ops:
        return None
    if has(found, "-x", "--exec"):
        spawn(ops, p)
    else:
        code = " ".join(ops)
        c.code.append(code)
        p.subparse(code)
    return set(ops)


def h_flock(c, a, p, raw):
    found, ops = opts(a, "wEc", ("--timeout", "--conflict-exit-code", "--command"), True)
    code = vals(found, "-c", "--command")
    if ops:
        c.writes.append(ops[0])
        rest = ops[1:]
        if rest[:1] in (["-c"], ["--command"]) and len(rest) > 1:
            code = [rest[1]]
        elif rest:
            spawn(rest, p)
            return set(rest)
    if code:
        c.code.append(code[0])
        p.subparse(code[0])
        return set(code)


def h_su(c, a, p, raw):
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
    code = vals(found, "-c", "--command", "--session-command")
    login = has(found, "-l", "--login") or "-" in ops
    if _other_shell(c, found, ops, code, p):
        return set(code) | set(ops)
    if code:
        c.code.append(code[0])
        with cwd_of(p, True if login else None):  # a login shell starts in a home dir
            p.subparse(code[0])
        return set(code)
    if c.program == "runuser" and ops and ops[0] != "-":
        spawn(ops[1:] if len(ops) > 1 and not has(found, "-u", "--user") else ops, p)
        return set(ops)
    stdin_code(c, [], p, raw, "sh", shell=True)


_SHELLS = frozenset(("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "tcsh", "csh"))


def _other_shell(c, found, ops, code, p):
    """`su [-s PROGRAM] [user [args]]`: su runs PROGRAM (or the user's shell) with `-c CODE`
    or with the words after the user: a shell runs them as a script, a program that is no
    shell takes them as its arguments."""
    shell = vals(found, "-s", "--shell")
    words = [w for w in ops if w != "-"]
    args = words[1:] if words and words[0] != "--" else words
    args = [w for w in args if w != "--"]
    if not shell or shell[-1].rsplit("/", 1)[-1] in _SHELLS:
        if code or not args:
            return False
        spawn([shell[-1] if shell else "sh"] + args, p)  # `su root x.sh`: the shell runs x.sh
        return True
    spawn([shell[-1]] + (["-c", code[0]] if code else args), p)
    return True


def h_runuser(c, a, p, raw):
    found, ops = opts(
        a,
        "cgGsu",
        ("--command", "--session-command", "--group", "--user", "--supp-group", "--shell"),
        False,
    )
    code = vals(found, "-c", "--command", "--session-command")
    login = has(found, "-l", "--login") or "-" in ops
    with cwd_of(p, True if login else None):  # a login shell starts in a home dir
        if code:
            c.code.append(code[0])
            p.subparse(code[0])
            return set(code)
        if has(found, "-u", "--user"):
            spawn(ops, p)
        elif len(ops) > 1:
            spawn(ops[1:], p)
    return set(ops)


def h_script(c, a, p, raw):
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
    code = vals(found, "-c", "--command")
    c.writes.extend(ops[:1] or ([] if code else ["typescript"]))
    if len(ops) > 1:
        spawn(ops[1:], p)  # BSD/macOS `script [-q] FILE CMD ...`: CMD runs
    c.writes.extend(
        vals(found, "-T", "--log-timing", "-I", "--log-in", "-O", "--log-out", "-B", "--log-io")
    )
    if code:
        c.code.append(code[0])
        p.subparse(code[0])
        return set(code)


def h_tmux(c, a, p, raw):
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


def h_screen(c, a, p, raw):
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
        spawn(a[i:], p)
    return set(a)


def h_parallel(c, a, p, raw):
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
            "--wd",
            "--env",
            "--halt",
        ),
        True,
    )
    c.reads.extend(vals(found, "-a", "--arg-file"))
    args = tail[:16] if tail and not any(x == "::::" for x in a) else ["$(parallel-input)"]
    # --wd DIR: the jobs run there ('...' is a fresh dir under ~/.parallel/tmp)
    wd = [v if v != "..." else True for v in vals(found, "--workdir", "--wd")]
    with cwd_of(p, wd[-1] if wd else None):
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
