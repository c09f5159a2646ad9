"""Heredoc bodies for the parser: read at the newline after their command, in order.

`Heredoc` is a mixin of core.shell.parser.Parser.  A body's delimiter ends it only on a line
of its own (after leading tabs for <<-); an unquoted delimiter makes the body expand, so
the substitutions inside it run and are parsed.  What the body feeds (a file, a shell, an
interpreter) is judged later, from Redirect.body.
"""

from __future__ import annotations

from core.shell.lexer import Lexer


class Heredoc(Lexer):
    """Reads the pending heredoc bodies (a mixin of Parser)."""

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
                ctx.budget.spend(1)
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
                sub = self.child(body, self.pos, self.arg0)
                sub.dq(0, [], False)
                sub.flush()
        self.heredocs = []
        self.i = i
