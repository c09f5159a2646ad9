"""Phase 1: the harness itself, proven with throw-away hooks the tests write into the scratch
settings (no sane-hooks code involved). If these fail, the e2e scenarios prove nothing."""

from __future__ import annotations

import json

from .fakeapi import parallel, text, tool_use
from .harness import E2E, probe, probe_log


def test_text_turn(e2e: E2E) -> None:
    e2e.add_hook("UserPromptSubmit", probe(e2e, "ups"), matcher=None)
    run = e2e.run("say hello", script=[text("hello from the fake model")])
    assert run.returncode == 0, run.describe()
    assert run.result_text == "hello from the fake model", run.describe()
    assert run.model_calls == 1
    assert run.duration < 20
    [rec] = probe_log(e2e, "ups")
    assert rec["payload"]["hook_event_name"] == "UserPromptSubmit"
    assert rec["payload"]["prompt"] == "say hello"
    assert rec["env"]["CLAUDECODE"] == "1"
    assert rec["env"]["CLAUDE_PROJECT_DIR"] == str(e2e.project)


def test_pretooluse_exit2_blocks_write(e2e: E2E) -> None:
    e2e.add_hook("PreToolUse", probe(e2e, "deny", exit=2, stderr="[probe-gate] no writes"))
    target = e2e.project / "hello.txt"
    run = e2e.run(
        "write it",
        script=[tool_use("Write", {"file_path": str(target), "content": "hi\n"}), text("ok")],
    )
    assert run.returncode == 0, run.describe()
    assert not target.exists()
    [res] = run.results_for("Write")
    assert res is not None and res["is_error"], run.describe()
    assert "[probe-gate] no writes" in res["content"]
    assert res["content"].startswith("PreToolUse:Write hook error")
    [resp] = run.hooks("PreToolUse")
    assert resp["exit_code"] == 2 and "[probe-gate]" in resp["stderr"]
    assert run.hooks("PreToolUse", subtype="hook_started")


def test_pretooluse_json_deny_and_allow(e2e: E2E) -> None:
    deny = json.dumps(
        {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "[probe-json] denied",
            }
        }
    )
    e2e.add_hook("PreToolUse", probe(e2e, "jdeny", stdout=deny), matcher="Bash")
    target = e2e.project / "ok.txt"
    run = e2e.run(
        "go",
        script=[
            tool_use("Bash", {"command": "echo hi > bash.txt", "description": "write"}),
            tool_use("Write", {"file_path": str(target), "content": "ok\n"}),
            text("done"),
        ],
    )
    [bash] = run.results_for("Bash")
    assert bash["is_error"] and "[probe-json] denied" in bash["content"], run.describe()
    assert not (e2e.project / "bash.txt").exists()
    [write] = run.results_for("Write")
    assert not write["is_error"], run.describe()
    assert target.read_text() == "ok\n"


def test_failing_bash_fires_posttoolusefailure(e2e: E2E) -> None:
    e2e.add_hook("PostToolUse", probe(e2e, "post"))
    e2e.add_hook("PostToolUseFailure", probe(e2e, "fail"))
    run = e2e.run(
        "fail",
        script=[
            tool_use("Bash", {"command": "echo out; exit 3", "description": "fail"}),
            text("ok"),
        ],
    )
    [res] = run.results_for("Bash")
    assert res["is_error"] and "Exit code 3" in res["content"], run.describe()
    [rec] = probe_log(e2e, "fail")
    assert rec["payload"]["error"].startswith("Exit code 3")
    assert probe_log(e2e, "post") == []


def test_parallel_tool_calls_run_hooks_concurrently(e2e: E2E) -> None:
    for name in ("a", "b", "c"):
        e2e.write(f"{name}.txt", f"{name}\n")
    e2e.add_hook("PreToolUse", probe(e2e, "pre", sleep=0.4))
    e2e.add_hook("PostToolUse", probe(e2e, "post"))
    run = e2e.run(
        "read all",
        script=[
            parallel(
                *[("Read", {"file_path": str(e2e.project / f"{n}.txt")}) for n in "abc"],
                ("Bash", {"command": "echo hi", "description": "hi"}),
            ),
            text("done"),
        ],
    )
    results = [run.tool_result(b["id"]) for b in run.tool_uses()]
    assert len(results) == 4 and all(r and not r["is_error"] for r in results), run.describe()
    pre = probe_log(e2e, "pre")
    assert len(pre) == 4 and len(probe_log(e2e, "post")) == 4
    # read-only calls start together: some PreToolUse hooks overlap in time
    reads = sorted(
        (r for r in pre if r["payload"]["tool_name"] == "Read"), key=lambda r: r["start"]
    )
    assert any(b["start"] < a["end"] for a, b in zip(reads, reads[1:])), "no overlap"


