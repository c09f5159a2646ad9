"""Optimistic locking: what each agent last read or wrote, per session and agent, in the
signed state (`sessions.<sid>.reads.<agent>`), bounded.

An entry is `[sha256 hex (first 32), size, mtime_ns, time]` keyed by the file's real path. A file whose
size and mtime still match is unchanged without hashing; otherwise it is re-hashed, so a touch
alone is never "stale". Files over 64 MB are not hashed on every Read: for them a changed
size or mtime is a change.
"""

from __future__ import annotations

import os

from core.trace import hashes as trace_hash

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from core.engine import Ctx

PER_AGENT = 100
AGENTS = 8
HASH_HEX = 32  # 128 bits tell a changed file apart; keeps the state small
HASH_LIMIT = 64 * 1024 * 1024  # bigger files: size and mtime only


def agent_key(ctx: Ctx) -> str:
    return ctx.agent_id or "main"


def _table(ctx, create):
    reads = ctx.session.get("reads")
    if not isinstance(reads, dict):
        if not create:
            return None
        reads = ctx.session["reads"] = {}
    key = agent_key(ctx)
    t = reads.get(key)
    if not isinstance(t, dict):
        if not create:
            return None
        t = reads[key] = {}
        if len(reads) > AGENTS:

            def newest(k):
                v = reads[k]
                return (
                    max((e[3] for e in v.values() if isinstance(e, list) and len(e) > 3), default=0)
                    if isinstance(v, dict)
                    else 0
                )

            for k in sorted((k for k in reads if k != key), key=newest)[: len(reads) - AGENTS]:
                del reads[k]
    return t


def record(ctx: Ctx, path: str) -> None:
    """Remember the file's current content as this agent's baseline (after a Read or its own
    write). A file that is gone drops the baseline (the agent deleted it itself)."""
    t = _table(ctx, True)
    try:
        st = os.stat(path)
    except OSError:
        t.pop(path, None)
        return
    if not os.path.isfile(path):
        return
    old = t.get(path)
    if (
        isinstance(old, list)
        and len(old) == 4
        and old[1] == st.st_size
        and old[2] == st.st_mtime_ns
    ):
        old[3] = round(ctx.now, 3)
        return
    if st.st_size > HASH_LIMIT:
        digest = ""  # too big to hash on every Read: size and mtime alone decide
    else:
        res = trace_hash.file_digest(path)
        if res is None:
            return
        digest = res[0][:HASH_HEX]
    t.pop(path, None)
    t[path] = [digest, st.st_size, st.st_mtime_ns, round(ctx.now, 3)]
    if len(t) > PER_AGENT:
        for k in sorted(t, key=lambda k: t[k][3] if isinstance(t[k], list) else 0)[
            : len(t) - PER_AGENT
        ]:
            del t[k]


def refresh_if_tracked(ctx: Ctx, path: str) -> None:
    """After a shell write by this agent: update a baseline it already has."""
    t = _table(ctx, False)
    if t is not None and path in t:
        record(ctx, path)


def stale(ctx: Ctx, path: str) -> str | None:
    """None when the agent may write path; else "changed" or "deleted" (since its last read
    or write)."""
    t = _table(ctx, False)
    if not t:
        return None
    old = t.get(path)
    if not isinstance(old, list) or len(old) != 4:
        return None  # never read: allowed
    try:
        st = os.stat(path)
    except OSError:
        return "deleted"
    if st.st_size == old[1] and st.st_mtime_ns == old[2]:
        return None
    if not old[0] or st.st_size > HASH_LIMIT:
        return "changed"
    res = trace_hash.file_digest(path)
    if res is None:
        return None
    if res[0][:HASH_HEX] == old[0]:
        old[1], old[2] = st.st_size, st.st_mtime_ns  # touched, same content
        return None
    return "changed"


def read_at(ctx: Ctx, path: str) -> float | None:
    t = _table(ctx, False) or {}
    e = t.get(path)
    return e[3] if isinstance(e, list) and len(e) == 4 else None
