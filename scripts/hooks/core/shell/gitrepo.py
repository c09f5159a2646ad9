"""Which commit a git move goes to, and which repository git works in.

A move (merge, checkout, reset, rebase, stash apply, pull) is judged by the tree of its
target as it is now; a target the hooks cannot see now (a ref fetched or made earlier in the
same command, FETCH_HEAD after a fetch from a path or URL, a substitution, a name that does
not resolve, a pull from a repository that is not a configured remote) may bring any tree.
Called from core/protect_git.py with its hardened git runner."""

from __future__ import annotations

import os
from typing import Callable

Git = Callable[..., "str | None"]

# options whose value is the next word (a message, a strategy, a count): no revision
_VALUE_OPTS = frozenset(
    (
        "-m",
        "-F",
        "-s",
        "-X",
        "-x",
        "-j",
        "-o",
        "--message",
        "--file",
        "--strategy",
        "--strategy-option",
        "--into-name",
        "--cleanup",
        "--exec",
        "--depth",
        "--deepen",
        "--shallow-since",
        "--shallow-exclude",
        "--jobs",
        "--negotiation-tip",
        "--server-option",
        "--upload-pack",
        "--refmap",
    )
)
# verbs that write refs the next move may go to
_REF_MAKERS = ("branch", "tag", "update-ref", "symbolic-ref")
# git verbs that write the work tree (judged when the work tree is the project's but the
# repository is another one)
TREE_WRITERS = frozenset(
    (
        "checkout",
        "switch",
        "reset",
        "read-tree",
        "checkout-index",
        "stash",
        "merge",
        "pull",
        "rebase",
        "cherry-pick",
        "revert",
        "restore",
        "am",
        "apply",
        "clean",
        "rm",
        "mv",
        "sparse-checkout",
        "worktree",
        "submodule",
        "bisect",
    )
)


def operands(args: list[str]) -> list[str]:
    """The words of a git verb's arguments that are no option nor an option's value; words
    after `--` are paths and left out."""
    out = []
    i = 0
    while i < len(args):
        w = args[i]
        if w == "--":
            break
        if w[:1] == "-":
            if w in _VALUE_OPTS:
                i += 1
        else:
            out.append(w)
        i += 1
    return out


def _remote_key(word: str) -> bool:
    low = word.lower()
    return "remote" in low or low.startswith("url.") or "insteadof" in low


def _short(ref: str) -> str:
    ref = ref.lstrip("+")
    for pre in ("refs/heads/", "refs/tags/", "refs/remotes/", "refs/"):
        if ref.startswith(pre):
            return ref[len(pre) :]
    return ref


def _base(rev: str) -> str:
    """The ref name of a revision expression (`evil~2^` -> evil)."""
    for i, ch in enumerate(rev):
        if ch in "~^:" or rev[i : i + 2] == "@{":
            return _short(rev[:i])
    return _short(rev)


