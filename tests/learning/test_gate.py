"""The learning gate through the real scripts: the seed's sequence diagrams 9.1-9.4, every
transition of the state machine, the walk-pasts of the public original (second stop, empty
reflect, compound close command, `bd close`), failure revert, skip and auto-skip, the breaker,
subagents, the Stop order with the review gate."""

import json
import os
import subprocess
import time

import pytest

from learning.support import (
    CLI,
    agent_cli,
    bash,
    cand,
    closed_ticket,
    edit,
    events,
    gate,
    learnings_md,
    reflect,
    session_end,
    session_start,
    stats_lines,
    tracker,  # noqa: F401 (fixture)
)


@pytest.fixture
def p(proj):
    proj.install()
    proj.research()
    return proj


def audit(proj, event):
    path = proj.path(".claude", "audit.jsonl")
    if not os.path.exists(path):
        return []
    return [r for r in map(json.loads, open(path)) if r.get("event") == event]


# ------------------------------------------------------------------ 9.1 happy path


def test_9_1_ticket_close_reflection_then_next_session_starts_with_it(p, tracker):
    os.makedirs(p.path(".beads"))
    tracker.set([{"id": "bd-12", "title": "Fix the login redirect", "status": "in_progress"}])
    start = session_start(p)
    assert start.code == 0
    assert gate(p)["status"] == "active"
    assert gate(p)["ticket"]["title"] == "Fix the login redirect"
    assert ["bd", "list", "--status", "in_progress", "--json"] in tracker.calls()

    tracker.set([{"id": "bd-12", "title": "Fix the login redirect", "status": "closed"}])
    pre, post = bash(p, "bd close bd-12")
    assert pre.denied is None and pre.stdout.strip() == ""  # the close is never denied
    assert gate(p)["status"] == "pending"

    r = p.stop()
    msg = r.denied
    assert msg.startswith("[learning] Ticket bd-12")
    assert '"Fix the login redirect"' in msg
    assert "%s learn reflect %s <<'EOF'" % (CLI, p.sid) in msg
    example = json.loads(msg.split("<<'EOF'\n", 1)[1].split("\nEOF", 1)[0])
    assert set(example["learnings"][0]) >= {
        "category",
        "summary",
        "detail",
        "tags",
        "criteria_met",
        "scope",
    }
    for word in (
        "pattern",
        "pitfall",
        "convention",
        "dependency",
        "process",
        "domain",
        "debugging",
        "behavior_changing",
        "decision_rationale",
        "stable_fact",
        "explicit_request",
    ):
        assert word in msg
    assert '%s learn skip %s "' % (CLI, p.sid) in msg
    assert gate(p)["status"] == "blocked"

    pre, cli = reflect(p, cand())
    assert pre.denied is None
    assert cli.returncode == 0, cli.stderr
    assert "the learning gate is open" in cli.stdout
    assert gate(p)["status"] == "reflected"
    assert "Run the migrations before the API tests" in learnings_md(p)

    done = p.stop(active=True)
    assert done.denied is None
    ev = events(p)
    for e in (
        "SessionStart",
        "BackendDetected",
        "TicketDetected",
        "TicketCloseDetected",
        "TicketClosed",
        "StopHookCalled",
        "GateBlocked",
        "ReflectionComplete",
    ):
        assert e in ev, (e, ev)
    kinds = [s["event"] for s in stats_lines(p)]
    assert "written" in kinds and "reflection" in kinds

    nxt = session_start(p, sid="sess-next")
    assert "Run the migrations before the API tests" in nxt.context
    assert any(s["event"] == "surfaced" and s["session"] == "sess-next" for s in stats_lines(p))


def test_9_1_with_tissue(p, tracker):
    os.makedirs(p.path(".tissue"))
    tracker.set([{"id": "t-7", "title": "Speed up CI", "status": "closed"}])
    bash(p, "tissue status t-7 closed")
    msg = p.stop().denied
    assert msg.startswith("[learning] Ticket t-7") and '"Speed up CI"' in msg
    assert reflect(p, cand())[1].returncode == 0
    assert p.stop(active=True).denied is None


# ------------------------------------------------------------------ walk-pasts of the original


def test_second_stop_with_stop_hook_active_still_blocks(p, tracker):
    closed_ticket(p, tracker)
    assert p.stop().denied.startswith("[learning]")
    again = p.stop(active=True)
    assert again.denied and again.denied.startswith("[learning]")
    assert gate(p)["block_count"] == 2


