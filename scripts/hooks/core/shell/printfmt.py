"""What bash's `printf` and `echo` print, for the static forms the analysis follows
(`printf -v f '%s%s' .e nv`, `$(echo .e)nv`): None for anything else, so the value stays
dynamic. Bounded: a result over LIMIT characters is None."""

from __future__ import annotations

LIMIT = 4096
_SIMPLE = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r"}
_SIMPLE.update({"t": "\t", "v": "\v", "\\": "\\", '"': '"', "'": "'", "?": "?"})
_HEX = "0123456789abcdefABCDEF"


def escapes(text: str, arg: str = "") -> tuple[str, bool] | None:
    """Backslash escapes of a printf format (arg ""), a %b argument (arg "b": octal NNN or
    0NNN after the backslash) or an `echo -e` word (arg "echo": octal only 0NNN); a
    backslash-c in the last two stops all output. (text, stopped) or None."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch != "\\" or i + 1 >= n:
            out.append(ch)
            i += 1
            continue
        nx = text[i + 1]
        if nx in _SIMPLE:
            out.append(_SIMPLE[nx])
            i += 2
        elif nx == "c" and arg:
            return "".join(out), True
        elif nx in "01234567" and (arg != "echo" or nx == "0"):
            start = i + 2 if arg and nx == "0" else i + 1
            j = start
            while j < n and j < start + 3 and text[j] in "01234567":
                j += 1
            out.append(chr(int(text[start:j] or "0", 8) & 0xFF))
            i = j
        elif nx in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[nx]
            j = i + 2
            while j < n and j < i + 2 + width and text[j] in _HEX:
                j += 1
            if j == i + 2:
                out.append(text[i : i + 2])
            else:
                code = int(text[i + 2 : j], 16)
                if code > 0x10FFFF:
                    return None
                out.append(chr(code))
            i = j
        else:
            out.append(text[i : i + 2])
            i += 2
    return "".join(out), False


def printf(fmt: str, args: list[str]) -> str | None:
    """bash's `printf FMT ARGS...` for %s %b %c %d %i %% with flags, width and precision;
    the format is reused while arguments remain. None for anything else."""
    out: list[str] = []
    rest = list(args)
    for _ in range(64):
        used = 0
        i, n = 0, len(fmt)
        while i < n:
            ch = fmt[i]
            if ch == "\\":
                end = _escape_end(fmt, i)
                got = escapes(fmt[i:end])
                if got is None:
                    return None
                out.append(got[0])
                i = end
                continue
            if ch != "%":
                out.append(ch)
                i += 1
                continue
            j = i + 1
            while j < n and fmt[j] in "-+ #0":
                j += 1
            while j < n and fmt[j].isdigit():
                j += 1
            prec = None
            if j < n and fmt[j] == ".":
                k = j + 1
                while k < n and fmt[k].isdigit():
                    k += 1
                prec = int(fmt[j + 1 : k] or "0")
                j = k
            if j >= n:
                return None
            conv = fmt[j]
            spec = fmt[i + 1 : j]
            if conv == "%":
                out.append("%")
            elif conv in "sbcdi":
                arg = rest.pop(0) if rest else ""
                used += 1
                text = _convert(conv, arg, prec)
                if text is None:
                    return None
                if isinstance(text, tuple):  # %b met \c: nothing more is printed
                    out.append(_pad(text[0], spec, conv))
                    return "".join(out)[:LIMIT]
                out.append(_pad(text, spec, conv))
            else:
                return None
            i = j + 1
            if sum(map(len, out)) > LIMIT:
                return None
        if not rest or not used:
            return "".join(out)
    return None


def _escape_end(fmt: str, i: int) -> int:
    """The index after the escape at fmt[i] (a backslash)."""
    n = len(fmt)
    nx = fmt[i + 1 : i + 2]
    if nx in "01234567" and nx:
        j = i + 1
        while j < n and j < i + 4 and fmt[j] in "01234567":
            j += 1
        return j
    if nx in ("x", "u", "U"):
        width = {"x": 2, "u": 4, "U": 8}[nx]
        j = i + 2
        while j < n and j < i + 2 + width and fmt[j] in _HEX:
            j += 1
        return j
    return min(i + 2, n)


def _convert(conv: str, arg: str, prec: int | None):
    if conv == "s":
        return arg if prec is None else arg[:prec]
    if conv == "b":
        got = escapes(arg, "b")
        if got is None:
            return None
        text = got[0] if prec is None else got[0][:prec]
        return (text,) if got[1] else text
    if conv == "c":
        return arg[:1]
    v = arg.strip()
    if v[:1] in ("'", '"') and len(v) > 1:
        return str(ord(v[1]))  # 'x: the character's code
    sign = v[:1] if v[:1] in "+-" else ""
    digits = v[len(sign) :]
    if not digits:
        return "0"
    try:  # 0NN is octal, 0xNN hex, as C's strtol reads them
        if digits[:2].lower() == "0x":
            return str(int(sign + digits[2:], 16))
        return str(int(sign + digits, 8 if digits[:1] == "0" else 10))
    except ValueError:
        return None


def _pad(text: str, spec: str, conv: str) -> str:
    """A conversion's text after its flags (- + space 0) and width."""
    k = 0
    while k < len(spec) and spec[k] in "-+ #0":
        k += 1
    flags, width = spec[:k], spec[k:].split(".")[0]
    if conv in "di" and text[:1] != "-":
        text = ("+" if "+" in flags else " " if " " in flags else "") + text
    if not width:
        return text
    w = min(int(width), LIMIT)
    if "-" in flags:
        return text.ljust(w)
    if "0" in flags and conv in "di":
        sign = text[:1] if text[:1] in "+- " else ""
        return sign + text[len(sign) :].rjust(w - len(sign), "0")
    return text.rjust(w)


def echo(args: list[str]) -> str | None:
    """bash's builtin `echo ARGS...` (-n, -e, -E in any leading option words)."""
    newline, esc = True, False
    k = 0
    while k < len(args) and args[k][:1] == "-" and len(args[k]) > 1:
        flags = args[k][1:]
        if any(ch not in "neE" for ch in flags):
            break
        newline = newline and "n" not in flags
        for ch in flags:
            esc = True if ch == "e" else False if ch == "E" else esc
        k += 1
    text = " ".join(args[k:])
    if esc:
        got = escapes(text, "echo")
        if got is None:
            return None
        text, stopped = got
        if stopped:
            return text[:LIMIT]
    out = text + ("\n" if newline else "")
    return out if len(out) <= LIMIT else None


def printf_argv(args: list[str]) -> str | None:
    """`printf [-v NAME] [--] FMT ARGS...` as its words after `printf` (the -v pair taken
    out by the caller): its output, or None."""
    if args[:1] == ["--"]:
        args = args[1:]
    if not args or args[0][:1] == "-" and args[0] != "-":
        return None
    return printf(args[0], args[1:])
