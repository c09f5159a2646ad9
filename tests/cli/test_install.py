"""sane.py install / uninstall: the sandbox and permission rules merged in, per-machine paths
kept local, a byte-exact uninstall, --purge, versions and upgrades from the previous layout."""

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT

OLD_RELEASE = "30156c9"  # the last commit of the flat core/ layout (an absolute interpreter)


def settings(proj, name="settings.json"):
    with open(proj.path(".claude", name)) as fh:
        return json.load(fh)


def read(path, mode="rb"):
    with open(path, mode) as fh:
        return fh.read()


def test_install_writes_the_sandbox_and_rules_without_loosening_prompts(proj):
    proj.install()
    s = settings(proj)
    sb = s["sandbox"]
    assert sb["enabled"] is True and sb["allowUnsandboxedCommands"] is False
    # measured: a missing key takes a server-side default; false keeps prompting as it was
    assert sb["autoAllowBashIfSandboxed"] is False
    assert sb["network"] == {"allowedDomains": ["*"]}
    fs = sb["filesystem"]
    for d in ("./.claude", "./scripts/hooks", "./.git/hooks", "~/.config/sane-hooks"):
        assert d in fs["denyWrite"]
    for d in ("~/.ssh", "~/.aws", "~/.gnupg", "~/.config/sane-hooks", "./.claude/state.json.lock"):
        assert d in fs["denyRead"]
    assert "/etc" not in fs["denyRead"] and not any("*" in x for x in fs["denyWrite"])
    deny = s["permissions"]["deny"]
    assert "Edit(./scripts/hooks/**)" in deny and "Read(~/.ssh/**)" in deny
    assert "Edit(./.claude/settings.json)" in deny and "Read(~/.config/sane-hooks/**)" in deny
    assert not any(r.startswith(("Edit(/", "Read(/")) and not r[5:7] == "//" for r in deny)
    assert not os.path.exists(proj.path(".claude", "settings.local.json"))  # default machine


def test_person_keeps_their_auto_allow_choice(proj):
    os.makedirs(os.path.join(proj.home, ".claude"))
    with open(os.path.join(proj.home, ".claude", "settings.json"), "w") as fh:
        json.dump({"sandbox": {"autoAllowBashIfSandboxed": True}}, fh)
    proj.install()
    assert "autoAllowBashIfSandboxed" not in settings(proj)["sandbox"]


def test_per_machine_paths_go_in_settings_local(proj, tmp_path):
    cfg = str(tmp_path / "elsewhere-config")
    env = {"XDG_CONFIG_HOME": cfg}
    r = proj.cli("install", proj.dir, env=env)
    assert r.returncode == 0, r.stderr
    local = settings(proj, "settings.local.json")
    mine = os.path.join(cfg, "sane-hooks")
    assert local["sandbox"]["filesystem"] == {"denyWrite": [mine], "denyRead": [mine]}
    assert "Edit(/%s/**)" % mine in local["permissions"]["deny"]
    assert mine not in read(proj.path(".claude", "settings.json"), "r")
    assert ".claude/settings.local.json" in read(proj.path(".gitignore"), "r")
    proj.cli("uninstall", proj.dir, env=env)
    assert not os.path.exists(proj.path(".claude", "settings.local.json"))


def test_no_sandbox_opts_out_and_reinstall_switches(proj):
    r = proj.cli("install", proj.dir, "--no-sandbox")
    assert r.returncode == 0 and "sandbox: off (--no-sandbox)" in r.stdout
    s = settings(proj)
    assert "sandbox" not in s and s["permissions"]["deny"]  # the file-tool rules stay
    proj.install()
    assert settings(proj)["sandbox"]["enabled"] is True
    proj.cli("install", proj.dir, "--no-sandbox")
    assert "sandbox" not in settings(proj)


PERSON = (
    '{\n    "model": "opus",\n    "sandbox": {"network": {"allowedDomains": ["example.com"]}},\n'
    '    "permissions": {"deny": ["Read(~/.ssh/**)", "Bash(rm:*)"]}\n}\n'
)


def test_uninstall_restores_settings_and_gitignore_byte_for_byte(proj):
    proj.write(".claude/settings.json", PERSON)
    proj.write(".gitignore", "node_modules\n# mine\n")
    proj.install()
    proj.install()  # an upgrade in between keeps the original bytes restorable
    assert settings(proj)["model"] == "opus"
    assert settings(proj)["sandbox"]["network"]["allowedDomains"] == ["example.com", "*"]
    r = proj.cli("uninstall", proj.dir)
    assert r.returncode == 0 and "restored .claude/settings.json exactly" in r.stdout
    assert read(proj.path(".claude", "settings.json"), "r") == PERSON
    assert read(proj.path(".gitignore"), "r") == "node_modules\n# mine\n"
    assert "left in place" in r.stdout and "scripts/hooks" in r.stdout


