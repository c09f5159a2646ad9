"""git's own readers of tracked files. `git grep`, `git log -p`, `git show`, `git diff`,
`git archive`, `git bundle create`, `git format-patch`, `git add -p` ... print (or copy) the
contents of the files git tracks. When the index tracks a file a blocked rule covers (a `.env`
committed by mistake), such a command prints the secret unless its pathspecs leave it out, and
`git cat-file` prints it when given its blob's id. Judged in the blocked-path gate, only for
git commands that print contents: one hardened, bounded `git ls-files` per repository and call
(core/gitrun.py).

What was committed and deleted since lives only in the history; that is out of reach here.
"""

from __future__ import annotations

import os

from core.shell import gitrepo
from core.shell.command import long_match

# print a diff unless told otherwise / only when asked / always (or copy every file)
_DIFF_DEFAULT = frozenset(("diff", "show"))
_DIFF_ASKED = frozenset(
    ("log", "whatchanged", "diff-tree", "diff-index", "diff-files", "request-pull", "stash")
) | {"reflog"}  # reflog is log -g: with -p every patch of every entry
_ALWAYS = frozenset(("archive", "fast-export", "format-patch", "range-diff"))
# print the hunks of changed tracked files with -p / --patch / --interactive
_HUNKS = frozenset(("add", "stage", "checkout", "reset", "restore", "commit", "stash"))
# long options that turn the patch on (any unique prefix of them, as git takes)
_PATCH_LONG = (
    "--patch",
    "--patch-with-stat",
    "--patch-with-raw",
    "--unified",
    "--function-context",
    "--word-diff",
    "--word-diff-regex",
    "--color-words",
    "--cc",
    "--dd",
    "--remerge-diff",
    "--diff-merges",
    "--binary",
    "--check",
    "--full-diff",
)
_PATCH_SHORT = "pucmW"  # short flags that turn it on; U and L take a value and do too
# short options whose value follows (attached or not): git grep's, the others'
_GREP_VALUES = "efABCmO"
_VALUE_SHORT = "SGnOlMCBIXoLUv"
# output formats that replace the default patch
_SUPPRESS = (
    "-s",
    "--no-patch",
    "--numstat",
    "--shortstat",
    "--name-only",
    "--name-status",
    "--raw",
    "--summary",
    "--compact-summary",
    "--quiet",
)
# long options whose value may be the next word (so that word is no rev and no path)
_VALUE_LONG = (
    "--author",
    "--committer",
    "--grep",
    "--since",
    "--after",
    "--until",
    "--before",
    "--max-count",
    "--skip",
    "--min-parents",
    "--max-parents",
    "--date",
    "--encoding",
    "--output",
    "--find-object",
    "--diff-filter",
    "--src-prefix",
    "--dst-prefix",
    "--line-prefix",
    "--inter-hunk-context",
    "--anchored",
    "--ignore-matching-lines",
    "--orderfile",
    "--exclude",
    "--glob",
    "--decorate-refs",
    "--decorate-refs-exclude",
    "--prefix",
    "--remote",
    "--exec",
    "--output-directory",
    "--subject-prefix",
    "--to",
    "--in-reply-to",
    "--signature",
    "--signature-file",
    "--base",
    "--interdiff",
    "--range-diff",
    "--creation-factor",
    "--max-depth",
    "--threads",
    "--contents",
    "--ignore-rev",
    "--ignore-revs-file",
    "--format",
    "--pretty",
    "--message",
    "--file",
    "--reroll-count",
    "--add-file",
)
# long flags known to take no value (the word after them is an operand)
_FLAGS = (
    "--cached",
    "--staged",
    "--all",
    "--stat",
    "--follow",
    "--oneline",
    "--graph",
    "--decorate",
    "--no-color",
    "--color",
    "--reverse",
    "--first-parent",
    "--no-merges",
    "--merges",
    "--name-only",
    "--name-status",
    "--numstat",
    "--stdout",
    "--untracked",
    "--no-index",
    "--ignore-case",
    "--line-number",
    "--count",
    "--full-name",
    "--word-regexp",
    "--extended-regexp",
    "--fixed-strings",
    "--perl-regexp",
    "--invert-match",
    "--no-ext-diff",
    "--no-textconv",
    "--ignore-all-space",
    "--minimal",
    "--histogram",
    "--patience",
    "--root",
    "--no-renames",
    "--abbrev-commit",
    "--no-abbrev",
    "--full-history",
    "--branches",
    "--tags",
    "--remotes",
    "--end-of-options",
) + _PATCH_LONG
# `git diff`/`git show` options that change how the files are shown, not which
_SAME_FILES = frozenset(
    (
        "-p",
        "-u",
        "--patch",
        "-w",
        "-b",
        "--ignore-all-space",
        "--ignore-space-change",
        "--word-diff",
        "--color-words",
        "--color",
        "--no-color",
        "--minimal",
        "--patience",
        "--histogram",
        "--cached",
        "--staged",
        "--merge-base",
        "--no-ext-diff",
        "--no-textconv",
        "-W",
        "--function-context",
    )
)
_NAMES_ONLY = ("-l", "-L", "-c", "-q")  # git grep: names, counts or a status, no lines
_NAMES_ONLY_LONG = (
    "--files-with-matches",
    "--files-without-match",
    "--name-only",
    "--count",
    "--quiet",
)
_GLOB_CHARS = frozenset("*?[")
SCAN_LIMIT = 400  # tracked secrets looked at per repository


