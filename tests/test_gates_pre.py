"""PreToolUse gates through sanetools.py: order, messages, and the villain cases."""

import json
import os

import pytest

from conftest import load_payload


def deny(r):
    return r.denied or ""


@pytest.fixture
def ready(proj):
    """A project whose session has done its research."""
    proj.research()
    return proj


# ------------------------------------------------------------------ blocked paths


@pytest.mark.parametrize(
    "path",
    [
        "~/.ssh/id_rsa",
        "~/.aws/credentials",
        "~/.gnupg/secring.gpg",
        "/etc/shadow",
        "/etc/sudoers",
        "{p}/.env",
        "{p}/config/.env.production",
        "{p}/certs/server.pem",
        "{p}/keys/id_ed25519",
        "{p}/src/../.env",
        "{p}/" + "%2e%2e/" * 12 + "etc/shadow",
        "{p}/.e%6ev",
        "{p}/.env\x00.txt",
        "{p}/secrets.yaml",
        "{p}/config/credentials.json",
        "{h}/.config/sane-hooks/secret",
    ],
)
def test_blocked_paths_for_reads_and_writes(ready, path):
    p = path.format(p=ready.dir, h=ready.home)
    r = ready.pre("Read", {"file_path": p})
    assert deny(r).startswith(("[blocked-path]", "[self-protection]")), (p, r.stdout)
    r = ready.pre("Write", {"file_path": p, "content": "x"})
    assert deny(r).startswith(("[blocked-path]", "[self-protection]"))


@pytest.mark.parametrize(
    "name", [".env.example", ".env.sample", ".env.template", "env.py", "environment.md"]
)
def test_templates_are_not_secrets(ready, name):
    assert ready.pre("Read", {"file_path": ready.path(name)}).denied is None


def test_symlink_to_a_secret_is_blocked(ready):
    os.makedirs(os.path.join(ready.home, ".ssh"), exist_ok=True)
    os.symlink(os.path.join(ready.home, ".ssh"), ready.path("k"))
    r = ready.pre("Read", {"file_path": ready.path("k", "id_rsa")})
    assert deny(r).startswith("[blocked-path]")


def test_grep_and_glob_paths_are_checked(ready):
    assert deny(
        ready.pre("Grep", {"pattern": "x", "path": os.path.join(ready.home, ".aws")})
    ).startswith("[blocked-path]")
    # Glob lists names only, as `ls ~/.ssh` does: a look, not a read
    assert ready.pre("Glob", {"pattern": "~/.ssh/*"}).denied is None


def test_blocked_paths_configurable(ready):
    ready.config("paths: {blocked: ['*.sqlite']}\n")
    assert deny(ready.pre("Read", {"file_path": ready.path("db.sqlite")})).startswith(
        "[blocked-path]"
    )
    assert ready.pre("Read", {"file_path": ready.path(".env")}).denied is None


# ------------------------------------------------------------------ self-protection

PROTECTED = [
    ".claude/state.json",
    ".claude/state.json.lock",
    ".claude/audit.jsonl",
    ".claude/sanetools.log",
    ".claude/sane.yaml",
    ".claude/active_intents.yaml",
    ".claude/.intentignore",
    ".claude/agents/reviewer.md",
    ".claude/sane-templates/block-v1.md",
    ".claude/learnings.md",
    ".claude/learning-stats.jsonl",
    ".claude/agent_trace.jsonl",
    ".claude/intent_map.md",
    "scripts/hooks/sanetools.py",
    "scripts/hooks/core/state.py",
    ".claude/settings.json",
    ".claude/settings.local.json",
]


@pytest.mark.parametrize("rel", PROTECTED)
def test_no_tool_writes_a_protected_file(ready, rel):
    for tool, ti in (("Write", {"content": "x"}), ("Edit", {"old_string": "a", "new_string": "b"})):
        ti = dict(ti, file_path=ready.path(rel))
        assert deny(ready.pre(tool, ti)).startswith("[self-protection]"), (tool, rel)


