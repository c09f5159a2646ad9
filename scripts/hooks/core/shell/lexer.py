"""Bash lexer: tokens, quoting, escapes, words (tilde, brace expansion, $IFS splitting).

The shared pieces of one analysis live here too: the token and segment kinds, `Bound`,
`Redirect`, `Raw` (a simple command as parsed) and `Ctx` (state shared by every parser of
one analysis).  `Lexer` is the token-level half of the parser: core.shell.parser builds the
grammar on it, core.shell.substitution the expansions and core.shell.heredoc the heredoc
bodies.  Hand-written: shlex is slow and does not know bash.  Standard library only and no
`re`: this is imported on every PreToolUse call.
"""

from __future__ import annotations

from core.shell.budget import CHAR_COST, TOO_COMPLEX, Bound, Budget
from core.shell.shellvars import Vars

EOF, WORD, OP, REDIR, NL = 0, 1, 2, 3, 4
# kinds of word segments
LIT, QUOTED, DYN, SPLIT = 0, 1, 2, 3
ALT = 4  # "${X:-w}\0w": a default form of an unknown X; finish() records w
# word flags
F_QUOTED, F_ASSIGN, F_DYN = 1, 2, 4

MAX_DEPTH = 16  # nested substitutions / bash -c / eval levels
MAX_LEN = 256 * 1024  # longer commands are analysed (within budget) but always `unknown`
MAX_BRACE = 256  # words one brace expansion may produce
BRACE_BOUND = TOO_COMPLEX + " (a brace expansion of more than %d words)" % MAX_BRACE

_SPECIAL = dict.fromkeys(map(ord, " \t\n;&|<>()'\"\\$`"), 0)
_DQ = dict.fromkeys(map(ord, '"\\$`'), 0)
_OPCH = frozenset(";&|()<>")
NAME0 = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
NAMEC = NAME0 | frozenset("0123456789")
DIGITS = frozenset("0123456789")
RESERVED = frozenset(
    (
        "{",
        "}",
        "!",
        "if",
        "then",
        "elif",
        "else",
        "fi",
        "while",
        "until",
        "do",
        "done",
        "for",
        "select",
        "case",
        "esac",
        "function",
        "[[",
        "coproc",
        "time",
    )
)
SKIP_RESERVED = frozenset(
    ("{", "}", "!", "if", "then", "elif", "else", "fi", "while", "until", "do", "done", "coproc")
)
_ANSI = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}
_HEX = frozenset("0123456789abcdefABCDEF")
# brace-expansion markers for unquoted { , } (private-use code points)
_BO, _BC, _BM = "\ue000", "\ue001", "\ue002"
_UNMARK = {0xE000: "{", 0xE001: "}", 0xE002: ","}
_MARK = {ord("{"): _BO, ord("}"): _BC, ord(","): _BM}


class Redirect:
    """One redirection: `fd` (None = the operator's default), `op` as written ('>', '>>',
    '<', '&>', '&>>', '>|', '<>', '<<', '<<-', '<<<', '>&', '<&'), `target` after quote
    removal (a heredoc's delimiter), `append`, and a heredoc's `body`."""

    __slots__ = ("fd", "op", "target", "append", "body", "quoted")

    def __init__(self, fd, op, target, append=False):
        self.fd = fd
        self.op = op
        self.target = target
        self.append = append
        self.body = None
        self.quoted = False

    def __repr__(self):
        return "Redirect(%r, %r, %r, append=%r)" % (self.fd, self.op, self.target, self.append)

    def __eq__(self, other):
        return (
            isinstance(other, Redirect)
            and self.fd == other.fd
            and self.op == other.op
            and self.target == other.target
            and self.append == other.append
        )

    __hash__ = None  # type: ignore[assignment]  # equal by value, so not hashable


class Raw:
    """A simple command as parsed, before its effects are judged."""

    __slots__ = ("words", "assigns", "redirs", "piped", "prev", "cmd")

    def __init__(self, words, assigns, redirs, piped, prev):
        self.words = words
        self.assigns = assigns
        self.redirs = redirs
        self.piped = piped
        self.prev = prev
        self.cmd = None


