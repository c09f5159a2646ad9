"""The signed, locked state: one JSON file per project, HMAC-SHA256 over a canonical form.

Every invocation: lock once, read once, verify once, change in memory, write at most once.
Commit order (kill-safe): counter entry exists -> temp file, fsync, rename, fsync dir ->
raise the counter. So a state on disk is always at or above its counter, and a state below
its counter can only be a replayed copy.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import time

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from typing import Any, Literal

SCHEMA = 1
LOCK_WAIT = 2.0
STATE_NAME = "state.json"
SESSION_CAP = 200  # sessions kept at most (oldest idle ones pruned first)

try:
    import fcntl
except ImportError:  # Windows: filelock does the locking
    fcntl = None  # type: ignore[assignment]


# ---------------------------------------------------------------- key and counters


def config_dir(env=None):
    env = os.environ if env is None else env
    base = env.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "sane-hooks")


def atomic_write(path, data, mode=0o600, sync_dir=True):
    tmp = "%s.%d.%d.tmp" % (path, os.getpid(), int(time.monotonic_ns() % 1000000))
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    if sync_dir:
        _fsync_dir(os.path.dirname(path))


def _fsync_dir(d):
    if fcntl is None:
        return
    try:
        fd = os.open(d, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass


def secret_key():
    """The HMAC key: SANE_HOOK_SECRET, else the 0600 key file (created atomically once)."""
    env = os.environ.get("SANE_HOOK_SECRET")
    if env:
        return env.encode("utf-8")
    d = config_dir()
    path = os.path.join(d, "secret")
    try:
        with open(path, "rb") as fh:
            key = fh.read().strip()
        if key:
            return key
    except FileNotFoundError:
        pass
    os.makedirs(d, mode=0o700, exist_ok=True)
    key = os.urandom(32).hex().encode()
    tmp = "%s.%d.tmp" % (path, os.getpid())
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, key + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(tmp, path)  # fails if another process won the race: use theirs
    except FileExistsError:
        pass
    finally:
        os.unlink(tmp)
    with open(path, "rb") as fh:
        return fh.read().strip()


class FileLock:
    """An exclusive lock with a bounded wait. fcntl.flock on POSIX, filelock elsewhere."""

    def __init__(self, path):
        self.path = path
        self.fd = None
        self.fl = None

    def acquire(self, timeout=LOCK_WAIT):
        if fcntl is None:
            import filelock

            self.fl = filelock.FileLock(self.path)
            try:
                self.fl.acquire(timeout=timeout)
                return True
            except filelock.Timeout:
                self.fl = None
                return False
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        deadline = time.monotonic() + timeout
        delay = 0.001
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                self.fd = fd
                return True
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    return False
                time.sleep(delay)
                delay = min(delay * 2, 0.02)

    def release(self):
        if self.fd is not None:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_UN)
            finally:
                os.close(self.fd)
                self.fd = None
        if self.fl is not None:
            self.fl.release()
            self.fl = None


def counters_path():
    return os.path.join(config_dir(), "counters.json")


def _project_key(project: str) -> str:
    return hashlib.sha256(project.encode("utf-8", "surrogateescape")).hexdigest()[:32]


def verified_paths(project: str) -> list[str]:
    """The last verified state of project, in two slots written in turn (by the parity of the
    sequence): a copy of the signed document, outside the project (the agent can delete or
    forge the project's copy, never these)."""
    base = os.path.join(config_dir(), "verified", _project_key(project))
    return [base + ".0.json", base + ".1.json"]


def pending_path(project: str) -> str:
    """Failures seen while another process held the state lock, counted at the next write."""
    return os.path.join(config_dir(), "verified", _project_key(project) + ".pending.jsonl")


def read_verified(key: bytes, project: str) -> tuple[dict | None, str | None, str | None]:
    """(state, path, None) from the newest slot that verifies, or (None, None, why not)."""
    best, where, why = None, None, "no verified copy exists"
    for path in verified_paths(project):
        try:
            with open(path, "rb") as fh:
                doc = json.loads(fh.read())
            state, sig = doc["state"], doc["sig"]
            if not isinstance(state, dict) or not isinstance(sig, str):
                raise ValueError
        except FileNotFoundError:
            continue
        except (OSError, ValueError, KeyError, TypeError, RecursionError):
            why = why if best else "the verified copy is unreadable"
            continue
        if not hmac.compare_digest(sign(key, project, canonical(state)), sig):
            why = "the verified copy does not verify (was the key changed?)"
            continue
        if (state.get("tamper") or {}).get("locked"):
            continue
        seq = state.get("seq") if isinstance(state.get("seq"), int) else -1
        if best is None or seq > best.get("seq", -1):
            best, where = state, path
    return (best, where, None) if best is not None else (None, None, why)


def write_verified(project: str, doc: bytes, seq: int) -> None:
    """Keep the copy beside the counters, written in place into the slot of seq's parity.
    No temp file, no rename, no fsync: on ext4 a rename over a file or a truncation to zero
    forces a flush (milliseconds per write); a torn slot fails its signature, and the other
    slot still holds the state before it."""
    path = verified_paths(project)[seq % 2]
    for attempt in (0, 1):
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
            break
        except FileNotFoundError:
            if attempt:
                raise
            os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    try:
        os.pwrite(fd, doc, 0)
        os.ftruncate(fd, len(doc))
    finally:
        os.close(fd)


def drop_verified(project: str) -> None:
    for path in verified_paths(project):
        try:
            os.unlink(path)
        except OSError:
            pass


PENDING_CAP = 50  # failures kept while the lock is busy (each one counts; more add nothing)
PENDING_LINE = 3000  # under PIPE_BUF: one O_APPEND write is never interleaved


def defer_failure(project: str, payload: dict) -> None:
    """Record a PostToolUseFailure seen without the lock (append-only, one write)."""
    rec = {
        k: payload.get(k)
        for k in (
            "hook_event_name",
            "session_id",
            "agent_id",
            "agent_type",
            "tool_name",
            "tool_use_id",
            "cwd",
        )
        if isinstance(payload.get(k), str)
    }
    rec["is_interrupt"] = payload.get("is_interrupt") is True
    err = payload.get("error")
    rec["error"] = err[:1000] if isinstance(err, str) else None
    ti = payload.get("tool_input")
    if isinstance(ti, dict):
        rec["tool_input"] = {
            k: v[:500] for k, v in ti.items() if isinstance(k, str) and isinstance(v, str)
        }
    rec["deferred_at"] = time.time()
    line = json.dumps(rec, sort_keys=True, ensure_ascii=True)
    if len(line) > PENDING_LINE:
        rec.pop("tool_input", None)
        rec["error"] = (rec["error"] or "")[:300]
        line = json.dumps(rec, sort_keys=True, ensure_ascii=True)
    path = pending_path(project)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    try:
        if os.stat(path).st_size > PENDING_CAP * PENDING_LINE:
            return
    except FileNotFoundError:
        pass
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, (line + "\n").encode("ascii"))
    finally:
        os.close(fd)


