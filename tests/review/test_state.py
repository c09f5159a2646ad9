"""The review gate through the real scripts, in Claude Code's event order: the seed's sequence
diagrams 5.1-5.3, every transition of the state machine, the ISSUES path, the breaker, the
reviewer's life cycle (background and foreground) and two sessions in one project."""

import time

import pytest

from review.support import CLI, REVIEWER, Flow, deny


@pytest.fixture
def flow(proj):
    proj.install()
    proj.research()
    return Flow(proj)


def opened(flow, text="#review fix the login bug"):
    r = flow.prompt(text)
    assert r.denied is None and "review is open" in r.context
    assert flow.review()["status"] == "pending"
    return r


# ------------------------------------------------------------------ 5.1 happy path


def test_5_1_happy_path_background_reviewer(flow):
    opened(flow)
    flow.p.write("app.py", "print('fixed')\n")
    flow.post("Write", {"file_path": flow.p.path("app.py"), "content": "print('fixed')\n"})
    r = flow.stop()
    msg = deny(r)
    assert msg.startswith("[review] ")
    assert "SESSION_ID=%s" % flow.sid in msg and '"%s"' % REVIEWER in msg
    assert "## Summary" in msg and "## Files Changed" in msg and "- app.py" in msg
    assert "run_in_background: false" in msg
    assert flow.review()["status"] == "blocked"

    pre, start, _ = flow.spawn("agent-rev-1")
    assert pre.denied is None and pre.stdout.strip() == ""  # no blanket allow
    assert "you review session %s" % flow.sid in start.context
    assert "review decide %s COMPLETE" % flow.sid in start.context
    assert (
        flow.pre("Read", {"file_path": flow.p.path("app.py")}, agent="agent-rev-1").denied is None
    )
    assert flow.bash("git diff", agent="agent-rev-1").denied is None

    r, c = flow.decide("agent-rev-1", "complete")  # case-insensitive word
    assert r.denied is None and r.stdout.strip() == ""
    assert c.returncode == 0 and "Decision recorded: COMPLETE for session %s" % flow.sid in c.stdout
    rv = flow.review()
    assert rv["status"] == "blocked" and rv["decision"] is None  # not yet confirmed

    w = flow.stop(active=True)  # the reviewer still runs
    assert deny(w).startswith("[review] Waiting for the reviewer")
    assert flow.review()["block_count"] == 1  # waiting does not count

    s = flow.subagent_stop("agent-rev-1")
    assert s.denied is None
    rv = flow.review()
    assert rv["status"] == "approved" and rv["decision"]["confirmed"] is True
    assert rv["decision"]["by"] == "agent" and rv["decision"]["agent_id"] == "agent-rev-1"
    assert rv["attempts"][-1]["outcome"] == "Success" and rv["attempts"][-1]["blocks"] == 1

    done = flow.stop(active=True)
    assert not deny(done).startswith("[review")  # (the learning gate may follow the edit)
    types = flow.trace_types()
    for t in (
        "SessionStart",
        "PromptReceived",
        "ToolCompleted",
        "StopHookCalled",
        "ReviewerStart",
        "ReviewDecision",
    ):
        assert t in types, (t, types)
    assert [a["event"] for a in flow.audit("review_decision")] == ["review_decision"]
    assert flow.audit("review_decision")[0]["by"] == "agent"


def test_5_1_foreground_reviewer_order(flow):
    """Foreground Agent call: SubagentStart, the reviewer's calls and SubagentStop come before
    the main thread's PostToolUse of the Agent call."""
    opened(flow)
    assert flow.stop().denied
    pre, start, tid = flow.spawn("agent-fg", background=False)
    r, c = flow.decide("agent-fg", "COMPLETE")
    assert c.returncode == 0
    assert flow.subagent_stop("agent-fg").denied is None
    flow.finish_foreground(tid, "agent-fg")
    assert flow.stop(active=True).denied is None
    assert flow.review()["status"] == "approved"


def test_decision_counts_only_once_the_reviewer_finishes(flow):
    opened(flow)
    flow.spawn("agent-rev-1")
    flow.decide("agent-rev-1", "COMPLETE")
    # Claude Code lists the reviewer as a running background task
    r = flow.stop(
        background_tasks=[
            {"id": "agent-rev-1", "type": "subagent", "status": "running", "agent_type": REVIEWER}
        ]
    )
    assert deny(r).startswith("[review] Waiting")
    for _ in range(5):  # never counts toward max_blocks
        assert deny(flow.stop(active=True)).startswith("[review] Waiting")
    rv = flow.review()
    assert rv["block_count"] == 0 and rv["status"] == "pending"
    assert all(a["outcome"] != "NotSpawned" for a in rv["attempts"])
    flow.subagent_stop("agent-rev-1")
    assert flow.stop().denied is None


