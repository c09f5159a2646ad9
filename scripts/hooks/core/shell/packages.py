"""Package managers and code formatters."""

from __future__ import annotations

from core.shell.command import has, long_match, opts, vals
from core.shell.managers import (
    CARGO_BUILTINS,
    DIR_OPTIONS,
    conda_env,
    go_mod_edit,
    go_reads,
    made_paths,
    project_dirs,
)
from core.shell.services import publish
from core.shell.verbs import destroying

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
        "rtcedi" + ("p" if c.program == "uv" else ""),
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
            "--log",
            "--log-file",
            "--local-log",
        ),
    )
    sub = ops[0] if ops else ""
    c.reads.extend(vals(found, "-r", "--requirement", "-c", "--constraint"))
    python = vals(found, "--python") + (vals(found, "-p") if c.program == "uv" else [])
    if python:  # pip re-runs itself under it, uv runs it to ask for its paths and version
        c.reads.extend(python)
        c.flag("%s --python %s runs that interpreter" % (c.program, python[0]), runner=True)
    # general options of every verb: the log is appended to, the cache gets pip's self-check
    c.writes.extend(vals(found, "--log", "--log-file", "--local-log", "--cache-dir"))
    if sub not in _PIP_SUBS and ops:
        c.flag("pip %s is a subcommand the hooks do not know" % sub, unknown=True)
    if sub in ("config", "cache") and ops[1:2] not in (
        [],
        ["list"],
        ["get"],
        ["debug"],
        ["dir"],
        ["info"],
    ):
        c.flag("pip %s %s changes pip's configuration or cache" % (sub, ops[1]), unknown=True)
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
        "tree",
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
        "query",
        "licenses",
        "--version",
        "-v",
        "version",
        "config",
        "get",
        "help-search",
        "store",
    )
)
# verbs that open a web page with the configured browser (npm config `browser`, $BROWSER)
_NODE_BROWSER = frozenset(("docs", "bugs", "repo", "home", "issues", "fund"))
# options of the read verbs (npm ls --depth=0 --json): any other may run or write something
_NODE_READ_OPTIONS = frozenset(
    "--json --long -l --all -a --depth --global -g --parseable -p --omit --include "
    "--workspace -w --workspaces -ws --include-workspace-root --prefix --registry --loglevel "
    "--silent -s --quiet -q --production --prod --dev --link --unicode --color --no-color "
    "--verbose --fields --recursive -r --filter --dir -C --cwd --help -h --long --scope "
    "--searchlimit --no-description --searchopts --searchexclude --package-lock-only "
    "--expect-results --expect-result-count --omit-lockfile-registry-resolved --audit-level "
    "--no-audit --depth=0 --only --location --before --format --ignore-scripts --offline "
    "--prefer-offline --lockfile-only --frozen-lockfile --yes -y --no-progress --tag "
    "--no-optional --optional --peer --global-style --legacy-peer-deps --strict-peer-deps "
    "--no-fund --fund --no-update-notifier --pattern --level --summary --groups --environment "
    "--no-unicode --no-color --parseable".split()
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
    if publish(c, c.program, sub, ops[1] if len(ops) > 1 else None):
        return set(ops)
    if sub in ("version", "v") and len(ops) > 1 and c.program != "yarn":
        # npm version patch: writes package.json, commits, tags, runs the version scripts
        c.flag(
            "%s version %s changes the package and runs its scripts" % (c.program, ops[1]),
            runner=True,
        )
        c.writes.append(".")
        return set(ops)
    if sub in _NODE_BROWSER:
        c.flag(
            "%s %s opens a browser (a program the project's config may name)" % (c.program, sub),
            unknown=True,
        )
        return set(ops)
    if c.program == "yarn":
        # .yarnrc.yml names the yarn release (yarnPath) and plugins: JS that runs for any verb
        c.flag("yarn %s runs the yarn release and plugins .yarnrc.yml names" % sub, runner=True)
    if sub == "pkg" and ops[1:2] == ["get"] and c.program == "npm":
        return set(ops)  # prints fields of package.json
    if sub == "store" and ops[1:2] not in ([], ["path"], ["status"]):
        c.flag("%s store %s changes the package store" % (c.program, ops[1]), unknown=True)
        return set(ops)
    if sub == "audit" and "fix" not in ops or sub in _NODE_READ:
        odd = [k for k, _ in found if k not in _NODE_READ_OPTIONS]
        if odd:
            c.flag(
                "%s %s %s is an option the hooks do not know" % (c.program, sub, odd[0]),
                unknown=True,
            )
        return set(ops)
    if sub in ("run", "run-script") and len(ops) == 1:
        return set(ops)  # `npm run` alone lists the scripts
    if sub in _NODE_RUN or c.program in ("yarn", "pnpm", "bun") and sub not in _PKG_SUBS:
        c.flag("%s %s runs package scripts the hooks cannot see" % (c.program, sub), runner=True)
        return set(ops)
    if sub in _PKG_SUBS and c.program == "npm" and _npm_dry(found):
        return set(ops)  # npm's dry run reports what it would change and runs no script
    if sub in _PKG_SUBS or (c.program == "yarn" and not ops):
        if has(found, "-g", "--global") or (c.program == "yarn" and ops[:1] == ["global"]):
            c.flag("global package install", unknown=True)
        d = vals(found, "--prefix", "--dir", "--cwd", "-C")
        c.writes.append(d[-1] if d else ".")
        c.flag("package install")
        if not (has(found, "--ignore-scripts") or _npm_dry(found)):
            c.flag("%s %s runs package install scripts" % (c.program, sub), runner=True)
        return set(ops)
    c.flag("%s %s is a subcommand the hooks do not know" % (c.program, sub), unknown=True)
    return set(ops)


def _npm_dry(found) -> bool:
    values = [v for k, v in found if k == "--dry-run"]
    return bool(values) and all(v is True or str(v).lower() not in ("false", "0") for v in values)


def h_pkg_generic(c, a, p, raw):
    prog = c.program
    short, long = DIR_OPTIONS.get(prog.rstrip("0123456789."), ("", ()))
    found, ops = opts(
        a, "C" + short, ("--manifest-path", "--directory", "--project", "--python") + long
    )
    sub = ops[0] if ops else ""
    if prog in ("conda", "mamba", "micromamba") and sub in ("env", "init"):
        return conda_env(c, found, ops, p.ctx.home)
    if prog == "go" and sub == "mod" and ops[1:2] == ["edit"]:
        return go_mod_edit(c, a[a.index("edit") + 1 :])
    if prog == "go" and sub in ("list", "doc") and not go_reads(a[a.index(sub) + 1 :]):
        c.flag("go %s with these options builds or runs code (toolexec, cgo)" % sub, runner=True)
        return set(ops)
    if prog == "brew" and sub == "services":  # a service manager, as systemctl is
        verb = ops[1] if len(ops) > 1 else "list"
        if verb not in ("list", "info"):
            c.flag("brew services %s changes a service" % verb, remote=True)
            if destroying(verb, frozenset(("kill", "stop", "cleanup"))):
                c.flag("brew services %s stops a service" % verb, destructive=True)
        return set(ops)
    if prog == "dpkg" and any(w in ("-x", "--extract", "-X", "--vextract") for w in a):
        # dpkg -x PKG.deb DIR unpacks the package's files (any paths) into DIR
        ops = [w for w in a if w[:1] != "-"]
        c.reads.extend(ops[:1])
        c.writes.extend(ops[1:2] or ["."])
        return set(ops)
    if prog in _SYSTEM_PKG:
        names = [k for k, _ in found]
        if prog in ("apt", "apt-get", "aptitude") and any(
            w[:2] in ("-o", "-c") or w.startswith(("--option", "--config-file")) for w in a
        ):  # APT configuration names commands (APT::Update::Pre-Invoke, DPkg::Post-Invoke)
            c.flag("%s -o/-c sets configuration that can run commands" % prog, unknown=True)
        if prog in _SYSTEM_READ_OPTIONS:
            changes = _system_option_changes(prog, names, ops)
        elif _apt_simulates(prog, names, sub):
            changes = False
        elif not ops:
            changes = any(k not in _HELP_OPTIONS for k in names)
        else:
            changes = sub not in _SYSTEM_READ.get(prog, ())
        if not ops and not names:
            changes = False
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
        c.writes.extend(project_dirs(found) or ["."])
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
        d = project_dirs(found)
        c.writes.extend(d or ["."])
        c.writes.extend(made_paths(prog, sub, ops, a))
        c.flag("package install" if sub not in ("fmt", "fix", "clippy") else "formats code")
        if sub in ("fix", "clippy", "get", "generate"):
            c.flag("%s %s runs code the hooks cannot see" % (prog, sub), runner=True)
        return set(ops)
    if prog in _HELP_FIRST and any(k in ("--help", "-h") for k, _ in found):
        return set(ops)  # prints the verb's help before it reads the project
    if publish(c, prog, sub):
        return set(ops)
    if (
        prog == "go"
        and sub == "env"
        and any(k in ("-w", "-u") for k, _ in found + [(w, 1) for w in a])
    ):
        c.flag("go env -w/-u changes go's configuration (GOFLAGS, GOPROXY, toolexec)", unknown=True)
        return set(ops)
    if sub == "config" and _config_sets(found, ops):
        c.flag(
            "%s config %s changes the tool's configuration" % (prog, " ".join(ops[1:3])),
            unknown=True,
        )
        return set(ops)
    if prog == "go" and (
        sub in ("doc", "version", "help", "env")
        or sub == "mod"
        and ops[1:2] in (["graph"], ["why"], ["verify"])
    ):
        return set(ops)  # they print documentation, the toolchain, the module graph
    if (
        prog == "uv"
        and len(ops) == 2
        and ops[1] in _UV_READS.get(sub, ())
        and all(
            k in _HELP_OPTIONS or k.startswith("--show-") or k == "--outdated" for k, _ in found
        )
    ):
        return set(ops)  # uv tool list, uv cache dir, uv self version: they print
    if prog == "uv" and sub in _UV_BUILDS:
        c.flag(
            "uv %s resolves the project, which may build it (runs its backend)" % sub, runner=True
        )
        return set(ops)
    if prog in _LOADS_PROJECT_CODE and not _info_only(prog, sub, found, ops):
        c.flag(
            "%s %s loads the project's configuration, which runs code (%s)"
            % (prog, sub, _LOADS_PROJECT_CODE[prog]),
            runner=True,
        )
        return set(ops)
    if not sub and any(k not in _HELP_OPTIONS and k not in _PATH_QUERIES for k, _ in found):
        # pipenv --rm deletes the environment, --python creates one: an action by option
        c.flag("%s %s is an option the hooks do not know" % (prog, found[0][0]), unknown=True)
        return set(ops)
    if sub in _MANAGER_READ or not sub and not ops:
        return set(ops)
    if sub in _MANAGER_RUN or prog in ("go", "cargo") and sub:
        c.flag("%s %s runs code the hooks cannot see (builds, tests)" % (prog, sub), runner=True)
        return set(ops)
    if not c.writes:
        c.flag("%s %s is a subcommand the hooks do not know" % (prog, sub), unknown=True)
    return set(ops)


# managers whose every verb (its reads too) loads project files that run code; what runs
_LOADS_PROJECT_CODE = {
    "cargo": ".cargo/config.toml names a rustc wrapper, build scripts run",
    "bundle": "the Gemfile is Ruby",
    "composer": "its plugins under vendor/ load on start",
    "hatch": "version sources, build hooks and plugins are Python",
    "rye": "the build backend and version sources run",
    "pdm": "project plugins under .pdm-plugins and build backends run",
    "poetry": "project plugins and build backends run",
}
# managers that answer --help before they load a plugin or the project
_HELP_FIRST = frozenset(("hatch", "rye", "cargo", "bundle"))
# the verbs of those managers that print without reading the project
_INFO_VERBS = {"cargo": ("help", "version"), "bundle": ("help", "version")}
# uv verbs that resolve the project: a dynamic version or metadata builds it
_UV_BUILDS = frozenset(("tree", "export", "version"))
# uv verbs whose sub-verb only prints where things are or what is installed
_UV_READS = {"tool": ("list", "dir"), "cache": ("dir",), "self": ("version",)}


def _info_only(prog, sub, found, ops=()):
    """A version or help query that reads no project file (`cargo help X` of a command that
    is not cargo's own runs the program cargo-X finds on the PATH)."""
    if not all(k in _HELP_OPTIONS or k == "--list" for k, _ in found):
        return False
    if prog == "cargo" and sub == "help" and ops[1:] and ops[1] not in CARGO_BUILTINS:
        return False
    return not sub or sub in _INFO_VERBS.get(prog, ("help",))


def _config_sets(found, ops):
    """poetry/composer/pdm/bundle/conda/cargo config: sets, unsets or edits a value (a name
    and a value, a set/unset/edit verb, or --add/--unset-style options)."""
    if ops[1:2] and ops[1] in ("set", "unset", "edit", "add", "remove", "delete", "rm"):
        return True
    if len(ops) > 2 and ops[1] not in ("get", "list", "show"):
        return True
    return any(
        k
        in (
            "--add",
            "--append",
            "--prepend",
            "--remove",
            "--remove-key",
            "--set",
            "--unset",
            "--edit",
            "-e",
            "--write",
        )
        for k, _ in found
    )


_HELP_OPTIONS = ("-h", "--help", "-v", "--version", "-V", "-q", "--quiet", "-?")
# options that print where a manager keeps things (pipenv --venv, --where, --py)
_PATH_QUERIES = ("--venv", "--where", "--py", "--envs", "--support", "--list")


# apt's simulation: it prints what the verb would do and changes nothing (needs no root)
_APT_SIMULATE = frozenset(("-s", "--simulate", "--just-print", "--dry-run", "--recon", "--no-act"))
_APT_SIMULATED = frozenset(
    "install remove purge upgrade dist-upgrade full-upgrade autoremove reinstall build-dep "
    "safe-upgrade".split()
)
# options that only shape the simulated answer; -o/-c set configuration (hooks that run
# commands), so they are not among them
_APT_PLAIN = _APT_SIMULATE | frozenset(
    "-y --yes --assume-yes -q --quiet -qq -V --verbose-versions --no-install-recommends "
    "--install-recommends --install-suggests --no-install-suggests -f --fix-broken -m "
    "--ignore-missing --fix-missing -u --show-upgraded --only-upgrade --reinstall "
    "--allow-downgrades -t --target-release --no-upgrade --auto-remove --autoremove "
    "--no-remove --arch-only --indep-only -a --host-architecture".split()
)


def _apt_simulates(prog, names, sub):
    """apt-get -s install x: a simulation of a verb that would change packages, with no
    option that sets configuration."""
    return (
        prog in ("apt", "apt-get", "aptitude")
        and sub in _APT_SIMULATED
        and any(k in _APT_SIMULATE for k in names)
        and all(k in _APT_PLAIN for k in names)
    )


def _system_option_changes(prog, names, ops):
    """dpkg -l, rpm -qa, pacman -Ss, nix-env -q, emerge -s: an action not listed as a query
    changes the machine (dpkg --configure -a runs maintainer scripts, rpm --eval runs %(..))."""
    plain = _SYSTEM_READ_OPTIONS[prog]
    if prog == "pacman" and ("-S" in names or "--sync" in names):
        return not any(k in ("-s", "-i", "-l", "-g") for k in names) or any(
            k in ("-y", "-u", "-w", "--refresh", "--sysupgrade", "--downloadonly") for k in names
        )
    if prog == "rpm":
        query = any(k in ("-q", "--query", "-V", "--verify") for k in names)
        risky = ("-e", "--erase", "-U", "--upgrade", "-F", "--freshen", "--install", "--import")
        risky += ("--eval", "-E", "--rebuilddb", "--initdb", "--setperms", "--setugids")
        if query:
            return any(k in risky for k in names)
        return any(k not in ("--version", "--help", "-K", "--checksig") for k in names)
    if (
        prog == "emerge"
        and ops
        and not any(k in ("-p", "--pretend", "-s", "-S", "--search", "--searchdesc") for k in names)
    ):
        return True
    return any(k not in plain for k in names)


# system package managers: the verbs that only print (any other changes the machine) ...
_SYSTEM_READ = {
    **dict.fromkeys(
        ("apt", "apt-get", "aptitude"),
        "list search show showsrc policy depends rdepends madison help moo changelog".split(),
    ),
    **dict.fromkeys(
        ("dnf", "yum", "microdnf"),
        "list info search provides whatprovides repolist repoquery check-update deplist help "
        "repoinfo updateinfo".split(),
    ),
    "apk": "info list search policy stats dot version verify".split(),
    "zypper": "se search if info lr repos ls services pa packages pch patches lp list-patches "
    "wp what-provides lu list-updates help pt patterns pd products".split(),
    "snap": "list info find version help connections services changes warnings known "
    "interfaces".split(),
    "flatpak": "list info search remote-ls remotes history ps remote-info documentation".split(),
    "port": "installed info search list deps rdeps contents outdated version help provides "
    "echo location variants dependents".split(),
    "brew": "list ls info abv search deps uses outdated config doctor leaves desc commands "
    "tap-info log cat formulae casks missing options help --prefix --cellar --repository "
    "--cache --env --config shellenv which-formula --caskroom".split(),
    "pkg": "info search query version which rquery stats help".split(),
    "choco": "list search info find outdated help config-list".split(),
    "winget": "list search show help --info".split(),
    "scoop": "list search info status which prefix help cat depends checkup export".split(),
}
# ... and the option-driven ones, by the options that only query
_SYSTEM_READ_OPTIONS = {
    "dpkg": frozenset(
        "-l --list -L --listfiles -s --status -S --search -p --print-avail --get-selections "
        "-c --contents -I --info -f --field --audit -C --print-architecture --verify -V "
        "--print-foreign-architectures --compare-versions --version --help -? --no-pager "
        "--yet-to-unpack --assert-support-predepends --validate-pkgname --validate-version "
        "--validate-archname".split()
    ),
    "rpm": frozenset(
        "-q --query -V --verify -a --all -i --info -l --list -f --file -p --package -c "
        "--configfiles -d --docfiles --requires -R --provides --whatprovides --whatrequires "
        "--changelog --qf --queryformat --version --help --last --scripts --dump -K "
        "--checksig -s --state -g --group --nosignature --nodigest".split()
    ),
    "pacman": frozenset(
        "-Q --query -Si -Ss -Sl -Sg -Qi -Ql -Qs -Qo -Qe -Qm -Qdt -Qu -Qk -F --files -T "
        "--deptest --version -V --help -h -i -l -s -o -e -m -d -t -u -k -q -c".split()
    ),
    "nix-env": frozenset("-q --query -a --available -s --status --version --help".split()),
    "emerge": frozenset(
        "-p --pretend -s --search -S --searchdesc --info --version -h --help".split()
    ),
}


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
    "biome": (("--write", "--apply", "--apply-unsafe", "--fix"), ()),
    "dprint": (None, ("check",)),
    "ruff": (None, ("--check", "--diff")),
}