class Reader:
    """What one git command prints: its subcommand, the pathspecs that limit it (none: every
    tracked file), its object words, and where it reads: "index" (tracked files), "untracked"
    (git grep --untracked: also the untracked ones git does not ignore), "objects" (cat-file
    --batch: any object named on stdin), "blobs" (only the objects it names)."""

    __slots__ = ("sub", "specs", "objects", "scope", "dirs", "env", "ignored", "names")

    def __init__(self, sub: str) -> None:
        self.sub = sub
        self.specs: list[str] = []
        self.objects: list[str] = []
        self.scope = "index"
        self.dirs: list[str] = []  # -C and --work-tree/--git-dir, in order
        self.env: list[str] = []  # --git-dir=X / --work-tree=X to pass on
        self.ignored = False  # --no-exclude-standard: ignored files too
        # for a plain `git diff [--cached] [REV..]` / `git show [REV..]`: the words that ask
        # git which files it would show (so a secret that did not change passes)
        self.names: list[str] | None = None


def _top(argv: list[str]) -> tuple[Reader | None, int]:
    """git's own options: the Reader (subcommand unset) and where the subcommand is."""
    r = Reader("")
    i = 1
    while i < len(argv):
        w = argv[i]
        name, eq, val = w.partition("=")
        if w == "-C" and i + 1 < len(argv):
            r.dirs.append(argv[i + 1])
            i += 2
            continue
        if w == "-c" and i + 1 < len(argv):
            i += 2
            continue
        if name in ("--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env"):
            if not eq:
                val = argv[i + 1] if i + 1 < len(argv) else ""
                i += 1
            if name in ("--git-dir", "--work-tree"):
                r.env.append("%s=%s" % (name, val))
            i += 1
            continue
        if w[:1] == "-":
            if w in ("--literal-pathspecs", "--noglob-pathspecs", "--glob-pathspecs"):
                r.env.append("--glob-pathspecs" if w[2] == "g" else "--literal-pathspecs")
            i += 1
            continue
        r.sub = w
        return r, i
    return None, i