@pytest.mark.parametrize(
    "body",
    [
        '{"learnings": []}',
        "[]",
        '{"learnings": [{"category": "pitfall"}]}',
        '{"nothing": 1}',
        "not json at all",
    ],
)
def test_empty_or_rejected_reflect_keeps_the_gate_closed(p, tracker, body):
    closed_ticket(p, tracker)
    p.stop()
    pre, cli = agent_cli(p, "learn", "reflect", p.sid, input=body)
    assert cli.returncode == 1
    assert gate(p)["status"] == "blocked"
    assert not os.path.exists(p.path(".claude", "learnings.md"))
    assert p.stop(active=True).denied.startswith("[learning]")


@pytest.mark.parametrize(
    "command",
    [
        "tissue status t-1 closed && git push",
        "git add -A && tissue status t-1 closed; git push origin main",
        "bash -c 'tissue status t-1 closed'",
        "cd sub && TISSUE_DB=x tissue edit t-1 --status closed | cat",
        "true || tissue status t-1 closed",
        "echo start; /usr/local/bin/tissue status t-1 closed",
    ],
)
def test_compound_close_commands_are_seen(p, tracker, command):
    os.makedirs(p.path(".tissue"))
    bash(p, command)
    assert gate(p)["status"] == "pending", command
    assert p.stop().denied.startswith("[learning] Ticket t-1")


@pytest.mark.parametrize(
    "command,ids",
    [
        ("bd close bd-12", ["bd-12"]),
        ("bd close bd-12 bd-13 --reason done", ["bd-12", "bd-13"]),
        ("bd update bd-12 --status closed", ["bd-12"]),
        ("bd update bd-12 --status=closed", ["bd-12"]),
        ("bd update bd-12 -s closed", ["bd-12"]),
        ("tissue edit t-3 --title x --status closed", ["t-3"]),
        ("tissue status t-3 closed", ["t-3"]),
    ],
)
def test_close_spellings(p, tracker, command, ids):
    os.makedirs(p.path(".beads"))
    os.makedirs(p.path(".tissue"))
    bash(p, command)
    g = gate(p)
    assert g["status"] == "pending"
    assert [c["id"] for c in g["closes"]] == ids


@pytest.mark.parametrize(
    "command",
    [
        "bd show bd-12",
        "bd list --status open",
        "echo bd close bd-12",
        "grep -r 'bd close' .",
        "beads-viewer close x",
        "bd update bd-12 --status in_progress",
        "tissue status t-1 open",
        "git commit -m 'bd close bd-12'",
    ],
)
def test_not_closes(p, tracker, command):
    os.makedirs(p.path(".beads"))
    os.makedirs(p.path(".tissue"))
    bash(p, command)
    assert gate(p).get("status", "idle") in ("idle", "active")
    assert p.stop().denied is None


# ------------------------------------------------------------------ failure revert


def test_failed_close_is_dropped(p, tracker):
    os.makedirs(p.path(".beads"))
    tracker.set([{"id": "bd-12", "title": "x", "status": "in_progress"}])
    session_start(p)
    assert gate(p)["status"] == "active"
    pre, post = bash(p, "bd close bd-12", ok=False, error="Exit code 1\nno permission")
    g = gate(p)
    assert g["status"] == "active" and not g.get("pending_close")
    assert "TicketCloseFailed" in events(p)
    assert p.stop().denied is None


def test_failed_compound_close_asks_the_tracker(p, tracker):
    os.makedirs(p.path(".beads"))
    tracker.set([{"id": "bd-12", "title": "Login", "status": "closed"}])
    bash(p, "bd close bd-12 && git push", ok=False, error="Exit code 128\nrejected")
    assert gate(p)["status"] == "pending"
    assert ["bd", "show", "bd-12", "--json"] in tracker.calls()
    assert p.stop().denied.startswith("[learning] Ticket bd-12")


def test_failed_compound_close_still_open_in_the_tracker(p, tracker):
    os.makedirs(p.path(".beads"))
    tracker.set([{"id": "bd-12", "title": "Login", "status": "open"}])
    bash(p, "bd close bd-12 && git push", ok=False, error="Exit code 1\nbd: failed")
    assert gate(p).get("status") == "idle"
    assert p.stop().denied is None


