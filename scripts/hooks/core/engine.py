"""One hook invocation: stdin -> config and state (locked) -> handler -> state once -> answer."""

from __future__ import annotations

import os
import sys
import time

from core import hookio, log

TYPE_CHECKING = False  # typing costs milliseconds on the hot path; only mypy reads these
if TYPE_CHECKING:
    from typing import Any

    from core.config import Config
    from core.contracts import Handler
    from core.policy import Facts
    from core.state import Store

# Which events each script serves (INTERFACES.md).
EVENTS = {
    "saneprompt": ("UserPromptSubmit", "SessionStart", "SubagentStart"),
    "sanetools": ("PreToolUse",),
    "sanetrack": ("PostToolUse", "PostToolUseFailure"),
    "sanestop": ("Stop", "SubagentStop", "SessionEnd", "TaskCompleted"),
}


def project_dir(payload: dict[str, Any]) -> str:
    p = os.environ.get("CLAUDE_PROJECT_DIR")
    if not p:
        cwd = payload.get("cwd")
        p = cwd if isinstance(cwd, str) and cwd else os.getcwd()
    try:
        p = os.path.realpath(p)
    except (OSError, ValueError):
        return os.getcwd()
    from core import pathnorm

    pathnorm.note_case(p)  # a case-insensitive file system folds every name compared
    return p


class Ctx:
    """Everything a handler needs. Handlers change ctx.state and ctx.answer only."""

    def __init__(
        self,
        hook: str,
        event: str,
        payload: dict[str, Any],
        project: str,
        store: Store,
        cfg: Config,
    ) -> None:
        self.hook = hook  # saneprompt | sanetools | sanetrack | sanestop
        self.event = event  # hook_event_name
        self.payload = payload  # the event's JSON from stdin (hostile: check every type)
        self.project = project  # realpath of the project directory
        self.store = store
        self.state: dict[str, Any] = store.state  # verified, written once after the handler
        self.cfg = cfg
        self.answer = hookio.Answer()
        self.now = time.time()
        sid = payload.get("session_id")
        self.sid: str = sid[:128] if isinstance(sid, str) and sid else "unknown"
        aid = payload.get("agent_id")
        self.agent_id: str | None = aid if isinstance(aid, str) and aid else None
        at = payload.get("agent_type")
        self.agent_type: str | None = at if isinstance(at, str) and at else None
        cwd = payload.get("cwd")
        self.cwd: str = cwd if isinstance(cwd, str) and os.path.isabs(cwd) else project
        self.home = os.path.expanduser("~")
        self._session: dict[str, Any] | None = None
        self.facts: Facts | None = None  # the call's facts, once PreToolUse/PostToolUse built them

    @property
    def session(self) -> dict[str, Any]:
        if self._session is None:
            self._session = self.store.session(self.sid)
            if self.now - (self._session.get("updated_at") or 0) > 300:
                self._session["updated_at"] = self.now  # coarse: no write per call just for this
        return self._session

    @property
    def tool(self) -> str:
        t = self.payload.get("tool_name")
        return t if isinstance(t, str) else ""

    @property
    def tool_input(self) -> dict[str, Any]:
        ti = self.payload.get("tool_input")
        return ti if isinstance(ti, dict) else {}

    @property
    def is_subagent(self) -> bool:
        return self.agent_id is not None

    def audit(self, event: str, **fields: Any) -> None:
        fields.setdefault("session", self.sid)
        if self.agent_id:
            fields.setdefault("agent_id", self.agent_id)
        log.audit(self.project, event, **fields)

    def log(self, level: str, msg: str, **fields: Any) -> None:
        log.write(self.project, self.hook, level, msg, **fields)


def _handler(hook: str, event: str) -> Handler:
    if hook == "saneprompt":
        from core import prompt

        return {
            "UserPromptSubmit": prompt.on_prompt,
            "SessionStart": prompt.on_session_start,
            "SubagentStart": prompt.on_subagent_start,
        }[event]
    if hook == "sanetools":
        from core import gates_pre

        return gates_pre.on_pre_tool
    if hook == "sanetrack":
        from core import track

        return track.on_post_tool
    from core import stop

    return {
        "Stop": stop.on_stop,
        "SubagentStop": stop.on_subagent_stop,
        "SessionEnd": stop.on_session_end,
        "TaskCompleted": stop.on_task_completed,
    }[event]


def _no_yaml(ctx: Ctx, errors: list[str]) -> None:
    """A config file the hooks cannot read (no pyyaml): the person's rules are unknown, so
    PreToolUse denies; the other events tell the person and let the session go on."""
    missing = [e.split("; ", 1)[-1] for e in errors if e.startswith("pyyaml is not installed")]
    if not missing:
        return
    fix = "%s -m pip install pyyaml" % (sys.executable or "python3")
    if ctx.event == "PreToolUse":
        ctx.answer.deny(
            "[self-protection] pyyaml is not installed for %s, so %s cannot be read and the "
            "person's rules are unknown. Stop and ask the person to run `%s` (or "
            "`python3 scripts/hooks/sane.py doctor`)." % (sys.executable, ", ".join(missing), fix)
        )
    elif ctx.event in ("SessionStart", "UserPromptSubmit", "Stop"):
        ctx.answer.tell_user(
            "sane-hooks: pyyaml is not installed for %s: %s; every tool call is denied "
            "until you run `%s`." % (sys.executable, "; ".join(missing), fix)
        )


