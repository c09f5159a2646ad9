"""Changes to the environment that change what later words mean: a PATH that puts a directory
first where nobody has seen the programs (bare names then run unseen files), CLAUDECODE
removed or changed (the CLI then takes its caller for the person), and text bash evaluates as
a variable name or arithmetic (an array subscript in it runs `$(...)`)."""

from __future__ import annotations

from core.shell import arith

# directories whose programs are the system's own: a PATH made only of these (and $PATH)
# finds nothing new
_SYSTEM_DIRS = (
    "/bin",
    "/usr/bin",
    "/usr/local/bin",
    "/sbin",
    "/usr/sbin",
    "/usr/local/sbin",
    "/opt/homebrew/bin",
)
# shell builtins and keywords: bash never looks these up in PATH
_NO_LOOKUP = frozenset(
    (
        "echo printf cd pushd popd read mapfile readarray declare typeset export local readonly "
        "unset let test [ [[ : true false set shift eval source . trap alias unalias hash type "
        "command builtin exit return pwd wait jobs getopts umask ulimit shopt enable compgen "
        "complete compopt dirs disown fg bg help history kill logout suspend times caller "
        "break continue"
    ).split()
)
# programs that run their command in a fresh environment (no CLAUDECODE)
_FRESH_ENV = frozenset(
    ("su", "runuser", "doas", "pkexec", "systemd-run", "machinectl", "at", "batch")
)
# text that makes bash run a command when it evaluates a subscript inside a name or number
_CODE_MARKS = ("$(", "`", "<(", ">(")


def claude_var(name: str) -> bool:
    """The variables Claude Code sets for its children (CLAUDECODE, CLAUDE_CODE_*, CLAUDE_PID
    ...); our CLI reads them to tell the agent from the person. `CLAUDECODE[1]=x` and
    `CLAUDECODE+=x` change it too (an array is no longer exported)."""
    return name.split("[", 1)[0].rstrip("+").startswith("CLAUDE")


def name_changes(ctx, name: str) -> None:
    """A name a builtin assigns, unsets, re-declares or binds (read, mapfile, printf -v,
    getopts, for/select, declare -n, unset): a CLAUDE* one, or one the analysis cannot see
    (`unset $v`, `unset ${!CLAUDE*}`, `read "$n"`), may take CLAUDECODE from what runs after
    it."""
    if claude_var(name) or "$" in name or "`" in name:
        ctx.stripped = True


def arith_assigns(ctx, text: str) -> None:
    """Arithmetic assigns with = += ++ and their kin: `((CLAUDECODE=0))`, `let CLAUDECODE++`.
    Any CLAUDE* name in arithmetic that assigns counts (bounded: one scan of the text)."""
    if "CLAUDE" not in text:
        return
    for i, ch in enumerate(text):
        if ch == "=" and text[i + 1 : i + 2] != "=" and text[i - 1 : i] not in ("=", "!"):
            if text[i - 1 : i] not in ("<", ">") or text[i - 2 : i] in ("<<", ">>"):
                ctx.stripped = True
                return
        elif ch in "+-" and text[i + 1 : i + 2] == ch:
            ctx.stripped = True
            return


def path_unseen(value: str | None) -> bool:
    """A PATH value with a directory outside the system's bin directories."""
    if value is None:
        return True
    for d in value.split(":"):
        d = d.rstrip("/")
        if d in ("$PATH", "${PATH}") or d in _SYSTEM_DIRS:
            continue
        return True
    return False


def note_assign(ctx, name: str, value: str | None) -> None:
    """A plain assignment (`PATH=...;`, `export CLAUDECODE=`) that holds for the rest of the
    command."""
    if name == "PATH" and path_unseen(value):
        ctx.path_changed = True
    else:
        name_changes(ctx, name)


def watch(c, args: list, p) -> None:
    """Judge one command against the environment it runs in."""
    ctx = p.ctx
    if args and args[0].rsplit("/", 1)[-1] in _FRESH_ENV and not c.stripped:
        c.stripped = 2  # what it runs starts from a fresh environment, without CLAUDECODE
    for k, v in c.env.items():
        if claude_var(k):
            c.stripped = True
        elif k == "PATH" and path_unseen(v) and args and "/" not in args[0]:
            c.flag("runs %s found through a changed PATH" % args[0], unknown=True)
    if ctx.stripped and c.stripped is not True:
        c.stripped = True
    if ctx.path_changed and args and "/" not in args[0] and args[0] not in _NO_LOOKUP:
        c.flag("runs %s found through a changed PATH" % args[0], unknown=True)


def has_code(text: str) -> bool:
    """Text bash may evaluate as a name or number that holds a command to run."""
    for m in _CODE_MARKS:
        if m in text:
            return True
    return False


def eval_words(c, words, p, names: bool = True) -> None:
    """Words bash evaluates as variable names or arithmetic (let, read NAME, printf -v NAME,
    [[ -v NAME ]], declare -i values ...): `a[$(cmd)]` in one runs cmd, so cmd is analysed
    as a command of its own. `names`: the words are names, whose subscripts are arithmetic."""
    for w in words:
        if isinstance(w, str) and has_code(w):
            c.code.append(w)
            p.subparse(": " + w, keep_cwd=True)
    if names:
        arith.subscripts(c, p, words)


def value_code(c, value: str | None, p) -> None:
    """A value with a subscript holding code (`x='a[$(rm f)]'`): any arithmetic, `${!x}`,
    `[[ $x -eq 1 ]]` or declare -i use later runs it, so it is analysed where it is set."""
    if value and "[" in value and has_code(value[value.find("[") :]):
        if c is not None:
            c.code.append(value)
        p.subparse(": " + value, keep_cwd=True)


def arith_text(p, text: str) -> None:
    """(( ... )), $(( ... )), for (( ... )): bash expands the text as if double-quoted, so a
    `$(...)` inside single quotes there runs too (the parser saw it as quoted text)."""
    arith_assigns(p.ctx, text)
    if "'" in text and has_code(text):
        p.subparse(": " + text.replace("'", " "), keep_cwd=True)
    body = text[1:] if text[:1] == "$" else text
    arith.check(p, body[2:-2] if body[-2:] == "))" else body[2:])
