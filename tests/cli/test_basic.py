"""sane.py: install/uninstall hygiene, doctor, config, status, reset, person-only refusals."""

import json
import os

import pytest

from conftest import ROOT


def settings(proj):
    with open(proj.path(".claude", "settings.json")) as fh:
        return json.load(fh)


USER_HOOKS = {
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo mine"}]}],
        "Notification": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}],
    },
    "permissions": {"allow": ["Bash(ls:*)"]},
    "model": "opus",
}


def test_install_is_idempotent_keeps_user_settings_and_backs_up(proj):
    with open(proj.path(".claude", "settings.json"), "w") as fh:
        json.dump(USER_HOOKS, fh)
    r = proj.cli("install", proj.dir)
    assert r.returncode == 0, r.stderr
    s = settings(proj)
    assert s["permissions"]["allow"] == USER_HOOKS["permissions"]["allow"] and s["model"] == "opus"
    assert {"type": "command", "command": "echo mine"} in s["hooks"]["PreToolUse"][0]["hooks"]
    assert s["hooks"]["Notification"] == USER_HOOKS["hooks"]["Notification"]
    events = {
        "UserPromptSubmit",
        "SessionStart",
        "SubagentStart",
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "Stop",
        "SubagentStop",
        "SessionEnd",
        "TaskCompleted",
    }
    assert events <= set(s["hooks"])
    for ev in events:
        for g in s["hooks"][ev]:
            assert isinstance(g["hooks"], list)
            for h in g["hooks"]:
                assert "|| true" not in h["command"]
                if "scripts/hooks" in h["command"]:
                    assert "$CLAUDE_PROJECT_DIR" in h["command"] and 0 < h["timeout"] <= 60
                    assert h["command"].startswith('sh "$CLAUDE_PROJECT_DIR/scripts/hooks/run" ')
    # the backup is kept with the install record, never in the project's tracked tree
    assert not any(".bak" in f for f in os.listdir(proj.path(".claude")))
    assert os.path.exists(proj.path("scripts", "hooks", "sanetools.py"))
    gi = open(proj.path(".gitignore")).read()
    assert ".claude/state.json" in gi and ".claude/audit.jsonl" in gi
    before = open(proj.path(".claude", "settings.json")).read()
    r = proj.cli("install", proj.dir)
    assert "wrote .claude/settings.json" not in r.stdout
    assert open(proj.path(".claude", "settings.json")).read() == before
    assert open(proj.path(".gitignore")).read() == gi
    r = proj.cli("doctor")
    assert "FAIL settings" not in r.stdout, r.stdout


def test_uninstall_removes_only_ours(proj):
    with open(proj.path(".claude", "settings.json"), "w") as fh:
        json.dump(USER_HOOKS, fh)
    proj.cli("install", proj.dir)
    r = proj.cli("uninstall", proj.dir)
    assert r.returncode == 0
    assert settings(proj) == USER_HOOKS
    assert not os.path.exists(proj.path(".gitignore"))  # install made it: gone again


def test_settings_example_is_exactly_what_install_writes(proj):
    proj.cli("install", proj.dir)
    with open(os.path.join(ROOT, "settings.example.json"), "rb") as fh:
        example = fh.read()
    with open(proj.path(".claude", "settings.json"), "rb") as fh:
        assert fh.read() == example  # byte for byte: copyable as it is
    assert b"__PYTHON__" not in example and b"/usr/" not in example and b"/home/" not in example


def test_install_refuses_broken_settings_and_changes_nothing(proj):
    with open(proj.path(".claude", "settings.json"), "w") as fh:
        fh.write("{broken")
    r = proj.cli("install", proj.dir)
    assert r.returncode == 1 and "not valid JSON" in r.stderr and "Traceback" not in r.stderr
    assert open(proj.path(".claude", "settings.json")).read() == "{broken"


@pytest.mark.parametrize(
    "args", [["install"], ["uninstall"], ["reset"], ["unlock"], ["reset", "safemode"]]
)
def test_person_only_commands_refused_inside_claude_code(proj, args):
    r = proj.cli(*args, env={"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": proj.sid})
    assert r.returncode == 2 and "person only" in r.stderr


@pytest.mark.parametrize(
    "cmd",
    [
        "python3 scripts/hooks/sane.py reset",
        "python3 scripts/hooks/sane.py unlock",
        "bash -c 'python3 scripts/hooks/sane.py reset breaker'",
        "true && ./scripts/hooks/sane.py install /tmp/x",
        'python3 "$CLAUDE_PROJECT_DIR/scripts/hooks/sane.py" uninstall',
        "cd . ; python3 scripts/hooks/sane.py learn maintain",
    ],
)
def test_person_only_commands_refused_to_the_agent_by_the_hooks(proj, cmd):
    proj.install()
    proj.research()
    r = proj.pre("Bash", {"command": cmd})
    assert (r.denied or "").startswith("[person-only]"), (cmd, r.stdout)


