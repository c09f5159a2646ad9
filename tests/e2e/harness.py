"""The end-to-end harness: the real Claude Code CLI against the scripted FakeAPI.

`E2E` is a scratch HOME (and XDG_CONFIG_HOME under it), a scratch git project, its own
`SANE_HOOK_SECRET`, and a started `FakeAPI`; `E2E.run(prompt, script=[...])` runs `claude -p`
once (later runs continue the session) and returns a `Run`: exit code, stream-json lines
(hook_started / hook_response), the API requests seen, and the tool_result the model received
for each tool call. The fixtures live in conftest.py; the assertions shared by the scenarios
and a throw-away probe hook are here.
"""

from __future__ import annotations

import atexit
import json
import os
import secrets
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from .fakeapi import FakeAPI, Recorded, block_text

REPO = Path(__file__).resolve().parents[2]
INSTALL_SCRIPT = REPO / ".ci" / "install_claude.sh"
PINNED_VERSION = "2.1.330"
MODEL = "claude-sonnet-4-5"
RUN_TIMEOUT = float(os.environ.get("SANE_E2E_TIMEOUT", "60"))
PYTHON = sys.executable  # not realpath: a venv interpreter must stay in its venv


def _cli_dir() -> Path:
    return Path(os.environ.get("SANE_E2E_DIR") or Path.home() / ".cache" / "sane-e2e")


def _find_cli() -> tuple[str | None, str]:
    """(path to claude, reason when missing). Never a `claude` found on PATH: that could
    be the coding client running these tests, at another version."""
    explicit = os.environ.get("SANE_CLAUDE_BIN")
    if explicit:
        if os.access(explicit, os.X_OK):
            return explicit, ""
        return None, f"SANE_CLAUDE_BIN={explicit} is not an executable"
    path = _cli_dir() / "node_modules" / ".bin" / "claude"
    if os.access(path, os.X_OK):
        return str(path), ""
    if not shutil.which("npm") or not shutil.which("node"):
        why = "node/npm are not installed"
    else:
        why = f"the Claude Code CLI is not installed in {_cli_dir()}"
    return None, (
        f"{why}: run `bash .ci/install_claude.sh` (or set SANE_E2E_INSTALL=1) "
        f"to install @anthropic-ai/claude-code@{PINNED_VERSION}"
    )