def reader(argv: list[str], base: str) -> Reader | None:
    """The Reader of a git argv that prints the contents of tracked files, else None. base:
    the directory it runs in (git -C included), where an operand may name a path."""
    r, i = _top(argv)
    if r is None:
        return None
    sub = r.sub
    rest = argv[i + 1 :]
    if sub == "stash":
        verb = next((w for w in rest if w[:1] != "-"), "")
        if verb == "show":
            rest = rest[rest.index("show") + 1 :]
        elif verb not in ("", "push", "save") or not _asks_hunks(sub, rest):
            return None
    if sub == "bundle":
        # every commit it bundles, each with its whole tree: no pathspec leaves a file out
        return r if next((w for w in rest if w[:1] != "-"), "") == "create" else None
    shorts = _GREP_VALUES if sub == "grep" else _VALUE_SHORT
    words, ops, specs = _split(rest, shorts)
    patch = _patch(words)
    if sub == "grep":
        if any(_names_only(w) for w in words):
            return None
        if "--no-index" in words:
            return None  # plain directories: the tree rule (c.tree) judges it
        if any(long_match(w, "--untracked") for w in words):
            r.scope = "untracked"
            r.ignored = any(long_match(w, "--no-exclude-standard") for w in words)
        if not any(w in ("-e", "-f") or w.startswith(("-e", "-f")) for w in words):
            if ops:
                ops = ops[1:]  # the pattern
            elif specs:
                specs = specs[1:]  # `git grep -- PATTERN`: the first word after `--`
    elif sub == "cat-file":
        if any(w.startswith("--batch") and not w.startswith("--batch-check") for w in words):
            r.scope = "objects"
            return r
        if any(w in ("-t", "-s", "-e") for w in words) or not ops:
            return None
        r.objects, r.scope = ops, "blobs"
        return r
    elif sub == "unpack-file":
        r.objects, r.scope = ops, "blobs"
        return r
    elif sub == "status":
        if not any(w in ("-v", "--verbose") or w.startswith("-vv") for w in words):
            return None
    elif sub in _HUNKS and sub != "stash" or sub == "stash" and "show" not in argv[i + 1 :]:
        if not _asks_hunks(sub, rest):
            return None
    elif sub in _DIFF_DEFAULT:
        r.objects = ops  # `git show BLOB`, `git diff BLOB BLOB` print those blobs
        if patch is False or patch is None and any(_suppresses(w) for w in words):
            return None
        if sub == "show" and ops and all(":" in o and not o.startswith(":/") for o in ops):
            return None  # REV:PATH objects only: the path rules judge each
        if all(w in _SAME_FILES or w.startswith(("-U", "--unified=")) for w in words) and all(
            o[:1] not in ("-", ":") and o.replace("/", "").replace(".", "").isprintable()
            for o in ops
        ):
            r.names = [w for w in words if w in ("--cached", "--staged", "--merge-base")]
            r.names += [o for o in ops if not _is_pathspec(o, base)]
    elif sub in _DIFF_ASKED:
        if not patch:
            return None
        if sub == "reflog" and ops[:1] == ["show"]:
            ops = ops[1:]  # `git reflog show` is the default verb; the others print no patch
    elif sub not in _ALWAYS and sub != "grep":
        return None
    if any(w.startswith(("--recurse-submodules", "--submodule=diff")) for w in words):
        r.env.append("--recurse-submodules")  # the submodules' tracked files too
    if sub == "archive":
        ops = ops[1:]  # the tree-ish; every other operand is a path in it
        specs = (specs or []) + ops
        ops = []
    r.specs = _pathspecs(ops, specs, base)
    return r


def _asks_hunks(sub: str, rest: list[str]) -> bool:
    for w in rest:
        if w == "--":
            return False
        if long_match(w, "--patch") or long_match(w, "--interactive"):
            return True
        if (
            w[:1] == "-"
            and w[1:2] != "-"
            and ("p" in w[1:] or sub in ("add", "stage") and "i" in w)
        ):
            return True
    return False


def _names_only(w: str) -> bool:
    if w[:2] == "--":
        return any(long_match(w.split("=", 1)[0], x) for x in _NAMES_ONLY_LONG)
    if w[:1] == "-" and w[1:2] not in ("e", "f", "A", "B", "C", "m", "O"):
        for ch in w[1:]:
            if "-" + ch in _NAMES_ONLY:
                return True
            if ch in "efABCmO":
                return False
    return False


def _suppresses(w: str) -> bool:
    name = w.split("=", 1)[0]
    return name in _SUPPRESS or name.startswith(("--stat", "--dirstat"))


def _patch(words: list[str]) -> bool | None:
    """True when an option turns the patch on, False when one turns it off, else None."""
    on = off = False
    for w in words:
        name = w.split("=", 1)[0]
        if name[:2] == "--":
            if name in ("--no-patch",):
                off = True
            elif any(long_match(name, x) for x in _PATCH_LONG):
                on = True
            continue
        if w == "-s":
            off = True
            continue
        for ch in w[1:]:
            if ch in _PATCH_SHORT or ch in "UL":
                on = True
            if ch in _VALUE_SHORT:
                break
    if on:
        return True
    return False if off else None


