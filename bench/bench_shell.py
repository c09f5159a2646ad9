"""Bench for the shell analyser: median microseconds per command over the corpus, the
hostile 1 MB cases, the pathological set (worst case next to the median: every shape that
makes the analysis work hard, pushed to about 1 MB or past the work budget), and the import
cost.  Times are the analysis in-process (no interpreter start, no lock wait).  A script,
not a test:

    python3 bench/bench_shell.py [--rounds N] [--quick]
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "hooks"))
sys.path.insert(0, os.path.join(ROOT, "tests"))

from core.shell.analysis import analyse  # noqa: E402
from shell.corpus import HOME, ROWS  # noqa: E402
from shell.test_analysis import pathological  # noqa: E402

MB = 1 << 20
BIG = [
    ("1 MB word", "echo " + "a" * MB),
    ("1 MB of short words", "a " * (MB // 2)),
    ("1 MB unterminated quote", 'echo "' + "x" * MB),
    ("1 MB of `ls;`", "ls; " * (MB // 4)),
    ("1 MB heredoc to a file", "cat <<'EOF' > big.txt\n" + ("x" * 79 + "\n") * (MB // 80) + "EOF"),
    ("1 MB of $x", "echo $x" * (MB // 7)),
    ("5000 nested $(", "$(" * 5000 + "ls" + ")" * 5000),
]


def per_command(rounds):
    """Median over rounds of each command's time, then the median over the corpus (us)."""
    cmds = [r["cmd"] for r in ROWS]
    for cmd in cmds:  # warm up (lazy imports, caches)
        analyse(cmd, home=HOME)
    med = []
    for cmd in cmds:
        ts = []
        for _ in range(rounds):
            t = time.perf_counter()
            analyse(cmd, home=HOME)
            ts.append(time.perf_counter() - t)
        med.append(statistics.median(ts))
    med.sort()
    return med