class Ctx:
    """State shared by every parser of one analysis."""

    __slots__ = (
        "home",
        "env",
        "vars",
        "out",
        "errors",
        "budget",
        "cwd",
        "stack",
        "finalise",
        "links",
        "written",
        "aliases",
        "literal",
        "globbed",
        "alts",
        "funcs",
        "path_changed",
        "exec_stdin",
        "stripped",
        "listed",
        "checked",
        "exported",
        "allexport",
        "held",
        "prompted",
    )

    def __init__(self, home, env, finalise):
        self.home = home
        self.env = env
        self.vars = Vars(self.error)
        self.out = []
        self.errors = []
        self.budget = Budget()
        self.cwd = None  # None: the caller's cwd; a str: after `cd`; DYNAMIC: unknown
        self.stack = []
        self.finalise = finalise
        self.links = {}  # symlinks made earlier in this command: name -> target
        self.written = {}  # files written earlier in this command: path -> text or None
        self.aliases = {}  # aliases defined earlier in this command: name -> text
        self.literal = set()  # words whose * ? [ were all quoted: no glob ...
        self.globbed = set()  # ... unless the same text also appears unquoted as one
        self.alts = {}  # a word with ${X:-w} forms -> the words the defaults make
        self.funcs = set()  # shell functions defined in this command (bodies analysed)
        self.path_changed = False  # PATH set, or `hash -p`: bare program names are unknown
        self.exec_stdin = None  # `exec <file` / `exec <<EOF`: the shell's stdin from here on
        self.listed = []  # the words of `for x in WORDS`: file names fed to the loop body
        self.checked = set()  # names of unseen code already charged to the budget
        self.stripped = False  # CLAUDECODE unset or changed earlier in this command
        self.exported = {}  # variables exported earlier that are not plain: name -> value
        self.held = {}  # variables assigned literal text with a $ or ` in it: name -> text
        self.prompted = False  # a ${X@P} of a value not seen: every word may be its code
        self.allexport = False  # set -a: every later assignment is exported

    def error(self, reason):
        if reason not in self.errors:
            self.errors.append(reason)

    def alternative(self, word: str, alt: str) -> None:
        """A word the analysis keeps dynamic may also be alt (a parameter's default, a loop
        variable's value). Past the bound the command is too complex: a value left out could
        be the one that names a protected path."""
        vals = self.alts.get(word)
        if vals is None and len(self.alts) >= 64 or vals is not None and len(vals) >= 256:
            raise Bound(TOO_COMPLEX + " (too many values for shell words to follow)")
        self.alts.setdefault(word, []).append(alt)

    def setvar(self, name, value):
        if value is not None and value.startswith("$(mktemp") and value.endswith(")"):
            value = _mktemp(value[2:-1], self)
        elif value is not None and ("$" in value or "`" in value):
            # an array keeps its (..) text: its elements are followed (core.shell.globopts)
            if not (value[:1] == "(" and value[-1:] == ")") or name == "HOME":
                value = None
        self.vars[name] = value


DYNAMIC = type("Dynamic", (), {"__repr__": lambda self: "DYNAMIC"})()
DYNPOS = type("DynPos", (), {"__repr__": lambda self: "DYNPOS"})()  # $1.. unknown (function body)
SAVE = object()
RESTORE = object()


def _alt_segs(t: str, k: int) -> list:
    """The default's side of a segment: an ALT's word (split at blanks, each part a glob,
    when unquoted: `\0\1` marks it), any other segment as it is."""
    if k != ALT:
        return [(t, k)]
    word = t.split("\0", 1)[1]
    if word[:1] != "\1":
        return [(word, QUOTED)]
    out: list = []
    for part in word[1:].split():
        out += [("", SPLIT)] if out else []
        out.append((part, DYN if "*" in part or "?" in part or "[" in part else QUOTED))
    return out or [("", QUOTED)]


def _bare_name(t: str) -> bool:
    """$name as a dynamic segment renders it (no braces)."""
    return len(t) > 1 and t[0] == "$" and t[1] in NAME0 and all(ch in NAMEC for ch in t[2:])