_RUFF_VERBS = frozenset("check format rule config linter version help analyze".split())


# linters and formatters whose configuration is a program (eslint.config.js, prettier.config.js
# and plugins, dprint's process plugins): any run but a version or help query runs it
_CONFIG_IS_CODE = frozenset(("eslint", "prettier", "dprint"))


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
    if prog in _CONFIG_IS_CODE and not (a and all(w in _HELP_OPTIONS for w in a)):
        c.flag("%s loads the project's configuration, which is code" % prog, runner=True)
    on, off = _FORMATTERS[prog]
    if prog == "ruff":
        verb = a[0] if a else ""
        if verb == "clean":  # removes the .ruff_cache directories under the current one
            c.writes.append(".")
            c.flag("ruff clean deletes its caches")
            return set(a)
        if verb.isalpha() and verb not in _RUFF_VERBS:  # `ruff server`, verbs yet to come
            c.flag("ruff %s is a verb the hooks do not know" % verb, unknown=True)
            return set(a)
        if verb not in ("format", "check"):
            return None
        if verb == "check" and not any(w.split("=")[0] in ("--fix", "--fix-only") for w in a):
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
        and not any(_named_flag(w, ("--write",)) for w in a)
    ):
        return None
    if on is not None and not any(_named_flag(w, on) for w in a):
        return None
    if any(w in off for w in a):
        return None
    ops = [w for w in a if w[:1] != "-"]
    c.writes.extend(ops or ["."])
    c.flag("formats code")


def _named_flag(w: str, names) -> bool:
    """Is option word `w` one of `names`, however spelled: `-w=true`, `--i` (Go's flag
    package and LLVM take one or two dashes), a unique prefix of a long name (argparse)?"""
    if w[:1] != "-":
        return False
    name = w.split("=", 1)[0]
    bare = name.lstrip("-")
    return any(
        name == n or bare == n.lstrip("-") or name[:2] == "--" and long_match(name, n)
        for n in names
    )
