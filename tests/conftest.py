"""Shared fixtures: every test gets its own project, HOME, XDG config dir and secret, with the
inherited Claude Code and SANE_* environment cleared.

`proj.hook` and `proj.cli` run the real scripts (sanetools.py, sane.py, ...) exactly as Claude
Code starts them: stdin JSON in, exit code, stdout and stderr out. By default they run inside
the test process (tests/inprocess.py swaps stdin/stdout/stderr, argv, the environment and the
cwd, and resets the module caches), which saves an interpreter start per call. A test that
needs a real process (concurrency, kills, locks held by another process, a fresh interpreter)
passes `process=True`, or is marked `@pytest.mark.process`; SANE_TEST_PROCESSES=1 runs every
call as a process (the old way, for comparing).
"""

import json
import os
import subprocess
import sys
import threading

import pytest

import inprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOOKS = os.path.join(ROOT, "scripts", "hooks")
PAYLOADS = os.path.join(ROOT, "tests", "fixtures", "payloads")  # copied from shared/protocol
sys.path.insert(0, HOOKS)
sys.path.insert(
    0, os.path.join(ROOT, "tests")
)  # support modules: shell.corpus, learning.support, ...
ALL_PROCESSES = os.environ.get("SANE_TEST_PROCESSES") == "1"
inprocess.memo_interpreter_probe()


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "process: run proj.hook and proj.cli as real processes in this test"
    )
    # Current bytecode beside the sources (gitignored), as a hook process leaves it: `install`
    # brings it along, so each test's install compiles nothing.
    import compileall

    compileall.compile_dir(HOOKS, quiet=2)


def pytest_collection_finish(session):
    """Unit-test projects live on a RAM disk when there is one: the state is fsync'ed on every
    write, which costs milliseconds per call on a disk and proves nothing here. Runs that
    include the real-client scenarios (tests/e2e) keep the ordinary temp dir."""
    e2e = os.path.join(ROOT, "tests", "e2e") + os.sep
    if (
        "PYTEST_DEBUG_TEMPROOT" not in os.environ
        and session.config.option.basetemp is None
        and os.path.isdir("/dev/shm")
        and os.access("/dev/shm", os.W_OK | os.X_OK)
        and not any(str(item.path).startswith(e2e) for item in session.items)
    ):
        os.environ["PYTEST_DEBUG_TEMPROOT"] = "/dev/shm"


def clean_env(home, extra=None):
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CLAUDE", "SANE_")) and k not in ("CLAUDECODE",)
    }
    env.update(
        HOME=home,
        XDG_CONFIG_HOME=os.path.join(home, ".config"),
        SANE_HOOK_SECRET="test-secret",
        PYTHONDONTWRITEBYTECODE="1",
    )
    env.update(extra or {})
    return env


class Result:
    def __init__(self, proc):
        self.code = proc.returncode
        self.stdout = proc.stdout
        self.stderr = proc.stderr
        try:
            self.json = json.loads(proc.stdout) if proc.stdout.strip() else {}
        except ValueError:
            self.json = None

    @property
    def spec(self):
        return (self.json or {}).get("hookSpecificOutput") or {}

    @property
    def denied(self):
        """PreToolUse deny reason, Stop/Prompt block reason, or exit-2 stderr; else None."""
        if self.code == 2:
            return self.stderr.strip()
        j = self.json or {}
        if j.get("decision") == "block":
            return j.get("reason")
        if self.spec.get("permissionDecision") == "deny":
            return self.spec.get("permissionDecisionReason")
        return None

    @property
    def context(self):
        return self.spec.get("additionalContext") or ""

    @property
    def user(self):
        return (self.json or {}).get("systemMessage") or ""


