"""Scenario 10: agent-run sane.py under Claude Code's OS sandbox, through the real client.

`install` turns the sandbox on with the unsandboxed fallback off, `denyWrite` on the state and
`denyRead` on `<config>/sane-hooks/` (the key) and the state lock. The key lives in its file
(no SANE_HOOK_SECRET in the environment), so inside the sandbox the agent's shell can
neither read it nor write the state. The scripted agent selects an intent, records an
observation, marks both SaneLoop criteria met, records a learning from stdin and one from a
file it wrote, all with `sane.py`, and reads `sane.py status`: each state change is handed to
the hooks, applied at PostToolUse, and the model is told so; the status says the signature was
not checked. The same script without the sandbox applies each change in the CLI itself: every
subcommand works and exits 0 both ways.
"""

from __future__ import annotations

import json

import pytest

from .fakeapi import text, tool_use
from .harness import E2E, assert_allowed, assert_hooks_healthy

INTENTS = (
    "active_intents:\n"
    "  - {id: INT-1, name: Parser fixes, status: IN_PROGRESS, owned_scope: ['src/**']}\n"
)
CLI = "python3 scripts/hooks/sane.py"
LEARNING = {
    "category": "pitfall",
    "summary": "The tokenizer keeps empty tokens: filter them before parsing",
    "detail": "A trailing comma made the tokenizer emit an empty token that the parser "
    "could not handle; filter empty tokens first.",
    "tags": ["parser", "tokenizer"],
    "criteria_met": ["behavior_changing"],
    "scope": "project",
}
SECOND = dict(LEARNING, summary="Run the parser tests with -q: the fixtures print a lot")
MARK = "<<sane-hooks request>>"


def _no_env_key(e2e: E2E) -> None:
    """The hooks keep the key in <config>/sane-hooks/secret, as on a person's machine."""
    base = type(e2e).base_env

    def base_env() -> dict[str, str]:
        env = base(e2e)
        env.pop("SANE_HOOK_SECRET", None)
        return env

    e2e.base_env = base_env  # type: ignore[method-assign]


def bash(cmd: str) -> list:
    return tool_use("Bash", {"command": cmd, "description": "sane-hooks"})


@pytest.mark.parametrize("sandboxed", [True, False], ids=["sandbox", "no-sandbox"])
def test_agent_allowed_subcommands_work_under_the_sandbox(e2e: E2E, sandboxed: bool) -> None:
    _no_env_key(e2e)
    e2e.install_sane()  # install writes the sandbox and its deny lists
    if not sandboxed:
        settings = e2e.settings()
        settings.pop("sandbox", None)
        e2e.write_settings(settings)
    e2e.config("research: {required: []}\n")
    e2e.write(".claude/active_intents.yaml", INTENTS)
    e2e.commit()

    first = e2e.run("sl+ fix the parser\n- tests pass\n- docs written", script=[text("ok")])
    assert_hooks_healthy(first, e2e)
    run = e2e.run(
        "work on the parser",
        script=[
            bash(f"{CLI} intent select INT-1"),
            bash(f'{CLI} learn observe "the tokenizer keeps empty tokens"'),
            bash(f"{CLI} loop check 1"),
            bash(f"{CLI} loop check 2"),
            bash(f"{CLI} learn reflect <<'EOF'\n{json.dumps([LEARNING])}\nEOF"),
            tool_use(
                "Write",
                {"file_path": str(e2e.project / "src" / "r.json"), "content": json.dumps(SECOND)},
            ),
            bash(f"{CLI} learn reflect --file src/r.json"),
            bash(f"{CLI} status"),
            text("done"),
        ],
    )
    assert_hooks_healthy(run, e2e)
    results = run.results_for("Bash")
    assert len(results) == 7, run.describe()
    outs = [assert_allowed(r, run) for r in results]  # every one exits 0
    later = json.dumps([c.messages for c in run.calls()])
    if sandboxed:
        for out in outs[:6]:
            assert MARK in out and "handed to the hooks" in out, run.describe()
        assert "signature was not checked" in outs[6], outs[6]
        # PostToolUse told the model what the hooks did with each request
        assert later.count("applied by the hooks") >= 6, run.describe()
    else:
        assert "intent INT-1 selected" in outs[0], outs[0]
        assert "observation recorded" in outs[1], outs[1]
        assert "criterion 1 met" in outs[2], outs[2]
        assert "criterion 2 met" in outs[3], outs[3]
        assert "recorded 1 learning" in outs[4] and "recorded 1 learning" in outs[5], outs
        assert "state verified: yes" in outs[6], outs[6]
        assert MARK not in "".join(outs)
    status = e2e.status()
    sess = status["sessions"][status["last_session"]]  # the hooks' session id
    assert "INT-1" in json.dumps(sess.get("intent")), sess.get("intent")
    assert "empty tokens" in json.dumps(sess.get("learning")), sess.get("learning")
    crit = sess["saneloop"]["acceptance_criteria"]
    assert [c["met"] for c in crit] == [True, True], crit
    learnings = (e2e.project / ".claude" / "learnings.md").read_text()
    assert LEARNING["summary"] in learnings and SECOND["summary"] in learnings
    assert status["verified"] is True
    assert run.result_text == "done", run.describe()
    assert not any(a.get("event") == "tamper" for a in e2e.audit())


def test_reviewer_decides_under_the_sandbox(e2e: E2E) -> None:
    """The reviewer subagent's `review decide` is handed to the hooks and counts once the
    reviewer finishes; the Stop that asked for the review then lets the agent stop."""
    from . import test_s6_review as s6

    _no_env_key(e2e)
    e2e.install_sane()  # install writes the sandbox and its deny lists
    e2e.config("research: {required: [local]}\n")
    readme = e2e.write("README.md", "# demo\n")
    e2e.commit()
    target = e2e.project / "greet.py"
    run = e2e.run(
        "#review add a greeting script",
        script=[
            tool_use("Read", {"file_path": str(readme)}),
            tool_use("Write", {"file_path": str(target), "content": "print('hi')\n"}),
            text("the greeting is written"),  # Stop: blocked, review pending
            s6.spawn_reviewer,
            text("the reviewer approved"),
        ],
        subagents={"SESSION_ID=": [s6.reviewer_decides, text("COMPLETE: greeting is right")]},
    )
    assert run.returncode == 0, run.describe()
    assert_hooks_healthy(run, e2e)
    [decide] = run.tool_uses("Bash", kind="subagent")
    out = assert_allowed(run.tool_result(decide["id"]), run)
    assert MARK in out and "handed to the hooks" in out, out
    stops = run.hooks("Stop")
    says = [f"{ev.get('stdout')}\n{ev.get('stderr')}" for ev in stops]
    assert "[review]" in says[0] and sum("[review]" in s for s in says) == 1, run.describe()
    assert '"decision": "block"' not in says[-1], run.describe()
    status = e2e.status()
    review = status["sessions"][status["last_session"]]["review"]
    assert review["decision"]["word"] == "COMPLETE" and review["decision"]["by"] == "agent"
    assert review["decision"]["confirmed"] is True, review["decision"]
