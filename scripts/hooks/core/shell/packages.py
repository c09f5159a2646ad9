"""Package managers and code formatters."""

from __future__ import annotations

from core.shell.command import has, opts, vals
from core.shell.services import publish

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


def h_pip(c, a, p, raw=None):
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
    c.reads.extend(vals(found, "-r", "--requirement", "-c", "--constraint"))
    if sub not in _PIP_SUBS and ops:
        c.flag("pip %s is a subcommand the hooks do not know" % sub, unknown=True)
    if sub in ("install", "wheel", "download") and not has(found, "--dry-run"):
        c.flag("pip %s runs package build code" % sub, runner=True)
    if sub in ("install", "uninstall", "download", "wheel"):
        dest = vals(
            found, "-t", "--target", "--prefix", "--root", "-d", "--dest", "-w", "--wheel-dir"
        )
        if dest:
            c.writes.extend(dest)
        elif has(found, "--user"):
            c.writes.append(p.ctx.home + "/.local")
        else:
            c.writes.append(".")
        c.flag("package install")
    return set(ops)


_PIP_SUBS = frozenset(
    (
        "install",
        "uninstall",
        "download",
        "wheel",
        "list",
        "show",
        "freeze",
        "check",
        "search",
        "index",
        "inspect",
        "help",
        "hash",
        "debug",
        "cache",
        "config",
        "completion",
    )
)
_NODE_READ = frozenset(
    (
        "ls",
        "list",
        "ll",
        "la",
        "view",
        "info",
        "show",
        "v",
        "outdated",
        "explain",
        "why",
        "search",
        "help",
        "doctor",
        "ping",
        "whoami",
        "bin",
        "root",
        "prefix",
        "fund",
        "query",
        "licenses",
        "--version",
        "-v",
        "version",
        "config",
        "get",
        "help-search",
        "docs",
        "bugs",
        "repo",
        "home",
        "store",
    )
)
_NODE_RUN = frozenset(
    (
        "run",
        "run-script",
        "rum",
        "urn",
        "test",
        "t",
        "tst",
        "start",
        "stop",
        "restart",
        "rebuild",
        "rb",
        "build",
        "dev",
        "lint",
        "serve",
        "dlx",
        "create",
        "exec",
        "x",
        "node",
    )
)


def h_pkg_node(c, a, p, raw):
    found, ops = opts(a, "C", ("--prefix", "--dir", "--cwd", "--workspace", "--filter", "-w"))
    sub = ops[0] if ops else ("install" if c.program in ("yarn", "bun") else "")
    if sub in ("exec", "x") and c.program == "npm" or sub == "dlx":
        from core.shell.runners import npm_exec

        return npm_exec(c, a[a.index(sub) + 1 :], p)
    if (
        sub in ("config", "get")
        and ops[1:2] not in ([], ["get"], ["list"], ["ls"])
        and sub == "config"
    ):
        c.flag("%s config %s changes npm's configuration" % (c.program, ops[1]), unknown=True)
        return set(ops)
    if publish(c, c.program, sub):
        return set(ops)
    if sub == "audit" and "fix" not in ops or sub in _NODE_READ:
        return set(ops)
    if sub in ("run", "run-script") and len(ops) == 1:
        return set(ops)  # `npm run` alone lists the scripts
    if sub in _NODE_RUN or c.program in ("yarn", "pnpm", "bun") and sub not in _PKG_SUBS:
        c.flag("%s %s runs package scripts the hooks cannot see" % (c.program, sub), runner=True)
        return set(ops)
    if sub in _PKG_SUBS or (c.program == "yarn" and not ops):
        if has(found, "-g", "--global") or (c.program == "yarn" and ops[:1] == ["global"]):
            c.flag("global package install", unknown=True)
        d = vals(found, "--prefix", "--dir", "--cwd", "-C")
        c.writes.append(d[-1] if d else ".")
        c.flag("package install")
        if not has(found, "--ignore-scripts", "--dry-run"):
            c.flag("%s %s runs package install scripts" % (c.program, sub), runner=True)
        return set(ops)
    c.flag("%s %s is a subcommand the hooks do not know" % (c.program, sub), unknown=True)
    return set(ops)