def take_pending(project: str) -> tuple[list[dict], int]:
    """(the deferred failures, bytes read), moved aside first. The caller holds the state
    lock, so it is the only taker. A `.taken` file left by a taker that died before its write
    is taken again (the new pending file waits for the next one). done_pending() deletes it
    once the state that counted them is written, keeping what a late writer appended."""
    path = pending_path(project)
    taken = path + ".taken"
    if not os.path.exists(taken):
        try:
            os.rename(path, taken)
        except OSError:
            return [], 0
    try:
        with open(taken, "rb") as fh:
            raw = fh.read(PENDING_CAP * PENDING_LINE * 2)
    except OSError:
        return [], 0
    out = []
    for line in raw.splitlines()[: PENDING_CAP * 2]:
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and rec.get("hook_event_name") == "PostToolUseFailure":
            out.append(rec)
    return out[:PENDING_CAP], len(raw)


def done_pending(project: str, counted: int) -> None:
    """Drop the taken file; lines a writer appended after it was read (it opened the file
    before the rename) go back to the pending file for the next write."""
    path = pending_path(project)
    taken = path + ".taken"
    try:
        with open(taken, "rb") as fh:
            fh.seek(counted)
            late = fh.read(PENDING_CAP * PENDING_LINE)
        if late:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, late)
            finally:
                os.close(fd)
        os.unlink(taken)
    except OSError:
        pass


def read_counter(project):
    """Last committed sequence for project, or None when it has no entry."""
    try:
        with open(counters_path(), "rb") as fh:
            data = json.loads(fh.read())
    except (OSError, ValueError):
        return None
    value = data.get(project) if isinstance(data, dict) else None
    return value if isinstance(value, int) else None


