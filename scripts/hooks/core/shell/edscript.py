"""ed's command language, for a script ed reads on stdin (`ed -s f <<< 'w g'`): which files
it writes (w W wq f), reads (r e E), and which shell commands it runs (!cmd, r !cmd, e !cmd,
w !cmd).  A command this module does not know makes the script unknown: ed's language is
small and closed, so anything else is not ed's."""

from __future__ import annotations

# commands with no file or program operand (after an optional address)
_PLAIN = frozenset("dhHjlnpPqQuxy=#")
_TEXT = frozenset("aci")  # text follows, up to a line holding only "."
_MOVE = frozenset("mt")  # a destination address follows
_ADDR = frozenset("0123456789.$,;+-^ \t")


def judge(c, body: str, default: str | None, p) -> None:
    """Add the script's reads, writes and commands to c; c.flag(unknown) when a line is not
    a command ed knows or a name is built by an expansion the analysis cannot see."""
    p.ctx.budget.spend(len(body) // 3 + 1)  # measured: about 0.3 us a character
    lines = body.split("\n")
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        i += 1
        if line.endswith("\\"):
            c.flag("ed command list continued over lines", unknown=True)
            return
        cmd, default = _command(c, _skip_address(line), default, p)
        if cmd is None:
            return
        if cmd in _TEXT:
            while i < n and lines[i] != ".":
                i += 1  # text lines: not commands
            i += 1


def _skip_address(line: str) -> str:
    """The line after its address part (numbers, . $ , ; + - marks, /re/ ?re?)."""
    k = 0
    n = len(line)
    while k < n:
        ch = line[k]
        if ch in _ADDR:
            k += 1
        elif ch == "'" and k + 1 < n:
            k += 2  # a mark
        elif ch in "/?":
            k += 1
            while k < n and line[k] != ch:
                k += 2 if line[k] == "\\" else 1
            k += 1
        else:
            break
    return line[k:]


def _command(c, rest: str, default: str | None, p):
    """One command (address removed): (its letter, the default file after it); (None, _)
    when the script is unknown."""
    if rest == "":
        return "", default  # print the next line
    ch = rest[0]
    arg = rest[1:]
    if ch == "!":
        run(c, arg, default, p)
        return ch, default
    if ch in "wW":
        if arg[:1] == "q":
            arg = arg[1:]
        target = arg.strip()
        if target[:1] == "!":
            run(c, target[1:], default, p)  # the buffer is piped to it
            return ch, default
        if not _plain_name(c, target):
            return None, default
        target = target or default or ""
        if target:
            c.writes.append(target)
        return ch, default or target
    if ch in "reEf":
        target = arg.strip()
        if target[:1] == "!" and ch != "f":
            run(c, target[1:], default, p)
            return ch, default
        if not _plain_name(c, target):
            return None, default
        if target:
            if ch == "f":
                c.writes.append(target)  # the name later w commands write
            else:
                c.reads.append(target)
            if ch != "r" or default is None:
                default = target
        return ch, default
    if ch in "gvGV":
        if not arg:
            c.flag("ed global command without a pattern", unknown=True)
            return None, default
        d = arg[0]
        k = 1
        while k < len(arg) and arg[k] != d:
            k += 2 if arg[k] == "\\" else 1
        return _command(c, arg[k + 1 :], default, p)
    if ch == "s" or ch in _PLAIN or ch in _TEXT or ch in _MOVE or ch in "kz":
        return ch, default
    c.flag("ed command %r the hooks do not know" % ch, unknown=True)
    return None, default


def _plain_name(c, name: str) -> bool:
    """A file name ed takes as it is: one with $ or ` is the source text of an expansion
    the analysis could not see (a here-string of "$F")."""
    if "$" in name or "`" in name:
        c.flag("ed file name built by an expansion the hooks cannot see", unknown=True)
        return False
    return True


def run(c, cmd: str, default: str | None, p) -> None:
    """ed runs cmd with /bin/sh; an unescaped % there is the default file's name."""
    if "%" in cmd:
        if default is None:
            c.flag("ed command names the default file, which is not known", unknown=True)
            return
        cmd = cmd.replace("%", default)
    c.code.append(cmd)
    p.subparse(cmd)
