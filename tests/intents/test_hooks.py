"""Intent governance through the real hooks and sane.py: selection, [no-intent], [scope] with
every glob edge case, the prompt command, reminders, malformed files, the YAML cache."""

import json
import os
import sys

import pytest

INTENTS = """\
active_intents:
  - id: INT-001
    name: JWT Authentication Migration
    status: IN_PROGRESS
    owned_scope:
      - "src/auth/**"
      - "src/middleware/jwt.ts"
      - "lib/"
      - "conf/*.toml"
    constraints:
      - "Must not use external auth providers"
    acceptance_criteria:
      - "Unit tests in tests/auth/ pass"
    created_at: "2026-02-18T12:00:00Z"
    updated_at: "2026-02-18T14:30:00Z"
  - id: INT-002
    name: Rate limiting
    status: DRAFT
    owned_scope: ["src/rate/**"]
  - id: INT-003
    name: Docs freeze
    status: IN_PROGRESS
    owned_scope: []
"""


def write_intents(proj, text=INTENTS):
    return proj.write(".claude/active_intents.yaml", text)


@pytest.fixture
def gov(proj):
    """A project with the intents file and this session's research done."""
    write_intents(proj)
    proj.research()
    return proj


def select(proj, iid="INT-001"):
    r = proj.cli("intent", "select", iid, "--session", proj.sid)
    assert r.returncode == 0, r.stderr
    return r


def write(proj, path, **kw):
    return proj.pre("Write", {"file_path": path, "content": "x = 1\n"}, **kw)


# ---------------------------------------------------------------- selection


def test_no_intents_file_no_gate(proj):
    proj.research()
    r = write(proj, proj.path("anywhere.py"))
    assert r.denied is None and r.stdout == ""


def test_no_intent_selected_denies_mutation_lists_active_and_command(gov):
    r = write(gov, gov.path("src/auth/a.py"))
    assert r.denied.startswith("[no-intent]")
    assert "INT-001" in r.denied and "INT-003" in r.denied and "INT-002" not in r.denied
    assert "sane.py intent select" in r.denied and "intent <ID>" in r.denied


def test_reads_never_blocked_by_intents(gov):
    for tool, ti in (
        ("Read", {"file_path": gov.path("src/auth/a.py")}),
        ("Grep", {"pattern": "x", "path": gov.path("src")}),
        ("Glob", {"pattern": "**/*.py"}),
    ):
        r = gov.pre(tool, ti)
        assert r.denied is None and r.stdout == "", (tool, r.stdout)


def test_select_then_allowed(gov):
    assert write(gov, gov.path("src/auth/a.py")).denied.startswith("[no-intent]")
    r = select(gov)
    assert "INT-001 selected" in r.stdout and "src/auth/**" in r.stdout
    assert "Must not use external auth providers" in r.stdout
    assert "Unit tests in tests/auth/ pass" in r.stdout
    r = write(gov, gov.path("src/auth/a.py"))
    assert r.denied is None and r.stdout == ""  # never a blanket allow
    sess = gov.session_state()
    assert sess["intent"]["id"] == "INT-001" and sess["intent"]["by"] == "person"


def test_only_in_progress_can_be_selected(gov):
    r = gov.cli("intent", "select", "INT-002", "--session", gov.sid)
    assert r.returncode == 1 and "DRAFT" in r.stderr and "IN_PROGRESS" in r.stderr
    r = gov.cli("intent", "select", "NOPE", "--session", gov.sid)
    assert r.returncode == 1 and "no intent 'NOPE'" in r.stderr


def test_clear_drops_the_selection(gov):
    select(gov)
    r = gov.cli("intent", "clear", "--session", gov.sid)
    assert r.returncode == 0 and "INT-001 cleared" in r.stdout
    assert write(gov, gov.path("src/auth/a.py")).denied.startswith("[no-intent]")


def test_selection_holds_for_the_session_only(gov):
    select(gov)
    other = gov.pre(
        "Write",
        {"file_path": gov.path("src/auth/a.py"), "content": "x"},
        session_id="another-session",
    )
    assert other.denied.startswith(("[no-intent]", "[research-gate]"))