def test_tracker_that_hangs_is_cut_off_at_two_seconds(p, tracker):
    os.makedirs(p.path(".beads"))
    tracker.set([], mode="hang")
    t0 = time.monotonic()
    bash(p, "bd close bd-12 && git push", ok=False)
    assert time.monotonic() - t0 < 8
    assert gate(p).get("status") == "idle"


def test_tracker_missing_is_ignored(p):
    os.makedirs(p.path(".beads"))
    p.env["PATH"] = "/nonexistent"
    r = session_start(p)
    assert r.code == 0 and "fail" not in r.user
    bash(p, "bd close bd-1 && git push", ok=False)
    assert gate(p).get("status") == "idle"


def test_close_without_post_tool_use_is_settled_by_the_tracker_at_stop(p, tracker):
    os.makedirs(p.path(".beads"))
    tracker.set([{"id": "bd-4", "title": "t", "status": "closed"}])
    p.pre("Bash", {"command": "bd close bd-4"}, tool_use_id="toolu_lost")  # no PostToolUse
    assert gate(p)["pending_close"]
    assert p.stop().denied.startswith("[learning] Ticket bd-4")


# ------------------------------------------------------------------ 9.4 breaker


def test_9_4_breaker_force_approves_after_max_blocks(p, tracker):
    closed_ticket(p, tracker)
    for n in (1, 2, 3):
        r = p.stop(active=n > 1)
        assert r.denied.startswith("[learning]") and "block %d of 3" % n in r.denied
    r = p.stop(active=True)
    assert r.denied is None
    assert "learning gate let the agent stop after 3 blocks" in r.user
    g = gate(p)
    assert g["status"] == "idle" and "CircuitBreakerTripped" in events(p)
    assert audit(p, "learning_breaker")
    assert any(s["event"] == "breaker" for s in stats_lines(p))
    assert p.stop().denied is None


def test_max_blocks_is_configurable(p, tracker):
    p.config("learning: {max_blocks: 1}\n")
    closed_ticket(p, tracker)
    assert "block 1 of 1" in p.stop().denied
    assert p.stop(active=True).denied is None


def test_cooldown_resets_the_block_count(p, tracker):
    p.env["SANE_LEARNING__COOLDOWN_SECONDS"] = "1"
    closed_ticket(p, tracker)
    assert "block 1 of 3" in p.stop().denied
    assert "block 2 of 3" in p.stop(active=True).denied
    time.sleep(1.3)
    assert "block 1 of 3" in p.stop(active=True).denied


def test_reflection_resets_the_breaker_and_a_new_close_rearms(p, tracker):
    closed_ticket(p, tracker)
    p.stop()
    p.stop(active=True)
    assert reflect(p, cand())[1].returncode == 0
    assert gate(p)["block_count"] == 0
    tracker.set([{"id": "bd-13", "title": "Next", "status": "closed"}])
    bash(p, "bd close bd-13")
    assert gate(p)["status"] == "pending"
    msg = p.stop().denied
    assert msg.startswith("[learning] Ticket bd-12, bd-13") or "bd-13" in msg
    assert "block 1 of 3" in msg


def test_held_gate_never_blocks_and_keeps_the_reflection_pending(p, tracker):
    closed_ticket(p, tracker)
    for i in range(3):  # trip the circuit breaker
        p.fail(
            "Bash",
            {"command": "make test"},
            error="Exit code 2\nboom %d" % i,
            tool_use_id="toolu_f%d" % i,
        )
    r = p.stop()
    assert r.denied is None
    assert gate(p)["status"] == "pending" and gate(p).get("block_count", 0) == 0
    p.prompt("rb-")
    assert p.stop().denied.startswith("[learning]")


# ------------------------------------------------------------------ skip


def test_skip_opens_the_gate_and_is_logged(p, tracker):
    closed_ticket(p, tracker)
    p.stop()
    pre, cli = agent_cli(p, "learn", "skip", p.sid, "version bump only")
    assert cli.returncode == 0, cli.stderr
    g = gate(p)
    assert g["status"] == "skipped" and g["skip"]["reason"] == "version bump only"
    assert g["skip"]["decider"] == "agent"
    assert p.stop(active=True).denied is None
    assert [s for s in stats_lines(p) if s["event"] == "skip"][0]["reason"] == "version bump only"
    assert audit(p, "learning_skip")