def patho(rounds):
    """Each pathological command's best-of-rounds time; prints median and worst (ms)."""
    rows = []
    for name, cmd in pathological():
        ts = []
        for _ in range(rounds):
            t = time.perf_counter()
            a = analyse(cmd, home=HOME)
            ts.append(time.perf_counter() - t)
        rows.append((min(ts), name, len(cmd), a.too_complex or "; ".join(a.reasons[:1])))
    rows.sort()
    for dt, name, size, why in rows:
        print("  %-26s %7.1f ms  %8d bytes  %s" % (name, dt * 1e3, size, why[:60]))
    med = rows[len(rows) // 2][0]
    worst = rows[-1]
    print(
        "pathological: %d commands, median %.1f ms, worst %.1f ms (%s)%s"
        % (len(rows), med * 1e3, worst[0] * 1e3, worst[1], "" if worst[0] < 1 else "  OVER 1 s")
    )
    return worst[0]


FITTING = {  # shapes whose cost is in the gates: the largest of each that fits the budget
    "flat paths": lambda n: "cat " + " ".join("d%d/f" % i for i in range(n)),
    "one deep path": lambda n: "cat " + "/".join(["a"] * n),
    "paths 8 deep": lambda n: "cat " + " ".join("/".join(["d%d" % i] * 8) for i in range(n)),
    "cd a && ... cat x": lambda n: "cd a && " * n + "cat x",
    "cat a; ...": lambda n: "cat a; " * n,
    "brace words": lambda n: "cat {1..%d}/x" % n,
}


def largest(make, hi=200000):
    lo = 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if analyse(make(mid), home=HOME).too_complex:
            hi = mid - 1
        else:
            lo = mid
    return lo


def through_gates():
    """The largest command of each shape that fits, through PreToolUse in-process (the
    gates' path lookups included; no interpreter start, no lock wait)."""
    import tempfile

    from conftest import Project
    from core import engine

    proj = Project(tempfile.mkdtemp())
    saved = dict(os.environ)
    os.environ.update(proj.env, CLAUDE_PROJECT_DIR=proj.dir)
    worst = 0.0
    try:
        for name, make in FITTING.items():
            n = largest(make, 256 if name == "brace words" else 200000)
            cmd = make(n)
            payload = proj.payload("PreToolUse", tool_name="Bash", tool_input={"command": cmd})
            t = time.perf_counter()
            engine.handle("sanetools", payload, proj.dir)
            dt = time.perf_counter() - t
            worst = max(worst, dt)
            print("  %-20s n=%6d %7d bytes  %6.1f ms" % (name, n, len(cmd), dt * 1e3))
    finally:
        os.environ.clear()
        os.environ.update(saved)
    print("largest fitting commands through the gates: worst %.1f ms" % (worst * 1e3))
    return worst


# shapes whose cost was in the gates after the analysis (path lookups of program text, option
# values and script paths): each pushed to about 1 MB (or the largest path the kernel takes)
_DEEP = "a/" * 2000  # 4000 bytes: the deepest name under PATH_MAX, 2000 lookups to resolve
GATED = [
    ("sed program 350 KB", "sed '" + "s/a/b/;" * 50000 + "' f"),
    ("sed program 1 MB", "sed '" + "s/a/b/;" * (MB // 7) + "' f"),
    ("awk text a/a/ 1 MB", "awk '" + "a/" * (MB // 2) + "' f"),
    ("argv0 /a/a/ 1 MB", "/a" * (MB // 2)),
    ("sed w a/a/ 1 MB", "sed -n 'w " + "a/" * (MB // 2) + "' f"),
    ("sed w deep x 250", "sed -n '" + ";".join("w " + _DEEP + str(i) for i in range(250)) + "' f"),
    ("make -f a/a/ 1 MB", "make -f " + "a/" * (MB // 2)),
    ("option values deep", "pytest " + " ".join("--basetemp=" + _DEEP for _ in range(250))),
    ("bash -c deep", "bash -c " + _DEEP + " " + " ".join([_DEEP] * 250)),
    ("PYTHONPATH deep", "PYTHONPATH=" + ":".join([_DEEP] * 250) + " python3 x.py"),
    ("perl script deep", "perl " + " ".join([_DEEP] * 250)),
    ("unknown words deep", "frob " + " ".join([_DEEP] * 250)),
]


def gated(rounds=1):
    """Each GATED command through PreToolUse in-process: median and worst (ms)."""
    import tempfile

    from conftest import Project
    from core import engine

    proj = Project(tempfile.mkdtemp())
    saved = dict(os.environ)
    os.environ.update(proj.env, CLAUDE_PROJECT_DIR=proj.dir)
    rows = []
    try:
        for name, cmd in GATED:
            payload = proj.payload("PreToolUse", tool_name="Bash", tool_input={"command": cmd})
            ts = []
            for _ in range(rounds):
                t = time.perf_counter()
                engine.handle("sanetools", payload, proj.dir)
                ts.append(time.perf_counter() - t)
            rows.append((min(ts), name, len(cmd)))
    finally:
        os.environ.clear()
        os.environ.update(saved)
    rows.sort()
    for dt, name, size in rows:
        print("  %-22s %7.1f ms  %8d bytes" % (name, dt * 1e3, size))
    med, worst = rows[len(rows) // 2][0], rows[-1]
    print(
        "through the gates: %d commands, median %.1f ms, worst %.1f ms (%s)%s"
        % (len(rows), med * 1e3, worst[0] * 1e3, worst[1], "" if worst[0] < 1 else "  OVER 1 s")
    )
    return worst[0]


def import_cost(runs=15):
    code = (
        "import sys, time; sys.path.insert(0, %r); t = time.perf_counter(); "
        "import core.shell.analysis; print(time.perf_counter() - t)"
        % os.path.join(ROOT, "scripts", "hooks")
    )
    got = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        got.append(float(out.stdout.strip()))
    return min(got), statistics.median(got)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=25)
    ap.add_argument("--quick", action="store_true", help="3 rounds, fewer import runs (CI)")
    args = ap.parse_args(argv)
    if args.quick:
        args.rounds = 3
    med = per_command(args.rounds)
    us = [m * 1e6 for m in med]
    print("corpus: %d commands" % len(us))
    print(
        "per command: median %.1f us, p90 %.1f us, p99 %.1f us, max %.1f us"
        % (us[len(us) // 2], us[int(len(us) * 0.9)], us[int(len(us) * 0.99)], us[-1])
    )
    for name, cmd in BIG:
        ts = []
        for _ in range(3):
            t = time.perf_counter()
            a = analyse(cmd, home=HOME)
            ts.append(time.perf_counter() - t)
        print(
            "%-26s %6.1f ms  unknown=%s  (%s)"
            % (name, min(ts) * 1e3, a.unknown, "; ".join(a.reasons[:2]))
        )
    worst = patho(3 if args.quick else 5)
    through_gates()
    worst = max(worst, gated(1 if args.quick else 3))
    lo, mid = import_cost(5 if args.quick else 15)
    print(
        "import core.shell: min %.2f ms, median %.2f ms (shell_tools loads on first use)"
        % (lo * 1e3, mid * 1e3)
    )
    return 0 if worst < 1 else 1


if __name__ == "__main__":
    sys.exit(main())
