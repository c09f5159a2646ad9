"""Fuzz: each hook gets 2,000+ generated payloads (random JSON, wrong types, missing fields, huge
strings, non-UTF-8 bytes, deep nesting, every event name). Exit 0 (2 only for a well-formed
block), no traceback anywhere, under a second each, and the state still verifies. Seeded."""

import json
import os
import random
import subprocess
import sys

import pytest

from conftest import ROOT

EVENTS = [
    "SessionStart",
    "Setup",
    "InstructionsLoaded",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "MessageDisplay",
    "PreToolUse",
    "PermissionRequest",
    "PermissionDenied",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "SubagentStart",
    "SubagentStop",
    "TaskCreated",
    "TaskCompleted",
    "Stop",
    "StopFailure",
    "TeammateIdle",
    "ConfigChange",
    "CwdChanged",
    "DirectoryAdded",
    "FileChanged",
    "WorktreeCreate",
    "WorktreeRemove",
    "PreCompact",
    "PostCompact",
    "Elicitation",
    "ElicitationResult",
    "SessionEnd",
]
TOOLS = [
    "Bash",
    "Read",
    "Write",
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "Grep",
    "Glob",
    "WebFetch",
    "WebSearch",
    "Agent",
    "Task",
    "PowerShell",
    "TodoWrite",
    "mcp__github__create_issue",
    "mcp__memory__read_graph",
    "mcp__context7__get-library-docs",
    "",
    "💥",
    None,
    7,
]
COMMANDS = [
    "ls",
    "rm -rf /",
    "cat ~/.ssh/id_rsa",
    "echo x > .claude/state.json",
    "sed -i s/a/b/ f",
    "python3 -c 'import os'",
    'bash -c "$(curl x)"',
    "a'b",
    "$((",
    "`",
    "<<EOF\nx",
    "python3 scripts/hooks/sane.py reset",
    "x" * 5000,
    "\x00\x01",
    "eval " * 50 + "ls",
    "$(" * 40 + "ls" + ")" * 40,
    "find . -exec rm {} +",
    "s+",
    "rb-",
    "#review now",
]
KEYS = [
    "session_id",
    "cwd",
    "hook_event_name",
    "tool_name",
    "tool_input",
    "tool_response",
    "prompt",
    "error",
    "stop_hook_active",
    "agent_id",
    "agent_type",
    "tool_use_id",
    "source",
    "reason",
    "is_interrupt",
    "last_assistant_message",
    "model",
    "task_id",
    "transcript_path",
]


def scalar(r):
    return r.choice(
        [
            None,
            True,
            False,
            0,
            -1,
            2**70,
            3.5,
            float("1e308"),
            "",
            "x",
            "💥" * 3,
            "a" * r.choice([10, 1000, 100000]),
            r.choice(COMMANDS),
            "../../etc/passwd",
            "/tmp/" + "%2e" * 5,
            "~/.aws/credentials",
        ]
    )


def value(r, depth=0):
    k = r.random()
    if depth > 4 or k < 0.5:
        return scalar(r)
    if k < 0.75:
        return [value(r, depth + 1) for _ in range(r.randint(0, 4))]
    return {
        r.choice(KEYS + ["file_path", "command", "content", "x", "", "💥"]): value(r, depth + 1)
        for _ in range(r.randint(0, 5))
    }


def payload(r, project):
    kind = r.random()
    if kind < 0.05:
        return bytes(r.getrandbits(8) for _ in range(r.randint(0, 300)))  # raw garbage, non-UTF-8
    if kind < 0.08:
        return b"[" * 50000 + b"]" * 50000  # deep nesting
    if kind < 0.12:
        return json.dumps(value(r)).encode()  # any JSON at all
    p = {
        "session_id": r.choice(["s1", "s2", "", None, 5, "x" * 300]),
        "cwd": r.choice([project, project, "", None, "/", "relative/dir", 9]),
        "hook_event_name": r.choice(EVENTS + ["", None, 1, "pretooluse"]),
    }
    if r.random() < 0.8:
        p["tool_name"] = r.choice(TOOLS)
        ti = {}
        for key in (
            "command",
            "file_path",
            "content",
            "old_string",
            "new_string",
            "path",
            "pattern",
            "prompt",
            "subagent_type",
            "edits",
            "notebook_path",
        ):
            if r.random() < 0.3:
                ti[key] = r.choice(
                    [r.choice(COMMANDS), os.path.join(project, "f.py"), value(r), scalar(r)]
                )
        p["tool_input"] = ti if r.random() < 0.9 else value(r)
    for key in KEYS:
        if key not in p and r.random() < 0.25:
            p[key] = value(r)
    if r.random() < 0.3:
        p["prompt"] = r.choice(
            COMMANDS + ["sl+ t\n- a", "research waive web", "intent X", "unlock"]
        )
    blob = json.dumps(p, ensure_ascii=r.random() < 0.5).encode("utf-8", "surrogatepass")
    if r.random() < 0.05:
        blob = blob.replace(b'"x"', b'"\xff\xfe"')  # invalid UTF-8 inside valid-looking JSON
    return blob


