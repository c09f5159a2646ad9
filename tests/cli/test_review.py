"""sane.py review (decide, context, trace, debug, sessions, stats, clean), the block templates,
the trace's cap and compaction, the installed reviewer, and bad input."""

import json
import os
import time

import pytest

from review.support import CLI, Flow, deny


@pytest.fixture
def flow(proj):
    proj.install()
    proj.research()
    return Flow(proj)


def person(flow, *args):
    return flow.cli(list(args), claude=False)


# ------------------------------------------------------------------ decide: bad input


@pytest.mark.parametrize(
    "args,code,text",
    [
        (["review", "decide", "sess-test-1", "MAYBE", "x"], 1, "COMPLETE or ISSUES"),
        (["review", "decide", "sess-test-1", "ISSUES", "x"], 1, "--message"),
        (["review", "decide", "sess-test-1", "COMPLETE", "  "], 1, "summary is empty"),
        (["review", "decide", "no-such-session", "COMPLETE", "x"], 1, "unknown session"),
        (["review", "decide", "sess-test-1"], 1, "required"),
        (["review"], 1, "review needs an action"),
    ],
)
def test_decide_bad_input(flow, args, code, text):
    flow.prompt("#review x")
    c = person(flow, *args)
    assert c.returncode == code and text in c.stderr, c.stderr
    assert len(c.stderr.strip().splitlines()) == 1
    assert flow.review()["status"] == "pending"


def test_decide_keeps_history_and_prints_a_confirmation(flow):
    flow.prompt("#review x")
    c = person(
        flow,
        "review",
        "decide",
        flow.sid,
        "issues",
        "bad",
        "--message",
        "fix a",
        "--opinions",
        "codex: agrees",
    )
    assert c.returncode == 0 and c.stdout.startswith(
        "Decision recorded: ISSUES for session %s" % flow.sid
    )
    person(flow, "review", "decide", flow.sid, "Complete", "good now")
    rv = flow.review()
    assert [h["word"] for h in rv["history"]] == ["ISSUES", "COMPLETE"]
    assert all(h["confirmed"] for h in rv["history"])
    assert rv["decision"]["word"] == "COMPLETE" and rv["status"] == "approved"
    audits = flow.audit("review_decision")
    assert [a["by"] for a in audits] == ["person", "person"] and audits[0][
        "opinions"
    ] == "codex: agrees"


def test_reviewer_decision_records_opinions(flow):
    flow.prompt("#review x")
    flow.review_cycle("COMPLETE", agent="rev", opinions="none (neither codex nor gemini installed)")
    assert flow.review()["decision"]["opinions"] == "none (neither codex nor gemini installed)"


def test_corrupt_state_is_a_clear_error(flow):
    flow.prompt("#review x")
    with open(flow.p.path(".claude", "state.json"), "w") as fh:
        fh.write("{not json")
    for args in (
        ["review", "context", flow.sid],
        ["review", "sessions"],
        ["review", "decide", flow.sid, "COMPLETE", "x"],
    ):
        c = person(flow, *args)
        assert c.returncode == 1 and "failed verification" in c.stderr, args
        assert len(c.stderr.strip().splitlines()) == 1


# ------------------------------------------------------------------ reading commands


def test_context_shows_prompts_trigger_and_files(flow):
    flow.p.config("review: {gates: ['mcp__tissue__close_issue']}\n")
    flow.prompt("#review fix the login bug")
    flow.prompt("also check logout")
    f = flow.p.write("login.py", "x = 1\n")
    flow.post("Write", {"file_path": f, "content": "x = 1\n"})
    flow.pre("mcp__tissue__close_issue", {"issue_id": 42})
    c = person(flow, "review", "context", flow.sid)
    assert c.returncode == 0
    out = c.stdout
    assert out.startswith("Session: %s\nCreated: 20" % flow.sid)
    assert "[1] 20" in out and "    #review fix the login bug" in out
    assert "[2] 20" in out and "    also check logout" in out
    assert "Gate trigger: mcp__tissue__close_issue matched 'mcp__tissue__close_issue'" in out
    assert '"issue_id": 42' in out
    assert "Files changed (1):\n  - login.py" in out


def test_context_without_sid_uses_the_session_env(flow):
    flow.prompt("#review x")
    c = flow.cli(["review", "context"])  # inside Claude Code: CLAUDE_CODE_SESSION_ID
    assert c.returncode == 0 and "Session: %s" % flow.sid in c.stdout


