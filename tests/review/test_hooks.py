"""Review gates on chosen commands: the seed's diagrams 5.4 and 5.5, every approval scope,
the TTL, Bash matched on every segment, and the bypasses the issue names."""

import time

import pytest

from review.support import CLI, Flow, deny

CLOSE = "mcp__tissue__close_issue"


def gated(proj, gates, scope=None, ttl=None, extra=""):
    lines = ["review:", "  gates: [%s]" % ", ".join("'%s'" % g for g in gates)]
    if scope:
        lines.append("  scope: %s" % scope)
    if ttl is not None:
        lines.append("  approval_ttl_seconds: %s" % ttl)
    proj.config("\n".join(lines) + "\n" + extra)


@pytest.fixture
def flow(proj):
    proj.install()
    proj.research()
    return Flow(proj)


def close(flow, n=1):
    return flow.pre(CLOSE, {"issue_id": n})


def is_gate_deny(r):
    return deny(r).startswith("[review-gate]")


# ------------------------------------------------------------------ 5.4 / 5.5


def test_5_4_gate_blocks_then_allows_after_review(flow):
    gated(flow.p, [CLOSE], scope="session")
    r = close(flow)
    msg = deny(r)
    assert msg.startswith("[review-gate]") and CLOSE in msg
    assert "SESSION_ID=%s" % flow.sid in msg and 'subagent_type "reviewer"' in msg
    rv = flow.review()
    assert rv["status"] == "pending" and rv["opened_by"] == "gate"
    trig = rv["gate_trigger"]
    assert trig["tool_name"] == CLOSE and trig["pattern_matched"] == CLOSE
    assert trig["tool_input"] == {"value": {"issue_id": 1}, "truncated": False}
    flow.review_cycle("COMPLETE", agent="rev")
    r = close(flow)  # the retry
    assert r.denied is None and r.stdout.strip() == ""  # allowed: no blanket allow JSON
    types = flow.trace_types()
    assert "GateBlocked" in types and types[-1] == "GateAllowed"
    assert "approved by the reviewer, scope session" in flow.review()["trace"][-1]["data"]["reason"]
    flow.post(CLOSE, {"issue_id": 1}, {"ok": True}, tid=None)


def test_5_5_multiple_gated_calls_then_new_review(flow):
    gated(flow.p, [CLOSE], scope="session")
    close(flow)
    flow.review_cycle("COMPLETE", agent="rev")
    assert close(flow, 1).denied is None
    assert close(flow, 2).denied is None
    flow.prompt("carry on with the next issue")  # scope session: still approved
    assert close(flow, 3).denied is None
    flow.prompt("#review the next change")
    assert flow.review()["status"] == "pending"
    assert is_gate_deny(close(flow, 4))


def test_gate_call_while_review_pending_stays_denied(flow):
    gated(flow.p, [CLOSE])
    assert is_gate_deny(close(flow, 1))
    assert is_gate_deny(close(flow, 2))
    rv = flow.review()
    assert rv["gate_trigger"]["tool_input"]["value"] == {"issue_id": 2}  # newest trigger kept
    assert [e["type"] for e in rv["trace"]].count("GateBlocked") == 2


# ------------------------------------------------------------------ scopes and TTL


def test_scope_prompt_ends_at_the_next_prompt(flow):
    gated(flow.p, [CLOSE])  # scope prompt is the default
    close(flow)
    flow.prompt("hurry up please")  # sent while pending: not counted
    flow.review_cycle("COMPLETE", agent="rev")
    assert close(flow, 1).denied is None
    assert close(flow, 2).denied is None  # same prompt: still approved
    flow.prompt("now do the next one")
    r = close(flow, 3)
    assert is_gate_deny(r) and "no reviewer approval" in deny(r)
    assert flow.review()["status"] == "pending"


def test_scope_tool_one_approval_one_call(flow):
    gated(flow.p, [CLOSE], scope="tool")
    close(flow)
    flow.review_cycle("COMPLETE", agent="rev")
    r = close(flow, 1)
    assert r.denied is None
    assert "approval used" in flow.review()["trace"][-1]["data"]["reason"]
    assert flow.review()["status"] == "idle"  # the seed's Approved -> Idle
    assert is_gate_deny(close(flow, 2))
    assert flow.review()["status"] == "pending"
    flow.review_cycle("COMPLETE", agent="rev2")  # and it can be approved again
    assert close(flow, 2).denied is None


def test_scope_tool_does_not_deny_forever(flow):
    """The original's scope tool denied forever; here each fresh approval opens one call."""
    gated(flow.p, [CLOSE], scope="tool")
    for n in range(3):
        assert is_gate_deny(close(flow, n))
        flow.review_cycle("COMPLETE", agent="rev-%d" % n)
        assert close(flow, n).denied is None


