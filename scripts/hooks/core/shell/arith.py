"""Arithmetic whose operands the analysis cannot see.

Bash evaluates the value of every variable an arithmetic context names as arithmetic in its
turn, and a subscript in that value runs its `$(...)`: after `x=$(cat f)`, `echo $((x))`
runs whatever command f holds as `a[$(cmd)]`. The contexts are $(( )), (( )), for (( )),
$[ ], let, the operands of [[ -eq ]] and its kin, array subscripts, the offset and length of
${x:off:len} and the values of declare -i names. An operand is seen when it is a literal
number, a variable this command set to a seen value or to the result of arithmetic, or one
bash itself keeps numeric; anything else (a substitution, `read`, an inherited variable, a
positional inside a function) is code nobody saw: `unknown`.
"""

from __future__ import annotations

from core.shell.lexer import DIGITS, NAME0, NAMEC

# variables bash keeps numeric whatever the environment held
_NUMERIC = frozenset(
    ("RANDOM", "SRANDOM", "SECONDS", "LINENO", "BASHPID", "PPID", "UID", "EUID", "EPOCHSECONDS")
)
_MAX_DEPTH = 8  # a value naming a variable whose value names another ...
# [[ operators whose operands bash evaluates as arithmetic
TEST_OPS = frozenset(("-eq", "-ne", "-lt", "-le", "-gt", "-ge"))
_NUMBER_CHARS = NAMEC | frozenset("@#")  # 0x1F, 2#101, 64#a@_

REASON = "arithmetic on %s, a value the hooks cannot see (bash evaluates it; a subscript in it runs code)"


def is_number_command(ctx, text: str) -> bool:
    """numeric.is_number_command, loaded when a substitution meets arithmetic."""
    from core.shell import numeric

    return numeric.is_number_command(ctx, text)


def unseen(p, text: str, depth: int = 0) -> str:
    """The first operand of the arithmetic `text` whose value the analysis does not know
    (as written), or "" when every operand is seen. `p` is the parser (its lookup)."""
    vars_ = p.ctx.vars
    p.ctx.budget.spend(len(text) + 1)
    n = len(text)
    i = 0
    targets: list[str] = []  # `i = 0`: i holds a number once this expression is done
    while i < n:
        ch = text[i]
        if ch == "$":
            nx = text[i + 1 : i + 2]
            if text.startswith("$((", i) or nx == "[":
                i += 3 if nx == "(" else 2  # nested arithmetic: its operands are scanned here
                continue
            if nx == "(":
                end = _close(text, i + 1, "(", ")")
                if not is_number_command(p.ctx, text[i + 2 : end - 1]):
                    return text[i:end][:40]  # a command's output
                i = end
                continue
            if nx == "'" or nx == '"':
                return text[i : i + 24]  # a string made at run time
            if nx == "{":
                end = _close(text, i + 2, "{", "}")
                inner = text[i + 2 : end - 1]
                bad = _braced(p, inner, depth)
                if bad:
                    return "${%s}" % inner
                i = end
                continue
            if nx and nx in NAME0:
                j = i + 1
                while j < n and text[j] in NAMEC:
                    j += 1
                if not _seen(p, text[i + 1 : j], depth):
                    return text[i:j]
                i = j
                continue
            if nx and nx in DIGITS or nx in ("@", "*", "-"):
                if not _seen(p, nx, depth):
                    return text[i : i + 2]
                i += 2
                continue
            i += 2 if nx in ("#", "?", "$", "!") else 1  # numbers bash sets
            continue
        if ch == "`":
            end = text.find("`", i + 1)
            if end < 0 or not _number_backtick(p.ctx, text[i : end + 1]):
                return "`...`"
            i = end + 1
            continue
        if ch in DIGITS:
            while i < n and text[i] in _NUMBER_CHARS:
                i += 1
            continue
        if ch in NAME0:
            j = i
            while j < n and text[j] in NAMEC:
                j += 1
            name = text[i:j]
            k = j
            if k < n and text[k] == "[":
                k = _close(text, k, "[", "]")
                bad = unseen(p, text[j + 1 : k - 1], depth)
                if bad:
                    return bad
            m = k
            while m < n and text[m] in " \t\n":
                m += 1
            if text[m : m + 1] == "=" and text[m + 1 : m + 2] != "=":
                targets.append(name)  # assigned, not read
            elif not _seen(p, name, depth):
                return name
            i = k
            continue
        if ch in ",;":
            for t in targets:
                vars_.number(t)
            targets = []
        i += 1
    for t in targets:
        vars_.number(t)
    return ""


def _close(text: str, i: int, op: str, cl: str) -> int:
    """text[i] == op: the index after its matching cl (the end when there is none)."""
    depth = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == op:
            depth += 1
        elif c == cl:
            depth -= 1
            if depth <= 0:
                return i + 1
        i += 1
    return n


def _braced(p, inner: str, depth: int) -> str:
    """${...} inside arithmetic: ${#x} is a length; ${x}, ${x[i]}, ${x:-w} ... are X's value
    or the words the operator makes, each evaluated in its turn."""
    if inner[:1] == "#" and len(inner) > 1:
        return unseen(p, _subscript(inner[1:]), depth)
    j = 0
    n = len(inner)
    while j < n and inner[j] in NAMEC:
        j += 1
    name = inner[:j]
    if not name or inner[:1] in DIGITS and not name.isdigit():
        return inner or "${}"
    if not _seen(p, name, depth):
        return name
    return unseen(p, inner[j:], depth) if j < n else ""