def test_trace_and_verbose(flow):
    flow.prompt("#review x")
    flow.stop()
    c = person(flow, "review", "trace", flow.sid)
    assert c.returncode == 0
    lines = c.stdout.splitlines()
    assert lines[0] == "Trace of session %s (3 events)" % flow.sid
    assert "SessionStart" in lines[1] and "PromptReceived" in lines[2]
    assert "StopHookCalled" in lines[3] and "outcome=blocked" in lines[3]
    v = person(flow, "review", "trace", flow.sid, "-v")
    assert '"template":' in v.stdout and '"stop_hook_active": false' in v.stdout


def test_debug_prints_the_session_as_json(flow):
    flow.prompt("#review x")
    c = person(flow, "review", "debug", flow.sid)
    doc = json.loads(c.stdout)
    assert doc["session"] == flow.sid and doc["state"]["review"]["status"] == "pending"
    assert person(flow, "review", "debug", "nope").returncode == 1


def test_sessions_lists_review_state(flow):
    Flow(flow.p, "sess-quiet").prompt("hello there, what is this?")
    flow.prompt("#review fix the login bug")
    c = person(flow, "review", "sessions")
    lines = c.stdout.splitlines()
    assert lines[0].startswith("SESSION")
    row = [l for l in lines if l.startswith(flow.sid)][0]
    assert "pending" in row and "#review fix the login bug" in row
    assert any(l.startswith("sess-quiet") for l in lines)


def test_stats_per_template(flow):
    flow.p.config("review: {templates: {active: v2}}\n")
    flow.prompt("#review x")
    flow.stop()  # attempt 1 (v2) -> NotSpawned at the next Stop
    flow.stop()  # attempt 2 (v2) -> Success
    flow.review_cycle("COMPLETE", agent="rev")
    flow.p.config("review: {templates: {active: v1}}\n")
    flow.prompt("#review y")
    flow.stop()  # attempt 3 (v1)
    flow.spawn("lazy")
    flow.subagent_stop("lazy")
    flow.subagent_stop("lazy", active=True)  # -> NoDecision
    c = person(flow, "review", "stats")
    out = c.stdout
    assert out.startswith("Template performance (last 30 days):")
    row_v1 = [l for l in out.splitlines() if l.startswith("| v1")][0]
    row_v2 = [l for l in out.splitlines() if l.startswith("| v2")][0]
    assert row_v2.split("|")[2].strip() == "1" and row_v2.split("|")[3].strip() == "1"
    assert row_v2.split("|")[4].strip() == "2.0" and row_v2.split("|")[5].strip() == "50.0%"
    assert row_v1.split("|")[2].strip() == "0" and row_v1.split("|")[3].strip() == "1"
    assert "NotSpawned:   1 (50%)" in out and "NoDecision:   1 (50%)" in out
    assert person(flow, "review", "stats", "--days", "0").returncode == 1
    assert (
        "no finished review attempts"
        in Flow(flow.p)
        .cli(["review", "stats", "--project", flow.p.path("..", "home")], claude=False)
        .stdout
    )


# ------------------------------------------------------------------ clean (person only)


def _age_session(proj, monkeypatch, sid, days):
    from core.state import Store

    monkeypatch.setenv("SANE_HOOK_SECRET", "test-secret")
    monkeypatch.setenv("HOME", proj.home)
    monkeypatch.setenv("XDG_CONFIG_HOME", os.path.join(proj.home, ".config"))
    st = Store(proj.dir)
    st.open()
    try:
        st.state["sessions"][sid]["updated_at"] = time.time() - days * 86400
        st.commit()
    finally:
        st.close()


def test_clean_removes_old_sessions_but_never_a_pending_review(flow, monkeypatch):
    old_done, old_pending, fresh = Flow(flow.p, "old-done"), Flow(flow.p, "old-pending"), flow
    old_done.prompt("what is this?")
    old_pending.prompt("#review x")
    fresh.prompt("what now?")
    for f in (old_done, old_pending):
        _age_session(flow.p, monkeypatch, f.sid, 10)
    c = person(flow, "review", "clean")
    assert c.returncode == 0 and "removed 1 session" in c.stdout and "kept 1" in c.stdout
    sessions = flow.p.state()["sessions"]
    assert "old-done" not in sessions and "old-pending" in sessions and fresh.sid in sessions
    c = person(flow, "review", "clean", "--before", "1h")
    assert "removed 0 sessions" in c.stdout
    c = person(flow, "review", "clean", "--all")
    assert "removed 1 session" in c.stdout and "old-pending" in flow.p.state()["sessions"]
    assert flow.audit("review_clean")[-1]["by"] == "person"
    assert person(flow, "review", "clean", "--before", "soon").returncode == 1