def h_pkg_generic(c, a, p, raw):
    found, ops = opts(a, "C", ("--manifest-path", "--directory", "--project", "--python"))
    prog = c.program
    sub = ops[0] if ops else ""
    if prog in _SYSTEM_PKG:
        names = [k for k, _ in found]
        if prog in ("dpkg", "rpm"):
            changes = has(
                found, "-i", "--install", "-r", "--remove", "-P", "--purge", "-U", "-e", "--erase"
            )
        elif prog == "pacman":
            changes = any(k in ("-S", "-R", "-U") for k in names)
        elif prog == "emerge":
            changes = bool(ops)
        else:  # an option's value may stand before the verb (apt-get -o X=y install)
            changes = sub in _PKG_SUBS or any(o in _PKG_SUBS for o in ops[1:4])
        if changes:
            c.writes.append(_SYSTEM_PKG[prog].replace("~", p.ctx.home))
            c.flag("system package install")
            if _SYSTEM_PKG[prog][:1] == "~":  # the machine's programs, wherever HOME lives
                c.flag("%s changes the programs on this machine" % prog, unknown=True)
            if sub in ("purge", "autoremove") or prog == "pacman" and "-R" in names:
                c.flag("removes system packages", destructive=True)
        return set(ops)
    if prog in ("cargo", "go") and sub == "install":
        # it builds (cargo runs build scripts) and puts a program on this machine's PATH:
        # a change to the machine wherever HOME lives, even under the temp dir
        c.writes.append(p.ctx.home + ("/.cargo" if prog == "cargo" else "/go"))
        c.flag("package install")
        c.flag("%s install builds and installs a program on this machine" % prog, runner=True)
        return set(ops)
    if prog in ("gem",) and sub in ("install", "uninstall", "update"):
        c.flag("global package install", unknown=True)
        c.writes.append(".")
        return set(ops)
    if prog == "uv" and sub == "pip":
        return h_pip(c, a[a.index("pip") + 1 :], p)
    if prog == "uv" and sub == "tool" and ops[1:2] in (["install"], ["uninstall"]):
        c.writes.append(p.ctx.home + "/.local")
        c.flag("package install")
        c.flag("uv tool %s changes the programs on this machine" % ops[1], runner=True)
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
        d = vals(found, "-C", "--directory", "--project")
        c.writes.append(d[-1] if d else ".")
        c.flag("package install" if sub not in ("fmt", "fix", "clippy") else "formats code")
        if sub in ("fix", "clippy", "get", "generate"):
            c.flag("%s %s runs code the hooks cannot see" % (prog, sub), runner=True)
        return set(ops)
    if publish(c, prog, sub):
        return set(ops)
    if prog == "go" and (
        sub in ("doc", "version", "help")
        or sub == "env"
        and not any(w in ("-w", "-u") for w in a)
        or sub == "mod"
        and ops[1:2] in (["graph"], ["why"])
    ):
        return set(ops)  # they print documentation, the toolchain, the module graph
    if sub in _MANAGER_READ or not sub and not ops:
        return set(ops)
    if sub in _MANAGER_RUN or prog in ("go", "cargo") and sub:
        c.flag("%s %s runs code the hooks cannot see (builds, tests)" % (prog, sub), runner=True)
        return set(ops)
    if not c.writes:
        c.flag("%s %s is a subcommand the hooks do not know" % (prog, sub), unknown=True)
    return set(ops)


# subcommands of language package managers that only print, and ones that build or run code
_MANAGER_READ = frozenset(
    (
        "tree",
        "metadata",
        "search",
        "version",
        "help",
        "locate-project",
        "verify-project",
        "pkgid",
        "read-manifest",
        "list",
        "doc-help",
        "env",
        "show",
        "info",
        "outdated",
        "validate",
        "diagnose",
        "why",
        "depends",
        "licenses",
        "contents",
        "environment",
        "specification",
        "which",
        "query",
        "--version",
        "-V",
        "--help",
        "-h",
        "config",
        "lock-check",
    )
)
_MANAGER_RUN = frozenset(
    (
        "build",
        "test",
        "run",
        "bench",
        "check",
        "clippy",
        "doc",
        "rustc",
        "vet",
        "generate",
        "exec",
        "run-script",
        "script",
        "shell",
        "x",
        "tool",
        "dev",
        "serve",
        "start",
    )
)


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


def formatter(c, a, p, raw, prog=None):
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
