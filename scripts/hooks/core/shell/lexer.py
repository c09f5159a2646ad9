"""Bash lexer and parser for the command analyser (issue 3).

Turns a command string into raw simple commands, flattened through lists, pipelines,
subshells, groups, compound commands, substitutions and heredocs; `shell_effects` judges
each one.  Hand-written: shlex is slow and does not know bash.  Bounded: nesting depth and a
work budget stop hostile input (the analysis then says `unknown`).  Standard library only and
no `re`: this is imported on every PreToolUse call.
"""

EOF, WORD, OP, REDIR, NL = 0, 1, 2, 3, 4
# kinds of word segments
LIT, QUOTED, DYN, SPLIT = 0, 1, 2, 3
# word flags
F_QUOTED, F_ASSIGN, F_DYN = 1, 2, 4

MAX_DEPTH = 16  # nested substitutions / bash -c / eval levels
MAX_LEN = 256 * 1024  # longer commands are analysed (within budget) but always `unknown`
BUDGET = 50000  # work units: token 8, command 32, expansion 4, scanning step 1
MAX_BRACE = 256  # words one brace expansion may produce

_SPECIAL = dict.fromkeys(map(ord, " \t\n;&|<>()'\"\\$`"), 0)
_DQ = dict.fromkeys(map(ord, '"\\$`'), 0)
_OPCH = frozenset(";&|()<>")
_NAME0 = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_NAMEC = _NAME0 | frozenset("0123456789")
_DIGITS = frozenset("0123456789")
_RESERVED = frozenset(
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
_SKIP_RESERVED = frozenset(
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


class Bound(Exception):
    """The input hit a size, depth or work bound: stop, the analysis is `unknown`."""


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

    __hash__ = None


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
        "funcs",
    )

    def __init__(self, home, env, finalise):
        self.home = home
        self.env = env
        self.vars = {}
        self.out = []
        self.errors = []
        self.budget = BUDGET
        self.cwd = None  # None: the caller's cwd; a str: after `cd`; DYNAMIC: unknown
        self.stack = []
        self.finalise = finalise
        self.links = {}  # symlinks made earlier in this command: name -> target
        self.written = {}  # files written earlier in this command: path -> text or None
        self.aliases = {}  # aliases defined earlier in this command: name -> text
        self.funcs = set()  # shell functions defined in this command (bodies analysed)

    def error(self, reason):
        if reason not in self.errors:
            self.errors.append(reason)

    def setvar(self, name, value):
        if value is not None and value.startswith("$(mktemp") and value.endswith(")"):
            value = _mktemp(value[2:-1], self)
        elif value is not None and ("$" in value or "`" in value):
            value = None
        self.vars[name] = value


DYNAMIC = type("Dynamic", (), {"__repr__": lambda self: "DYNAMIC"})()
DYNPOS = type("DynPos", (), {"__repr__": lambda self: "DYNPOS"})()  # $1.. unknown (function body)
_SAVE = object()
_RESTORE = object()


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
        raise Bound("brace expansion too large")
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
                    raise Bound("brace expansion too large")
            return
        seq = _sequence(w[i + 1 : end])
        if seq is not None:
            for item in seq:
                _brace(pre + item + post, out)
                if len(out) > MAX_BRACE:
                    raise Bound("brace expansion too large")
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
            raise Bound("brace expansion too large")
        r = range(x, y + 1, step) if x <= y else range(x, y - 1, -step)
        return [str(v) for v in r]
    except ValueError:
        pass
    if len(a) == 1 and len(b) == 1:
        x, y = ord(a), ord(b)
        if abs(y - x) // step > MAX_BRACE:
            raise Bound("brace expansion too large")
        r = range(x, y + 1, step) if x <= y else range(x, y - 1, -step)
        return [chr(v) for v in r]
    return None


def _assign_at(t):
    """Index of the '=' when t starts `NAME=` / `NAME+=` / `NAME[..]=`, else -1."""
    if not t or t[0] not in _NAME0:
        return -1
    j = 1
    n = min(len(t), 256)
    while j < n and t[j] in _NAMEC:
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


class Parser:
    """One pass over one string.  Substitutions inside it share this parser; strings run
    again as code (`bash -c`, `eval`, heredocs fed to a shell, backticks) get a child."""

    def __init__(self, s, ctx, depth=0, pos=None, arg0="bash"):
        if depth > MAX_DEPTH:
            raise Bound("nesting deeper than %d levels" % MAX_DEPTH)
        self.s = s
        self.n = len(s)
        self.i = 0
        self.T = s.translate(_SPECIAL)
        self.T2 = None
        self.ctx = ctx
        self.depth = depth
        self.pos = pos
        self.arg0 = arg0
        self.queue = []
        self.heredocs = []
        self.back = None
        self.piped = False
        self.prev = None
        self.test = False
        self.funcbody = False

    # ------------------------------------------------------------------ driver
    def run(self):
        self.parse_list(None)
        if self.heredocs:
            self.ctx.error("unterminated heredoc")
            for r, _, _ in self.heredocs:
                r.body = ""
            self.heredocs = []
        self.flush()

    def flush(self):
        if self.heredocs or not self.queue:
            return
        q = self.queue
        self.queue = []
        ctx = self.ctx
        for item in q:
            if item is _SAVE:
                ctx.stack.append(ctx.cwd)
            elif item is _RESTORE:
                if ctx.stack:
                    ctx.cwd = ctx.stack.pop()
            else:
                ctx.finalise(item, self)

    def subparse(self, text, pos=None, arg0=None, keep_cwd=False):
        """Analyse text as shell code run from here (bash -c, eval, heredoc to a shell)."""
        ctx = self.ctx
        saved = ctx.cwd
        sub = Parser(text, ctx, self.depth + 1, self.pos if pos is None else pos, arg0 or self.arg0)
        sub.run()
        if not keep_cwd:
            ctx.cwd = saved

    # ------------------------------------------------------------------ grammar
    def parse_list(self, closer):
        ctx = self.ctx
        self.piped = False
        self.prev = None
        while True:
            tok = self.token()
            k = tok[0]
            if k == WORD:
                v = tok[1]
                if len(v) == 1 and not tok[2] & F_QUOTED and v[0] in _RESERVED:
                    r = self.reserved(v[0], closer)
                    if r is not None:
                        return r
                    continue
                raw = self.simple(tok)
                self.piped = False
                if raw is not None:
                    self.prev = raw
                    if not self.heredocs:
                        self.flush()
                continue
            if k == OP:
                v = tok[1]
                if v == "|" or v == "|&":
                    self.piped = True
                    continue
                if v == "(":
                    if self.i < self.n and self.s[self.i] == "(":
                        self.i = self.skip_parens(self.i - 1)  # (( arithmetic ))
                        continue
                    self.body(self.group)
                    continue
                if v == ")":
                    if closer == ")":
                        return ")"
                    ctx.error("unbalanced )")
                    continue
                if v in (";;", ";&", ";;&"):
                    if closer == "case":
                        return ";;"
                    continue
                self.piped = False
                self.prev = None
                continue
            if k == NL:
                self.piped = False
                self.prev = None
                self.flush()
                continue
            if k == REDIR:
                raw = self.simple(tok)
                self.piped = False
                if raw is not None:
                    self.prev = raw
                    if not self.heredocs:
                        self.flush()
                continue
            # EOF
            if closer == ")":
                ctx.error("unterminated subshell or substitution")
            elif closer == "case":
                ctx.error("unterminated case")
            return "eof"

    def body(self, parse):
        """A { } or ( ) compound; when it is a function's body, $1.. are unknown inside."""
        if not self.funcbody:
            saved = self.piped, self.prev
            if parse() == "eof" and parse != self.group:
                self.ctx.error("unterminated {")
            self.piped, self.prev = saved
            return
        self.funcbody = False
        pos = self.pos
        self.pos = DYNPOS
        try:
            r = parse()
            if r == "eof" and parse != self.group:
                self.ctx.error("unterminated {")
        finally:
            self.pos = pos

    def group(self):
        """( list ): a subshell, so a `cd` inside does not leak out."""
        saved = self.piped, self.prev
        self.queue.append(_SAVE)
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Bound("nesting deeper than %d levels" % MAX_DEPTH)
        self.parse_list(")")
        self.depth -= 1
        self.queue.append(_RESTORE)
        self.piped, self.prev = saved

    def reserved(self, w, closer):
        if w == "{":
            self.body(lambda: self.parse_list("}"))
            return None
        if w == "}":
            return "}" if closer == "}" else None
        if w in _SKIP_RESERVED:
            return None
        if w == "esac":
            return "esac" if closer == "case" else None
        if w == "time":
            t = self.token()
            if not (t[0] == WORD and t[1] == ["-p"]):
                self.back = t
            return None
        if w in ("for", "select"):
            t = self.token()
            if t[0] == OP and t[1] == "(" and self.i < self.n and self.s[self.i] == "(":
                self.i = self.skip_parens(self.i - 1)
                return None
            if t[0] == WORD:
                for name in t[1]:
                    self.ctx.vars[name] = None
            else:
                self.back = t
                return None
            while True:
                t = self.token()
                if t[0] == NL:
                    continue
                break
            if t[0] == WORD and t[1] == ["in"]:
                while True:
                    t = self.token()
                    if t[0] != WORD:
                        break
                if not (t[0] == OP and t[1] == ";" or t[0] == NL):
                    self.back = t
            else:
                self.back = t
            return None
        if w == "function":
            t = self.token()
            if t[0] != WORD:
                self.back = t
                return None
            self.ctx.funcs.add(t[1][0] if t[1] else "")
            self.funcbody = True
            t = self.token()
            if t[0] == OP and t[1] == "(":
                t = self.token()
                if not (t[0] == OP and t[1] == ")"):
                    self.back = t
            else:
                self.back = t
            return None
        if w == "[[":
            self.test = True
            words = ["[["]
            try:
                while True:
                    t = self.token()
                    if t[0] != WORD:
                        self.back = t
                        break
                    words.extend(t[1])
                    if t[1] == ["]]"]:
                        break
            finally:
                self.test = False
            raw = Raw(words, [], [], self.piped, self.prev)
            self.queue.append(raw)
            self.prev = raw
            self.piped = False
            self.flush()
            return None
        if w == "case":
            return self.case(closer)
        return None  # coproc etc.

    def case(self, closer):
        self.token()  # the subject word (substitutions already parsed)
        t = self.token()
        while t[0] == NL:
            t = self.token()
        if not (t[0] == WORD and t[1] == ["in"]):
            self.back = t
            return None
        while True:
            t = self.token()
            while t[0] == NL or (t[0] == OP and t[1] in (";;", ";&", ";;&")):
                t = self.token()
            if t[0] == WORD and t[1] == ["esac"]:
                return None
            if t[0] == EOF:
                self.ctx.error("unterminated case")
                return "eof"
            if t[0] == OP and t[1] == "(":
                t = self.token()
            while not (t[0] == OP and t[1] == ")"):
                if t[0] in (EOF, NL):
                    self.ctx.error("bad case pattern")
                    return "eof" if t[0] == EOF else None
                t = self.token()
            r = self.parse_list("case")
            if r == "esac":
                return None
            if r == "eof":
                return r

    def simple(self, tok):
        words = []
        assigns = []
        redirs = []
        ctx = self.ctx
        while True:
            k = tok[0]
            if k == WORD:
                ws, fl = tok[1], tok[2]
                if not words and fl & F_ASSIGN:
                    w = ws[0]
                    eq = w.find("=")
                    assigns.append((w[:eq].rstrip("+"), w[eq + 1 :], bool(fl & F_DYN)))
                else:
                    if not words and self.funcdef():
                        self.ctx.funcs.add(ws[0] if ws else "")
                        self.funcbody = True
                        return None
                    words.extend(ws)
            elif k == REDIR:
                fd, op = tok[1]
                t = self.token()
                if t[0] != WORD or not t[1]:
                    ctx.error("redirect without a target")
                    self.back = t
                    break
                target = t[1][0]
                r = Redirect(fd, op, target, op == ">>" or op == "&>>")
                if op == "<<" or op == "<<-":
                    r.quoted = bool(t[2] & F_QUOTED)
                    self.heredocs.append((r, target, op == "<<-"))
                elif op == "<<<":
                    r.body = target + "\n"
                redirs.append(r)
            else:
                self.back = tok
                break
            tok = self.token()
        if not words and not redirs:
            for name, val, dyn in assigns:
                ctx.setvar(name, None if dyn and not val.startswith("$(mktemp") else val)
            return None
        raw = Raw(words, assigns, redirs, self.piped, self.prev)
        self.queue.append(raw)
        return raw

    def funcdef(self):
        """After a first word: `name ( )` starts a function definition (body parsed as usual)."""
        t = self.token()
        if t[0] == OP and t[1] == "(":
            t2 = self.token()
            if t2[0] == OP and t2[1] == ")":
                return True
            self.ctx.error("syntax error near (")
            self.back = t2
            return False
        self.back = t
        return False

    # ------------------------------------------------------------------ lexer
    def token(self):
        t = self.back
        if t is not None:
            self.back = None
            return t
        ctx = self.ctx
        ctx.budget -= 8
        if ctx.budget < 0:
            raise Bound("command too complex to analyse")
        s = self.s
        n = self.n
        i = self.i
        while i < n:
            c = s[i]
            if c == " " or c == "\t":
                i += 1
            elif c == "\\" and i + 1 < n and s[i + 1] == "\n":
                i += 2
                ctx.budget -= 1
                if ctx.budget < 0:
                    raise Bound("command too complex to analyse")
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
            if self.test and c in "<>()&|":
                j = i
                while j < n and s[j] in "<>()&|!=":
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

    def procsub(self, i):
        """<( list ) or >( list ): the commands run; the word is a /dev/fd path."""
        saved = self.piped, self.prev
        self.queue.append(_SAVE)
        self.i = i + 2
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Bound("nesting deeper than %d levels" % MAX_DEPTH)
        self.parse_list(")")
        self.depth -= 1
        self.queue.append(_RESTORE)
        self.piped, self.prev = saved
        return (WORD, ["/dev/fd/63"], 0)

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
                i = self.backtick(i, segs)
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
            ctx.budget -= 1
            if ctx.budget < 0:
                raise Bound("command too complex to analyse")
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
                return (WORD, [t], F_QUOTED)
            if k == DYN:
                return (WORD, [t], F_DYN)
            if k == LIT and "{" not in t and "~" not in t and "=" not in t:
                return (WORD, [t], 0)
        flags = 0
        brace = False
        for t, k in segs:
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
        for t, k in segs:
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
            words = [self.tilde(w) if w[:1] == "~" and k0 == LIT else w for w in words]
        return (WORD, words, flags)

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
        if len(name) < 64 and all(ch in _NAMEC or ch in "-." for ch in name):
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
            ctx.budget -= 1
            if ctx.budget < 0:
                raise Bound("command too complex to analyse")
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

    def ansi_c(self, i, segs):
        """$'...' with its escapes decoded ($'\\x72\\x6d' is rm)."""
        s = self.s
        n = self.n
        buf = []
        ctx = self.ctx
        while True:
            ctx.budget -= 1
            q = s.find("'", i)
            b = s.find("\\", i)
            if q < 0:
                self.ctx.error("unbalanced quote")
                buf.append(s[i:])
                i = n
                break
            if b < 0 or q < b:
                buf.append(s[i:q])
                i = q + 1
                break
            buf.append(s[i:b])
            c = s[b + 1 : b + 2]
            i = b + 2
            if c in _ANSI:
                buf.append(_ANSI[c])
            elif c in ("x", "u", "U"):
                lim = 2 if c == "x" else 4 if c == "u" else 8
                k = i
                while k < n and k - i < lim and s[k] in _HEX:
                    k += 1
                if k > i:
                    try:
                        buf.append(chr(int(s[i:k], 16)))
                    except (ValueError, OverflowError):
                        pass
                    i = k
                else:
                    buf.append("\\" + c)
            elif c and c in "01234567":
                k = b + 1
                while k < n and k - (b + 1) < 3 and s[k] in "01234567":
                    k += 1
                buf.append(chr(int(s[b + 1 : k], 8) & 0xFF))
                i = k
            elif c == "c" and i < n:
                buf.append(chr(ord(s[i]) & 0x1F))
                i += 1
            else:
                buf.append("\\" + c)
        segs.append(("".join(buf), QUOTED))
        return i

    def dollar(self, i, quoted, segs):
        self.ctx.budget -= 4
        s = self.s
        nx = s[i + 1 : i + 2]
        if nx == "":
            segs.append(("$", QUOTED if quoted else LIT))
            return i + 1
        if nx == "'" and not quoted:
            return self.ansi_c(i + 2, segs)
        if nx == '"' and not quoted:
            return self.dq(i + 2, segs, True)
        if nx == "(":
            if s.startswith("((", i + 1):
                end = self.skip_parens(i + 1)
                segs.append((s[i:end], DYN))
                return end
            return self.cmdsubst(i, segs)
        if nx == "{":
            end = self.braced(i + 2)
            self.param(s[i + 2 : end - 1], quoted, segs, s[i:end])
            return end
        if nx in _NAME0:
            j = i + 2
            n = min(self.n, i + 256)  # longer names: the rest reads as text
            while j < n and s[j] in _NAMEC:
                j += 1
            self.var(s[i + 1 : j], quoted, segs, s[i:j])
            return j
        if nx in _DIGITS or nx in "@*#?$!-":
            self.var(nx, quoted, segs, s[i : i + 2])
            return i + 2
        segs.append(("$", QUOTED if quoted else LIT))
        return i + 1

    def lookup(self, name):
        """A variable's value when the analysis can know it, else None."""
        if name == "HOME":
            return self.ctx.vars.get("HOME", self.ctx.home)
        if self.pos is DYNPOS and (name in _DIGITS and name != "0" or name in "@*#"):
            return None
        if name in _DIGITS:
            if name == "0":
                return self.arg0
            pos = self.pos or ()
            k = int(name)
            return pos[k - 1] if k <= len(pos) else ""
        if name == "@" or name == "*":
            return " ".join(self.pos or ())
        if name == "#":
            return str(len(self.pos or ()))
        ctx = self.ctx
        v = ctx.vars.get(name, self)
        if v is not self:
            return v
        if name == "PWD":
            cwd = ctx.cwd
            return "." if cwd is None else None if cwd is DYNAMIC else cwd
        if ctx.env:
            return ctx.env.get(name)
        return None

    def var(self, name, quoted, segs, src):
        if name == "IFS":
            segs.append((" ", QUOTED) if quoted else ("", SPLIT))
            return
        v = self.lookup(name)
        if v is None or not quoted and "IFS" in self.ctx.vars and v:
            segs.append((src, DYN))  # unknown, or split on a custom IFS
            return
        if quoted and name != "@":
            segs.append((v, QUOTED))
            return
        parts = v.split()
        if not parts:
            if quoted:
                segs.append(("", QUOTED))
            return
        if v[:1].isspace() and not quoted:
            segs.append(("", SPLIT))
        for k, p in enumerate(parts):
            if k:
                segs.append(("", SPLIT))
            segs.append((p, QUOTED))
        if v[-1:].isspace() and not quoted:
            segs.append(("", SPLIT))

    def param(self, inner, quoted, segs, src):
        """${...}: resolve the simple forms, else dynamic."""
        if not inner:
            segs.append((src, DYN))
            return
        if inner[:3] == "IFS":
            segs.append((" ", QUOTED) if quoted else ("", SPLIT))
            return
        j = 0
        n = len(inner)
        if inner[0] in _NAME0:
            while j < n and inner[j] in _NAMEC:
                j += 1
        elif inner[0] in _DIGITS:
            while j < n and inner[j] in _DIGITS:
                j += 1
        elif inner[0] in "@*#?$!-" and n == 1:
            j = 1
        else:
            segs.append((src, DYN))
            return
        name = inner[:j]
        rest = inner[j:]
        if len(name) > 1 and name[0] in _DIGITS:
            k = int(name)
            pos = self.pos or ()
            v = (
                self.arg0
                if k == 0
                else None
                if pos is DYNPOS
                else pos[k - 1]
                if k <= len(pos)
                else ""
            )
        else:
            v = self.lookup(name)
        if rest == "":
            if v is None:
                segs.append(("$" + name if name[0] in _NAME0 else src, DYN))
            elif name[0] in _DIGITS and len(name) > 1:
                segs.append((v, QUOTED))
            else:
                self.var(name, quoted, segs, src)
            return
        for op in (":-", ":=", "-", "="):
            if rest.startswith(op):
                word = rest[len(op) :]
                if v:
                    segs.append((v, QUOTED))
                    return
                if v == "" and not any(ch in word for ch in "$`\\'\""):
                    if op[-1] == "=":
                        self.ctx.vars[name] = word
                    segs.append((word, QUOTED))
                    return
                break
        segs.append((src, DYN))

    def cmdsubst(self, i, segs):
        """$( list ): its commands run here; the word's value is dynamic."""
        saved = self.piped, self.prev, self.back
        self.back = None
        self.queue.append(_SAVE)
        self.i = i + 2
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Bound("nesting deeper than %d levels" % MAX_DEPTH)
        self.parse_list(")")
        self.depth -= 1
        self.queue.append(_RESTORE)
        self.piped, self.prev, self.back = saved
        end = self.i
        inner = self.s[i + 2 : end - 1].strip()
        if inner == "pwd":
            cwd = self.ctx.cwd
            if cwd is not DYNAMIC:
                segs.append(("." if cwd is None else cwd, QUOTED))
                return end
        segs.append((self.s[i:end], DYN))
        return end

    def backtick(self, i, segs):
        s = self.s
        n = self.n
        j = i + 1
        buf = []
        ctx = self.ctx
        while True:
            ctx.budget -= 1
            q = s.find("`", j)
            b = s.find("\\", j)
            if q < 0:
                self.ctx.error("unbalanced backtick")
                buf.append(s[j:])
                end = n
                break
            if 0 <= b < q:
                nx = s[b + 1 : b + 2]
                buf.append(s[j:b])
                if nx and nx in "$`\\":
                    buf.append(nx)
                else:
                    buf.append("\\" + nx)
                j = b + 2
                continue
            buf.append(s[j:q])
            end = q + 1
            break
        self.subparse("".join(buf))
        segs.append((s[i:end], DYN))
        return end

    def skip_parens(self, i):
        """s[i] == '(': index after its matching ')', parsing substitutions inside."""
        s = self.s
        n = self.n
        T = self.T
        depth = 0
        while True:
            self.ctx.budget -= 1
            if self.ctx.budget < 0:
                raise Bound("command too complex to analyse")
            j = T.find("\0", i)
            if j < 0:
                self.ctx.error("unbalanced (")
                return n
            c = s[j]
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth <= 0:
                    return j + 1
            elif c == "$":
                i = self.dollar(j, True, [])
                continue
            elif c == "`":
                i = self.backtick(j, [])
                continue
            elif c == "\\":
                i = j + 2
                continue
            elif c == "'":
                k = s.find("'", j + 1)
                if k < 0:
                    self.ctx.error("unbalanced quote")
                    return n
                i = k + 1
                continue
            elif c == '"':
                i = self.dq(j + 1, [], True)
                continue
            i = j + 1

    def braced(self, i):
        """From after `${`: index after the matching '}', parsing substitutions inside."""
        s = self.s
        n = self.n
        T = self.T
        while True:
            self.ctx.budget -= 1
            if self.ctx.budget < 0:
                raise Bound("command too complex to analyse")
            j = T.find("\0", i)
            k = s.find("}", i)
            if k < 0:
                self.ctx.error("unterminated ${")
                return n
            if j < 0 or k < j:
                return k + 1
            c = s[j]
            if c == "$":
                i = self.dollar(j, True, [])
            elif c == "`":
                i = self.backtick(j, [])
            elif c == "\\":
                i = j + 2
            elif c == '"':
                i = self.dq(j + 1, [], True)
            elif c == "'":
                q = s.find("'", j + 1)
                i = n if q < 0 else q + 1
            else:
                i = j + 1

    def read_heredocs(self):
        """At a newline: the pending heredoc bodies follow, in order."""
        s = self.s
        n = self.n
        i = self.i
        ctx = self.ctx
        for r, delim, strip in self.heredocs:
            start = i
            end = -1
            k = i
            while delim:
                ctx.budget -= 1
                c = s.find(delim, k)
                if c < 0:
                    break
                a = c
                if strip:
                    while a > start and s[a - 1] == "\t":
                        a -= 1
                e = c + len(delim)
                if (a == start or s[a - 1] == "\n") and (e == n or s[e] == "\n"):
                    end = a
                    i = e + 1 if e < n else n
                    break
                k = c + 1
            if end < 0:
                ctx.error("unterminated heredoc")
                end = n
                i = n
            body = s[start:end]
            if strip and "\t" in body:
                body = "\n".join(line.lstrip("\t") for line in body.split("\n"))
            r.body = body
            if not r.quoted and ("$" in body or "`" in body):
                sub = Parser(body, ctx, self.depth + 1, self.pos, self.arg0)
                sub.dq(0, [], False)
                sub.flush()
        self.heredocs = []
        self.i = i
