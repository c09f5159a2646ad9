"""Wrappers: programs that run another command (sudo, env, nice, timeout, xargs, ...). Each
returns the wrapped command's words, or None when the wrapper runs nothing itself."""

from __future__ import annotations

from contextlib import contextmanager

from core.shell.command import cd_to, has, long_match, opts, prog_name, stdin_text, vague, vals
from core.shell.envwatch import claude_var


def _env_assigns(c, a):
    """env and sudo take every leading word with a `=` in it as NAME=VALUE, whatever the
    name (`BASH_FUNC_f%%=() { ...; }` is a function a child bash imports)."""
    i = 0
    while i < len(a) and "=" in a[i] and a[i][:1] not in ("-", "="):
        k, _, v = a[i].partition("=")
        c.env[k] = v
        i += 1
    return a[i:]


def w_sudo(c, a, p, raw):
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
    if has(found, "-e", "--edit"):
        return ["sudoedit"] + rest
    for v in vals(found, "-D", "--chdir"):
        workdir(c, p, v)
    if has(found, "-i", "--login") and not vals(found, "-D", "--chdir"):
        workdir(c, p, True)  # a login shell starts in the target user's home
    if not has(found, "-E", "--preserve-env") and not c.stripped:
        c.stripped = 2  # env_reset: the command runs without CLAUDECODE
    rest = _env_assigns(c, rest)
    if not rest and has(found, "-s", "--shell", "-i", "--login"):
        return ["sh"]  # a root shell reading its stdin
    return rest or None


def w_doas(c, a, p, raw):
    found, rest = opts(a[1:], "uC", (), True)
    if not rest and has(found, "-s"):
        return ["sh"]
    return rest or None


_ENV_LONG = (
    "--unset",
    "--chdir",
    "--split-string",
    "--ignore-environment",
    "--null",
    "--default-signal",
    "--ignore-signal",
    "--block-signal",
    "--list-signal-handling",
    "--debug",
    "--argv0",
)


def w_env(c, a, p, raw):
    i = 1
    a = list(a)
    while i < len(a):
        w = a[i]
        if w == "--":
            i += 1
            break
        if w == "-":
            c.stripped = True  # `env -` is `env -i`
            i += 1
            continue
        if w[:2] == "--":
            name, eq, val = w.partition("=")
            full = [x for x in _ENV_LONG if long_match(name, x)]
            name = full[0] if len(full) == 1 else name
            takes = name in ("--unset", "--chdir", "--split-string", "--argv0")
            if takes and not eq:
                val = a[i + 1] if i + 1 < len(a) else ""
                i += 1
            i += 1
            if name == "--ignore-environment" or (name == "--unset" and claude_var(val)):
                c.stripped = True
            elif name == "--chdir":
                cd_to(p.ctx, val)
            elif name == "--split-string":
                a[i:i] = val.split()
            elif len(full) != 1 and not takes:
                c.flag("env option %s" % name, unknown=True)
            continue
        if w[:1] == "-" and len(w) > 1:
            # a bundle of short options: -i, -0, -v, -u NAME, -C DIR, -S TEXT, -P PATH, -a ARGV0;
            # any other letter may take a value we would misread as the program: unknown
            j = 1
            i += 1
            while j < len(w):
                ch = w[j]
                if ch == "i":
                    c.stripped = True
                if ch not in "i0vuCSPa":
                    c.flag("env option -%s" % ch, unknown=True)
                if ch in "uCSPa":
                    val = w[j + 1 :]
                    if not val:
                        val = a[i] if i < len(a) else ""
                        i += 1
                    if ch == "u" and claude_var(val):
                        c.stripped = True
                    elif ch == "C":
                        cd_to(p.ctx, val)
                    elif ch == "S":
                        a[i:i] = val.split()
                    elif ch == "P":
                        c.env["PATH"] = val  # programs are looked up there
                    break
                j += 1
            continue
        break
    rest = _env_assigns(c, a[i:])
    return rest or None


def w_plain(short_arg="", long_arg=()):
    def w(c, a, p, raw):
        found, rest = opts(a[1:], short_arg, long_arg, True)
        return rest or None

    return w


def w_nice(c, a, p, raw):
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


def w_timeout(c, a, p, raw):
    found, rest = opts(a[1:], "sk", ("--signal", "--kill-after"), True)
    return rest[1:] or None


def w_time(c, a, p, raw):
    found, rest = opts(a[1:], "of", ("--output", "--format"), True)
    for v in vals(found, "-o", "--output"):
        c.writes.append(v)
    return rest or None


def w_command(c, a, p, raw):
    found, rest = opts(a[1:], "", (), True)
    if has(found, "-v", "-V"):
        return None
    return rest or None


def w_exec(c, a, p, raw):
    found, rest = opts(a[1:], "a", (), True)
    if has(found, "-c") and rest:
        c.stripped = True  # exec -c: the command starts with an empty environment
    return rest or None