# ------------------------------------------------------------------ 5.2 issues found


def test_5_2_issues_found_then_fixed(flow):
    opened(flow)
    assert flow.stop().denied
    flow.review_cycle(
        "ISSUES",
        agent="rev-a",
        summary="login still fails for empty passwords",
        message="handle the empty password in login.py",
    )
    rv = flow.review()
    assert rv["status"] == "pending" and rv["decision"]["word"] == "ISSUES"
    assert rv["block_count"] == 0  # each decision resets the breaker
    r = flow.stop(active=True)  # stop_hook_active never opens it
    msg = deny(r)
    assert msg.startswith("[review] The reviewer found ISSUES")
    assert "handle the empty password in login.py" in msg and "SESSION_ID=%s" % flow.sid in msg
    assert flow.review()["block_count"] == 1
    r = flow.stop(active=True)  # agent fixed nothing: spawn again
    assert deny(r).startswith("[review]") and flow.review()["block_count"] == 2
    flow.review_cycle("COMPLETE", agent="rev-b")
    assert flow.stop(active=True).denied is None
    outcomes = [a["outcome"] for a in flow.review()["attempts"]]
    assert outcomes == ["Success", "NotSpawned", "Success"]


def test_issues_needs_a_message(flow):
    opened(flow)
    flow.spawn("rev")
    r, c = flow.decide("rev", "ISSUES")
    assert c.returncode == 1 and "--message" in c.stderr
    assert flow.review()["reviewers"]["rev"].get("pending") is None


# ------------------------------------------------------------------ 5.3 circuit breaker


def test_5_3_breaker_force_approves_after_max_blocks(flow):
    opened(flow)
    for i in range(3):
        r = flow.stop(active=i > 0)
        assert deny(r).startswith("[review]"), i
    assert flow.review()["block_count"] == 3
    r = flow.stop(active=True)
    assert r.denied is None
    assert "NOT approved" in r.user and "review.max_blocks" in r.user
    rv = flow.review()
    assert rv["status"] == "idle" and rv["forced"] == 1 and rv["block_count"] == 0
    assert [a["outcome"] for a in rv["attempts"]] == ["NotSpawned"] * 3
    fa = flow.audit("force_approve")
    assert len(fa) == 1 and fa[0]["blocks"] == 3 and fa[0]["session"] == flow.sid
    assert flow.stop().denied is None  # Idle: nothing pending


def test_breaker_counts_only_blocks_without_a_decision(flow):
    """A reviewer who keeps finding issues keeps the gate shut: each decision resets it."""
    opened(flow)
    for round_ in range(3):
        assert deny(flow.stop()).startswith("[review]")
        assert deny(flow.stop(active=True)).startswith("[review]")
        flow.review_cycle("ISSUES", agent="rev-%d" % round_, message="still wrong")
    rv = flow.review()
    assert rv["status"] == "pending" and rv["forced"] == 0
    for i in range(3):
        assert deny(flow.stop(active=True)).startswith("[review] The reviewer found ISSUES")
    assert flow.stop(active=True).denied is None  # only now: 3 blocks, no decision


def test_max_blocks_configurable(flow):
    flow.p.config("review: {max_blocks: 1}\n")
    opened(flow)
    assert flow.stop().denied
    assert flow.stop(active=True).denied is None
    assert flow.audit("force_approve")


def test_cooldown_resets_the_breaker(flow):
    flow.p.config("review: {cooldown_seconds: 1}\n")
    opened(flow)
    for _ in range(3):
        assert flow.stop().denied
    time.sleep(1.3)
    assert flow.stop().denied  # count started again
    assert flow.review()["block_count"] == 1


def test_stop_hook_active_alone_never_opens_the_gate(flow):
    opened(flow)
    r = flow.stop(active=True)
    assert deny(r).startswith("[review]")
    assert flow.review()["status"] == "blocked"


def test_held_stop_gate_never_blocks_and_keeps_the_review(flow):
    opened(flow)
    for _ in range(3):
        flow.p.fail(
            "Bash", {"command": "make"}, error="Exit code 2\nmake: nope", session_id=flow.sid
        )
    r = flow.stop()
    assert r.denied is None and "held" in r.user
    assert flow.review()["status"] == "pending" and flow.review()["block_count"] == 0
    flow.prompt("rb-")
    assert deny(flow.stop()).startswith("[review]")


