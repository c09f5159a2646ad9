"""Wording and small defects a new user meets on day one: plurals, the `help` table, `rb?`,
`status`/`doctor`/`logs` on a project without sane-hooks (read-only: nothing created), and
colour on a terminal only. Through the real CLI and hook scripts."""

import json
import os
import pty
import subprocess
import sys

import pytest

from conftest import HOOKS

ANSI = "\033["


def tree(path):
    out = []
    for root, dirs, files in os.walk(path):
        out += [os.path.relpath(os.path.join(root, n), path) for n in dirs + files]
    return sorted(out)


def test_plural():
    from core.wording import plural

    assert [plural(n, "edit") for n in (0, 1, 2)] == ["0 edits", "1 edit", "2 edits"]
    assert plural(1, "entry") == "1 entry" and plural(3, "entry") == "3 entries"
    assert plural(2, "child", "children") == "2 children"


def test_help_rows_are_aligned(proj):
    text = proj.prompt("help").denied
    rows = [r for r in text.splitlines()[1:]]
    cols = {len(r) - len(r[2:].split("  ", 1)[1].lstrip()) for r in rows if "  " in r[2:]}
    assert len(cols) == 1, text  # every description starts in the same column
    assert all(r.startswith("  ") for r in rows)


def test_breaker_status_says_the_count_once(proj):
    for i in range(3):
        proj.fail("Bash", {"command": "false %d" % i}, error="Exit code %d\nboom" % (i + 1))
    text = proj.prompt("rb?").denied
    assert text.startswith("breaker is TRIPPED: 3 consecutive failures")
    assert text.count("consecutive failures") == 1, text
    assert "rb-" in text
    assert proj.prompt("rb-").denied == "breaker reset: breaker is OK: 0 failures in a row"


def test_session_summary_uses_singulars(proj):
    proj.config("learning: {ticketing: [tissue]}\n")  # no learning gate at this Stop
    proj.research()
    proj.write("a.py", "x\n")
    proj.post("Write", {"file_path": proj.path("a.py"), "content": "x\n"}, {"type": "create"})
    proj.pre("Bash", {"command": "rm -rf /"})
    summary = proj.stop().user
    assert "1 edit in 1 file" in summary and "1 block;" in summary, summary


def test_status_of_a_fresh_installed_project(proj):
    proj.install()
    r = proj.cli("status")
    assert "sessions: none yet" in r.stdout and "None" not in r.stdout, r.stdout
    proj.research()
    r = proj.cli("status")
    assert "sessions: 1 (most recent: %s)" % proj.sid in r.stdout
    assert "0 edits in 0 files" in r.stdout


@pytest.mark.parametrize("command", ["status", "doctor", "logs"])
def test_read_only_commands_create_nothing_outside_an_installed_project(proj, command):
    bare = os.path.join(proj.root, "bare")
    os.makedirs(bare)
    r = proj.cli(command, "--project", bare)
    assert tree(bare) == [], (command, tree(bare), r.stdout, r.stderr)
    assert "sane-hooks is not installed in %s" % os.path.realpath(bare) in r.stdout, r.stdout
    assert "install" in r.stdout


def test_status_still_finds_a_deleted_state(proj):
    proj.research()  # a state and its counter exist
    os.remove(proj.path(".claude", "state.json"))
    r = proj.cli("status")
    assert "state file missing" in r.stdout, r.stdout


def test_logs_says_there_are_none_yet_and_where(proj):
    proj.install()
    r = proj.cli("logs")
    assert r.returncode == 0
    assert "no logs yet" in r.stdout and os.path.join(proj.dir, ".claude") in r.stdout
    assert "sanetools.log" in r.stdout and "not installed" not in r.stdout


def test_doctor_counts_in_words(proj):
    r = proj.cli("doctor")
    last = r.stdout.strip().splitlines()[-1]
    n = int(last.split(" problem")[0].rsplit(", ", 1)[1])
    assert last.endswith("1 problem") if n == 1 else last.endswith("%d problems" % n), last


def run_tty(proj, *args, env=None):
    """sane.py with its stdout on a pseudo-terminal: what the person sees."""
    master, slave = pty.openpty()
    e = dict(proj.env, **(env or {}))
    proc = subprocess.Popen(
        [sys.executable, os.path.join(HOOKS, "sane.py")] + list(args) + ["--project", proj.dir],
        stdout=slave,
        stderr=slave,
        env=e,
        cwd=proj.dir,
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(master)
    return b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.parametrize("command", ["status", "doctor"])
def test_colour_on_a_terminal_only(proj, command):
    proj.install()
    proj.research()
    seen = run_tty(proj, command)
    assert ANSI + "32m" in seen, seen  # green ok
    assert ANSI not in run_tty(proj, command, env={"NO_COLOR": "1"})
    assert ANSI not in proj.cli(command).stdout  # piped: plain


def test_logs_colour_errors_red_and_warnings_yellow(proj):
    from core import log

    log.write(proj.dir, "sanetools", "error", "gate x failed open")
    log.write(proj.dir, "sanetrack", "warn", "config: bad")
    seen = run_tty(proj, "logs")
    assert ANSI + "31m" in seen and ANSI + "33m" in seen, seen
    assert ANSI not in proj.cli("logs").stdout


def test_a_consumed_command_answers_with_continue_false(proj):
    r = proj.prompt("s?")
    assert r.code == 0 and r.json["continue"] is False
    assert r.json["stopReason"] == "safemode is OFF" == r.json["reason"]
    assert r.json["decision"] == "block"  # for a client that does not honour `continue` here
    ordinary = proj.prompt("what does this project do?")
    assert "continue" not in (ordinary.json or {}) and ordinary.denied is None


def test_what_the_person_must_read_goes_into_the_stop_reason():
    from core import hookio

    a = hookio.Answer().consume("safemode is OFF")
    a.tell_user("sane-hooks: the state lock was busy; this call ran read-only.")
    code, out, _ = hookio.render("UserPromptSubmit", a)
    doc = json.loads(out)
    assert code == 0 and doc["stopReason"].splitlines() == [
        "safemode is OFF",
        "sane-hooks: the state lock was busy; this call ran read-only.",
    ]
