"""How the policy judges one analysed shell command beyond its reads and writes: code in the
temp dir, interpreter options around our CLI, plain readers, and deletes that are ordinary
work. Pure functions of the Command, the paths and the config."""

from __future__ import annotations

import os

from core import paths
from core.shell.budget import SCRIPT_RUNNERS, code_paths  # the words the analysis charged

FIND_RM = "find -exec rm"  # find ... -exec rm -rf {} +: judged like find -delete


def temp_code(cmd, cwd, project):
    """A script, makefile or module path in the temp dir: there the agent can write even under
    safemode, so running it is running code we cannot see.  The analysis charged these
    lookups to its work budget (parser.flush)."""
    base = cwd
    if cmd.cwd:
        if cmd.cwd == "$PWD":
            base = None
        else:
            base = os.path.join(cwd, cmd.cwd)
    for c in code_paths(cmd):
        if base is None and not c.startswith(("/", "~")):
            continue
        if paths.in_temp(paths.normalise(c, base or cwd), project):
            return True
    return False


_PLAIN_INTERP = frozenset(
    ("-B", "-u", "-E", "-s", "-S", "-O", "-OO", "-q", "-b", "-bb", "-I", "-P")
)


def interp_options(cmd):
    """Options given to the interpreter before a sane.py script (python3 -i sane.py)."""
    low = cmd.program.lower()
    if not (low.startswith("python") or low.startswith("pypy")):
        return False
    for w in cmd.argv[1:]:
        if w[:1] != "-":
            return False
        if w not in _PLAIN_INTERP:
            return True
    return False


def plain(cmd):
    """cat, wc, head, ls ...: a directory operand is not read file by file."""
    from core.shell import programs

    return programs.family(programs.key(cmd.program)) in (
        "builtins.h_readers",
        "builtins.h_prints",
        "builtins.h_echo",
        "builtins.h_printf",
        "builtins.h_arith",
        "builtins.h_callbacks",
        "builtins.h_look",
    )


def plain_delete(cmd, cwd, project, home, cfg):
    """`rm -rf build dist`: deleting named paths inside the project that hold no protected
    file is ordinary work, not a [destructive] ask. Anything else destructive stays so."""
    if cmd.program == "find" and cmd.reasons in (["find -delete"], [FIND_RM]) and cmd.writes:
        return _find_spares(cmd, cwd, project, home, cfg)
    # git clean -f PATH: only the untracked files under its pathspecs go
    clean = cmd.program == "git" and cmd.reasons == ["git clean -f deletes untracked files"]
    why = [r for r in cmd.reasons if r != "write target not static"]  # a glob, checked below
    if not clean and (cmd.program != "rm" or why != ["recursive force delete"]) or not cmd.writes:
        return False
    root = paths.real(project)
    budget = dict(paths.GLOB_BUDGET)
    for w in cmd.writes:
        if "$" in w or "`" in w or w[:1] in ("~", ":") or clean and paths.has_glob(w):
            return False  # a git pathspec glob crosses `/`; `:/` magic is the whole tree
        found = [w]
        if paths.has_glob(w):
            # rm -rf *.egg-info: what bash expands it to now, each match judged as named;
            # the directory it expands in lies in the project (an earlier step may fill it)
            head = w[: min(w.find(x) % (len(w) + 1) for x in "*?[")].rpartition("/")[0]
            base = paths.real(paths.normalise(head or ("/" if w[:1] == "/" else "."), cwd, home))
            found, complete = paths.expand(w, cwd, home, True, budget)
            if not complete or not (base == root or paths.is_under(base, root)):
                return False
        if not all(_plain_target(m, cwd, root, project, home, cfg) for m in found):
            return False
    return True


def _plain_target(w, cwd, root, project, home, cfg):
    """A delete target inside the project, not its root or .git, holding no protected file."""
    target = paths.real(paths.normalise(w, cwd, home))
    if target == root or not paths.is_under(target, root):
        return False
    if paths.protected_rule(w, cwd, project, cfg, home) or paths.holds_protected(
        w, cwd, project, cfg, home
    ):
        return False
    git = os.path.join(root, ".git")
    return target != git and not target.startswith(git + "/")


_FIND_WIDENERS = (
    "-o",
    "-or",
    ",",
    "!",
    "-not",
    "-path",
    "-wholename",
    "-ipath",
    "-regex",
    "-iregex",
)


def _find_spares(cmd, cwd, project, home, cfg):
    """`find . -name '*.pyc' -delete`: every name filter is a pattern no protected file's name
    matches, the search roots lie inside the project (not in .git): ordinary clean-up."""
    from core.globs import fnmatchcase

    a = cmd.argv[1:]
    pats = [a[i + 1] for i, w in enumerate(a[:-1]) if w in ("-name", "-iname")]
    if not pats or any(w in _FIND_WIDENERS for w in a):
        return False
    root = paths.real(project)
    for w in cmd.writes:
        if paths.has_glob(w) or "$" in w or "`" in w or w[:1] == "~":
            return False
        target = paths.real(paths.normalise(w, cwd, home))
        if not paths.is_under(target, root) or paths.is_under(target, os.path.join(root, ".git")):
            return False
    names = protected_names(project, cfg, home, FIND_RM in cmd.reasons)
    names.add("state.json")
    return not any(
        fnmatchcase(n, pat) or fnmatchcase(n.lower(), pat.lower()) for n in names for pat in pats
    )


def protected_names(project, cfg, home, trees: bool) -> set:
    """The names a find name filter must not match: each protected file's, and with `trees`
    (`-exec rm -r {}` takes a matched directory whole) every directory on the way to one."""
    root = paths.real(project)
    names = {"settings.json", "settings.local.json", "sane.yaml", "sane.py"}
    for p in paths.protected_under(".", project, project, cfg, home):
        names.add(os.path.basename(p))
        if trees and paths.is_under(p, root):
            names.update(os.path.relpath(p, root).split(os.sep)[:-1])
    return names


def changes_or_runs(cmd) -> bool:
    """Anything but a known read: code the hooks cannot see, a script or program file an
    interpreter runs, a write, a delete or a remote change."""
    if cmd.unknown or cmd.writes or cmd.code or cmd.destructive or cmd.remote:
        return True
    prog = cmd.program
    if prog.lower().startswith(("python", "pypy")) or prog in SCRIPT_RUNNERS:
        return True
    return "/" in (cmd.argv[0] if cmd.argv else "")