def _subscript(text: str) -> str:
    """NAME[SUB] -> SUB (its arithmetic), else ''."""
    k = text.find("[")
    if k < 0 or text[k + 1 : k + 2] in ("@", "*"):
        return ""
    return text[k + 1 : _close(text, k, "[", "]") - 1]


def _seen(p, name: str, depth: int) -> bool:
    vars_ = p.ctx.vars
    if name in _NUMERIC or name in ("#", "?", "$", "!"):
        return True
    if name in vars_.numbers:
        vars_.used.add(name)  # a later unseen value is reported (Vars.__setitem__)
        return True
    if name == "-" or depth >= _MAX_DEPTH:
        return False
    v = p.lookup(name)
    if v is None or unseen(p, v, depth + 1):
        return False
    if name in vars_:
        vars_.used.add(name)
    return True


def check(p, text: str) -> None:
    """An arithmetic text the parser met ($(( )), (( )), $[ ], a subscript, an offset): when an
    operand is unseen, the whole command is `unknown`."""
    _assigns(p, text)
    bad = unseen(p, text)
    if bad:
        p.ctx.error(REASON % bad)


def _assigns(p, text: str) -> None:
    """Arithmetic that assigns a CLAUDE* name takes CLAUDECODE away (core.shell.envwatch)."""
    if claude_assigns(text):
        p.ctx.stripped = True


def claude_assigns(text: str) -> bool:
    """Arithmetic text with a CLAUDE* name that assigns (= += ++ and their kin): any such name
    in text that assigns counts (one scan, bounded by the text)."""
    if "CLAUDE" not in text:
        return False
    for i, ch in enumerate(text):
        if ch == "=" and text[i + 1 : i + 2] != "=" and text[i - 1 : i] not in ("=", "!"):
            if text[i - 1 : i] not in ("<", ">") or text[i - 2 : i] in ("<<", ">>"):
                return True
        elif ch in "+-" and text[i + 1 : i + 2] == ch:
            return True
    return False


def check_words(c, p, words) -> None:
    """Words a builtin evaluates as arithmetic (let's, [[ -eq ]]'s operands, declare -i
    values): an unseen operand makes the command `unknown`."""
    for w in words:
        _assigns(p, w)
        bad = unseen(p, w)
        if bad:
            c.flag(REASON % bad, unknown=True)
            return


def subscripts(c, p, names) -> None:
    """NAME[SUB] words a builtin evaluates as names (read, printf -v, unset, [[ -v ]]): SUB is
    arithmetic."""
    for w in names:
        if isinstance(w, str) and "[" in w and w[:1] in NAME0:
            check_words(c, p, [_subscript(w)])


def number_word(ctx, word: str) -> bool:
    """A word of a `for` list that is an integer: a literal one, or `$(seq ...)` with numeric
    operands only (no -f/-s: with them seq prints any text), when seq is the system's."""
    if word.lstrip("-").isdigit():
        return True
    if not (word.startswith("$(seq ") and word.endswith(")")):
        return False
    if "seq" in ctx.funcs or "seq" in ctx.aliases or ctx.path_changed:
        return False
    args = word[6:-1].split()
    return 0 < len(args) <= 3 and all(x.lstrip("-").isdigit() for x in args)


def number_value(val: str, ctx=None) -> bool:
    """An assigned value made only of $(( )) forms (an integer whatever it evaluates to) and,
    given the analysis' ctx, of substitutions that print only a number."""
    if ctx is not None and _number_backtick(ctx, val):
        return True
    if not val.startswith("$("):
        return False
    i = 0
    n = len(val)
    while i < n:
        if not val.startswith("$(", i):
            return False
        end = _close(val, i + 1, "(", ")")
        if val.startswith("$((", i) and val[end - 2 : end] == "))":
            i = end
            continue
        if ctx is None or not is_number_command(ctx, val[i + 2 : end - 1]):
            return False
        i = end
    return True


def _number_backtick(ctx, text: str) -> bool:
    """`cmd` (one backtick pair, no backslash: its escapes are not undone here) that prints
    only a number."""
    inner = text[1:-1]
    if len(text) < 2 or text[0] != "`" or text[-1] != "`" or "`" in inner or "\\" in inner:
        return False
    return is_number_command(ctx, inner)


def assigned(p, name: str, val: str | None) -> bool:
    """`name=val` (a command of its own): True when it holds a number now (a declare -i name
    evaluates val; a value made of $(( )) forms is an integer), and the caller sets nothing."""
    k = name.find("[")
    if k > 0 and name[:k] not in p.ctx.vars.assoc:  # a[i]=v: the subscript is arithmetic
        check(p, _subscript(name))
    if name in p.ctx.vars.integers:
        if val:
            check(p, val)
        p.ctx.vars.number(name)
        return True
    if val is not None and number_value(val, p.ctx):
        p.ctx.vars.number(name)
        return True
    return False
