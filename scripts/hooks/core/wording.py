"""Small wording helpers shared by the hooks and the CLI (stdlib only, hot-path safe)."""

from __future__ import annotations

IRREGULAR = {"entry": "entries", "summary": "summaries", "policy": "policies"}


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 edit', '2 edits', '0 edits' (many: the plural when it is not word + s)."""
    if n == 1:
        return "%d %s" % (n, word)
    return "%d %s" % (n, many or IRREGULAR.get(word) or word + "s")
