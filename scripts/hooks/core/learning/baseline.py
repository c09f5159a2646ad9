"""What this session changed, for the learning gate's session mode.

At SessionStart the gate takes a baseline: the commit HEAD pointed at, and for every file that
was already dirty (changed since HEAD, or untracked) a content hash with its size of change.
At Stop the session's work is the difference from that baseline: a file clean at the start
counts in full, a file dirty at the start counts only when its content hash moved (and then by
how much its change moved). Without a baseline (the hooks were installed mid-session, or
SessionStart ran out of time) only the files this session's own tool calls wrote count.
sane-hooks' own files and its .gitignore lines never count.
"""

from __future__ import annotations

import hashlib
import os
import time

from core import gitrun

TYPE_CHECKING = False  # typing costs milliseconds on the hot path; only mypy reads it
if TYPE_CHECKING:
    from typing import Any

BASELINE_SECONDS = 1.5  # the whole baseline, git included; past it: no baseline (fallback)
MEASURE_SECONDS = 2.0  # hashing at Stop; past it, a file's size of change decides alone
BASELINE_FILES = 500  # more dirty files than this: no baseline (fallback)
HASH_BYTES = 8_000_000  # a bigger file is hashed by its size and mtime only
EMPTY_TREE = (
    "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # git's empty tree: diff a repo with no commit
)


def ours(rel: str) -> bool:
    """sane-hooks' own files (state, logs, learnings, settings and its backups, the hooks)."""
    from core.paths import PROTECTED_PROJECT, PROTECTED_PROJECT_PREFIXES

    rel = rel.replace("\\", "/")
    if rel in PROTECTED_PROJECT or rel.startswith(PROTECTED_PROJECT_PREFIXES):
        return True
    if rel.startswith(".claude/") and (".log" in rel or rel.endswith(".tmp")):
        return True
    # install merges its hooks into settings.json and backs the old one up beside it
    return rel.startswith((".claude/settings.json", ".claude/settings.local.json"))


def _hash(path: str) -> str | None:
    """sha256 of a regular file's bytes (a big one: of its size and mtime), or None."""
    import stat

    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode):
            return "special:%o" % stat.S_IFMT(st.st_mode)
        if st.st_size > HASH_BYTES:
            return "big:%d:%d" % (st.st_size, st.st_mtime_ns)
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            h.update(fh.read(HASH_BYTES))
        return h.hexdigest()[:32]
    except OSError:
        return None


def _lines_of(path: str) -> int:
    try:
        with open(path, "rb") as fh:
            data = fh.read(1_000_000)
    except OSError:
        return 1
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def _head(project: str) -> str | None:
    out = gitrun.run(project, "rev-parse", "--verify", "-q", "HEAD")
    return out.strip() if out and out.strip() else None


def _dirty(project: str, base: str | None) -> dict[str, tuple[int, int]] | None:
    """{path: (added, deleted)} against base (untracked: (lines, -1)), or None on failure."""
    out = gitrun.run(
        project, "diff", "--numstat", "-z", "--no-renames", "--relative", base or EMPTY_TREE
    )
    if out is None:
        return None
    rows: dict[str, tuple[int, int]] = {}
    for row in out.split("\0"):
        parts = row.split("\t")
        if len(parts) >= 3 and parts[2]:
            add = int(parts[0]) if parts[0].isdigit() else 1  # "-": binary, one change
            dele = int(parts[1]) if parts[1].isdigit() else 0
            rows[parts[2]] = (add, dele)
    untracked = gitrun.run(project, "ls-files", "--others", "--exclude-standard", "-z")
    for name in (untracked or "").split("\0"):
        if name and name not in rows:
            rows[name] = (-1, -1)  # lines counted only when needed
    return rows


