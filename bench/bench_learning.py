#!/usr/bin/env python3
"""SessionStart with 10,000 stored learnings: median wall time of the real `saneprompt.py`
(the budget is 150 ms), next to the floor command `python3 -c "import json, hmac, hashlib,
fcntl"` and to the same SessionStart with no learnings at all. A benchmark prints figures;
it is not a test.

The project is a git repository with a few changed files, a `.claude/learnings.md` of N
learnings (varied categories, tags, files, ages), a stats log with a few events per learning,
and a state that has already seen a few hundred tool calls. Every run is a new session id
(a fresh `startup`), as in real use; the first run builds the retrieval cache and is reported
on its own.

usage: python3 bench/bench_learning.py [--learnings 10000] [--runs 60]
"""

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import scratch

WORDS = (
    "cache index retrieval migration schema session cookie redirect login timeout retry "
    "pool redis queue worker deploy docker build test fixture mock parser lexer token "
    "config yaml json state lock signature hook gate review intent ledger trace branch "
    "commit merge rebase release version pin upgrade async await thread process memory "
    "leak profile latency budget median"
).split()
CATEGORIES = ("pattern", "pitfall", "convention", "dependency", "process", "domain", "debugging")


def git(project, *args, env):
    subprocess.run(
        ["git"] + list(args),
        cwd=project,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def make_project(tmp, n, seed=5):
    rnd = random.Random(seed)
    home = os.path.join(tmp, "home%d" % n)
    project = scratch.project(tmp, "p%d" % n, home)
    env = scratch.hook_env(
        project,
        home,
        GIT_AUTHOR_NAME="b",
        GIT_AUTHOR_EMAIL="b@x",
        GIT_COMMITTER_NAME="b",
        GIT_COMMITTER_EMAIL="b@x",
    )
    files = ["src/%s_%s.py" % (rnd.choice(WORDS), rnd.choice(WORDS)) for _ in range(60)]
    for f in files:
        with open(os.path.join(project, f), "w") as fh:
            fh.write("x = 1\n")
    git(project, "init", "-q", env=env)
    git(project, "add", "-A", env=env)
    git(project, "commit", "-q", "-m", "init", env=env)
    for f in files[:3]:
        with open(os.path.join(project, f), "a") as fh:
            fh.write("y = 2\n")
    with scratch.engine_of(project, env) as engine:
        from core.learning import schema as learning_schema
        from core.learning import store as learning_store

        now = time.time()
        recs = []
        for i in range(n):
            tags = rnd.sample(WORDS, rnd.randint(1, 4))
            recs.append(
                {
                    "id": learning_schema.new_id(now - (n - i) * 600),
                    "schema": 1,
                    "status": "active",
                    "category": rnd.choice(CATEGORIES),
                    "summary": " ".join(
                        rnd.choice(WORDS) for _ in range(rnd.randint(4, 12))
                    ).capitalize(),
                    "detail": " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(15, 60))) + ".",
                    "scope": "project",
                    "confidence": rnd.choice(("high", "medium", "low")),
                    "criteria_met": ["behavior_changing"],
                    "tags": tags,
                    "context_files": rnd.sample(files, rnd.randint(0, 2)),
                    "session": "s%d" % (i // 5),
                    "ticket": "bd-%d" % (i // 3),
                    "created": int(now - rnd.random() * 80 * 86400),
                }
            )
        learning_store.append_md(learning_store.markdown_path(project), recs)
        with open(os.path.join(project, ".claude", "learning-stats.jsonl"), "w") as fh:
            for r in recs:
                fh.write(
                    json.dumps(
                        {
                            "ts": now - 3600,
                            "event": "written",
                            "id": r["id"],
                            "category": r["category"],
                            "criteria": r["criteria_met"],
                        }
                    )
                    + "\n"
                )
                for _ in range(rnd.randint(0, 3)):
                    fh.write(
                        json.dumps(
                            {
                                "ts": now - 1800,
                                "event": "surfaced",
                                "id": r["id"],
                                "session": "old",
                                "category": r["category"],
                            }
                        )
                        + "\n"
                    )
                if rnd.random() < 0.3:
                    fh.write(
                        json.dumps(
                            {
                                "ts": now - 900,
                                "event": "referenced",
                                "id": r["id"],
                                "session": "old",
                                "category": r["category"],
                            }
                        )
                        + "\n"
                    )
        base = {"session_id": "warm", "cwd": project}
        f = os.path.join(project, files[0])
        for i in range(300):
            engine.handle(
                "sanetrack",
                dict(
                    base,
                    hook_event_name="PostToolUse",
                    tool_name="Read",
                    tool_input={"file_path": f},
                    tool_response={"type": "text", "file": {"content": "x"}},
                ),
                project,
            )
    return project, env


def session_start(py, project, env, sid):
    data = json.dumps(
        {
            "session_id": sid,
            "cwd": project,
            "hook_event_name": "SessionStart",
            "source": "startup",
            "transcript_path": "/dev/null",
        }
    ).encode()
    t = time.perf_counter()
    p = subprocess.run(
        [py, os.path.join(project, "scripts", "hooks", "saneprompt.py")],
        input=data,
        env=env,
        cwd=project,
        capture_output=True,
    )
    dt = time.perf_counter() - t
    return dt, p


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--learnings", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=60)
    ap.add_argument("--quick", action="store_true", help="CI mode: 15 runs")
    args = ap.parse_args()
    if args.quick:
        args.runs = 15
    py = os.path.realpath(sys.executable)
    floor = [py, "-c", "import json, hmac, hashlib, fcntl"]
    tmp = tempfile.mkdtemp(prefix="sane-bench-learning-")
    try:
        t0 = time.time()
        project, env = make_project(tmp, args.learnings)
        empty, env0 = make_project(tmp, 0)
        size = os.path.getsize(os.path.join(project, ".claude", "learnings.md"))
        print(
            "project with %d learnings (%.1f MB learnings.md) ready in %.1fs"
            % (args.learnings, size / 1e6, time.time() - t0),
            file=sys.stderr,
        )
        cold, p = session_start(py, project, env, "bench-cold")
        ctx = (json.loads(p.stdout or b"{}").get("hookSpecificOutput") or {}).get(
            "additionalContext", ""
        )
        injected = ctx.count("\n- [")
        if p.returncode != 0 or not injected:
            print(
                "SessionStart did not inject learnings (exit %d): %r %r"
                % (p.returncode, p.stdout[:300], p.stderr[:300]),
                file=sys.stderr,
            )
            return 1
        session_start(py, empty, env0, "bench-cold")
        ts, ts0, fs = [], [], []
        for i in range(args.runs):
            fs.append(subprocess_time(floor, env))
            ts.append(session_start(py, project, env, "bench-%d" % i)[0])
            ts0.append(session_start(py, empty, env0, "bench-%d" % i)[0])
        med, med0, fl = (statistics.median(x) * 1000 for x in (ts, ts0, fs))
        print(
            "SessionStart, %d learnings: median %.1f ms over %d runs (budget 150 ms: %s); "
            "%d injected"
            % (args.learnings, med, args.runs, "OK" if med < 150 else "OVER", injected)
        )
        print("  first run (builds the retrieval cache): %.1f ms" % (cold * 1000))
        print(
            "  p90 %.1f ms, min %.1f ms" % (sorted(ts)[int(len(ts) * 0.9)] * 1000, min(ts) * 1000)
        )
        print("SessionStart, no learnings: median %.1f ms" % med0)
        print('floor `%s -c "import json, hmac, hashlib, fcntl"`: median %.1f ms' % (py, fl))
        print(
            "retrieval cost over the empty SessionStart: %.1f ms; ratio to the floor: %.2fx"
            % (med - med0, med / fl)
        )
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def subprocess_time(argv, env):
    t = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


if __name__ == "__main__":
    sys.exit(main())