def test_continue_keeps_the_session(e2e: E2E) -> None:
    first = e2e.run("first prompt", script=[text("one")])
    second = e2e.run("second prompt", script=[text("two")])
    assert first.session_id and second.session_id == first.session_id
    assert second.result_text == "two", second.describe()
    sent = json.dumps(second.calls()[0].messages)
    assert "first prompt" in sent and "second prompt" in sent
    third = e2e.run("fresh", script=[text("three")], new_session=True)
    assert third.session_id != first.session_id


def test_userpromptsubmit_block_is_consumed(e2e: E2E) -> None:
    block = json.dumps({"decision": "block", "reason": "[probe-cmd] answered"})
    e2e.add_hook("UserPromptSubmit", probe(e2e, "ups", stdout=block), matcher=None)
    e2e.add_hook("Stop", probe(e2e, "stop"), matcher=None)
    run = e2e.run("x+", script=[text("should not be called")])
    assert run.returncode == 0
    assert run.model_calls == 0, run.describe()
    assert "[probe-cmd] answered" in run.stdout
    assert probe_log(e2e, "stop") == []


def test_stop_block_continues_the_turn(e2e: E2E) -> None:
    once = e2e.root / "stop-once"
    e2e.add_hook(
        "Stop", probe(e2e, "stop", exit=2, stderr="[probe-stop] not yet", once=once), matcher=None
    )
    run = e2e.run("work", script=[text("first answer"), text("second answer")])
    assert run.model_calls == 2, run.describe()
    assert "Stop hook feedback" in run.last_user_text()
    assert "[probe-stop] not yet" in run.last_user_text()
    assert run.result_text == "second answer"
    stops = probe_log(e2e, "stop")
    assert [s["payload"]["stop_hook_active"] for s in stops] == [False, True]


def test_subagent_conversation_is_routed(e2e: E2E) -> None:
    e2e.add_hook("PreToolUse", probe(e2e, "pre"))
    e2e.add_hook("SubagentStop", probe(e2e, "substop"), matcher=None)
    run = e2e.run(
        "delegate",
        script=[
            tool_use(
                "Agent",
                {
                    "description": "probe",
                    "subagent_type": "general-purpose",
                    "prompt": "SUBTASK-42: list the files",
                    "run_in_background": False,
                },
            ),
            text("main done"),
        ],
        subagents={
            "SUBTASK-42": [
                tool_use("Bash", {"command": "echo from-sub", "description": "sub"}),
                text("sub finished"),
            ]
        },
    )
    sub = run.calls("subagent")
    assert len(sub) >= 2, run.describe()
    assert all(r.agent_id for r in sub)
    [bash] = run.tool_uses("Bash", kind="subagent")
    res = run.tool_result(bash["id"])
    assert res and "from-sub" in res["content"], run.describe()
    pre = [r["payload"] for r in probe_log(e2e, "pre") if r["payload"]["tool_name"] == "Bash"]
    assert pre and pre[0].get("agent_id") and pre[0].get("agent_type") == "general-purpose"
    stops = probe_log(e2e, "substop")
    assert stops and "sub finished" in stops[0]["payload"].get("last_assistant_message", "")


def test_background_subagent_reports_back_through_userpromptsubmit(e2e: E2E) -> None:
    """Not in real-client.md: an Agent call without `run_in_background: false` runs in the
    background (the model gets "Async agent launched"), the main turn Stops, and the
    subagent's completion comes back as a *new prompt*: UserPromptSubmit fires with a
    `<task-notification>` prompt, the model is called again, and Stop fires again."""
    e2e.add_hook("UserPromptSubmit", probe(e2e, "ups"), matcher=None)
    e2e.add_hook("Stop", probe(e2e, "stop"), matcher=None)
    run = e2e.run(
        "delegate",
        script=[
            tool_use(
                "Agent",
                {
                    "description": "bg",
                    "subagent_type": "general-purpose",
                    "prompt": "SUBTASK-BG: echo",
                },
            ),
            text("main waits"),
        ],
        subagents={
            "SUBTASK-BG": [
                tool_use("Bash", {"command": "echo bg", "description": "bg"}),
                text("bg finished"),
            ]
        },
    )
    [agent] = run.tool_uses("Agent")
    assert "Async agent launched" in run.tool_result(agent["id"])["content"], run.describe()
    prompts = [r["payload"]["prompt"] for r in probe_log(e2e, "ups")]
    assert prompts[0] == "delegate"
    assert len(prompts) == 2 and prompts[1].startswith("<task-notification>"), prompts
    assert "bg finished" in prompts[1]
    assert len(probe_log(e2e, "stop")) == 2
    assert run.model_calls == 3, run.describe()