def _split(rest: list[str], shorts: str) -> tuple[list[str], list[str], list[str] | None]:
    """(option words, operands before `--`, words after `--` or None). A word after an option
    that may take a value is neither (it may be that value)."""
    words: list[str] = []
    ops: list[str] = []
    i = 0
    while i < len(rest):
        w = rest[i]
        if w == "--":
            return words, ops, rest[i + 1 :]
        if w[:1] == "-" and w != "-":
            words.append(w)
            if i + 1 < len(rest) and _takes_value(w, shorts):
                words.append(rest[i + 1])
                i += 1
        else:
            ops.append(w)
        i += 1
    return words, ops, None


def _takes_value(w: str, shorts: str) -> bool:
    if w[:2] == "--":
        if "=" in w:
            return False
        if any(long_match(w, x) for x in _VALUE_LONG):
            return True
        return not any(w == x for x in _FLAGS)  # an option we do not know: maybe
    tail = w[1:]
    for j, ch in enumerate(tail):
        if ch in shorts:
            return j == len(tail) - 1  # -n5 has its value, -n takes the next word
    return False


def _pathspecs(ops: list[str], after: list[str] | None, base: str) -> list[str]:
    """The pathspecs among the operands, by git's rule: revisions first; the first operand
    that is no revision (an existing path, a glob, `:(magic)`) starts the paths. An operand
    that could be a revision is taken for one (it limits nothing)."""
    specs: list[str] = []
    for j, o in enumerate(ops):
        if _is_pathspec(o, base):
            specs = ops[j:]
            break
    return specs + list(after or [])


def _is_pathspec(o: str, base: str) -> bool:
    if o.startswith((":(", ":!", ":^")) or o == ":/":
        return True
    if any(ch in _GLOB_CHARS for ch in o):
        return ":" not in o and "@{" not in o and "^{" not in o
    return os.path.lexists(os.path.join(base, o))


# git's variables that say which repository and how pathspecs read, as options
_ENV_OPTIONS = {
    "GIT_DIR": "--git-dir=",
    "GIT_WORK_TREE": "--work-tree=",
    "GIT_LITERAL_PATHSPECS": "--literal-pathspecs",
    "GIT_GLOB_PATHSPECS": "--glob-pathspecs",
}


# -- the gate's side: which tracked files are secrets, and does the command print one ---------

_TRACKED: dict = {}  # (top, scope, ignored, rules) -> [(path relative to top, blob id, rule)]


def check(ctx, facts) -> str | None:
    """The [blocked-path] reason when a git command prints a tracked secret, else None."""
    for cmd in facts.analysis.commands:
        if cmd.program != "git":
            continue
        base = _base(ctx, cmd)
        if base is None:
            continue
        argv = _unalias(cmd.argv, base, cmd.env)
        head, _ = _top(argv)
        for d in head.dirs if head else ():
            base = os.path.normpath(os.path.join(base, os.path.expanduser(d)))
        r = reader(argv, base)
        if r is None:
            continue
        for k, opt in _ENV_OPTIONS.items():  # GIT_DIR=x git log -p: another repository
            v = (cmd.env or {}).get(k)
            if isinstance(v, str):
                r.env.append(opt + v if opt.endswith("=") else opt)
        r.env = [_absolute(e, base) for e in r.env]
        top = _worktree_top(base, r)
        if top is None:
            continue
        secrets = _secrets(ctx, top, r)
        if not secrets:
            continue
        msg = _judge(r, secrets, base, top)
        if msg:
            return msg
    return None


def _absolute(opt: str, base: str) -> str:
    """--git-dir=X / --work-tree=X with X from where the command runs."""
    name, eq, val = opt.partition("=")
    if not eq or name not in ("--git-dir", "--work-tree"):
        return opt
    return "%s=%s" % (name, os.path.normpath(os.path.join(base, os.path.expanduser(val))))


def _base(ctx, cmd) -> str | None:
    cwd = cmd.cwd
    if not cwd:
        return ctx.cwd
    if not isinstance(cwd, str) or cwd == "$PWD" or "$" in cwd or "`" in cwd:
        return ctx.cwd
    from core import paths

    return paths.normalise(cwd, ctx.cwd, ctx.home)


