"""Self-protection for git commands that remove or replace the files of the work tree: git rm
of a path holding the hooks' files, sparse-checkout, switch --orphan, read-tree, reset --hard,
checkout or switch to a commit where they differ, merges, rebases, cherry-picks and stash
applies that bring changes to them. Called from core/protect_shell.py for git commands only;
the questions about commits go to a hardened git (core/gitrun.py)."""

from __future__ import annotations

import os

from core import paths
from core.shell.command import long_match


def refs_of(ctx):
    """What the git commands of one call learn about refs, fetches and what is tracked."""
    from core.shell import gitrepo

    return gitrepo.Refs(lambda *w: _git(ctx, *w), lambda where, b: _remote_keeps(ctx, where, b))


def _git_sub(argv: list[str]) -> tuple[str, list[str]]:
    """(subcommand, its arguments) of a git argv, top-level options skipped."""
    i = 1
    while i < len(argv):
        w = argv[i]
        if w in ("-C", "-c") and i + 1 < len(argv):
            i += 2
            continue
        if w[:1] == "-":
            i += 1 if "=" in w or w not in ("--git-dir", "--work-tree", "--namespace") else 2
            continue
        return w, argv[i + 1 :]
    return "", []


def _split(args: list[str]) -> tuple[list[str], list[str]]:
    flags = [w for w in args if w[:1] == "-" and w != "--"]
    ops = [w for w in args if w[:1] != "-"]
    return flags, ops


def _has(flags: list[str], short: str, *longs: str) -> bool:
    for f in flags:
        if f[:2] == "--":
            name = f.split("=", 1)[0]
            if any(len(name) > 3 and x.startswith(name) for x in longs):
                return True
        elif short and any(ch in f[1:] for ch in short):
            return True
    return False


def _covers(ctx, spec: str, cwd: str, root: str) -> bool:
    """A git pathspec that reaches a protected file: magic (`:/`, `:(glob)`), a glob, the
    root or an ancestor, a protected path or a directory holding one."""
    if spec[:1] == ":":
        return True
    if paths.has_glob(spec):
        from core.globs import fnmatchcase

        base = paths.real(paths.normalise(".", cwd, ctx.home))
        rels = [os.path.relpath(os.path.join(ctx.project, f), base) for f in _protected_files(ctx)]
        # a git pathspec glob's `*` crosses `/`, and a match of a directory takes its files
        return any(fnmatchcase(r, spec) or fnmatchcase(r, spec + "/*") for r in rels) or not rels
    full = paths.real(paths.normalise(spec, cwd, ctx.home))
    if full == root or paths.is_under(root, full):
        return True
    return bool(
        paths.protected_rule(full, cwd, ctx.project, ctx.cfg, ctx.home)
        or paths.holds_protected(full, cwd, ctx.project, ctx.cfg, ctx.home)
    )


def _protected_files(ctx) -> list[str]:
    root = ctx.project
    return [
        os.path.relpath(p, root)
        for p in paths.protected_under(root, root, root, ctx.cfg, ctx.home)
        if paths.is_under(p, root) and os.path.isfile(p)
    ]


def _git(ctx, sub: str, *args: str) -> str | None:
    """stdout of a hardened git in the project (core/gitrun.py), None when it fails."""
    from core import gitrun

    return gitrun.run(ctx.project, sub, *args)


def _tree_keeps(ctx, rev: str, strict: bool = False) -> bool:
    """True when the work tree after moving to `rev` still has every protected file as it is
    now (git diff against rev finds no change in them). A rev that is no commit: `strict`
    says no (read-tree), else yes (`git checkout FILE` is a path: the path checks judge it)."""
    files = _protected_files(ctx)
    if not files or rev[:1] == "-":
        return not files
    if not _git(ctx, "rev-parse", "--verify", "--quiet", rev + "^{tree}"):
        return not strict
    out = _git(ctx, "diff", "--name-only", rev, "--", *files[:200])
    return out is not None and not out.strip()


def check(ctx, cmd, cwd, root, adds, refs) -> str | None:
    """The [self-protection] block message for a git command that removes or replaces the
    files of the work tree, or None."""
    sub, args = _git_sub(cmd.argv)
    why = _moves(ctx, cmd, cwd, root, sub, args, refs)
    refs.note(sub, args)
    if why is None and not _fresh_fetch_head(sub, args, refs):
        why = _git_tree_why(ctx, cmd, cwd, root, adds, sub, args)
    if why:
        return (
            "[self-protection] `git %s` %s, and the sane-hooks files (scripts/hooks, "
            ".claude settings) are among them. Name paths that leave them out (e.g. `git rm -r "
            "src/old`), or ask the person." % (sub, why)
        )
    return None