class Refs:
    """What earlier git commands of the same shell call did to refs and remotes."""

    def __init__(self, git: Git, keeps: Callable[[str, str], bool]):
        self.git = git
        self.keeps = keeps  # (a local remote's directory, its branch) keeps the hooks' files
        # remotes fetched here that may bring unseen trees -> their directory ("": any)
        self.tainted: dict[str, str] = {}
        self.fetched = False  # a fetch ran earlier in the call: FETCH_HEAD is not the one now
        self.names: set[str] = set()
        self.fetch_head = False
        self.remotes_changed = False
        self._remotes: set[str] | None = None
        self.tracked: bool | None = None  # the repository tracks the hooks' files

    def remote(self, name: str) -> bool:
        """A remote configured in the project now (and not changed earlier in the call)."""
        if self._remotes is None:
            out = self.git("remote") or ""
            self._remotes = {x.strip() for x in out.splitlines() if x.strip()}
        return not self.remotes_changed and name in self._remotes

    def local(self, name: str) -> str:
        """The directory of a configured remote on this machine ("" for a network one): the
        agent may have written what it holds."""
        url = (self.git("config", "--get", "remote.%s.url" % name) or "").strip()
        if url.startswith("file://"):
            return url[7:] or "/"
        head = url.split("/", 1)[0]
        if "://" in url or (":" in head and len(head.split(":", 1)[0]) > 1):
            return ""  # a URL or host:path
        return url or "/"

    def brings(self, name: str, branches: list[str]) -> bool:
        """A fetch or pull of `branches` (none: every branch) from the configured remote
        `name` may bring a tree nobody has seen: a changed remote, or a local one whose
        branch changes the hooks' files."""
        if not self.remote(name):
            return True
        where = self.local(name)
        return bool(where) and not all(self.keeps(where, b) for b in branches or ["*"])

    def note(self, sub: str, args: list[str]) -> None:
        ops = operands(args)
        if sub in ("fetch", "pull"):
            every = any(a in ("--all", "--multiple") for a in args)
            names = (ops if "--multiple" in args else []) or ops[:1] or [self.upstream()[0]]
            self.fetched = True
            for name in sorted(self._remotes or ()) if every else names:
                srcs = [x.split(":", 1)[0].lstrip("+") for x in ops[1:]] if not every else []
                if name and self.brings(name, srcs):
                    self.fetch_head = True  # what FETCH_HEAD holds now: unseen
                    # its branches: unseen when changed, else judged one by one
                    self.tainted[name] = "" if not self.remote(name) else self.local(name)
            for spec in ops[1:]:
                if ":" in spec:
                    self.names.add(_short(spec.split(":", 1)[1]))
            if any(a.startswith("--refmap") for a in args):
                self.remotes_changed = True
        elif sub == "remote" and ops[:1] != ["show"] and ops[:1] != ["-v"] and ops:
            self.remotes_changed = True
        elif sub == "config" and any(_remote_key(w) or w[:1] == "$" for w in args):
            self.remotes_changed = True
        elif sub in _REF_MAKERS or sub == "replace":
            if sub == "replace":
                self.remotes_changed = True  # any object may now read as another
            self.names.update(_short(o) for o in ops)

    def upstream(self) -> tuple[str, str]:
        """(remote, branch) the current branch pulls from, ("", "") when none."""
        full = (self.git("rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}") or "").strip()
        if "/" not in full:
            return "", ""
        for name in sorted(self._remotes or (), key=len, reverse=True):
            if full.startswith(name + "/"):
                return name, full[len(name) + 1 :]
        name, _, branch = full.partition("/")
        return name, branch

    def scoped(self, argv: list[str], env: dict) -> None:
        """`git -c remote.x.url=...` / `-c url.X.insteadOf=...` and GIT_CONFIG_* variables
        point this command's remotes anywhere."""
        pairs = zip(argv[1:], argv[2:])
        if any(k == "-c" and _remote_key(v) for k, v in pairs) or any(
            k.startswith("GIT_CONFIG") for k in env or {}
        ):
            self.remotes_changed = True

    def unseen(self, rev: str, checkout: bool = False) -> bool:
        """True when the commit `rev` names cannot be seen now: made or fetched earlier in the
        call, a substitution, or a name that does not resolve (a checkout of a name one
        remote's branch has is that branch)."""
        if "$" in rev or "`" in rev or "<(" in rev:
            return True
        base = _base(rev)
        if base in self.names or "refs/heads/" + base in self.names:
            return True
        if base == "FETCH_HEAD" and self.fetch_head:
            return True
        if self.remotes_changed and ("/" in base or base == "FETCH_HEAD"):
            return True
        name, _, branch = base.partition("/")
        if name in self.tainted:
            where = self.tainted[name]
            if not where or not branch or not self.keeps(where, branch):
                return True
        if self.git("rev-parse", "--verify", "--quiet", rev + "^{commit}"):
            return False
        if checkout and self.dwim(rev):
            return False
        return True

    def dwim(self, name: str) -> str:
        """The one remote-tracking branch `git checkout NAME` would start from, or ""."""
        out = self.git("for-each-ref", "--format=%(refname)", "refs/remotes/*/" + name) or ""
        refs = [x for x in out.splitlines() if x.strip()]
        return refs[0] if len(refs) == 1 else ""


def pull_unseen(refs: Refs, args: list[str]) -> bool:
    """A pull merges what its remote holds: from a configured network remote (not changed
    in the call) that is ordinary work; from a local one, what its branches hold now; from a
    path, a URL or a remote just added, anything."""
    ops = operands(args)
    refs.remote("")  # loads the configured names
    if not ops:
        name, branch = refs.upstream()
        return bool(name) and refs.brings(name, [branch])
    srcs = [x.split(":", 1)[0].lstrip("+") for x in ops[1:]]
    return refs.brings(ops[0], srcs or [refs.upstream()[1] or "*"])


def remote_keeps(files: list[str], ours: str, where: str, branch: str) -> bool:
    """The branch (`*`: every branch, at most 8) of the repository in `where`, a remote on
    this machine, holds the hooks' files as HEAD does (`ours`: HEAD's ls-tree of them),
    asked of a hardened git there."""
    from core import gitrun

    if branch == "*":
        out = gitrun.run(where, "for-each-ref", "--count=9", "--format=%(refname)", "refs/heads")
        heads = (out or "").split()
    else:
        heads = [branch]
    if not heads or len(heads) > 8:
        return False
    return all(gitrun.run(where, "ls-tree", "-r", h, "--", *files) == ours for h in heads)


