"""Shell command analysis: one view of a Bash command for every gate.

    a = analyse('GH_TOKEN=x gh issue close 1 | cat')
    a.commands, a.reads, a.writes, a.unknown, a.destructive, a.reasons, a.code
    matches('gh issue close*', a)          -> True
    sane_args(cmd)                         -> ['scripts/hooks/sane.py', 'status'] or None

Pure: no I/O and no environment reads beyond the home and TMPDIR defaults.  The parts:
core.shell.lexer, parser, substitution and heredoc (the bash grammar, bounded),
core.shell.effects (wrappers, the common programs, the driver) and the program families named
in core.shell.programs (imported on first use to keep this import cheap).

Conventions the gates rely on:
- Paths are as written after quote removal; `~`, `~user`, `$HOME`, `${HOME}` are expanded
  (and any variable the caller passes in `env`, e.g. TMPDIR); relative paths stay relative
  unless an earlier `cd` in the same command moved (`cd .claude && rm x` writes
  '.claude/x'); after a `cd` the analysis cannot follow, relative writes make the command
  `unknown`.  Command.cwd says where a command runs ('$PWD' when unknown).
- Never writes: /dev/null, /dev/zero, /dev/stdout, /dev/stderr, /dev/tty, /dev/fd/N, fd
  duplications.  /dev/tcp|udp redirects are `unknown` (network), disk devices `destructive`.
- A write target with an unexpanded $VAR, $(..), backtick or glob is listed as written and
  makes its command `unknown`; `$(xargs-input)` / `$(parallel-input)` stand for arguments
  that arrive on stdin (after `find P |`, xargs's input is P).
- Reads: the readers' operands, plus every argument that looks like a path ('/' inside, or
  a leading '.' or '~'; no spaces, no URLs); grep/rg patterns, sed scripts, awk programs,
  jq filters, find's -name patterns and commit messages are not reads.
- The repository: `git commit/add/fetch/push/tag/branch/config` write '.git' (or the named
  config file); checkout/switch/restore/reset --hard/merge/rebase/pull/stash/apply write
  the working tree: '.' or the paths named (patch bodies in heredocs name their targets).
- Package installs write '.' (npm/yarn/pnpm/bun/pip/uv/poetry/cargo add/go get/bundle/
  composer; pip --target/--prefix/--user name their place); system managers write their
  prefix ('/usr' for apt/dnf/yum/apk/pacman/zypper, '/usr/local' for brew, ...); global
  installs whose place we cannot name (npm -g, gem, conda) are `unknown`.  Formatters
  that rewrite files (black, ruff format/--fix, prettier --write, gofmt -w, ...) write
  their operands or '.'.
- `unknown`: inline interpreter code (python -c, node -e, ruby -e, perl -e, php -r, awk
  programs that run commands or write files, sed's e command), code on an interpreter's
  stdin we cannot see (curl | sh, python < x.py, bash <(curl ..)), python run from a file
  this same command wrote, `source` (not a virtualenv's activate), eval of dynamic text, a
  dynamic program name, remote commands (ssh), git aliases and git -c commands, and any
  parse error or bound (NUL byte, unbalanced quote, unterminated heredoc, nesting deeper
  than 16, more than MAX_LEN bytes, the work budget).  Shell code we can see (bash -c,
  eval, trap, alias, heredocs/herestrings/echo fed to a shell, scripts written earlier in
  the same command) is analysed, its commands listed, not `unknown` by itself.
- Every simple command is listed, wrappers (sudo, env, nice, timeout, xargs, ...) folded
  into the command they run (Command.wrappers keeps their words); shells run by -c are
  listed themselves and then their inner commands.
"""

from __future__ import annotations

import os

from core.globs import fnmatchcase  # shared with paths and review: no `re`
from core.shell import feeds, globopts, looks
from core.shell.budget import TOO_COMPLEX, Budget
from core.shell.effects import Command, expand, interp_scan, prog_name  # noqa: F401 (API)
from core.shell.lexer import MAX_LEN, Bound, Ctx, Redirect  # noqa: F401 (API)
from core.shell.parser import Parser

__all__ = ["Analysis", "Command", "Redirect", "analyse", "matches", "sane_args"]

_home = None
_cache: dict = {}