def _fresh_fetch_head(sub: str, args: list[str], refs) -> bool:
    """A move to FETCH_HEAD that a fetch earlier in the call wrote from a source judged to
    keep the hooks' files: the FETCH_HEAD on disk now is an older one."""
    from core.shell import gitrepo

    return refs.fetched and not refs.fetch_head and "FETCH_HEAD" in gitrepo.operands(args)


def _other_repo(ctx, cmd, cwd, root) -> tuple[bool, str]:
    """(git works in a repository other than the project's, the work tree it was given)."""
    from core.shell import gitrepo

    other, where, tree = gitrepo.top_dirs(cmd.argv, cmd.env or {}, cwd, ctx.home)
    full = paths.real(where)
    if full != root and not paths.is_under(full, root):
        other = True
    if tree:  # git takes it from after -C; a $PWD the analysis expanded is the shell's cwd
        near = paths.normalise(tree, cwd, ctx.home)
        tree = paths.normalise(tree, where, ctx.home)
        if _covers(ctx, near, cwd, root):
            tree = near
    return other, tree


def _moves(ctx, cmd, cwd, root, sub, args, refs) -> str | None:
    """A move to a commit nobody can see now, a pull from a repository that is no configured
    remote, or another repository's verb writing the project as its work tree."""
    from core.shell import gitrepo

    other, tree = _other_repo(ctx, cmd, cwd, root)
    if other:
        if tree and sub in gitrepo.TREE_WRITERS and _covers(ctx, tree, cwd, root):
            return "writes another repository's files over the project (its work tree)"
        return None
    if sub not in _MOVERS or not _committed(ctx, refs):
        return None
    refs.scoped(cmd.argv, cmd.env)
    flags, ops = _split(args)
    if _has(flags, "", *_SEQUENCER):
        return None
    targets: list[str] = []
    if sub == "pull":
        if gitrepo.pull_unseen(refs, args):
            return "merges commits from a repository that is no configured remote"
        return None
    if sub == "stash":
        ops = gitrepo.operands(args)
        if ops[:1] in (["apply"], ["pop"], ["branch"]):
            ref = ops[2 if ops[0] == "branch" else 1 :][:1]
            if ref and not ref[0].isdigit() and not ref[0].startswith("stash@{"):
                targets = ref
    elif sub == "reset":
        if not _has(flags, "", "--hard", "--merge", "--keep"):
            return None
        targets = gitrepo.operands(args)[:1]
    elif sub in ("checkout", "switch"):
        rev = _switch_target(sub, args)
        if rev and not (sub == "checkout" and gitrepo.is_path(rev, cwd)):
            if "$" in rev or "`" in rev:
                return "moves the work tree to a commit named by a substitution"
            targets = [rev]
    else:
        targets = gitrepo.operands(args)[:4]
    for t in targets:
        if refs.unseen(t, checkout=sub in ("checkout", "switch")):
            return (
                "moves the work tree to %s, a commit the hooks cannot see now (made or "
                "fetched in the same command, or no known ref) and that may change them" % t
            )
    return None


_MOVERS = (
    "merge",
    "rebase",
    "cherry-pick",
    "revert",
    "checkout",
    "switch",
    "reset",
    "pull",
    "stash",
)


def _remote_keeps(ctx, where: str, branch: str) -> bool:
    from core.shell import gitrepo

    files = _protected_files(ctx)[:200]
    ours = _git(ctx, "ls-tree", "-r", "HEAD", "--", *files)
    where = paths.normalise(where, ctx.project, ctx.home)
    return ours is not None and gitrepo.remote_keeps(files, ours, where, branch)


def _committed(ctx, refs) -> bool:
    """The project's repository tracks some of the hooks' files (a move can replace them)."""
    if refs.tracked is None:
        files = _protected_files(ctx)
        out = _git(ctx, "ls-files", "-z", "--", *files[:200]) if files else None
        refs.tracked = bool(out and out.strip("\0"))
    return refs.tracked