def test_breaker_lets_the_reviewer_agent_call_through(flow):
    opened(flow)
    for _ in range(3):
        flow.p.fail(
            "Bash", {"command": "make"}, error="Exit code 2\nmake: nope", session_id=flow.sid
        )
    assert flow.pre("Agent", flow.agent_input()).denied is None
    assert deny(flow.pre("Agent", flow.agent_input(subagent_type="general-purpose"))).startswith(
        "[breaker]"
    )
    assert deny(flow.pre("Agent", flow.agent_input(sid="other"))).startswith("[breaker]")


# ------------------------------------------------------------------ the reviewer's life cycle


def test_reviewer_that_never_decides_is_sent_back_once(flow):
    opened(flow)
    assert flow.stop().denied
    flow.spawn("rev-lazy")
    s = flow.subagent_stop("rev-lazy")
    msg = deny(s)
    assert msg.startswith("[review]")
    assert "%s review decide %s COMPLETE" % (CLI, flow.sid) in msg
    assert "%s review decide %s ISSUES" % (CLI, flow.sid) in msg
    s = flow.subagent_stop("rev-lazy", active=True)
    assert s.denied is None  # lets go the second time
    rv = flow.review()
    assert rv["attempts"][-1]["outcome"] == "NoDecision"
    assert rv["reviewers"]["rev-lazy"]["stopped_at"]
    r = flow.stop(active=True)
    assert deny(r).startswith("[review]")  # still pending, counted
    assert flow.review()["block_count"] == 2


def test_not_spawned_outcome(flow):
    opened(flow)
    assert flow.stop().denied
    assert flow.stop(active=True).denied
    outcomes = [a["outcome"] for a in flow.review()["attempts"]]
    assert outcomes == ["NotSpawned", "Pending"]
    assert flow.audit("review_attempt")[0]["outcome"] == "NotSpawned"


@pytest.mark.parametrize(
    "prompt",
    [
        "SESSION_ID=someone-else\n\n## Summary\nx",
        "## Summary\nno session id at all",
        "SESSION_ID=\n## Summary",
    ],
)
def test_bad_session_id_is_denied_with_the_template(flow, prompt):
    opened(flow)
    assert flow.stop().denied
    r = flow.pre("Agent", flow.agent_input(prompt=prompt))
    msg = deny(r)
    assert msg.startswith(
        "[review] The reviewer's prompt must start with `SESSION_ID=%s`" % flow.sid
    )
    assert "## Files Changed" in msg
    assert flow.review()["attempts"][-1]["outcome"] == "BadSessionId"


def test_other_subagents_are_not_reviewers(flow):
    opened(flow)
    assert (
        flow.pre(
            "Agent", flow.agent_input(subagent_type="general-purpose", prompt="explore")
        ).denied
        is None
    )
    flow.p.hook(
        "saneprompt",
        flow.p.payload(
            "SubagentStart", session_id=flow.sid, agent_id="gp-1", agent_type="general-purpose"
        ),
    )
    assert "gp-1" not in flow.review()["reviewers"]
    assert flow.subagent_stop("gp-1", agent_type="general-purpose").denied is None


def test_reviewer_only_reads(flow):
    opened(flow)
    flow.spawn("rev")
    path = flow.p.path("app.py")
    for tool, ti in (
        ("Write", {"file_path": path, "content": "x"}),
        ("Edit", {"file_path": path, "old_string": "a", "new_string": "b"}),
        ("NotebookEdit", {"notebook_path": flow.p.path("n.ipynb"), "new_source": "x"}),
        ("mcp__github__create_issue", {"title": "x"}),
    ):
        assert deny(flow.pre(tool, ti, agent="rev")).startswith(
            "[review] The reviewer only reads"
        ), tool
    for cmd in (
        "echo hacked > app.py",
        "rm -rf src",
        "git commit -am wip",
        "sed -i s/a/b/ app.py",
        'python3 -c \'open("app.py","w")\'',
    ):
        assert deny(flow.bash(cmd, agent="rev")).startswith("[review]"), cmd
    assert deny(flow.bash("%s loop check 1" % CLI, agent="rev")).startswith(
        "[review] The reviewer may not run"
    )
    for cmd in (
        "git diff",
        "git log -p -3",
        "cat app.py",
        "%s review context %s" % (CLI, flow.sid),
    ):
        assert flow.bash(cmd, agent="rev").denied is None, cmd
    assert flow.pre("Grep", {"pattern": "x", "path": flow.p.dir}, agent="rev").denied is None


