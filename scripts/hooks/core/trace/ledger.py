"""The Agent Trace v0.1.0 ledger: `.claude/agent_trace.jsonl`, one record per successful
mutation, appended with one write() on an O_APPEND descriptor so concurrent hooks never tear
or interleave a line.

Record (https://agent-trace.dev, v0.1.0): version, id (uuid v4), timestamp (RFC 3339, UTC),
vcs {type: git, revision} when the project is in git, tool {name, version}, files[{path
(relative), conversations[{url (file URL of the transcript), contributor {type: ai,
model_id}, ranges[{start_line, end_line, content_hash}]}]}], metadata
{"dev.sane": {intent_id, mutation_class, session_id, agent_id, tool_use_id, transcript, ...}}.
The ledger is committed, so it holds no machine path: the transcript is named relative to the
person's Claude Code project folder (~/.claude/projects/<project>/), and a conversation
carries no file URL.
"""

from __future__ import annotations

import json
import os
import time

from core.trace import hashes as trace_hash
from core.version import VERSION as SANE_VERSION

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from core.engine import Ctx

VERSION = "0.1.0"
LEDGER_REL = ".claude/agent_trace.jsonl"
TOOL_NAME = "claude-code"
MAX_FILES = 50
MAX_RANGES = 200
WHOLE_FILE_LIMIT = 256 * 1024 * 1024  # hashing streams, but a hook has a time budget

PROVIDERS = (
    ("claude-", "anthropic"),
    ("gpt-", "openai"),
    ("o1", "openai"),
    ("o3", "openai"),
    ("o4", "openai"),
    ("gemini-", "google"),
)


def ledger_path(project: str) -> str:
    return os.path.join(project, ".claude", "agent_trace.jsonl")


# ---------------------------------------------------------------- record fields


def new_uuid() -> str:
    b = bytearray(os.urandom(16))
    b[6] = (b[6] & 0x0F) | 0x40
    b[8] = (b[8] & 0x3F) | 0x80
    h = b.hex()
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])


def rfc3339(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ts)) + ".%03dZ" % (int(ts * 1000) % 1000)


def transcript_ref(transcript):
    """The transcript relative to its Claude Code project folder (`<session>.jsonl`, or
    `<session>/subagents/agent-<id>.jsonl`); None when unknown."""
    if not isinstance(transcript, str) or not transcript:
        return None
    parts = transcript.replace("\\", "/").split("/")
    for i in range(len(parts) - 2, 0, -1):
        if parts[i - 1] == "projects" and i + 1 < len(parts):
            return "/".join(parts[i + 1 :])[:300]
    return parts[-1][:300] or None


def model_id(model: object) -> str | None:
    """models.dev style `provider/model` (claude-sonnet-4-5 -> anthropic/claude-sonnet-4-5)."""
    if not isinstance(model, str) or not model.strip():
        return None
    m = model.strip()[:250]
    if "/" in m:
        return m
    for prefix, provider in PROVIDERS:
        if m.startswith(prefix):
            return ("%s/%s" % (provider, m))[:250]
    return m


def _git_dir(project):
    d = project
    for _ in range(64):
        g = os.path.join(d, ".git")
        if os.path.isdir(g):
            return g
        if os.path.isfile(g):  # a worktree or submodule: "gitdir: <path>"
            try:
                with open(g, "r", encoding="utf-8", errors="replace") as fh:
                    line = fh.read(4096).strip()
            except OSError:
                return None
            if line.startswith("gitdir:"):
                p = line[7:].strip()
                return p if os.path.isabs(p) else os.path.normpath(os.path.join(d, p))
            return None
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent
    return None


def _is_sha(s):
    return len(s) in (40, 64) and all(c in "0123456789abcdef" for c in s)


def git_revision(project: str) -> str | None:
    """HEAD's commit sha read from .git without running git, or None (not git, no commit)."""
    g = _git_dir(project)
    if not g:
        return None
    try:
        with open(os.path.join(g, "HEAD"), "r", encoding="utf-8", errors="replace") as fh:
            head = fh.read(1024).strip()
    except OSError:
        return None
    if _is_sha(head):
        return head
    if not head.startswith("ref:"):
        return None
    ref = head[4:].strip()
    common = g
    try:
        with open(os.path.join(g, "commondir"), "r") as fh:
            c = fh.read(4096).strip()
        common = c if os.path.isabs(c) else os.path.normpath(os.path.join(g, c))
    except OSError:
        pass
    for base in (g, common):
        try:
            with open(os.path.join(base, ref), "r") as fh:
                sha = fh.read(100).strip()
            if _is_sha(sha):
                return sha
        except OSError:
            continue
    try:
        with open(
            os.path.join(common, "packed-refs"), "r", encoding="utf-8", errors="replace"
        ) as fh:
            for line in fh:
                parts = line.strip().split(" ", 1)
                if len(parts) == 2 and parts[1] == ref and _is_sha(parts[0]):
                    return parts[0]
    except OSError:
        pass
    return None