@pytest.mark.parametrize("words", [["   "], [""]])
def test_skip_needs_a_reason(p, tracker, words):
    closed_ticket(p, tracker)
    p.stop()
    pre, cli = agent_cli(p, "learn", "skip", p.sid, *words)
    assert cli.returncode == 1
    assert gate(p)["status"] == "blocked"


def test_skip_with_nothing_pending_is_refused(p):
    session_start(p)
    pre, cli = agent_cli(p, "learn", "skip", p.sid, "nothing")
    assert cli.returncode == 1 and "nothing to skip" in cli.stderr


def test_calls_around_the_hooks_are_refused(p, tracker):
    closed_ticket(p, tracker)
    env = {"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": p.sid}
    for args, data in (
        (["learn", "skip", p.sid, "no"], None),
        (["learn", "observe", p.sid, "a note"], None),
        (["learn", "reflect", p.sid], json.dumps([cand()])),
    ):
        r = p.cli(*args, env=env, input=data)
        assert r.returncode == 2 and "did not authorise" in r.stderr, args
    assert gate(p)["status"] == "pending"
    assert not os.path.exists(p.path(".claude", "learnings.md"))


def test_agent_may_not_act_for_another_session(p, tracker):
    closed_ticket(p, tracker)
    session_start(p, sid="other")
    pre, cli = agent_cli(p, "learn", "skip", "other", "not mine")
    assert cli.returncode == 2 and "authorised for session" in cli.stderr


def test_person_can_reflect_and_skip_outside_claude_code(p, tracker):
    closed_ticket(p, tracker)
    r = p.cli("learn", "skip", p.sid, "person says so")
    assert r.returncode == 0
    assert gate(p)["skip"]["decider"] == "person"


def test_agent_learn_commands_pass_safemode_and_the_breaker(p, tracker):
    closed_ticket(p, tracker)
    p.prompt("s+")
    for i in range(3):
        p.fail(
            "Bash", {"command": "make"}, error="Exit code 2\nx%d" % i, tool_use_id="toolu_b%d" % i
        )
    pre, cli = reflect(p, cand())
    assert pre.denied is None and cli.returncode == 0


def test_maintain_is_person_only(p):
    pre = p.pre("Bash", {"command": "%s learn maintain" % CLI})
    assert pre.denied and pre.denied.startswith("[person-only]")
    r = p.cli("learn", "maintain", env={"CLAUDECODE": "1"})
    assert r.returncode == 2


# ------------------------------------------------------------------ 9.3 subagents


def test_9_3_subagent_observations_reach_the_block_and_only_the_main_thread_is_gated(p, tracker):
    os.makedirs(p.path(".beads"))
    start = p.hook(
        "saneprompt", p.payload("SubagentStart", agent_id="a-sec", agent_type="security")
    )
    assert "learn observe %s" % p.sid in start.context
    pre, cli = agent_cli(
        p,
        "learn",
        "observe",
        p.sid,
        "auth middleware ordering matters",
        agent_id="a-sec",
        agent_type="security",
    )
    assert cli.returncode == 0, cli.stderr
    agent_cli(
        p,
        "learn",
        "observe",
        p.sid,
        "N+1 query in the user dashboard",
        agent_id="a-perf",
        agent_type="perf",
    )
    tracker.set([{"id": "bd-9", "title": "Harden auth", "status": "closed"}])
    bash(p, "bd close bd-9", agent_id="a-sec", agent_type="security")  # closed inside a subagent
    assert gate(p)["status"] == "pending"
    sub = p.hook(
        "sanestop",
        p.payload(
            "SubagentStop",
            agent_id="a-sec",
            agent_type="security",
            stop_hook_active=False,
            last_assistant_message="done",
            agent_transcript_path="/tmp/x",
        ),
    )
    assert sub.denied is None  # subagents never gated
    msg = p.stop().denied
    assert "(security) auth middleware ordering matters" in msg
    assert "(perf) N+1 query in the user dashboard" in msg
    obs = gate(p)["observations"]
    assert obs[0]["agent_id"] == "a-sec" and obs[0]["by"] == "agent"
    assert "ObservationRecorded" in events(p)
    assert reflect(p, cand())[1].returncode == 0
    assert p.stop(active=True).denied is None


