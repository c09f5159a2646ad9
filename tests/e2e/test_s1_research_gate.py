"""Scenario 1: the research gate, through the real client.

The project requires only `local` research (WebSearch/WebFetch cannot succeed offline). A
Write before any research is blocked naming `[research-gate]`, with what is missing and the
way forward; after a Read (credited at PostToolUse) the same Write succeeds.
"""

from __future__ import annotations

from .fakeapi import text, tool_use
from .harness import E2E, assert_allowed, assert_blocked, assert_hooks_healthy, count

LOCAL_ONLY = "research: {required: [local]}\n"


def test_write_blocked_until_local_research(sane_e2e: E2E) -> None:
    e2e = sane_e2e
    e2e.config(LOCAL_ONLY)
    readme = e2e.write("README.md", "# demo\n")
    e2e.commit()
    target = e2e.project / "hello.py"
    write = {"file_path": str(target), "content": "print('hello')\n"}
    run = e2e.run(
        "add a hello world script to the project",
        script=[
            tool_use("Write", write),
            tool_use("Read", {"file_path": str(readme)}),
            tool_use("Write", write),
            text("done"),
        ],
    )
    assert run.returncode == 0, run.describe()
    assert_hooks_healthy(run, e2e)

    first, second = run.results_for("Write")
    msg = assert_blocked(first, "[research-gate]", run)
    assert "local" in msg, f"the block should name the missing category: {msg!r}"
    assert "research waive" in msg, f"the block should say how to waive: {msg!r}"
    assert_allowed(run.results_for("Read")[0], run)
    assert_allowed(second, run)
    assert target.read_text() == "print('hello')\n"

    session = e2e.session_state(run.session_id)
    assert session.get("research", {}).get("local"), session
    edits = session.get("edits", {})
    assert count(edits.get("count")) == 1, edits
    assert count(edits.get("unique_files")) == 1, edits
    assert str(edits.get("last_file", "")).endswith("hello.py"), edits

    logs = e2e.hook_logs()
    assert logs["sanetools"], "sanetools.py logged nothing: did our PreToolUse hook run?"
    assert logs["sanetrack"], "sanetrack.py logged nothing: did our PostToolUse hook run?"
    blocks = [a for a in e2e.audit() if "research-gate" in str(a)]
    assert blocks, f"the block is not in the audit log: {e2e.audit()}"
