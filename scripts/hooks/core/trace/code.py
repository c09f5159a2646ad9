"""What a change did to the code, for the ledger's vendor metadata: the mutation class
(AST_REFACTOR or INTENT_EVOLUTION, by a documented heuristic) and the top-level symbols a
change touched (for `.claude/intent_map.md`). Text heuristics, no parser: any language."""

from __future__ import annotations

import os

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

AST_REFACTOR = "AST_REFACTOR"
INTENT_EVOLUTION = "INTENT_EVOLUTION"
SYMBOL_FILE_LIMIT = 2 * 1024 * 1024


# ---------------------------------------------------------------- mutation class


def _tokens(text):
    out, cur = [], []
    for ch in text:
        if ch.isalnum() or ch == "_":
            cur.append(ch)
            continue
        if cur:
            out.append("".join(cur))
            cur = []
        if not ch.isspace():
            out.append(ch)
    if cur:
        out.append("".join(cur))
    return out


def mutation_class(old: str, new: str) -> str:
    """AST_REFACTOR when the change keeps the code's meaning by a documented heuristic, else
    INTENT_EVOLUTION:
      1. the same text once all whitespace is removed (reformatting);
      2. the same multiset of non-blank lines, stripped (lines moved or reordered);
      3. the same token sequence up to a consistent one-to-one renaming of identifiers.
    A new file, a shell write or anything over 200 kB is INTENT_EVOLUTION."""
    if not isinstance(old, str) or not isinstance(new, str):
        return INTENT_EVOLUTION
    if old == new:
        return AST_REFACTOR
    if len(old) > 200_000 or len(new) > 200_000:
        return INTENT_EVOLUTION
    if "".join(old.split()) == "".join(new.split()):
        return AST_REFACTOR
    a = sorted(x.strip() for x in old.splitlines() if x.strip())
    b = sorted(x.strip() for x in new.splitlines() if x.strip())
    if a == b:
        return AST_REFACTOR
    ta, tb = _tokens(old), _tokens(new)
    if len(ta) != len(tb):
        return INTENT_EVOLUTION
    fwd: dict[str, Any] = {}
    back: dict[str, Any] = {}
    for x, y in zip(ta, tb):
        if x == y:
            if fwd.get(x, x) != x or back.get(y, y) != y:
                return INTENT_EVOLUTION
            continue
        if not (x[0].isalpha() or x[0] == "_") or not (y[0].isalpha() or y[0] == "_"):
            return INTENT_EVOLUTION  # a literal or an operator changed
        if fwd.setdefault(x, y) != y or back.setdefault(y, x) != x:
            return INTENT_EVOLUTION
    return AST_REFACTOR if fwd else INTENT_EVOLUTION


# ---------------------------------------------------------------- top-level symbols

DEF_PREFIXES = (
    "def ",
    "async def ",
    "class ",
    "function ",
    "async function ",
    "export ",
    "func ",
    "fn ",
    "pub fn ",
    "pub struct ",
    "pub enum ",
    "pub trait ",
    "struct ",
    "enum ",
    "trait ",
    "impl ",
    "interface ",
    "type ",
    "module ",
    "const ",
    "let ",
    "var ",
    "public ",
    "private ",
    "protected ",
    "static ",
    "abstract ",
    "final ",
)
KEYWORDS = frozenset(
    (
        "def",
        "class",
        "function",
        "export",
        "default",
        "async",
        "func",
        "fn",
        "pub",
        "struct",
        "enum",
        "trait",
        "impl",
        "interface",
        "type",
        "module",
        "const",
        "let",
        "var",
        "public",
        "private",
        "protected",
        "static",
        "abstract",
        "final",
        "crate",
        "unsafe",
        "extern",
        "declare",
        "readonly",
    )
)


def symbol_of(line: str) -> str | None:
    """The name a top-level definition line defines (`def foo(` -> `foo()`), or None."""
    if not line or line[0] in " \t#/*;}{)]" or not line.startswith(DEF_PREFIXES):
        return None
    words = _tokens(line[:300])
    name = None
    for i, w in enumerate(words):
        if not (w[0].isalpha() or w[0] == "_") or w in KEYWORDS:
            continue
        if i > 0 and words[i - 1] == "(" and "func" in words[:1]:
            continue  # Go receivers: func (r *T) Name(
        name = w
        nxt = words[i + 1] if i + 1 < len(words) else ""
        return name + "()" if nxt in ("(", "<") and "class" not in words[:3] else name
    return name


def symbols(path: str, ranges: Iterable[tuple[int, int]]) -> list[str]:
    """Top-level symbols whose definitions enclose or fall inside the ranges (text files under
    2 MB; at most 12)."""
    try:
        if os.path.getsize(path) > SYMBOL_FILE_LIMIT:
            return []
        with open(path, "r", encoding="utf-8", errors="replace") as fh:
            lines = fh.read().split("\n")
    except OSError:
        return []
    defs = []  # (line number, symbol)
    for i, line in enumerate(lines, 1):
        s = symbol_of(line)
        if s:
            defs.append((i, s))
    out = []
    for start, end in ranges:
        enclosing = None
        for ln, s in defs:
            if ln <= start:
                enclosing = s
            elif ln <= end:
                if s not in out:
                    out.append(s)
            else:
                break
        if enclosing and enclosing not in out:
            out.append(enclosing)
    return out[:12]
