"""Check the ledger against the working tree: `trace verify` (does each recorded range still
hold its content: in place, moved, or changed) and `trace blame FILE` (which lines came from
which intent and session). Content hashes make both survive code moving around."""

from __future__ import annotations

import os

from core.intents.scope import relative
from core.trace import hashes as trace_hash
from core.trace import ledger as trace

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

MOVE_SEARCH_LINES = 20000  # files longer than this are not searched for moved ranges


class Tree:
    """The working tree as the ledger sees it: file lines and window-hash indexes, cached."""

    def __init__(self, project: str) -> None:
        self.project = project
        self._lines: dict[str, list[bytes] | None] = {}
        self._index: dict[tuple[str, int], dict[str, list[int]]] = {}
        self._siblings: dict[str, list[str]] = {}

    def lines(self, rel: str) -> list[bytes] | None:
        if rel not in self._lines:
            self._lines[rel] = trace_hash.read_lines(os.path.join(self.project, rel))
        return self._lines[rel]

    def index(self, rel: str, length: int) -> dict[str, list[int]]:
        """{content_hash: [start lines]} of every window of `length` lines in rel."""
        key = (rel, length)
        if key not in self._index:
            lines = self.lines(rel)
            idx: dict[str, list[int]] = {}
            if lines is not None and len(lines) <= MOVE_SEARCH_LINES and length > 0:
                for i in range(0, len(lines) - length + 1):
                    idx.setdefault(trace_hash.lines_hash(lines[i : i + length]), []).append(i + 1)
            elif lines is not None and length == 0:
                pass
            self._index[key] = idx
        return self._index[key]

    def siblings(self, rel: str, skip: Iterable[str] = ()) -> list[str]:
        """Other files in rel's directory (where moved code most often goes), at most 100."""
        if rel not in self._siblings:
            d = os.path.dirname(rel)
            try:
                names = sorted(os.listdir(os.path.join(self.project, d)))[:500]
            except OSError:
                names = []
            out = []
            for n in names:
                r = (d + "/" + n) if d else n
                if (
                    r != rel
                    and r not in skip
                    and not n.startswith(".")
                    and os.path.isfile(os.path.join(self.project, r))
                ):
                    out.append(r)
            self._siblings[rel] = out[:100]
        return self._siblings[rel]

    def holds(self, rel: str, start: int, end: int, h: str) -> bool:
        lines = self.lines(rel)
        return (
            lines is not None
            and end <= len(lines)
            and trace_hash.lines_hash(lines[start - 1 : end]) == h
        )


def safe_rel(path: object) -> str | None:
    """A ledger path usable under the project, or None (absolute, `..`, empty)."""
    if not isinstance(path, str) or not path or path.startswith("/") or "\x00" in path:
        return None
    parts = path.replace("\\", "/").split("/")
    if ".." in parts or (len(parts[0]) == 2 and parts[0][1] == ":"):
        return None
    return "/".join(p for p in parts if p not in ("", "."))


def ranges_of(records: list[tuple[int, dict[str, Any]]]) -> tuple[list[dict[str, Any]], list[str]]:
    """Every attributed range in the ledger: dicts with path, start, end, hash and the record's
    intent, session, time, agent and mutation class. Bad entries are reported, not fatal."""
    out, problems = [], []
    for n, rec in records:
        m = trace.sane_meta(rec)
        for f in rec.get("files") or []:
            if not isinstance(f, dict):
                continue
            rel = safe_rel(f.get("path"))
            if rel is None:
                problems.append(
                    "%s line %d: path %r is outside the project, skipped"
                    % (trace.LEDGER_REL, n, f.get("path"))
                )
                continue
            for conv in f.get("conversations") or []:
                if not isinstance(conv, dict):
                    continue
                model = (
                    (conv.get("contributor") or {}).get("model_id")
                    if isinstance(conv.get("contributor"), dict)
                    else None
                )
                for r in conv.get("ranges") or []:
                    if not isinstance(r, dict):
                        continue
                    s, e, h = r.get("start_line"), r.get("end_line"), r.get("content_hash")
                    if not (
                        isinstance(s, int)
                        and isinstance(e, int)
                        and 1 <= s <= e
                        and isinstance(h, str)
                    ):
                        continue
                    out.append(
                        {
                            "line": n,
                            "path": rel,
                            "start": s,
                            "end": e,
                            "hash": h,
                            "intent": m.get("intent_id"),
                            "session": m.get("session_id"),
                            "agent": m.get("agent_id"),
                            "class": m.get("mutation_class"),
                            "time": rec.get("timestamp"),
                            "model": model,
                        }
                    )
    return out, problems