class Analysis:
    """Every simple command a Bash command string would run, and their union of effects."""

    __slots__ = (
        "command",
        "commands",
        "reads",
        "writes",
        "unknown",
        "destructive",
        "reasons",
        "code",
        "too_complex",
        "literal",
    )

    def __init__(
        self,
        command: object,
        commands: list[Command],
        errors: list[str],
        too_complex: str = "",
        literal: frozenset[str] = frozenset(),
    ) -> None:
        self.command = command  # as given (not always a string: the payload is hostile)
        self.literal = literal  # words whose * ? [ were quoted: not globs
        self.too_complex = too_complex  # why the analysis stopped early, or "": deny it
        self.commands = commands
        reads = []
        writes = []
        seen_r = set()
        seen_w = set()
        reasons = list(errors)
        code = []
        unknown = bool(errors)
        destructive = False
        for c in commands:
            for r in c.reads:
                if r not in seen_r:
                    seen_r.add(r)
                    reads.append(r)
            for w in c.writes:
                if w not in seen_w:
                    seen_w.add(w)
                    writes.append(w)
            for r in c.reasons:
                if r not in reasons:
                    reasons.append(r)
            code.extend(c.code)
            unknown = unknown or c.unknown
            destructive = destructive or c.destructive
        self.reads: list[str] = reads
        self.writes: list[str] = writes
        self.unknown: bool = unknown
        self.destructive: bool = destructive
        self.reasons: list[str] = reasons
        self.code: list[str] = code  # inline code / stdin scripts seen, for "names a path" checks

    def __repr__(self):
        return (
            "Analysis(programs=%r, reads=%r, writes=%r, unknown=%r, destructive=%r, "
            "reasons=%r)"
            % (
                [c.program for c in self.commands],
                self.reads,
                self.writes,
                self.unknown,
                self.destructive,
                self.reasons,
            )
        )


def analyse(
    command: object,
    home: str | None = None,
    env: dict[str, str | None] | None = None,
    budget: Budget | None = None,
) -> Analysis:
    """Analyse one Bash command string.  `env` (optional) maps variable names the caller
    knows (TMPDIR, CLAUDE_PROJECT_DIR) to values used when they appear unquoted or quoted
    (None: not known, the variable stays dynamic).  Without TMPDIR in `env`, the hooks' own
    TMPDIR stands in (core/tempdir.py knows the sandbox's).  `budget`: the work budget of an
    enclosing analysis (a command run on another machine), spent from as its own."""
    global _home
    if home is None:
        if _home is None:
            _home = os.path.expanduser("~")
        home = _home
    home = home.rstrip("/") or "/"
    if env is None or "TMPDIR" not in env:
        env = dict(env or (), TMPDIR=_tmpdir())
    if "CDPATH" not in env and os.environ.get("CDPATH"):
        env = dict(env, CDPATH=os.environ["CDPATH"])  # inherited: cd searches it
    ctx = Ctx(home, env, expand)
    if budget is not None:
        ctx.budget = budget
    text = command if isinstance(command, str) else ""
    if not isinstance(command, str):
        ctx.error("command is not a string")
    if "\0" in text:
        ctx.error("NUL byte in command")
        # `bash -c` stops at the first NUL, bash reading a script drops it: both readings
        text = text.replace("\0", "") + "\n" + text.replace("\0", "\n")
    if len(text) > MAX_LEN:
        ctx.error("command longer than %d bytes" % MAX_LEN)
    p = Parser(text, ctx)
    bound = ""
    try:
        p.run()
    except Bound as e:
        bound = str(e)
        ctx.error(bound)
        _salvage(p, ctx)
    except RecursionError:
        bound = TOO_COMPLEX + " (nesting too deep)"
        ctx.error(bound)
    except Exception as e:  # never crash a hook: an analyser bug stops the analysis early,
        # like a bound: what it did not reach may name a secret or a protected file
        bound = "not checkable (the analyser failed on it: %s)" % type(e).__name__
        ctx.error(bound)
        _salvage(p, ctx)
    try:
        bound = bound or globopts.array_values(ctx)
        bound = bound or globopts.call_values(ctx)
        bound = bound or globopts.substitute(ctx)
        bound = globopts.apply(ctx) or bound
        feeds.apply(ctx)
        if ctx.prompted:
            _name_every_word(ctx)
        if looks.fed_back(ctx.out) and ctx.alts:
            bound = bound or globopts.substitute(ctx)  # the looks just made reads
        for c in ctx.out:
            if c.cwd == "$PWD":
                args = sane_args(c)
                if args and args[0].startswith("$PWD/"):
                    c.flag("sane.py run from a directory the analysis cannot know", unknown=True)
    except Exception as e:  # the same rule for a bug in the last steps
        bound = bound or "not checkable (the analyser failed on it: %s)" % type(e).__name__
        ctx.error(bound)
    return Analysis(command, ctx.out, ctx.errors, bound, frozenset(ctx.literal - ctx.globbed))