@pytest.mark.parametrize("name", ["secret", "counters.json", "counters.json.lock"])
def test_secret_and_counters_cannot_be_read(ready, name):
    p = os.path.join(ready.home, ".config", "sane-hooks", name)
    assert deny(ready.pre("Read", {"file_path": p})).startswith(
        ("[self-protection]", "[blocked-path]")
    )


def test_reading_our_state_is_fine(ready):
    assert ready.pre("Read", {"file_path": ready.path(".claude", "state.json")}).denied is None


def test_other_claude_files_are_writable(ready):
    assert (
        ready.pre(
            "Write", {"file_path": ready.path(".claude", "rules", "x.md"), "content": "x"}
        ).denied
        is None
    )


# ------------------------------------------------------------------ safemode


def test_safemode_blocks_file_edits_after_research(ready):
    ready.prompt("s+")
    r = ready.pre("Write", {"file_path": ready.path("a.py"), "content": "x"})
    assert deny(r).startswith("[safemode]") and "`s-`" in deny(r)
    assert ready.pre("Read", {"file_path": ready.path("a.py")}).denied is None
    ready.prompt("s-")
    assert ready.pre("Write", {"file_path": ready.path("a.py"), "content": "x"}).denied is None


def test_safemode_blocks_mcp_mutations_but_not_mcp_reads(ready):
    ready.prompt("s+")
    assert deny(ready.pre("mcp__github__create_issue", {"title": "x"})).startswith("[safemode]")
    assert ready.pre("mcp__github__search_code", {"q": "x"}).denied is None


# ------------------------------------------------------------------ research gate


def test_research_credit_only_on_success_with_content(proj):
    f = proj.path("a.py")
    proj.pre("Read", {"file_path": f})  # PreToolUse never credits
    proj.post(
        "Read", {"file_path": f}, {"type": "text", "file": {"filePath": f, "content": ""}}
    )  # empty
    proj.fail("WebFetch", {"url": "https://x"}, error="network down")  # failure
    proj.post(
        "Grep", {"pattern": "zz"}, {"mode": "files_with_matches", "numFiles": 0, "filenames": []}
    )
    r = proj.pre("Write", {"file_path": f, "content": "x"})
    assert deny(r).startswith("[research-gate]") and "local" in deny(r) and "web" in deny(r)
    assert "research waive" in deny(r)
    proj.post(
        "Grep",
        {"pattern": "x"},
        {"mode": "files_with_matches", "numFiles": 2, "filenames": ["a", "b"]},
    )
    proj.post("WebFetch", {"url": "https://x"}, {"result": "page text", "code": 200})
    assert proj.pre("Write", {"file_path": f, "content": "x"}).denied is None


def test_edits_are_gated_without_any_task_prompt(proj):
    assert deny(
        proj.pre("Edit", {"file_path": proj.path("a.py"), "old_string": "a", "new_string": "b"})
    ).startswith("[research-gate]")


def test_adaptive_mcp_makes_a_used_category_required(proj):
    proj.research()
    proj.fail("mcp__context7__get-library-docs", {"id": "x"}, error="server gone")
    r = proj.pre("Write", {"file_path": proj.path("a.py"), "content": "x"})
    assert deny(r).startswith("[research-gate]") and "docs" in deny(r)
    proj.post(
        "mcp__context7__get-library-docs",
        {"id": "x"},
        {"content": [{"type": "text", "text": "docs"}]},
    )
    assert proj.pre("Write", {"file_path": proj.path("a.py"), "content": "x"}).denied is None


def test_required_categories_configurable_by_environment(proj):
    proj.env["SANE_RESEARCH__REQUIRED"] = "local"
    proj.research(cats=("local",))
    assert proj.pre("Write", {"file_path": proj.path("a.py"), "content": "x"}).denied is None


# ------------------------------------------------------------------ file size


