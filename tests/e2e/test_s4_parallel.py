"""Scenario 4: parallel tool calls.

Claude Code runs the hooks of parallel read-only calls (Reads, read-only Bash) at the same
time, PreToolUse and PostToolUse alike. Every one of them must land in the state: the action
log has exactly one entry per call, research is credited, and the Writes that follow (run
one at a time) are counted exactly.
"""

from __future__ import annotations

from collections import Counter

from .fakeapi import parallel, text
from .harness import E2E, assert_allowed, assert_hooks_healthy, count

READS = 6
NAMES = [f"f{i}.txt" for i in range(READS)]
BASH = ["cat f0.txt", "ls", "wc -l f1.txt"]
WRITES = ["w1.txt", "w2.txt", "w3.txt"]


def _intervals(lines: list[dict]) -> list[tuple[float, float]]:
    return sorted((ln["ts"] - ln.get("ms", 0) / 1000.0, ln["ts"]) for ln in lines)


def test_parallel_calls_leave_exact_counts(sane_e2e: E2E) -> None:
    e2e = sane_e2e
    e2e.config("research: {required: [local]}\n")
    for name in NAMES:
        e2e.write(name, f"{name}\n")
    e2e.commit()
    run = e2e.run(
        "read everything, then write three files",
        script=[
            parallel(
                *[("Read", {"file_path": str(e2e.project / n)}) for n in NAMES],
                *[("Bash", {"command": c, "description": c}) for c in BASH],
            ),
            parallel(
                *[
                    ("Write", {"file_path": str(e2e.project / w), "content": w + "\n"})
                    for w in WRITES
                ]
            ),
            text("done"),
        ],
    )
    assert run.returncode == 0, run.describe()
    assert_hooks_healthy(run, e2e)
    for block in run.tool_uses():
        assert_allowed(run.tool_result(block["id"]), run)
    for w in WRITES:
        assert (e2e.project / w).read_text() == w + "\n"

    total = READS + len(BASH) + len(WRITES)
    logs = e2e.hook_logs()
    pre = [ln for ln in logs["sanetools"] if ln.get("msg") == "PreToolUse"]
    post = [ln for ln in logs["sanetrack"] if ln.get("msg") == "PostToolUse"]
    assert len(pre) == total and len(post) == total, (len(pre), len(post))
    # the point of the scenario: the read-only calls' hooks really overlapped
    spans = _intervals([ln for ln in post if ln.get("tool") in ("Read", "Bash")])
    assert any(b[0] < a[1] for a, b in zip(spans, spans[1:])), (
        f"no two PostToolUse hooks overlapped: {spans}"
    )

    session = e2e.session_state(run.session_id)
    actions = session.get("action_log", [])
    assert Counter(a.get("tool") for a in actions) == {
        "Read": READS,
        "Bash": len(BASH),
        "Write": len(WRITES),
    }, actions
    assert all(a.get("ok") for a in actions), actions
    assert session.get("research", {}).get("local"), session.get("research")
    edits = session.get("edits", {})
    assert count(edits.get("count")) == len(WRITES), edits
    assert count(edits.get("unique_files")) == len(WRITES), edits
