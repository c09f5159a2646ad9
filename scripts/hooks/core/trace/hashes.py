"""Hashing that streams: file digests for read baselines and Agent Trace `content_hash`es of
line ranges, in bounded memory whatever the file size.

A range's content hash is `sha256:` + the hex digest of its lines joined with "\\n" (the
lines without their own newline), so the same lines hash the same wherever they move.
Lines are split on b"\\n" (a "\\r" stays part of its line).
"""

from __future__ import annotations

import hashlib

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

CHUNK = 1 << 20


def prefixed(digest_hex: str) -> str:
    return "sha256:" + digest_hex


def lines_hash(lines: list[bytes]) -> str:
    """content_hash of a list of byte lines (no newlines)."""
    return prefixed(hashlib.sha256(b"\n".join(lines)).hexdigest())


def file_digest(path: str) -> tuple[str, int] | None:
    """(hex sha256 of the bytes, size) or None when the file cannot be read."""
    h = hashlib.sha256()
    size = 0
    try:
        with open(path, "rb") as fh:
            while True:
                chunk = fh.read(CHUNK)
                if not chunk:
                    break
                size += len(chunk)
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest(), size


def whole_file(path: str) -> tuple[int, str] | None:
    """(line count, content_hash of every line) streaming, or None. An empty file has 0 lines
    and the hash of no lines."""
    h = hashlib.sha256()
    newlines = 0
    held = False  # a trailing b"\n" not yet known to be followed by more
    last = b""
    try:
        with open(path, "rb") as fh:
            while True:
                chunk = fh.read(CHUNK)
                if not chunk:
                    break
                if held:
                    h.update(b"\n")
                newlines += chunk.count(b"\n")
                if chunk.endswith(b"\n"):
                    h.update(chunk[:-1])
                    held = True
                else:
                    h.update(chunk)
                    held = False
                last = chunk[-1:]
    except OSError:
        return None
    if not last:
        return 0, prefixed(h.hexdigest())
    count = newlines if last == b"\n" else newlines + 1
    return count, prefixed(h.hexdigest())


def merge(ranges: Iterable[Any], cap: int = 200) -> list[tuple[int, ...]]:
    """Sorted, merged (start, end) pairs, 1-based inclusive; at most cap."""
    out: list[list[int]] = []
    for s, e in sorted((int(s), int(e)) for s, e in ranges if 1 <= int(s) <= int(e)):
        if out and s <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return [tuple(r) for r in out[:cap]]


def ranges_hashes(path: str, ranges: Iterable[Any]) -> dict[tuple[int, int], str]:
    """{(start, end): content_hash} for sorted, non-overlapping ranges, streaming the file.
    Ranges past the end of the file are left out."""
    ranges = list(ranges)
    out: dict[tuple[int, int], str] = {}
    if not ranges:
        return out
    i = 0
    ln = 1
    cur = None
    last = b""
    try:
        with open(path, "rb") as fh:
            while i < len(ranges):
                chunk = fh.read(CHUNK)
                if not chunk:
                    break
                last = chunk[-1:]
                pos = 0
                n = len(chunk)
                while pos < n and i < len(ranges):
                    start, end = ranges[i]
                    if cur is None and ln < start:
                        # skip lines quickly up to the range's first line
                        if ln + chunk.count(b"\n", pos) < start:
                            ln += chunk.count(b"\n", pos)
                            pos = n
                            break
                        nl = chunk.find(b"\n", pos)
                        if nl < 0:
                            pos = n
                            break
                        ln += 1
                        pos = nl + 1
                        continue
                    if cur is None:
                        cur = hashlib.sha256()
                    c = chunk.count(b"\n", pos)
                    if ln + c <= end:  # every newline left in the chunk is inside the range
                        cur.update(chunk[pos:])
                        ln += c
                        pos = n
                        break
                    nl = chunk.find(b"\n", pos)
                    if nl < 0:
                        cur.update(chunk[pos:])
                        pos = n
                        break
                    cur.update(chunk[pos:nl])
                    pos = nl + 1
                    if ln == end:
                        out[(start, end)] = prefixed(cur.hexdigest())
                        cur = None
                        i += 1
                    else:
                        cur.update(b"\n")
                    ln += 1
            if (
                cur is not None
                and i < len(ranges)
                and ln == ranges[i][1]
                and last not in (b"", b"\n")
                and not fh.read(1)
            ):
                out[ranges[i]] = prefixed(cur.hexdigest())  # last line without a newline
    except OSError:
        return {}
    return out


def read_lines(path: str, limit: int = 16 * 1024 * 1024) -> list[bytes] | None:
    """The file's byte lines (for verify and blame), or None when missing or over limit."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError:
        return None
    if len(data) > limit:
        return None
    if not data:
        return []
    lines = data.split(b"\n")
    if data.endswith(b"\n"):
        lines.pop()
    return lines
