"""Shell-style glob matching (fnmatch.fnmatchcase semantics: * ? [seq] [!seq]) without
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


def _cls(p: str, i: int, ch: str) -> tuple[int, bool]:
    """p[i] == '[': (index after the class, matched) or (-1, False) when unclosed."""
    j = i + 1
    n = len(p)
    neg = j < n and p[j] == "!"
    if neg:
        j += 1
    start = j
    ok = False
    while j < n:
        c = p[j]
        if c == "]" and j > start:
            return j + 1, ok != neg
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