def test_subagents_share_the_sessions_selection(gov):
    select(gov)
    r = write(gov, gov.path("src/auth/a.py"), agent_id="a1", agent_type="general-purpose")
    assert r.denied is None
    r = write(gov, gov.path("elsewhere.py"), agent_id="a1", agent_type="general-purpose")
    assert r.denied.startswith("[scope]")


def test_intent_no_longer_in_progress(gov):
    select(gov)
    write_intents(
        gov,
        INTENTS.replace(
            'status: IN_PROGRESS\n    owned_scope:\n      - "src/auth',
            'status: COMPLETED\n    owned_scope:\n      - "src/auth',
        ),
    )
    r = write(gov, gov.path("src/auth/a.py"))
    assert r.denied.startswith("[no-intent]") and "INT-001 is no longer IN_PROGRESS" in r.denied


def test_no_in_progress_intent_means_no_gate(gov):
    write_intents(
        gov, "active_intents:\n  - {id: A, name: a, status: DRAFT, owned_scope: [x/**]}\n"
    )
    assert write(gov, gov.path("anything.py")).denied is None


def test_require_selection_off(gov):
    gov.config("intents: {require_selection: false}\n")
    assert write(gov, gov.path("anything.py")).denied is None
    select(gov)  # a selected intent's scope still holds
    assert write(gov, gov.path("anything.py")).denied.startswith("[scope]")


def test_list_and_show(gov):
    r = gov.cli("intent", "list", "--session", gov.sid)
    assert r.returncode == 0
    assert "INT-001" in r.stdout and "DRAFT" in r.stdout and "no intent selected" in r.stdout
    select(gov)
    r = gov.cli("intent", "list", "--session", gov.sid)
    assert "* INT-001" in r.stdout
    r = gov.cli("intent", "show", "--session", gov.sid)
    assert r.returncode == 0 and "selected for session" in r.stdout and "src/auth/**" in r.stdout
    r = gov.cli("intent", "show", "INT-002", "--json", "--session", gov.sid)
    doc = json.loads(r.stdout)
    assert doc["id"] == "INT-002" and doc["selected"] is False and doc["status"] == "DRAFT"
    r = gov.cli("intent", "list", "--json", "--session", gov.sid)
    assert json.loads(r.stdout)["selected"] == "INT-001"


def test_cli_without_intents_file(proj):
    r = proj.cli("intent", "list")
    assert r.returncode == 0 and "no intents file" in r.stdout
    r = proj.cli("intent", "select", "X", "--session", proj.sid)
    assert r.returncode == 1 and "no intents file" in r.stderr


def test_cli_inside_claude_code_without_authorisation_is_refused(gov):
    r = gov.cli(
        "intent", "select", "INT-001", env={"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": gov.sid}
    )
    assert r.returncode == 2 and "did not authorise" in r.stderr


# ---------------------------------------------------------------- the prompt command


def test_prompt_intent_selects_and_goes_on_to_the_model(gov):
    r = gov.prompt("intent INT-001")
    assert r.denied is None  # not consumed
    assert "INT-001" in r.context and "src/auth/**" in r.context
    assert "Must not use external auth providers" in r.context
    assert gov.session_state()["intent"]["id"] == "INT-001"
    assert write(gov, gov.path("src/auth/a.py")).denied is None


@pytest.mark.parametrize(
    "text",
    [
        "intent is unclear",
        "intent",
        "intents INT-001",
        "intent INT-001 please",
        "intent NOPE",
        "the intent INT-001",
    ],
)
def test_prompt_not_an_intent_command(gov, text):
    r = gov.prompt(text)
    assert r.denied is None
    assert (gov.session_state().get("intent") or {}).get("id") is None


def test_prompt_intent_draft_not_selected(gov):
    r = gov.prompt("intent INT-002")
    assert r.denied is None and "only an IN_PROGRESS intent" in r.context
    assert (gov.session_state().get("intent") or {}).get("id") is None


