"""The OS sandbox under the hooks: the [sandbox] gate, the notices at SessionStart and after a
refusal, and what doctor says."""

import json
import os
import shutil

import pytest

from conftest import HOOKS

ESCAPES = [True, "true", 1, "yes", {"x": 1}]


@pytest.fixture
def sbx(proj):
    proj.install()
    return proj


@pytest.mark.parametrize("flag", ESCAPES)
def test_dangerously_disable_sandbox_is_denied(sbx, flag):
    for tool in ("Bash", "PowerShell"):
        r = sbx.pre(tool, {"command": "ls", "dangerouslyDisableSandbox": flag})
        assert r.denied and r.denied.startswith("[sandbox] "), (tool, flag, r.stdout, r.stderr)
        assert "without dangerouslyDisableSandbox" in r.denied


@pytest.mark.parametrize("flag", [False, None])
def test_sandboxed_calls_pass_the_gate(sbx, flag):
    ti = {"command": "ls"}
    if flag is not None:
        ti["dangerouslyDisableSandbox"] = flag
    r = sbx.pre("Bash", ti)
    assert not (r.denied or "").startswith("[sandbox]")


def refusal(proj, stdout):
    return proj.post(
        "Bash",
        {"command": "python3 build.py"},
        {"stdout": stdout, "stderr": "", "interrupted": False},
    )


def test_a_refusal_is_told_once_with_the_setting_that_allows_it(sbx):
    r = refusal(sbx, "OSError: [Errno 30] Read-only file system: '/tmp/x'")
    assert "sandbox.filesystem.allowWrite" in r.user and ".claude/settings.local.json" in r.user
    assert "$TMPDIR" in r.user
    r = refusal(sbx, "touch: cannot touch '/tmp/y': Read-only file system")
    assert "sandbox" not in r.user  # once per session and kind
    r = refusal(sbx, "<sandbox_violations> deny network-outbound example.com:443 </...>")
    assert "sandbox.network.allowedDomains" in r.user
    r = refusal(sbx, "PermissionError: socket(AF_UNIX) Operation not permitted docker.sock")
    assert "allowAllUnixSockets" in r.user and "root-equivalent" in r.user


def test_no_notice_when_the_sandbox_is_not_enabled(proj):
    proj.cli("install", proj.dir, "--no-sandbox")
    r = refusal(proj, "Read-only file system")
    assert "sandbox" not in r.user


def _path_without(tool):
    keep = []
    for d in os.environ.get("PATH", "").split(os.pathsep):
        if d and not os.path.exists(os.path.join(d, tool)):
            keep.append(d)
    return os.pathsep.join(keep)


def test_session_start_says_the_os_layer_is_off_when_bwrap_is_missing(sbx):
    env = {"PATH": _path_without("bwrap")}
    r = sbx.hook("saneprompt", sbx.payload("SessionStart", source="startup"), env=env)
    assert "the OS layer is OFF" in r.user and "bubblewrap" in r.user
    r = sbx.hook("saneprompt", sbx.payload("SessionStart", source="resume"), env=env)
    assert "OS layer" not in r.user  # once, at startup
    r = sbx.cli("doctor", env=env)
    assert "FAIL sandbox" in r.stdout and "cannot start here" in r.stdout
    assert "hint: without it" in r.stdout


@pytest.mark.skipif(not shutil.which("bwrap") or not shutil.which("socat"), reason="no bwrap")
def test_session_start_is_quiet_and_doctor_ok_when_the_sandbox_works(sbx):
    from core import sandbox

    if sandbox.unavailable():
        pytest.skip("bwrap cannot start here: %s" % sandbox.unavailable())
    r = sbx.hook("saneprompt", sbx.payload("SessionStart", source="startup"))
    assert "OS layer" not in r.user and "sandbox" not in r.user
    r = sbx.cli("doctor")
    assert "ok   sandbox    the OS sandbox is on" in r.stdout, r.stdout


def test_session_start_tells_when_the_person_turned_it_off(sbx):
    s = json.load(open(sbx.path(".claude", "settings.json")))
    sbx.write(".claude/settings.local.json", json.dumps({"sandbox": {"enabled": False}}))
    assert s["sandbox"]["enabled"] is True
    r = sbx.hook("saneprompt", sbx.payload("SessionStart", source="startup"))
    assert "sandbox is off (.claude/settings.local.json)" in r.user
    r = sbx.cli("doctor")
    assert "FAIL sandbox" in r.stdout and "disabled in .claude/settings.local.json" in r.stdout


def test_doctor_checks_the_interpreter_the_hooks_run(sbx):
    r = sbx.cli("doctor")
    with open(os.path.join(sbx.env["XDG_CONFIG_HOME"], "sane-hooks", "python")) as fh:
        py = fh.read().strip()
    assert "ok   python     every hook runs %s" % py in r.stdout, r.stdout
    assert "pyyaml importable" in r.stdout
    os.remove(os.path.join(sbx.env["XDG_CONFIG_HOME"], "sane-hooks", "python"))
    r = sbx.cli("doctor")
    assert "recorded " in r.stdout and "hooks interpreter" in r.stdout


def test_doctor_flags_settings_that_name_a_machine_interpreter(sbx):
    s = json.load(open(sbx.path(".claude", "settings.json")))
    h = s["hooks"]["PreToolUse"][0]["hooks"][0]
    h["command"] = '"/usr/bin/python3" "$CLAUDE_PROJECT_DIR/scripts/hooks/sanetools.py"'
    sbx.write(".claude/settings.json", json.dumps(s))
    r = sbx.cli("doctor")
    assert "FAIL settings" in r.stdout and "names a machine's interpreter" in r.stdout


def test_hooks_tree_ships_the_launcher():
    assert os.path.exists(os.path.join(HOOKS, "run"))