def _tail_value(tail, key):
    i, start = -1, 0
    for sep in (b'":"', b'": "'):
        j = tail.rfind(b'"' + key + sep)
        if j > i:
            i, start = j, j + len(key) + 1 + len(sep)
    if i < 0:
        return None
    j = tail.find(b'"', start)
    v = tail[start:j].decode("ascii", "replace") if j > 0 else ""
    ok = v and len(v) < 100 and all(c.isalnum() or c in ".-+_/:@" for c in v)
    return v if ok else None


def transcript_facts(transcript: object) -> tuple[str | None, str | None]:
    """(Claude Code's version, the model of the last assistant message) from the tail of the
    session transcript, whose records carry both; (None, None) when unknown."""
    if not isinstance(transcript, str) or not transcript:
        return None, None
    try:
        with open(transcript, "rb") as fh:
            fh.seek(0, 2)
            size = fh.tell()
            fh.seek(max(0, size - 65536))
            tail = fh.read(65536)
    except OSError:
        return None, None
    version = _tail_value(tail, b"version")
    if version and not all(c.isdigit() or c == "." for c in version):
        version = None
    model = _tail_value(tail, b"model")
    return version, model if model and model != "<synthetic>" else None


# ---------------------------------------------------------------- ranges


def patch_ranges(hunks: object) -> list[tuple[int, ...]] | None:
    """Changed line ranges of the new file from Claude Code's structuredPatch (runs of `+`
    lines), or None when there is no usable patch."""
    if not isinstance(hunks, list) or not hunks:
        return None
    out: list[tuple[int, ...]] = []
    for h in hunks[:1000]:
        if not isinstance(h, dict) or not isinstance(h.get("lines"), list):
            return None
        try:
            ln = int(h.get("newStart", ""))
        except (TypeError, ValueError):
            return None
        run = None
        for line in h["lines"]:
            tag = line[:1] if isinstance(line, str) else ""
            if tag == "+":
                run = [ln, ln] if run is None else [run[0], ln]
                ln += 1
                continue
            if run:
                out.append(tuple(run))
                run = None
            if tag == " ":
                ln += 1
        if run:
            out.append(tuple(run))
    return out


