"""Shared pieces of the sane.py subcommands: project, state, who is calling, errors."""

import os
import sys
import time

CLI = "python3 scripts/hooks/sane.py"


class CliError(Exception):
    """One clear line for the person. code 1: bad input, 2: refused by policy."""

    def __init__(self, msg, code=1):
        super().__init__(msg)
        self.code = code


def project_of(args):
    p = getattr(args, "project", None) or os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    if not os.path.isdir(p):
        raise CliError("no such project directory: %s" % p)
    return os.path.realpath(p)


def under_claude():
    return os.environ.get("CLAUDECODE") == "1"


def open_store(project, lock_wait=5.0):
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
    """
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


def resolve_session(args, state, who=None):
    """--session, else the authorised call's session, else CLAUDE_CODE_SESSION_ID, else the
    project's most recent session. Returns (sid, how)."""
    sid = getattr(args, "session", None)
    if sid:
        return sid, "given"
    if who is not None and who.session:
        return who.session, "caller"
    env = os.environ.get("CLAUDE_CODE_SESSION_ID")
    if env:
        return env, "CLAUDE_CODE_SESSION_ID"
    last = state.get("last_session")
    if last:
        return last, "most recent"
    raise CliError("no session: pass --session SID (no session has been recorded yet)")


def out(text=""):
    sys.stdout.write(text + "\n")


def err(text):
    sys.stderr.write(text + "\n")
