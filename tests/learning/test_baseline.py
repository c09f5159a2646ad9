"""Session mode measures what this session changed: a SessionStart baseline (per-file content
hashes), carried over on clear/resume/compact, the fallback to the files the session wrote,
and sane-hooks' own files and .gitignore lines never counted. Through the real scripts."""

import json
import subprocess

import pytest

from learning.support import edit, gate, session_start

BIG = "".join("line %d\n" % i for i in range(50))


def git(proj, *args):
    return subprocess.run(
        ["git"] + list(args),
        cwd=proj.dir,
        check=True,
        capture_output=True,
        text=True,
        env=dict(
            proj.env,
            GIT_AUTHOR_NAME="t",
            GIT_AUTHOR_EMAIL="t@x",
            GIT_COMMITTER_NAME="t",
            GIT_COMMITTER_EMAIL="t@x",
        ),
    ).stdout


@pytest.fixture
def repo(proj):
    """A committed project, then sane-hooks installed and left uncommitted, an untracked .env
    and a file the person was already changing: the 156-lines-on-day-one setup."""
    git(proj, "init", "-q")
    proj.write("src/app.py", BIG)
    proj.write("src/wip.py", BIG)
    proj.write(".gitignore", "*.pyc\n")
    git(proj, "add", "-A", "src", ".gitignore")
    git(proj, "commit", "-q", "-m", "init")
    proj.install()
    proj.write(".env", "".join("KEY_%d=x\n" % i for i in range(30)))
    proj.write("src/wip.py", BIG.replace("line 1", "changed 1") + "more\n" * 40)
    proj.research()
    return proj


def one_line_edit(proj, rel="src/app.py"):
    with open(proj.path(rel)) as fh:
        text = fh.read()
    return edit(proj, rel, text.replace("line 7\n", "line seven\n", 1))


def test_install_left_uncommitted_then_a_one_line_edit_is_under_the_threshold(repo):
    assert session_start(repo).code == 0
    base = gate(repo)["baseline"]
    assert set(base["files"]) >= {".env", "src/wip.py", ".gitignore"}
    assert not [f for f in base["files"] if f.startswith(("scripts/hooks/", ".claude/"))]
    one_line_edit(repo)
    msg = repo.stop().denied
    assert msg.startswith("[learning] This session changed 2 lines (under the auto-skip")
    assert gate(repo)["diff"] == {"lines": 2, "files": 1, "git": True, "since": "start"}
    assert repo.stop(active=True).denied is None  # the one offer, then the automatic skip
    assert gate(repo)["skip"]["decider"] == "auto"
    assert "auto: 2 lines changed" in gate(repo)["skip"]["reason"]


def test_an_already_dirty_file_counts_only_this_sessions_change(repo):
    session_start(repo)
    one_line_edit(repo, "src/wip.py")
    assert "changed 2 lines (under" in repo.stop().denied


def test_a_bigger_change_blocks_and_says_since_the_session_started(repo):
    session_start(repo)
    edit(repo, "src/new.py", "x = 1\n" * 12)
    msg = repo.stop().denied
    assert "(12 lines changed in 1 file since the session started)" in msg


def test_untouched_dirty_files_do_not_count_when_another_is_written(repo):
    session_start(repo)
    edit(repo, "src/wip.py", open(repo.path("src/wip.py")).read())  # rewritten, same bytes
    assert repo.stop().denied is None  # nothing changed: no reflection wanted


def test_without_a_baseline_only_the_files_the_session_wrote_count(repo):
    one_line_edit(repo)  # no SessionStart: installed mid-session
    assert "baseline" not in gate(repo)
    msg = repo.stop().denied
    assert "This session changed 2 lines (under" in msg
    assert gate(repo)["diff"]["since"] == "written"


def test_the_baseline_is_carried_over_on_clear_resume_and_compact(repo):
    session_start(repo)
    first = gate(repo)["baseline"]
    repo.write("src/later.py", "y = 2\n" * 20)  # changed by the old session id
    for n, source in enumerate(("clear", "resume", "compact")):
        sid = "sess-next-%d" % n
        session_start(repo, sid=sid, source=source)
        assert gate(repo, sid)["baseline"] == first, source
        old_sid, repo.sid = repo.sid, sid
    one_line_edit(repo)
    assert "22 lines changed in 2 files since the session started" in repo.stop().denied
    repo.sid = old_sid


def test_a_reflected_session_does_not_hand_its_baseline_on(repo):
    session_start(repo)
    edit(repo, "src/new.py", "x = 1\n" * 12)
    repo.stop()
    from learning.support import agent_cli

    assert agent_cli(repo, "learn", "skip", repo.sid, "generated data")[1].returncode == 0
    session_start(repo, sid="sess-after", source="clear")
    assert gate(repo, "sess-after")["baseline"]["at"] >= gate(repo)["baseline"]["at"]
    assert "src/new.py" in gate(repo, "sess-after")["baseline"]["files"]


def test_install_mid_session_adds_no_lines_of_its_own(repo):
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "installed")
    repo.cli("uninstall", repo.dir)
    session_start(repo)
    repo.install()  # settings.json, its backup, .gitignore lines: all ours
    with open(repo.path(".gitignore")) as fh:
        text = fh.read()
    edit(repo, ".gitignore", text + "build/\n")
    msg = repo.stop().denied
    assert "This session changed 1 line (under" in msg, msg


def test_outside_git_no_baseline_and_the_size_is_unknown(proj):
    proj.install()
    proj.research()
    session_start(proj)
    assert gate(proj)["baseline"] is None
    edit(proj, "src/a.py", "a = 1\n")
    assert "size unknown: not a git repository" in proj.stop().denied


def test_baseline_is_cheap_and_bounded(repo):
    from core.learning import baseline

    for i in range(baseline.BASELINE_FILES + 5):
        repo.write("gen/f%d.txt" % i, "x\n")
    session_start(repo)
    assert gate(repo)["baseline"] is None  # too many dirty files: the written-files fallback
    assert "BaselineMissing" in json.dumps(gate(repo)["trace"])


def test_measure_in_process_with_and_without_time_to_hash(repo, monkeypatch):
    from core.learning import baseline

    base = baseline.take(repo.dir, 0.0)
    assert base is not None and "src/wip.py" in base["files"]
    with open(repo.path("src/wip.py"), "a") as fh:
        fh.write("one more\n")
    assert baseline.measure(repo.dir, base)["lines"] == 1
    monkeypatch.setattr(baseline, "MEASURE_SECONDS", -1.0)  # no time to hash: sizes decide
    assert baseline.measure(repo.dir, base)["lines"] == 1
    repo.write(".env", open(repo.path(".env")).read())  # same bytes, same size
    assert baseline.measure(repo.dir, base)["lines"] == 1
