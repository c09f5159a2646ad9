"""Self-protection rules for shell commands that the path checks alone do not see: a runner's
option value naming a directory that holds the hooks (pytest --basetemp wipes it), git
commands that empty or replace the work tree (git rm -r ., sparse-checkout, switch --orphan,
checkout to a tree without the hooks: core/protect_git.py, loaded for git commands only),
and writes of config that makes git or the hooks' own Python run code (.git/config,
~/.gitconfig, `git config core.fsmonitor`, *.pth files, sitecustomize.py). Called from the
self-protection gate."""

from __future__ import annotations

import os

from core import paths, startupfiles
from core.shell import programs
from core.shell.command import long_match

# known tools that keep caches and outputs in option-named dirs (ruff --cache-dir)
_TOOL_FAMILIES = ("packages.formatter", "runners.h_runner")
# programs that put each source in a destination directory by its own name
_COPIERS = frozenset(("cp", "mv", "install", "ln", "rsync", "scp", "ditto"))


def check(ctx, facts) -> str | None:
    """The [self-protection] block message for a shell call, or None."""
    if facts.kind in ("write", "mcp_write"):
        return startupfiles.check(ctx, facts)
    a = facts.analysis
    if a is None or facts.kind != "shell":
        return None
    root = paths.real(ctx.project)
    adds: list = []
    refs = None
    for cmd in a.commands:
        cwd = paths.normalise(cmd.cwd, ctx.cwd, ctx.home) if cmd.cwd else ctx.cwd
        msg = _startup_writes(ctx, cmd, cwd)
        if msg:
            return msg
        k = programs.key(cmd.program)
        service = programs.family(k) == "services.h_service_cli"
        if service or k.endswith("-compose") or cmd.program in ("kubectl", "oc"):
            from core.shell import containers  # loaded for container and service CLIs only

            if containers.is_cli(k) or cmd.program in ("kubectl", "oc"):
                msg = _container(ctx, cmd, cwd)
            elif service:  # their copies are judged above, by where each lands
                msg = _remote_tree(ctx, cmd, cwd)
            if msg:
                return msg
        if cmd.program == "git":
            from core import protect_git  # git commands only

            if refs is None:
                refs = protect_git.refs_of(ctx)
            msg = protect_git.check(ctx, cmd, cwd, root, adds, refs)
            if msg:
                return msg
        if cmd.unknown or programs.family(programs.key(cmd.program)) in _TOOL_FAMILIES:
            msg = _option_dirs(ctx, cmd, cwd, root)
            if msg:
                return msg
    return None


# -- containers ------------------------------------------------------------------------------


def _holds(ctx, raw: str, cwd: str) -> str | None:
    """The protected path `raw` is or holds (a dynamic one: what its pattern can be)."""
    if "$" in raw or "`" in raw:
        hits = paths.dyn_protected(raw, cwd, ctx.project, ctx.cfg, ctx.home)
        return hits[0] if hits else None
    full = paths.normalise(raw, cwd, ctx.home)
    return paths.protected_rule(full, cwd, ctx.project, ctx.cfg, ctx.home) or paths.holds_protected(
        full, cwd, ctx.project, ctx.cfg, ctx.home
    )