def test_file_size_warns_and_blocks(ready):
    r = ready.pre("Write", {"file_path": ready.path("big.py"), "content": "x\n" * 600})
    assert r.denied is None and "600 lines" in r.context
    r = ready.pre("Write", {"file_path": ready.path("big.py"), "content": "x\n" * 801})
    assert deny(r).startswith("[file-size]") and "801" in deny(r)


def test_edit_projects_the_resulting_size(ready):
    f = ready.write("e.py", "a\n" * 790 + "MARK\n")
    r = ready.pre("Edit", {"file_path": f, "old_string": "MARK\n", "new_string": "b\n" * 20})
    assert deny(r).startswith("[file-size]")
    r = ready.pre("Edit", {"file_path": f, "old_string": "MARK\n", "new_string": "b\n"})
    assert r.denied is None and "791 lines" in r.context


def test_file_size_config(ready):
    ready.config("file_size: {warn: 5, block: 10}\n")
    assert deny(
        ready.pre("Write", {"file_path": ready.path("s.py"), "content": "x\n" * 11})
    ).startswith("[file-size]")


# ------------------------------------------------------------------ breaker and enforcement


def trip(proj):
    for _ in range(3):
        proj.fail(
            "Bash", {"command": "make"}, error="Exit code 2\nmake: *** No rule to make target"
        )


def test_breaker_blocks_everything_but_read_only_tools(ready):
    trip(ready)
    st = ready.state()["circuit_breaker"]
    assert st["tripped"] and st["failures"] == 3
    assert deny(ready.pre("Write", {"file_path": ready.path("a.py"), "content": "x"})).startswith(
        "[breaker]"
    )
    assert deny(ready.pre("Agent", {"prompt": "x", "subagent_type": "general-purpose"})).startswith(
        "[breaker]"
    )
    for tool, ti in (
        ("Read", {"file_path": ready.path("a.py")}),
        ("Grep", {"pattern": "x"}),
        ("Glob", {"pattern": "*.py"}),
        ("WebSearch", {"query": "x"}),
        ("WebFetch", {"url": "https://x", "prompt": "y"}),
        ("mcp__memory__read_graph", {}),
    ):
        assert ready.pre(tool, ti).denied is None, tool
    r = ready.prompt("rb?")
    assert "breaker is TRIPPED" in r.denied
    ready.prompt("rb-")
    assert ready.pre("Write", {"file_path": ready.path("a.py"), "content": "x"}).denied is None


def test_breaker_same_signature_and_success_resets_consecutive(ready):
    ready.fail("Bash", {"command": "pytest"}, error="Exit code 1\nFAILED test_x - AssertionError")
    ready.post("Bash", {"command": "ls"}, {"stdout": "a", "stderr": ""})
    ready.fail("Bash", {"command": "pytest"}, error="Exit code 1\nFAILED test_x - AssertionError")
    ready.post("Bash", {"command": "ls"}, {"stdout": "a", "stderr": ""})
    assert not ready.state()["circuit_breaker"]["tripped"]
    r = ready.fail(
        "Bash", {"command": "pytest"}, error="Exit code 1\nFAILED test_x - AssertionError"
    )
    assert ready.state()["circuit_breaker"]["tripped"]
    assert "TRIPPED" in r.context


def test_breaker_warning_goes_to_the_model_as_context(ready):
    r = ready.fail("Bash", {"command": "make"}, error="Exit code 2\nmake: nope")
    assert "failure 1 of 3" in r.context and r.stderr == ""


def test_interrupts_do_not_count(ready):
    for _ in range(4):
        ready.hook(
            "sanetrack",
            ready.payload(
                "PostToolUseFailure",
                tool_name="Bash",
                tool_input={"command": "x"},
                error="Exit code 130\n",
                is_interrupt=True,
            ),
        )
    assert not ready.state()["circuit_breaker"]["tripped"]


