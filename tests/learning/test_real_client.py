"""The learning gate through the real Claude Code client (its one real-client scenario),
on the e2e harness of tests/e2e: a beads ticket closed with `bd close` in a compound Bash
command, Stop blocked naming `[learning]`, the scripted agent reflecting through a heredoc,
Stop allowed, and the next session starting with the learning. Skips when the pinned CLI is
not installed (see tests/e2e/conftest.py)."""

from __future__ import annotations

import json
import os
import re
import stat
import sys

import pytest

from e2e.fakeapi import FakeAPI, block_text, text, tool_use
from e2e.harness import E2E, MODEL, _find_cli, assert_allowed, assert_hooks_healthy

FAKE_BD = r"""#!%s
import json, sys
args = sys.argv[1:]
ticket = {"id": "bd-1", "title": "Cache the retrieval index", "status": "in_progress",
          "description": "SessionStart is too slow with many learnings"}
if args[:1] == ["list"]:
    print(json.dumps([ticket]))
elif args[:1] == ["show"]:
    ticket["status"] = "closed"
    print(json.dumps([ticket]))
else:
    print("closed bd-1")
"""
LEARNING = {
    "category": "pitfall",
    "summary": "Index learnings in columns, not one dict each",
    "detail": "Loading 10,000 dicts costs tens of milliseconds at SessionStart; keep "
    "strings and arrays instead, so the cache loads in under one.",
    "tags": ["performance", "retrieval"],
    "criteria_met": ["behavior_changing"],
    "context_files": ["scripts/hooks/core/learning_index.py"],
}
SID = re.compile(r"learn reflect (\S+) <<'EOF'")


@pytest.fixture
def e2e(tmp_path):
    cli, why = _find_cli()
    if cli is None:
        pytest.skip(why)
    api = FakeAPI(model=MODEL).start()
    try:
        yield E2E(tmp_path, cli, api)
    finally:
        api.stop()


def reflect_after_block(body: dict) -> list:
    """The agent's turn after the Stop block: the reflect command the block named."""
    feedback = block_text(body["messages"][-1]["content"])
    m = SID.search(feedback)
    assert m, "the Stop block gave no reflect command: %r" % feedback[:600]
    command = "python3 scripts/hooks/sane.py learn reflect %s <<'EOF'\n%s\nEOF" % (
        m.group(1),
        json.dumps({"learnings": [LEARNING]}),
    )
    return tool_use("Bash", {"command": command, "description": "record the learning"})


def test_learning_gate_cycle_through_the_real_client(e2e: E2E) -> None:
    bin_dir = e2e.root / "bin"
    bin_dir.mkdir()
    bd = bin_dir / "bd"
    bd.write_text(FAKE_BD % sys.executable)
    bd.chmod(bd.stat().st_mode | stat.S_IXUSR)
    e2e.extra_env["PATH"] = "%s%s%s" % (bin_dir, os.pathsep, os.environ.get("PATH", ""))
    e2e.install_sane()
    e2e.config("research: {required: [local]}\n")
    (e2e.project / ".beads").mkdir()
    readme = e2e.write("README.md", "# demo\n")
    e2e.commit()

    run = e2e.run(
        "work on bd-1",
        script=[
            tool_use("Read", {"file_path": str(readme)}),
            tool_use(
                "Bash",
                {
                    "command": "bd close bd-1 && git status --short",
                    "description": "close the ticket",
                },
            ),
            text("the ticket is closed"),  # Stop: blocked, a reflection is due
            reflect_after_block,
            text("the learning is recorded"),
        ],
    )  # Stop: allowed
    assert run.returncode == 0, run.describe()
    assert_hooks_healthy(run, e2e)
    says = ["%s\n%s" % (ev.get("stdout"), ev.get("stderr")) for ev in run.hooks("Stop")]
    assert "[learning] Ticket bd-1" in says[0], run.describe()
    assert "Cache the retrieval index" in says[0]
    assert sum("[learning]" in s for s in says) == 1, run.describe()
    [_, reflect] = run.tool_uses("Bash")
    assert "the learning gate is open" in assert_allowed(run.tool_result(reflect["id"]), run)
    md = (e2e.project / ".claude" / "learnings.md").read_text()
    assert "Index learnings in columns, not one dict each" in md and "- ticket: bd-1" in md
    sid = run.session_id
    g = e2e.session_state(sid).get("learning", {})
    assert g.get("status") == "reflected", g

    nxt = e2e.run("what should I know?", script=[text("noted")], new_session=True)
    assert nxt.returncode == 0, nxt.describe()
    first = json.dumps(nxt.calls("main")[0].body)
    assert "Index learnings in columns, not one dict each" in first, nxt.describe()