class Run:
    """What one `claude -p` run did: exit code, stream-json lines, the API requests it made."""

    def __init__(
        self,
        prompt: str,
        proc: subprocess.CompletedProcess,
        requests: list[Recorded],
        duration: float,
    ) -> None:
        self.prompt = prompt
        self.returncode = proc.returncode
        self.stdout = proc.stdout
        self.stderr = proc.stderr
        self.duration = duration
        self.requests = requests
        self.events: list[dict] = []
        self.unparsed: list[str] = []
        for line in proc.stdout.splitlines():
            line = line.strip()
            if not line:
                continue
            try:
                self.events.append(json.loads(line))
            except ValueError:
                self.unparsed.append(line)

    # -- stream-json ----------------------------------------------------------------------
    @property
    def result(self) -> dict:
        """The final `result` line (empty dict when there is none)."""
        for ev in reversed(self.events):
            if ev.get("type") == "result":
                return ev
        return {}

    @property
    def result_text(self) -> str:
        return str(self.result.get("result") or "")

    @property
    def session_id(self) -> str | None:
        for ev in self.events:
            if ev.get("session_id"):
                return ev["session_id"]
        return None

    def hooks(
        self, event: str | None = None, subtype: str = "hook_response", name: str | None = None
    ) -> list[dict]:
        """hook_started / hook_response lines, by hook event (PreToolUse) or by name
        (PreToolUse:Write)."""
        return [
            ev
            for ev in self.events
            if ev.get("type") == "system"
            and ev.get("subtype") == subtype
            and (event is None or ev.get("hook_event") == event)
            and (name is None or ev.get("hook_name") == name)
        ]

    # -- what the model was sent and answered ---------------------------------------------
    def calls(self, kind: str = "main") -> list[Recorded]:
        return [r for r in self.requests if r.kind == kind]

    @property
    def model_calls(self) -> int:
        """Main-thread model calls (no auxiliary ones, no subagents)."""
        return len(self.calls("main"))

    def tool_uses(self, name: str | None = None, kind: str | None = None) -> list[dict]:
        """Every tool_use block the fake model answered with, in order."""
        out = []
        for r in self.requests:
            if kind is not None and r.kind != kind:
                continue
            for b in r.answer:
                if b.get("type") == "tool_use" and (name is None or b.get("name") == name):
                    out.append(b)
        return out

    def tool_result(self, tool_use_id: str) -> dict | None:
        """{"is_error", "content"} the model received for a tool call, or None if it never
        did. From the API requests first; from the stream-json `user` lines otherwise (a run
        that ended with a tool call the model never saw the result of)."""
        for r in reversed(self.requests):
            res = r.tool_results().get(tool_use_id)
            if res is not None:
                return res
        for ev in self.events:
            if ev.get("type") != "user":
                continue
            content = (ev.get("message") or {}).get("content")
            for b in content if isinstance(content, list) else []:
                if isinstance(b, dict) and b.get("tool_use_id") == tool_use_id:
                    return {
                        "is_error": bool(b.get("is_error", False)),
                        "content": block_text(b.get("content")),
                    }
        return None

    def results_for(self, name: str) -> list[dict]:
        """The results of every call of tool `name`, in call order (None where none came)."""
        return [self.tool_result(b["id"]) for b in self.tool_uses(name)]

    def last_user_text(self) -> str:
        """The text of the last user message the model received in this run."""
        main = self.calls("main")
        if not main or not main[-1].messages:
            return ""
        return block_text(main[-1].messages[-1].get("content"))

    def describe(self) -> str:
        """A compact account of the run for assertion messages."""
        lines = [
            f"prompt={self.prompt!r} rc={self.returncode} {self.duration:.1f}s "
            f"model_calls={self.model_calls}"
        ]
        for ev in self.hooks():
            lines.append(
                f"  hook {ev.get('hook_name')} exit={ev.get('exit_code')} "
                f"stdout={str(ev.get('stdout'))[:300]!r} "
                f"stderr={str(ev.get('stderr'))[:300]!r}"
            )
        for b in self.tool_uses():
            res = self.tool_result(b["id"])
            lines.append(
                f"  tool {b['name']} {json.dumps(b['input'])[:120]} -> "
                f"{None if res is None else (res['is_error'], res['content'][:300])}"
            )
        lines.append(f"  result={self.result_text[:400]!r}")
        if self.stderr.strip():
            lines.append(f"  stderr={self.stderr[-800:]!r}")
        return "\n".join(lines)


