"""Per-hook JSON-lines logs (rotated by size) and the append-only audit log."""

from __future__ import annotations

import json
import os
import time

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from typing import Any

LOG_MAX_BYTES = 1024 * 1024
LOG_KEEP = 3


def _append(path: str, record: dict[str, Any]) -> None:
    line = (json.dumps(record, default=str, ensure_ascii=False) + "\n").encode("utf-8", "replace")
    # One write() on an O_APPEND descriptor: concurrent writers never interleave a line.
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


def _rotate(path: str) -> None:
    try:
        if os.stat(path).st_size < LOG_MAX_BYTES:
            return
    except OSError:
        return
    for i in range(LOG_KEEP - 1, 0, -1):
        src = "%s.%d" % (path, i)
        if os.path.exists(src):
            os.replace(src, "%s.%d" % (path, i + 1))
    try:
        os.replace(path, path + ".1")
    except OSError:
        pass


def claude_dir(project: str) -> str:
    return os.path.join(project, ".claude")


def write(project: str, hook: str, level: str, msg: str, **fields: Any) -> None:
    """Append one line to .claude/<hook>.log. Never raises."""
    try:
        d = claude_dir(project)
        if not os.path.isdir(d):
            os.makedirs(d, exist_ok=True)
        path = os.path.join(d, hook + ".log")
        _rotate(path)
        rec = {"ts": round(time.time(), 3), "level": level, "msg": msg}
        rec.update(fields)
        _append(path, rec)
    except Exception:
        pass


def audit(project: str, event: str, **fields: Any) -> None:
    """Append one audit record (blocks, resets, commands, tamper). Never raises."""
    try:
        d = claude_dir(project)
        os.makedirs(d, exist_ok=True)
        rec = {"ts": round(time.time(), 3), "event": event}
        rec.update(fields)
        _append(os.path.join(d, "audit.jsonl"), rec)
    except Exception:
        pass


def read_lines(path: str, limit: int | None = None) -> list[dict[str, Any]]:
    """Parsed JSON lines of a log; bad lines are returned as {'raw': text}."""
    out = []
    try:
        with open(path, "rb") as fh:
            for raw in fh:
                try:
                    out.append(json.loads(raw))
                except ValueError:
                    out.append({"raw": raw.decode("utf-8", "replace").rstrip("\n")})
    except OSError:
        return []
    return out[-limit:] if limit else out
