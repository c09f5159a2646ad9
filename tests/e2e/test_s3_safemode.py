"""Scenario 3: safemode, across runs and sessions.

`s+` is consumed (no model call). In a following run (a new session: safemode is
project-wide and persists), after research, both a Write and `echo x > f` through Bash are
blocked naming `[safemode]`. `s-` (consumed) lifts it and both then run.
"""

from __future__ import annotations

from .fakeapi import text, tool_use
from .harness import E2E, assert_allowed, assert_blocked, assert_hooks_healthy

LOCAL_ONLY = "research: {required: [local]}\n"


def test_safemode_on_blocks_edits_and_shell_writes_until_off(sane_e2e: E2E) -> None:
    e2e = sane_e2e
    e2e.config(LOCAL_ONLY)
    readme = e2e.write("README.md", "# demo\n")
    e2e.commit()
    target = e2e.project / "notes.txt"
    shell_target = e2e.project / "f"

    on = e2e.run("s+", script=[text("the model must not see s+")])
    assert on.returncode == 0, on.describe()
    assert on.model_calls == 0, f"s+ reached the model\n{on.describe()}"
    assert "safemode is ON" in on.stdout, on.describe()
    assert e2e.status()["safemode"]["active"] is True

    def attempt(prompt: str, new_session: bool):
        return e2e.run(
            prompt,
            new_session=new_session,
            script=[
                tool_use("Read", {"file_path": str(readme)}),
                tool_use("Write", {"file_path": str(target), "content": "x\n"}),
                tool_use("Bash", {"command": "echo x > f", "description": "write f"}),
                text("done"),
            ],
        )

    blocked = attempt("write the notes file", new_session=True)
    assert_hooks_healthy(blocked, e2e)
    assert_allowed(blocked.results_for("Read")[0], blocked)
    assert_blocked(blocked.results_for("Write")[0], "[safemode]", blocked)
    assert_blocked(blocked.results_for("Bash")[0], "[safemode]", blocked)
    assert not target.exists() and not shell_target.exists()

    query = e2e.run("s?", script=[text("the model must not see s?")])
    assert query.model_calls == 0 and "safemode is ON" in query.stdout, query.describe()

    off = e2e.run("s-", script=[text("the model must not see s-")])
    assert off.model_calls == 0, f"s- reached the model\n{off.describe()}"
    assert "safemode is OFF" in off.stdout, off.describe()
    assert e2e.status()["safemode"]["active"] is False

    allowed = attempt("write the notes file now", new_session=False)
    assert_allowed(allowed.results_for("Write")[0], allowed)
    assert_allowed(allowed.results_for("Bash")[0], allowed)
    assert target.read_text() == "x\n" and shell_target.read_text() == "x\n"
    audit = str(e2e.audit())
    assert "s+" in audit or "safemode" in audit, "safemode commands are not audited"