class Project:
    """A scratch project with its own HOME; run hooks and the CLI against it."""

    gate_bug_expected = False  # a test that breaks a guard gate on purpose sets it

    def __init__(self, root, process=False):
        self.root = root
        self.process = process or ALL_PROCESSES  # run hooks and the CLI as real processes
        self.dir = os.path.join(root, "project")
        self.home = os.path.join(root, "home")
        os.makedirs(os.path.join(self.dir, ".claude"))
        os.makedirs(self.home)
        self.dir = os.path.realpath(self.dir)
        self.env = clean_env(self.home)
        self.sid = "sess-test-1"

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def write(self, rel, text):
        p = self.path(rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as fh:
            fh.write(text)
        return p

    def config(self, text):
        return self.write(".claude/sane.yaml", text)

    def payload(self, event, **fields):
        p = {
            "session_id": self.sid,
            "transcript_path": os.path.join(self.home, "t.jsonl"),
            "cwd": self.dir,
            "hook_event_name": event,
            "permission_mode": "default",
        }
        if event in ("PreToolUse", "PostToolUse", "PostToolUseFailure"):
            p["tool_use_id"] = fields.pop(
                "tool_use_id",
                "toolu_%d" % abs(hash(json.dumps(fields, sort_keys=True, default=str))),
            )
        p.update(fields)
        return p

    def run(self, script, args=(), env=None, data=b"", timeout=60, process=None):
        """Run scripts/hooks/<script> with args, env and stdin bytes, in this process or as a
        real one (process=True, the project's default otherwise). A CompletedProcess with
        bytes stdout and stderr."""
        path = script if os.path.isabs(script) else os.path.join(HOOKS, script)
        argv = [sys.executable, path] + list(args)
        env = dict(self.env) if env is None else env
        if process is None:
            process = self.process or _interpreter_env(env) or _other_thread()
        if process:
            return subprocess.run(
                argv, input=data, capture_output=True, env=env, cwd=self.dir, timeout=timeout
            )
        code, out, err = inprocess.run(path, list(args), env, self.dir, data, timeout)
        return subprocess.CompletedProcess(argv, code, out, err)

    def hook(self, script, payload, env=None, raw=None, timeout=30, process=None):
        e = dict(self.env)
        e["CLAUDE_PROJECT_DIR"] = self.dir
        e.update(env or {})
        data = raw if raw is not None else json.dumps(payload)
        proc = self.run(
            script + ".py",
            env=e,
            data=data if isinstance(data, bytes) else data.encode(),
            timeout=timeout,
            process=process,
        )
        proc.stdout = proc.stdout.decode("utf-8", "replace")
        proc.stderr = proc.stderr.decode("utf-8", "replace")
        r = Result(proc)
        assert r.code in (0, 2), (r.code, r.stderr)
        assert "Traceback" not in r.stderr and "Traceback" not in r.stdout
        # a gate that raised let the call through: a hole no decision assert would see
        assert "failed on this call" not in r.stdout, r.stdout
        assert "failed open" not in r.stdout, r.stdout
        # a guard gate that raised held the call: right for the person, a bug for the tests
        if not self.gate_bug_expected:
            assert "failed while checking" not in r.stdout + r.stderr, r.stdout + r.stderr
        return r

    # shorthands for the four scripts
    def prompt(self, text, **kw):
        return self.hook("saneprompt", self.payload("UserPromptSubmit", prompt=text, **kw))

    def pre(self, tool, tool_input, **kw):
        return self.hook(
            "sanetools", self.payload("PreToolUse", tool_name=tool, tool_input=tool_input, **kw)
        )

    def post(self, tool, tool_input, response=None, **kw):
        return self.hook(
            "sanetrack",
            self.payload(
                "PostToolUse",
                tool_name=tool,
                tool_input=tool_input,
                tool_response=response if response is not None else {"ok": True},
                **kw,
            ),
        )

    def fail(self, tool, tool_input, error="Exit code 1\nboom", **kw):
        return self.hook(
            "sanetrack",
            self.payload(
                "PostToolUseFailure",
                tool_name=tool,
                tool_input=tool_input,
                error=error,
                is_interrupt=False,
                **kw,
            ),
        )

    def stop(self, active=False, **kw):
        return self.hook(
            "sanestop",
            self.payload("Stop", stop_hook_active=active, last_assistant_message="done", **kw),
        )

    def research(self, cats=("local", "web")):
        """Give this session research credit the real way (PostToolUse with a result)."""
        if "local" in cats:
            f = self.write("README.txt", "hello\n")
            self.post(
                "Read",
                {"file_path": f},
                {"type": "text", "file": {"filePath": f, "content": "hello\n"}},
            )
        if "web" in cats:
            self.post("WebSearch", {"query": "x"}, {"results": ["a result"]})

    def cli(self, *args, env=None, input=None, process=None):
        e = dict(self.env)
        e.update(env or {})
        proc = _text(
            self.run(
                "sane.py",
                list(args)
                + ["--project", self.dir] * ("--project" not in args and _takes_project(args)),
                env=e,
                data=(input or "").encode(),
                process=process,
            )
        )
        assert "Traceback" not in proc.stderr, proc.stderr
        return proc

    def agent_cli(self, *args, env=None):
        """sane.py exactly as the agent's Bash call runs it: the project's copy, cwd = project,
        no added flags, CLAUDECODE=1 and the session id in the environment."""
        e = dict(
            self.env, CLAUDECODE="1", CLAUDE_CODE_SESSION_ID=self.sid, CLAUDE_PROJECT_DIR=self.dir
        )
        e.update(env or {})
        script = self.path("scripts", "hooks", "sane.py")
        if os.path.exists(script):  # the project's installed copy: its own `core`, a process
            proc = _text(self.run(script, list(args), env=e, process=True))
        else:
            proc = _text(self.run("sane.py", list(args), env=e))
        assert "Traceback" not in proc.stderr, proc.stderr
        return proc

    def install(self):
        """Copy the hooks into the project and wire its settings (sane.py install)."""
        r = self.cli("install", self.dir)
        assert r.returncode == 0, r.stderr
        return r

    def state(self):
        r = self.cli("status", "--json")
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)

    def session_state(self, sid=None):
        return self.state()["sessions"].get(sid or self.sid, {})