def _worktree_top(base: str, r: Reader) -> str | None:
    """The top of the work tree the command runs in: --work-tree, or the nearest directory
    up from base that holds `.git`; None outside a repository."""
    for e in r.env:
        if e.startswith("--work-tree="):
            return os.path.normpath(os.path.join(base, e.split("=", 1)[1]))
    d = base
    for _ in range(64):
        if os.path.lexists(os.path.join(d, ".git")):
            return d
        up = os.path.dirname(d)
        if up == d:
            break
        d = up
    return base if any(e.startswith("--git-dir=") for e in r.env) else None


def _needles(ctx, top: str) -> list[str]:
    """A literal piece of every blocked rule that can cover a path inside top (".pem" of
    `*.pem`, "id_rsa" of `id_rsa*`, the path of `~/.ssh` when the work tree is home),
    folded as the rules are: a path without any of them is no secret. "" when every path may
    be one."""
    from core import pathrules

    rules = pathrules.blocked(ctx.cfg, ctx.home)[0]
    out: list[str] = []
    for pat, how, low, _head, _tail in rules:
        if how in ("name", "name-glob"):
            pieces = low.replace("?", "*").replace("[", "*").split("*")
            out.append(max(pieces, key=len))
            continue
        root = low if how != "all" else "/"
        lit = root.split("*", 1)[0].split("?", 1)[0].split("[", 1)[0].rstrip("/")
        if (top + "/").startswith(lit + "/") or how == "all":
            return [""]  # the whole work tree lies under a blocked directory
        if lit.startswith(top.rstrip("/") + "/"):
            out.append(lit[len(top.rstrip("/")) + 1 :])
    # a piece that holds another is found by that one (".env" finds ".envrc")
    return [n for n in out if not any(m != n and m in n for m in out)]


def _secrets(ctx, top: str, r: Reader) -> list[tuple[str, str, str]]:
    """(path relative to top, blob id or "", rule) of each file git tracks (or, for
    --untracked, also would search) that a blocked rule covers. One hardened `git ls-files`
    lists them all (git matching 60 glob pathspecs took 1 s for 30,000 files; the list takes
    25 ms); a rule whose literal piece occurs nowhere in the list is dropped at once, and only
    the paths holding a piece of the others are checked against the rules."""
    from core import gitrun, paths

    rules = repr(ctx.cfg.list("paths.blocked"))
    key = (top, r.scope, r.ignored, tuple(r.env), bool(r.objects), rules)
    hit = _TRACKED.get(key)
    if hit is not None:
        return hit
    cmd = ["git", *[e for e in r.env if e.startswith("--git-dir=")], "-C", top]
    cmd += [*gitrun.HARDEN, "ls-files", "-z", "--full-name"]
    if r.scope == "untracked":
        cmd += ["--cached", "--others"] + ([] if r.ignored else ["--exclude-standard"])
    elif "--recurse-submodules" in r.env:
        cmd.append("--recurse-submodules")
    from core.pathnorm import fold

    text = gitrun.capture(cmd) or ""
    low = fold(text)
    if len(low) != len(text):
        text = low  # a letter whose lower case is longer: the spans must line up
    needles = [n for n in _needles(ctx, top) if n in low]
    out: list[tuple[str, str, str]] = []
    for entry in _holding(text, low, needles):
        if entry:
            rule = paths.blocked_rule(os.path.join(top, entry), top, ctx.cfg, ctx.home)
            if rule:
                out.append((entry, "", rule))
    if out and r.objects:  # their blob ids, for `git cat-file -p ID`
        cmd += ["--stage", "--", *[":(top,literal)" + e for e, _, _ in out]]
        ids = {}
        for entry in (gitrun.capture(cmd) or "").split("\0"):
            meta, _, path = entry.partition("\t")
            ids[path] = (meta.split(" ") + ["", ""])[1]
        out = [(e, ids.get(e, ""), rule) for e, _, rule in out]
    if len(_TRACKED) > 16:
        _TRACKED.clear()
    _TRACKED[key] = out
    return out