# ------------------------------------------------------------------ other close sources


def test_task_completed_arms_the_gate_and_never_blocks_the_task(p):
    payload = p.payload(
        "TaskCompleted",
        task_id="task-007",
        task_subject="Add rate limiting",
        task_description="limit POST /orders",
    )
    r = p.hook("sanestop", payload)
    assert r.code == 0 and r.denied is None
    g = gate(p)
    assert g["status"] == "pending" and g["ticket"]["id"] == "task-007"
    msg = p.stop().denied
    assert msg.startswith("[learning] Ticket task-007") and "Add rate limiting" in msg


def test_task_update_in_progress_then_completed(p):
    p.pre("TaskUpdate", {"taskId": "3", "status": "in_progress"}, tool_use_id="toolu_t1")
    p.post(
        "TaskUpdate", {"taskId": "3", "status": "in_progress"}, {"ok": True}, tool_use_id="toolu_t1"
    )
    assert gate(p)["status"] == "active"
    p.pre("TaskUpdate", {"taskId": "3", "status": "completed"}, tool_use_id="toolu_t2")
    assert gate(p)["status"] == "active"  # pending until it ran
    p.post(
        "TaskUpdate", {"taskId": "3", "status": "completed"}, {"ok": True}, tool_use_id="toolu_t2"
    )
    assert gate(p)["status"] == "pending"


def test_mcp_close_tools(p):
    ti = {"issue_id": "bd-77"}
    p.pre("mcp__beads__close_issue", ti, tool_use_id="toolu_m")
    assert gate(p).get("status", "idle") == "idle" and gate(p)["pending_close"]
    p.post("mcp__beads__close_issue", ti, {"ok": True}, tool_use_id="toolu_m")
    assert gate(p)["status"] == "pending"
    p.pre("mcp__tissue__update", {"id": "t-2", "status": "closed"}, tool_use_id="toolu_m2")
    p.fail("mcp__tissue__update", {"id": "t-2", "status": "closed"}, tool_use_id="toolu_m2")
    assert [c["id"] for c in gate(p)["closes"]] == ["bd-77"]


def test_start_command_activates_with_the_trackers_title(p, tracker):
    os.makedirs(p.path(".beads"))
    tracker.set(
        [
            {
                "id": "bd-3",
                "title": "Cache the index",
                "description": "cold start",
                "status": "in_progress",
            }
        ]
    )
    bash(p, "bd update bd-3 --status in_progress")
    g = gate(p)
    assert g["status"] == "active" and g["ticket"]["title"] == "Cache the index"
    session_end(p)
    assert gate(p)["status"] == "idle"  # active -> idle at the end


def test_reflecting_before_closing_the_same_ticket_counts(p, tracker):
    os.makedirs(p.path(".beads"))
    tracker.set([{"id": "bd-5", "title": "t", "status": "in_progress"}])
    session_start(p)
    assert reflect(p, cand())[1].returncode == 0
    assert gate(p)["status"] == "active"
    bash(p, "bd close bd-5")
    assert gate(p)["status"] == "reflected"
    assert p.stop().denied is None


def test_ticketing_list_decides_what_is_detected(p, tracker):
    p.config("learning: {ticketing: [tissue]}\n")
    os.makedirs(p.path(".beads"))
    bash(p, "bd close bd-1")
    assert gate(p).get("status", "idle") == "idle"
    assert p.stop().denied is None


# ------------------------------------------------------------------ session mode, auto-skip


def git(proj, *args):
    subprocess.run(
        ["git"] + list(args),
        cwd=proj.dir,
        check=True,
        capture_output=True,
        env=dict(
            proj.env,
            GIT_AUTHOR_NAME="t",
            GIT_AUTHOR_EMAIL="t@x",
            GIT_COMMITTER_NAME="t",
            GIT_COMMITTER_EMAIL="t@x",
        ),
    )


@pytest.fixture
def repo(p):
    git(p, "init", "-q")
    p.write("src/app.py", "".join("line %d\n" % i for i in range(50)))
    git(p, "add", "-A")
    git(p, "commit", "-q", "-m", "init")
    return p