def top_dirs(argv: list[str], env: dict, cwd: str, home: str) -> tuple[bool, str, str]:
    """From git's own options and environment: (a git dir is named, the directory after -C,
    the work tree named)."""
    from core import paths

    other = bool(env.get("GIT_DIR"))
    tree = env.get("GIT_WORK_TREE", "")
    where = cwd
    i = 1
    while i < len(argv) and argv[i][:1] == "-":
        w = argv[i]
        name, eq, val = w.partition("=")
        if w in ("-C", "-c") or name in ("--git-dir", "--work-tree") and not eq:
            val = argv[i + 1] if i + 1 < len(argv) else ""
            i += 1
        if w == "-C":
            where = paths.normalise(val, where, home)
        elif name == "--git-dir":
            other = True
        elif name == "--work-tree":
            tree = val
        i += 1
    return other, where, tree if isinstance(tree, str) else ""


def unseen_object(sub: str, word: str, path: str, rule: str) -> str:
    return (
        "[blocked-path] `git %s` prints the object %s names, which the hooks cannot see now "
        "(it may be the blob of %s, which git tracks: blocked path rule %r). Name the object "
        "itself (e.g. `git cat-file -p HEAD:src/app.py`)." % (sub, word, path, rule)
    )


def is_path(word: str, cwd: str) -> bool:
    return os.path.lexists(os.path.join(cwd, word))


# -- the repository git discovers --------------------------------------------------------------

FOREIGN = (
    "git in a repository that is not the project's own (a .git naming another git "
    "directory: its config can run commands)"
)
_MAX_UP = 64


def _gitdir_of(dot_git: str) -> str:
    """The git directory a `.git` entry names: itself (a directory or a link to one) or the
    `gitdir:` line of a .git file; "" when unreadable."""
    if os.path.isdir(dot_git):
        return os.path.realpath(dot_git)
    try:
        with open(dot_git, encoding="utf-8", errors="replace") as fh:
            line = fh.read(4096).split("\n", 1)[0].strip()
    except OSError:
        return ""
    if not line.startswith("gitdir:"):
        return ""
    target = line[7:].strip()
    return os.path.realpath(os.path.join(os.path.dirname(dot_git), target))


def _own(gitdir: str, root: str) -> bool:
    """The project's git directory or one inside it (a submodule's, a worktree's)."""
    own = os.path.realpath(os.path.join(root, ".git"))
    return bool(gitdir) and (gitdir == own or gitdir.startswith(own.rstrip("/") + "/"))


def foreign(cmd, cwd: str, project: str, home: str) -> bool:
    """git here works in a repository other than the project's own: the first `.git` found
    walking up from its directory (after cd and -C), or the one GIT_DIR/--git-dir names, is
    inside the project but is no git directory of the project's. Outside the project the
    analysis judges it already (git in a repository outside the project)."""
    from core import paths

    if not project or not isinstance(cwd, str):
        return False
    root = os.path.realpath(project)
    where = cmd.cwd if isinstance(cmd.cwd, str) else None
    here = paths.normalise(where, cwd, home) if where else cwd
    gitdir = (cmd.env or {}).get("GIT_DIR")
    a = cmd.argv
    i = 1
    while i < len(a) and a[i][:1] == "-":
        w = a[i]
        name, eq, val = w.partition("=")
        takes = w in ("-C", "-c") or (
            name in ("--git-dir", "--work-tree", "--namespace") and not eq
        )
        if takes:
            val = a[i + 1] if i + 1 < len(a) else ""
        if w == "-C" and val:
            if "$" in val or "`" in val:
                return True  # a directory nobody can see now
            here = paths.normalise(val, here, home)
        elif name == "--git-dir":
            gitdir = val
        i += 2 if takes else 1
    if not isinstance(gitdir, str) and gitdir is not None:
        return False
    if gitdir:
        full = paths.normalise(gitdir, here, home)
        if "$" in gitdir or "`" in gitdir:
            return False  # the analysis judges a dynamic one
        real = os.path.realpath(full)
        if not real.startswith(root.rstrip("/") + "/") and real != root:
            return False  # outside: judged by the analysis
        return not _own(_gitdir_of(full), root)
    d = os.path.realpath(here)
    if d != root and not d.startswith(root.rstrip("/") + "/"):
        return False
    for _ in range(_MAX_UP):
        dot = os.path.join(d, ".git")
        if os.path.lexists(dot):
            if d == root:
                return False  # the project's own, whatever the person set up
            return not _own(_gitdir_of(dot), root)
        if d == root or d == os.path.dirname(d):
            return False
        d = os.path.dirname(d)
    return True