def test_reminders_at_session_start_and_task_prompts(gov):
    r = gov.hook("saneprompt", gov.payload("SessionStart", source="startup"))
    assert "select the one" in r.context and "INT-001" in r.context
    r = gov.prompt("add token refresh to the auth middleware")
    assert "select the one" in r.context
    r = gov.prompt("what does the auth middleware do?")
    assert "select the one" not in r.context
    select(gov)
    r = gov.prompt("add token refresh to the auth middleware")
    assert "select the one" not in r.context
    r = gov.hook("saneprompt", gov.payload("SessionStart", source="resume"))
    assert "INT-001" in r.context and "is selected" in r.context
    r = gov.hook("saneprompt", gov.payload("SubagentStart", agent_id="a9", agent_type="Explore"))
    assert "src/auth/**" in r.context


# ---------------------------------------------------------------- scope

SCOPE_CASES = [
    # (path as the agent writes it, relative to the project unless absolute, allowed)
    ("src/auth/a.py", True),
    ("src/auth/deep/er/a.py", True),
    ("./src/auth/a.py", True),
    ("src/x/../auth/a.py", True),
    ("src/auth/../other.py", False),
    ("tmp/src/auth/a.py", False),  # anchored: no match below another directory
    ("src/authx/a.py", False),
    ("src/middleware/jwt.ts", True),
    ("src/middleware/jwt.ts.bak", False),
    ("src/middleware/other.ts", False),
    ("lib/a/b/c.py", True),  # `lib/`: everything below
    ("conf/app.toml", True),
    ("conf/sub/app.toml", False),  # `*` stays inside one segment
    ("conf/app.yaml", False),
    ("src\\auth\\a.py", sys.platform == "win32"),  # on POSIX a backslash is part of a name
    ("README.md", False),
]


@pytest.mark.parametrize("rel,allowed", SCOPE_CASES)
def test_scope_edge_cases(gov, rel, allowed):
    select(gov)
    path = rel if os.path.isabs(rel) else gov.path(rel)
    r = write(gov, path)
    if allowed:
        assert r.denied is None, r.denied
    else:
        assert r.denied.startswith("[scope]"), r.denied
        assert "INT-001" in r.denied and "active_intents.yaml" in r.denied
        assert "JWT Authentication Migration" in r.denied


def test_scope_relative_path_against_cwd(gov):
    select(gov)
    os.makedirs(gov.path("src/auth"), exist_ok=True)
    r = gov.pre("Write", {"file_path": "a.py", "content": "x"}, cwd=gov.path("src/auth"))
    assert r.denied is None
    r = gov.pre("Write", {"file_path": "../b.py", "content": "x"}, cwd=gov.path("src/auth"))
    assert r.denied.startswith("[scope]") and "src/b.py" in r.denied


def test_scope_absolute_path_and_outside_project(gov):
    select(gov)
    assert write(gov, gov.path("src", "auth", "abs.py")).denied is None
    outside = (
        "/srv/sane-intents-test/x.py"  # the scratch dirs are under the temp dir, which is free
    )
    r = write(gov, outside)
    assert r.denied.startswith("[scope]") and "outside the project" in r.denied


def test_scope_symlinks_resolved(gov):
    select(gov)
    os.makedirs(gov.path("src/auth"))
    os.symlink(gov.path("src/auth"), gov.path("alias"))  # out-of-scope name, in-scope file
    os.symlink("/srv/sane-intents-test", gov.path("src/auth/escape"))  # in-scope name, file outside
    os.symlink(gov.path("README.md"), gov.path("src/auth/readme-link.md"))
    assert write(gov, gov.path("alias/a.py")).denied is None
    r = write(gov, gov.path("src/auth/escape/x.py"))
    assert r.denied.startswith("[scope]") and "outside the project" in r.denied
    r = write(gov, gov.path("src/auth/readme-link.md"))
    assert r.denied.startswith("[scope]") and "README.md" in r.denied


@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="case-insensitive file system")
def test_scope_case_sensitive_here(gov):
    select(gov)
    assert write(gov, gov.path("SRC/Auth/a.py")).denied.startswith("[scope]")