def test_uninstall_after_the_person_changed_settings_removes_only_ours(proj):
    proj.write(".claude/settings.json", PERSON)
    proj.write(".gitignore", "node_modules\n")
    proj.install()
    s = settings(proj)
    s["env"] = {"FOO": "1"}
    s["sandbox"]["filesystem"]["denyRead"].append("~/private")
    with open(proj.path(".claude", "settings.json"), "w") as fh:
        json.dump(s, fh, indent=4)
    with open(proj.path(".gitignore"), "a") as fh:
        fh.write("dist/\n")
    r = proj.cli("uninstall", proj.dir)
    assert r.returncode == 0 and "changed since install" in r.stdout
    text = read(proj.path(".claude", "settings.json"), "r")
    assert '\n    "model"' in text  # their 4-space indent kept
    after = json.loads(text)
    assert after == {
        "model": "opus",
        "sandbox": {
            "network": {"allowedDomains": ["example.com"]},
            "filesystem": {"denyRead": ["~/private"]},
        },
        "permissions": {"deny": ["Read(~/.ssh/**)", "Bash(rm:*)"]},
        "env": {"FOO": "1"},
    }
    assert read(proj.path(".gitignore"), "r") == "node_modules\n\ndist/\n"


def test_backups_never_land_in_the_project(proj):
    proj.write(".claude/settings.json", PERSON)
    proj.install()
    proj.cli("install", proj.dir, "--no-sandbox")
    out = subprocess.run(
        ["find", proj.dir, "-name", "*bak*", "-o", "-name", "*.orig"],
        capture_output=True,
        text=True,
    ).stdout
    assert out == ""
    backups = os.path.join(proj.env["XDG_CONFIG_HOME"], "sane-hooks", "backups")
    assert os.listdir(backups)


def test_purge_removes_local_files_keeps_the_team_record(proj):
    proj.install()
    proj.research()  # the hooks make state, lock, logs, audit and a counter entry
    proj.write(".claude/learnings.md", "# learnings\n")
    proj.write(".claude/agent_trace.jsonl", "{}\n")
    proj.write(".claude/settings.json.bak-20250101-000000", "{}")  # an older release's backup
    cfg = os.path.join(proj.env["XDG_CONFIG_HOME"], "sane-hooks")
    with open(os.path.join(cfg, "counters.json")) as fh:
        assert proj.dir in json.load(fh)
    assert [n for n in os.listdir(os.path.join(cfg, "verified")) if n.endswith(".json")]
    r = proj.cli("uninstall", proj.dir, "--purge")
    assert r.returncode == 0, r.stderr
    for rel in (
        "scripts/hooks",
        ".claude/state.json",
        ".claude/state.json.lock",
        ".claude/sanetrack.log",
        ".claude/settings.json.bak-20250101-000000",
    ):
        assert not os.path.exists(proj.path(rel)), rel
        assert rel in r.stdout
    with open(os.path.join(cfg, "counters.json")) as fh:
        assert proj.dir not in json.load(fh)
    assert not [n for n in os.listdir(os.path.join(cfg, "verified")) if n.endswith(".json")]
    assert not os.path.exists(os.path.join(cfg, "python"))  # no other project uses it
    assert not os.path.exists(os.path.join(cfg, "backups"))
    for rel in (".claude/learnings.md", ".claude/agent_trace.jsonl", ".claude/agents/reviewer.md"):
        assert os.path.exists(proj.path(rel)) and rel in r.stdout
    assert "git rm -r -- " in r.stdout
    assert not os.path.exists(proj.path(".claude", "settings.json"))  # install made it


def test_version_flag_and_installed_version(proj):
    r = proj.cli("--version")
    from core.version import VERSION

    assert r.returncode == 0 and r.stdout.strip() == "sane-hooks %s" % VERSION
    proj.install()
    from core.cli.install import version_of

    assert version_of(proj.dir) == VERSION
    r = proj.cli("doctor")
    assert "version" in r.stdout and "FAIL version" not in r.stdout


def _git(*args, **kw):
    return subprocess.run(["git", "-C", ROOT] + list(args), capture_output=True, **kw)


@pytest.fixture
def old_release(tmp_path):
    """The previous release's scripts/hooks, from git history."""
    if _git("cat-file", "-e", OLD_RELEASE + "^{commit}").returncode != 0:
        pytest.skip("git history with %s is not available" % OLD_RELEASE)
    dest = tmp_path / "old"
    dest.mkdir()
    tar = _git("archive", OLD_RELEASE, "scripts/hooks").stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=tar, check=True)
    return dest / "scripts" / "hooks"


