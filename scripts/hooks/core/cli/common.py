"""Shared pieces of the sane.py subcommands: project, state, who is calling, errors, and how
this process runs a subcommand (directly, handing its change to the hooks, or inside a hook).

Three runtimes:
- direct: the person's terminal, or the agent's Bash call when this process can read the key
  and write the state (no OS sandbox). It locks, verifies, changes and commits the state.
- handoff: the agent's Bash call under Claude Code's sandbox (the key is unreadable, the state
  read-only). Reading subcommands read the state unverified and say so; changing ones check
  what they can, then print one request line that PostToolUse (core/handoff.py) validates
  again and applies under the lock. This process never reads the key or writes the state.
- hook: the same subcommand code run inside the PostToolUse hook on the hook's own store, for
  the caller the authorisation names and the input the request carried.
"""

from __future__ import annotations

import json
import os
import sys
import time

CLI = "python3 scripts/hooks/sane.py"
# One request per line on stdout, found by core/handoff.py in the Bash tool's output.
REQUEST_MARK = "<<sane-hooks request>> "
REQUEST_LIMIT = 9000  # characters: a Bash result keeps well over this, hook output caps at 10k
UNVERIFIED_NOTE = (
    "sane.py: note: the state's signature was not checked: the HMAC key is not readable "
    "here (Claude Code's sandbox keeps it from the agent's shell). The hooks verify the state "
    "on every tool call; what follows is the state file as it stands."
)


class CliError(Exception):
    """One clear line for the person. code 1: bad input, 2: refused by policy."""

    def __init__(self, msg, code=1):
        super().__init__(msg)
        self.code = code


class Runtime:
    """How this process runs a subcommand (see the module docstring)."""

    def __init__(self, mode="direct", store=None, who=None, input=None, project=None):
        self.mode = mode
        self.store = store  # hook: the hook's open store
        self.who = who  # hook: the Caller the authorisation names
        self.input = input  # hook: the input document the request carried
        self.project = project  # hook: the hook's project
        self.lines = [] if mode == "hook" else None  # hook: captured output
        self.noted = False
        self.requests = 0


RT = Runtime()


def set_runtime(rt: Runtime) -> Runtime:
    """Swap the runtime (the hook runs a subcommand in-process); returns the previous one."""
    global RT
    old, RT = RT, rt
    return old


def project_of(args):
    p = getattr(args, "project", None) or os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    if RT.mode == "hook":
        # The hook holds one project's lock: a request never reaches another project.
        if getattr(args, "project", None) and os.path.realpath(p) != RT.project:
            raise CliError("refused: the hooks apply a request only to their own project", 2)
        return RT.project
    if not os.path.isdir(p):
        raise CliError("no such project directory: %s" % p)
    return os.path.realpath(p)


def under_claude():
    return RT.mode == "hook" or os.environ.get("CLAUDECODE") == "1"


def key_readable() -> bool:
    """Can this process read the HMAC key without creating it? (never creates one)"""
    if os.environ.get("SANE_HOOK_SECRET"):
        return True
    from core.state import config_dir

    try:
        with open(os.path.join(config_dir(), "secret"), "rb") as fh:
            return bool(fh.read(4096).strip())
    except OSError:
        return False


def _state_writable(project: str) -> bool:
    d = os.path.join(project, ".claude")
    path = os.path.join(d, "state.json")
    target = path if os.path.exists(path) else d
    if not os.access(target, os.W_OK) or not os.access(d, os.W_OK):
        return False
    try:  # the lock: the sandbox may hide it (denyRead) or make it read-only
        fd = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        os.close(fd)
    except OSError:
        return False
    return True


def choose_mode(project: str) -> str:
    """direct or handoff for this process (the hook runtime is set by the hook)."""
    if RT.mode == "hook":
        return "hook"
    if RT.mode == "direct" and under_claude():
        if not key_readable() or not _state_writable(project):
            RT.mode = "handoff"
    return RT.mode


def handing_off() -> bool:
    return RT.mode == "handoff"


class HookStore:
    """The hook's own open store, lent to a subcommand: it commits once, at the hook's end."""

    def __init__(self, store):
        self._store = store
        self.state = store.state
        self.tamper = store.tamper
        self.busy = store.busy
        self.fresh = store.fresh
        self.verified = True

    def session(self, sid):
        return self._store.session(sid)

    def commit(self, force=False):
        return False  # the engine writes the hook's state once, after every handler

    def close(self):
        pass