def test_agent_sane_call_is_authorised_once_and_passes_safemode_and_breaker(proj):
    proj.install()
    proj.prompt("sl+ ship it\n- tests pass")
    proj.prompt("s+")
    for _ in range(3):
        proj.fail("Bash", {"command": "make"}, error="Exit code 2\nmake: nope")
    cmd = "python3 scripts/hooks/sane.py loop check 1"
    r = proj.pre("Bash", {"command": cmd}, tool_use_id="toolu_auth1")
    assert r.denied is None, r.stdout
    r = proj.agent_cli("loop", "check", "1")
    assert r.returncode == 0, r.stderr
    assert proj.session_state()["saneloop"]["acceptance_criteria"][0]["met"] is True
    r = proj.agent_cli("loop", "check", "1")  # single use: the second run went around the hooks
    assert r.returncode == 2 and "did not authorise" in r.stderr


def test_cli_run_around_the_hooks_is_refused(proj):
    proj.prompt("sl+ ship it\n- tests pass")
    r = proj.cli("loop", "check", "1", env={"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": proj.sid})
    assert r.returncode == 2


def test_person_outside_claude_code_may_check(proj):
    proj.prompt("sl+ ship it\n- tests pass")
    r = proj.cli("loop", "check", "1")
    assert r.returncode == 0 and "criterion 1 met" in r.stdout
    assert proj.cli("loop", "check", "7").returncode == 1


def test_status_json_and_text(proj):
    proj.prompt("s+")
    r = proj.cli("status")
    assert "safemode is ON" in r.stdout and "breaker is OK" in r.stdout
    st = proj.state()
    assert st["verified"] is True and proj.sid in st["sessions"]


def test_config_shows_sources(proj):
    proj.config("breaker: {max_consecutive: 7}\n")
    r = proj.cli("config", env={"SANE_REVIEW__MAX_BLOCKS": "5"})
    line = [x for x in r.stdout.splitlines() if x.startswith("breaker.max_consecutive")][0]
    assert "7" in line and "project" in line
    line = [x for x in r.stdout.splitlines() if x.startswith("review.max_blocks")][0]
    assert "5" in line and "SANE_REVIEW__MAX_BLOCKS" in line
    line = [x for x in r.stdout.splitlines() if x.startswith("file_size.block")][0]
    assert "800" in line and "default" in line


def test_malformed_config_falls_back_to_defaults_and_is_reported(proj):
    proj.config("breaker: [unclosed\n")
    r = proj.cli("config")
    assert "config problem" in r.stdout and "line" in r.stdout
    assert proj.pre("Write", {"file_path": proj.path("a"), "content": ""}).denied.startswith(
        "[research-gate]"
    )
    r = proj.cli("doctor")
    assert "FAIL config" in r.stdout


def test_config_env_lists_and_bools(proj):
    proj.research(cats=("local",))
    r = proj.pre("Write", {"file_path": proj.path("a"), "content": ""}, env=None)
    assert r.denied.startswith("[research-gate]")
    r = proj.hook(
        "sanetools",
        proj.payload(
            "PreToolUse", tool_name="Write", tool_input={"file_path": proj.path("a"), "content": ""}
        ),
        env={"SANE_RESEARCH__REQUIRED": "local"},
    )
    assert r.denied is None


def test_reset_sections(proj):
    proj.prompt("s+")
    r = proj.cli("reset", "safemode")
    assert r.returncode == 0 and proj.state()["safemode"]["active"] is False
    assert proj.cli("reset", "nonsense").returncode == 1
    proj.research()
    r = proj.cli("reset", "research", "--session", proj.sid)
    assert r.returncode == 0 and not proj.session_state()["research"]["local"]


def test_logs_command(proj):
    proj.prompt("s?")
    r = proj.cli("logs", "saneprompt")
    assert r.returncode == 0 and "UserPromptSubmit" in r.stdout
    assert proj.cli("logs", "nope").returncode == 1


def test_demo_runs_without_claude_code(proj):
    r = proj.cli("demo")
    assert r.returncode == 0
    assert (
        "[research-gate]" in r.stdout and "[blocked-path]" in r.stdout and "[breaker]" in r.stdout
    )


def test_help_and_bad_usage(proj):
    r = proj.cli("--help")
    assert r.returncode == 0 and "status" in r.stdout
    r = proj.cli("frobnicate")
    assert r.returncode == 1 and "Traceback" not in r.stderr


@pytest.mark.parametrize(
    "cmd",
    [
        "python3 scripts/hooks/sane.py --project . reset",
        "python3 scripts/hooks/sane.py --project /tmp review clean --all",
        "python3 scripts/hooks/sane.py --session x unlock",
    ],
)
def test_person_only_behind_value_options(proj, cmd):
    proj.install()
    proj.research()
    assert (proj.pre("Bash", {"command": cmd}).denied or "").startswith("[person-only]")


def test_blank_session_id_cannot_borrow_an_authorisation(proj):
    proj.install()
    proj.prompt("sl+ ship it\n- tests pass")
    proj.research()
    assert (
        proj.pre("Bash", {"command": "python3 scripts/hooks/sane.py loop check 1"}).denied is None
    )
    r = proj.agent_cli("loop", "check", "1", env={"CLAUDE_CODE_SESSION_ID": ""})
    assert r.returncode == 2
    r = proj.agent_cli("loop", "check", "1")
    assert r.returncode == 0, r.stderr
