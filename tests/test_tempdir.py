"""`$TMPDIR` in a Bash command is the temp dir the Bash tool gets (core/tempdir.py): the
sandbox's own (<CLAUDE_CODE_TMPDIR or the client's temp dir>/claude-<uid>) when the settings
enable Claude Code's sandbox, else the hooks' TMPDIR; a write there is a temp write (allowed
under safemode), and escapes from it are judged on the normalised path."""

from __future__ import annotations

import json
import os
import shutil
import tempfile

import pytest

from core import paths, tempdir
from core.shell.analysis import analyse

UID = os.getuid()


@pytest.mark.parametrize(
    "env, want",
    [
        ({"CLAUDE_CODE_TMPDIR": "/c/tmp/", "TMPDIR": "/t"}, "/c/tmp/claude-%d" % UID),
        ({"TMPDIR": "/var/tmp/xt"}, "/var/tmp/xt/claude-%d" % UID),
        ({"TMP": "/x/tmp"}, "/x/tmp/claude-%d" % UID),
        ({}, "/tmp/claude-%d" % UID),
        ({"CLAUDE_CODE_TMPDIR": "rel/tmp"}, None),
        ({"TMPDIR": "/a/../etc"}, None),
        # a long CLAUDE_CODE_TMPDIR is not taken (measured: 35 characters are, 36 are not)
        ({"CLAUDE_CODE_TMPDIR": "/" + "c" * 34}, "/%s/claude-%d" % ("c" * 34, UID)),
        ({"CLAUDE_CODE_TMPDIR": "/" + "c" * 50}, "/tmp/claude-%d" % UID),
        (
            {"CLAUDE_CODE_TMPDIR": "/" + "c" * 50, "TMPDIR": "/" + "t" * 60},
            "/%s/claude-%d" % ("t" * 60, UID),
        ),
    ],
)
def test_the_sandbox_temp_dir_is_the_clients_temp_dir_and_the_uid(env, want):
    if UID != 0 and len(env.get("CLAUDE_CODE_TMPDIR", "")) == 35:
        pytest.skip("measured as uid 0")
    assert tempdir.sandbox_dir(env) == want


def test_where_the_length_limit_is_not_known_the_dir_is_not_guessed(monkeypatch):
    monkeypatch.setattr(os, "getuid", lambda: 1000)  # claude-1000: 3 characters more than uid 0
    cc = "/" + "c" * 33  # 34 characters: short by the one reading, long by the other
    assert tempdir.sandbox_dir({"CLAUDE_CODE_TMPDIR": cc}) is None
    assert cc + "/claude-1000" in tempdir.sandbox_dirs({"CLAUDE_CODE_TMPDIR": cc})