class E2E:
    """A scratch HOME + git project + fake API, and the means to run claude in it."""

    def __init__(self, root: Path, cli: str, api: FakeAPI) -> None:
        if str(root.resolve()).startswith("/dev/"):
            # Claude Code's sandbox mounts a fresh /dev: a project on /dev/shm (the unit
            # tests' RAM disk) would not exist for a sandboxed Bash call
            root = Path(tempfile.mkdtemp(prefix="sane-e2e-"))
            atexit.register(shutil.rmtree, root, True)
        self.root = root
        self.cli = cli
        self.api = api
        self.home = root / "home"
        self.xdg = self.home / ".config"
        self.project = root / "project"
        self.tmp = root / "tmp"
        for d in (self.home, self.xdg, self.project, self.tmp):
            d.mkdir(parents=True, exist_ok=True)
        self.project = self.project.resolve()
        self.secret = secrets.token_hex(16)
        self.runs: list[Run] = []
        self.extra_env: dict[str, str] = {}
        subprocess.run(["git", "init", "-q", str(self.project)], check=True, env=self.base_env())
        (self.project / ".claude").mkdir(exist_ok=True)

    # -- environment ----------------------------------------------------------------------
    def base_env(self) -> dict[str, str]:
        """The empty environment of real-client.md plus PATH and LANG; no CLAUDE*/SANE_*
        leaks in from a Claude Code session that may be running these tests."""
        env = {
            "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
            "LANG": os.environ.get("LANG", "C.UTF-8"),
            "HOME": str(self.home),
            "XDG_CONFIG_HOME": str(self.xdg),
            "SANE_HOOK_SECRET": self.secret,
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "e2e",
            "GIT_AUTHOR_EMAIL": "e2e@example.invalid",
            "GIT_COMMITTER_NAME": "e2e",
            "GIT_COMMITTER_EMAIL": "e2e@example.invalid",
        }
        env.update(self.extra_env)
        return env

    def claude_env(self) -> dict[str, str]:
        env = self.base_env()
        env.update(
            {
                "ANTHROPIC_BASE_URL": self.api.url,
                "ANTHROPIC_API_KEY": "sk-ant-e2e-dummy",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                "DISABLE_TELEMETRY": "1",
                "DISABLE_AUTOUPDATER": "1",
                "DISABLE_ERROR_REPORTING": "1",
                "CLAUDE_CODE_MAX_RETRIES": "0",
                "CLAUDE_CODE_TMPDIR": str(self.tmp),
            }
        )
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            env["IS_SANDBOX"] = "1"  # else bypassPermissions refuses to start as root
        return env

    # -- files ----------------------------------------------------------------------------
    @property
    def settings_path(self) -> Path:
        return self.project / ".claude" / "settings.json"

    def settings(self) -> dict:
        try:
            return json.loads(self.settings_path.read_text())
        except FileNotFoundError:
            return {}

    def write_settings(self, settings: dict) -> None:
        self.settings_path.parent.mkdir(parents=True, exist_ok=True)
        self.settings_path.write_text(json.dumps(settings, indent=2) + "\n")

    def add_hook(
        self, event: str, command: str, matcher: str | None = "*", timeout: int = 30
    ) -> None:
        """Append one command hook to the project's settings (the nested shape)."""
        settings = self.settings()
        group: dict[str, Any] = {
            "hooks": [{"type": "command", "command": command, "timeout": timeout}]
        }
        if matcher is not None:
            group = {"matcher": matcher, **group}
        settings.setdefault("hooks", {}).setdefault(event, []).append(group)
        self.write_settings(settings)

    def write(self, rel: str, content: str) -> Path:
        path = self.project / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)
        return path

    def commit(self, message: str = "setup") -> None:
        """Commit everything in the scratch project, as the person would after setting it up
        (the learning gate measures changes against HEAD: an uncommitted install would count
        as the session's work)."""
        env = self.base_env()
        subprocess.run(["git", "add", "-A"], cwd=self.project, env=env, check=True)
        subprocess.run(
            ["git", "commit", "-q", "--allow-empty", "-m", message],
            cwd=self.project,
            env=env,
            check=True,
        )

    def jsonl(self, rel: str) -> list[dict]:
        """A JSON-lines file of the project (logs, audit) as dicts; [] when absent."""
        path = self.project / rel
        if not path.exists():
            return []
        out = []
        for line in path.read_text(errors="replace").splitlines():
            line = line.strip()
            if line:
                try:
                    out.append(json.loads(line))
                except ValueError:
                    out.append({"_unparsed": line})
        return out

    # -- running claude -------------------------------------------------------------------
    def run(
        self,
        prompt: str,
        script: list | None = None,
        subagents: dict | None = None,
        new_session: bool = False,
        timeout: float = RUN_TIMEOUT,
        extra_args: list[str] | None = None,
    ) -> Run:
        """One `claude -p` run; later runs continue the session unless new_session."""
        if script is not None:
            self.api.script = script
        if subagents is not None:
            self.api.subagents = subagents
        args = [
            self.cli,
            "-p",
            prompt,
            "--output-format",
            "stream-json",
            "--verbose",
            "--include-hook-events",
            "--permission-mode",
            "bypassPermissions",
            "--model",
            MODEL,
            "--max-turns",
            "30",
        ]
        if self.runs and not new_session:
            args.append("--continue")
        args += extra_args or []
        first = len(self.api.requests)
        start = time.monotonic()
        try:
            proc = subprocess.run(
                args,
                cwd=self.project,
                env=self.claude_env(),
                capture_output=True,
                text=True,
                timeout=timeout,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired as exc:
            pytest.fail(
                f"claude -p {prompt!r} did not finish in {timeout}s\n"
                f"stdout tail: {str(exc.stdout)[-2000:]}\nstderr tail: "
                f"{str(exc.stderr)[-2000:]}"
            )
        run = Run(prompt, proc, self.api.requests[first:], time.monotonic() - start)
        self.runs.append(run)
        assert not self.api.errors, f"fake API script errors: {self.api.errors}"
        return run

    # -- our hooks ------------------------------------------------------------------------
    def sane_py(self) -> Path:
        return self.project / "scripts" / "hooks" / "sane.py"

    def install_sane(self, *extra: str) -> subprocess.CompletedProcess:
        """`sane.py install PROJECT [extra...]` from the repo, as the person would run it
        (with the OS sandbox, unless extra holds --no-sandbox)."""
        src = REPO / "scripts" / "hooks" / "sane.py"
        if not src.exists():
            pytest.skip("scripts/hooks/sane.py is missing from this checkout")
        proc = subprocess.run(
            [PYTHON, str(src), "install", str(self.project), *extra],
            cwd=self.project,
            env=self.base_env(),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 0, f"sane.py install failed: {proc.stdout}\n{proc.stderr}"
        return proc

    def sane(self, *args: str, check: bool = False) -> subprocess.CompletedProcess:
        """The project's installed sane.py, run by the person (no Claude Code environment)."""
        proc = subprocess.run(
            [PYTHON, str(self.sane_py()), *args, "--project", str(self.project)],
            cwd=self.project,
            env=self.base_env(),
            capture_output=True,
            text=True,
            timeout=60,
        )
        if check:
            assert proc.returncode == 0, f"sane.py {args}: {proc.stdout}\n{proc.stderr}"
        return proc

    def status(self) -> dict:
        proc = self.sane("status", "--json", check=True)
        return json.loads(proc.stdout)

    def session_state(self, sid: str) -> dict:
        return (self.status().get("sessions") or {}).get(sid) or {}

    def config(self, yaml_text: str) -> None:
        self.write(".claude/sane.yaml", yaml_text)

    def hook_logs(self) -> dict[str, list[dict]]:
        return {
            h: self.jsonl(f".claude/{h}.log")
            for h in ("saneprompt", "sanetools", "sanetrack", "sanestop")
        }

    def audit(self) -> list[dict]:
        return self.jsonl(".claude/audit.jsonl")


# -- assertions shared by the scenarios ------------------------------------------------------
OUR_HOOKS = ("saneprompt", "sanetools", "sanetrack", "sanestop")
BAD_HOOK_OUTPUT = (
    "can't open file",
    "Traceback",
    "No such file or directory",
    "command not found",
    "SyntaxError",
)


def assert_hooks_healthy(run: Run, e2e: E2E | None = None) -> None:
    """Every hook Claude Code ran exited 0 or 2 and printed no interpreter failure (a missing
    script makes python exit 2, which would look like a block); with `e2e`, our hooks' logs
    also show no failure (a hook that fails open looks exactly like an allow)."""
    responses = run.hooks()
    assert responses, f"no hook ran at all (settings rejected?)\n{run.describe()}"
    for ev in responses:
        out = f"{ev.get('stdout')}\n{ev.get('stderr')}"
        assert ev.get("exit_code") in (0, 2), (
            f"hook {ev.get('hook_name')} exit {ev.get('exit_code')}: {out[:500]}\n{run.describe()}"
        )
        for bad in BAD_HOOK_OUTPUT:
            assert bad not in out, f"hook {ev.get('hook_name')}: {bad!r} in {out[:800]}"
    if e2e is not None:
        assert_no_fail_open(e2e)


def assert_no_fail_open(e2e: E2E) -> None:
    """Our hooks logged no failure: a hook that fails open looks exactly like an allow."""
    for hook, lines in e2e.hook_logs().items():
        bad = [
            ln
            for ln in lines
            if ln.get("level") == "error" or str(ln.get("msg", "")).startswith("fail open")
        ]
        assert not bad, f"{hook}.py failed open {len(bad)} times: " + "; ".join(
            str(ln.get("msg"))[:300] for ln in bad[:3]
        )


def assert_blocked(res: dict | None, code: str, run: Run) -> str:
    """The model received an error tool_result naming the rule; returns its text."""
    assert res is not None, f"the model never received a result\n{run.describe()}"
    assert res["is_error"], f"expected a {code} block, the tool ran\n{run.describe()}"
    assert code in res["content"], f"expected {code} in {res['content']!r}\n{run.describe()}"
    return res["content"]


def assert_allowed(res: dict | None, run: Run) -> str:
    assert res is not None, f"the model never received a result\n{run.describe()}"
    assert not res["is_error"], f"expected the tool to run: {res['content']!r}\n{run.describe()}"
    return res["content"]


def count(value: Any) -> int:
    """A count kept either as a number or as a list/dict of the things counted."""
    if isinstance(value, (list, dict, set, tuple)):
        return len(value)
    return int(value or 0)


# -- a throw-away hook: logs its payload, answers as told ------------------------------------
PROBE = r"""
import argparse, fcntl, json, os, sys, time
ap = argparse.ArgumentParser()
ap.add_argument("--log", required=True)
ap.add_argument("--tag", default="probe")
ap.add_argument("--exit", type=int, default=0)
ap.add_argument("--stderr", default="")
ap.add_argument("--stdout", default="")
ap.add_argument("--once", default="")      # act only while this file does not exist
ap.add_argument("--sleep", type=float, default=0)
a = ap.parse_args()
payload = json.load(sys.stdin)
start = time.time()
time.sleep(a.sleep)
rec = {"tag": a.tag, "payload": payload, "start": start, "end": time.time(),
       "env": {k: v for k, v in os.environ.items() if k.startswith("CLAUDE")}}
with open(a.log, "a") as f:
    fcntl.flock(f, fcntl.LOCK_EX)
    f.write(json.dumps(rec) + "\n")
if a.once:
    if os.path.exists(a.once):
        sys.exit(0)
    open(a.once, "w").close()
if a.stdout:
    sys.stdout.write(a.stdout)
if a.stderr:
    sys.stderr.write(a.stderr)
sys.exit(a.exit)
"""


def probe(e2e: E2E, tag: str, **opts: object) -> str:
    """The command line of a probe hook that logs its payload to root/hooks.jsonl."""
    script = e2e.root / "probe_hook.py"
    if not script.exists():
        script.write_text(PROBE)
    args = [PYTHON, str(script), "--log", str(e2e.root / "hooks.jsonl"), "--tag", tag]
    for key, val in opts.items():
        args += [f"--{key}", str(val)]
    return shlex.join(args)


def probe_log(e2e: E2E, tag: str | None = None) -> list[dict]:
    path = e2e.root / "hooks.jsonl"
    if not path.exists():
        return []
    recs = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [r for r in recs if tag is None or r["tag"] == tag]