def _mktemp(text, ctx):
    """`f=$(mktemp ...)` names a fresh temp path: keep it static so writes to "$f" are known."""
    parts = text.split()
    tmp = (ctx.env or {}).get("TMPDIR") or "/tmp"
    template = None
    under_tmp = False
    i = 1
    while i < len(parts):
        w = parts[i]
        if w in ("-p", "--tmpdir") and i + 1 < len(parts):
            tmp = parts[i + 1]
            under_tmp = True
            i += 1
        elif w.startswith("--tmpdir="):
            tmp = w[9:] or tmp
            under_tmp = True
        elif w in ("-t",):
            under_tmp = True
        elif not w.startswith("-"):
            template = w
        i += 1
    if any(ch in text for ch in "$`\"'\\;|&"):
        return None
    if template is None:
        return tmp.rstrip("/") + "/tmp.XXXXXXXXXX"
    if "/" in template or not under_tmp:
        return template
    return tmp.rstrip("/") + "/" + template


def _brace(w, out):
    """Bash brace expansion on a word with marked unquoted braces; appends to out."""
    if len(w) > 4096 and w.count(_BO) + w.count(_BM) > 512:
        raise Bound(BRACE_BOUND)
    i = w.find(_BO)
    while i >= 0:
        depth = 0
        commas = []
        j = i
        end = -1
        while j < len(w):
            ch = w[j]
            if ch == _BO:
                depth += 1
            elif ch == _BC:
                depth -= 1
                if depth == 0:
                    end = j
                    break
            elif ch == _BM and depth == 1:
                commas.append(j)
            j += 1
        if end < 0:
            break
        pre, post = w[:i], w[end + 1 :]
        if commas:
            bounds = [i] + commas + [end]
            for k in range(len(bounds) - 1):
                _brace(pre + w[bounds[k] + 1 : bounds[k + 1]] + post, out)
                if len(out) > MAX_BRACE:
                    raise Bound(BRACE_BOUND)
            return
        seq = _sequence(w[i + 1 : end])
        if seq is not None:
            for item in seq:
                _brace(pre + item + post, out)
                if len(out) > MAX_BRACE:
                    raise Bound(BRACE_BOUND)
            return
        i = w.find(_BO, i + 1)
    out.append(w)


def _sequence(inner):
    a, sep, b = inner.partition("..")
    if not sep or _BO in inner or _BC in inner or _BM in inner:
        return None
    step = 1
    if ".." in b:
        b, _, st = b.partition("..")
        try:
            step = abs(int(st)) or 1
        except ValueError:
            return None
    try:
        x, y = int(a), int(b)
        if abs(y - x) // step > MAX_BRACE:
            raise Bound(BRACE_BOUND)
        r = range(x, y + 1, step) if x <= y else range(x, y - 1, -step)
        return [str(v) for v in r]
    except ValueError:
        pass
    if len(a) == 1 and len(b) == 1:
        x, y = ord(a), ord(b)
        if abs(y - x) // step > MAX_BRACE:
            raise Bound(BRACE_BOUND)
        r = range(x, y + 1, step) if x <= y else range(x, y - 1, -step)
        return [chr(v) for v in r]
    return None


def _assign_at(t):
    """Index of the '=' when t starts `NAME=` / `NAME+=` / `NAME[..]=`, else -1."""
    if not t or t[0] not in NAME0:
        return -1
    j = 1
    n = min(len(t), 256)
    while j < n and t[j] in NAMEC:
        j += 1
    if j < n and t[j] == "[":
        k = t.find("]", j)
        if k < 0:
            return -1
        j = k + 1
    if j < n and t[j] == "+":
        j += 1
    if j < n and t[j] == "=":
        return j
    return -1


def scan_escapes(s: str, i: int, close: str, decode, ctx: Ctx) -> tuple[str, int]:
    """From i to the next unescaped `close`: (the text with each backslash escape replaced by
    decode(s, k) -> (text, next index), k just after the backslash; the index after `close`,
    or -1 when it never comes).  Linear: `close` is searched again only when an escape
    consumed it, so a million escapes cost a million steps, not a million scans."""
    n = len(s)
    buf = []
    q = s.find(close, i)
    while True:
        b = s.find("\\", i, n if q < 0 else q)
        if b < 0:
            if q < 0:
                buf.append(s[i:])
                return "".join(buf), -1
            buf.append(s[i:q])
            return "".join(buf), q + 1
        buf.append(s[i:b])
        text, i = decode(s, b + 1)
        buf.append(text)
        ctx.budget.spend(4)  # a decoder call: measured at about four tokens' worth
        if 0 <= q < i:
            q = s.find(close, i)


