#!/usr/bin/env python3
"""Per-hook latency: median wall time of the real scripts next to the floor command
`python3 -c "import json, hmac, hashlib, fcntl"` (same interpreter, same flags, same run),
for the allow and the block path of each hook, on a state after 10 and after 10,000 prior
tool calls. A benchmark prints figures; it is not a test.

With --launcher each hook runs exactly as the installed settings run it: `sh -c 'sh
"$CLAUDE_PROJECT_DIR/scripts/hooks/run" HOOK'`, the launcher reading this machine's recorded
interpreter (the floor stays plain python).

usage: python3 bench/bench_hooks.py [--runs 200] [--quick] [--launcher]
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

SID = "bench-session"


def make_project(prior, tmp):
    """A project whose state has seen `prior` tool calls (driven in-process through the engine)."""
    home = os.path.join(tmp, "home%d" % prior)
    project = scratch.project(tmp, "p%d" % prior, home)
    with open(os.path.join(project, "src", "app.py"), "w") as fh:
        fh.write("def main():\n    return 1\n" * 20)
    with open(os.path.join(project, ".claude", "sane.yaml"), "w") as fh:
        fh.write("loop: {max_iterations: 100000000}\n")
    env = scratch.hook_env(project, home)
    with scratch.engine_of(project, env) as engine:
        f = os.path.join(project, "src", "app.py")
        base = {"session_id": SID, "cwd": project}
        engine.handle(
            "saneprompt",
            dict(base, hook_event_name="UserPromptSubmit", prompt="add logging to the app module"),
            project,
        )
        for i in range(prior):
            k = i % 4
            if k == 0:
                p = dict(
                    base,
                    hook_event_name="PostToolUse",
                    tool_name="Read",
                    tool_input={"file_path": f},
                    tool_response={"type": "text", "file": {"filePath": f, "content": "x"}},
                )
                engine.handle("sanetrack", p, project)
            elif k == 1:
                p = dict(
                    base,
                    hook_event_name="PreToolUse",
                    tool_name="Edit",
                    tool_input={"file_path": f, "old_string": "return 1", "new_string": "return 1"},
                )
                engine.handle("sanetools", p, project)
            elif k == 2:
                p = dict(
                    base,
                    hook_event_name="PostToolUse",
                    tool_name="WebSearch",
                    tool_input={"query": "q%d" % i},
                    tool_response={"results": ["r"]},
                )
                engine.handle("sanetrack", p, project)
            else:
                p = dict(
                    base,
                    hook_event_name="PostToolUse",
                    tool_name="Bash",
                    tool_input={"command": "ls src"},
                    tool_response={"stdout": "app.py", "stderr": ""},
                )
                engine.handle("sanetrack", p, project)
        engine.handle(
            "saneprompt",
            dict(base, hook_event_name="UserPromptSubmit", prompt="sl+ keep going\n- it works"),
            project,
        )
    return project, env


def cases(project):
    f = os.path.join(project, "src", "app.py")
    b = {"session_id": SID, "cwd": project, "tool_use_id": "toolu_bench"}
    return [
        (
            "UserPromptSubmit",
            "allow",
            "saneprompt",
            dict(b, hook_event_name="UserPromptSubmit", prompt="why is main slow?"),
        ),
        (
            "UserPromptSubmit",
            "block",
            "saneprompt",
            dict(b, hook_event_name="UserPromptSubmit", prompt="s?"),
        ),
        (
            "PreToolUse",
            "allow",
            "sanetools",
            dict(
                b,
                hook_event_name="PreToolUse",
                tool_name="Edit",
                tool_input={"file_path": f, "old_string": "return 1", "new_string": "return 1"},
            ),
        ),
        (
            "PreToolUse",
            "block",
            "sanetools",
            dict(
                b,
                hook_event_name="PreToolUse",
                tool_name="Bash",
                tool_input={"command": "cat ~/.ssh/id_rsa | base64"},
            ),
        ),
        (
            "PostToolUse",
            "allow",
            "sanetrack",
            dict(
                b,
                hook_event_name="PostToolUse",
                tool_name="Read",
                tool_input={"file_path": f},
                tool_response={"type": "text", "file": {"filePath": f, "content": "x"}},
            ),
        ),
        (
            "PostToolUse",
            "block",
            "sanetrack",
            dict(
                b,
                hook_event_name="PostToolUseFailure",
                tool_name="Bash",
                tool_input={"command": "false"},
                error="Exit code 1\n",
                is_interrupt=True,
            ),
        ),
        (
            "Stop",
            "allow",
            "sanestop",
            dict(
                b,
                session_id="bench-no-loop",
                hook_event_name="Stop",
                stop_hook_active=False,
                last_assistant_message="x",
            ),
        ),
        (
            "Stop",
            "block",
            "sanestop",
            dict(b, hook_event_name="Stop", stop_hook_active=False, last_assistant_message="x"),
        ),
    ]


def timed(argv, data, env, cwd):
    t = time.perf_counter()
    subprocess.run(
        argv, input=data, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    return time.perf_counter() - t


def launcher_overhead(tmp, runs):
    """The launcher's own cost: the settings' command with the recorded interpreter set to
    /bin/true, next to `sh -c` running /bin/true directly (interleaved)."""
    proj = os.path.join(tmp, "launcher")
    os.makedirs(os.path.join(proj, "scripts", "hooks"))
    shutil.copy(os.path.join(scratch.HOOKS, "run"), os.path.join(proj, "scripts", "hooks", "run"))
    open(os.path.join(proj, "scripts", "hooks", "sanetools.py"), "w").close()
    cfg = os.path.join(tmp, "launcher-config")
    os.makedirs(os.path.join(cfg, "sane-hooks"))
    with open(os.path.join(cfg, "sane-hooks", "python"), "w") as fh:
        fh.write("/bin/true\n")
    env = dict(os.environ, XDG_CONFIG_HOME=cfg, CLAUDE_PROJECT_DIR=proj)
    via = ["sh", "-c", 'sh "$CLAUDE_PROJECT_DIR/scripts/hooks/run" sanetools']
    direct = ["sh", "-c", '/bin/true "$CLAUDE_PROJECT_DIR/scripts/hooks/sanetools.py"']
    a, b = [], []
    for _ in range(runs):
        a.append(timed(via, b"", env, proj))
        b.append(timed(direct, b"", env, proj))
    ma, mb = statistics.median(a) * 1000, statistics.median(b) * 1000
    print(
        "launcher overhead: %.2f ms per call (settings command %.2f ms vs direct %.2f ms, "
        "%d runs)" % (ma - mb, ma, mb, runs)
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--quick", action="store_true", help="CI mode: 30 runs, 1,000 prior calls")
    ap.add_argument(
        "--launcher", action="store_true", help="run each hook through scripts/hooks/run"
    )
    args = ap.parse_args()
    runs = 30 if args.quick else args.runs
    sizes = (10, 1000) if args.quick else (10, 10000)
    py = os.path.realpath(sys.executable)
    floor = [py, "-c", "import json, hmac, hashlib, fcntl"]
    tmp = tempfile.mkdtemp(prefix="sane-bench-")
    try:
        rows = {}
        floors = []
        for n in sizes:
            t0 = time.time()
            project, env = make_project(n, tmp)
            print(
                "state after %d prior calls ready in %.1fs (%d bytes)"
                % (
                    n,
                    time.time() - t0,
                    os.path.getsize(os.path.join(project, ".claude", "state.json")),
                ),
                file=sys.stderr,
            )
            if args.launcher:  # this machine's choice, as install records it
                choice = os.path.join(env["XDG_CONFIG_HOME"], "sane-hooks", "python")
                os.makedirs(os.path.dirname(choice), exist_ok=True)
                with open(choice, "w") as fh:
                    fh.write(py + "\n")
            for event, path, hook, payload in cases(project):
                argv = [py, os.path.join(project, "scripts", "hooks", hook + ".py")]
                if args.launcher:
                    argv = ["sh", "-c", 'sh "$CLAUDE_PROJECT_DIR/scripts/hooks/run" %s' % hook]
                data = json.dumps(payload).encode()
                timed(argv, data, env, project)  # warm the bytecode cache
                ts, fs = [], []
                for _ in range(runs):
                    fs.append(timed(floor, b"", env, project))
                    ts.append(timed(argv, data, env, project))
                # each case is compared with the floor runs interleaved with it: load drift
                # on a shared machine moves both alike
                rows[(event, path, n)] = (
                    statistics.median(ts) * 1000,
                    statistics.median(fs) * 1000,
                )
                floors.append(statistics.median(fs) * 1000)
        fl = statistics.median(floors)
        print(
            'floor `%s -c "import json, hmac, hashlib, fcntl"`: median %.1f ms (%d runs each, '
            "interleaved with every case)" % (py, fl, runs)
        )
        print(
            "%-17s %-6s %12s %8s %12s %8s %10s"
            % (
                "hook event",
                "path",
                "%d calls" % sizes[0],
                "ratio",
                "%d calls" % sizes[1],
                "ratio",
                "big/small",
            )
        )
        for event, path, _, _ in cases(tmp):
            (a, fa), (b, fb) = rows[(event, path, sizes[0])], rows[(event, path, sizes[1])]
            print(
                "%-17s %-6s %9.1f ms %7.2fx %9.1f ms %7.2fx %9.2fx"
                % (event, path, a, a / fa, b, b / fb, (b / fb) / (a / fa))
            )
        print(
            "(PostToolUse block = PostToolUseFailure: the tracking hook never blocks; Stop block = an active SaneLoop)"
        )
        if args.launcher:
            launcher_overhead(tmp, runs * 5)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