def run_blobs(proj, hook, blobs, env):
    """Every blob as stdin of `hook` in one fuzz_runner.py process: one result each."""
    proc = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tests", "fuzz_runner.py"), hook],
        input=b"\n\x1e\n".join(blobs),
        capture_output=True,
        env=env,
        cwd=proj.dir,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr.decode()[-3000:]
    results = [json.loads(x) for x in proc.stdout.decode().splitlines()]
    assert len(results) == len(blobs)
    return results


@pytest.mark.parametrize("hook", ["saneprompt", "sanetools", "sanetrack", "sanestop"])
def test_fuzz_hook(proj, hook):
    r = random.Random(f"sane-fuzz-{hook}")
    blobs = [payload(r, proj.dir) for _ in range(2000)]
    results = run_blobs(proj, hook, blobs, dict(proj.env, CLAUDE_PROJECT_DIR=proj.dir))
    for i, res in enumerate(results):
        where = "payload %d: %r" % (i, blobs[i][:300])
        assert res["code"] in (0, 2), where + " -> %r" % res["code"]
        assert "Traceback" not in res["stdout"] + res["stderr"], where
        assert res["ms"] < 1000, where + " took %.0f ms" % res["ms"]
        if res["code"] == 2:
            assert res["stderr"].startswith("["), where
        if res["stdout"].strip():
            json.loads(res["stdout"])  # any answer is one JSON object
    # our own bugs fail open with an error log line: the fuzz must find none
    log = proj.path(".claude", hook + ".log")
    errors = []
    if os.path.exists(log):
        for line in open(log):
            rec = json.loads(line)
            if rec.get("level") == "error" and not rec.get("msg", "").startswith("tamper"):
                errors.append(rec)
    assert not errors, errors[:3]
    assert proj.state()["verified"]


@pytest.mark.parametrize("hook", ["saneprompt", "sanetools", "sanetrack", "sanestop"])
def test_fuzz_sample_through_real_processes(proj, hook):
    r = random.Random(f"sane-fuzz-proc-{hook}")
    for _ in range(25):
        res = proj.hook(hook, None, raw=payload(r, proj.dir), process=True)
        assert res.code in (0, 2)
    assert proj.state()["verified"]


# shell grammar pieces for Bash commands built at random: every construct the analyser
# parses, nested and cut at random, so a word out of place meets every parser state
_ATOMS = ["ls", "cat README.md", "echo hi", "rm -f x", "git status", "make", "./t.sh", "true"]
_WRAPS = [
    ("$(", ")"),
    ("`", "`"),
    ("<(", ")"),
    ('"', '"'),
    ("'", "'"),
    ("{ ", "; }"),
    ("( ", " )"),
    ("bash -c '", "'"),
    ('eval "', '"'),
    ("if ", "; then :; fi"),
    ("while ", "; do :; done"),
    ("for i in a; do ", "; done"),
    ("case x in x) ", ";; esac"),
    ("[[ -n ", " ]]"),
    ("f() { ", "; }"),
    ("xargs -I{} ", ""),
    ("cat <<E\n", "\nE"),
    ("${x:-", "}"),
    ("$((", "))"),
]
_JOINS = [" | ", " && ", " || ", "; ", " & ", "\n", " |\n", " 2>&1 | ", " > out; ", " <<< "]
_NOISE = list("'\"`$(){}[]<>|&;\\\n#!*?~= ") + ["fi", "done", "esac", "then", "}", ";;", "EOF"]


def shell_text(r, depth=0):
    s = r.choice(_ATOMS)
    for _ in range(r.randint(0, 3)):
        k = r.random()
        if k < 0.35 and depth < 6:
            a, b = r.choice(_WRAPS)
            s = a + shell_text(r, depth + 1) + b
        elif k < 0.7 and depth < 6:
            s = s + r.choice(_JOINS) + shell_text(r, depth + 1)
        elif k < 0.85:
            i = r.randint(0, len(s))
            s = s[:i] + r.choice(_NOISE) + s[i:]
        else:
            s = s[: r.randint(0, len(s))]  # cut anywhere
    return s


def test_fuzz_shell_grammar(proj):
    """Bash commands of random shell grammar through sanetools: each answered (0 or 2), in
    time, with no error logged (an analyser or gate bug would be one)."""
    r = random.Random("sane-fuzz-shell")
    blobs = [
        json.dumps(
            {
                "session_id": "s1",
                "cwd": proj.dir,
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": shell_text(r)},
            }
        ).encode()
        for _ in range(1500)
    ]
    env = dict(proj.env, CLAUDE_PROJECT_DIR=proj.dir, SANE_BREAKER__MAX_CONSECUTIVE="100000")
    env["SANE_ENFORCEMENT__MAX_REPEATS"] = "100000"
    results = run_blobs(proj, "sanetools", blobs, env)
    for i, res in enumerate(results):
        where = "command %d: %r" % (i, json.loads(blobs[i])["tool_input"]["command"][:300])
        assert res["code"] in (0, 2), where
        assert "Traceback" not in res["stdout"] + res["stderr"], where
        assert "failed" not in res["stdout"], where + " " + res["stdout"][:300]
        assert res["ms"] < 1000, where + " took %.0f ms" % res["ms"]
    log = proj.path(".claude", "sanetools.log")
    errors = (
        [rec for rec in (json.loads(line) for line in open(log)) if rec.get("level") == "error"]
        if os.path.exists(log)
        else []
    )
    assert not errors, errors[:3]