def test_reviewer_may_not_decide_for_another_session(flow):
    opened(flow)
    flow.spawn("rev")
    r, _ = flow.decide("rev", "COMPLETE", sid="sess-other")
    assert deny(r).startswith("[review] This reviewer reviews session %s" % flow.sid)


def test_person_decides_outside_claude_code(flow):
    opened(flow)
    assert flow.stop().denied
    c = flow.cli(flow.decide_args("COMPLETE"), claude=False)
    assert c.returncode == 0 and "by the person; it counts now" in c.stdout
    assert flow.review()["status"] == "approved"
    assert flow.audit("review_decision")[-1]["by"] == "person"
    assert flow.stop(active=True).denied is None


# ------------------------------------------------------------------ transitions


def test_transition_table(flow):
    """Idle -#review-> Pending -Stop-> Blocked -ISSUES-> Pending -Stop-> Blocked -COMPLETE->
    Approved -#review-> Pending -breaker-> Idle."""
    assert flow.review() == {} or flow.review().get("status") in (None, "idle")
    opened(flow)
    seen = [flow.review()["status"]]
    flow.stop()
    seen.append(flow.review()["status"])
    flow.review_cycle("ISSUES", agent="r1", message="fix")
    seen.append(flow.review()["status"])
    flow.stop()
    seen.append(flow.review()["status"])
    flow.review_cycle("COMPLETE", agent="r2")
    seen.append(flow.review()["status"])
    flow.prompt("#roz check it again")
    seen.append(flow.review()["status"])
    for _ in range(4):
        flow.stop()
    seen.append(flow.review()["status"])
    assert seen == ["pending", "blocked", "pending", "blocked", "approved", "pending", "idle"]
    flow.p.hook("sanestop", flow.p.payload("SessionEnd", session_id=flow.sid, reason="other"))
    assert flow.trace_types()[-1] == "SessionEnd"


def test_approved_then_exit(flow):
    """Approved -> [*]: the session ends with the approval in its trace."""
    opened(flow)
    flow.stop()
    flow.review_cycle("COMPLETE", agent="r")
    assert flow.stop().denied is None
    flow.p.hook(
        "sanestop", flow.p.payload("SessionEnd", session_id=flow.sid, reason="prompt_input_exit")
    )
    rv = flow.review()
    assert rv["status"] == "approved" and rv["trace"][-1]["type"] == "SessionEnd"


def test_pending_decision_while_not_yet_blocked(flow):
    """Pending -> Approved directly (the agent spawned the reviewer before any Stop)."""
    opened(flow)
    flow.review_cycle("COMPLETE", agent="early")
    assert flow.review()["status"] == "approved"
    assert flow.stop().denied is None


@pytest.mark.parametrize(
    "text,opens",
    [
        ("#review fix it", True),
        ("#ROZ: fix it", True),
        ("#review", True),
        ("please #review this", False),
        ("#reviewer fix", False),
        ("fix the bug", False),
    ],
)
def test_review_prompt_trigger(flow, text, opens):
    r = flow.prompt(text)
    assert r.denied is None  # never consumed
    assert (flow.review().get("status") == "pending") is opens


def test_mode_always_and_never(flow):
    flow.p.config("review: {mode: always}\n")
    flow.prompt("fix the login bug")
    assert flow.review()["status"] == "pending"
    flow.p.config("review: {mode: never}\n")
    assert flow.stop().denied is None  # never: Stop does not block
    flow2 = Flow(flow.p, "sess-never")
    flow2.prompt("#review fix")
    assert flow2.review().get("status") in (None, "idle")


def test_task_notification_is_not_a_prompt(flow):
    flow.p.config("review: {mode: always, scope: prompt}\n")
    flow.prompt("fix the bug")
    flow.review_cycle("COMPLETE", agent="bg")
    flow.prompt("<task-notification>\nagent bg finished: COMPLETE\n</task-notification>")
    rv = flow.review()
    assert rv["status"] == "approved" and len(rv["prompts"]) == 1


# ------------------------------------------------------------------ sessions


