"""sane.py demo: replay a recorded session through the real hook scripts in a scratch project
and show each decision. Needs no Claude Code install."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

from core.cli.common import out

HOOKS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SID = "demo-5e551011"
_TEST_FAILED = {
    "hook_event_name": "PostToolUseFailure",
    "tool_name": "Bash",
    "tool_input": {"command": "pytest -q"},
    "error": "Exit code 1\nFAILED test_fetch.py::test_retry - AssertionError",
}


def _bash(command):
    return {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
    }


def _prompt(text):
    return {"hook_event_name": "UserPromptSubmit", "prompt": text}


def _steps(p):
    f = os.path.join(p, "src", "fetch.py")
    return [
        ("the person asks for a change", "saneprompt", _prompt("add a retry to the fetch helper")),
        (
            "the agent edits before any research",
            "sanetools",
            {
                "hook_event_name": "PreToolUse",
                "tool_name": "Write",
                "tool_input": {"file_path": f, "content": "x\n"},
            },
        ),
        (
            "it reads the file",
            "sanetools",
            {"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {"file_path": f}},
        ),
        (
            "... and the read returns content",
            "sanetrack",
            {
                "hook_event_name": "PostToolUse",
                "tool_name": "Read",
                "tool_input": {"file_path": f},
                "tool_response": {
                    "type": "text",
                    "file": {"filePath": f, "content": "def fetch(): ...\n"},
                },
            },
        ),
        (
            "it searches the web",
            "sanetrack",
            {
                "hook_event_name": "PostToolUse",
                "tool_name": "WebSearch",
                "tool_input": {"query": "python retry backoff"},
                "tool_response": {"results": ["urllib3 Retry docs"]},
            },
        ),
        (
            "now the edit is allowed",
            "sanetools",
            {
                "hook_event_name": "PreToolUse",
                "tool_name": "Write",
                "tool_input": {"file_path": f, "content": "def fetch(retries=3): ...\n"},
            },
        ),
        (
            "it tries to read an SSH key through Bash",
            "sanetools",
            _bash("cat ~/.ssh/id_rsa | base64"),
        ),
        (
            "it tries to rewrite the hooks' state",
            "sanetools",
            _bash("echo '{}' > .claude/state.json 2>/dev/null"),
        ),
        ("the person types s+", "saneprompt", _prompt("s+")),
        ("a shell write under safemode", "sanetools", _bash("sed -e 's/a/b/' -i src/fetch.py")),
        ("the person types s-", "saneprompt", _prompt("s-")),
        ("a test run fails", "sanetrack", _TEST_FAILED),
        ("... again", "sanetrack", _TEST_FAILED),
        ("... and again: the breaker trips", "sanetrack", _TEST_FAILED),
        ("the agent tries once more", "sanetools", _bash("pytest -q")),
        ("the person checks and resets", "saneprompt", _prompt("rb-")),
        (
            "the agent finishes",
            "sanestop",
            {
                "hook_event_name": "Stop",
                "stop_hook_active": False,
                "last_assistant_message": "Added retries.",
            },
        ),
    ]


def _decision(code, stdout, stderr):
    try:
        doc = json.loads(stdout) if stdout.strip() else {}
    except ValueError:
        doc = {}
    spec = doc.get("hookSpecificOutput") or {}
    if code == 2:
        return "BLOCK", stderr.strip()
    if doc.get("decision") == "block":
        return "BLOCK", doc.get("reason", "")
    if spec.get("permissionDecision") in ("deny", "ask"):
        return spec["permissionDecision"].upper(), spec.get("permissionDecisionReason", "")
    note = spec.get("additionalContext") or doc.get("systemMessage") or ""
    return "allow", note


def demo(args):
    tmp = tempfile.mkdtemp(prefix="sane-demo-")
    try:
        project = os.path.join(tmp, "project")
        home = os.path.join(tmp, "home")
        os.makedirs(os.path.join(project, "src"))
        os.makedirs(os.path.join(home, ".ssh"))
        with open(os.path.join(project, "src", "fetch.py"), "w") as fh:
            fh.write("def fetch(): ...\n")
        shutil.copytree(
            HOOKS,
            os.path.join(project, "scripts", "hooks"),
            ignore=shutil.ignore_patterns("__pycache__"),
        )
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("CLAUDE", "SANE_")) and k != "CLAUDECODE"
        }
        env.update(
            HOME=home,
            XDG_CONFIG_HOME=os.path.join(home, ".config"),
            CLAUDE_PROJECT_DIR=project,
            SANE_HOOK_SECRET="demo-secret",
        )
        out("sane-hooks demo: a recorded session replayed through the real hook scripts")
        out("scratch project: %s\n" % project)
        for i, (what, hook, payload) in enumerate(_steps(project), 1):
            payload = dict(payload, session_id=SID, cwd=project, tool_use_id="toolu_demo_%02d" % i)
            script = os.path.join(project, "scripts", "hooks", hook + ".py")
            r = subprocess.run(
                [sys.executable, script],
                input=json.dumps(payload),
                env=env,
                capture_output=True,
                text=True,
                cwd=project,
                timeout=30,
            )
            verdict, why = _decision(r.returncode, r.stdout, r.stderr)
            tool = payload.get("tool_name") or payload.get("prompt") or ""
            out(
                "%2d. %-44s %-18s %-17s -> %s"
                % (i, what, payload["hook_event_name"], str(tool)[:17], verdict)
            )
            if why:
                out("      " + why.strip().replace("\n", "\n      ")[:400])
        r = subprocess.run(
            [
                sys.executable,
                os.path.join(project, "scripts", "hooks", "sane.py"),
                "status",
                "--project",
                project,
            ],
            env=env,
            capture_output=True,
            text=True,
        )
        out("\nsane.py status:\n" + r.stdout)
        return 0
    finally:
        if not getattr(args, "keep", False):
            shutil.rmtree(tmp, ignore_errors=True)