def locate_ranges(path: str, new_strings: Iterable[object]) -> list[tuple[int, ...]]:
    """Fallback without a patch: where each new_string sits in the file now."""
    try:
        if os.path.getsize(path) > 8 * 1024 * 1024:
            return []
        with open(path, "r", encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError:
        return []
    out: list[tuple[int, ...]] = []
    for s in new_strings:
        if not isinstance(s, str) or not s:
            continue
        idx = text.find(s)
        if idx < 0:
            continue
        start = text.count("\n", 0, idx) + 1
        body = s[:-1] if s.endswith("\n") else s
        out.append((start, start + body.count("\n")))
    return out


def file_entry(
    project: str, path: str, ranges_spec: Any
) -> tuple[str, list[dict[str, Any]], list[Any]] | None:
    """(relative path, [range dicts], [(start, end)]) for a file, or None. ranges_spec: "whole"
    or a list of (start, end)."""
    from core.intents.scope import relative

    rel = relative(path, project)
    if not rel or not os.path.isfile(path):
        return None
    if ranges_spec == "whole":
        try:
            if os.path.getsize(path) > WHOLE_FILE_LIMIT:
                return rel, [], []  # recorded, not hashed: a hook has a time budget
        except OSError:
            return None
        res = trace_hash.whole_file(path)
        if res is None:
            return None
        count, h = res
        spans: list[tuple[int, ...]] = [(1, max(count, 1))]
        return rel, [{"start_line": 1, "end_line": max(count, 1), "content_hash": h}], spans
    spans = trace_hash.merge(ranges_spec, MAX_RANGES)
    hashes = trace_hash.ranges_hashes(path, spans)
    kept = [s for s in spans if s in hashes]
    return (
        rel,
        [{"start_line": s, "end_line": e, "content_hash": hashes[(s, e)]} for s, e in kept],
        kept,
    )


# ---------------------------------------------------------------- the record


def build(
    ctx: Ctx,
    entries: list[Any],
    mclass: str,
    intent_id: str | None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One Agent Trace record. entries: [(rel, ranges, spans, symbols)]."""
    sess = ctx.session
    transcript = ctx.payload.get("transcript_path")
    conv: dict[str, Any] = {}
    contributor: dict[str, Any] = {"type": "ai"}
    mid = model_id(sess.get("model"))  # SessionStart's, else the transcript's latest
    if mid:
        contributor["model_id"] = mid
    conv["contributor"] = contributor
    info = sess["intent"]
    version, tmodel = info.get("client"), None
    if not version or not mid:
        version2, tmodel = transcript_facts(transcript)
        if version2 and not version:
            version = info["client"] = version2
    if not mid and tmodel:
        contributor["model_id"] = model_id(tmodel)
    files = []
    for rel, ranges, _spans, _syms in entries[:MAX_FILES]:
        c = dict(conv, ranges=ranges)
        files.append({"path": rel, "conversations": [c]})
    record: dict[str, Any] = {"version": VERSION, "id": new_uuid(), "timestamp": rfc3339(ctx.now)}
    rev = git_revision(ctx.project)
    if rev:
        record["vcs"] = {"type": "git", "revision": rev}
    record["tool"] = {"name": TOOL_NAME, "version": version or "unknown"}
    record["files"] = files
    meta = {
        "intent_id": intent_id,
        "mutation_class": mclass,
        "session_id": ctx.sid,
        "agent_id": ctx.agent_id,
        "agent_type": ctx.agent_type,
        "tool_use_id": ctx.payload.get("tool_use_id"),
        "tool_name": ctx.tool,
        "sane_hooks": SANE_VERSION,
    }
    ref = transcript_ref(transcript)
    if ref:
        meta["transcript"] = ref
    syms = {rel: s for rel, _r, _sp, s in entries[:MAX_FILES] if s}
    if syms:
        meta["symbols"] = syms
    meta.update(extra or {})
    record["metadata"] = {"dev.sane": meta}
    return record


def append(project: str, record: dict[str, Any]) -> int:
    """Append one record as one line with one write() on an O_APPEND descriptor."""
    line = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    path = ledger_path(project)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        written = os.write(fd, line)
        while written < len(line):  # only ever on a full disk or a signal; keep the rest
            written += os.write(fd, line[written:])
    finally:
        os.close(fd)
    return len(line)


def read_ledger(project: str) -> tuple[list[tuple[int, dict[str, Any]]], list[str]]:
    """(records, problems): every JSON line of the ledger with its line number; a line that is
    not a JSON object is skipped and reported."""
    records: list[tuple[int, dict[str, Any]]] = []
    problems: list[str] = []
    try:
        fh = open(ledger_path(project), "rb")
    except OSError:
        return records, problems
    with fh:
        for n, raw in enumerate(fh, 1):
            if not raw.strip():
                continue
            try:
                rec = json.loads(raw)
                if not isinstance(rec, dict):
                    raise ValueError
            except (ValueError, RecursionError):
                problems.append("%s line %d: not a JSON record, skipped" % (LEDGER_REL, n))
                continue
            records.append((n, rec))
    return records, problems


def sane_meta(rec: dict[str, Any]) -> dict[str, Any]:
    meta = rec.get("metadata")
    m = meta.get("dev.sane") if isinstance(meta, dict) else None
    return m if isinstance(m, dict) else {}


def recent_for_intent(project: str, intent_id: str, limit: int = 8) -> list[tuple[Any, ...]]:
    """The last few ledger records of an intent: [(timestamp, paths, mutation class, session)].
    Reads only the tail of the ledger."""
    out: list[tuple[Any, ...]] = []
    try:
        with open(ledger_path(project), "rb") as fh:
            fh.seek(0, 2)
            size = fh.tell()
            fh.seek(max(0, size - 512 * 1024))
            tail = fh.read()
    except OSError:
        return out
    lines = tail.split(b"\n")
    if size > 512 * 1024:
        lines = lines[1:]  # the first one may be cut
    for raw in reversed(lines):
        if len(out) >= limit:
            break
        if not raw.strip() or intent_id.encode() not in raw:
            continue
        try:
            rec = json.loads(raw)
        except ValueError:
            continue
        m = sane_meta(rec) if isinstance(rec, dict) else {}
        if m.get("intent_id") != intent_id:
            continue
        paths = [f.get("path") for f in rec.get("files") or [] if isinstance(f, dict)]
        out.append((rec.get("timestamp"), paths, m.get("mutation_class"), m.get("session_id")))
    return out