def handle(hook: str, payload: dict[str, Any], project: str) -> Ctx:
    """Run one event through its handler under the state lock. Returns the Ctx (its answer)."""
    from core import config
    from core.state import Store

    event: str = payload.get("hook_event_name") or ""
    store = Store(project)
    store.open()
    try:
        cfg = config.load(project, store.state["cache"].setdefault("yaml", {}))
        ctx = Ctx(hook, event, payload, project, store, cfg)
        for err in cfg.errors:
            ctx.log("warn", "config: " + err)
        if store.tamper:
            ctx.audit("tamper", reason=store.tamper, kind=store.tamper_kind, hook=hook)
            ctx.log("error", "tamper: " + store.tamper)
            from core.state import tamper_source

            ctx.answer.tell_user(
                "sane-hooks: the state failed verification (%s). Changes are locked "
                "until you check it (`sane.py doctor`) and type `unlock`; until then the "
                "hooks keep %s." % (store.tamper, tamper_source(store.state["tamper"]))
            )
        if store.busy:
            ctx.log(
                "warn", "state lock busy for over %.0f s; read-only this call" % store.lock_wait
            )
            ctx.answer.tell_user("sane-hooks: the state lock was busy; this call ran read-only.")
            if event == "PostToolUseFailure":
                store.defer(payload)  # counted at the next write, never lost
        elif store.take_pending():
            _replay_deferred(ctx)
        _handler(hook, event)(ctx)
        if cfg.errors:
            _no_yaml(ctx, cfg.errors)
        store.commit()
        return ctx
    finally:
        store.close()


def _replay_deferred(ctx: Ctx) -> None:
    """Count the failures seen while another process held the lock, as PostToolUseFailure
    would have, before this call's own event; the person hears what they changed."""
    from core import track

    store = ctx.store
    for rec in store.pending:
        rec = {k: v for k, v in rec.items() if k != "deferred_at"}
        rctx = Ctx("sanetrack", "PostToolUseFailure", rec, ctx.project, store, ctx.cfg)
        track.on_post_tool(rctx)
        for text in rctx.answer.user:
            ctx.answer.tell_user(text)
    ctx.audit("deferred_failures_counted", count=len(store.pending))


def main(hook: str) -> int:
    """Entry point of the four hook scripts. Exit 0 or 2, never a traceback."""
    if "--self-test" in sys.argv[1:]:
        from core import selftest

        return selftest.run(hook)
    started = time.perf_counter()
    if os.environ.get("SANE_HOOK_SEARCHED"):
        from core import launch  # the launcher had to search: record what it found

        launch.remember()
    project = os.getcwd()
    event = None
    try:
        payload, problem = hookio.read_payload()
        project = project_dir(payload)
        event = payload.get("hook_event_name")
        if problem:
            log.write(project, hook, "warn", "fail open: " + problem)
            return 0
        if event not in EVENTS.get(hook, ()):
            log.write(project, hook, "warn", "ignored event %r" % (event,))
            return 0
        ctx = handle(hook, payload, project)
        code = hookio.emit(event, ctx.answer)
        a = ctx.answer
        log.write(
            project,
            hook,
            "info",
            event,
            tool=ctx.tool or None,
            session=ctx.sid,
            agent_id=ctx.agent_id,
            decision=("block" if a.blocked else a.decision or "allow"),
            reason=(a.block or a.reason or "")[:300] or None,
            ms=round((time.perf_counter() - started) * 1000, 2),
        )
        return code
    except Exception as exc:  # our own bug: fail open, say so, no traceback to the agent
        import traceback

        log.write(
            project,
            hook,
            "error",
            "fail open: %s: %s" % (exc.__class__.__name__, exc),
            trace=traceback.format_exc()[-4000:],
        )
        if event in (
            "UserPromptSubmit",
            "PreToolUse",
            "PostToolUse",
            "PostToolUseFailure",
            "Stop",
            "SubagentStop",
            "SessionStart",
        ):
            ans = hookio.Answer()
            ans.tell_user(
                "sane-hooks %s failed open (%s); see .claude/%s.log"
                % (hook, exc.__class__.__name__, hook)
            )
            try:
                hookio.emit(event, ans)
            except Exception:
                pass
        return 0


def leave(code: int) -> None:
    """End the hook process with `code` at once: the answer is flushed, every file the hook
    wrote is closed, and nothing registers exit handlers, so the interpreter's teardown
    (freeing a hundred modules: 3-4 ms, as much as the rest of a call) only delays the
    client. A flush that fails exits the ordinary way, which reports it as before."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        sys.exit(code)
    os._exit(code)
