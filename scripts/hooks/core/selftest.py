"""`<hook>.py --self-test`: the hook's own checks, run through its real entry point in a
throw-away project with a cleared environment. Prints `N passed, M failed`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from typing import Any

HOOKS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Lab:
    def __init__(self) -> None:
        self.root = tempfile.mkdtemp(prefix="sane-selftest-")
        self.project = os.path.realpath(os.path.join(self.root, "project"))
        self.home = os.path.join(self.root, "home")
        os.makedirs(os.path.join(self.project, ".claude"))
        os.makedirs(os.path.join(self.home, ".ssh"))
        self.env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("CLAUDE", "SANE_")) and k != "CLAUDECODE"
        }
        self.env.update(
            HOME=self.home,
            XDG_CONFIG_HOME=os.path.join(self.home, ".config"),
            SANE_HOOK_SECRET="self-test-secret",
            CLAUDE_PROJECT_DIR=self.project,
        )
        self.n = 0

    def run(
        self, hook: str, event: str, raw: bytes | None = None, **fields: Any
    ) -> tuple[int, str | None, dict[str, Any], str, str]:
        self.n += 1
        p = {
            "session_id": "selftest",
            "cwd": self.project,
            "hook_event_name": event,
            "tool_use_id": "toolu_self_%d" % self.n,
        }
        p.update(fields)
        data = raw if raw is not None else json.dumps(p).encode()
        r = subprocess.run(
            [sys.executable, os.path.join(HOOKS, hook + ".py")],
            input=data,
            capture_output=True,
            env=self.env,
            cwd=self.project,
            timeout=30,
        )
        out = r.stdout.decode("utf-8", "replace")
        try:
            doc = json.loads(out) if out.strip() else {}
        except ValueError:
            doc = {}
        spec = doc.get("hookSpecificOutput") or {}
        reason = (
            doc.get("reason")
            if doc.get("decision") == "block"
            else spec.get("permissionDecisionReason")
            if spec.get("permissionDecision") == "deny"
            else r.stderr.decode("utf-8", "replace")
            if r.returncode == 2
            else None
        )
        return r.returncode, reason, doc, out, r.stderr.decode("utf-8", "replace")

    def state(self) -> tuple[dict[str, Any], str | None]:
        sys.path.insert(0, HOOKS)
        old = dict(os.environ)
        os.environ.update(self.env)
        try:
            from core.state import Store

            st = Store(self.project).open()
            try:
                return st.state, st.tamper
            finally:
                st.close()
        finally:
            os.environ.clear()
            os.environ.update(old)

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def _prompt_checks(lab):
    r = lab.run("saneprompt", "UserPromptSubmit", prompt="s+")
    yield "s+ is consumed and answers", r[0] == 0 and "safemode is ON" in (r[1] or "")
    r = lab.run("saneprompt", "UserPromptSubmit", prompt="  S?  ")
    yield "s? answers, case-insensitive", "safemode is ON" in (r[1] or "")
    r = lab.run("saneprompt", "UserPromptSubmit", prompt="s-curve fitting for the plot")
    yield "a prefix is not a command", r[1] is None and r[0] == 0
    r = lab.run("saneprompt", "UserPromptSubmit", prompt="rb?")
    yield "rb? answers breaker status", "breaker is OK" in (r[1] or "")
    r = lab.run("saneprompt", "UserPromptSubmit", prompt="help")
    yield "help lists the commands", "safemode on" in (r[1] or "")
    r = lab.run("saneprompt", "UserPromptSubmit", prompt="research waive web")
    yield "research waive web", "waived" in (r[1] or "")
    r = lab.run("saneprompt", "UserPromptSubmit", raw=b"{not json")
    yield "bad stdin fails open silently", r[0] == 0 and r[3] == "" and "Traceback" not in r[4]
    r = lab.run("saneprompt", "SessionStart", source="startup")
    yield "SessionStart exits 0", r[0] == 0 and "Traceback" not in r[4]


def _tools_checks(lab):
    f = os.path.join(lab.project, "a.py")
    r = lab.run("sanetools", "PreToolUse", tool_name="Read", tool_input={"file_path": f})
    yield "Read is allowed silently", r[0] == 0 and r[3] == ""
    r = lab.run(
        "sanetools", "PreToolUse", tool_name="Write", tool_input={"file_path": f, "content": "x"}
    )
    yield "Write before research: [research-gate]", (r[1] or "").startswith("[research-gate]")
    r = lab.run(
        "sanetools", "PreToolUse", tool_name="Bash", tool_input={"command": "cat ~/.ssh/id_rsa"}
    )
    yield "cat ~/.ssh/id_rsa: [blocked-path]", (r[1] or "").startswith("[blocked-path]")
    r = lab.run(
        "sanetools", "PreToolUse", tool_name="Read", tool_input={"file_path": "%2e%2e/../.env"}
    )
    yield "encoded .env read: [blocked-path]", (r[1] or "").startswith("[blocked-path]")
    r = lab.run(
        "sanetools",
        "PreToolUse",
        tool_name="Bash",
        tool_input={"command": "echo {} > .claude/state.json 2>/dev/null"},
    )
    yield "shell write to state: [self-protection]", (r[1] or "").startswith("[self-protection]")
    r = lab.run(
        "sanetools",
        "PreToolUse",
        tool_name="Write",
        tool_input={"file_path": os.path.join(lab.project, "scripts/hooks/x.py"), "content": ""},
    )
    yield (
        "Write into scripts/hooks: [self-protection]",
        (r[1] or "").startswith("[self-protection]"),
    )
    with open(os.path.join(lab.project, ".claude", "state.json"), "w") as fh:
        fh.write('{"sig": "forged", "state": {"seq": 1}}')
    r = lab.run(
        "sanetools", "PreToolUse", tool_name="Write", tool_input={"file_path": f, "content": "x"}
    )
    yield "forged state: [tamper] on a write", (r[1] or "").startswith("[tamper]")
    r = lab.run("sanetools", "PreToolUse", tool_name="Read", tool_input={"file_path": f})
    yield "forged state: reads still allowed", r[0] == 0 and r[1] is None
    r = lab.run("sanetools", "PreToolUse", raw=b"\xff\xfe garbage")
    yield "garbage stdin fails open", r[0] == 0 and "Traceback" not in r[4]


def _track_checks(lab):
    f = os.path.join(lab.project, "a.py")
    lab.run(
        "sanetrack",
        "PostToolUse",
        tool_name="Read",
        tool_input={"file_path": f},
        tool_response={"type": "text", "file": {"filePath": f, "content": "x\n"}},
    )
    st, _ = lab.state()
    yield "a Read with content credits local", bool(st["sessions"]["selftest"]["research"]["local"])
    lab.run(
        "sanetrack",
        "PostToolUse",
        tool_name="Grep",
        tool_input={"pattern": "zz"},
        tool_response={"mode": "files_with_matches", "numFiles": 0, "filenames": []},
    )
    lab.run(
        "sanetrack",
        "PostToolUse",
        tool_name="Write",
        tool_input={"file_path": f, "content": "y"},
        tool_response={"type": "create", "filePath": f},
    )
    st, _ = lab.state()
    yield "a Write counts as an edit", st["sessions"]["selftest"]["edits"]["count"] == 1
    lab.run(
        "sanetrack",
        "PostToolUse",
        tool_name="Bash",
        tool_input={"command": "ls"},
        tool_response={"stdout": "Error: everything failed", "stderr": ""},
    )
    st, _ = lab.state()
    yield "stdout text is not an error", st["circuit_breaker"]["failures"] == 0
    for _ in range(3):
        r = lab.run(
            "sanetrack",
            "PostToolUseFailure",
            tool_name="Bash",
            tool_input={"command": "make"},
            error="Exit code 2\nmake: *** No rule to make target",
            is_interrupt=False,
        )
    st, tamper = lab.state()
    yield "3 failures trip the breaker", st["circuit_breaker"]["tripped"] is True and tamper is None
    yield "the trip is told to the model", "TRIPPED" in r[3]


def _stop_checks(lab):
    r = lab.run("sanestop", "Stop", stop_hook_active=False, last_assistant_message="done")
    yield (
        "nothing pending: Stop allowed with a summary",
        r[0] == 0 and r[1] is None and "summary" in r[3],
    )
    lab.run("saneprompt", "UserPromptSubmit", prompt="sl+ finish the parser\n- tests pass")
    r = lab.run("sanestop", "Stop", stop_hook_active=False, last_assistant_message="done")
    yield "active SaneLoop blocks Stop: [saneloop]", (r[1] or "").startswith("[saneloop]")
    r = lab.run("sanestop", "Stop", stop_hook_active=True, last_assistant_message="done")
    yield "stop_hook_active alone does not open it", (r[1] or "").startswith("[saneloop]")
    for _ in range(3):
        lab.run(
            "sanetrack",
            "PostToolUseFailure",
            tool_name="Bash",
            tool_input={"command": "x"},
            error="Exit code 127\nx: command not found",
            is_interrupt=False,
        )
    r = lab.run("sanestop", "Stop", stop_hook_active=False, last_assistant_message="done")
    yield "breaker tripped: Stop does not block", r[1] is None and r[0] == 0
    r = lab.run("sanestop", "SessionEnd", reason="other")
    yield "SessionEnd exits 0 silently", r[0] == 0 and r[3] == ""


CHECKS = {
    "saneprompt": _prompt_checks,
    "sanetools": _tools_checks,
    "sanetrack": _track_checks,
    "sanestop": _stop_checks,
}


def run(hook: str) -> int:
    lab = Lab()
    passed = failed = 0
    try:
        for name, ok in CHECKS[hook](lab):
            if ok:
                passed += 1
            else:
                failed += 1
                print("FAIL: %s" % name)
    except Exception as exc:  # a crash in a check is a failure, not a traceback
        failed += 1
        print("FAIL: self-test crashed: %s: %s" % (exc.__class__.__name__, exc))
    finally:
        lab.close()
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1
