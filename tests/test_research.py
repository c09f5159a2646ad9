"""core/research.py through the real scripts: local research from whatever read tools the
session has (Grep may be missing), and web research that fails for want of network: the
breaker is left alone, the model is told to ask, the person is told once how to waive."""

import pytest

FETCH = {"url": "https://docs.python.org/3/", "prompt": "summary"}
# what Claude Code 2.1.330 reported for WebFetch with no network (tests/e2e, recorded)
PREFLIGHT = (
    "Unable to verify if domain docs.python.org is safe to fetch. This may be due to network "
    "restrictions or enterprise security policies blocking claude.ai."
)


def write_denied(proj):
    r = proj.pre("Write", {"file_path": proj.path("a.py"), "content": "x = 1\n"})
    return r.denied or ""


@pytest.fixture
def local_only(proj):
    proj.config("research: {required: [local]}\n")
    proj.write("src/app.py", "x = 1\n")
    return proj


@pytest.mark.parametrize(
    "tool,tool_input,response",
    [
        ("Read", {"file_path": "src/app.py"}, {"type": "text", "file": {"content": "x = 1\n"}}),
        ("Glob", {"pattern": "src/*.py"}, {"filenames": ["src/app.py"], "numFiles": 1}),
        ("Bash", {"command": "rg -n x src"}, {"stdout": "src/app.py:1:x = 1", "stderr": ""}),
        ("Bash", {"command": "grep -rn x src"}, {"stdout": "src/app.py:1:x", "stderr": ""}),
        ("Bash", {"command": "cat src/app.py | head -5"}, {"stdout": "x = 1", "stderr": ""}),
        ("Bash", {"command": "ls -la src"}, {"stdout": "app.py", "stderr": ""}),
        ("Bash", {"command": "find src -name '*.py'"}, {"stdout": "src/app.py", "stderr": ""}),
        ("Bash", {"command": "git log --oneline -3"}, {"stdout": "abc init", "stderr": ""}),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_local_research_from_the_read_tools_the_session_has(local_only, tool, tool_input, response):
    proj = local_only
    assert write_denied(proj).startswith("[research-gate]")
    proj.post(tool, tool_input, response)
    assert write_denied(proj) == "", tool_input


@pytest.mark.parametrize(
    "command",
    [
        "find src -name '*.py' -delete",
        "find src -name x -exec rm {} +",
        "find src -fprint list.txt",
        "git fetch origin",
        "sed -i s/x/y/ src/app.py",
        "awk '{system(\"touch z\")}' src/app.py",
    ],
)
def test_shell_reads_with_actions_are_not_research(local_only, command):
    local_only.post("Bash", {"command": command}, {"stdout": "something", "stderr": ""})
    assert write_denied(local_only).startswith("[research-gate]")


def test_the_gate_names_the_read_tools_without_relying_on_grep(local_only):
    msg = write_denied(local_only)
    assert "local: use Read, Glob, Grep or a read-only shell command such as rg" in msg


def test_offline_web_research_does_not_trip_the_breaker(proj):
    proj.post("Read", {"file_path": "README.txt"}, {"type": "text", "file": {"content": "hi"}})
    answers = [proj.fail("WebFetch", FETCH, error=PREFLIGHT) for _ in range(3)]
    state = proj.state()
    assert state["circuit_breaker"]["tripped"] is False
    assert state["circuit_breaker"]["failures"] == 0
    for r in answers:
        assert "Do not retry it: ask the person" in r.context
        assert "research waive web" in r.context
        assert "circuit breaker" not in r.context
    told = [r.user for r in answers if r.user]
    assert len(told) == 1, told  # the person hears it once per session
    assert "web research looks unavailable" in told[0]
    assert "type `research waive web`" in told[0]
    # the gate says the same: ask, do not retry
    msg = write_denied(proj)
    assert msg.startswith("[research-gate]") and "failed for want of network" in msg
    assert "Do not retry it: ask the person" in msg and "`research waive web`" in msg
    # the person waives it; edits go on
    assert proj.hook("saneprompt", proj.payload("UserPromptSubmit", prompt="research waive web"))
    assert write_denied(proj) == ""


@pytest.mark.parametrize(
    "error",
    [
        "getaddrinfo ENOTFOUND docs.python.org",
        "connect ECONNREFUSED 127.0.0.1:443",
        "fetch failed",
        "Request timed out",
        "Could not resolve host: example.com",
        "EAI_AGAIN",
    ],
)
def test_network_words_of_the_client_and_node(proj, error):
    for _ in range(3):
        proj.fail("WebSearch", {"query": "x"}, error=error)
    assert proj.state()["circuit_breaker"]["tripped"] is False


def test_a_web_tool_failing_for_another_reason_still_counts(proj):
    for _ in range(3):
        proj.fail("WebFetch", FETCH, error="Request failed with status code 404")
    assert proj.state()["circuit_breaker"]["tripped"] is True


def test_a_bash_network_failure_is_still_the_agents_failure(proj):
    for _ in range(3):
        proj.fail(
            "Bash", {"command": "curl https://x"}, error="Exit code 6\nCould not resolve host"
        )
    assert proj.state()["circuit_breaker"]["tripped"] is True


def test_the_person_is_not_told_when_web_is_not_required(proj):
    proj.config("research: {required: [local]}\n")
    r = proj.fail("WebFetch", FETCH, error=PREFLIGHT)
    assert r.user == "" and "ask the person" in r.context