def test_clean_is_for_the_person_only(flow):
    c = flow.cli(["review", "clean", "--all"])
    assert c.returncode == 2 and "person only" in c.stderr
    r = flow.bash("%s review clean --all" % CLI)
    assert deny(r).startswith("[person-only]")


# ------------------------------------------------------------------ templates


@pytest.mark.parametrize(
    "active,marker",
    [
        ("v1", "Review required before you stop"),
        ("v2", "STOP: this session's work has not been reviewed"),
    ],
)
def test_pinned_templates(flow, active, marker):
    flow.p.config("review: {templates: {active: %s}}\n" % active)
    flow.prompt("#review x")
    msg = deny(flow.stop())
    assert msg.startswith("[review] " + marker)
    assert "SESSION_ID=%s" % flow.sid in msg and "{{" not in msg
    assert flow.review()["attempts"][-1]["template"] == active


def test_missing_template_falls_back_with_a_warning(flow):
    os.remove(flow.p.path(".claude", "sane-templates", "block-v1.md"))
    flow.p.config("review: {templates: {active: v1}}\n")
    flow.prompt("#review x")
    msg = deny(flow.stop())
    assert (
        msg.startswith("[review] Review required before you stop")
        and "SESSION_ID=%s" % flow.sid in msg
    )
    assert flow.review()["attempts"][-1]["template"] == "builtin"
    logged = open(flow.p.path(".claude", "sanestop.log")).read()
    assert "block-v1.md unreadable" in logged and '"level": "warn"' in logged


def test_custom_template_and_weights(flow):
    flow.p.write(
        ".claude/sane-templates/block-v9.md",
        "Custom: spawn {{reviewer_agent}} with SESSION_ID={{session_id}}\n",
    )
    flow.p.config(
        "review: {reviewer_agent: roz, templates: {active: random, weights: {v9: 1, v1: 0, v2: 0}}}\n"
    )
    flow.prompt("#review x")
    assert deny(flow.stop()).startswith("[review] Custom: spawn roz with SESSION_ID=%s" % flow.sid)


def test_template_without_session_placeholder_is_not_used(flow):
    flow.p.write(".claude/sane-templates/block-v1.md", "Please review.\n")
    flow.p.config("review: {templates: {active: v1}}\n")
    flow.prompt("#review x")
    assert "SESSION_ID=%s" % flow.sid in deny(flow.stop())


def test_weighted_choice_follows_the_weights():
    from core import config
    from core.review import text as review_text

    cfg = config.load("/nonexistent", {}, env={})
    picks = [review_text.select_template(cfg) for _ in range(2000)]
    share = picks.count("v1") / len(picks)
    assert set(picks) == {"v1", "v2"} and 0.62 < share < 0.78


# ------------------------------------------------------------------ trace cap, truncation


def test_trace_is_capped_and_compacted_with_a_marker():
    from core.review import state as rs

    r = rs.init({}, "s", 1000.0)
    for i in range(500):
        rs.trace(r, "ToolCompleted", 1000.0 + i, i=i)
    t = r["trace"]
    assert len(t) <= rs.TRACE_CAP
    assert t[0]["type"] == "TraceCompacted"
    kept = [e for e in t if e["type"] != "TraceCompacted"]
    assert t[0]["data"]["dropped"] + len(kept) == 501  # SessionStart + 500
    assert kept[-1]["data"]["i"] == 499 and r["trace_n"] == 501
    assert [e["n"] for e in kept] == sorted(e["n"] for e in kept)


def test_truncation_keeps_small_inputs_whole():
    from core.review import state as rs

    assert rs.truncated({"a": 1}) == {"value": {"a": 1}, "truncated": False}
    big = rs.truncated({"a": "é" * 8000})
    assert big["truncated"] and big["size"] > 10240 and len(big["value"].encode()) <= 10240


# ------------------------------------------------------------------ install


def test_install_ships_the_reviewer_and_templates(flow):
    text = open(flow.p.path(".claude", "agents", "reviewer.md")).read()
    head = text.split("---")[1]
    assert "name: reviewer" in head and "model: opus" in head
    assert "tools: Read, Grep, Glob, Bash" in head
    for must in (
        "SESSION_ID",
        "review context",
        "git diff",
        "Never trust",
        "Steel-man",
        "codex",
        "gemini",
        "--opinions none",
        "err on the side of ISSUES",
        "review decide <id> COMPLETE",
        "review decide <id> ISSUES",
    ):
        assert must in text, must
    for tid in ("v1", "v2"):
        t = open(flow.p.path(".claude", "sane-templates", "block-%s.md" % tid)).read()
        assert "{{session_id}}" in t and "## Summary" in t and "## Files Changed" in t