def raise_counter(project, seq):
    """Set project's counter to max(current, seq) under the counters lock."""
    path = counters_path()
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    lock = FileLock(path + ".lock")
    if not lock.acquire(timeout=5.0):
        raise OSError("counters lock busy")
    try:
        try:
            with open(path, "rb") as fh:
                data = json.loads(fh.read())
            if not isinstance(data, dict):
                data = {}
        except (OSError, ValueError):
            data = {}
        current = data.get(project)
        if isinstance(current, int) and current >= seq and project in data:
            return
        data[project] = max(seq, current if isinstance(current, int) else 0)
        # Raising an entry that exists needs no sync of the directory: a crash that loses the
        # rename leaves the old file, whose lower value the state on disk is still at or
        # above. A new entry is synced: its loss would read as a removed counter.
        fresh = not isinstance(current, int)
        atomic_write(path, json.dumps(data, sort_keys=True).encode(), sync_dir=fresh)
    finally:
        lock.release()


# ---------------------------------------------------------------- shape


def defaults(project=""):
    return {
        "schema": SCHEMA,
        "seq": 0,
        "project": project,
        "circuit_breaker": {
            "failures": 0,
            "tripped": False,
            "tripped_at": None,
            "last_error": None,
            "error_signatures": {},
            "trip_reason": None,
        },
        "enforcement": {
            "blocks": [],
            "halted": False,
            "halted_at": None,
            "halted_reason": None,
            "last_signature": None,
            "repeats": 0,
        },
        "safemode": {"active": False, "since": None},
        "tamper": {"locked": False, "since": None, "reason": None, "kind": None},
        "cache": {"yaml": {}},
        "auth": [],
        "last_session": None,
        "sessions": {},
    }


def session_defaults():
    now = time.time()
    return {
        "created_at": now,
        "updated_at": now,
        "research": {
            "local": None,
            "web": None,
            "docs": None,
            "github": None,
            "memory": None,
            "waived": [],
            "used": [],
        },
        "requirements": {
            "requested": [],
            "satisfied": [],
            "is_task": False,
            "is_big_task": False,
            "kind": None,
            "keywords": [],
            "prompts": 0,
        },
        "edits": {"count": 0, "unique_files": [], "unique_count": 0, "last_file": None},
        "saneloop": {
            "active": False,
            "task": None,
            "iteration": 0,
            "max_iterations": 20,
            "acceptance_criteria": [],
            "started_at": None,
        },
        "action_log": [],
        "stop_blocks": 0,
        "blocks": 0,
        "review": {},
        "learning": {},
        "intent": {},
        "reads": {},
        "agents": {},
    }


def migrate(state, project):
    """Bring an older or partial state up to SCHEMA, key by key."""
    base = defaults(project)
    for key, value in base.items():
        if key not in state:
            state[key] = value
        elif isinstance(value, dict) and isinstance(state[key], dict) and key != "sessions":
            for k, v in value.items():
                state[key].setdefault(k, v)
        elif type(value) is not type(state[key]) and value is not None:
            state[key] = value
    state["schema"] = SCHEMA
    return state


def migrate_session(sess):
    base = session_defaults()
    for key, value in base.items():
        if key not in sess:
            sess[key] = value
        elif isinstance(value, dict) and isinstance(sess[key], dict):
            for k, v in value.items():
                sess[key].setdefault(k, v)
    return sess


def canonical(state):
    return json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def sign(key, project, text):
    return hmac.new(key, (project + "\n" + text).encode("utf-8"), hashlib.sha256).hexdigest()


UNLOCKED = {"locked": False, "since": None, "reason": None, "kind": None}


def unlock(state: dict, project: str) -> dict:
    """Lift a tamper lock. A moved project's genuine state is adopted. Otherwise the locked
    state already is the last verified one (restored when the tamper was found) plus what the
    hooks saw since: the lock comes off and nothing else changes, so a tripped breaker,
    safemode and the enforcement halt stay. Defaults only when no verified copy existed."""
    t = state.get("tamper") or {}
    adopt = t.get("adopt")
    if isinstance(adopt, dict):
        new = migrate(adopt, project)
        new["project"] = project
        new["seq"] = state.get("seq", 0)
    else:
        new = dict(state)
    new["tamper"] = dict(UNLOCKED)
    return new