def _container(ctx, cmd, cwd) -> str | None:
    """A container with a writable bind mount of a directory holding protected files runs
    code the hooks never see with write access to them; a build exporting into such a
    directory, or a copy out of a container landing on them, writes files nobody saw."""
    from core.shell import containers

    a = cmd.argv[1:]
    spelled = " ".join(cmd.argv[:1] + containers.verb(a)[0])
    prog = programs.key(cmd.program)
    for src, writable in containers.mounts(a) + containers.compose_mounts(prog, a, cwd):
        if src == "?":
            return (
                "[self-protection] `%s` starts containers from a compose file the hooks "
                "cannot read (too big, stdin), so they cannot see what it mounts writable. "
                "Use a readable compose file." % spelled
            )
        held = writable and _holds(ctx, src, cwd)
        if held:
            return (
                "[self-protection] `%s` mounts %s writable into a container, and it holds "
                "sane-hooks files (%s); the code in the container can change them. Mount it "
                "read-only (`-v %s:/w:ro`) or mount a directory without them (e.g. `-v "
                "$PWD/src:/w/src`)." % (spelled, src, held, src)
            )
    lands = [(o, o) for o in containers.outputs(a)]
    for src, dest in containers.copies(a, prog):
        full = paths.normalise(dest, cwd, ctx.home)
        name = os.path.basename(src.rstrip("/"))
        into = os.path.isdir(full) and name not in (".", "")  # cp c:/x dir: dir/x
        lands.append((dest, os.path.join(dest, name) if into else dest))
    for shown, where in lands:
        held = _holds(ctx, where, cwd)
        if held:
            return (
                "[self-protection] `%s` writes files the hooks cannot see into %s, which "
                "holds sane-hooks files (%s). Export into a directory without them (e.g. "
                "build/ or the temp dir) and copy what you need." % (spelled, shown, held)
            )
    return None


# verbs of remote CLIs that bring a tree of files down (aws s3 sync, rclone copy, borg extract)
_TREE_VERBS = frozenset("sync rsync copy move download-batch restore extract mirror".split())


def _remote_tree(ctx, cmd, cwd) -> str | None:
    """A remote CLI bringing a tree down (a sync, a recursive copy, an extract) into a
    directory holding protected files writes files the hooks cannot see over them."""
    a = cmd.argv[1:]
    words = [w.lower() for w in a if w[:1] != "-"][:4]
    if not (any(w in ("--recursive", "-r", "-R") for w in a) or _TREE_VERBS.intersection(words)):
        return None
    targets = list(cmd.writes) or (["."] if "extract" in words else [])
    for w in targets:
        held = _holds(ctx, w, cwd)
        if held:
            return (
                "[self-protection] `%s` brings down files the hooks cannot see into %s, "
                "which holds sane-hooks files (%s). Download into a directory without them "
                "(e.g. build/ or the temp dir) and copy what you need."
                % (" ".join(cmd.argv[:3]), w, held)
            )
    return None


# -- runner options (D4) ---------------------------------------------------------------------


def option_values(args: list[str]) -> list[tuple[str, str]]:
    """(option, value) for every word a program may take as an option value: `--opt=VAL`,
    `-oVAL`, and the word after any option (`--outDir VAL`, `-C VAL`): whether the option
    takes a value is the program's business, so every candidate counts."""
    out = []
    for i, w in enumerate(args):
        if w == "--":
            break
        if w[:1] != "-" or len(w) < 2:
            continue
        if "=" in w:
            out.append((w.split("=", 1)[0], w.split("=", 1)[1]))
        elif w[:2] != "--" and len(w) > 2:
            out.append((w[:2], w[2:]))
        if "=" not in w and i + 1 < len(args) and args[i + 1][:1] != "-":
            out.append((w, args[i + 1]))
    return out


# option and variable names that say the directory is a scratch or output area a runner may
# empty first (pytest --basetemp, tox --workdir, cargo --target-dir, CARGO_TARGET_DIR)
_WIPED = ("temp", "tmp", "work", "target", "cache")
# environment variables whose value a runner takes as a directory or as more options
_ENV_DIRS = ("DIR", "TMP", "TEMP", "TARGET", "CACHE", "PREFIX", "OUT", "OPTS", "FLAGS", "ARGS")


def _env_values(env: dict) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for k, v in (env or {}).items():
        if not isinstance(v, str) or not any(x in k.upper() for x in _ENV_DIRS):
            continue
        words = v.split()
        out.extend((k, w) for w in words if w[:1] != "-")
        out.extend((k + " " + o, val) for o, val in option_values(words))
    return out