def ansi_escape(s: str, k: int) -> tuple[str, int]:
    """One escape of $'...' (k after the backslash): $'\\x72\\x6d' is rm."""
    c = s[k : k + 1]
    i = k + 1
    if c in _ANSI:
        return _ANSI[c], i
    if c in ("x", "u", "U"):
        lim = 2 if c == "x" else 4 if c == "u" else 8
        j = i
        while j < len(s) and j - i < lim and s[j] in _HEX:
            j += 1
        if j == i:
            return "\\" + c, i
        try:
            return chr(int(s[i:j], 16)), j
        except (ValueError, OverflowError):
            return "", j
    if c and c in "01234567":
        j = k
        while j < len(s) and j - k < 3 and s[j] in "01234567":
            j += 1
        return chr(int(s[k:j], 8) & 0xFF), j
    if c == "c" and i < len(s):
        return chr(ord(s[i]) & 0x1F), i + 1
    return "\\" + c, i


def backtick_escape(s: str, k: int) -> tuple[str, int]:
    """One escape inside `...` (k after the backslash): only \\$, \\` and \\\\ lose it."""
    nx = s[k : k + 1]
    return (nx if nx and nx in "$`\\" else "\\" + nx), k + 1


class Lexer:
    """The token-level half of a parser over one string `s`."""

    def __init__(self, s: str, ctx: Ctx) -> None:
        self.s = s
        self.n = len(s)
        self.i = 0
        self.T = s.translate(_SPECIAL)
        self.T2 = None
        self.ctx = ctx
        self.back = None
        self.heredocs: list = []
        self.test = False

    def token(self):
        t = self.back
        if t is not None:
            self.back = None
            return t
        ctx = self.ctx
        ctx.budget.spend(8)
        s = self.s
        n = self.n
        i = self.i
        while i < n:
            c = s[i]
            if c == " " or c == "\t":
                i += 1
            elif c == "\\" and i + 1 < n and s[i + 1] == "\n":
                i += 2
                ctx.budget.spend(1)
            elif c == "#":
                j = s.find("\n", i)
                i = n if j < 0 else j
            else:
                break
        self.i = i
        if i >= n:
            return (EOF, None, 0)
        c = s[i]
        if c == "\n":
            self.i = i + 1
            if self.heredocs:
                self.read_heredocs()
            return (NL, "\n", 0)
        if c in _OPCH:
            if self.test and c in "<>()&|;":  # inside [[ ]] these are test words
                j = i
                while j < n and s[j] in "<>()&|!=;":
                    j += 1
                self.i = j
                return (WORD, [s[i:j]], F_QUOTED)
            return self.operator(c, i)
        return self.word()

    def operator(self, c, i):
        s = self.s
        nx = s[i + 1 : i + 2]
        if c == ";":
            if nx == ";":
                if s[i + 2 : i + 3] == "&":
                    self.i = i + 3
                    return (OP, ";;&", 0)
                self.i = i + 2
                return (OP, ";;", 0)
            if nx == "&":
                self.i = i + 2
                return (OP, ";&", 0)
            self.i = i + 1
            return (OP, ";", 0)
        if c == "&":
            if nx == "&":
                self.i = i + 2
                return (OP, "&&", 0)
            if nx == ">":
                if s[i + 2 : i + 3] == ">":
                    self.i = i + 3
                    return (REDIR, (None, "&>>"), 0)
                self.i = i + 2
                return (REDIR, (None, "&>"), 0)
            self.i = i + 1
            return (OP, "&", 0)
        if c == "|":
            if nx == "|" or nx == "&":
                self.i = i + 2
                return (OP, "|" + nx, 0)
            self.i = i + 1
            return (OP, "|", 0)
        if c == "(" or c == ")":
            self.i = i + 1
            return (OP, c, 0)
        if nx == "(":
            return self.procsub(i)
        if c == "<":
            for op in ("<<<", "<<-", "<<", "<&", "<>"):
                if s.startswith(op, i):
                    self.i = i + len(op)
                    return (REDIR, (None, op), 0)
            self.i = i + 1
            return (REDIR, (None, "<"), 0)
        for op in (">>", ">|", ">&"):
            if s.startswith(op, i):
                self.i = i + 2
                return (REDIR, (None, op), 0)
        self.i = i + 1
        return (REDIR, (None, ">"), 0)

    def word(self):
        segs, i = self.lex_word(self.i)
        s = self.s
        if (
            i < self.n
            and s[i] in "<>"
            and len(segs) == 1
            and segs[0][1] == LIT
            and s[i + 1 : i + 2] != "("
            and segs[0][0].isdigit()
            and len(segs[0][0]) < 6
        ):
            t = self.operator(s[i], i)
            if t[0] == REDIR:
                return (REDIR, (int(segs[0][0]), t[1][1]), 0)
        self.i = i
        if not segs:
            return (WORD, [], F_DYN)  # an empty unquoted expansion: no word at all
        return self.finish(segs)

    def lex_word(self, i):
        s = self.s
        n = self.n
        T = self.T
        ctx = self.ctx
        segs = []
        start = i
        while i < n:
            j = T.find("\0", i)
            if j < 0:
                j = n
            if j > i:
                segs.append((s[i:j], LIT))
                i = j
                if i >= n:
                    break
            c = s[i]
            if c == "'":
                k = s.find("'", i + 1)
                if k < 0:
                    self.ctx.error("unbalanced quote")
                    segs.append((s[i + 1 :], QUOTED))
                    i = n
                    break
                segs.append((s[i + 1 : k], QUOTED))
                i = k + 1
            elif c == '"':
                i = self.dq(i + 1, segs, True)
            elif c == "\\":
                nx = s[i + 1 : i + 2]
                if nx == "\n":
                    i += 2
                elif nx == "":
                    segs.append(("\\", LIT))
                    i += 1
                else:
                    segs.append((nx, QUOTED))
                    i += 2
            elif c == "$":
                i = self.dollar(i, False, segs)
            elif c == "`":
                i = self.backtick(i, segs, False)
            elif (
                c == "("
                and segs
                and segs[-1][1] == LIT
                and segs[-1][0][-1:] in ("=", "@", "!", "?", "*", "+")
            ):
                k = self.skip_parens(i)
                segs.append((s[i:k], QUOTED))
                i = k
            else:
                break
            ctx.budget.spend(3)  # a segment: a tuple, a find and a slice
        if i == start:  # defensive: always make progress
            segs.append((s[i], LIT))
            i += 1
        elif segs and segs[0][1] == SPLIT and all(k == SPLIT for _, k in segs):
            segs = []
        return segs, i

    def finish(self, segs):
        """Quote removal done; now tilde, brace expansion, $IFS splitting. -> token."""
        if len(segs) == 1:
            t, k = segs[0]
            if k == QUOTED:
                if "*" in t or "?" in t or "[" in t:
                    self.ctx.literal.add(t)
                return (WORD, [t], F_QUOTED)
            if k == DYN:
                return (WORD, [t], F_DYN)
            if k == LIT and "{" not in t and "~" not in t and "=" not in t:
                if "*" in t or "?" in t or "[" in t:
                    self.ctx.globbed.add(t)
                return (WORD, [t], 0)
        if any(k == ALT for _, k in segs):
            return self.alternatives(segs)
        flags = 0
        brace = False
        quoted_glob = unquoted_glob = False
        for t, k in segs:
            if "*" in t or "?" in t or "[" in t:
                if k == QUOTED:
                    quoted_glob = True
                else:
                    unquoted_glob = True
            if k == QUOTED:
                flags |= F_QUOTED
            elif k == DYN:
                flags |= F_DYN
            elif k == LIT and "{" in t:
                brace = True

        first, k0 = segs[0]
        if k0 == LIT:
            if first[:1] == "~" and ("/" in first or len(segs) == 1):
                first = self.tilde(first)  # ~"/x" keeps its tilde, as in bash
            eq = _assign_at(first)
            if eq >= 0:
                flags |= F_ASSIGN
                if "~" in first:
                    head, val = first[: eq + 1], first[eq + 1 :]
                    first = head + ":".join(
                        self.tilde(p) if p[:1] == "~" else p for p in val.split(":")
                    )
            segs = [(first, k0)] + segs[1:]
        parts = []
        words = []
        for n, (t, k) in enumerate(segs):
            if k == DYN and n + 1 < len(segs) and _bare_name(t) and segs[n + 1][0][:1] in NAMEC:
                t = "${%s}" % t[1:]  # "${x}"y is not $xy
            if k == SPLIT:
                if parts:
                    words.append("".join(parts))
                    parts = []
                continue
            if brace and k == LIT:
                t = t.translate(_MARK)

            parts.append(t)
        if parts or not words:
            words.append("".join(parts))
        if brace:
            out = []
            for w in words:
                if _BO in w:
                    _brace(w, out)
                else:
                    out.append(w)
            words = [w.translate(_UNMARK) for w in out]
            # expansion times length: each word made is looked up later as a path
            self.ctx.budget.spend(sum(map(len, words)) // CHAR_COST + len(words))
            words = [self.tilde(w) if w[:1] == "~" and k0 == LIT else w for w in words]
        if unquoted_glob:
            self.ctx.globbed.update(words)
        elif quoted_glob:
            self.ctx.literal.update(words)
        return (WORD, words, flags)

    def alternatives(self, segs):
        """A word with ${X:-w}-style forms for an X the analysis does not know: the word as
        written (dynamic), remembering the word each default would make (ctx.alts)."""
        a = self.finish([(t.split("\0", 1)[0], DYN) if k == ALT else (t, k) for t, k in segs])
        b = self.finish([x for t, k in segs for x in _alt_segs(t, k)])
        if len(a[1]) == len(b[1]):
            pairs = list(zip(a[1], b[1]))
        else:  # an unquoted default split into more words: each may stand for the word
            pairs = [(w, alt) for w in a[1] if "$" in w for alt in b[1]]
        for w, alt in pairs:
            if w != alt:
                self.ctx.alternative(w, alt)
        if a[2] & F_ASSIGN and a[1] and b[1]:  # Y=${Z:-.env}: "$Y" later may be .env
            eq = _assign_at(a[1][0])
            name = a[1][0][:eq].rstrip("+")
            self.ctx.alternative("$" + name, b[1][0][eq + 1 :])
            self.ctx.alternative("${%s}" % name, b[1][0][eq + 1 :])
        return (WORD, a[1], a[2] | F_DYN)

    def tilde(self, t):
        j = t.find("/")
        name = t[1:] if j < 0 else t[1:j]
        rest = "" if j < 0 else t[j:]
        home = self.ctx.vars.get("HOME", self.ctx.home)
        if home is None:
            return "$HOME" + rest if name == "" else t
        if name == "":
            return home + rest if rest or home else "/"
        if name == "+":
            return "." + rest
        if name == "-":
            return "$OLDPWD" + rest  # the directory before the last cd: dynamic
        digits = name[1:] if name[:1] in "+-" else name
        if digits.isdigit():
            return "$DIRSTACK" + rest  # ~N, ~+N, ~-N: a pushd entry, known only at run time
        if len(name) < 64 and all(ch in NAMEC or ch in "-." for ch in name):
            if name == "root":
                return "/root" + rest
            base = home.rsplit("/", 1)[0] if "/" in home else "/home"
            return (base or "") + "/" + name + rest
        return t

    def dq(self, i, segs, closed):
        """Inside "...": from i (after the quote); `closed` False scans a heredoc body."""
        T2 = self.T2
        if T2 is None:
            T2 = self.T2 = self.s.translate(_DQ)
        s = self.s
        n = self.n
        buf = []
        added = len(segs)
        ctx = self.ctx
        while True:
            ctx.budget.spend(1)
            j = T2.find("\0", i)
            if j < 0:
                buf.append(s[i:])
                if closed:
                    self.ctx.error("unbalanced quote")
                i = n
                break
            if j > i:
                buf.append(s[i:j])
            c = s[j]
            if c == '"':
                if closed:
                    i = j + 1
                    break
                buf.append('"')
                i = j + 1
                continue
            if c == "\\":
                nx = s[j + 1 : j + 2]
                if nx == "\n":
                    i = j + 2
                elif nx and nx in '$`"\\':
                    buf.append(nx)
                    i = j + 2
                else:
                    buf.append("\\")
                    i = j + 1
                continue
            if buf:
                segs.append(("".join(buf), QUOTED))
                buf = []
            if c == "$":
                i = self.dollar(j, True, segs)
            else:
                i = self.backtick(j, segs)
        if buf or len(segs) == added:
            segs.append(("".join(buf), QUOTED))
        return i
