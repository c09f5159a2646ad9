"""Copies and moves into a directory (each source lands at DEST/its name), person start-up
files in HOME (code the person runs later, outside every sandbox), and PowerShell spellings
(parenthesised expressions, parameter-name prefixes, moved sources, pipeline-fed deletes,
backslash paths). Each row goes through sanetools.py in a project with the hooks installed;
@T is a temp dir outside the project, @P the project, @H its HOME."""

import os
import subprocess

import pytest

from conftest import Project

SP, SM, BP, DS = "[self-protection]", "[safemode]", "[blocked-path]", "[destructive]"


@pytest.fixture(scope="module")
def labs(tmp_path_factory):
    base = str(tmp_path_factory.mktemp("r4files"))
    tmp = os.path.join(base, "t")
    for rel, text in (
        ("ev/.mcp.json", '{"mcpServers": {}}'),
        ("ev/settings.json", "{}"),
        ("ev/a.txt", "x"),
    ):
        os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
        with open(os.path.join(tmp, rel), "w") as fh:
            fh.write(text)
    out = {}
    for mode in ("normal", "safe"):
        proj = Project(os.path.join(base, mode))
        proj.install()
        subprocess.run(["git", "init", "-q", proj.dir], check=True)
        proj.write("README.md", "readme\n")
        proj.write("a.txt", "a\n")
        proj.write(".env", "SECRET=1\n")
        proj.write("src/a.py", "x = 1\n")
        proj.write("sub/b.txt", "b\n")
        proj.research()
        if mode == "safe":
            proj.prompt("s+")
        proj.tmp = tmp
        out[mode] = proj
    return out


def run(labs, mode, cmd):
    proj = labs[mode]
    proj.prompt("rb-")
    text = cmd.replace("@T", proj.tmp).replace("@P", proj.dir).replace("@H", proj.home)
    payload = proj.payload("PreToolUse", tool_name="Bash", tool_input={"command": text})
    r = proj.hook("sanetools", payload, env={"TMPDIR": proj.tmp})
    spec = r.spec
    return spec.get("permissionDecision"), spec.get("permissionDecisionReason") or r.denied or ""


def check(labs, cmd, mode, code):
    decision, reason = run(labs, mode, cmd)
    if code is None:
        assert decision in (None, "allow"), (cmd, mode, reason)
    else:
        assert decision in ("deny", "ask") and reason.startswith(code), (cmd, mode, reason)


# -- a copy or move into a directory: each source lands at DEST/its name ---------------------

INTO_DIR_DENIED = [
    "cp @T/ev/.mcp.json .",
    "mv @T/ev/.mcp.json ./",
    "cp @T/ev/.mcp.json $PWD",
    "install -m644 @T/ev/.mcp.json .",
    "cp @T/ev/.mcp.json @P",
    "cp @T/ev/.mcp.json @P/",
    "cp -f @T/ev/a.txt @T/ev/.mcp.json .",
    "cd @T/ev && mv .mcp.json @P",
    "cd @T/ev && cp .mcp.json @P/.",
    "ln @T/ev/.mcp.json .",
    "ln -sf @T/ev/.mcp.json .",
    "cp @T/ev/settings.json .claude",
    "cp @T/ev/settings.json .claude/",
    "install @T/ev/settings.json .claude",
    "mv @T/ev/settings.json ./.claude/",
    "cp -t .claude @T/ev/settings.json",
    "rsync @T/ev/.mcp.json .",
    "rsync -a @T/ev/.mcp.json ./",
    "scp @T/ev/.mcp.json .",
    "cp -- @T/ev/.mcp.json .",
    "cp @T/ev/.mcp.json sub/..",
]


@pytest.mark.parametrize("cmd", INTO_DIR_DENIED)
def test_into_dir_denied(labs, cmd):
    check(labs, cmd, "normal", SP)


INTO_DIR_ALLOWED = [
    "cp src/a.py .",
    "mv a.txt .",
    "mv a.txt ./",
    "cp @T/ev/a.txt .",
    "cp @T/ev/a.txt sub/",
    "cp README.md sub",
    "install -m644 @T/ev/a.txt .",
    "ln -s @T/ev/a.txt .",
    "rsync -a @T/ev/a.txt ./",
    "cp -r src sub/",
]


@pytest.mark.parametrize("cmd", INTO_DIR_ALLOWED)
def test_into_dir_allowed(labs, cmd):
    check(labs, cmd, "normal", None)