def _option_dirs(ctx, cmd, cwd, root) -> str | None:
    """A runner's output, work or temp dir is written and often emptied first (pytest
    --basetemp, tox --workdir, cargo --target-dir, make -C runs what is there): a value that
    is a protected path or a directory holding one is a write of it. The project root and
    its ancestors are where runners work (`--rootdir=.`, `--cov=.`): not counted."""
    budget = dict(paths.GLOB_BUDGET)
    for opt, v in option_values(cmd.argv[1:]) + _env_values(cmd.env):
        if not v or v == "-":
            continue
        cands = [v]
        if paths.has_glob(v):
            cands = paths.expand(v, cwd, ctx.home, False, budget)[0] or [v]
        wiped = any(x in opt.lower() for x in _WIPED)
        for cand in cands:
            full = paths.real(paths.normalise(cand, cwd, ctx.home))
            if (full == root or paths.is_under(root, full)) and not wiped:
                continue
            rule = paths.protected_rule(full, cwd, ctx.project, ctx.cfg, ctx.home)
            held = rule or paths.holds_protected(full, cwd, ctx.project, ctx.cfg, ctx.home)
            if held:
                return (
                    "[self-protection] `%s` takes %s as an option value; runners write, "
                    "empty or run what is in such directories (output, work and temp dirs), "
                    "and it holds sane-hooks files (%s). Point the option at a directory "
                    "without them (e.g. build/, the temp dir)." % (cmd.program, v, held)
                )
    return None


# -- config that runs code (D2) --------------------------------------------------------------


def _startup_writes(ctx, cmd, cwd) -> str | None:
    if cmd.program == "git":
        from core.shell import git  # git commands only

        if git.RUNS_CONFIG in cmd.reasons:
            return (
                "[self-protection] `%s` sets a git key that names a program (hooks path, "
                "fsmonitor, pager, editor, alias with !, ssh command, filters); the person's "
                "own git would run it outside every check. Ask the person to make that change."
                % " ".join(cmd.argv[:4])
            )
        sep = [
            w
            for w in cmd.argv[1:]
            if len(w.partition("=")[0]) > 3
            and long_match(w.partition("=")[0], "--separate-git-dir")
        ]
        if sep:
            return (
                "[self-protection] `%s` writes a .git file naming another directory as the "
                "git directory; git then runs that directory's config and hooks. Keep the "
                "git directory in the project (drop --separate-git-dir)." % sep[0]
            )
        return None  # `git config user.name x` writes .git/config through git itself
    if programs.key(cmd.program) == "crontab" and _crontab_installs(cmd.argv):
        return (
            "[self-protection] `crontab` installs jobs that cron runs later with the person's "
            "rights, outside every check. Ask the person to install the crontab."
        )
    names = [os.path.basename(w.rstrip("/")) for w in cmd.argv[1:] if w[:1] != "-"]
    copier = programs.key(cmd.program) in _COPIERS
    for raw in cmd.writes:  # joined to the command's cd already
        msg = startupfiles.message(ctx, raw, ctx.cwd)
        if msg:
            return msg
        if raw[-1:] != "/" and not os.path.isdir(paths.normalise(raw, ctx.cwd, ctx.home)):
            continue
        for n in names:  # `cp x.pth site/`, `cp evil ~/`: each source lands at DIR/its name
            if n and (copier or n.endswith(".pth") or n in startupfiles.PY_STARTUP):
                msg = startupfiles.message(ctx, os.path.join(raw, n), ctx.cwd)
                if msg:
                    return msg
    return None


def _crontab_installs(argv: list[str]) -> bool:
    """crontab FILE, crontab - (stdin), crontab -e: a new table; -l lists, -r removes."""
    short = "".join(w[1:] for w in argv[1:] if w[:1] == "-" and w[1:2] != "-" and len(w) > 1)
    longs = [w for w in argv[1:] if w[:2] == "--"]
    return not any(ch in short for ch in "lrV") and not longs
