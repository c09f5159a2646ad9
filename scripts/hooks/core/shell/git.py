"""git and gh."""

from __future__ import annotations

from core.shell import gitverbs
from core.shell.archives import patch_targets
from core.shell.command import has, join, opts, spawn, stdin_text, vals

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
    "merge-file": "L",
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
    "init": "b",
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
    "--initial-branch",
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


_GIT_TOP_OPTIONS = frozenset(
    (
        "--no-pager",
        "-p",
        "--paginate",
        "-P",
        "--bare",
        "--no-replace-objects",
        "--literal-pathspecs",
        "--glob-pathspecs",
        "--noglob-pathspecs",
        "--icase-pathspecs",
        "--no-optional-locks",
        "--no-advice",
        "--html-path",
        "--man-path",
        "--info-path",
        "--exec-path",
        "--no-lazy-fetch",
    )
)


RUNS_CONFIG = "git config sets a command to run"
# subcommands whose REV:PATH-looking words are URLs (host:path)
_GIT_URLS = frozenset(("ls-remote", "fetch-pack", "send-pack", "request-pull", "remote-show"))


def _object_paths(words: list[str]) -> list[str]:
    """The paths of REV:PATH object names (HEAD:.env, :.env, :0:.env); `:/text` searches
    commit messages and a URL is no object."""
    out = []
    for o in words:
        if ":" in o and o[:2] not in (":/", ":!", ":^", ":(") and "://" not in o and o[:1] != "-":
            path = o.split(":", 1)[1]
            if o[:1] == ":" and path[:1].isdigit() and path[1:2] == ":":
                path = path[2:]  # :0:path, a stage of the index
            out.append(path or ".")
    return out


def _risky_key(key: str, value: str) -> bool:
    """A key that names a program, or one whose profile does not say it is data (diff.tool
    and protocol.version are data; diff.x.textconv and protocol.ext.allow are not)."""
    data = gitverbs.config_data(key, value)
    return not data or key.startswith(_GIT_RISKY_CONFIG) and key.count(".") > 1


def _plain_program(key: str, value: str) -> bool:
    """A config value that is one known program's name (vim, less, meld): no path, no shell,
    no arguments. Keys that name a directory or another file never are."""
    from core.shell import programs

    if key.startswith(("core.hookspath", "include", "core.fsmonitor")) or not value:
        return False
    return value.isascii() and value.replace("-", "").isalnum() and programs.known(value)


def _foreign_repo(path):
    return path[:1] in ("/", "~", "$") or ".." in path


def _outside_repo(c, repo, p) -> None:
    """git reads the config (fsmonitor, pager, aliases) and runs the hooks of the repository
    it works in: one outside the project (`git -C /tmp/x`, `cd /tmp/x && git`) is code the
    hooks cannot see. GIT_TRACE* set to a path writes that file."""
    project = p.ctx.env.get("CLAUDE_PROJECT_DIR", "") if p.ctx.env else ""
    for where in (c.cwd, repo):
        if not where or not project:  # no project to compare with (a bare analysis)
            continue
        w = where.rstrip("/") + "/"
        inside = project and (w.startswith(project.rstrip("/") + "/")) and "/../" not in w
        if (where[:1] in ("/", "~", "$") or ".." in where) and not inside:
            c.flag(
                "git in a repository outside the project (its config and hooks can run commands)",
                unknown=True,
            )
    for k, v in (c.env or {}).items():
        if k.startswith("GIT_TRACE") and isinstance(v, str) and ("/" in v or "\\" in v):
            c.writes.append(v)


