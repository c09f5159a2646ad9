"""Scenario 12: day one without friction, through the real client.

1. sane-hooks installed into a committed project and left uncommitted (settings, its backup,
   .gitignore lines, the hooks), an untracked `.env` and a file the person was already
   changing: a one-line Edit and a Stop. The learning gate measures this session's own change
   (2 lines), offers the skip once and then skips by itself; nothing of the install counts.
2. No network: `web` research is required, the agent obeys with WebFetch three times and
   every call fails. The breaker does not trip; the person is told once (systemMessage) with
   the exact `research waive web`; the model is told to ask the person rather than retry.
"""

from __future__ import annotations

import json
import subprocess

from .fakeapi import text, tool_use
from .harness import E2E, assert_allowed, assert_hooks_healthy

APP = "".join("line %d\n" % i for i in range(40))


def test_install_left_uncommitted_one_line_edit_and_stop(e2e: E2E) -> None:
    app = e2e.write("src/app.py", APP)
    e2e.write("src/wip.py", APP)
    e2e.commit()
    e2e.install_sane()  # left uncommitted, as a new user would
    e2e.config("research: {required: [local]}\n")
    e2e.write(".env", "".join("KEY_%d=x\n" % i for i in range(30)))
    e2e.write("src/wip.py", APP + "more\n" * 40)  # the person's own work in progress
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "-uall"],
        cwd=e2e.project,
        capture_output=True,
        text=True,
        env=e2e.base_env(),
    ).stdout
    assert ".gitignore" in dirty and "settings.json" in dirty and ".env" in dirty, dirty
    edit = {"file_path": str(app), "old_string": "line 7\n", "new_string": "line seven\n"}
    run = e2e.run(
        "fix the typo in line 7 of src/app.py",
        script=[
            tool_use("Read", {"file_path": str(app)}),
            tool_use("Edit", edit),
            text("fixed"),
            text("nothing to learn from a typo"),
            text("done"),
        ],
    )
    assert run.returncode == 0, run.describe()
    assert_hooks_healthy(run, e2e)
    assert_allowed(run.results_for("Edit")[0], run)
    stops = [h for h in run.hooks("Stop") if "[learning]" in json.dumps(h)]
    assert len(stops) == 1, run.describe()  # the one skip offer the decider allows
    offer = json.dumps(stops[0])
    assert "This session changed 2 lines (under the auto-skip threshold" in offer, offer
    assert "156" not in offer and "files (" not in offer
    sess = e2e.session_state(run.session_id)
    learning = sess["learning"]
    assert learning["diff"] == {"lines": 2, "files": 1, "git": True, "since": "start"}
    assert learning["status"] == "skipped" and learning["skip"]["decider"] == "auto"


WEB_FETCH = {"url": "https://docs.python.org/3/library/json.html", "prompt": "dumps options"}


def test_three_failing_webfetch_calls_with_no_network(sane_e2e: E2E) -> None:
    e2e = sane_e2e
    e2e.config("research: {required: [local, web]}\n")
    readme = e2e.write("README.md", "# demo\n")
    e2e.commit()
    run = e2e.run(
        "add a --pretty flag to the json dump",
        script=[
            tool_use("Read", {"file_path": str(readme)}),
            tool_use("WebFetch", WEB_FETCH),
            tool_use("WebFetch", WEB_FETCH),
            tool_use("WebFetch", WEB_FETCH),
            tool_use("Write", {"file_path": str(readme), "content": "# demo\nmore\n"}),
            text("web research is unavailable; should I go on without it?"),
        ],
    )
    assert run.returncode == 0, run.describe()
    assert_hooks_healthy(run, e2e)
    fetches = run.results_for("WebFetch")
    assert len(fetches) == 3 and all(r and r["is_error"] for r in fetches), run.describe()
    for res in fetches:
        assert "ask the person" in res["content"] and "research waive web" in res["content"]
        assert "circuit breaker" not in res["content"], res["content"]
    breaker = e2e.status()["circuit_breaker"]
    assert not breaker["tripped"] and breaker["failures"] == 0, breaker
    # the write is held by research, not by the breaker, and names the waiver
    write = run.results_for("Write")[0]
    assert "[research-gate]" in write["content"] and "[breaker]" not in write["content"]
    told = [
        json.loads(h["stdout"])["systemMessage"]
        for h in run.hooks("PostToolUseFailure")
        if h.get("stdout") and "systemMessage" in h["stdout"]
    ]
    assert len(told) == 1, run.describe()
    assert "web research looks unavailable" in told[0] and "`research waive web`" in told[0]

    waive = e2e.run("research waive web", script=[text("the model must not see this")])
    assert waive.model_calls == 0, waive.describe()
    again = e2e.run(
        "go on",
        script=[tool_use("Write", {"file_path": str(readme), "content": "# demo\n"}), text("ok")],
    )
    assert_allowed(again.results_for("Write")[0], again)
