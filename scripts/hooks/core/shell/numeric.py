"""Command substitutions whose output can only be a number.

Arithmetic runs code through the names in a value (`a[$(cmd)]`); digits, blanks and operator
characters run nothing. A `$(...)` is a known number when its text is one pipeline (no `;`,
`&`, grouping or newline) whose last command is a system program used in a form whose
documented output holds no letter, `_`, `$`, quote or bracket: `wc` reading its standard
input (with a file operand wc prints the file's NAME), `grep -c` reading its standard input,
`nproc`, `id -u/-g/-G`, `date +FORMAT` with numeric conversions only, `expr` of integer
literals, `getconf` of a numeric system value, `seq` of numbers, `stat -c FORMAT` with numeric
conversions only. Every word of that last command must be literal (a `$x` or a glob could
become an option that prints names), its standard output and error go nowhere but where the
program writes them, and the program must be the system's (no function, alias or PATH change
in this command). Anything else stays unknown.
"""

from __future__ import annotations

from core.shell.lexer import NAME0, NAMEC

_MAX = 4096  # longer substitutions are not looked at (they stay unknown)
_OPCHARS = frozenset(";&|<>()\n")
_GLOB = frozenset("*?[{")
_SAFE_ENV = ("TZ", "LC_ALL", "LANG", "LC_NUMERIC", "LC_TIME")
# characters a format may print as they are: digits and operators, never a name
_LITERAL = frozenset("0123456789 -+:/.,%")
# date conversions that print digits only (POSIX strftime, and %s that GNU and BSD share;
# %N only after a digit: BSD prints a letter N)
_DATE_NUM = frozenset("sYmdHMSjuUVwWyCeGgkIl%")
# stat -c conversions that print decimal numbers (not %D %f %t %T: hex; %w: '-' or a date)
_STAT_NUM = frozenset("sihugXYZWbBoad%")
# getconf names whose value is a number on every system that knows them
_GETCONF = frozenset(
    (
        "_NPROCESSORS_ONLN",
        "_NPROCESSORS_CONF",
        "NPROCESSORS_ONLN",
        "NPROCESSORS_CONF",
        "PAGESIZE",
        "PAGE_SIZE",
        "LONG_BIT",
        "CLK_TCK",
        "ARG_MAX",
    )
)
_EXPR_OPS = frozenset(("+", "-", "*", "/", "%", "<", "<=", "=", "==", "!=", ">=", ">", "|", "&"))
_EXPR_OPS |= frozenset(("(", ")"))


def is_number_command(ctx, text: str) -> bool:
    """`text` (inside `$(...)`) prints only a number, whatever the files it reads hold."""
    text = text.strip(" \t\n")
    if not text or len(text) > _MAX:
        return False
    ctx.budget.spend(len(text) + 1)
    stage = _last_stage(text)
    if stage is None:
        return False
    words, redirs = stage
    while words and _env_word(words[0]):
        words = words[1:]
    if not words or not all(static for _, static in words) or not _quiet(redirs):
        return False
    name = words[0][0]
    check = _PROGRAMS.get(name)
    if check is None or name in ctx.funcs or name in ctx.aliases or ctx.path_changed:
        return False
    return check([w for w, _ in words[1:]], bool(redirs))


def _env_word(word: tuple[str, bool]) -> bool:
    """`TZ=UTC`-style prefix words that change no output into letters."""
    w, static = word
    eq = w.find("=")
    return static and eq > 0 and w[:eq] in _SAFE_ENV


def _quiet(redirs: list[tuple[str, str, str]]) -> bool:
    """The last command's redirects: its input from anywhere, its errors to a file; nothing
    else (2>&1 would put error messages, which name files, in the value)."""
    for fd, op, _ in redirs:
        if op in ("<", "<<<") and fd in ("", "0"):
            continue
        if op in (">", ">>") and fd == "2":
            continue
        return False
    return True


def _last_stage(text: str):
    """The words and redirects of the last command of a one-pipeline text, each word with
    whether it is literal; None for anything else (lists, groups, heredocs, comments)."""
    words: list[tuple[str, bool]] = []
    redirs: list[tuple[str, str, str]] = []
    pending: tuple[str, str] | None = None  # a redirect waiting for its target
    n = len(text)
    i = 0
    while i < n:
        ch = text[i]
        if ch in " \t":
            i += 1
            continue
        if ch == "|":
            if text[i + 1 : i + 2] == "|" or pending is not None:
                return None
            i += 2 if text[i + 1 : i + 2] == "&" else 1
            words, redirs = [], []
            continue
        if ch == "#":
            return None
        fd, op, j = _redirect(text, i)
        if op:
            if pending is not None or op == "<<":
                return None
            pending = (fd, op)
            i = j
            continue
        if ch in _OPCHARS:
            return None
        w, static, i = _word(text, i)
        if i < 0:
            return None
        if pending is not None:
            redirs.append((pending[0], pending[1], w))
            pending = None
        else:
            words.append((w, static))
    if pending is not None:
        return None
    return words, redirs


