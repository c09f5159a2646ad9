"""Scenario 8: intent scope through the real client.

`.claude/active_intents.yaml` holds one IN_PROGRESS intent owning `src/**`. Before any intent
is selected a Write is denied `[no-intent]`. The person's prompt `intent INT-001` is not
consumed: it selects the intent and reaches the model with the intent's context. Then, after
research, a Write inside `src/` runs, while a Write and a shell write outside the scope are
denied `[scope]` naming the intent; the trace ledger records the allowed edit under it.
"""

from __future__ import annotations

import json

from .fakeapi import text, tool_use
from .harness import E2E, assert_allowed, assert_blocked, assert_hooks_healthy

INTENTS = """\
active_intents:
  - id: "INT-001"
    name: "Parser rewrite"
    status: IN_PROGRESS
    owned_scope: ["src/**"]
    constraints: ["No new dependencies"]
    acceptance_criteria: ["the parser parses"]
"""


def test_write_outside_intent_scope_is_denied(sane_e2e: E2E) -> None:
    e2e = sane_e2e
    e2e.config("research: {required: [local]}\n")
    e2e.write(".claude/active_intents.yaml", INTENTS)
    readme = e2e.write("README.md", "# demo\n")
    e2e.commit()
    inside = e2e.project / "src" / "parser.py"
    outside = e2e.project / "docs" / "notes.md"

    first = e2e.run(
        "rewrite the parser",
        script=[
            tool_use("Read", {"file_path": str(readme)}),
            tool_use("Write", {"file_path": str(inside), "content": "def parse(): ...\n"}),
            text("I need an intent"),
        ],
    )
    assert_hooks_healthy(first, e2e)
    msg = assert_blocked(first.results_for("Write")[0], "[no-intent]", first)
    assert "INT-001" in msg, msg
    assert not inside.exists()

    run = e2e.run(
        "intent INT-001",
        script=[
            tool_use("Read", {"file_path": str(readme)}),
            tool_use("Write", {"file_path": str(inside), "content": "def parse(): ...\n"}),
            tool_use("Write", {"file_path": str(outside), "content": "notes\n"}),
            tool_use(
                "Bash",
                {
                    "command": "mkdir -p docs && echo x > docs/out.txt",
                    "description": "write outside",
                },
            ),
            text("done"),
        ],
    )
    assert_hooks_healthy(run, e2e)
    assert run.model_calls >= 1, f"`intent INT-001` must reach the model\n{run.describe()}"
    sent = json.dumps(run.calls()[0].messages[-1])
    assert "INT-001" in sent and "src/**" in sent, "the intent's context did not reach the model"
    assert_allowed(run.results_for("Write")[0], run)
    assert inside.read_text() == "def parse(): ...\n"
    msg = assert_blocked(run.results_for("Write")[1], "[scope]", run)
    assert "INT-001" in msg, msg
    assert_blocked(run.results_for("Bash")[0], "[scope]", run)
    assert not outside.exists() and not (e2e.project / "docs" / "out.txt").exists()

    ledger = e2e.jsonl(".claude/agent_trace.jsonl")
    mine = [r for r in ledger if any(f.get("path") == "src/parser.py" for f in r.get("files", []))]
    assert len(mine) == 1, ledger
    assert mine[0]["metadata"]["dev.sane"]["intent_id"] == "INT-001", mine[0]