def _holding(text: str, low: str, needles: list[str]) -> list[str]:
    """The NUL-separated entries of text whose folded form (low) holds a needle, found by
    searching the whole text for each needle (entries without one are never looked at), at
    most SCAN_LIMIT of them."""
    if "" in needles:
        return text.split("\0", SCAN_LIMIT)[:SCAN_LIMIT]
    spans: set = set()
    for n in needles:
        pos = low.find(n)
        while pos >= 0 and len(spans) < SCAN_LIMIT:
            start = low.rfind("\0", 0, pos) + 1
            end = low.find("\0", pos)
            end = len(low) if end < 0 else end
            spans.add((start, end))
            pos = low.find(n, end)
    return [text[a:b] for a, b in sorted(spans)]


def _judge(r: Reader, secrets: list, base: str, top: str) -> str | None:
    prefix = os.path.relpath(base, top)
    prefix = "" if prefix == "." else prefix
    if prefix.startswith(".."):
        prefix = ""  # run from outside the work tree (--work-tree): paths from the top
    literal = "--literal-pathspecs" in r.env
    first = secrets[0]
    if r.scope == "objects":
        return (
            "[blocked-path] `git %s --batch` prints every object named on its stdin, and git "
            "tracks %s (blocked path rule %r). Name the objects on the command line instead "
            "(e.g. `git cat-file -p HEAD:src/app.py`)." % (r.sub, first[0], first[2])
        )
    unseen = [o for o in r.objects if "$" in o or "`" in o]
    if unseen:  # a substitution may give the secret's blob id
        return gitrepo.unseen_object(r.sub, unseen[0], first[0], first[2])
    for path, blob, rule in secrets:
        for o in r.objects:
            word = o.split("^", 1)[0].lower()
            if blob and len(word) >= 4 and all(ch in "0123456789abcdef" for ch in word):
                if blob.startswith(word):
                    return (
                        "[blocked-path] %s is the blob of %s, which git tracks (blocked path "
                        "rule %r): `git %s` would print the secret. Work without it."
                        % (o, path, rule, r.sub)
                    )
        if r.scope == "blobs":
            continue  # prints the objects it names only
        if r.sub == "bundle":
            return (
                "[blocked-path] `git bundle create` copies the commits it bundles with every "
                "file of their trees, and git tracks %s (blocked path rule %r); a bundle "
                "cannot leave a file out. Copy the files you need instead (e.g. `git archive "
                "HEAD -- src`), or ask the person to take the secret out of git."
                % (os.path.relpath(os.path.join(top, path), base), rule)
            )
        globbing = "--glob-pathspecs" in r.env
        if _printed(path, r.specs, prefix, r.sub == "grep", literal, globbing) and _shows(
            r, top, path
        ):
            rel = os.path.relpath(os.path.join(top, path), base)
            what = "searches" if r.sub == "grep" else "prints or copies"
            return (
                "[blocked-path] `git %s` %s the contents of the files git tracks, and git "
                "tracks %s (blocked path rule %r). Name the paths it may read after `--` (e.g. "
                "`-- src`), or leave the secret out with the pathspec ':!%s' (e.g. `git %s ... "
                "-- . ':!%s'`)." % (r.sub, what, rel, rule, rel, r.sub, rel)
            )
    return None


def _shows(r: Reader, top: str, path: str) -> bool:
    """For a plain `git diff`/`git show`: whether git would show the secret at all (it changed
    there), asked of a hardened git by name only; True when that cannot be told."""
    if r.names is None:
        return True
    from core import gitrun

    cmd = ["git", "-C", top, *gitrun.HARDEN, r.sub, "--no-ext-diff", "--no-textconv"]
    cmd += ["--name-only", "--format="] if r.sub == "show" else ["--name-only"]
    out = gitrun.capture(cmd + r.names + ["--", ":(top,literal)" + path])
    return out is None or bool(out.strip())


def _printed(
    secret: str, specs: list[str], prefix: str, grep: bool, literal: bool, globbing: bool = False
) -> bool:
    """Whether the pathspecs (relative to prefix, the command's place in the tree) let the
    secret through: some positive pathspec may match it (none given: all of the tree, or the
    current directory for grep) and no exclude pathspec surely matches it."""
    positive = []
    excluded = False
    for spec in specs:
        magic, body = _magic(spec, literal)
        if globbing:
            magic.add("glob")
        if "exclude" in magic:
            if _matches(magic, body, secret, prefix, sure=True):
                excluded = True
        else:
            positive.append((magic, body))
    if excluded:
        return False
    if not positive:
        return not grep or not prefix or _matches(set(), ".", secret, prefix, sure=False)
    return any(_matches(m, b, secret, prefix, sure=False) for m, b in positive)