def take(project: str, now: float) -> dict[str, Any] | None:
    """The baseline of a git project, or None (not git, too slow, too many dirty files)."""
    if not os.path.exists(os.path.join(project, ".git")):
        return None
    deadline = time.monotonic() + BASELINE_SECONDS
    head = _head(project)
    rows = _dirty(project, head)
    if rows is None or len(rows) > BASELINE_FILES:
        return None
    files: dict[str, list] = {}
    for rel, (add, dele) in rows.items():
        if time.monotonic() > deadline:
            return None
        if ours(rel):
            continue
        path = os.path.join(project, rel)
        if add < 0:
            add, dele = _lines_of(path), -1
        files[rel] = [_hash(path), add, dele]
    out: dict = {"at": round(now, 3), "head": head, "files": files}
    if ".gitignore" in files:  # to tell install's own lines from the session's later
        out["gitignore"] = (_read_lines(os.path.join(project, ".gitignore")) or [])[:1000]
    return out


def _read_lines(path: str) -> list[str] | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read(1_000_000).splitlines()
    except OSError:
        return None


def _gitignore_change(project: str, old: list[str] | None, base: str | None) -> int:
    """Lines .gitignore gained or lost since old (else since base), install's own left out."""
    from collections import Counter

    try:
        from core.cli.install import GITIGNORE_LINES, GITIGNORE_MARK

        mine = set(GITIGNORE_LINES) | {GITIGNORE_MARK, ""}  # and the blank line before them
    except ImportError:
        mine = {""}
    if old is None:
        shown = gitrun.run(project, "show", "%s:.gitignore" % base) if base else None
        old = (shown or "").splitlines()
    new = _read_lines(os.path.join(project, ".gitignore")) or []
    a, b = Counter(x for x in old if x not in mine), Counter(x for x in new if x not in mine)
    return sum(((a - b) + (b - a)).values())


def _count(project: str, rel: str, add: int, dele: int, base: str | None) -> int:
    if rel == ".gitignore":
        return _gitignore_change(project, None, base)
    if add < 0:
        return _lines_of(os.path.join(project, rel))
    return add + dele


def measure(project: str, baseline: dict[str, Any]) -> dict[str, Any]:
    """{'lines', 'files', 'git', 'since'}: what changed since the baseline."""
    base = baseline.get("head")
    rows = _dirty(project, base)
    if rows is None:
        return {"lines": None, "files": 0, "git": True, "why": "git diff failed"}
    before = baseline.get("files") or {}
    lines = files = 0
    deadline = time.monotonic() + MEASURE_SECONDS
    for rel, (add, dele) in list(rows.items())[:BASELINE_FILES]:
        if ours(rel):
            continue
        was = before.get(rel)
        if was is None:
            n = _count(project, rel, add, dele, base)
        else:
            path = os.path.join(project, rel)
            if time.monotonic() > deadline:
                same = [add if add >= 0 else _lines_of(path), dele] == list(was[1:3])
            else:
                same = _hash(path) == was[0]
            if same:
                continue  # dirty before the session and untouched since
            if rel == ".gitignore" and isinstance(baseline.get("gitignore"), list):
                n = _gitignore_change(project, baseline["gitignore"], base)
                if n:
                    files += 1
                    lines += n
                continue
            if add < 0:
                add, dele = _lines_of(path), -1
            n = max(1, abs(add - was[1]) + (abs(dele - was[2]) if dele >= 0 else 0))
        if n:
            files += 1
            lines += n
    for rel, was in before.items():  # dirty at the start, clean (committed or reverted) now
        if rel not in rows and not ours(rel):
            files += 1
            lines += max(1, was[1] + max(0, was[2]))
    return {"lines": lines, "files": files, "git": True, "since": "start"}


def measure_written(project: str, written: list[str]) -> dict[str, Any]:
    """No baseline: count only the files this session's tool calls wrote."""
    if not os.path.exists(os.path.join(project, ".git")):
        return {"lines": None, "files": 0, "git": False, "why": "not a git repository"}
    head = _head(project)
    rows = _dirty(project, head)
    if rows is None:
        return {"lines": None, "files": 0, "git": True, "why": "git diff failed"}
    lines = files = 0
    for rel in written[:BASELINE_FILES]:
        if not isinstance(rel, str) or ours(rel) or rel not in rows:
            continue
        add, dele = rows[rel]
        n = _count(project, rel, add, dele, head)
        if n:
            files += 1
            lines += n
    return {"lines": lines, "files": files, "git": True, "since": "written"}