def _git_tree_why(ctx, cmd, cwd, root, adds, sub, args) -> str | None:
    from core.shell.gitverbs import STDIN_INDEX

    flags, ops = _split(args)
    why = None
    if sub == "rm" and not _has(flags, "", "--cached"):
        if any(_covers(ctx, o, cwd, root) for o in ops) or _has(flags, "", "--pathspec-from-file"):
            why = "removes files from the work tree"
    elif sub == "sparse-checkout" and ops[:1] in (["set"], ["add"], ["init"], ["reapply"]):
        keep = [o.strip("/") for o in ops[1:]]
        lost = [
            f
            for f in _protected_files(ctx)
            if "/" in f and not any(f == k or f.startswith(k + "/") for k in keep if k)
        ]
        if lost or ops[0] in ("init", "reapply") or _has(flags, "", "--no-cone", "--stdin"):
            why = "removes every path outside the sparse cone from the work tree"
    elif sub == "switch" and _has(flags, "", "--orphan"):
        why = "empties the work tree"
    elif sub == "read-tree" and not _has(flags, "n", "--dry-run"):
        # without -u only the index changes, and the next commit + reset (or checkout-index)
        # writes it out: judged like a checkout of that tree
        prefix = [f.split("=", 1)[1] for f in flags if f.startswith("--prefix=")]
        if prefix:
            if any(_covers(ctx, x.rstrip("/") or ".", cwd, root) for x in prefix):
                why = "reads a tree over the hooks' files in the index"
        elif _has(flags, "", "--empty") or not ops:
            why = "empties the index"
        elif not all(_tree_keeps(ctx, o, strict=True) for o in ops[:3]):
            why = "replaces the index (and with -u the work tree) with another tree"
    elif sub == "checkout-index" and _has(flags, "a", "--all"):
        why = "overwrites work tree files with the index"
    elif sub == "reset" and _has(flags, "", "--hard", "--merge", "--keep"):
        rev = ops[0] if ops and "--" not in args[: args.index(ops[0])] else "HEAD"
        if adds and _untracked(ctx):
            why = "deletes the hooks' files just staged (not in %s)" % rev
        elif not _tree_keeps(ctx, rev):
            why = "replaces the work tree with %s, where the hooks' files differ" % rev
    elif sub in ("checkout", "switch") and _switch_target(sub, args) is not None:
        rev = _switch_target(sub, args) or "HEAD"
        if rev == "HEAD" and adds and _untracked(ctx):
            why = "deletes the hooks' files just staged (not in HEAD)"
        elif not _tree_keeps(ctx, rev):
            why = "replaces the work tree with %s, where the hooks' files differ" % rev
    elif sub in _BRINGERS and ops and not _has(flags, "", *_SEQUENCER):
        brought = _brings_changes(ctx, sub, ops)
        if brought:
            why = "brings in %s, which changes the hooks' files" % brought
    elif sub == "update-index" and STDIN_INDEX in cmd.reasons and _protected_files(ctx):
        why = "replaces index entries read from stdin (any of the hooks' files)"
    elif sub == "worktree" and ops[:1] in (["remove"], ["move"]) and len(ops) > 1:
        if _covers(ctx, ops[1], cwd, root):
            why = "%ss the work tree that holds them" % ("remove" if ops[0] == "remove" else "move")
    elif sub == "stash" and ops[:1] in (["apply"], ["pop"], ["branch"]):
        ref = ops[2 if ops[0] == "branch" else 1 :][:1] or ["0"]
        ref = ["stash@{%s}" % ref[0] if ref[0].isdigit() else ref[0]]  # `apply 1`: stash@{1}
        if ops[0] == "branch" and not _tree_keeps(ctx, ref[0] + "^1"):
            why = "checks out the commit the stash was made on, where the hooks' files differ"
        elif _stash_changes(ctx, ref[0]):
            why = "writes the stashed changes of the hooks' files over them"
    elif sub in ("checkout", "restore") and ops:
        # `git checkout REV -- .`, `git restore --source=REV .`: files from another commit
        src, specs = _source_and_specs(sub, args)
        if src and any(_covers(ctx, o, cwd, root) for o in specs) and not _tree_keeps(ctx, src):
            why = "writes files from %s over the work tree, where the hooks' files differ" % src
    elif sub in ("add", "stage"):
        if _has(flags, "Au", "--all", "--update") or any(_covers(ctx, o, cwd, root) for o in ops):
            adds.append(cmd)
    elif sub == "stash" and (not ops or ops[0] in ("push", "save")):
        files = _protected_files(ctx)
        staged_new = files and _git(
            ctx, "diff", "--cached", "--name-only", "--diff-filter=A", "--", *files[:200]
        )
        if adds and _untracked(ctx) or staged_new:
            why = "takes staged new files (the hooks' files, not committed yet) into the stash"
    return why