def _magic(spec: str, literal: bool) -> tuple[set, str]:
    """(magic words, the path) of a pathspec: `:(top,exclude)x`, `:!x`, `:/x`, `x`."""
    if literal or spec[:1] != ":":
        return set(), spec
    if spec.startswith(":("):
        end = spec.find(")")
        if end < 0:
            return {"unknown"}, spec
        words = {w.strip().split(":", 1)[0] for w in spec[2:end].split(",")}
        return {"exclude" if w == "exclude" else w for w in words}, spec[end + 1 :]
    words = set()
    i = 1
    while i < len(spec):
        ch = spec[i]
        if ch == ":":
            i += 1
            break
        if ch == "/":
            words.add("top")
        elif ch in "!^":
            words.add("exclude")
        else:
            break
        i += 1
    return words, spec[i:]


def _matches(magic: set, body: str, secret: str, prefix: str, sure: bool) -> bool:
    """Whether a pathspec matches the secret (path from the top). sure=False answers yes when
    in doubt (a positive pathspec); sure=True answers yes only when certain (an exclude)."""
    known = {"top", "exclude", "icase", "glob", "literal", ""}
    if magic - known:
        return not sure  # attr: and other magic the hooks do not follow
    base = "" if "top" in magic else prefix
    path = os.path.normpath(os.path.join(base, body)) if body else base
    path = "" if path == "." else path
    if path.startswith(".."):
        return False  # outside the work tree: git refuses it
    s, pat = secret, path
    if not sure or "icase" in magic:
        s, pat = s.lower(), pat.lower()
    if not pat:
        return True
    if "literal" not in magic and any(ch in _GLOB_CHARS for ch in body):
        if sure and "glob" in magic:
            return False  # `*` stops at `/` there: the hooks do not prove the match
        from core.globs import fnmatchcase

        # git's default pathspec glob: `*` crosses `/`, a matched directory takes its files
        return fnmatchcase(s, pat) or fnmatchcase(s, pat + "/*")
    return s == pat or s.startswith(pat.rstrip("/") + "/")


def _unalias(argv: list[str], base: str, env: dict) -> list[str]:
    """argv with a git alias expanded (`git lp` for `log -p`), up to 3 levels, as git finds
    it: in the repository's config and in the command's own (`-c alias.x=...`,
    `--config-env`, GIT_CONFIG_* variables), asked of a hardened `git config`, which runs
    nothing. A shell alias (`!cmd`) stays as it is (unknown code, judged elsewhere)."""
    from core import gitrun
    from core.shell import git

    known = git._GIT_READ | git._GIT_META | git._GIT_TREE
    r, i = _top(argv)
    for _ in range(3):
        if r is None or r.sub in known or r.sub[:1] == "-":
            return argv
        own = [w for j, w in enumerate(argv[1:i], 1) if w == "-c" or argv[j - 1] == "-c"]
        own += [w for w in argv[1:i] if w.startswith("--config-env=")]
        environ = gitrun.env()
        environ.update(
            (k, v)
            for k, v in (env or {}).items()
            if isinstance(v, str) and (k.startswith("GIT_CONFIG") or k in _config_env_vars(argv))
        )
        cmd = ["git", "-C", base, *own, *gitrun.HARDEN, "config", "--get", "alias." + r.sub]
        out = gitrun.collect(gitrun.spawn(cmd, environ))
        value = out.decode("utf-8", "replace").strip() if out else ""
        if not value or value[:1] == "!":
            return argv
        import shlex

        try:
            words = shlex.split(value)
        except ValueError:
            return argv
        argv = argv[:i] + words + argv[i + 1 :]
        r, i = _top(argv)
    return argv


def _config_env_vars(argv: list[str]) -> set:
    """The variables `--config-env=key=VAR` reads its values from."""
    return {
        w.rsplit("=", 1)[1] for w in argv if w.startswith("--config-env=") and w.count("=") >= 2
    }
