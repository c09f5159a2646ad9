"""The hooks run git hardened: a repository config the agent wrote (fsmonitor, hooks, filters,
textconv, an external diff) never runs with the hooks' rights, and the answers stay right."""

import glob
import os
import subprocess

import pytest

from conftest import HOOKS


def git(cwd, *args):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def evil_repo(proj):
    """A repository whose .git/config and hooks run a marker command for every way git can
    be made to run code by a plain status or diff."""
    d = proj.dir
    mark = os.path.join(proj.root, "PWNED")
    git(d, "init", "-q")
    git(d, "config", "user.email", "a@b")
    git(d, "config", "user.name", "a")
    proj.write("f.txt", "one\n")
    proj.write(".gitattributes", "*.txt filter=evil diff=evil\n")
    git(d, "add", ".")
    git(d, "commit", "-qm", "init")
    for key, val in (
        ("core.fsmonitor", "touch %s-fsmonitor; false" % mark),
        ("filter.evil.clean", "touch %s-clean; cat" % mark),
        ("filter.evil.process", "touch %s-process" % mark),
        ("diff.evil.textconv", "touch %s-textconv; cat" % mark),
        ("diff.evil.command", "touch %s-diffcmd" % mark),
        ("diff.external", "touch %s-external" % mark),
    ):
        git(d, "config", key, val)
    for hook in ("post-index-change", "pre-commit", "post-checkout"):
        p = proj.write(".git/hooks/" + hook, "#!/bin/sh\ntouch %s-hook-%s\n" % (mark, hook))
        os.chmod(p, 0o755)
    os.utime(proj.path("f.txt"), (1, 1))  # stat-dirty: git re-reads (and filters) it
    proj.write("f.txt", "one\ntwo\n")
    proj.write("new.txt", "a\nb\nc\n")
    return mark


def markers(mark):
    return sorted(os.path.basename(p) for p in glob.glob(mark + "*"))


def test_the_unhardened_git_would_run_the_agents_code(evil_repo, proj):
    """The fixture is real: plain git runs the markers (so the next tests can fail)."""
    subprocess.run(["git", "diff", "--numstat", "HEAD"], cwd=proj.dir, capture_output=True)
    assert markers(evil_repo)


def test_hardened_git_runs_nothing_and_still_answers(evil_repo, proj, monkeypatch):
    monkeypatch.syspath_prepend(HOOKS)
    from core import gitrun
    from core.learning import baseline, retrieval

    base = baseline.take(proj.dir, 0.0)
    assert base["head"] and {"f.txt", "new.txt"} <= set(base["files"])
    proj.write("f.txt", "one\ntwo\nthree\n")
    diff = baseline.measure(proj.dir, base)
    assert diff["git"] is True and diff["lines"] >= 1, diff
    changed = retrieval.changed_files(proj.dir)
    assert "f.txt" in changed and "new.txt" in changed
    assert gitrun.run(proj.dir, "status", "--porcelain") is not None
    assert "evil" in gitrun.filter_drivers(proj.dir)
    assert markers(evil_repo) == []


def test_hooks_through_the_real_scripts_run_no_repository_code(evil_repo, proj):
    proj.hook("saneprompt", proj.payload("SessionStart", source="startup"))
    proj.prompt("add a feature to the app")
    proj.stop()
    proj.hook("sanestop", proj.payload("SessionEnd", reason="other"))
    assert markers(evil_repo) == []


def test_every_git_the_hooks_run_goes_through_gitrun():
    """One helper, used everywhere: no other module starts git by itself."""
    offenders = []
    for path in glob.glob(os.path.join(HOOKS, "core", "**", "*.py"), recursive=True):
        rel = os.path.relpath(path, HOOKS)
        if rel in ("core/gitrun.py",) or rel.startswith("core/shell/"):
            continue  # the shell analyser only reads commands, it never runs them
        text = open(path).read()
        for needle in ('["git"', "['git'", '("git",', 'posix_spawnp("git"'):
            if needle in text:
                offenders.append((rel, needle))
    assert offenders == []