def _tmpdir():
    """$TMPDIR as the Bash tool will see it: Claude Code starts the hooks and the Bash tool
    with the same environment, so an absolute TMPDIR here is the one the command gets (the
    sandbox gives Bash its own temp dir instead, also a temp dir).  Unset here, bash would
    make `$TMPDIR/x` '/x' but a sandbox would not: None keeps it dynamic."""
    t = os.environ.get("TMPDIR")
    if t and t[0] == "/" and ".." not in t and "$" not in t:
        return t.rstrip("/") or "/"
    return None


def _name_every_word(ctx) -> None:
    """A ${X@P} ran code held in a value the analysis did not follow (declare, read, a loop
    word, printf -v): that code may be any text of the command, so every word of it is named
    (a blocked or protected path in it is caught as in unknown code)."""
    from core.shell.command import every_word

    extra = [w for w in ctx.listed if isinstance(w, str)]
    for c in ctx.out:
        words = c.argv[1:] + [v for v in c.env.values() if isinstance(v, str)]
        words += [r.body for r in c.redirects if isinstance(getattr(r, "body", None), str)]
        every_word(c, words + extra)
        extra = []
        c.flag("runs with a prompt expansion of a value the hooks cannot see", unknown=True)


def _salvage(p, ctx):
    """After a bound: judge the commands already parsed, with a small fresh budget (their
    reasons name a protected path when one is there, for a clearer denial)."""
    ctx.budget = Budget(4000)
    p.heredocs = []
    try:
        p.flush()
    except Exception:
        pass


def _analysis(command):
    a = _cache.get(command)
    if a is None:
        if len(_cache) > 16:
            _cache.clear()
        a = _cache[command] = analyse(command)
    return a


def matches(pattern, command):
    """fnmatch-style glob against each simple command's normalised text (program + args;
    env prefixes, wrappers and `bash -c` layers stripped).  True if any command matches."""
    a = command if isinstance(command, Analysis) else _analysis(command)
    pat = " ".join(pattern.split())
    for c in a.commands:
        if fnmatchcase(c.text, pat):
            return True
        if c.argv and c.argv[0] != c.program and fnmatchcase(" ".join(c.argv), pat):
            return True
        if c.wrappers and fnmatchcase(" ".join(c.wrappers + c.argv), pat):
            return True
    return False


def sane_args(cmd):
    """[script path, *args] when this command runs our CLI `sane.py`, else None.  The path is
    as written, joined onto a `cd` made earlier in the same command (`cd scripts/hooks &&
    python3 sane.py reset` gives 'scripts/hooks/sane.py'; after a `cd` to a place the analysis
    cannot know it starts with '$PWD/').  The caller checks that it resolves to this
    project's scripts/hooks/sane.py."""
    argv = cmd.argv
    if not argv:
        return None
    prog = cmd.program
    if prog == "sane.py":
        return [_at(cmd.cwd, argv[0])] + argv[1:]
    low = prog.lower()
    if low.startswith("python") or low.startswith("pypy"):
        kind, script, rest = interp_scan(argv[1:], "c", (), "WXQ", _PY_LONG_VALUE, "m")
        if kind == "script" and prog_name(script) == "sane.py":
            return [_at(cmd.cwd, script)] + list(rest)
        if kind == "script" and _unknown_option(argv[1:]):
            # an option we do not know may take the next word as its value: a later word
            # named sane.py is the script; else the first operand may be one (a link, a copy)
            tail = argv[1:]
            for i, w in enumerate(tail):
                if w[:1] != "-" and prog_name(w) == "sane.py":
                    return [_at(cmd.cwd, w)] + tail[i + 1 :]
            return [_at(cmd.cwd, script)] + list(rest)
    return None


# python's own options: flags, ones that take the next word, and long ones
_PY_FLAGS = frozenset("bBdEhiIOPqRsSuvVx3")
_PY_SHORT_VALUE = frozenset("WXQcm")
_PY_LONG_VALUE = ("--check-hash-based-pycs",)
_PY_LONG = frozenset(("--help", "--version", "--help-env", "--help-xoptions", "--help-all"))


def _unknown_option(a) -> bool:
    """An option before python's script operand that this scan does not know."""
    for w in a:
        if w[:1] != "-" or w == "-" or w == "--":
            return False
        if w[:2] == "--":
            name = w.partition("=")[0]
            if name not in _PY_LONG and name not in _PY_LONG_VALUE:
                return True
            continue
        for ch in w[1:]:
            if ch in _PY_SHORT_VALUE:
                break
            if ch not in _PY_FLAGS:
                return True
    return False


def _at(cwd, path):
    if not cwd or path[:1] in ("/", "$", "~"):
        return path
    return cwd.rstrip("/") + "/" + (path[2:] if path[:2] == "./" else path)