def test_upgrade_from_the_previous_release_layout(proj, old_release):
    """Old flat core/ and settings naming an absolute interpreter -> install upgrades in place:
    state, config, learnings and ledger kept; entries replaced, not duplicated."""
    proj.write(".claude/settings.json", '{"model": "opus"}\n')
    r = subprocess.run(
        [sys.executable, str(old_release / "sane.py"), "install", proj.dir],
        capture_output=True,
        text=True,
        env=proj.env,
        cwd=proj.dir,
    )
    assert r.returncode == 0, r.stderr
    old = settings(proj)
    assert sys.executable in json.dumps(old)  # the old form: an absolute interpreter
    assert os.path.exists(proj.path("scripts", "hooks", "core", "shell_lex.py"))
    # the old hooks run and make state; the person's files exist
    payload = proj.payload("PostToolUse", tool_name="Read", tool_input={"file_path": "x"})
    payload["tool_response"] = {"type": "text", "file": {"filePath": "x", "content": "hi\n"}}
    subprocess.run(
        [sys.executable, proj.path("scripts", "hooks", "sanetrack.py")],
        input=json.dumps(payload),
        text=True,
        env=dict(proj.env, CLAUDE_PROJECT_DIR=proj.dir),
        cwd=proj.dir,
        capture_output=True,
    )
    proj.config("breaker:\n  max_consecutive: 7\n")
    proj.write(".claude/learnings.md", "# kept\n")
    proj.write(".claude/agent_trace.jsonl", '{"kept": true}\n')
    state_before = read(proj.path(".claude", "state.json"))
    r = proj.cli("doctor")
    assert "FAIL version" in r.stdout and "before 0.2.0" in r.stdout  # older than this copy

    r = proj.cli("install", proj.dir)
    assert r.returncode == 0, r.stderr
    new = settings(proj)
    assert new["model"] == "opus"
    text = json.dumps(new)
    assert sys.executable not in text and "sanetools.py" not in text
    for ev, groups in new["hooks"].items():
        ours = [h for g in groups for h in g["hooks"] if "scripts/hooks" in h["command"]]
        assert len(ours) == 1, ev
    assert not os.path.exists(proj.path("scripts", "hooks", "core", "shell_lex.py"))
    assert os.path.exists(proj.path("scripts", "hooks", "core", "shell", "lexer.py"))
    assert read(proj.path(".claude", "state.json")) == state_before
    assert read(proj.path(".claude", "learnings.md"), "r") == "# kept\n"
    assert read(proj.path(".claude", "agent_trace.jsonl"), "r") == '{"kept": true}\n'
    st = proj.state()  # the old state verifies under the new code
    assert st["circuit_breaker"] is not None
    r = proj.cli("doctor")
    assert "FAIL version" not in r.stdout and "FAIL settings" not in r.stdout, r.stdout
    again = read(proj.path(".claude", "settings.json"))
    proj.install()
    assert read(proj.path(".claude", "settings.json")) == again  # idempotent


def test_shipped_files_come_from_the_repository_dot_claude(proj, tmp_path):
    proj.install()
    for rel in (".claude/agents/reviewer.md", ".claude/sane-templates/block-v1.md"):
        assert read(proj.path(rel)) == read(os.path.join(ROOT, rel))
    assert not os.path.exists(os.path.join(ROOT, "scripts", "hooks", "assets"))
    # an installed project is a source too: install from its copy into another project
    other = tmp_path / "other"
    other.mkdir()
    r = subprocess.run(
        [sys.executable, proj.path("scripts", "hooks", "sane.py"), "install", str(other)],
        capture_output=True,
        text=True,
        env=proj.env,
    )
    assert r.returncode == 0, r.stderr
    assert (other / ".claude" / "agents" / "reviewer.md").exists()
    assert (other / ".claude" / "sane-templates" / "block-v2.md").exists()


def test_install_says_when_the_persons_settings_keep_the_sandbox_off(proj):
    proj.write(".claude/settings.local.json", '{"sandbox": {"enabled": false}}\n')
    r = proj.install()
    assert "NOTE: sandbox.enabled is false in .claude/settings.local.json" in r.stdout
    assert settings(proj, "settings.local.json") == {"sandbox": {"enabled": False}}


def test_a_teammates_install_over_a_committed_install_uninstalls_cleanly(proj):
    """A clone that already holds our settings and .gitignore block: install changes nothing,
    and uninstall still takes ours out (there are no pre-install bytes to go back to)."""
    proj.write(".gitignore", "node_modules\n")
    proj.install()
    record_dir = os.path.join(proj.env["XDG_CONFIG_HOME"], "sane-hooks", "installs")
    for name in os.listdir(record_dir):  # another machine: no install record
        os.remove(os.path.join(record_dir, name))
    proj.install()
    r = proj.cli("uninstall", proj.dir)
    assert r.returncode == 0, r.stderr
    assert "sane-hooks" not in read(proj.path(".gitignore"), "r")
    assert not os.path.exists(proj.path(".claude", "settings.json")) or "scripts/hooks" not in read(
        proj.path(".claude", "settings.json"), "r"
    )
