"""Scenario 2: the circuit breaker, through the real client.

Three failing Bash commands (which Claude Code reports as PostToolUseFailure) trip it; the
fourth Bash is blocked naming `[breaker]` (Bash is never read-only), while a Read still runs.
The person's `rb-` prompt is consumed (no model call) and resets it; Bash runs again.
"""

from __future__ import annotations

from .fakeapi import text, tool_use
from .harness import E2E, assert_allowed, assert_blocked, assert_hooks_healthy

LOCAL_ONLY = "research: {required: [local]}\n"


def bash(cmd: str) -> list:
    return tool_use("Bash", {"command": cmd, "description": "run " + cmd.split()[0]})


def test_breaker_trips_blocks_and_rb_resets(sane_e2e: E2E) -> None:
    e2e = sane_e2e
    e2e.config(LOCAL_ONLY)
    readme = e2e.write("README.md", "# demo\n")
    e2e.commit()
    run = e2e.run(
        "run the test suite and fix what fails",
        script=[
            tool_use("Read", {"file_path": str(readme)}),  # research done: nothing else blocks
            bash("echo failing one; exit 3"),
            bash("echo failing two; exit 4"),
            bash("echo failing three; exit 5"),
            bash("echo fourth"),
            tool_use("Read", {"file_path": str(readme)}),
            text("giving up"),
        ],
    )
    assert run.returncode == 0, run.describe()
    assert_hooks_healthy(run, e2e)
    results = run.results_for("Bash")
    for res in results[:3]:
        assert res and res["is_error"] and "Exit code" in res["content"], run.describe()
    msg = assert_blocked(results[3], "[breaker]", run)
    assert "rb-" in msg, f"the block should say how the person resets it: {msg!r}"
    assert_allowed(run.results_for("Read")[1], run)
    failures = [e for e in e2e.hook_logs()["sanetrack"] if "PostToolUseFailure" in str(e)]
    assert failures, "sanetrack.py logged no PostToolUseFailure"
    breaker = e2e.status()["circuit_breaker"]
    assert breaker["tripped"], breaker

    reset = e2e.run("rb-", script=[text("the model must not see rb-")])
    assert reset.returncode == 0, reset.describe()
    assert reset.model_calls == 0, f"rb- reached the model\n{reset.describe()}"
    assert "breaker is OK" in reset.result_text, reset.describe()
    assert not e2e.status()["circuit_breaker"]["tripped"]
    assert any("rb-" in str(a) or "breaker" in str(a).lower() for a in e2e.audit()), (
        "the reset is not audited"
    )

    again = e2e.run("try again", script=[bash("echo back to work"), text("ok")])
    assert "back to work" in assert_allowed(again.results_for("Bash")[0], again)