@pytest.fixture
def sandbox_tools(tmp_path, monkeypatch):
    """bwrap and socat on PATH (only their presence is looked at)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("bwrap", "socat", "sandbox-exec"):
        (bin_dir / name).write_text("#!/bin/sh\nexit 0\n")
        (bin_dir / name).chmod(0o755)
    monkeypatch.setenv("PATH", "%s:%s" % (bin_dir, os.environ.get("PATH", "")))
    return str(bin_dir)


def _settings(project, name, doc):
    path = os.path.join(project, ".claude", name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        json.dump(doc, fh)


def test_for_bash_follows_the_settings_and_the_tools(tmp_path, monkeypatch, sandbox_tools):
    project = str(tmp_path / "p")
    monkeypatch.setenv("HOME", str(tmp_path / "h"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.setenv("CLAUDE_CODE_TMPDIR", "/cc")  # short
    monkeypatch.setenv("TMPDIR", "/hooks/tmp/")
    assert tempdir.for_bash(project) == "/hooks/tmp"  # no sandbox: the hooks' own
    _settings(project, "settings.json", {"sandbox": {"enabled": True}})
    assert tempdir.for_bash(project) == "/cc/claude-%d" % UID
    _settings(project, "settings.local.json", {"sandbox": {"enabled": False}})
    assert tempdir.for_bash(project) == "/hooks/tmp"  # the local file wins
    os.remove(os.path.join(project, ".claude", "settings.local.json"))
    monkeypatch.setenv("PATH", "/nonexistent")  # no bwrap: Claude Code runs Bash unsandboxed
    assert tempdir.for_bash(project) == "/hooks/tmp"
    monkeypatch.delenv("TMPDIR")
    assert tempdir.for_bash(project) is None  # bash would make $TMPDIR/x /x: unknown


def test_the_sandbox_temp_dir_is_a_temp_dir(monkeypatch, tmp_path):
    monkeypatch.delenv("TMPDIR", raising=False)
    monkeypatch.delenv("CLAUDE_CODE_TMPDIR", raising=False)
    monkeypatch.setenv("TMP", str(tmp_path / "t"))
    project = str(tmp_path / "p")
    inside = str(tmp_path / "t" / ("claude-%d" % UID) / "x")
    assert paths.in_temp(inside, project)
    dirs = [os.path.realpath(d) for d in paths.temp_dirs()]
    assert os.path.realpath(str(tmp_path / "t")) not in dirs  # TMP itself is not ours
    assert not paths.in_temp(os.path.join(project, "x"), project)


@pytest.mark.parametrize(
    "cmd, writes, reads",
    [
        ('echo hi > "$TMPDIR"/x', ["/sb/claude/x"], []),
        ("echo hi > $TMPDIR/x", ["/sb/claude/x"], []),
        ("echo hi > ${TMPDIR}/x", ["/sb/claude/x"], []),
        ('cp a "${TMPDIR:-/tmp}/b"', ["/sb/claude/b"], ["a"]),
        ("cat $TMPDIR/../../etc/shadow", [], ["/etc/shadow"]),
    ],
)
def test_analysis_expands_tmpdir_to_the_given_dir(cmd, writes, reads):
    a = analyse(cmd, home="/home/u", env={"TMPDIR": "/sb/claude"})
    assert not a.unknown, a
    assert [os.path.normpath(w) for w in a.writes] == writes
    assert [os.path.normpath(r) for r in a.reads] == reads


def test_analysis_keeps_an_unknown_tmpdir_dynamic():
    a = analyse('echo hi > "$TMPDIR"/x', home="/home/u", env={"TMPDIR": None})
    assert a.unknown and a.writes == ["$TMPDIR/x"], a


# ------------------------------------------------------------------ through sanetools.py
@pytest.fixture
def sandboxed(proj, sandbox_tools, request):
    """A project whose settings enable Claude Code's sandbox, hooks started without TMPDIR
    (as Claude Code starts them when the person has none), safemode on."""
    proj.write(".claude/settings.json", json.dumps({"sandbox": {"enabled": True}}))
    fs = "/dev/shm" if proj.root.startswith("/dev/shm/") else "/tmp"  # the project's (links)
    cc = tempfile.mkdtemp(prefix="cc", dir=fs)  # short: Claude Code takes it
    request.addfinalizer(lambda: shutil.rmtree(cc, ignore_errors=True))
    box = os.path.join(cc, "claude-%d" % UID)
    os.makedirs(box)
    proj.env = {k: v for k, v in proj.env.items() if k != "TMPDIR"}
    proj.env.update(PATH="%s:%s" % (sandbox_tools, proj.env.get("PATH", "")))
    proj.env["CLAUDE_CODE_TMPDIR"] = cc
    proj.research()
    proj.prompt("s+")
    assert proj.state()["safemode"]["active"] is True
    return proj, box


def _bash(proj, cmd, process=None):
    r = proj.hook(
        "sanetools",
        proj.payload("PreToolUse", tool_name="Bash", tool_input={"command": cmd}),
        process=process,
    )
    return r.denied or ""


@pytest.mark.parametrize(
    "cmd",
    [
        'echo hi > "$TMPDIR"/x',
        "echo hi > $TMPDIR/x",
        "echo hi > ${TMPDIR}/x",
        'mkdir -p "$TMPDIR/build" && cp README.md "$TMPDIR/build/"',
        'f=$(mktemp) && echo hi > "$f"',
    ],
)
def test_a_write_to_the_sandbox_tmpdir_passes_under_safemode(sandboxed, cmd):
    proj, _box = sandboxed
    proj.write("README.md", "# x\n")
    assert _bash(proj, cmd) == "", cmd


def test_under_safemode_the_rest_is_still_judged(sandboxed):
    proj, box = sandboxed
    assert _bash(proj, "echo hi > x").startswith("[safemode]")
    assert _bash(proj, "echo hi > /tmp/x") == ""  # a temp dir all the same
    d = _bash(proj, "cat $TMPDIR/../../../../../../../../etc/shadow")
    assert d.startswith("[blocked-path]") and "/etc/shadow" in d, d
    rel = os.path.relpath(proj.dir, box)  # back out of the temp dir into the project
    d = _bash(proj, 'echo x > "$TMPDIR/%s/scripts/hooks/sanetools.py"' % rel)
    assert d.startswith("[self-protection]"), d


def test_a_hard_link_in_the_sandbox_tmpdir_to_a_protected_file_is_denied(sandboxed):
    proj, box = sandboxed
    target = proj.write(".claude/sane.yaml", "research: {required: [local]}\n")
    os.link(target, os.path.join(box, "t"))
    d = _bash(proj, ': > "$TMPDIR/t"', process=True)  # the real script, a real process
    assert d.startswith("[self-protection]") and "same file" in d, d
    d = _bash(proj, 'ln .claude/sane.yaml "$TMPDIR/u" && : > "$TMPDIR/u"')
    assert d.startswith("[self-protection]") and "sane.yaml" in d, d