def unlock_text(tamper: dict) -> str:
    """What `unlock` tells the person about the state it leaves (from the lock's record)."""
    was = tamper.get("reason")
    if isinstance(tamper.get("adopt"), dict):
        return "tamper lock lifted (it was: %s). Adopted the state of the moved project (%s)." % (
            was,
            tamper.get("moved_from"),
        )
    r = tamper.get("restored")
    if isinstance(r, dict):
        return (
            "tamper lock lifted (it was: %s). The state is the last verified one (seq %s): "
            "the breaker, safemode and the enforcement halt are as the hooks last wrote them."
            % (was, r.get("seq"))
        )
    return (
        "tamper lock lifted (it was: %s). %s, so the state starts from DEFAULTS: a breaker "
        "that was tripped or safemode that was on are not restored; check them and turn "
        "safemode on (`s+`) if you want it."
        % (was, (tamper.get("no_copy") or "no verified copy exists").capitalize())
    )


def tamper_note(state: dict) -> str | None:
    """None when the state is not tamper-locked; else one line saying the values shown are
    not verified and where they come from (the last verified copy, or defaults)."""
    t = state.get("tamper") or {}
    if not t.get("locked"):
        return None
    return "UNVERIFIED: the state is tamper-locked (%s); showing %s" % (
        t.get("reason"),
        tamper_source(t),
    )


def tamper_source(t: dict) -> str:
    """Where a locked state's values come from, in words."""
    r = t.get("restored")
    if isinstance(r, dict):
        at = r.get("at")
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(at)) if at else "?"
        return "the last verified state (seq %s, written %s)" % (r.get("seq"), when)
    if t.get("kind") == "moved":
        return "defaults until `unlock` adopts the moved project's state"
    return "defaults: %s" % (t.get("no_copy") or "no verified copy exists")


def _mtime(path: str | None) -> float | None:
    if not path:
        return None
    try:
        return os.stat(path).st_mtime
    except OSError:
        return None


# ---------------------------------------------------------------- the store