def test_session_mode_big_diff_blocks_until_reflection(repo):
    edit(repo, "src/app.py", "".join("new %d\n" % i for i in range(30)))
    msg = repo.stop().denied
    assert msg.startswith("[learning] This session changed files (")
    assert "lines changed in 1 file in the files this session wrote" in msg
    assert gate(repo)["armed_by"] == "session" and gate(repo)["diff"]["lines"] >= 30
    assert reflect(repo, cand())[1].returncode == 0
    assert repo.stop(active=True).denied is None
    edit(repo, "src/other.py", "more\n" * 20)
    assert repo.stop().denied is None  # session mode asks once per session


def test_session_mode_counts_untracked_files(repo):
    edit(repo, "src/new_module.py", "a = 1\n" * 12)
    assert "12 lines changed" in repo.stop().denied


def test_auto_skip_decider_agent_blocks_once_offering_the_skip(repo):
    edit(repo, "src/app.py", "".join("line %d\n" % i for i in range(49)) + "line x\n")
    msg = repo.stop().denied
    assert "under the auto-skip threshold of 5" in msg
    assert "learn skip %s" % repo.sid in msg and "learn reflect %s" % repo.sid in msg
    r = repo.stop(active=True)
    assert r.denied is None
    g = gate(repo)
    assert g["status"] == "skipped" and g["skip"]["decider"] == "auto"
    assert [s for s in stats_lines(repo) if s["event"] == "skip"][0]["decider"] == "auto"


def test_auto_skip_agent_may_answer_with_a_skip(repo):
    edit(repo, "src/app.py", "".join("line %d\n" % i for i in range(49)) + "line x\n")
    repo.stop()
    assert agent_cli(repo, "learn", "skip", repo.sid, "typo fix")[1].returncode == 0
    assert gate(repo)["skip"]["decider"] == "agent"


def test_auto_skip_decider_always_skips_by_itself(repo):
    repo.config("learning: {auto_skip: {decider: always}}\n")
    edit(repo, "src/app.py", "".join("line %d\n" % i for i in range(49)) + "line y\n")
    r = repo.stop()
    assert r.denied is None
    assert gate(repo)["status"] == "skipped"
    assert "auto: 2 lines changed" in gate(repo)["skip"]["reason"]


@pytest.mark.parametrize(
    "conf",
    ["learning: {auto_skip: {decider: never}}\n", "learning: {auto_skip: {enabled: false}}\n"],
)
def test_auto_skip_never_or_disabled_asks_for_a_reflection(repo, conf):
    repo.config(conf)
    edit(repo, "src/app.py", "".join("line %d\n" % i for i in range(49)) + "line z\n")
    assert "block 1 of 3" in repo.stop().denied
    assert "block 2 of 3" in repo.stop(active=True).denied


def test_outside_git_the_size_is_unknown_and_the_agent_decides(p):
    edit(p, "src/app.py", "x\n")
    msg = p.stop().denied
    assert "size unknown" in msg and "learn skip" in msg and "block 1 of 3" in msg


def test_no_writes_no_reflection(repo):
    repo.post(
        "Read", {"file_path": repo.path("src/app.py")}, {"type": "text", "file": {"content": "x"}}
    )
    assert repo.stop().denied is None
    assert gate(repo).get("status", "idle") == "idle"


def test_a_ticket_close_always_asks_even_for_a_tiny_diff(repo, tracker):
    os.makedirs(repo.path(".beads"))
    edit(repo, "src/app.py", "".join("line %d\n" % i for i in range(49)) + "line q\n")
    tracker.set([{"id": "bd-1", "title": "t", "status": "closed"}])
    bash(repo, "bd close bd-1")
    assert "block 1 of 3" in repo.stop().denied
    assert "block 2 of 3" in repo.stop(active=True).denied


# ------------------------------------------------------------------ sessions


def test_pending_reflection_survives_clear(p, tracker):
    closed_ticket(p, tracker)
    p.stop()
    new = "sess-after-clear"
    r = session_start(p, sid=new, source="clear")
    assert "a reflection is pending for ticket bd-12" in r.context
    assert gate(p, new)["status"] in ("pending", "blocked")
    assert gate(p)["status"] == "idle" and gate(p)["moved_to"] == new  # the old one is free
    assert "CarriedOver" in events(p, new)
    msg = p.stop(session_id=new).denied
    assert "learn reflect %s" % new in msg
    assert reflect(p, cand(), sid=new)[1].returncode == 0
    assert p.stop(session_id=new).denied is None


