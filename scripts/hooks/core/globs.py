"""Shell-style glob matching (bash semantics: * ? [seq] [!seq] [^seq] [[:class:]]) without
importing `re`, which costs several milliseconds on every hook call."""

from __future__ import annotations


def _glob(p: str, s: str) -> bool:
    """fnmatch.fnmatchcase without importing re: * ? [seq] [!seq]."""
    pi = si = 0
    np_ = len(p)
    ns = len(s)
    star = -1
    mark = 0
    while si < ns:
        if pi < np_:
            c = p[pi]
            if c == "*":
                star = pi
                mark = si
                pi += 1
                continue
            if c == "?":
                pi += 1
                si += 1
                continue
            if c == "[":
                end, ok = _cls(p, pi, s[si])
                if end >= 0:
                    if ok:
                        pi = end
                        si += 1
                        continue
                elif s[si] == "[":
                    pi += 1
                    si += 1
                    continue
            elif c == s[si]:
                pi += 1
                si += 1
                continue
        if star >= 0:
            pi = star + 1
            mark += 1
            si = mark
            continue
        return False
    while pi < np_ and p[pi] == "*":
        pi += 1
    return pi == np_


# bash's [:class:] names. upper and lower accept any cased letter: a name may have been case
# folded before matching, and a wider match only ever finds more protected paths.
_CLASSES = {
    "alpha": str.isalpha,
    "digit": lambda c: "0" <= c <= "9",
    "alnum": str.isalnum,
    "upper": lambda c: c.isupper() or c.islower(),
    "lower": lambda c: c.isupper() or c.islower(),
    "space": str.isspace,
    "blank": lambda c: c in " \t",
    "punct": lambda c: c.isprintable() and not c.isalnum() and not c.isspace(),
    "print": str.isprintable,
    "graph": lambda c: c.isprintable() and not c.isspace(),
    "cntrl": lambda c: not c.isprintable(),
    "xdigit": lambda c: c in "0123456789abcdefABCDEF",
    "word": lambda c: c.isalnum() or c == "_",
}


def _bracket_item(p: str, j: int, ch: str) -> tuple[int, bool]:
    """p[j:] starts `[:name:]`, `[=c=]` or `[.c.]` inside a bracket expression: (index after
    it, ch matched), or (-1, False) when it is not one (the `[` is then an ordinary member).
    An unknown class name matches every character: more matches only find more protected paths."""
    kind = p[j + 1]
    end = p.find(kind + "]", j + 2)
    if end < 0:
        return -1, False
    name = p[j + 2 : end]
    if kind == ":":
        test = _CLASSES.get(name)
        return end + 2, True if test is None else bool(test(ch))
    return end + 2, ch == name or len(name) != 1


def _cls(p: str, i: int, ch: str) -> tuple[int, bool]:
    """p[i] == '[': (index after the class, matched) or (-1, False) when unclosed. As bash:
    `[!...]` and `[^...]` negate, `[:alpha:]`-style classes and `[=c=]`/`[.c.]` are members."""
    j = i + 1
    n = len(p)
    neg = j < n and p[j] in "!^"
    if neg:
        j += 1
    start = j
    ok = False
    while j < n:
        c = p[j]
        if c == "]" and j > start:
            return j + 1, ok != neg
        if c == "[" and j + 1 < n and p[j + 1] in ":=.":
            end, hit = _bracket_item(p, j, ch)
            if end >= 0:
                ok = ok or hit
                j = end
                continue
        if j + 2 < n and p[j + 1] == "-" and p[j + 2] != "]":
            if c <= ch <= p[j + 2]:
                ok = True
            j += 3
            continue
        if c == ch:
            ok = True
        j += 1
    return -1, False


def fnmatchcase(name: str, pattern: str) -> bool:
    """fnmatch.fnmatchcase(name, pattern), case-sensitive."""
    return _glob(pattern, name)