def w_jobs(c, a, p, raw):
    """`jobs -x CMD ARGS` runs CMD (with job specs replaced by process group ids)."""
    found, rest = opts(a[1:], "", (), True)
    return rest if has(found, "-x") and rest else None


def w_ionice(c, a, p, raw):
    found, rest = opts(a[1:], "cnp", ("--class", "--classdata", "--pid", "--pgid", "--uid"), True)
    if has(found, "-p", "--pid", "-P", "--pgid", "-u", "--uid"):
        return None
    return rest or None


def w_taskset(c, a, p, raw):
    found, rest = opts(a[1:], "", (), True)
    if has(found, "-p", "--pid"):
        return None
    return rest[1:] or None


def w_chrt(c, a, p, raw):
    found, rest = opts(a[1:], "T", ("--sched-runtime", "--sched-period", "--sched-deadline"), True)
    if has(found, "-p", "--pid"):
        return None
    return rest[1:] or None


def w_chroot(c, a, p, raw):
    found, rest = opts(a[1:], "", ("--userspec", "--groups"), True)
    return rest[1:] or None


# options that take a value: strace's, and ltrace's (-F / --config is a file it reads)
_TRACE_ARGS = {
    "strace": ("oeEpPsSuUaIXbO", ("--output", "--trace-path", "--signal", "--env", "--user")),
    "ltrace": ("oeFpsuaADlnwx", ("--output", "--config", "--library", "--align", "--indent")),
}


def w_trace(c, a, p, raw):
    short, long_ = _TRACE_ARGS["ltrace" if prog_name(a[0]) == "ltrace" else "strace"]
    found, rest = opts(a[1:], short, long_, True)
    for v in vals(found, "-o", "--output"):
        c.writes.append(v)
    c.reads.extend(vals(found, "-F", "--config"))  # ltrace's config file is read
    if has(found, "-p"):
        return None
    return rest or None


def w_valgrind(c, a, p, raw):
    rest = a[1:]
    while rest and rest[0][:1] == "-":
        if rest[0].startswith("--log-file="):
            c.writes.append(rest[0][11:])
        rest = rest[1:]
    return rest or None


def w_run(short_arg="", long_arg=()):
    """`uv run`, `poetry run`, `conda run -n x`: the rest is a command."""

    def w(c, a, p, raw):
        if len(a) < 2 or a[1] != "run":
            return None
        found, rest = opts(a[2:], short_arg, long_arg, True)
        return rest or None

    return w


def w_busybox(c, a, p, raw):
    return a[1:] or None


def w_xargs(c, a, p, raw):
    rest = a[1:]
    rep = None
    argfile = None  # -a FILE: the names come from it, not stdin
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
                argfile = val if eq else (rest[i + 1] if i + 1 < n else "")
                c.reads.append(argfile)
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
                argfile = val
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
    elif prev is not None and prev.program == "git" and prog_name(rest[0]) not in _CHANGERS:
        from core.shell import feeds

        if feeds.git_lists(prev.argv):  # git ls-files | xargs R: R reads tracked files
            feed = (feeds.git_pathspecs(prev.argv)[0] or ["."])[0]
    body = stdin_text(raw) if c.stdin_is_data else None
    if argfile is not None:  # a file this command wrote (<(printf ..) too): its text
        body = p.ctx.written.get(argfile[2:] if argfile[:2] == "./" else argfile)
    if body and not vague(body):
        # `xargs cat <<< .env`, `echo .env | xargs cat`: the names it reads are in view
        words = body.replace("\0", "\n").split()[:256]  # -0: NUL ends a name
        # each word may be copied into every argument: charge the copies before making them
        # (nested `xargs -I{}` layers would otherwise multiply them without bound)
        p.ctx.budget.spend(len(words) * (len(rest) + 1))
        if rep:
            return [
                x for w in rest for x in ([w.replace(rep, f) for f in words] if rep in w else [w])
            ]
        return rest + words
    if rep:
        return [w.replace(rep, feed) for w in rest]
    return rest + [feed]


# programs that change the names they are fed: a lister's names stay unseen for them (what
# git ls-files lists is not known here; only find's listings are judged name by name)
_CHANGERS = frozenset(
    ("rm", "rmdir", "unlink", "shred", "mv", "cp", "ln", "install", "chmod", "chown", "chgrp")
    + ("truncate", "touch", "tee", "sed", "perl", "dd")
)


w_nohup = w_plain()
w_stdbuf = w_plain("ioe", ("--input", "--output", "--error"))
w_caffeinate = w_plain("tw")
w_proxychains = w_plain("f")
w_uv = w_run(
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
)
w_poetry = w_run()
w_conda = w_run("np", ("--name", "--prefix"))
w_micromamba = w_run("np", ("--name",))


def workdir(c, p, val) -> None:
    """A launcher option that sets the working directory of what it runs: relative paths of
    that command land under val (effects puts the cwd back after the command). A value the
    analysis cannot see is an unknown cwd; a new root (chroot, --root) is one too."""
    if val is True or not isinstance(val, str) or val == "":
        cd_to(p.ctx, "-")
        return
    if val[:1] == "~" and (len(val) == 1 or val[1] == "/"):
        val = p.ctx.home + val[1:]
    cd_to(p.ctx, val)