def test_empty_scope_allows_no_writes(gov):
    select(gov, "INT-003")
    r = write(gov, gov.path("docs/a.md"))
    assert r.denied.startswith("[scope]") and "allows no writes" in r.denied


def test_intentignore_exempts(gov):
    select(gov)
    gov.write(".claude/.intentignore", "# generated and docs\n*.md\ndocs/\n/build/**\n!KEEP.md\n")
    for rel in ("README.md", "x/y/notes.md", "docs/a.txt", "build/out.js"):
        assert write(gov, gov.path(rel)).denied is None, rel
    for rel in ("KEEP.md", "src/build/x.js", "docsx/a.txt", "x/build/out.js"):
        assert write(gov, gov.path(rel)).denied.startswith("[scope]"), rel


def test_temp_writes_need_no_intent(gov):
    import tempfile

    tmp = os.path.realpath(tempfile.gettempdir())
    r = write(gov, os.path.join(tmp, "sane-intents-scratch.txt"))
    assert r.denied is None


def test_edit_and_multiedit_are_gated(gov):
    select(gov)
    f = gov.write("other.py", "a = 1\n")
    r = gov.pre("Edit", {"file_path": f, "old_string": "a", "new_string": "b"})
    assert r.denied.startswith("[scope]")
    r = gov.pre("MultiEdit", {"file_path": f, "edits": [{"old_string": "a", "new_string": "b"}]})
    assert r.denied.startswith("[scope]")
    r = gov.pre("NotebookEdit", {"notebook_path": gov.path("nb.ipynb"), "new_source": "x"})
    assert r.denied.startswith("[scope]")


# ---------------------------------------------------------------- malformed files

MALFORMED = [
    ("active_intents:\n  - id: A\n    status: [IN_PROGRESS\n", "line 3", "not valid YAML"),
    (
        "active_intents:\n  - id: A\n    name: a\n    status: DONE\n",
        "line 4",
        "unknown status 'DONE'",
    ),
    (
        "active_intents:\n  - {id: A, status: DRAFT}\n  - {id: B, status: DRAFT}\n"
        "  - {id: A, status: IN_PROGRESS}\n",
        "line 4",
        "duplicate id (first defined on line 2)",
    ),
    (
        "active_intents:\n  - id: A\n    status: IN_PROGRESS\n    owned_scope:\n      - ../outside/**\n",
        "line 5",
        "escapes the project",
    ),
    (
        "active_intents:\n  - id: A\n    status: IN_PROGRESS\n    owned_scope:\n      - /etc/**\n",
        "line 5",
        "escapes the project",
    ),
    (
        "active_intents:\n  - id: A\n    status: IN_PROGRESS\n    owned_scope: src/**\n",
        "line 4",
        "`owned_scope` must be a list",
    ),
    ("- id: A\n  status: IN_PROGRESS\n", "line 1", "top level must be a mapping"),
    ("active_intents:\n  - name: no id\n    status: IN_PROGRESS\n", "line 2", "needs an `id`"),
    ("active_intents:\n  - id: 7\n    status: IN_PROGRESS\n", "line 2", "needs an `id`"),
    ("active_intents: {id: A}\n", "line 1", "must be a list"),
    ("intents:\n  - id: A\n", "line 1", "no `active_intents:`"),
    ("active_intents:\n  - id: two words\n    status: IN_PROGRESS\n", "line 2", "one word"),
    ("\x00\x01 binary", "", "YAML"),
]


@pytest.mark.parametrize("text,line,problem", MALFORMED)
def test_malformed_intents_file(gov, text, line, problem):
    write_intents(gov, text)
    r = gov.pre("Read", {"file_path": gov.path("src/a.py")})
    assert r.denied is None  # reads allowed
    r = write(gov, gov.path("src/a.py"))
    assert r.denied.startswith("[no-intent]") and "cannot be used" in r.denied
    assert problem in r.denied
    assert "active_intents.yaml" in r.user  # the person is told
    r = gov.cli("intent", "list")
    assert r.returncode == 1 and problem in r.stderr and line in r.stderr
    assert "Traceback" not in r.stderr
    r = gov.prompt("add a feature to the auth module")
    assert r.denied is None and problem in r.context