def h_git(c, a, p, raw):
    repo = None
    i = 0
    n = len(a)
    skip = set()
    while i < n:
        w = a[i]
        if w == "-C" and i + 1 < n:
            repo = join(repo, a[i + 1]) if repo else a[i + 1]
            i += 2
            continue
        if w == "-c" and i + 1 < n:
            key = a[i + 1].split("=", 1)[0].lower()
            val = a[i + 1].split("=", 1)[1] if "=" in a[i + 1] else ""
            harmless = key.startswith(("core.pager", "pager.")) and val in ("cat", "less", "")
            risky = _risky_key(key, val)
            if not harmless and (risky or "!" in val):
                c.flag("git -c sets a command to run", unknown=True)
            i += 2
            continue
        name, eq, val = w.partition("=")
        if name in ("--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env"):
            if not eq:
                val = a[i + 1] if i + 1 < n else ""
                i += 1
            if name == "--config-env":
                c.flag("git --config-env sets configuration that can run commands", unknown=True)
            elif name == "--work-tree":
                repo = val
            if name in ("--git-dir", "--work-tree") and _foreign_repo(val):
                c.flag(
                    "git with a repository outside the project (its config can run commands)",
                    unknown=True,
                )
            i += 1
            continue
        if w[:1] == "-":
            if w in ("--help", "-h"):
                # `git --help VERB` is `git help VERB`: it runs the man viewer the config of
                # the repository it is in names
                _outside_repo(c, repo, p)
                return None
            if w == "--version":
                return None
            if w not in _GIT_TOP_OPTIONS:
                c.flag("git option %s the hooks do not know" % w, unknown=True)
            i += 1
            continue
        break
    _outside_repo(c, repo, p)
    if i >= n:
        return None
    sub = a[i]
    rest = a[i + 1 :]
    base = repo or "."
    gitdir = join(base, ".git")
    found, ops = opts(rest, _GIT_SHORT_ARGS.get(sub, ""), _GIT_LONG_ARGS)
    names = [k for k, _ in found]
    # messages and patterns are no paths; -F/--file name a file git reads (a commit message
    # or tag body from .env is printed by the next `git log`): those stay paths
    skip.update(vals(found, "-m", "--message", "--format", "--pretty", "--grep", "--author"))
    for code in vals(found, "-x", "--exec") if sub == "rebase" else ():
        c.code.append(code)
        p.subparse(code)
        skip.add(code)
    if gitverbs.dry_run(sub, names):
        return skip | set(ops)  # git add -n, rm -n, mv -n, commit --dry-run: they only print
    dashdash = rest.index("--") + 1 if "--" in rest else -1
    paths = rest[dashdash:] if dashdash > 0 else []

    def write(*ps):
        for x in ps:
            c.writes.append(join(repo, x) if repo else x)

    if sub in ("clone", "init") and any(len(k) > 4 and "--template".startswith(k) for k in names):
        # a template's hooks are copied in and run at once (post-checkout in clone)
        c.flag("git %s --template copies hooks the hooks cannot see" % sub, unknown=True)
    if any(o.lower().startswith(("ext::", "fd::")) for o in ops + [str(v) for _, v in found]):
        # the ext:: transport runs its URL as a command (where protocol.ext.allow lets it)
        c.flag("git %s with an ext:: URL runs a command" % sub, unknown=True)
    if sub == "help" and any(k in ("-w", "--web", "-i", "--info") for k in names):
        c.flag("git help --web starts a browser the config names", unknown=True)
    for k in names:
        if (
            k in ("--upload-pack", "--receive-pack", "--exec")
            or k == "-u"
            and sub
            in (
                "clone",
                "fetch",
                "pull",
                "ls-remote",
                "archive",
            )
        ):
            c.flag("git %s %s runs a command" % (sub, k), unknown=True)
    if sub == "bisect" and ops[:1] == ["run"] and len(ops) > 1:
        spawn(ops[1:], p)  # git bisect run CMD: the command runs at every step
    elif sub == "filter-branch":
        for k, v in found:
            if k.endswith("-filter") and isinstance(v, str):
                c.code.append(v)
                p.subparse(v)
                skip.add(v)
    if sub in _GIT_READ or sub in ("archive", "config", "unpack-file"):
        # REV:PATH names a file of a commit or the index (`git diff HEAD:.env x`,
        # `git config --blob :.env -l`): a read of that path
        if sub not in _GIT_URLS:
            c.reads.extend(_object_paths(ops + vals(found, "--blob")))
    if sub in ("log", "blame", "annotate"):
        for v in vals(found, "-L"):  # -L 1,5:FILE, -L :func:FILE: lines of FILE
            if ":" in v:
                c.reads.extend({v.split(":", 1)[1], v.rsplit(":", 1)[1]})
    if sub in _GIT_READ:
        no_index = has(found, "--no-index")
        if sub == "grep" and ops and not has(found, "-e", "-f"):
            skip.add(ops[0])
            c.reads.extend(o for o in ops[1:] if o != "--" and o[:2] not in (":!", ":^", ":("))
            if no_index:  # plain directories, every file in them: the tree rule
                c.tree.extend([o for o in ops[1:] if o != "--"] or ["."])
        elif sub == "diff" and no_index:
            c.reads.extend(ops)
            c.tree.extend(ops)
        for spec in paths + [o for o in ops if o[:2] in (":!", ":^", ":(")]:
            exclude, path = gitverbs.pathspec(spec)
            skip.add(spec)  # `:!.env` leaves the file out: no read of it
            if not exclude:
                c.reads.append(path or ".")
        if sub == "hash-object" and "-w" in names:
            write(gitdir)
        elif sub == "credential":
            # `git credential fill` prints the stored password for a host: the helper's store
            c.reads.append(p.ctx.home + "/.git-credentials")
        elif sub == "send-pack":
            c.flag("git send-pack changes a remote repository", remote=True)
        elif sub == "fetch-pack":
            write(gitdir)  # the objects it receives
        elif sub in ("gui", "citool", "gitk"):
            c.flag("git %s opens a program that commits and resets" % sub, unknown=True)
        elif sub == "interpret-trailers" and has(found, "--in-place"):
            write(*ops)
        # the diff family writes its output to a file (`git log --format=X --output=F`
        # writes any text anywhere); mailinfo writes its two operands, bugreport a file
        # git takes any unique prefix of a long option: --outp=F is --output=F
        write(*[v for k, v in found if len(k) > 4 and "--output".startswith(k) and v is not True])
        write(
            *[
                rest[j + 1]
                for j, w in enumerate(rest[:-1])
                if len(w) > 4 and "=" not in w and "--output".startswith(w)
            ]
        )
        if sub == "mailinfo":
            write(*ops[:2])
        elif sub in ("bugreport", "mailsplit"):
            write(
                *(
                    vals(found, "-o", "--output-directory")
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
        elif (
            sub == "tag"
            and (
                not ops or has(found, "-l", "--list", "-v", "--verify", "--contains", "--points-at")
            )
            and not has(found, "-d", "--delete", "-a", "-s", "-f")
        ):
            return skip
        elif sub == "tag" and has(found, "-d", "--delete"):  # no reflog keeps a tag
            c.flag("git tag -d deletes a tag", destructive=True)
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
            return _git_config(c, rest, repo, gitdir, p, skip)
        elif sub == "push":
            c.flag("git push changes a remote repository", remote=True)
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
        elif sub == "update-ref" and ("-d" in names or "--stdin" in names):
            c.flag("git update-ref deletes or rewrites refs", destructive=True)
        elif sub == "archive":
            out = vals(found, "-o", "--output")
            if out:
                write(*out)
            return skip
        elif sub == "format-patch":
            # -o names the directory; a diff option --output=F (or a prefix) the one file
            out = vals(found, "-o", "--output-directory")
            out += [
                v for k, v in found if len(k) > 4 and "--output".startswith(k) and v is not True
            ]
            write(*(out or ([] if "--stdout" in names else ["."])))  # --stdout prints them
            return skip
        elif sub == "bundle" and ops[:1] in (["create"], ["verify"], ["list-heads"]):
            # create writes the bundle file (- is stdout), verify and list-heads read one;
            # none of them changes the repository (unbundle and fetch from one do)
            if ops[0] == "create" and len(ops) > 1 and ops[1] != "-":
                write(ops[1])
            elif ops[0] != "create" and len(ops) > 1:
                c.reads.append(ops[1])
            return skip
        elif sub == "update-index":
            return skip | gitverbs.update_index(c, rest, write, gitdir, stdin_text(raw))
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
            write(join(ops[0], ".git") if ops else gitdir)
            return skip
        if sub == "stash":
            gitverbs.stash(c, rest, found, ops, paths, write, gitdir)
            return skip
        if sub == "submodule":
            return skip | gitverbs.submodule(c, rest, write, gitdir, p)
        if sub == "read-tree" and not any(k in ("-u", "--reset") for k in names):
            write(gitdir)  # the index only (protect_shell judges the tree it reads)
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
            targets = patch_targets(body, strip[-1] if strip else None, 1) if body else []
            write(*(targets or ["."]))
            return skip
        if sub == "worktree":
            gitverbs.worktree(c, rest, found, ops, write, gitdir)
            return skip
        write(*gitverbs.tree_targets(sub, names, ops))
        return skip
    c.flag("unrecognised git subcommand (an alias can run anything)", unknown=True)
    return skip


def _git_config(c, rest, repo, gitdir, p, skip):
    """git config: a form that sets, adds, replaces, unsets or renames writes the config
    file; a key that names a program to run (hooksPath, fsmonitor, pager, alias.x=!..,
    include.path) is one that runs outside every check later."""
    names, values, ops = gitverbs.config_args(c, rest)
    if values.get("--file", "-") != "-":
        c.reads.append(values["--file"])  # `git config -f FILE -l` prints the file's values
    strange = any(n not in gitverbs.CFG_LONG for n in names)
    sub = ops[0] if ops and ops[0] in gitverbs.CFG_SUBS else ""  # a key always has a dot
    args = ops[1:] if sub else ops
    if any(n in gitverbs.CFG_READS for n in names) or sub in ("list", "get"):
        return skip
    writing = (
        any(n in gitverbs.CFG_WRITES for n in names)
        or sub in ("set", "unset", "edit", "rename-section", "remove-section")
        or len(args) >= 2
        or strange
        and bool(args)
    )
    if not writing:
        return skip
    skip = skip | set(ops)
    if "--file" in values:
        c.writes.append(values["--file"])
    elif "--global" in names:
        c.writes.append(p.ctx.home + "/.gitconfig")
    elif "--system" in names:
        c.writes.append("/etc/gitconfig")
    else:
        c.writes.append(gitdir + "/config")
    if any(n in ("--unset", "--unset-all", "--remove-section") for n in names) or sub in (
        "unset",
        "remove-section",
    ):
        return skip
    renames = "--rename-section" in names or sub == "rename-section"
    keys = [k.lower() for k in (args[:2] if renames else args[:1])]
    value = "" if renames else (args[1] if len(args) > 1 else "")
    if "--edit" in names or sub == "edit":
        c.flag(RUNS_CONFIG, unknown=True)  # an editor writes whatever it likes
    elif any(_risky_key(k, value) or k.rstrip(".") + "." in _GIT_RISKY_CONFIG for k in keys):
        key = keys[-1] if keys else ""
        if (
            key.startswith("alias.")
            and not renames
            and not value.startswith("!")
            and not any(w[:1] == "-" for w in value.split())
        ):
            pass  # `alias.co checkout`: another git subcommand, judged when it runs
        elif not renames and _plain_program(key, value):
            # `core.editor vim`, `core.pager less`: a known program, no shell: a change the
            # hooks cannot follow, not a self-protection one
            c.flag("git config sets a program to run", unknown=True)
        else:
            # a key that names a program runs it in the person's own git later, outside
            # every check (the hooks run git hardened): a write of a file that runs outside
            c.flag(RUNS_CONFIG, unknown=True)
    elif any(not k or "$" in k or "`" in k for k in keys):
        c.flag(RUNS_CONFIG, unknown=True)  # a key the analysis cannot see may be any

    return skip


def h_gh(c, a, p, raw):
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
        c.writes.extend(vals(found, "-D", "--dir", "-O", "--output") or ["."])
    return set(a)
