"""Bash grammar for the command analyser: lists, pipelines, compound commands, subshells,
functions; the driver that hands each simple command to the effects side.

Turns a command string into raw simple commands (`Raw`), flattened through lists,
pipelines, subshells, groups, compound commands, substitutions and heredocs; the caller's
`finalise` (core.shell.effects.expand) judges each one.  Bounded: nesting depth and the work
budget stop hostile input (the analysis then says `unknown`).  The token level is
core.shell.lexer, the expansions core.shell.substitution, heredoc bodies core.shell.heredoc.
"""

from __future__ import annotations

from core.shell import envwatch
from core.shell.budget import TOO_COMPLEX, code_paths
from core.shell.command import join
from core.shell.heredoc import Heredoc
from core.shell.lexer import (
    DYNAMIC,
    DYNPOS,
    EOF,
    F_ASSIGN,
    F_DYN,
    F_QUOTED,
    MAX_DEPTH,
    NL,
    OP,
    REDIR,
    RESERVED,
    RESTORE,
    SAVE,
    SKIP_RESERVED,
    WORD,
    Bound,
    Ctx,
    Lexer,
    Raw,
    Redirect,
)
from core.shell.substitution import Substitution

# operators that join or end commands: none may stand where a command is due
_JOINERS = frozenset((";", "&", "|", "|&", "&&", "||"))
# reserved words after which a command is due
_LEADS = frozenset(("if", "then", "else", "elif", "while", "until", "do", "!", "time", "coproc"))

# operators that cannot stand where a command is due (after | && ||)
_NO_COMMAND = frozenset((";", "&", ";;", ";&", ";;&", ")", "|", "|&", "&&", "||"))

# compound commands: the words that open one, and what each later word must follow
_OPENS = frozenset(("if", "while", "until"))
_AFTER = {
    "then": ("if", "elif"),
    "elif": ("then",),
    "else": ("then",),
    "fi": ("then", "else"),
    "do": ("while", "until", "for", "select"),
    "done": ("do",),
}


def _errexit(c) -> bool:
    """set -e / set -o errexit (bash: the script stops at a failing command)."""
    if c.program != "set":
        return False
    a = c.argv[1:]
    return any(w[:1] == "-" and w[1:2] != "-" and "e" in w for w in a) or "errexit" in a


_MOVES = frozenset(("cd", "pushd", "popd"))
_SETS_POSITIONALS = frozenset(("set", "shift", "eval", "source", ".", "builtin", "command"))


