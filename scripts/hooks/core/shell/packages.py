"""Package managers and code formatters."""

from __future__ import annotations

from core.shell.command import has, opts, vals

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


def h_pkg_node(c, a, p, raw):
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
        if has(found, "-g", "--global") or (c.program == "yarn" and ops[:1] == ["global"]):
            c.flag("global package install", unknown=True)
        d = vals(found, "--prefix", "--dir", "--cwd", "-C")
        c.writes.append(d[-1] if d else ".")
        c.flag("package install")
    return set(ops)


def h_pkg_generic(c, a, p, raw):
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
        return h_pip(c, a[a.index("pip") + 1 :], p)
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
        d = vals(found, "-C", "--directory", "--project")
        c.writes.append(d[-1] if d else ".")
        c.flag("package install" if sub not in ("fmt", "fix", "clippy") else "formats code")
    return set(ops)


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