def test_two_sessions_in_one_project(flow):
    a, b = flow, Flow(flow.p, "sess-b")
    b.prompt("what does this do?")
    opened(a)
    assert b.stop().denied is None  # B has nothing pending
    assert deny(a.stop()).startswith("[review]")
    b.spawn("rev-b-1")  # a reviewer in B ...
    r, _ = b.decide("rev-b-1", "COMPLETE", sid=a.sid)  # ... cannot decide for A
    assert deny(r).startswith("[review] This reviewer reviews session sess-b")
    a.review_cycle("COMPLETE", agent="rev-a-1")
    assert a.review()["status"] == "approved"
    assert b.review()["status"] == "idle" and b.review()["decision"] is None
    assert a.stop().denied is None and b.stop().denied is None
    # an authorisation is bound to its session: A's, consumed from B's environment, is refused
    import shlex

    a.prompt("#review again")
    a.spawn("rev-a-2")
    args = a.decide_args("COMPLETE")
    assert (
        a.pre("Bash", {"command": "%s %s" % (CLI, shlex.join(args))}, agent="rev-a-2").denied
        is None
    )
    c = b.cli(args)
    assert c.returncode == 2 and "did not authorise" in c.stderr
    assert a.review()["status"] == "pending"


def test_pending_review_survives_clear(flow):
    opened(flow)
    flow.stop()
    new = Flow(flow.p, "sess-after-clear")
    r = new.session_start("clear")
    assert "review is still pending" in r.context
    rv = new.review()
    assert rv["status"] == "blocked" and rv["sid"] == new.sid and rv["carried_from"] == flow.sid
    assert rv["block_count"] == 0  # a new session resets the breaker
    assert "SESSION_ID=%s" % new.sid in deny(new.stop())
    old = flow.p.state()["sessions"][flow.sid]["review"]
    assert old["carried_to"] == new.sid


def test_reviewer_context_names_second_opinion_tools(flow, tmp_path):
    import os

    bindir = tmp_path / "bin"
    bindir.mkdir()
    fake = bindir / "codex"
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    flow.p.env["PATH"] = "%s:%s" % (bindir, os.environ.get("PATH", ""))
    opened(flow)
    _, start, _ = flow.spawn("rev")
    assert (
        "codex (`codex`)" in start.context
        and "gemini" not in start.context.split("installed here:")[1].split(".")[0]
    )
    flow.p.config("review: {external_models: {codex: '', gemini: nope-not-here}}\n")
    _, start, _ = flow.spawn("rev2")
    assert (
        "No second-opinion tool is installed" in start.context
        and "--opinions none" in start.context
    )


def test_real_captured_payload_shapes(proj):
    """The captured payloads of Claude Code 2.1.330 (subagent case), retargeted at the reviewer:
    SubagentStop lists the reviewer itself as a running background task."""
    import shlex

    from conftest import load_payload

    proj.install()
    start = load_payload("SubagentStart", proj)
    sid, aid = start["session_id"], start["agent_id"]
    flow = Flow(proj, sid)
    flow.prompt("#review tidy the module")
    stop = dict(load_payload("Stop", proj), session_id=sid)
    assert deny(proj.hook("sanestop", stop)).startswith("[review]")
    agent = load_payload("PreToolUse.Agent", proj)
    agent["tool_input"] = flow.agent_input()
    assert proj.hook("sanetools", agent).denied is None
    start["agent_type"] = REVIEWER
    assert sid in proj.hook("saneprompt", start).context
    pre = load_payload("PreToolUse.inside_subagent", proj)
    args = flow.decide_args("COMPLETE")
    pre.update(
        agent_type=REVIEWER,
        tool_input={
            "command": "%s %s" % (CLI, shlex.join(args)),
            "description": "record the verdict",
        },
    )
    assert proj.hook("sanetools", pre).denied is None
    assert flow.cli(args).returncode == 0
    post = dict(
        pre,
        hook_event_name="PostToolUse",
        tool_response={"stdout": "Decision recorded", "stderr": "", "interrupted": False},
    )
    proj.hook("sanetrack", post)
    sub = load_payload("SubagentStop", proj)
    sub["agent_type"] = REVIEWER
    sub["background_tasks"][0]["agent_type"] = REVIEWER
    assert proj.hook("sanestop", sub).denied is None
    stop2 = dict(
        load_payload("Stop.stop_hook_active_true", proj),
        session_id=sid,
        background_tasks=sub["background_tasks"],
    )  # a stale "running" entry
    assert proj.hook("sanestop", stop2).denied is None
    assert flow.review()["reviewers"][aid]["decided"] == "COMPLETE"
