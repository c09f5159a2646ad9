"""Shared fixtures: every test gets its own project, HOME, XDG config dir and secret, with the
inherited Claude Code and SANE_* environment cleared; hooks run as real subprocesses."""

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOOKS = os.path.join(ROOT, "scripts", "hooks")
PAYLOADS = os.path.join(ROOT, "tests", "fixtures", "payloads")  # copied from shared/protocol
sys.path.insert(0, HOOKS)


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

    def __init__(self, root):
        self.root = root
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

    def hook(self, script, payload, env=None, raw=None, timeout=30):
        e = dict(self.env)
        e["CLAUDE_PROJECT_DIR"] = self.dir
        e.update(env or {})
        data = raw if raw is not None else json.dumps(payload)
        proc = subprocess.run(
            [sys.executable, os.path.join(HOOKS, script + ".py")],
            input=data if isinstance(data, bytes) else data.encode(),
            capture_output=True,
            env=e,
            cwd=self.dir,
            timeout=timeout,
        )
        proc.stdout = proc.stdout.decode("utf-8", "replace")
        proc.stderr = proc.stderr.decode("utf-8", "replace")
        r = Result(proc)
        assert r.code in (0, 2), (r.code, r.stderr)
        assert "Traceback" not in r.stderr and "Traceback" not in r.stdout
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

    def cli(self, *args, env=None, input=None):
        e = dict(self.env)
        e.update(env or {})
        proc = subprocess.run(
            [sys.executable, os.path.join(HOOKS, "sane.py")]
            + list(args)
            + ["--project", self.dir] * ("--project" not in args and _takes_project(args)),
            capture_output=True,
            text=True,
            env=e,
            cwd=self.dir,
            input=input,
            timeout=60,
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
        proc = subprocess.run(
            [sys.executable, script if os.path.exists(script) else os.path.join(HOOKS, "sane.py")]
            + list(args),
            capture_output=True,
            text=True,
            env=e,
            cwd=self.dir,
            timeout=60,
        )
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


def _takes_project(args):
    return bool(args) and args[0] not in ("install", "uninstall", "--help", "-h")


@pytest.fixture
def proj(tmp_path):
    return Project(str(tmp_path))


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
