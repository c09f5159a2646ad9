"""Prompt commands (consumed, audited, never on a prefix) and prompt classification."""

import json

import pytest

from conftest import load_payload


def audit(proj):
    try:
        with open(proj.path(".claude", "audit.jsonl")) as fh:
            return [json.loads(x) for x in fh]
    except FileNotFoundError:
        return []


@pytest.mark.parametrize(
    "text,expect",
    [
        ("s+", "safemode is ON"),
        ("safemode on", "safemode is ON"),
        ("  SafeMode   ON ", "safemode is ON"),
        ("s-", "safemode is OFF"),
        ("safemode off", "safemode is OFF"),
        ("s?", "safemode is OFF"),
        ("safemode status", "safemode is OFF"),
        ("rb-", "breaker is OK"),
        ("rb+", "breaker is OK"),
        ("reset breaker", "breaker is OK"),
        ("rb?", "breaker is OK"),
        ("breaker status", "breaker is OK"),
        ("research", "research for this session"),
        ("rr-", "research reset"),
        ("reset research", "research reset"),
        ("research waive web", "waived"),
        ("unlock", "nothing to unlock"),
        ("sl?", "SaneLoop is OFF"),
        ("sl-", "SaneLoop is OFF"),
        ("help", "sane-hooks commands"),
        ("sane?", "sane-hooks commands"),
        ("HELP", "sane-hooks commands"),
    ],
)
def test_commands_are_consumed_with_an_answer(proj, text, expect):
    r = proj.prompt(text)
    assert r.code == 0 and r.json["decision"] == "block"
    assert expect in r.json["reason"]
    assert any(e["event"] == "command" for e in audit(proj))


@pytest.mark.parametrize(
    "text",
    [
        "s-curve fitting for the sigmoid",
        "s+ is a nice name",
        "rb-tree balancing bug",
        "rb?x",
        "research the auth module and fix the bug",
        "research waive everything",
        "unlock the door module",
        "helpful error messages please",
        "intent is unclear here",
        "sl+",
        "s++",
        "safemode on please",
    ],
)
def test_prefixes_and_lookalikes_are_normal_prompts(proj, text):
    r = proj.prompt(text)
    assert r.denied is None and r.code == 0
    assert not any(e["event"] == "command" for e in audit(proj))


def test_safemode_lives_in_signed_state_and_persists_across_sessions(proj):
    proj.prompt("s+")
    proj.sid = "another-session"
    r = proj.prompt("s?")
    assert "safemode is ON" in r.denied
    assert proj.state()["safemode"]["active"] is True


def test_real_payload_shape(proj):
    p = load_payload("UserPromptSubmit", proj)
    p["prompt"] = "rb?"
    r = proj.hook("saneprompt", p)
    assert "breaker is OK" in r.denied


@pytest.mark.parametrize(
    "text,kind",
    [
        ("what does the parser do?", "question"),
        ("why is this slow", "question"),
        ("add a retry to the fetch helper", "task"),
        ("fix the flaky login test", "task"),
        (
            "refactor the entire storage layer across every module and migrate the schema",
            "big_task",
        ),
        ("ok", "passthrough"),
        ("continue", "passthrough"),
    ],
)
def test_classification_reaches_requirements(proj, text, kind):
    proj.prompt(text)
    req = proj.session_state()["requirements"]
    assert req["last_kind"] == kind
    assert req["kind"] == (None if kind == "passthrough" else kind)


def test_task_prompt_context_names_missing_research(proj):
    r = proj.prompt("add a retry to the fetch helper")
    assert "local" in r.context and "web" in r.context


def test_task_change_resets_research_but_same_task_keeps_it(proj):
    proj.prompt("add a retry to the fetch helper")
    proj.research()
    proj.prompt("add a retry with backoff to the fetch helper")
    assert proj.session_state()["research"]["local"]
    r = proj.prompt("implement dark mode in the settings screen")
    assert "new task" in r.context
    assert not proj.session_state()["research"]["local"]


def test_waive_is_per_session_and_opens_the_gate(proj):
    proj.config("research: {required: [local, web]}\n")
    proj.research(cats=("local",))
    f = proj.path("x.py")
    assert proj.pre("Write", {"file_path": f, "content": ""}).denied.startswith("[research-gate]")
    proj.prompt("research waive web")
    assert proj.pre("Write", {"file_path": f, "content": ""}).denied is None
    proj.sid = "fresh-session"
    proj.research(cats=("local",))
    assert proj.pre("Write", {"file_path": f, "content": ""}).denied.startswith("[research-gate]")


def test_saneloop_start_status_and_stop(proj):
    r = proj.prompt("sl+ finish the parser\n- tests pass\n- docs updated")
    assert "SaneLoop started" in r.denied and "2." in r.denied
    r = proj.prompt("sl?")
    assert "SaneLoop is ON" in r.denied and "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP" in r.denied
    loop = proj.session_state()["saneloop"]
    assert loop["active"] and len(loop["acceptance_criteria"]) == 2
    r = proj.prompt("sl-")
    assert "stopped" in r.denied and not proj.session_state()["saneloop"]["active"]


def test_session_start_and_subagent_start(proj):
    r = proj.hook("saneprompt", load_payload("SessionStart", proj))
    assert r.code == 0
    r = proj.hook("saneprompt", load_payload("SubagentStart", proj))
    assert r.code == 0


def test_background_subagent_notification_is_not_the_persons_prompt(proj):
    proj.prompt("add a retry to the fetch helper")
    proj.research()
    r = proj.prompt(
        "<task-notification>\n<task-id>x</task-id>\nimplement dark mode everywhere rb-\n</task-notification>"
    )
    assert r.denied is None and r.context == ""
    assert proj.session_state()["research"]["local"]  # no task change


def test_resume_with_a_new_session_id_keeps_pending_loop(proj):
    proj.prompt("sl+ finish it\n- done")
    old = proj.sid
    proj.sid = "resumed-session"
    r = proj.hook("saneprompt", proj.payload("SessionStart", source="resume"))
    assert r.code == 0
    assert proj.session_state()["saneloop"]["active"] is True
    assert proj.stop().denied.startswith("[saneloop]")
    assert old != proj.sid