def test_scope_prompt_keeps_resetting(flow):
    """The original's scope prompt stopped resetting after the first prompt."""
    gated(flow.p, [CLOSE], scope="prompt")
    for n in range(3):
        assert is_gate_deny(close(flow, n))
        flow.review_cycle("COMPLETE", agent="rev-%d" % n)
        assert close(flow, n).denied is None
        flow.prompt("next task %d" % n)
    assert is_gate_deny(close(flow, 9))


def test_approval_ttl_expires_any_approval(flow):
    gated(flow.p, [CLOSE], scope="session", ttl=1)
    close(flow)
    flow.review_cycle("COMPLETE", agent="rev")
    r = close(flow, 1)
    assert r.denied is None and "expires in" in flow.review()["trace"][-1]["data"]["reason"]
    time.sleep(1.3)
    r = close(flow, 2)
    assert is_gate_deny(r) and "approval has expired" in deny(r)
    assert flow.review()["status"] == "pending"


def test_force_approve_does_not_open_the_gates(flow):
    gated(flow.p, [CLOSE], extra="  max_blocks: 1\n")
    close(flow)
    assert flow.stop().denied
    assert flow.stop(active=True).denied is None  # breaker: this Stop released
    assert flow.audit("force_approve")
    assert is_gate_deny(close(flow))  # gated tools stay gated


# ------------------------------------------------------------------ matching

GH = "Bash:gh issue close*"


@pytest.mark.parametrize(
    "command",
    [
        "gh issue close 1",
        "gh issue close 1 | cat",  # the original checked only the last segment
        "true || gh issue close 1",
        "echo y | gh issue close 123",
        "GH_TOKEN=x gh issue close 123",
        "env VAR=x gh issue close 7",
        'bash -c "gh issue close 123"',
        "sh -c 'cd /tmp && gh issue close 2'",
        "ls; gh  issue   close 3",
        "(gh issue close 4)",
        "echo $(gh issue close 5)",
    ],
)
def test_bash_gates_match_every_segment(flow, command):
    gated(flow.p, [GH])
    assert is_gate_deny(flow.bash(command)), command


@pytest.mark.parametrize(
    "command",
    [
        "gh issue list",
        "gh issue view 1",
        "grep 'gh issue close' notes.md",
        "echo gh issue closed",
        "git log",
    ],
)
def test_bash_gates_do_not_match_other_commands(flow, command):
    gated(flow.p, [GH])
    assert not is_gate_deny(flow.bash(command)), command


def test_unparsable_code_naming_a_gated_command_is_gated(flow):
    gated(flow.p, [GH])
    assert is_gate_deny(flow.bash("python3 -c 'import os; os.system(\"gh issue close 1\")'"))


@pytest.mark.parametrize(
    "pattern,tool,ti,hit",
    [
        ("mcp__github__merge_*", "mcp__github__merge_pull_request", {"pullNumber": 1}, True),
        ("mcp__github__merge_*", "mcp__github__get_pull_request", {"pullNumber": 1}, False),
        ("Bash:git push*", "Bash", {"command": "git push origin main"}, True),
        ("Bash:git push*", "Bash", {"command": "git commit -m 'git push later'"}, False),
        ("Write:*/release/*", "Write", {"file_path": "{p}/release/notes.md", "content": "x"}, True),
        ("Write:*/release/*", "Write", {"file_path": "{p}/src/notes.md", "content": "x"}, False),
    ],
)
def test_gate_patterns(flow, pattern, tool, ti, hit):
    gated(flow.p, [pattern])
    ti = {k: v.format(p=flow.p.dir) if isinstance(v, str) else v for k, v in ti.items()}
    r = flow.pre(tool, ti)
    assert is_gate_deny(r) is hit, (r.stdout, r.stderr)


def test_a_gate_never_holds_the_reviewer_spawn(flow):
    gated(flow.p, ["Agent", "Task"])
    assert flow.pre("Agent", flow.agent_input()).denied is None
    assert is_gate_deny(flow.pre("Agent", flow.agent_input(subagent_type="general-purpose")))


def test_gated_input_truncated_at_10kb_with_hash(flow):
    import hashlib
    import json

    gated(flow.p, [GH])
    cmd = "gh issue close 1 --comment '%s'" % ("x" * 12000)
    assert is_gate_deny(flow.bash(cmd))
    ti = flow.review()["gate_trigger"]["tool_input"]
    original = json.dumps({"command": cmd}, sort_keys=True, ensure_ascii=False).encode()
    assert ti["truncated"] is True and len(ti["value"].encode()) <= 10240
    assert ti["size"] == len(original) and ti["sha256"] == hashlib.sha256(original).hexdigest()


def test_no_gates_no_cost(flow):
    """Without review.gates a gated-looking command is just a command, and no review opens."""
    assert flow.bash("gh issue close 1").denied is None
    assert flow.review().get("status") in (None, "idle")


# ------------------------------------------------------------------ the decide bypasses

DECIDE = "%s review decide {sid} COMPLETE ok" % CLI