def locate(tree: Tree, r: dict[str, Any], files: list[str]) -> tuple[str, str, int, int]:
    """(status, path, start, end): "in place", "moved" (within the file, to another file of
    the ledger, or to a file beside it), "changed", or "missing" (the file is gone and the
    lines are nowhere)."""
    rel, s, e, h = r["path"], r["start"], r["end"], r["hash"]
    if tree.holds(rel, s, e, h):
        return "in place", rel, s, e
    length = e - s + 1
    for cand in [rel] + [f for f in files if f != rel] + tree.siblings(rel, files):
        starts = tree.index(cand, length).get(h)
        if starts:
            best = min(starts, key=lambda x: abs(x - s)) if cand == rel else starts[0]
            return "moved", cand, best, best + length - 1
    if tree.lines(rel) is None:
        return "missing", rel, s, e
    return "changed", rel, s, e


def verify(project: str) -> tuple[list[dict[str, Any]], list[str], int]:
    records, problems = trace.read_ledger(project)
    ranges, more = ranges_of(records)
    files = sorted({r["path"] for r in ranges})
    tree = Tree(project)
    results = []
    for r in ranges:
        status, path, s, e = locate(tree, r, files)
        results.append(dict(r, status=status, now_path=path, now_start=s, now_end=e))
    return results, problems + more, len(records)


def blame(project: str, rel: str) -> tuple[list[tuple[Any, ...]] | None, list[str]]:
    """[(start, end, attribution or None)] runs over the file's current lines."""
    records, problems = trace.read_ledger(project)
    ranges, more = ranges_of(records)
    tree = Tree(project)
    lines = tree.lines(rel)
    if lines is None:
        return None, problems + more
    owner: list[dict[str, Any] | None] = [None] * len(lines)
    for r in ranges:  # oldest first: later records win
        length = r["end"] - r["start"] + 1
        spots = []
        if r["path"] == rel and tree.holds(rel, r["start"], r["end"], r["hash"]):
            spots = [r["start"]]
        else:
            spots = tree.index(rel, length).get(r["hash"]) or []
            if r["path"] == rel and len(spots) > 1:
                spots = [min(spots, key=lambda x: abs(x - r["start"]))]
        for start in spots[:1]:
            moved = not (r["path"] == rel and start == r["start"])
            who: dict[str, Any] | None = {
                "intent": r["intent"],
                "session": r["session"],
                "agent": r["agent"],
                "time": r["time"],
                "class": r["class"],
                "model": r["model"],
                "from": "%s:%d-%d" % (r["path"], r["start"], r["end"]) if moved else None,
            }
            for i in range(start - 1, start - 1 + length):
                owner[i] = who
    runs: list[list[Any]] = []
    for i, who in enumerate(owner, 1):
        if runs and runs[-1][2] is who:
            runs[-1][1] = i
        else:
            runs.append([i, i, who])
    return [tuple(r) for r in runs], problems + more


def rel_of(project: str, path: str, cwd: str) -> str | None:
    """A FILE argument as a project-relative path, or None when it is outside the project."""
    p = path if os.path.isabs(path) else os.path.join(cwd, path)
    return relative(os.path.realpath(p), project)
