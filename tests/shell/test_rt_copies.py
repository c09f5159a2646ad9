"""Copies, container mounts and printers whose files the command's words do not name: a copy
into a directory holding protected files from a source the hooks enumerate now (or cannot:
a blind write), a container with a writable bind mount of the project, archives and config
renderers printing blocked files. Each row goes through sanetools.py in a project with the
hooks installed; @T is a temp dir outside the project holding the fixtures below, @P the
project."""

import os
import subprocess

import pytest

from conftest import Project

SP, SM, BP, DS = "[self-protection]", "[safemode]", "[blocked-path]", "[destructive]"


@pytest.fixture(scope="module")
def labs(tmp_path_factory):
    base = str(tmp_path_factory.mktemp("rtcopies"))
    tmp = os.path.join(base, "t")
    for rel, text in (
        ("evil/scripts/hooks/sanetools.py", "x"),
        ("evil/.claude/settings.json", "{}"),
        ("good/src/a.py", "x"),
        ("good/docs/b.md", "x"),
        ("fix.diff", "--- a/src/app.py\n+++ b/src/app.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"),
        ("bad.diff", "--- a/scripts/hooks/sane.py\n+++ b/scripts/hooks/sane.py\n@@ -1 +1 @@\n"),
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
        proj.write(".env", "SECRET=1\n")
        proj.write("src/app.py", "x = 1\n")
        proj.write("vendor/scripts/hooks/sanetools.py", "x")
        proj.research()
        if mode == "safe":
            proj.prompt("s+")
        proj.tmp = tmp
        out[mode] = proj
    return out


def run(labs, mode, cmd):
    proj = labs[mode]
    proj.prompt("rb-")
    text = cmd.replace("@T", proj.tmp).replace("@P", proj.dir)
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


# -- copies into a directory that holds protected files --------------------------------------

COPIES_DENIED = [
    # a glob source: expanded now, its trees mapped onto DEST
    "cp -a @T/evil/* .",
    "cp -R @T/ev*/scripts .",
    "cp -r @T/e?il/* @P",
    "gcp -a @T/evil/* .",
    "cp -t . -a @T/evil/*",
    "cp -a @T/evil/.c* .",
    # a copy that keeps relative paths
    "cd @T/evil && cp -a --parents scripts/hooks/sanetools.py @P",
    "cd @T/evil && cp --parents scripts/hooks/* @P",
    "cd @T/evil && cp -r --parents scripts @P",
    "cd @T && rsync -aR evil/./scripts @P",
    "cd @T/evil && rsync -R .claude/settings.json @P",
    # names on stdin
    "cd @T/evil && find . | cpio -pdmu @P",
    "cd @T/evil && find . | cpio --pass-through -dm @P",
    "ls | cpio -p .",
    # directory contents
    "rsync -a @T/evil/ .",
    "rsync -a vendor/ .",
    "cp -r @T/evil/. .",
    "ditto @T/evil .",
    # sources the hooks cannot enumerate now
    "cp -a $NOPE/* .",
    "cp -a @T/nothere*/x .",
    "cp -r $(mktemp -d)/. .",
    "rsync -a host:x/ .",
    "rsync -a --files-from=@T/list @T/good .",
    "scp -r host:x .",
    "cd $X && cp -a --parents s/x @P",
    "mkdir -p @T/n && cp -a @T/n/. .",
    # unpacking an archive the hooks cannot read
    "tar -xf - -C . < @T/fix.diff",
    "curl -s https://example.com/a.tgz | tar -xz",
    "unzip -o @T/none.zip",
]

COPIES_PASS = [
    "cp -r @T/good/. .",
    "cp -a @T/good/* .",
    "cp -a @T/good/src/* src/",
    "rsync -a @T/good/ .",
    "cp -r @T/good/src .",
    "cp @T/good/src/a.py src/",
    "cd @T/good && cp -a --parents src/a.py @P",
    "cp -a --parents @T/evil/scripts @P",
    "cd @T && rsync -aR good/./src @P",
    "rsync -a host:x/ build/",
    "scp host:x.txt .",
    "cp $NOPE/*.py .",
    "cp -r $NOPE/* build/",
    "find @T/good | cpio -pdm @T/out",
    "patch -p1 < @T/fix.diff",
    "git apply @T/fix.diff",
    "git apply --check @T/fix.diff",
]


@pytest.mark.parametrize("cmd", COPIES_DENIED)
def test_copy_over_protected_files_denied(labs, cmd):
    check(labs, cmd, "normal", SP)


@pytest.mark.parametrize("cmd", COPIES_PASS)
def test_copy_that_misses_protected_files_passes(labs, cmd):
    check(labs, cmd, "normal", None)


@pytest.mark.parametrize("cmd", ["patch -p1 < @T/bad.diff", "git apply @T/bad.diff"])
def test_patch_onto_protected_files_denied(labs, cmd):
    check(labs, cmd, "normal", SP)
