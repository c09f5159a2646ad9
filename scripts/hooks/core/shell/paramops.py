"""The operators of ${...} on a value the analysis knows (${v#p}, ${v:o:l}, ${v/p/r},
${v^^}, ${v@L} ...) and bash's field splitting at $IFS: the text bash makes, or None."""

from __future__ import annotations

from core.globs import fnmatchcase


def ifs_split(v: str, ifs: str) -> list[str]:
    """bash's field splitting of an unquoted expansion: IFS whitespace runs separate and are
    trimmed at the ends; each other IFS character ends a field (empty ones too)."""
    if not ifs:
        return [v] if v else []
    white = [c for c in ifs if c in " \t\n"]
    out: list[str] = []
    cur: list[str] = []
    i, n = 0, len(v)
    while i < n and v[i] in white:
        i += 1
    while i < n:
        ch = v[i]
        if ch not in ifs:
            cur.append(ch)
            i += 1
            continue
        out.append("".join(cur))
        cur = []
        i += 1
        while i < n and v[i] in white:
            i += 1
        if ch in white and i < n and v[i] in ifs:
            i += 1  # `a , b`: whitespace around a delimiter is part of it
            while i < n and v[i] in white:
                i += 1
    if cur:
        out.append("".join(cur))
    return out


def _at_op(v: str, op: str) -> str | None:
    """${v@U} ${v@u} ${v@L} ${v@E} ${v@Q}: the value bash makes (None for the others)."""
    if op == "U":
        return v.upper()
    if op == "u":
        return v[:1].upper() + v[1:]
    if op == "L":
        return v.lower()
    if op == "E":  # backslash escapes decoded as $'...' does
        from core.shell.printfmt import escapes

        got = escapes(v)
        return None if got is None else got[0]
    if op == "Q":
        return "'" + v.replace("'", "'\\''") + "'"
    return None


def strip_affix(v: str, pat: str, op: str, ctx) -> str:
    """${v#pat} ${v##pat} ${v%pat} ${v%%pat}: v without its shortest or longest matching
    prefix or suffix (pat is a glob)."""
    ctx.budget.spend(len(v) + len(pat))
    n = len(v)
    order = range(n + 1) if len(op) == 1 else range(n, -1, -1)
    for k in order:
        if op[0] == "#" and fnmatchcase(v[:k], pat):
            return v[k:]
        if op[0] == "%" and fnmatchcase(v[n - k :], pat):
            return v[: n - k]
    return v


def transform(v: str, rest: str, ctx) -> str | None:
    """${v:off} ${v:off:len} ${v^} ${v^^} ${v,} ${v,,} ${v/p/r} ${v//p/r} ${v/#p/r} ${v/%p/r}
    with literal operands: the value bash makes; None when the analysis cannot tell."""
    if len(v) > 256 or any(ch in rest for ch in "$`\\'\"(){}"):
        return None
    ctx.budget.spend(len(v) * 4 + len(rest))
    op = rest[:1]
    if op == ":":
        parts = rest[1:].split(":")
        try:
            nums = [int(x.strip() or "0") for x in parts]
        except ValueError:
            return None
        if len(nums) > 2:
            return None
        start = nums[0]
        if start < 0:
            start = max(0, len(v) + start)
        out = v[start:]
        if len(nums) == 2:
            ln = nums[1]
            out = out[:ln] if ln >= 0 else out[: max(0, len(out) + ln)]
        return out
    if op in "^,":
        f = str.upper if op == "^" else str.lower
        every = rest[1:2] == op
        pat = rest[2:] if every else rest[1:]
        if not pat:
            return f(v) if every else f(v[:1]) + v[1:]
        # ${v^^pat} ${v,pat}: the letters (each, or the first) that match the pattern
        if every:
            return "".join(f(ch) if fnmatchcase(ch, pat) else ch for ch in v)
        return f(v[:1]) + v[1:] if v and fnmatchcase(v[0], pat) else v
    if op == "@":
        return _at_op(v, rest[1:])
    if op == "/":
        if len(v) > 64:
            return None  # each position tries each end: keep it bounded
        body = rest[1:]
        mode = ""
        if body[:1] in "/#%":
            mode, body = body[:1], body[1:]
        pat, _, rep = body.partition("/")
        if not pat:
            # ${v/#/p} and ${v/%/s} put p before and s after; ${v//} changes nothing
            return rep + v if mode == "#" else v + rep if mode == "%" else v
        n = len(v)
        if mode == "#":
            for k in range(n, -1, -1):
                if fnmatchcase(v[:k], pat):
                    return rep + v[k:]
            return v
        if mode == "%":
            for k in range(n + 1):
                if fnmatchcase(v[k:], pat):
                    return v[:k] + rep
            return v
        pieces: list[str] = []
        i = 0
        while i <= n:
            for j in range(n, i - 1, -1):
                if j > i and fnmatchcase(v[i:j], pat):
                    pieces.append(rep)
                    i = j
                    break
            else:
                if i < n:
                    pieces.append(v[i])
                i += 1
                continue
            if mode != "/":
                pieces.append(v[i:])
                return "".join(pieces)
        return "".join(pieces)
    return None