class Snapshot:
    """The state as this process can see it without the key or the lock: verified when the key
    is readable, else the file as it stands (`verified` False). Never written."""

    busy = False
    moved_from = None

    def __init__(self, project: str):
        from core import state as sm

        self.project = project
        self.tamper = None
        self.fresh = False
        self.verified = False
        self.path = os.path.join(project, ".claude", sm.STATE_NAME)
        try:
            with open(self.path, "rb") as fh:
                raw = fh.read(64 * 1024 * 1024)
        except FileNotFoundError:
            self.fresh = True
            self.state = sm.defaults(project)
            return
        except OSError as exc:
            raise CliError("cannot read the state (%s)" % (exc.strerror or exc), 1)
        try:
            doc = json.loads(raw)
            state, sig = doc["state"], doc["sig"]
            if not isinstance(state, dict):
                raise ValueError
        except (ValueError, KeyError, TypeError, RecursionError):
            self.tamper = "state file is not a signed state"
            self.state = sm.defaults(project)
            return
        if key_readable():
            import hmac

            key = sm.secret_key()  # readable: never created here
            good = hmac.compare_digest(sm.sign(key, project, sm.canonical(state)), str(sig))
            self.verified = good
            if not good:
                self.tamper = "bad or missing signature"
        self.state = sm.migrate(state, project)

    def session(self, sid):
        from core import state as sm

        if not isinstance(sid, str) or not sid:
            sid = "unknown"
        sessions = self.state["sessions"]
        sess = sessions.get(sid[:128])
        if not isinstance(sess, dict):
            sess = sessions[sid[:128]] = sm.session_defaults()
        else:
            sm.migrate_session(sess)
        return sess

    def commit(self, force=False):
        return False

    def close(self):
        pass


def open_store(project, lock_wait=5.0):
    mode = choose_mode(project)
    if mode == "hook":
        return HookStore(RT.store)
    if mode == "handoff":
        st = Snapshot(project)
        if not st.verified and not RT.noted:
            RT.noted = True
            err(UNVERIFIED_NOTE)
        return st
    from core.state import Store

    st = Store(project, lock_wait=lock_wait)
    st.open()
    if st.busy:
        st.close()
        raise CliError("the state is locked by a running hook; try again in a moment", 1)
    return st


class Caller:
    """Who runs this command: the person, or the agent through an authorised Bash call."""

    def __init__(self, by, session=None, agent_id=None, agent_type=None):
        self.by = by
        self.session = session
        self.agent_id = agent_id
        self.agent_type = agent_type

    def record(self):
        d = {"by": self.by}
        if self.agent_id:
            d.update(agent_id=self.agent_id, agent_type=self.agent_type)
        return d


def caller(store, argv, changes_state=True):
    """Consume the single-use authorisation that sanetools.py recorded for this exact call.

    Outside Claude Code the caller is the person. Inside it (CLAUDECODE=1) without a matching
    authorisation, the call went around the hooks: anything that changes state is refused.
    Handing off, the authorisation is only looked at (the hook consumes it); in a hook, the
    caller is the one the authorisation names.
    """
    if RT.mode == "hook":
        return RT.who
    if not under_claude():
        return Caller("person")
    env_sid = os.environ.get("CLAUDE_CODE_SESSION_ID")
    now = time.time()
    auth = store.state.get("auth") or []
    for i, a in enumerate(auth):
        if not isinstance(a, dict) or a.get("expires", 0) <= now:
            continue
        if a.get("args") != list(argv):
            continue
        if not env_sid or a.get("session") != env_sid:
            continue  # Claude Code exports the session id to Bash: a missing or blank one is forged
        if RT.mode != "handoff":
            del auth[i]
        return Caller("agent", a.get("session"), a.get("agent_id"), a.get("agent_type"))
    if changes_state:
        raise CliError(
            "refused: this sane.py call runs inside Claude Code but the hooks did not "
            "authorise it (it went around them). Run it as a plain Bash call, or as "
            "the person outside Claude Code.",
            2,
        )
    return Caller("agent", env_sid)


def hand_off(argv, input=None) -> bool:
    """Handing off: print the request for the hooks and say so (True: the caller stops here,
    having changed nothing). Otherwise False: the caller applies the change itself."""
    if RT.mode != "handoff":
        return False
    req = {"v": 1, "args": list(argv)}
    if input is not None:
        req["input"] = input
    line = REQUEST_MARK + json.dumps(req, separators=(",", ":"), ensure_ascii=True)
    if len(line) > REQUEST_LIMIT:
        raise CliError(
            "this request is %d characters, over the %d one Bash call can hand to the hooks; "
            "split it into several calls (fewer learnings per reflection, shorter text)"
            % (len(line), REQUEST_LIMIT)
        )
    RT.requests += 1
    out(line)
    out(
        "sane.py: checked; the state is read-only in this shell (Claude Code's sandbox), so "
        "this change is handed to the hooks: they check it again and apply it when this Bash "
        "call ends, then tell you the result. Keep the line above in the output (do not "
        "redirect or filter it)."
    )
    return True


def resolve_session(args, state, who=None):
    """--session, else the authorised call's session, else CLAUDE_CODE_SESSION_ID, else the
    project's most recent session. Returns (sid, how)."""
    sid = getattr(args, "session", None)
    if sid:
        return sid, "given"
    if who is not None and who.session:
        return who.session, "caller"
    env = os.environ.get("CLAUDE_CODE_SESSION_ID")
    if env and RT.mode != "hook":
        return env, "CLAUDE_CODE_SESSION_ID"
    last = state.get("last_session")
    if last:
        return last, "most recent"
    raise CliError("no session: pass --session SID (no session has been recorded yet)")


def out(text=""):
    if RT.lines is not None:
        RT.lines.append(text)
        return
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def err(text):
    if RT.lines is not None:
        RT.lines.append(text)
        return
    sys.stdout.flush()
    sys.stderr.write(text + "\n")
    sys.stderr.flush()