@pytest.mark.parametrize(
    "template",
    [
        DECIDE,
        'bash -c "%s"' % DECIDE,
        "echo y | %s" % DECIDE,
        "%s | cat" % DECIDE,
        "true || %s" % DECIDE,
        "false && true; %s" % DECIDE,
        "CLAUDECODE= %s" % DECIDE,
        "env -u CLAUDECODE %s" % DECIDE,
        'python3 "$CLAUDE_PROJECT_DIR/scripts/hooks/sane.py" review decide {sid} COMPLETE ok',
        "./scripts/hooks/sane.py review decide {sid} COMPLETE ok",
        "%s review --project . decide {sid} complete ok" % CLI,
        "sh -c 'cd . && %s'" % DECIDE,
    ],
)
def test_main_agent_cannot_decide_in_any_spelling(flow, template):
    flow.prompt("#review fix it")
    r = flow.bash(template.format(sid=flow.sid))
    msg = deny(r)
    assert msg.startswith("[review] Only the reviewer subagent may record a review decision"), (
        template,
        r.stdout,
    )
    assert not flow.p.state()["auth"]  # nothing was authorised
    assert flow.review()["status"] == "pending"


def test_decide_around_the_hooks_is_refused(flow):
    flow.prompt("#review fix it")
    c = flow.cli(flow.decide_args("COMPLETE"))  # CLAUDECODE=1, no authorisation
    assert c.returncode == 2 and "did not authorise" in c.stderr
    c = flow.cli(
        flow.decide_args("COMPLETE"),
        claude=False,  # CLAUDECODE stripped, rest kept
        extra_env={"CLAUDE_CODE_SESSION_ID": flow.sid},
    )
    assert c.returncode == 2 and "CLAUDECODE removed" in c.stderr
    assert flow.review()["status"] == "pending"


def test_non_reviewer_subagent_cannot_decide(flow):
    flow.prompt("#review fix it")
    flow.p.hook(
        "saneprompt",
        flow.p.payload(
            "SubagentStart", session_id=flow.sid, agent_id="gp-1", agent_type="general-purpose"
        ),
    )
    r, _ = flow.decide("gp-1", "COMPLETE", agent_type="general-purpose")
    assert deny(r).startswith("[review] Only the reviewer subagent")


def test_unannounced_reviewer_type_cannot_decide(flow):
    """agent_type says reviewer but no SubagentStart announced that agent_id."""
    flow.prompt("#review fix it")
    r, _ = flow.decide("forged-id", "COMPLETE")
    assert deny(r).startswith("[review] Only the reviewer subagent")


def test_main_thread_started_as_the_reviewer_cannot_decide(flow):
    """`claude --agent reviewer`: the main thread has the reviewer's type but no agent_id."""
    flow.prompt("#review fix it")
    args = flow.decide_args("COMPLETE")
    import shlex

    r = flow.p.pre(
        "Bash",
        {"command": "%s %s" % (CLI, shlex.join(args))},
        session_id=flow.sid,
        agent_type="reviewer",
    )
    assert deny(r).startswith("[review] Only the reviewer subagent")


def _forge_auth(proj, monkeypatch, args, agent_id=None, agent_type=None, session=None):
    """Record an authorisation as if the hooks had allowed this call (signed with the test key)."""
    import os
    import time

    from core.state import Store

    monkeypatch.setenv("SANE_HOOK_SECRET", "test-secret")
    monkeypatch.setenv("HOME", proj.home)
    monkeypatch.setenv("XDG_CONFIG_HOME", os.path.join(proj.home, ".config"))
    st = Store(proj.dir)
    st.open()
    try:
        st.state["auth"].append(
            {
                "id": "forged",
                "session": session or proj.sid,
                "agent_id": agent_id,
                "agent_type": agent_type,
                "args": list(args),
                "tool_use_id": "toolu_forged",
                "expires": time.time() + 600,
            }
        )
        st.commit()
    finally:
        st.close()


@pytest.mark.parametrize(
    "agent_id,agent_type",
    [(None, None), ("gp-1", "general-purpose"), ("never-announced", "reviewer")],
)
def test_cli_refuses_an_authorisation_of_a_non_reviewer(flow, monkeypatch, agent_id, agent_type):
    """Defence in depth: an authorisation for anyone but an announced reviewer is refused."""
    flow.prompt("#review fix it")
    args = flow.decide_args("COMPLETE")
    _forge_auth(flow.p, monkeypatch, args, agent_id, agent_type)
    c = flow.cli(args)
    assert c.returncode == 2 and "only the reviewer subagent" in c.stderr
    assert flow.review()["status"] == "pending"


def test_agent_may_read_the_review_context(flow):
    flow.prompt("#review fix it")
    args = ["review", "context", flow.sid]
    assert flow.bash("%s %s" % (CLI, " ".join(args))).denied is None
    c = flow.cli(args)
    assert c.returncode == 0 and "Session: %s" % flow.sid in c.stdout
