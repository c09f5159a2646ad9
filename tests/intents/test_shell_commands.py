"""Intents through the Bash tool: the agent selects with sane.py, shell writes are scope-checked,
code we cannot see needs an intent, destructive commands ask the person."""

import pytest

from intents.test_hooks import write_intents

CLI = "python3 scripts/hooks/sane.py"


@pytest.fixture
def gov(proj):
    proj.install()
    write_intents(proj)
    proj.research()
    return proj


def agent_cli(proj, *args, **kw):
    """Run sane.py as the agent does: a Bash call the hooks see, then the CLI, then PostToolUse."""
    command = " ".join((CLI,) + args + ("--project", proj.dir))
    pre = proj.pre("Bash", {"command": command}, **kw)
    assert pre.denied is None, pre.denied
    r = proj.cli(
        *args, "--project", proj.dir, env={"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": proj.sid}
    )
    post = proj.post("Bash", {"command": command}, {"stdout": r.stdout, "stderr": r.stderr}, **kw)
    return pre, r, post


def bash(proj, command, **kw):
    return proj.pre("Bash", {"command": command}, **kw)


def test_agent_selects_through_bash(gov):
    assert bash(gov, "echo hi > src/auth/a.py").denied.startswith("[no-intent]")
    pre, r, post = agent_cli(gov, "intent", "select", "INT-001")
    assert r.returncode == 0, r.stderr
    assert "INT-001 selected" in r.stdout and "src/auth/**" in r.stdout
    # the intent's context reaches the model at the select call's PostToolUse
    assert "INT-001" in post.context and "Must not use external auth providers" in post.context
    assert "Unit tests in tests/auth/ pass" in post.context
    sess = gov.session_state()
    assert sess["intent"]["id"] == "INT-001" and sess["intent"]["by"] == "agent"
    assert bash(gov, "echo hi > src/auth/a.py").denied is None


def test_agent_select_passes_the_research_and_intent_gates(proj):
    proj.install()
    write_intents(proj)  # no research yet, no intent yet
    pre, r, post = agent_cli(proj, "intent", "select", "INT-001")
    assert r.returncode == 0, r.stderr
    pre, r, post = agent_cli(proj, "intent", "show")
    assert r.returncode == 0 and "INT-001" in r.stdout
    pre, r, post = agent_cli(proj, "intent", "list")
    assert r.returncode == 0 and "* INT-001" in r.stdout


def test_agent_select_from_a_subagent_holds_for_the_session(gov):
    pre, r, post = agent_cli(gov, "intent", "select", "INT-001", agent_id="a7", agent_type="Plan")
    assert r.returncode == 0, r.stderr
    assert gov.session_state()["intent"]["agent_id"] == "a7"
    assert bash(gov, "echo x > src/auth/b.py").denied is None


def test_agent_clear(gov):
    agent_cli(gov, "intent", "select", "INT-001")
    pre, r, post = agent_cli(gov, "intent", "clear")
    assert r.returncode == 0 and "cleared" in r.stdout
    assert bash(gov, "echo hi > src/auth/a.py").denied.startswith("[no-intent]")


@pytest.mark.parametrize(
    "command,allowed",
    [
        ("echo hi > src/auth/a.py", True),
        ("echo hi > other.py", False),
        ("echo hi | tee src/auth/a.py other.txt", False),
        ("sed -i s/a/b/ src/auth/a.py", True),
        ("sed -i s/a/b/ src/rate/a.py", False),
        ("cp src/auth/a.py src/auth/b.py", True),
        ("cp src/auth/a.py backup.py", False),
        ("mv src/auth/a.py tmp/src/auth/a.py", False),
        ("cd src && echo x > auth/c.py", True),
        ("cd src && echo x > c.py", False),
        ("touch src/middleware/jwt.ts", True),
        ("rm src/auth/a.py", True),
        ("cat src/other.py", True),  # reads are never blocked
        ("ls -la; grep -r token src", True),
        ("git status && git diff", True),
        ("git add -A && git commit -m 'auth: refresh'", True),  # git's own metadata
        ("echo x > /tmp/sane-scratch.txt", True),  # the temp dir is free
    ],
)
def test_shell_writes_scope(gov, command, allowed):
    gov.write("src/auth/a.py", "a\n")
    gov.prompt("intent INT-001")
    r = bash(gov, command)
    if allowed:
        assert r.denied is None, r.denied
    else:
        assert r.denied and r.denied.startswith("[scope]"), r.denied


