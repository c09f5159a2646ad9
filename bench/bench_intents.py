#!/usr/bin/env python3
"""Intent governance latency: median wall time of a PreToolUse Edit through the real
sanetools.py with an intents file present (an intent selected, the file in scope, a read
baseline to check) next to the same call without an intents file, and the floor command
`python3 -c "import json, hmac, hashlib, fcntl"` (same interpreter, same run, interleaved).
Also the PostToolUse Edit that appends the Agent Trace record. A benchmark prints figures;
it is not a test.

usage: python3 bench/bench_intents.py [--runs 200] [--quick]
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import scratch

SID = "bench-intents"
INTENTS = """\
active_intents:
  - id: INT-001
    name: JWT Authentication Migration
    status: IN_PROGRESS
    owned_scope: ["src/auth/**", "src/middleware/jwt.ts"]
    constraints: ["Must not use external auth providers"]
    acceptance_criteria: ["Unit tests in tests/auth/ pass"]
  - id: INT-002
    name: Rate limiting
    status: DRAFT
    owned_scope: ["src/rate/**"]
"""


def make_project(tmp, name, intents):
    home = os.path.join(tmp, "home-" + name)
    project = scratch.project(tmp, name, home, (os.path.join("src", "auth"),))
    f = os.path.join(project, "src", "auth", "app.py")
    with open(f, "w") as fh:
        fh.write("def main():\n    return 1\n" * 20)
    if intents:
        with open(os.path.join(project, ".claude", "active_intents.yaml"), "w") as fh:
            fh.write(INTENTS)
        with open(os.path.join(project, ".claude", ".intentignore"), "w") as fh:
            fh.write("*.md\ndocs/\n")
    env = scratch.hook_env(project, home)
    base = {"session_id": SID, "cwd": project, "transcript_path": os.path.join(home, "t.jsonl")}
    setup = [
        (
            "saneprompt",
            dict(base, hook_event_name="SessionStart", source="startup", model="claude-sonnet-4-5"),
        ),
        (
            "saneprompt",
            dict(base, hook_event_name="UserPromptSubmit", prompt="add token refresh to auth"),
        ),
        (
            "sanetrack",
            dict(
                base,
                hook_event_name="PostToolUse",
                tool_name="Read",
                tool_input={"file_path": f},
                tool_response={"type": "text", "file": {"filePath": f, "content": "x"}},
            ),
        ),
        (
            "sanetrack",
            dict(
                base,
                hook_event_name="PostToolUse",
                tool_name="WebSearch",
                tool_input={"query": "q"},
                tool_response={"results": ["r"]},
            ),
        ),
    ]
    if intents:
        setup.append(
            ("saneprompt", dict(base, hook_event_name="UserPromptSubmit", prompt="intent INT-001"))
        )
    for hook, payload in setup:
        run_hook(project, env, hook, payload)
    pre = dict(
        base,
        hook_event_name="PreToolUse",
        tool_name="Edit",
        tool_use_id="toolu_bench",
        tool_input={"file_path": f, "old_string": "return 1", "new_string": "return 1"},
    )
    post = dict(
        pre,
        hook_event_name="PostToolUse",
        tool_response={
            "filePath": f,
            "oldString": "return 1",
            "newString": "return 1",
            "structuredPatch": [
                {
                    "oldStart": 2,
                    "oldLines": 1,
                    "newStart": 2,
                    "newLines": 1,
                    "lines": ["-    return 1", "+    return 1"],
                }
            ],
        },
    )
    return project, env, pre, post


def run_hook(project, env, hook, payload):
    r = subprocess.run(
        [sys.executable, os.path.join(project, "scripts", "hooks", hook + ".py")],
        input=json.dumps(payload).encode(),
        env=env,
        cwd=project,
        capture_output=True,
    )
    return r


def timed(argv, data, env, cwd):
    t = time.perf_counter()
    subprocess.run(
        argv, input=data, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--quick", action="store_true", help="CI mode: 30 runs")
    args = ap.parse_args()
    runs = 30 if args.quick else args.runs
    py = os.path.realpath(sys.executable)
    floor = [py, "-c", "import json, hmac, hashlib, fcntl"]
    tmp = tempfile.mkdtemp(prefix="sane-bench-intents-")
    try:
        with_p = make_project(tmp, "with", True)
        without_p = make_project(tmp, "without", False)
        # sanity: the decision is an allow (silent) in both
        for project, env, pre, _ in (with_p, without_p):
            r = run_hook(project, env, "sanetools", pre)
            if r.stdout.strip():
                print(
                    "warning: the bench call is not a silent allow: %s" % r.stdout.decode()[:300],
                    file=sys.stderr,
                )
        cases = [
            ("PreToolUse Edit, intents file", "sanetools", with_p, "pre"),
            ("PreToolUse Edit, no intents file", "sanetools", without_p, "pre"),
            ("PostToolUse Edit + ledger, intents", "sanetrack", with_p, "post"),
            ("PostToolUse Edit + ledger, none", "sanetrack", without_p, "post"),
        ]
        times = {name: [] for name, _, _, _ in cases}
        floors = []
        prepared = []
        for name, hook, (project, env, pre, post), which in cases:
            argv = [py, os.path.join(project, "scripts", "hooks", hook + ".py")]
            data = json.dumps(pre if which == "pre" else post).encode()
            timed(argv, data, env, project)  # warm the bytecode cache
            prepared.append((name, argv, data, env, project))
        for _ in range(runs):
            floors.append(timed(floor, b"", without_p[1], without_p[0]))
            for name, argv, data, env, project in prepared:
                times[name].append(timed(argv, data, env, project))
        fl = statistics.median(floors) * 1000
        print(
            'floor `%s -c "import json, hmac, hashlib, fcntl"`: median %.1f ms (%d runs each, interleaved)'
            % (py, fl, runs)
        )
        for name, _, _, _ in cases:
            m = statistics.median(times[name]) * 1000
            print("%-36s median %6.1f ms  %5.2fx floor" % (name, m, m / fl))
        a = statistics.median(times[cases[0][0]]) / statistics.median(times[cases[1][0]])
        print("intents file present vs absent (PreToolUse Edit): %.2fx" % a)
        ledger = os.path.join(with_p[0], ".claude", "agent_trace.jsonl")
        if os.path.exists(ledger):
            with open(ledger, "rb") as fh:
                print("ledger after the run: %d records" % sum(1 for _ in fh))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