def test_fixing_the_file_recovers(gov):
    write_intents(gov, "active_intents:\n  - id: A\n    status: WHAT\n")
    assert "unknown status" in write(gov, gov.path("src/a.py")).denied
    write_intents(gov)
    select(gov)
    assert write(gov, gov.path("src/auth/a.py")).denied is None


def test_empty_intents_file_is_no_intents(gov):
    write_intents(gov, "")
    assert write(gov, gov.path("x.py")).denied is None
    write_intents(gov, "active_intents: []\n")
    assert write(gov, gov.path("x.py")).denied is None


# ---------------------------------------------------------------- the YAML cache

FAKE_YAML = """\
import os
open(os.environ["FAKE_YAML_MARK"], "a").write("imported\\n")
raise ImportError("fake yaml: the real one must not be needed")
"""


def test_yaml_cache_in_signed_state_and_invalidation(gov, tmp_path):
    fake = tmp_path / "fakeyaml"
    fake.mkdir()
    (fake / "yaml.py").write_text(FAKE_YAML)
    mark = str(tmp_path / "mark")
    env = {"PYTHONPATH": str(fake), "FAKE_YAML_MARK": mark}
    select(gov)  # parses with the real pyyaml; the result lands in the signed state
    cache = gov.state()["cache"]["yaml"]
    entry = cache[gov.path(".claude/active_intents.yaml")]
    assert [i["id"] for i in entry["intents"]] == ["INT-001", "INT-002", "INT-003"]
    # unchanged file: no yaml import at all, the cached intents decide
    for _ in range(2):
        r = gov.hook(
            "sanetools",
            gov.payload(
                "PreToolUse",
                tool_name="Write",
                tool_input={"file_path": gov.path("x.py"), "content": "x"},
            ),
            env=env,
        )
        assert r.denied.startswith("[scope]")
    assert not os.path.exists(mark)
    # the person changes the file: the cache is invalid, so the hook must parse it again
    write_intents(gov, INTENTS.replace('"conf/*.toml"', '"conf/*.toml"\n      - "x.py"'))
    r = gov.hook(
        "sanetools",
        gov.payload(
            "PreToolUse",
            tool_name="Write",
            tool_input={"file_path": gov.path("x.py"), "content": "x"},
        ),
        env=env,
    )
    assert os.path.exists(mark)
    assert r.denied.startswith("[no-intent]") and "pyyaml is not installed" in r.denied
    # with the real pyyaml the new scope applies
    assert write(gov, gov.path("x.py")).denied is None


def test_same_size_edit_invalidates(gov):
    select(gov)
    assert write(gov, gov.path("lib/a.py")).denied is None
    text = INTENTS.replace('"lib/"', '"lyb/"')
    assert len(text) == len(INTENTS)
    p = write_intents(gov, text)
    st = os.stat(p)
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert write(gov, gov.path("lib/a.py")).denied.startswith("[scope]")


def test_no_intents_file_costs_one_stat(proj):
    """Without the file the gates import neither yaml nor the intents modules."""
    proj.research()
    code = (
        "import sys, json; sys.argv=['sanetools']; sys.path.insert(0, %r);"
        "from core import engine;"
        "p={'session_id':'s','cwd':%r,'hook_event_name':'PreToolUse','tool_name':'Write',"
        "'tool_input':{'file_path':%r,'content':'x'}};"
        "engine.handle('sanetools', p, %r);"
        "print(json.dumps(sorted(m for m in sys.modules if m=='yaml' or (m.startswith('core.intents.') and m != 'core.intents.hooks') or m.startswith('core.trace'))))"
        % (
            os.path.join(
                os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                "scripts",
                "hooks",
            ),
            proj.dir,
            proj.path("a.py"),
            proj.dir,
        )
    )
    import subprocess

    env = dict(proj.env, CLAUDE_PROJECT_DIR=proj.dir)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