_BRINGERS = ("merge", "rebase", "cherry-pick", "revert")
_SEQUENCER = ("--abort", "--quit", "--continue", "--skip", "--edit-todo", "--show-current-patch")


def _brings_changes(ctx, sub: str, ops: list[str]) -> str | None:
    """The operand of a merge, rebase, cherry-pick or revert whose commits change a protected
    file: a merge or rebase takes what changed on the other side since the merge base, a
    cherry-pick or revert what the commit (or range) changes. Words that are no commit (a
    message) make git fail here and count for nothing."""
    files = _protected_files(ctx)
    if not files:
        return None
    for op in ops[:4]:
        if op[:1] == "-":
            continue
        if sub in ("merge", "rebase"):
            span = ["HEAD..." + op]
        elif ".." in op:
            span = op.replace("...", "..").split("..", 1)
        else:
            span = [op + "^", op]
        out = _git(ctx, "diff", "--name-only", *span, "--", *files[:200])
        if out is None and sub == "revert" and ".." not in op:
            # a root commit has no parent: reverting it takes away every file it added
            out = _git(
                ctx,
                "diff-tree",
                "--root",
                "-r",
                "--no-commit-id",
                "--name-only",
                op,
                "--",
                *files[:200],
            )
        if out is None and ".." not in op:
            # no merge base (unrelated histories) or no parent (a root commit): the whole
            # tree of the commit against the work tree
            out = _git(ctx, "diff", "--name-only", op, "--", *files[:200])
        if out and out.strip():
            return op
    return None


_CREATE = ("-b", "-B", "-c", "-C", "--orphan", "--create", "--force-create")


def _switch_target(sub: str, args: list[str]) -> str | None:
    """The commit `git checkout`/`git switch` moves the work tree to ("" for HEAD itself with
    --force), or None when it writes named paths (judged as paths) or moves nowhere. `-` is
    the previous branch; a new branch's start point is where it moves."""
    revs: list[str] = []
    force = False
    i = 0
    while i < len(args):
        w = args[i]
        if w == "--":
            if args[i + 1 :]:
                return None  # checkout REV -- paths: the paths rule
            break
        if w == "-":
            revs.append("@{-1}")
        elif w in _CREATE or any(long_match(w, x) for x in _CREATE[4:]):
            i += 1  # the new branch's name
        elif w[:2] in ("-b", "-B", "-c", "-C") and len(w) > 2 and w[:2] != "--":
            pass  # -bNAME
        elif w == "-f" or long_match(w, "--force") or long_match(w, "--discard-changes"):
            force = True
        elif w[:1] != "-":
            revs.append(w)
        i += 1
    if sub == "checkout" and len(revs) > 1:
        return None  # checkout REV paths: the paths rule
    if revs:
        return "@{-1}" if revs[0] == "-" else revs[0]
    return "" if force else None


def _stash_changes(ctx, ref: str) -> bool:
    """Whether the stash changes a protected tracked file (what apply writes back)."""
    files = _protected_files(ctx)
    if not files:
        return False
    out = _git(ctx, "diff", "--name-only", ref + "^1", ref, "--", *files[:200])
    return bool(out and out.strip())


def _source_and_specs(sub: str, args: list[str]) -> tuple[str, list[str]]:
    """(the commit files come from, the pathspecs) of `git checkout REV [--] paths` or
    `git restore --source=REV paths`."""
    src = ""
    specs: list[str] = []
    i = 0
    dash = False
    while i < len(args):
        w = args[i]
        if w == "--" and not dash:
            dash = True
        elif dash or w[:1] != "-":
            if sub == "checkout" and not src and not dash:
                src = w
            else:
                specs.append(w)
        elif sub == "restore" and w in ("--source", "-s") and i + 1 < len(args):
            src = args[i + 1]
            i += 1
        elif sub == "restore" and w.startswith("--source="):
            src = w[9:]
        elif sub == "restore" and w[:2] == "-s" and len(w) > 2:
            src = w[2:]
        i += 1
    return src, specs


def _untracked(ctx) -> bool:
    files = _protected_files(ctx)
    if not files:
        return False
    out = _git(ctx, "ls-files", "-z", "--", *files[:200])
    if out is None:
        return False  # not a repository: nothing to stash
    return len([x for x in out.split("\0") if x]) < len(files[:200])