def test_prompt_reminds_of_a_pending_reflection(p, tracker):
    closed_ticket(p, tracker)
    r = p.prompt("what next?")
    assert "a reflection is pending for ticket bd-12" in r.context


def test_trace_cli(p, tracker):
    closed_ticket(p, tracker)
    p.stop()
    r = p.cli("learn", "trace", p.sid)
    assert r.returncode == 0
    for e in ("TicketCloseDetected", "TicketClosed", "GateBlocked"):
        assert e in r.stdout
    j = json.loads(p.cli("learn", "trace", p.sid, "--json").stdout)
    assert j["status"] == "blocked"


# ------------------------------------------------------------------ transitions


def test_transition_table(p, tracker):
    """Every transition of the seed's table, read back from the trace."""
    os.makedirs(p.path(".beads"))
    tracker.set([{"id": "bd-1", "title": "one", "status": "in_progress"}])
    session_start(p)  # idle -> active
    bash(p, "bd close bd-1", ok=False)  # pending close dropped: stays active
    tracker.set([{"id": "bd-1", "title": "one", "status": "closed"}])
    bash(p, "bd close bd-1")  # active -> pending
    p.stop()  # pending -> blocked
    reflect(p, cand())  # blocked -> reflected
    tracker.set([{"id": "bd-2", "title": "two", "status": "closed"}])
    bash(p, "bd close bd-2")  # reflected -> pending
    agent_cli(p, "learn", "skip", p.sid, "nothing new")  # pending -> skipped
    tracker.set([{"id": "bd-3", "title": "three", "status": "closed"}])
    bash(p, "bd close bd-3")  # skipped -> pending
    p.stop()
    agent_cli(p, "learn", "skip", p.sid, "dup")  # blocked -> skipped
    bash(p, "bd close bd-4")  # -> pending
    for _ in range(4):
        p.stop(active=True)  # blocked -> idle (breaker)
    bash(p, "bd update bd-5 --status in_progress")  # idle -> active
    session_end(p)  # active -> idle
    changes = [
        e["details"].split(":")[0]
        for e in gate(p)["trace"]
        if e["event"] == "GateStatusChanged" and "->" in e["details"]
    ]
    assert changes == [
        "idle -> active",
        "active -> pending",
        "pending -> blocked",
        "blocked -> reflected",
        "reflected -> pending",
        "pending -> skipped",
        "skipped -> pending",
        "pending -> blocked",
        "blocked -> skipped",
        "skipped -> pending",
        "pending -> blocked",
        "blocked -> idle",
        "idle -> active",
        "active -> idle",
    ], changes
    assert "TicketCloseFailed" in events(p)


# ------------------------------------------------------------------ Stop order with review


def test_stop_order_review_first_never_two_blocks(p, tracker):
    from review.support import Flow

    p.research()
    f = Flow(p)
    assert "review is open" in f.prompt("#review fix the login bug").context
    closed_ticket(p, tracker)
    r = p.stop()
    assert r.denied.startswith("[review]") and "[learning]" not in r.denied
    g = gate(p)
    assert g["status"] == "pending" and g.get("block_count", 0) == 0  # not counted
    f.review_cycle("COMPLETE")
    r = p.stop(active=True)
    assert r.denied.startswith("[learning]") and "[review]" not in r.denied
    assert "block 1 of 3" in r.denied
    assert reflect(p, cand())[1].returncode == 0
    assert p.stop(active=True).denied is None


@pytest.mark.parametrize("feed", ["echo %s |", "printf '%%s' %s |", "cat <<'EOF' |\n%s\nEOF\n"])
def test_reflection_json_piped_in_is_data(p, tracker, feed):
    import shlex

    closed_ticket(p, tracker)
    p.prompt("s+")  # safemode: code would be blocked
    body = json.dumps([cand()])
    args = ["learn", "reflect", p.sid, "--project", p.dir]
    quoted = shlex.quote(body) if "EOF" not in feed else body
    command = (feed % quoted) + " " + CLI + " " + " ".join(shlex.quote(a) for a in args)
    pre = p.pre("Bash", {"command": command}, tool_use_id="toolu_pipe")
    assert pre.denied is None, pre.denied
    cli = p.cli(*args, input=body, env={"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": p.sid})
    assert cli.returncode == 0, cli.stderr
    assert gate(p)["status"] == "reflected"