def test_breaker_persists_across_sessions(ready):
    trip(ready)
    ready.sid = "next-session"
    assert deny(ready.pre("Write", {"file_path": ready.path("a.py"), "content": "x"})).startswith(
        "[breaker]"
    )


def test_enforcement_halts_after_five_identical_denials(ready):
    ready.prompt("s+")
    ti = {"file_path": ready.path("a.py"), "content": "x"}
    for i in range(4):
        assert deny(ready.pre("Write", ti)).startswith("[safemode]")
    r = ready.pre("Write", ti)
    assert deny(r).startswith("[enforcement]") and "ask" in deny(r)
    assert "enforcement" in r.user
    assert ready.state()["enforcement"]["halted"] is True
    ready.prompt("s-")
    assert deny(ready.pre("Write", ti)).startswith("[enforcement]")
    assert ready.pre("Read", {"file_path": ready.path("a.py")}).denied is None
    r = ready.prompt("rb-")
    assert ready.state()["enforcement"]["halted"] is False
    assert ready.pre("Write", ti).denied is None


def test_enforcement_counts_only_in_a_row(ready):
    ready.prompt("s+")
    ti = {"file_path": ready.path("a.py"), "content": "x"}
    for _ in range(4):
        ready.pre("Write", ti)
    ready.pre("Write", {"file_path": ready.path("b.py"), "content": "y"})
    for _ in range(3):
        ready.pre("Write", ti)
    assert ready.state()["enforcement"]["halted"] is False


# ------------------------------------------------------------------ answers


def test_allow_prints_nothing_and_never_a_blanket_allow(ready):
    for tool, ti in (
        ("Read", {"file_path": ready.path("a.py")}),
        ("Write", {"file_path": ready.path("a.py"), "content": "x"}),
    ):
        r = ready.pre(tool, ti)
        assert r.stdout == "" and r.stderr == "" and r.code == 0


def test_block_is_json_deny_with_event_name(ready):
    r = ready.pre("Read", {"file_path": "~/.ssh/id_rsa"})
    spec = r.json["hookSpecificOutput"]
    assert spec["hookEventName"] == "PreToolUse" and spec["permissionDecision"] == "deny"


def test_real_payloads(ready):
    p = load_payload("PreToolUse.Write", ready)
    assert ready.hook("sanetools", p).code == 0
    p = load_payload("PreToolUse.Edit", ready)
    assert ready.hook("sanetools", p).code == 0
    p = load_payload("PostToolUse.Edit", ready)
    assert ready.hook("sanetrack", p).code == 0
    assert ready.session_state(p["session_id"])["edits"]["count"] == 1


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"   ",
        b"{",
        b"[]",
        b"null",
        b'"x"',
        b"\xff\xfe\x00",
        b'{"hook_event_name": 5}',
        b'{"hook_event_name": "PreToolUse", "tool_name": 7}',
        b'{"hook_event_name": "PreToolUse", "tool_input": "str"}',
        b'{"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {"file_path": 3}}',
        b"[" * 100000 + b"]" * 100000,
    ],
    ids=lambda r: "raw%d" % len(r),
)
def test_malformed_stdin_fails_open_silently(proj, raw):
    for script in ("saneprompt", "sanetools", "sanetrack", "sanestop"):
        r = proj.hook(script, None, raw=raw)
        assert r.code == 0


def test_huge_payload_is_handled(ready):
    r = ready.pre("Write", {"file_path": ready.path("h.py"), "content": "x" * (8 * 1024 * 1024)})
    assert r.code == 0
    r = ready.pre("Bash", {"command": "echo " + "a" * (1024 * 1024)})
    assert r.code == 0


def test_audit_records_blocks(ready):
    ready.pre("Read", {"file_path": "~/.ssh/id_rsa"})
    with open(ready.path(".claude", "audit.jsonl")) as fh:
        events = [json.loads(x) for x in fh]
    assert any(e["event"] == "block" and e["code"] == "[blocked-path]" for e in events)