def _other_thread():
    """In-process calls swap process-wide things (stdio, environment, cwd): a call from a
    test's own threads (concurrency tests) runs as a real process."""
    return threading.current_thread() is not threading.main_thread()


def _interpreter_env(env):
    """True when env sets what only a new interpreter honours (PYTHONPATH, PYTHONHASHSEED, ...):
    such a call must run as a real process."""
    return any(
        k.startswith("PYTHON") and k != "PYTHONDONTWRITEBYTECODE" and os.environ.get(k) != v
        for k, v in (env or {}).items()
    )


def _text(proc):
    proc.stdout = proc.stdout.decode("utf-8", "replace")
    proc.stderr = proc.stderr.decode("utf-8", "replace")
    return proc


def _takes_project(args):
    return bool(args) and args[0] not in ("install", "uninstall", "--help", "-h")


@pytest.fixture
def proj(tmp_path, request):
    return Project(str(tmp_path), process=request.node.get_closest_marker("process") is not None)


class Gates:
    """Gates in-process: `c = ctx("Write", {"file_path": ..., "content": ...})` builds the Ctx
    (state verified and read, config loaded) and the Facts the engine builds for that
    PreToolUse call on `proj`, so any `gate(c, c.facts)` runs as in the hook. Other events:
    `ctx(event="Stop", hook="sanestop", ...)` (no tool: c.facts is None). The state is read
    without keeping the lock, so proj.hook/cli can run between; what a gate changes stays in
    c.state (nothing is written). The test runs in the project's environment and cwd."""

    def __init__(self, proj, monkeypatch):
        self.proj = proj
        env = dict(proj.env, CLAUDE_PROJECT_DIR=proj.dir)
        for k in list(os.environ):
            if k not in env:
                monkeypatch.delenv(k)
        for k, v in env.items():
            monkeypatch.setenv(k, v)
        monkeypatch.chdir(proj.dir)

    def __call__(self, tool=None, tool_input=None, event="PreToolUse", hook="sanetools", **fields):
        from core import config, engine, policy
        from core.state import Store

        inprocess.reset_caches()
        if tool is not None:
            fields.update(tool_name=tool, tool_input={} if tool_input is None else tool_input)
        payload = self.proj.payload(event, **fields)
        store = Store(self.proj.dir)
        try:
            store.open()
        finally:
            store.close()
        cfg = config.load(self.proj.dir, store.state["cache"].setdefault("yaml", {}))
        c = engine.Ctx(hook, event, payload, self.proj.dir, store, cfg)
        if tool is not None:
            c.facts = policy.facts_for(c.tool, c.tool_input, c.cwd, c.project, c.home, c.cfg)
        return c


@pytest.fixture
def ctx(proj, monkeypatch):
    """Build a hook's Ctx (and Facts) for `proj` in-process; see Gates."""
    return Gates(proj, monkeypatch)


def load_payload(name, project=None):
    """A real captured payload from ../shared/protocol/payloads, paths moved into project."""
    with open(os.path.join(PAYLOADS, name + ".json")) as fh:
        doc = json.load(fh)
    text = json.dumps(doc["payload"])
    if project is not None:
        import re

        text = re.sub(r"<runs>/[a-z_0-9]+/project", project.dir.replace("\\", "/"), text)
        for tag in ("<runs>", "<harness>", "<tmp>"):
            text = text.replace(tag, project.root)
    return json.loads(text)