@contextmanager
def cwd_of(p, val):
    """Judge what a launcher runs (tmux -c, parallel --wd) in its working directory: val,
    True (one the analysis cannot know) or None (this shell's)."""
    saved = p.ctx.cwd
    if val is not None:
        workdir(None, p, val)
    try:
        yield
    finally:
        p.ctx.cwd = saved


_UNSHARE_LONG = (
    "--wd",
    "--root",
    "--setuid",
    "--setgid",
    "--propagation",
    "--setgroups",
    "--map-user",
    "--map-group",
    "--map-users",
    "--map-groups",
    "--monotonic",
    "--boottime",
)


def w_unshare(c, a, p, raw):
    """unshare -w/--wd DIR runs the command there; -R/--root DIR makes DIR its '/'."""
    found, rest = opts(a[1:], "wRSG", _UNSHARE_LONG, True)
    for k, v in found:
        if k in ("-w", "--wd"):
            workdir(c, p, v)
        elif k in ("-R", "--root"):
            workdir(c, p, True)
            c.flag("unshare --root: paths of the command are under another root", unknown=True)
    return rest or None


def w_firejail(c, a, p, raw):
    """firejail's options are --name[=value]; --private-cwd[=DIR] and --chroot move where
    the command's relative paths land."""
    i = 1
    while i < len(a) and a[i][:1] == "-":
        name, eq, val = a[i].partition("=")
        i += 1
        if name == "--":
            break
        if name == "--private-cwd":
            workdir(c, p, val if eq else "~")
        elif name in ("--chroot", "--private", "--overlay", "--overlay-named"):
            workdir(c, p, True)
    return a[i:] or None


def w_nsenter(c, a, p, raw):
    """nsenter -w[DIR]/--wd[=DIR] (the value is optional: without one, the target process's
    cwd) and -r[DIR]/--root[=DIR] move where the command's relative paths land."""
    i = 1
    while i < len(a):
        w = a[i]
        if w == "--":
            i += 1
            break
        if w[:1] != "-" or w == "-":
            break
        i += 1
        if w[:2] == "--":
            name, eq, val = w.partition("=")
            if long_match(name, "--wd") and name != "--":
                workdir(c, p, val if eq else True)
            elif long_match(name, "--root") and len(name) > 3:
                workdir(c, p, True)
            elif not eq and any(
                long_match(name, x) for x in ("--target", "--setuid", "--setgid", "--env")
            ):
                i += name != "--env"  # options with a required value take the next word
            continue
        for j in range(1, len(w)):
            ch = w[j]
            if ch == "w":
                workdir(c, p, w[j + 1 :] or True)
                break
            if ch == "r":
                workdir(c, p, True)
                break
            if ch in "tSG":
                i += j == len(w) - 1
                break
    return a[i:] or None


_SYSTEMD_LONG = (
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
)


def w_systemd_run(c, a, p, raw):
    """systemd-run starts the command as a unit: in --working-directory (or a
    WorkingDirectory= property), in the caller's cwd with -d/--same-dir or --scope, else in
    the service manager's (not this shell's) directory."""
    found, rest = opts(a[1:], "upMEH", _SYSTEMD_LONG, True)
    props = [v for v in vals(found, "-p", "--property") if isinstance(v, str)]
    wd = vals(found, "--working-directory") + [
        v.split("=", 1)[1] for v in props if v.split("=", 1)[0].strip() == "WorkingDirectory"
    ]
    roots = [v for v in props if v.split("=", 1)[0].strip() in ("RootDirectory", "RootImage")]
    if wd:
        workdir(c, p, wd[-1].lstrip("-"))
    elif roots or not has(found, "-d", "--same-dir", "--scope", "-S", "--shell"):
        workdir(c, p, True)
    return rest or None


def w_prlimit(c, a, p, raw):
    """prlimit [--LIMIT=soft:hard ...] [-p PID | command]: with -p it changes another process."""
    found, rest = opts(a[1:], "p", ("--pid", "--output"), True)
    if has(found, "-p", "--pid"):
        c.flag("prlimit changes another process's limits", unknown=True)
        return None
    return rest or None


def w_setpriv(c, a, p, raw):
    found, rest = opts(
        a[1:],
        "",
        (
            "--reuid",
            "--regid",
            "--ruid",
            "--euid",
            "--rgid",
            "--egid",
            "--groups",
            "--inh-caps",
            "--ambient-caps",
            "--bounding-set",
            "--securebits",
            "--selinux-label",
            "--apparmor-profile",
            "--pdeathsig",
            "--landlock-access",
            "--landlock-rule",
        ),
        True,
    )
    return rest or None


def w_fakeroot(c, a, p, raw):
    """fakeroot / fakechroot [options] [--] command; with no command, a shell on stdin."""
    found, rest = opts(a[1:], "lsib", ("--lib", "--faked", "--environment", "--config"), True)
    if not rest:
        return ["sh"]
    return rest
