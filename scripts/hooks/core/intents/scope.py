"""Scope globs of an intent and the `.intentignore` exemptions, matched on project-relative
real paths. No `re`: a small matcher per path segment keeps the semantics explicit.

Scope globs are anchored at the project root (`src/auth/**` never matches `tmp/src/auth/x`):
`**` is any number of whole segments (none included), `*` and `?` stay inside one segment,
`[a-z]` / `[!a-z]` are classes, a trailing `/` or a plain directory name covers everything
under it (`src/*` stays one level). `.intentignore` lines follow .gitignore: a pattern without a `/` matches a name at
any depth, `#` starts a comment, `!` re-includes.
"""

from __future__ import annotations

import os

from core import pathnorm

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any


def _fold(s):
    return pathnorm.fold(s)


def normalise_pattern(pattern: object, project: str) -> tuple[str | None, str | None]:
    """(project-relative glob, error or None). `./`, `..`, backslashes and absolute paths
    inside the project are normalised; anything that leaves the project is an error."""
    if not isinstance(pattern, str) or not pattern.strip():
        return None, "a scope entry must be a non-empty string"
    p = pattern.strip().replace("\\", "/")
    directory = p.endswith("/")
    if p.startswith("~"):
        return None, "%r: a scope is relative to the project, not the home directory" % pattern
    if p.startswith("/"):
        root = project.rstrip("/") + "/"
        if not (_fold(p) + "/").startswith(_fold(root)):
            return None, "%r escapes the project (scopes are relative to %s)" % (pattern, project)
        p = p[len(root) :]
    parts: list[str] = []
    for seg in p.split("/"):
        if seg in ("", "."):
            continue
        if seg == "..":
            if not parts:
                return None, "%r escapes the project (`..` above its root)" % pattern
            parts.pop()
            continue
        parts.append(seg)
    if not parts:
        return "**", None  # the whole project
    out = "/".join(parts)
    if directory:
        out += "/**"
    return out, None


def _has_magic(seg):
    return any(c in seg for c in "*?[")


def _class(pat, i, ch):
    """Match ch against the class starting at pat[i] == '['. (matched, index after) or
    (None, i) when the bracket is not a class (then it is a literal '[')."""
    j = i + 1
    neg = j < len(pat) and pat[j] in "!^"
    if neg:
        j += 1
    start = j
    hit = False
    while j < len(pat) and (pat[j] != "]" or j == start):
        lo = pat[j]
        if j + 2 < len(pat) and pat[j + 1] == "-" and pat[j + 2] != "]":
            if lo <= ch <= pat[j + 2]:
                hit = True
            j += 3
        else:
            if ch == lo:
                hit = True
            j += 1
    if j >= len(pat):
        return None, i
    return hit != neg, j + 1


def match_segment(pat: str, name: str) -> bool:
    """fnmatch for one path segment: `*`, `?`, `[...]`; never crosses a `/`."""
    p = n = 0
    star_p, star_n = -1, 0
    while n < len(name):
        if p < len(pat):
            c = pat[p]
            if c == "*":
                star_p, star_n = p, n
                p += 1
                continue
            if c == "?":
                p += 1
                n += 1
                continue
            if c == "[":
                ok, nxt = _class(pat, p, name[n])
                if ok is None:
                    if name[n] == "[":
                        p += 1
                        n += 1
                        continue
                elif ok:
                    p, n = nxt, n + 1
                    continue
            elif c == name[n]:
                p += 1
                n += 1
                continue
        if star_p < 0:
            return False
        star_n += 1
        p, n = star_p + 1, star_n
    while p < len(pat) and pat[p] == "*":
        p += 1
    return p == len(pat)


def _match_parts(pats, parts):
    if not pats:
        return not parts
    head = pats[0]
    if head == "**":
        rest = pats[1:]
        return any(_match_parts(rest, parts[i:]) for i in range(len(parts) + 1))
    if not parts:
        return False
    return match_segment(head, parts[0]) and _match_parts(pats[1:], parts[1:])


def match(pattern: str, rel: str) -> bool:
    """Does a normalised project-relative glob cover the project-relative path rel?"""
    pattern, rel = _fold(pattern), _fold(rel)
    pats = pattern.split("/")
    parts = rel.split("/")
    if _match_parts(pats, parts):
        return True
    # a plain name (`src/auth`) names a directory too: it covers everything below it
    return not _has_magic(pats[-1]) and _match_parts(pats + ["**"], parts)


def in_scope(patterns: Iterable[str], rel: str) -> str | None:
    """The first scope glob covering rel, or None."""
    for pat in patterns:
        if match(pat, rel):
            return pat
    return None


# ---------------------------------------------------------------- .intentignore


def parse_ignore(text: str) -> list[list[Any]]:
    """[[negated, kind, pattern]] from .gitignore-style text. kind: "anchored" (has a `/`),
    "name" (a bare name at any depth), "dir" (a bare `name/`: a directory at any depth)."""
    out = []
    for line in text.splitlines()[:2000]:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        neg = line.startswith("!")
        if neg:
            line = line[1:].strip()
        line = line.replace("\\", "/")
        if line.startswith("./"):
            line = line[2:]
        directory = line.endswith("/")
        rooted = line.startswith("/")
        line = line.strip("/")
        if not line or ".." in line.split("/"):
            continue
        if rooted or "/" in line:
            out.append([neg, "anchored", line + "/**" if directory else line])
        else:
            out.append([neg, "dir" if directory else "name", line])
    return out


def ignored(rules: Iterable[Any], rel: str) -> bool:
    """True when the .intentignore rules exempt rel (the last matching rule wins)."""
    hit = False
    parts = _fold(rel).split("/")
    for neg, kind, pat in rules:
        if kind == "anchored":
            m = match(pat, rel)
        else:
            segs = parts[:-1] if kind == "dir" else parts
            m = any(match_segment(_fold(pat), seg) for seg in segs)
        if m:
            hit = not neg
    return hit


def relative(path: str, project: str) -> str | None:
    """Project-relative POSIX path of a real absolute path, or None when outside."""
    root = project.rstrip(os.sep)
    fp, froot = _fold(path), _fold(root)
    if fp == froot:
        return ""
    if not fp.startswith(froot + os.sep):
        return None
    rel = path[len(root) + 1 :]
    return rel.replace(os.sep, "/") if os.sep != "/" else rel