def _redirect(text: str, i: int) -> tuple[str, str, int]:
    """A redirect operator at i (with its fd digits): (fd, op, end), or op '' when none."""
    j = i
    while j < len(text) and text[j].isdigit():
        j += 1
    for op in ("<<<", "&>>", ">>", "<<", ">&", "<&", "&>", ">|", "<>", "<", ">"):
        if text.startswith(op, j):
            return text[i:j], op, j + len(op)
    return "", "", i


def _word(text: str, i: int) -> tuple[str, bool, int]:
    """One shell word from i: (its text with quotes removed, literal?, end); end -1 when the
    word is malformed. Not literal: any expansion, or an unquoted glob or brace."""
    n = len(text)
    out: list[str] = []
    static = True
    while i < n:
        ch = text[i]
        if ch in " \t" or ch in _OPCHARS:
            break
        if ch == "\\":
            if i + 1 >= n or text[i + 1] == "\n":
                return "", False, -1
            out.append(text[i + 1])
            i += 2
        elif ch == "'":
            end = text.find("'", i + 1)
            if end < 0:
                return "", False, -1
            out.append(text[i + 1 : end])
            i = end + 1
        elif ch == '"':
            i += 1
            while i < n and text[i] != '"':
                c = text[i]
                if c == "\\" and i + 1 < n:
                    out.append(text[i + 1])
                    i += 2
                    continue
                if c == "$" or c == "`":
                    static = False
                    i = _skip_expansion(text, i)
                    if i < 0:
                        return "", False, -1
                    continue
                out.append(c)
                i += 1
            if i >= n:
                return "", False, -1
            i += 1
        elif ch == "$" or ch == "`":
            static = False
            i = _skip_expansion(text, i)
            if i < 0:
                return "", False, -1
        else:
            if ch in _GLOB:
                static = False
            out.append(ch)
            i += 1
    return "".join(out), static, i


def _skip_expansion(text: str, i: int) -> int:
    """text[i] is `$` or a backtick: the index after the expansion (-1 when unbalanced)."""
    n = len(text)
    if text[i] == "`":
        j = i + 1
        while j < n and text[j] != "`":
            j += 2 if text[j] == "\\" else 1
        return j + 1 if j < n else -1
    nx = text[i + 1 : i + 2]
    if nx in ("(", "{"):
        close = ")" if nx == "(" else "}"
        depth = 0
        j = i + 1
        while j < n:
            c = text[j]
            if c == "\\":
                j += 2
                continue
            if c == "'" and close == ")":
                k = text.find("'", j + 1)
                if k < 0:
                    return -1
                j = k + 1
                continue
            if c == nx:
                depth += 1
            elif c == close:
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1
        return -1
    j = i + 1
    if nx and nx in NAME0:
        while j < n and text[j] in NAMEC:
            j += 1
        return j
    return j + 1 if nx else j


# --- the programs: arguments (after the name) -> True when the output is a number ---------


def _options(args, flags: str, valued: str, longs: tuple, long_valued: tuple):
    """Parse getopt-style options: (set of option letters and long names seen, operands), or
    None on an option outside the given ones."""
    seen: set[str] = set()
    operands: list[str] = []
    k = 0
    while k < len(args):
        a = args[k]
        k += 1
        if a == "--":
            operands.extend(args[k:])
            break
        if a.startswith("--"):
            name, eq, _ = a[2:].partition("=")
            if name in longs and not eq:
                seen.add(name)
            elif name in long_valued:
                if not eq:
                    if k >= len(args):
                        return None
                    k += 1
                seen.add(name)
            else:
                return None
        elif a.startswith("-") and len(a) > 1 and not _is_number(a):
            j = 1
            while j < len(a):
                c = a[j]
                if c in flags:
                    seen.add(c)
                    j += 1
                elif c in valued:
                    seen.add(c)
                    if j + 1 == len(a):
                        if k >= len(args):
                            return None
                        k += 1
                    break
                else:
                    return None
        else:
            operands.append(a)
    return seen, operands


