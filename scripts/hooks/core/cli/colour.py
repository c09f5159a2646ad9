"""Colour for the person's terminal: green ok, red fail, yellow warn. Only on a TTY, and never
when NO_COLOR is set (https://no-color.org); piped output stays plain text."""

from __future__ import annotations

import os
import sys
from typing import IO

CODES = {"ok": "32", "fail": "31", "warn": "33", "dim": "2"}


def enabled(stream: IO[str] | None = None) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    s = stream if stream is not None else sys.stdout
    try:
        return bool(s.isatty())
    except (AttributeError, ValueError):
        return False


def paint(text: str, kind: str, stream: IO[str] | None = None) -> str:
    """text wrapped in the colour for kind (ok, fail, warn, dim) when colour is on."""
    code = CODES.get(kind)
    if not code or not enabled(stream):
        return text
    return "\033[%sm%s\033[0m" % (code, text)