def test_unknown_code_needs_an_intent(gov):
    r = bash(gov, "python3 -c 'print(1)'")
    assert r.denied.startswith("[no-intent]")
    gov.prompt("intent INT-001")
    assert bash(gov, "python3 -c 'print(1)'").denied is None
    gov.prompt("intent INT-003")  # an empty scope allows no writes, seen or unseen
    r = bash(gov, "python3 -c 'print(1)'")
    assert r.denied.startswith("[scope]") and "owns no paths" in r.denied


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf /opt/build-cache",
        "git push --force origin main",
        "git push -f",
        "git reset --hard HEAD~3",
        "cd /opt && rm -rf auth",
    ],
)
def test_destructive_commands_ask_the_person(gov, command):
    gov.prompt("intent INT-001")
    gov.write("build/x", "x")
    r = bash(gov, command)
    if r.denied:  # out of scope beats asking
        assert r.denied.startswith("[scope]")
        return
    spec = r.spec
    assert spec["permissionDecision"] == "ask", r.stdout
    assert spec["permissionDecisionReason"].startswith("[destructive]")
    assert spec["hookEventName"] == "PreToolUse"


def test_rm_rf_and_force_push_ask_without_intents(proj):
    proj.research()
    for command in ("rm -rf /opt/build-cache", "git push --force origin main"):
        r = bash(proj, command)
        assert r.spec.get("permissionDecision") == "ask", (command, r.stdout)
        assert "[destructive]" in r.spec["permissionDecisionReason"]


def test_rm_rf_of_named_project_dirs_is_ordinary_work(proj):
    """Deleting named paths inside the project that hold no protected file: no ask."""
    proj.research()
    proj.write("build/x", "x")
    r = bash(proj, "rm -rf build dist")
    assert r.denied is None and r.spec.get("permissionDecision") is None, r.stdout
    r = bash(proj, "rm -rf .claude/../build ..")
    assert r.denied or r.spec.get("permissionDecision") == "ask", r.stdout


def test_destructive_deny_mode(proj):
    proj.research()
    proj.config("intents: {destructive: deny}\n")
    r = bash(proj, "rm -rf /opt/build-cache")
    assert r.denied.startswith("[destructive]") and "intents.destructive is deny" in r.denied


def test_destructive_off(proj):
    proj.research()
    proj.config("intents: {destructive: 'off'}\n")
    assert bash(proj, "rm -rf build").stdout == ""


def test_a_later_deny_beats_the_ask(proj):
    """The research gate runs after the intent gates: its deny must not be hidden by the ask."""
    r = bash(proj, "rm -rf build")
    assert r.denied and r.denied.startswith("[research-gate]")


def test_destructive_in_temp_does_not_ask(proj):
    proj.research()
    assert bash(proj, "rm -rf /tmp/sane-intents-scratch-dir").stdout == ""


def test_ask_is_audited(proj):
    import json
    import os

    proj.research()
    bash(proj, "git push --force")
    with open(os.path.join(proj.dir, ".claude", "audit.jsonl")) as fh:
        events = [json.loads(x) for x in fh]
    assert any(e["event"] == "destructive" and e["mode"] == "ask" for e in events)


def test_non_destructive_never_gets_an_answer(gov):
    gov.prompt("intent INT-001")
    r = bash(gov, "ls src")
    assert r.code == 0 and r.stdout == ""


@pytest.mark.parametrize(
    "tool,tool_input",
    [
        ("Write", {"file_path": ".claude/active_intents.yaml", "content": "active_intents: []\n"}),
        (
            "Edit",
            {
                "file_path": ".claude/active_intents.yaml",
                "old_string": "DRAFT",
                "new_string": "IN_PROGRESS",
            },
        ),
        ("Write", {"file_path": ".claude/.intentignore", "content": "**\n"}),
        ("Bash", {"command": "echo '**' > .claude/.intentignore"}),
        ("Bash", {"command": "sed -i s/DRAFT/IN_PROGRESS/ .claude/active_intents.yaml"}),
        ("Bash", {"command": "python3 -c \"open('.claude/active_intents.yaml','w')\""}),
        ("Write", {"file_path": ".claude/agent_trace.jsonl", "content": "{}\n"}),
        ("Bash", {"command": "echo '{}' >> .claude/agent_trace.jsonl"}),
        ("Write", {"file_path": ".claude/intent_map.md", "content": "x"}),
    ],
)
def test_the_agent_cannot_write_the_persons_files(gov, tool, tool_input):
    gov.prompt("intent INT-001")
    ti = dict(tool_input)
    if "file_path" in ti:
        ti["file_path"] = gov.path(ti["file_path"])
    r = gov.pre(tool, ti)
    assert r.denied and r.denied.startswith("[self-protection]"), r.denied