class Parser(Substitution, Heredoc, Lexer):
    """One pass over one string.  Substitutions inside it share this parser; strings run
    again as code (`bash -c`, `eval`, heredocs fed to a shell, backticks) get a child."""

    def __init__(self, s: str, ctx: Ctx, depth: int = 0, pos=None, arg0: str = "bash") -> None:
        if depth > MAX_DEPTH:
            raise Bound(TOO_COMPLEX + " (nesting deeper than %d levels)" % MAX_DEPTH)
        Lexer.__init__(self, s, ctx)
        self.depth = depth
        self.pos = pos
        self.arg0 = arg0
        self.queue: list = []
        self.piped = False
        self.prev = None
        self.funcbody = False
        self._words: frozenset | None = None
        self.joined = ";"  # the operator before the command being read
        self.joins: dict = {}  # id(Raw) -> the operator that joined it to the one before
        self.cd_alt: list | None = None  # where later commands run if a cd here failed
        self.cd_chain = False  # the command just judged ran only if that cd succeeded
        self.cd_sure = True  # where the last cd landed is known when it succeeded
        self.dyn: set = set()  # words made by a $(..), `..` or $VAR the analysis cannot see
        self.base = 0
        self.open: list[str] = []  # compound commands begun and not yet closed (if, do, ...)

    def child(self, text: str, pos, arg0: str) -> Parser:
        """A parser for text run as code from here, one nesting level down."""
        return Parser(text, self.ctx, self.depth + 1, pos, arg0)

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
        self.queue: list = []
        ctx = self.ctx
        for item in q:
            if item is SAVE:
                ctx.stack.append(ctx.cwd)
            elif item is RESTORE:
                if ctx.stack:
                    ctx.cwd = ctx.stack.pop()
            else:
                k = len(ctx.out)
                ctx.finalise(item, self)
                try:
                    for c in ctx.out[k:]:  # the gates look each path up: charge them now
                        ctx.budget.paths(c.reads)
                        ctx.budget.paths(c.writes)
                        ctx.budget.spend(len(c.argv))
                        # the words unseen code names and the trees it reads are looked up too,
                        # each distinct one once (repeats are looked up once: policy dedups)
                        new = [w for w in c.named + c.tree if w not in ctx.checked]
                        ctx.checked.update(new)
                        ctx.budget.paths(new)
                        ctx.budget.paths(code_paths(c))  # script paths looked up in the temp dir
                        ctx.budget.words(c.argv + list(c.env.values()))  # option values
                except Bound:
                    del ctx.out[k:]  # over the budget: the gates must not do that work either
                    raise

    def _joined(self, raw) -> None:
        if len(self.joins) < 4096:
            self.joins[id(raw)] = self.joined
        self.joined = ";"

    def cd_done(self, old, target: str) -> None:
        """A cd here moved the cwd from `old`; when it fails, the commands not chained to it
        by && run where they would have: in old (or where an earlier uncertain cd left, or
        that place joined with a relative target)."""
        if any(_errexit(c) for c in self.ctx.out[-256:]):
            return  # set -e: a failed cd ends the script
        prev = self.cd_alt or []
        alts = [old] + prev
        if target[:1] != "/":
            alts += [target if f is None else join(f, target) for f in prev if f is not DYNAMIC]
        self.cd_alt = list(dict.fromkeys(alts))[:8]
        self.cd_chain = True
        self.cd_sure = True

    def cd_also(self, places: list) -> None:
        """The cd just made may also have landed in these (CDPATH): every later command may
        run there, chained by && or not."""
        self.cd_alt = list(dict.fromkeys(places + (self.cd_alt or [])))[:12]
        self.cd_chain = False
        self.cd_sure = False

    def cd_fallback(self, raw, c) -> list | None:
        """The other cwds `raw` may run in (a cd before it may have failed), or None."""
        if self.cd_alt is None:
            return None
        op = self.joins.get(id(raw), ";")
        if op == "&&" and self.cd_chain and self.cd_sure:
            return None  # ran only if the cd succeeded
        alts = self.cd_alt
        self.cd_chain = False
        if op == "||" and c.program in ("exit", "return"):
            self.cd_alt = None  # `cd x || exit`: what follows runs only in x
        return alts

    def subparse(self, text, pos=None, arg0=None, keep_cwd=False):
        """Analyse text as shell code run from here (bash -c, eval, heredoc to a shell)."""
        ctx = self.ctx
        saved = ctx.cwd
        sub = self.child(text, self.pos if pos is None else pos, arg0 or self.arg0)
        sub.run()
        if not keep_cwd:
            ctx.cwd = saved

    def parse_list(self, closer):
        """Commands up to `closer`; an if/while/for begun here must end here, as in bash.
        A list inside `[[ ]]` ($(..), <(..)) is read as commands, not as test words."""
        base, test, joined = self.base, self.test, self.joined
        self.base = len(self.open)
        self.test = False
        try:
            r = self._list(closer)
        finally:
            if len(self.open) > self.base:
                self.ctx.error("syntax error: %s without its end" % self.open[-1])
                del self.open[self.base :]
            self.base, self.test = base, test
            if closer == ")":
                self.joined = joined  # a $(..) or ( .. ) has its own operators
        return r

    def _keyword(self, w):
        """Keep the if/then/fi, while/do/done nesting; a word out of place is a syntax error
        (bash refuses it, so what it means is not known)."""
        top = self.open[-1] if len(self.open) > self.base else ""
        if w in _OPENS:
            self.open.append(w)
            return
        want = _AFTER.get(w)
        if want is None:
            return
        if top not in want:
            self.ctx.error("syntax error: unexpected %s" % w)
            return
        if w in ("fi", "done"):
            self.open.pop()
        else:
            self.open[-1] = w
        if w == "do":
            self._loop_carries()

    def _loop_carries(self):
        """A loop body runs again but is judged once: a cd, a PATH or an exec in the command
        changes where, through which PATH and on which stdin its earlier commands run on a
        later turn (`for i in 1 2; do rm x/y; cd z; done`)."""
        words = self.words_of_text()
        ctx = self.ctx
        if words & _MOVES and ctx.cwd is not DYNAMIC:
            ctx.cwd = DYNAMIC
        if any(w[:5] == "PATH=" or w[:6] == "PATH+=" or w == "PATH" for w in words):
            ctx.path_changed = True
        if "exec" in words and ctx.exec_stdin is None:
            from core.shell.lexer import Redirect

            ctx.exec_stdin = Redirect(0, "<", "")  # what a later turn's exec gives: unseen

    def words_of_text(self):
        """The blank-separated words of this parser's text, once (a rough view for loops)."""
        if self._words is None:
            t = self.s
            for ch in ";&|()\n\t`":
                t = t.replace(ch, " ")
            self._words = frozenset(t.split(" ")) if len(t) < 262144 else _MOVES | {"exec"}
        return self._words

    def _list(self, closer):
        ctx = self.ctx
        self.piped = False
        self.prev = None
        dangling = ""  # a | && || still waiting for its command (newlines may come first)
        fresh = True  # no command yet since the list began or since its last ; & or newline
        while True:
            tok = self.token()
            k = tok[0]
            if dangling and (k == EOF or k == OP and tok[1] in _NO_COMMAND):
                ctx.error("syntax error: nothing after %s" % dangling)
                dangling = ""
            if k == WORD:
                v = tok[1]
                if dangling and v[:1] in (["}"], ["fi"], ["done"], ["esac"], ["then"], ["do"]):
                    ctx.error("syntax error: nothing after %s" % dangling)
                dangling = ""
                if len(v) == 1 and not tok[2] & F_QUOTED and v[0] in RESERVED:
                    if v[0] != "{":
                        self.funcbody = False  # `f() if ..; fi`: that compound is the body
                    r = self.reserved(v[0], closer)
                    if r is not None:
                        return r
                    fresh = v[0] in _LEADS  # `then`, `do`, `!`: a command comes next
                    continue
                fresh = False
                raw = self.simple(tok)
                self.piped = False
                if raw is not None:
                    self._joined(raw)
                    self.prev = raw
                    if not self.heredocs:
                        self.flush()
                continue
            if k == OP:
                v = tok[1]
                self.joined = v if v in ("&&", "||") else ";"
                if fresh and not dangling and v in _JOINERS:
                    ctx.error("syntax error: unexpected %s" % v)
                fresh = v in _JOINERS
                if v == "|" or v == "|&":
                    self.piped = True
                    dangling = v
                    continue
                if v == "&&" or v == "||":
                    dangling = v
                dangling = "" if v == "(" else dangling
                if v == "(":
                    if self.i < self.n and self.s[self.i] == "(" and self.arithmetic(self.i - 1):
                        start = self.i - 1
                        self.i = self.skip_parens(start)  # (( arithmetic ))
                        envwatch.arith_text(self, self.s[start : self.i])
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
                    ctx.error("syntax error: unexpected %s" % v)
                    continue
                self.piped = False
                self.prev = None
                continue
            if k == NL:
                if dangling:
                    continue  # `a |` newline `b`: still one pipeline (or and-or list)
                self.joined = ";"
                fresh = True
                self.piped = False
                self.prev = None
                self.flush()
                continue
            if k == REDIR:
                dangling = ""
                fresh = False
                raw = self.simple(tok)
                self.piped = False
                if raw is not None:
                    self._joined(raw)
                    self.prev = raw
                    if not self.heredocs:
                        self.flush()
                continue
            # EOF
            if self.funcbody:
                self.funcbody = False
                ctx.error("syntax error: a function without its body")
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
        self.queue.append(SAVE)
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Bound(TOO_COMPLEX + " (nesting deeper than %d levels)" % MAX_DEPTH)
        self.parse_list(")")
        self.depth -= 1
        self.queue.append(RESTORE)
        self.piped, self.prev = saved

    def reserved(self, w, closer):
        if w == "{":
            if len(self.open) > self.base and self.open[-1] in ("for", "select"):
                self.open.pop()  # `for i in a b; { ...; }`: the braces are the loop's body
            self.body(lambda: self.parse_list("}"))
            return None
        if w == "}":
            if closer == "}":
                return "}"
            self.ctx.error("syntax error: unexpected }")
            return None
        if w == "coproc":
            t = self.token()
            if t[0] == WORD and t[1] and t[1][0][:1] not in ("{", "(", ""):
                envwatch.name_changes(self.ctx, t[1][0])  # coproc NAME: NAME becomes an array
            self.back = t
        if w in SKIP_RESERVED:
            self._keyword(w)
            return None
        if w == "esac":
            if closer == "case":
                return "esac"
            self.ctx.error("syntax error: unexpected esac")
            return None
        if w == "time":
            t = self.token()
            if not (t[0] == WORD and t[1] == ["-p"]):
                self.back = t
            return None
        if w in ("for", "select"):
            self.open.append(w)
            t = self.token()
            if t[0] == OP and t[1] == "(" and self.i < self.n and self.s[self.i] == "(":
                start = self.i - 1
                self.i = self.skip_parens(start)
                envwatch.arith_text(self, self.s[start : self.i])
                return None
            if t[0] == WORD:
                names = t[1]
            else:
                self.back = t
                return None
            numbers = False  # `for i in 1 2 3`, `for i in {1..9}`: i holds a number
            while True:
                t = self.token()
                if t[0] == NL:
                    continue
                break
            if t[0] == WORD and t[1] == ["in"]:
                from core.shell import arith  # loaded for arithmetic, loops and assignments

                numbers = w == "for"
                static: list[str] = []
                dynamic = False
                while True:
                    t = self.token()
                    if t[0] != WORD:
                        break
                    numbers = numbers and all(arith.number_word(self.ctx, x) for x in t[1])
                    if t[2] & F_DYN:
                        dynamic = True
                    static.extend(t[1])
                if dynamic and len(self.ctx.listed) < 256:
                    self.ctx.listed.extend(static[:256])
                if not numbers:  # the variable takes each word (a glob: each match)
                    for name in names:
                        for v in static:
                            self.ctx.alternative("$" + name, v)
                            self.ctx.alternative("${%s}" % name, v)
                if not (t[0] == OP and t[1] == ";" or t[0] == NL):
                    self.back = t
            else:
                self.back = t
                for name in names:  # `for x; do`: x takes each positional parameter
                    self.ctx.alternative("$" + name, "$@")
                    self.ctx.alternative("${%s}" % name, "$@")
            for name in names:
                envwatch.name_changes(self.ctx, name)
                if numbers:
                    self.ctx.vars.number(name)
                else:
                    self.ctx.vars[name] = None
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
                    if t[0] == NL:
                        continue  # a test may go on over lines
                    if t[0] != WORD:
                        self.back = t
                        self.ctx.error("syntax error: [[ without ]]")
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
        if not self.heredocs:
            self.ctx.written.pop("/dev/fd/63", None)  # a <( ) is its own command's only
        words = []
        assigns = []
        appends = set()  # the assignments written NAME+=VALUE
        redirs = []
        ctx = self.ctx
        while True:
            k = tok[0]
            if k == WORD:
                ws, fl = tok[1], tok[2]
                if not words and fl & F_ASSIGN:
                    w = ws[0]
                    eq = w.find("=")
                    if w[eq - 1 : eq] == "+":
                        appends.add(len(assigns))
                    assigns.append((w[:eq].rstrip("+"), w[eq + 1 :], bool(fl & F_DYN)))
                else:
                    if not words and self.funcdef():
                        self.ctx.funcs.add(ws[0] if ws else "")
                        self.funcbody = True
                        return None
                    words.extend(ws)
                    if fl & F_DYN:
                        self.dyn.update(ws)
                        for w in ws:
                            if w[:1] == "-":
                                self.dyn.update(_attached(w))
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
                    if t[2] & F_DYN:
                        self.dyn.add(target)  # a here-string of an unseen expansion
                redirs.append(r)
            else:
                self.back = tok
                break
            tok = self.token()
        if not words and not redirs:
            from core.shell import arith

            for k, (name, val, dyn) in enumerate(assigns):
                envwatch.note_assign(ctx, name, val, self)
                envwatch.value_code(None, val, self)
                if k in appends:  # f+=x: the old value, then x
                    new = None if dyn else _appended(ctx.vars.get(name), val)
                    if new is None and not dyn and not (val[:1] == "(" and val[-1:] == ")"):
                        ctx.setvar(name, None)  # an old value nobody saw: "$f" may be x
                        ctx.alternative("$" + name, val)
                        ctx.alternative("${%s}" % name, val)
                        continue
                    val = val if new is None else new  # a(..) on unknown elements: the new
                if not arith.assigned(self, name, val):
                    ctx.setvar(name, None if dyn and not val.startswith("$(mktemp") else val)
                if not dyn and ("$" in val or "`" in val):
                    ctx.held[name] = val  # literal code text: ${X@P} runs it
            return None
        raw = Raw(words, assigns, redirs, self.piped, self.prev)
        self.queue.append(raw)
        if self.heredocs and words and words[0] in _SETS_POSITIONALS:
            # judged only once the heredoc body is read, but the words after it on this line
            # are expanded now: $1.. and "$@" there are not known
            self.pos = DYNPOS
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


def _appended(old, val: str):
    """NAME+=VAL: the new value when the old one is known (an array's (..) text takes the new
    elements), else None."""
    if not isinstance(old, str):
        return None
    if old[:1] == "(" and old[-1:] == ")":
        return old[:-1] + " " + val[1:] if val[:1] == "(" and val[-1:] == ")" else None
    return old + val


def _attached(w: str) -> list[str]:
    """The values an option word made by a substitution may carry: after its first `=`
    (--expression=$(..)) and after the first few letters of a short-option cluster
    (-e$(..), -ne$(..)).  A program reads them as its own words."""
    out = [w[k:] for k in range(2, min(len(w), 8))]
    eq = w.find("=")
    if eq > 0:
        out.append(w[eq + 1 :])
    return out
