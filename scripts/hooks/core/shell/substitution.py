"""Bash expansions for the parser: parameter, command, process and arithmetic substitution,
ANSI-C quoting and backticks.

`Substitution` is a mixin of core.shell.parser.Parser: the commands inside $( ), ` `, <( )
and >( ) run here, so they are parsed with the same parser (a `cd` inside does not leak
out); a word's value is static when the analysis can know it (a variable set earlier in the
command, $HOME, a parameter form with a static default) and DYN otherwise.
"""

from __future__ import annotations

from core.shell import envwatch
from core.shell.budget import CHAR_COST, TOO_COMPLEX
from core.shell.lexer import (
    ALT,
    DIGITS,
    DYN,
    DYNAMIC,
    DYNPOS,
    LIT,
    MAX_DEPTH,
    NAME0,
    NAMEC,
    QUOTED,
    RESTORE,
    SAVE,
    SPLIT,
    WORD,
    Bound,
    Lexer,
    ansi_escape,
    backtick_escape,
    scan_escapes,
)
from core.shell.paramops import ifs_split, strip_affix, transform

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing imports re: not on the hot path
    from typing import Any

    from core.shell.lexer import Ctx


class Substitution(Lexer):
    """$-expansions, backticks and process substitution (a mixin of Parser)."""

    # Parser's (its Lexer's) attributes, declared for the type checker
    s: str
    T: str
    n: int
    ctx: Ctx
    pos: Any  # set by Parser: positional parameters, or DYNPOS in a function body
    arg0: str

    def child(self, text: str, pos: Any, arg0: str) -> Lexer:
        raise NotImplementedError  # Parser's

    def subparse(self, text, pos=None, arg0=None, keep_cwd=False):
        raise NotImplementedError  # Parser's

    def ansi_c(self, i, segs):
        """$'...' with its escapes decoded ($'\\x72\\x6d' is rm)."""
        text, end = scan_escapes(self.s, i, "'", ansi_escape, self.ctx)
        if end < 0:
            self.ctx.error("unbalanced quote")
            end = self.n
        segs.append((text, QUOTED))
        return end

    def dollar(self, i, quoted, segs):
        self.ctx.budget.spend(4)
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
            if s.startswith("((", i + 1) and self.arithmetic(i + 1):
                end = self.skip_parens(i + 1)
                envwatch.arith_text(self, s[i:end])
                segs.append((s[i:end], DYN))
                return end
            return self.cmdsubst(i, segs, quoted)
        if nx == "[":  # $[ ]: the old spelling of $(( ))
            from core.shell import arith  # loaded for arithmetic only

            end = self.brackets(i + 1)
            arith.check(self, s[i + 2 : end - 1])
            segs.append((s[i:end], DYN))
            return end
        if nx == "{":
            end = self.braced(i + 2)
            self.param(s[i + 2 : end - 1], quoted, segs, s[i:end])
            return end
        if nx in NAME0:
            j = i + 2
            n = min(self.n, i + 256)  # longer names: the rest reads as text
            while j < n and s[j] in NAMEC:
                j += 1
            self.var(s[i + 1 : j], quoted, segs, s[i:j])
            return j
        if nx in DIGITS or nx in "@*#?$!-":
            self.var(nx, quoted, segs, s[i : i + 2])
            return i + 2
        segs.append(("$", QUOTED if quoted else LIT))
        return i + 1

    def pos_unknown(self):
        """$1.. and "$@" are not known: in a function body, or in a loop whose later turns
        may see a `set --` or `shift` from an earlier one."""
        if self.pos is DYNPOS:
            return True
        return "do" in getattr(self, "open", ()) and ("set" in self.s or "shift" in self.s)

    def lookup(self, name):
        """A variable's value when the analysis can know it, else None."""
        if self.ctx.vars.refs:
            name = self.ctx.vars.target(name)  # declare -n r=x: $r is x's value
        if name == "HOME":
            return self.ctx.vars.get("HOME", self.ctx.home)
        if self.pos_unknown() and (name in DIGITS and name != "0" or name in "@*#"):
            return None
        if name in DIGITS:
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
        if isinstance(v, str) and v[:1] == "(" and v[-1:] == ")":
            return None  # an array: $a is its first element (globopts follows the elements)
        if v is not self:
            if v:  # each use copies the value: `a=$a$a` repeated doubles it every time
                ctx.budget.spend(len(v) // CHAR_COST + 1)
            return v
        if name == "PWD":
            cwd = ctx.cwd
            return "." if cwd is None else None if cwd is DYNAMIC else cwd
        if ctx.env:
            return ctx.env.get(name)
        return None

    def var(self, name, quoted, segs, src):
        if name == "IFS":
            ifs = self.ctx.vars.get("IFS", " ")
            if ifs is None or not quoted and ifs.strip(" \t\n"):
                segs.append((src, DYN))  # a value the analysis does not follow
            else:
                segs.append((ifs, QUOTED) if quoted else ("", SPLIT))
            return
        v = self.lookup(name)
        if v is None:
            segs.append((src, DYN))
            return
        self.value(v, quoted and name != "@", segs, src)

    def value(self, v: str, quoted: bool, segs: list, src: str) -> None:
        """A value the analysis knows, in a word: as it is inside quotes; unquoted, split into
        fields at $IFS (its default, or a value set earlier) and each field a glob bash
        expands (`x='.e*'; cat $x` reads .env)."""
        if quoted:
            segs.append((v, QUOTED))
            return
        ifs = self.ctx.vars.get("IFS", " \t\n")
        again = "do" in getattr(self, "open", ()) or self.pos is DYNPOS  # a loop, a function
        if ifs is None or again and "IFS" in self.s:
            # split on a value the analysis does not follow (one a loop or a later call of
            # a function may have set by then)
            segs.append((src, DYN))
            return
        fields = ifs_split(v, ifs)
        if not fields:
            if v and segs:
                segs.append(("", SPLIT))  # only separators: the words around it part
            return
        if v[:1] in ifs and v[:1] in " \t\n":
            segs.append(("", SPLIT))
        for k, f in enumerate(fields):
            if k:
                segs.append(("", SPLIT))
            globby = "*" in f or "?" in f or "[" in f
            segs.append((f, DYN if globby else QUOTED))  # DYN: a glob, not a literal name
        if v[-1:] in ifs:
            segs.append(("", SPLIT))

    def param(self, inner, quoted, segs, src):
        """${...}: resolve the simple forms, else dynamic."""
        self.param_arith(inner)
        if not inner:
            segs.append((src, DYN))
            return
        if inner[-2:] == "@P":
            self.prompt(inner[:-2], segs, src)
            return
        if inner[:3] == "IFS" and inner[3:4] not in NAMEC and "IFS" not in self.ctx.vars:
            segs.append((" ", QUOTED) if quoted else ("", SPLIT))  # ${IFS:0:1} and the like
            return
        j = 0
        n = len(inner)
        if inner[0] in NAME0:
            while j < n and inner[j] in NAMEC:
                j += 1
        elif inner[0] in DIGITS:
            while j < n and inner[j] in DIGITS:
                j += 1
        elif inner[0] in "@*#?$!-" and n == 1:
            j = 1
        elif inner[0] in "@*" and inner[1] in _OP_START:
            j = 1  # ${@:-w} ${*#p}: the parameters, then the operator
        elif inner[0] == "!" and self.indirect(inner[1:], quoted, segs, src):
            return
        else:
            segs.append((src, DYN))
            return
        name = inner[:j]
        rest = inner[j:]
        if len(name) > 1 and name[0] in DIGITS:
            k = int(name)
            pos = self.pos or ()
            v = (
                self.arg0
                if k == 0
                else None
                if pos is DYNPOS or self.pos_unknown()
                else pos[k - 1]
                if k <= len(pos)
                else ""
            )
        else:
            v = self.lookup(name)
        if rest == "":
            if v is None:
                segs.append(("$" + name if name[0] in NAME0 else src, DYN))
            elif name[0] in DIGITS and len(name) > 1:
                self.value(v, quoted, segs, src)
            else:
                self.var(name, quoted, segs, src)
            return
        self.operator_form(name, v, rest, segs, src, quoted)

    def indirect(self, name: str, quoted, segs: list, src: str) -> bool:
        """${!name}: the variable whose name `name` holds, when that is a plain name the
        analysis knows (False leaves the word dynamic; param_arith judged what bash
        evaluates in it)."""
        if not name or name[0] not in NAME0 or any(ch not in NAMEC for ch in name):
            return False
        target = self.lookup(name)
        if not target or target[0] not in NAME0 or any(ch not in NAMEC for ch in target):
            return False
        if target == name or target == "HOME" and name == "HOME":
            return False
        self.param(target, quoted, segs, src)
        return True

    def prompt(self, body: str, segs: list, src: str) -> None:
        """${X@P}: bash expands X's value as a prompt string, which runs the $( ) and ` `
        in it (even inside quotes).  A value with a $ or ` is code (the substitutions the
        analysis can see in it are judged as commands); a value it cannot see (or an array,
        an indirection) is code nobody saw; octal escapes (\\044 is $) can spell one."""
        ctx = self.ctx
        v = None
        if body in ("@", "*"):
            v = None if self.pos_unknown() else " ".join(self.pos or ())
        elif body.isdigit() or body[:1] in NAME0 and all(ch in NAMEC for ch in body):
            if body.isdigit() and len(body) > 1:
                pos = self.pos or ()
                k = int(body)
                v = None if self.pos_unknown() else pos[k - 1] if k <= len(pos) else ""
            else:
                v = self.lookup(body)
        if v is None:
            ctx.error(
                "${%s@P} expands a value the hooks cannot see as a prompt (bash runs the"
                " commands in it)" % body
            )
            ctx.prompted = True
            held = ctx.held.get(body)
            if held is not None:
                self.prompt_code(held)  # the literal text it was last given
            for alt in ctx.alts.get("$" + body, ()):  # a loop word, a ${X:=w} default
                if "$" in alt or "`" in alt:
                    self.prompt_code(alt)
        elif "\\" in v and any(v[k + 1 : k + 2] in _OCTAL for k in _positions(v, "\\")):
            ctx.error("${%s@P}: an octal escape in the prompt can spell a command" % body)
        elif "$" in v or "`" in v:
            # a word made by an expansion keeps its source text here ($v, "$1"): what it
            # holds was not seen, so the substitutions that can be seen are judged too
            ctx.error("${%s@P} expands code as a prompt" % body)
            self.prompt_code(v)
        elif "\\" not in v:
            segs.append((v, QUOTED))
            return
        segs.append((src, DYN))

    def prompt_code(self, text: str) -> None:
        """The substitutions of a prompt text, judged as commands: a prompt is expanded as
        if double-quoted, so those inside single quotes run too."""
        self.subparse(": " + text.replace("'", " "))

    def param_arith(self, inner: str) -> None:
        """The parts of ${...} bash evaluates: a subscript (${a[i]}, ${#a[i]}), the offset and
        length of ${x:off:len}, and the name ${!x} holds."""
        from core.shell import arith

        body = inner[1:] if inner[:1] in "#!" else inner
        n = len(body)
        j = 0
        while j < n and body[j] in NAMEC:
            j += 1
        if j == 0 and body[:1] in ("@", "*"):
            j = 1  # ${@:off:len}
        if inner[:1] == "!" and j and body[j:] == "" and not body.isdigit():
            target = self.lookup(body)
            if target is None and body not in self.ctx.vars.numbers:
                self.ctx.error("${!%s} uses a name the hooks cannot see (bash evaluates it)" % body)
            elif target and "[" in target and ("$" in target or "`" in target):
                # bash expands the subscript of the name it holds: $( ) in it runs
                self.ctx.error("${!%s} names a subscript with code in it" % body)
        k = j
        if body[k : k + 1] == "[":
            k = body.find("]", k)
            k = n if k < 0 else k + 1
            sub = body[j + 1 : k - 1]
            if sub not in ("@", "*") and body[:j] not in self.ctx.vars.assoc:
                arith.check(self, sub)
        if j and body[k : k + 1] == ":" and body[k + 1 : k + 2] not in ("-", "=", "+", "?"):
            for part in body[k + 1 :].split(":")[:2]:
                arith.check(self, part)

    def brackets(self, i: int) -> int:
        """s[i] == '[': index after its matching ']', parsing substitutions inside."""
        s = self.s
        n = self.n
        depth = 0
        while i < n:
            self.ctx.budget.spend(1)
            c = s[i]
            if c == "[":
                depth += 1
            elif c == "]":
                depth -= 1
                if depth <= 0:
                    return i + 1
            elif c == "$":
                i = self.dollar(i, True, [])
                continue
            elif c == "`":
                i = self.backtick(i, [])
                continue
            elif c == "\\":
                i += 1
            i += 1
        self.ctx.error("unbalanced $[")
        return n

    def operator_form(self, name: str, v, rest: str, segs: list, src: str, quoted=True) -> None:
        """${X:-w} ${X:=w} ${X:+w} ${X:?w} ${X#p} ${X%p} (with or without the colon, ## %%):
        the value when the analysis knows X; when it does not, the default forms stand for
        both words they can make, X's value and w (so `cat "${X:=.env}"` reads .env)."""
        op = rest[:2] if rest[:2] in _OPS2 else rest[:1]
        kind = op[-1:]
        dyn = ("$" + name if name[0] in NAME0 else src, DYN)
        if op not in _OPS:
            # ${X:1} ${X^^} ${X,,} ${X/a/b}: the result when X is known; when it is not,
            # X unset makes it empty, so the word also stands for the rest of it
            out = transform(v, rest, self.ctx) if v is not None else None
            if out is not None:
                self.value(out, quoted, segs, src)
            elif v is None and rest[:1] in ":^,/@":
                segs.append((dyn[0] + "\0", ALT))
            else:
                segs.append((src, DYN))
            return
        word = rest[len(op) :]
        static = True
        if any(ch in word for ch in "$`\\'\"~"):
            word, static = self.default_word(word)
        if kind in "-=":
            if v:
                self.value(v, quoted, segs, src)
            elif v == "" and static:
                if kind == "=":
                    self.ctx.vars[name] = word
                self.value(word, quoted, segs, src)
            else:
                segs.append((src + ("\0" if quoted else "\0\1") + word, ALT))
                if kind == "=" and name[0] in NAME0:  # "$X" later may be the default
                    self.ctx.alternative("$" + name, word)
                    self.ctx.alternative("${%s}" % name, word)
        elif kind == "+":
            if v is None or v and not static:
                segs.append((src + ("\0" if quoted else "\0\1") + word, ALT))
            else:
                self.value(word if v else "", quoted, segs, src)
        elif kind == "?":
            if v:
                self.value(v, quoted, segs, src)
            else:
                segs.append(dyn)  # unset: bash stops with an error
        elif v is None:
            segs.append((dyn[0] + "\0", ALT))  # X unset: the prefix/suffix forms give ''
        elif not static:
            segs.append((src, DYN))
        else:
            self.value(strip_affix(v, word, op, self.ctx), quoted, segs, src)

    def default_word(self, text: str) -> tuple[str, bool]:
        """The w of ${X:-w} after its own expansions and quote removal ($HOME, ~, quotes,
        $( ) dynamic): (its text, True when nothing in it is dynamic).  The commands inside
        were judged when the braces were scanned, so they are not judged twice."""
        ctx = self.ctx
        finalise = ctx.finalise
        ctx.finalise = _skip
        try:
            sub = self.child(text, self.pos, self.arg0)
            out = []
            static = True
            i = 0
            n = len(text)
            while i < n:
                while i < n and text[i] in " \t\n":
                    i += 1
                if i >= n:
                    break
                segs, i = sub.lex_word(i)
                w = "".join(t for t, k in segs if k != SPLIT)
                if segs and segs[0][1] == LIT and w[:1] == "~":
                    w = self.tilde(w)
                out.append(w)
                static = static and all(k != DYN for _, k in segs)
        finally:
            ctx.finalise = finalise
        return " ".join(out), static

    def cmdsubst(self, i, segs, quoted=True):
        """$( list ): its commands run here; the word's value is dynamic, unless it is one
        echo or printf of words the analysis knows (`$(printf .env)`)."""
        first = len(self.ctx.out)
        saved = self.piped, self.prev, self.back
        self.back = None
        self.queue.append(SAVE)
        self.i = i + 2
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Bound(TOO_COMPLEX + " (nesting deeper than %d levels)" % MAX_DEPTH)
        self.parse_list(")")
        self.depth -= 1
        self.queue.append(RESTORE)
        self.piped, self.prev, self.back = saved
        end = self.i
        inner = self.s[i + 2 : end - 1].strip()
        if inner == "pwd":
            cwd = self.ctx.cwd
            if cwd is not DYNAMIC:
                segs.append(("." if cwd is None else cwd, QUOTED))
                return end
        out = self.printed(first)
        if out is not None:
            self.value(out.rstrip("\n"), quoted, segs, self.s[i:end])
            return end
        segs.append((self.s[i:end], DYN))
        return end

    def printed(self, first: int, by=None) -> str | None:
        """What the one command parsed (by this parser, or `by`) since ctx.out[first] prints,
        when it is a plain echo or printf of static words (no function, alias, wrapper,
        redirect, nor -v)."""
        from core.shell import printfmt

        by = by or self
        cmds = self.ctx.out[first:]
        if len(cmds) != 1 or by.heredocs:
            return None
        c = cmds[0]
        argv = c.argv
        if (
            c.program not in ("echo", "printf")
            or argv[:1] != [c.program]
            or c.program in self.ctx.funcs
            or c.program in self.ctx.aliases
            or c.redirects
            or c.env
            or c.wrappers
            or c.unknown
            or any(w in by.dyn for w in argv)
        ):
            return None
        if c.program == "echo":
            # xpg_echo, posix mode or /bin/echo (enable -n) read options and backslashes
            # their own way; plain words print the same everywhere
            if any("\\" in w for w in argv) or argv[1:2] and argv[1][:1] == "-":
                return None
            return printfmt.echo(argv[1:])
        return printfmt.printf_argv(argv[1:])

    def backtick(self, i, segs, quoted=True):
        """`...`: old-style command substitution; its text is parsed again as code."""
        text, end = scan_escapes(self.s, i + 1, "`", backtick_escape, self.ctx)
        if end < 0:
            self.ctx.error("unbalanced backtick")
            end = self.n
        first = len(self.ctx.out)
        saved = self.ctx.cwd
        sub = self.child(text, self.pos, self.arg0)
        sub.run()  # as subparse does, keeping the parser to ask what it saw
        self.ctx.cwd = saved
        out = self.printed(first, sub)
        if out is not None:
            self.value(out.rstrip("\n"), quoted, segs, self.s[i:end])
        else:
            segs.append((self.s[i:end], DYN))
        return end

    def arithmetic(self, i: int) -> bool:
        """s[i:i+2] == '((': True when bash reads it as arithmetic, that is when the paren
        opened at i+1 closes right before another ')'.  Otherwise it is a subshell in a
        subshell (`((cmd) && cmd)`), as bash parses it.  No side effects: nothing inside is
        parsed here, so the caller can still parse it either way."""
        s = self.s
        T = self.T
        spend = self.ctx.budget.spend
        depth = 0
        k = i + 1
        while True:
            spend(1)
            j = T.find("\0", k)
            if j < 0:
                return False
            c = s[j]
            k = j + 1
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth <= 0:
                    return s[k : k + 1] == ")"
            elif c == "\\":
                k = j + 2
            elif c == "'":
                q = s.find("'", k)
                if q < 0:
                    return False
                k = q + 1
            elif c == '"':
                while True:
                    spend(1)
                    q = s.find('"', k)
                    if q < 0:
                        return False
                    b = s.find("\\", k, q)
                    if b < 0:
                        k = q + 1
                        break
                    k = b + 2

    def skip_parens(self, i):
        """s[i] == '(': index after its matching ')', parsing substitutions inside."""
        s = self.s
        n = self.n
        T = self.T
        depth = 0
        while True:
            self.ctx.budget.spend(1)
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
            self.ctx.budget.spend(1)
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

    def procsub(self, i):
        """<( list ) or >( list ): the commands run; the word is a /dev/fd path. What a plain
        echo or printf in it prints is that file's text (`source <(printf 'cat .env')` runs
        it); a second one in the same command makes the text unknown."""
        first = len(self.ctx.out)
        saved = self.piped, self.prev
        self.queue.append(SAVE)
        self.i = i + 2
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Bound(TOO_COMPLEX + " (nesting deeper than %d levels)" % MAX_DEPTH)
        self.parse_list(")")
        self.depth -= 1
        self.queue.append(RESTORE)
        self.piped, self.prev = saved
        if self.s[i] == "<":
            # the command being read now gets it; another one on the way (a second <( ), a
            # command waiting for its heredoc) makes the text unknown
            text = self.printed(first)
            seen = "/dev/fd/63" in self.ctx.written or self.heredocs
            self.ctx.written["/dev/fd/63"] = None if seen else text
        return (WORD, ["/dev/fd/63"], 0)


def _positions(text: str, ch: str) -> list[int]:
    """Indexes of ch in text."""
    out = []
    k = text.find(ch)
    while k >= 0:
        out.append(k)
        k = text.find(ch, k + 1)
    return out


def _skip(raw, parser) -> None:
    """A finaliser that judges nothing (a text parsed a second time)."""


_OCTAL = frozenset("01234567")
_OPS2 = (":-", ":=", ":+", ":?", "##", "%%")
_OPS = _OPS2 + ("-", "=", "+", "?", "#", "%")
_OP_START = frozenset(":-=+?#%/^,")  # what may follow a parameter's name in ${...}