def _is_number(w: str) -> bool:
    w = w[1:] if w[:1] in "+-" else w
    whole, _, frac = w.partition(".")
    return whole.isdigit() and (not frac or frac.isdigit())


def _format(fmt: str, convs: frozenset, glued: str = "") -> bool:
    """A printf-like format that prints digits and operator characters only. `glued`
    conversions print a letter on some systems (BSD date's %N prints N): allowed right after
    a digit only, where the letter ends a number token (an arithmetic error, never a name)."""
    i = 0
    digit = False  # the output so far ends with a digit
    while i < len(fmt):
        c = fmt[i]
        if c == "%":
            j = i + 1
            while glued and j < len(fmt) and fmt[j].isdigit():
                j += 1  # GNU's %3N: the width of the nanoseconds
            conv = fmt[j : j + 1]
            if conv and conv in glued and digit:
                i = j + 1
                continue
            if j != i + 1 or not conv or conv not in convs:
                return False
            digit = conv != "%"
            i = j + 1
            continue
        if c not in _LITERAL:
            return False
        digit = c.isdigit()
        i += 1
    return True


def _wc(args, redirected: bool) -> bool:
    p = _options(args, "lcwmL", "", ("lines", "bytes", "chars", "words", "max-line-length"), ())
    return p is not None and not p[1]  # an operand is a file: wc prints its name


def _grep_count(args, redirected: bool) -> bool:
    longs = (
        "count", "ignore-case", "no-ignore-case", "invert-match", "word-regexp",
        "line-regexp", "extended-regexp", "fixed-strings", "basic-regexp", "perl-regexp",
        "no-messages", "text", "no-filename",
    )  # fmt: skip
    p = _options(args, "civwxEFGPsahyU", "efm", longs, ("regexp", "file", "max-count"))
    if p is None or not ({"c", "count"} & p[0]):
        return False
    patterns = {"e", "f", "regexp", "file"} & p[0]
    return len(p[1]) == (0 if patterns else 1)  # no file operand: it reads its input


def _nproc(args, redirected: bool) -> bool:
    p = _options(args, "", "", ("all",), ("ignore",))
    return p is not None and not p[1]


def _id(args, redirected: bool) -> bool:
    p = _options(args, "ugGr", "", ("user", "group", "groups", "real"), ())
    if p is None or len(p[1]) > 1:
        return False
    return bool({"u", "g", "G", "user", "group", "groups"} & p[0])


def _date(args, redirected: bool) -> bool:
    p = _options(args, "u", "d", ("utc", "universal"), ("date",))
    if p is None or len(p[1]) != 1:
        return False
    fmt = p[1][0]
    return fmt[:1] == "+" and _format(fmt[1:], _DATE_NUM, "N")


def _expr(args, redirected: bool) -> bool:
    return bool(args) and all(_is_number(a) and "." not in a or a in _EXPR_OPS for a in args)


def _getconf(args, redirected: bool) -> bool:
    return len(args) == 1 and args[0] in _GETCONF


def _seq(args, redirected: bool) -> bool:
    nums = [a for a in args if _is_number(a)]
    rest = [a for a in args if not _is_number(a)]
    return 0 < len(nums) <= 3 and all(a in ("-w", "--equal-width") for a in rest)


def _stat(args, redirected: bool) -> bool:
    p = _options(args, "L", "c", ("dereference",), ("format",))
    if p is None or not p[1] or any(a.startswith("-") for a in p[1]):
        return False
    fmt = _value_of(args, "-c", "--format")
    return fmt is not None and bool(fmt) and _format(fmt, _STAT_NUM)


def _value_of(args, short: str, long: str) -> str | None:
    """The value of the last -c FMT / -cFMT / --format=FMT / --format FMT in args."""
    val = None
    k = 0
    while k < len(args):
        a = args[k]
        if a == "--":
            break
        if a == short or a == long:
            val = args[k + 1] if k + 1 < len(args) else None
            k += 2
            continue
        if a.startswith(long + "="):
            val = a[len(long) + 1 :]
        elif a.startswith("-") and not a.startswith("--") and short[1] in a:
            cut = a.index(short[1])
            val = a[cut + 1 :] if cut + 1 < len(a) else (args[k + 1] if k + 1 < len(args) else None)
            if cut + 1 == len(a):
                k += 1
        k += 1
    return val


_PROGRAMS = {
    "wc": _wc,
    "grep": _grep_count,
    "nproc": _nproc,
    "id": _id,
    "date": _date,
    "expr": _expr,
    "getconf": _getconf,
    "seq": _seq,
    "stat": _stat,
}