class Store:
    """Open with `open()`, change `self.state`, `commit()`, `close()`.

    After open(): `tamper` is None or a reason (new this invocation), `busy` is True when the
    lock could not be had (read-only: commit() refuses), `fresh` on a true first run.
    """

    def __init__(self, project: str, lock_wait: float = LOCK_WAIT) -> None:
        self.project = project
        self.dir = os.path.join(project, ".claude")
        self.path = os.path.join(self.dir, STATE_NAME)
        self.lock = FileLock(self.path + ".lock")
        self.lock_wait = lock_wait
        self.locked = False
        self.busy = False
        self.fresh = False
        self.tamper: str | None = None
        self.tamper_kind: str | None = None
        self.moved_from = None
        self.state: dict[str, Any] = None  # type: ignore[assignment]  # set by open()
        self._loaded_text = None
        self._key = None
        self.pending: list[dict[str, Any]] = []
        self._pending_bytes = 0

    def open(self) -> Store:
        os.makedirs(self.dir, exist_ok=True)
        self.locked = self.lock.acquire(self.lock_wait)
        self.busy = not self.locked
        self._key = secret_key()
        self._load()
        return self

    def take_pending(self) -> list[dict[str, Any]]:
        """The failures deferred while the lock was busy (only with the lock; the hooks replay
        them before this call's event, and commit() drops them once counted)."""
        if self.locked and not self.pending:
            self.pending, self._pending_bytes = take_pending(self.project)
        return self.pending

    def _load(self):
        counter = read_counter(self.project)  # before the file: see the commit order
        try:
            with open(self.path, "rb") as fh:
                raw = fh.read()
        except FileNotFoundError:
            if counter:
                return self._tampered(
                    "state file missing (the counter shows seq %d)" % counter, "missing", counter
                )
            if any(os.path.exists(v) for v in verified_paths(self.project)):
                # no state and no counter, yet the hooks wrote one: both were removed
                return self._tampered(
                    "state file and counter entry missing (a verified copy exists)", "missing", 0
                )
            self.fresh = True
            self.state = defaults(self.project)
            self._loaded_text = None
            return
        except OSError as exc:
            return self._tampered(
                "state file unreadable (%s)" % exc.__class__.__name__, "unreadable", counter or 0
            )
        try:
            doc = json.loads(raw)
            state, sig = doc["state"], doc["sig"]
            if not isinstance(state, dict) or not isinstance(sig, str):
                raise ValueError
        except (ValueError, KeyError, TypeError, RecursionError):
            return self._tampered("state file is not a signed state", "corrupt", counter or 0)
        text = canonical(state)
        seq = state.get("seq") if isinstance(state.get("seq"), int) else 0
        if not hmac.compare_digest(sign(self._key, self.project, text), sig):
            other = state.get("project")
            if (
                isinstance(other, str)
                and other != self.project
                and hmac.compare_digest(sign(self._key, other, text), sig)
            ):
                self.moved_from = other
                return self._tampered(
                    "state was signed for another project path (%s)" % other,
                    "moved",
                    max(seq, counter or 0),
                    keep=state,
                )
            return self._tampered("bad or missing signature", "signature", max(seq, counter or 0))
        if counter is None and seq > 0:
            return self._tampered(
                "state has seq %d but the counter entry is gone" % seq, "counters", seq
            )
        if counter is not None and seq < counter:
            return self._tampered(
                "replayed state: seq %d is below the committed %d" % (seq, counter),
                "replay",
                counter,
            )
        self.state = migrate(state, self.project)
        self._loaded_text = text

    def _tampered(self, reason, kind, seq, keep=None):
        """Never trust the file: the last verified state (defaults when there is none),
        locked until the person lifts it. Tamper never grants: what was tripped, halted or
        on in the last state the hooks wrote stays so."""
        self.tamper, self.tamper_kind = reason, kind
        now = time.time()
        good, where, why = (
            read_verified(self._key, self.project) if kind != "moved" else (None, None, None)
        )
        if good is not None:
            restored = {"seq": good.get("seq"), "at": _mtime(where)}
            state = migrate(good, self.project)
        else:
            state = defaults(self.project)
            restored = None
        state["seq"] = max(seq, state.get("seq") if isinstance(state.get("seq"), int) else 0)
        state["tamper"] = {
            "locked": True,
            "since": now,
            "reason": reason,
            "kind": kind,
            "restored": restored,
        }
        if why:
            state["tamper"]["no_copy"] = why
        if keep is not None and kind == "moved":
            keep = dict(keep)
            keep.pop("tamper", None)
            state["tamper"]["moved_from"] = keep.get("project")
            state["tamper"]["adopt"] = keep  # genuine (signed by our key): unlock adopts it
        self.state = state
        self._loaded_text = None

    # -- sessions

    def session(self, sid: str) -> dict[str, Any]:
        """The per-session section for sid (created and migrated on first use)."""
        if not isinstance(sid, str) or not sid:
            sid = "unknown"
        sid = sid[:128]
        sessions = self.state["sessions"]
        sess = sessions.get(sid)
        if not isinstance(sess, dict):
            sess = sessions[sid] = session_defaults()
        else:
            migrate_session(sess)
        self.state["last_session"] = sid
        return sess

    # -- writing

    def commit(self, force: bool = False) -> bool:
        """Write if anything changed. Returns True if written. Never without the lock."""
        if not self.locked:
            return False
        text = canonical(self.state)
        if not force and text == self._loaded_text:
            if self.pending:  # replayed and changed nothing (interrupts): done with them
                done_pending(self.project, self._pending_bytes)
                self.pending = []
            return False
        counter = read_counter(self.project)
        if counter is None:
            raise_counter(self.project, 0)  # the entry exists before the first state write
        self.state["seq"] = max(int(self.state.get("seq") or 0), counter or 0) + 1
        self.state["project"] = self.project
        text = canonical(self.state)
        doc = '{"sig":"%s","state":%s}' % (sign(self._key, self.project, text), text)
        data = doc.encode("utf-8")
        atomic_write(self.path, data)
        if not (self.state.get("tamper") or {}).get("locked"):
            try:
                write_verified(self.project, data, self.state["seq"])
            except OSError:
                drop_verified(self.project)  # a stale copy would restore an older state
        raise_counter(self.project, self.state["seq"])
        self._loaded_text = text
        if self.pending:
            done_pending(self.project, self._pending_bytes)
            self.pending = []
        return True

    def defer(self, payload: dict[str, Any]) -> None:
        """Without the lock nothing is written: keep a failure for the next locked write."""
        if not self.locked:
            try:
                defer_failure(self.project, payload)
            except OSError:
                pass

    def close(self) -> None:
        if self.locked:
            self.lock.release()
            self.locked = False

    def __enter__(self) -> Store:
        return self.open()

    def __exit__(self, *exc: object) -> Literal[False]:
        self.close()
        return False
