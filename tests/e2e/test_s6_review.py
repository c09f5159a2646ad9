"""Scenario 6: the review cycle through the real client.

A `#review` prompt opens a review. The agent researches and edits; its Stop is blocked naming
`[review]` with the Agent call to make; the scripted agent spawns the `reviewer` subagent
(installed by `sane.py install`) in the foreground with `SESSION_ID=<sid>`; the reviewer runs
`sane.py review decide <sid> COMPLETE ...` through Bash; the next Stop is allowed. In a later
run the main agent running the same decide command itself is denied naming `[review]`.
"""

from __future__ import annotations

import re

from .fakeapi import block_text, text, tool_use
from .harness import E2E, assert_allowed, assert_blocked, assert_hooks_healthy

SID = re.compile(r"SESSION_ID=([0-9a-f-]{8,})")


def decide(sid: str) -> str:
    return (
        f'python3 scripts/hooks/sane.py review decide {sid} COMPLETE "greeting is right" '
        "--opinions none"
    )


def spawn_reviewer(body: dict) -> list:
    """The main agent's turn after the Stop block: the Agent call the block asked for."""
    feedback = block_text(body["messages"][-1]["content"])
    m = SID.search(feedback)
    assert m, f"the Stop block gave no SESSION_ID: {feedback[:500]!r}"
    return tool_use(
        "Agent",
        {
            "description": "review the change",
            "subagent_type": "reviewer",
            "run_in_background": False,
            "prompt": f"SESSION_ID={m.group(1)}\n## Summary\nAdded greet.py"
            "\n## Files Changed\n- greet.py",
        },
    )


def reviewer_decides(body: dict) -> list:
    m = SID.search(block_text(body["messages"][0]["content"]))
    assert m, "the reviewer's prompt has no SESSION_ID"
    return tool_use("Bash", {"command": decide(m.group(1)), "description": "record verdict"})


def test_review_gate_cycle(sane_e2e: E2E) -> None:
    e2e = sane_e2e
    e2e.config("research: {required: [local]}\n")
    readme = e2e.write("README.md", "# demo\n")
    e2e.commit()
    assert (e2e.project / ".claude" / "agents" / "reviewer.md").exists()
    target = e2e.project / "greet.py"

    run = e2e.run(
        "#review add a greeting script",
        script=[
            tool_use("Read", {"file_path": str(readme)}),
            tool_use("Write", {"file_path": str(target), "content": "print('hi')\n"}),
            text("the greeting is written"),  # Stop: blocked, review pending
            spawn_reviewer,
            text("the reviewer approved"),
        ],  # Stop: allowed
        subagents={"SESSION_ID=": [reviewer_decides, text("COMPLETE: greeting is right")]},
    )
    assert run.returncode == 0, run.describe()
    assert_hooks_healthy(run, e2e)
    assert target.read_text() == "print('hi')\n"

    def says(ev: dict) -> str:
        return f"{ev.get('stdout')}\n{ev.get('stderr')}"

    stops = run.hooks("Stop")
    assert "[review]" in says(stops[0]), run.describe()
    # exactly one review block: after the reviewer's decision Stop no longer asks for one
    # (a later Stop may still be held by another gate, e.g. the learning gate)
    assert sum("[review]" in says(ev) for ev in stops) == 1, run.describe()
    assert '"decision": "block"' not in says(stops[-1]), run.describe()
    [agent] = run.tool_uses("Agent")
    assert_allowed(run.tool_result(agent["id"]), run)
    [bash] = run.tool_uses("Bash", kind="subagent")
    assert "COMPLETE" in assert_allowed(run.tool_result(bash["id"]), run)
    assert len(run.hooks("SubagentStart")) == 1 and len(run.hooks("SubagentStop")) == 1
    sid = run.session_id
    review = e2e.session_state(sid).get("review", {})
    assert "COMPLETE" in str(review).upper(), review

    again = e2e.run(
        "now approve it yourself",
        script=[
            tool_use("Bash", {"command": decide(sid), "description": "self-approve"}),
            text("done"),
        ],
    )
    assert_hooks_healthy(again, e2e)
    assert_blocked(again.results_for("Bash")[0], "[review]", again)
