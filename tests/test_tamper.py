"""Tamper never grants and never lies: the last verified state lives outside the project,
`unlock` restores it, the status answers say when they are unverified, and a failure seen
while the lock is busy is counted at the next write. Everything through the real scripts."""

import glob
import json
import os
import subprocess
import sys
import time

import pytest

BAD = "Exit code 1\nboom"


def state_path(proj):
    return proj.path(".claude", "state.json")


def verified_files(proj):
    return glob.glob(os.path.join(proj.home, ".config", "sane-hooks", "verified", "*.json"))


def trip_breaker(proj):
    for i in range(3):
        proj.fail("Bash", {"command": "make test%d" % i}, error=BAD)


def forge(doc):
    """What an agent would write: everything cleared, the old signature kept."""
    st = doc["state"]
    st["safemode"]["active"] = False
    st["circuit_breaker"].update(tripped=False, failures=0, trip_reason=None)
    st["enforcement"].update(halted=False, halted_reason=None)


def edit_state(proj):
    doc = json.load(open(state_path(proj)))
    forge(doc)
    with open(state_path(proj), "w") as fh:
        json.dump(doc, fh)


def delete_state(proj):
    os.unlink(state_path(proj))


def replay_state(proj, old):
    with open(state_path(proj), "w") as fh:
        fh.write(old)


def halt_enforcement(proj):
    proj.config("enforcement: {max_repeats: 2}\n")
    for _ in range(2):
        r = proj.pre("Read", {"file_path": proj.path(".env")})
        assert "[blocked-path]" in r.denied
    assert proj.state()["enforcement"]["halted"] is True


def strict_state(proj):
    """safemode on, the breaker tripped, the enforcement halted: all genuine."""
    halt_enforcement(proj)
    trip_breaker(proj)
    proj.prompt("s+")
    st = proj.state()
    assert st["safemode"]["active"] and st["circuit_breaker"]["tripped"]
    assert verified_files(proj), "the verified copy is written with the state"
    return st


@pytest.mark.parametrize("how", ["edit", "delete", "replay", "garbage"])
def test_locked_status_answers_say_unverified_and_show_the_last_verified_values(proj, how):
    proj.prompt("rb?")
    old = open(state_path(proj)).read()  # genuinely signed, taken before any of it happened
    strict_state(proj)
    if how == "replay":
        replay_state(proj, old)
    elif how == "edit":
        edit_state(proj)
    elif how == "delete":
        delete_state(proj)
    else:
        with open(state_path(proj), "wb") as fh:
            fh.write(b"\x00garbage")
    r = proj.pre("Write", {"file_path": proj.path("a.py"), "content": "x\n"})
    assert r.denied.startswith("[tamper]")
    rb = proj.prompt("rb?").denied
    assert "breaker is TRIPPED" in rb and "UNVERIFIED" in rb and "last verified state" in rb
    assert "enforcement HALTED" in rb
    s = proj.prompt("s?").denied
    assert s.startswith("safemode is ON") and "UNVERIFIED" in s
    st = proj.cli("status")
    assert st.returncode == 0
    assert "UNVERIFIED" in st.stdout and "last verified state" in st.stdout
    assert "safemode is ON" in st.stdout and "breaker is TRIPPED" in st.stdout
    assert "enforcement HALTED" in st.stdout
    doc = json.loads(proj.cli("status", "--json").stdout)
    assert doc["verified"] is False and doc["shown"] == "last verified"


@pytest.mark.process
@pytest.mark.parametrize("via", ["prompt", "cli"])
def test_unlock_restores_the_last_verified_state(proj, via):
    strict_state(proj)
    edit_state(proj)
    assert proj.pre("Bash", {"command": "rm -rf build"}).denied.startswith("[tamper]")
    if via == "prompt":
        text = proj.prompt("unlock").denied
    else:
        r = proj.cli("unlock")
        assert r.returncode == 0, r.stderr
        text = r.stdout
    assert "tamper lock lifted" in text and "last verified" in text
    assert "safemode is ON" in text and "breaker is TRIPPED" in text
    st = proj.state()
    assert st["verified"] is True and st["tamper"]["locked"] is False
    assert st["safemode"]["active"] is True
    assert st["circuit_breaker"]["tripped"] is True
    assert st["enforcement"]["halted"] is True
    # the answers are plain again, and the gates still hold
    s = proj.prompt("s?").denied
    assert s == "safemode is ON"
    r = proj.pre("Write", {"file_path": proj.path("a.py"), "content": "x\n"})
    assert r.denied.startswith(("[enforcement]", "[breaker]", "[safemode]"))


def test_unlock_without_a_verified_copy_starts_from_defaults_and_says_so(proj):
    strict_state(proj)
    for f in verified_files(proj):
        os.unlink(f)
    edit_state(proj)
    proj.pre("Write", {"file_path": proj.path("a.py"), "content": "x\n"})
    s = proj.prompt("s?").denied
    assert "UNVERIFIED" in s and "defaults" in s and "no verified copy exists" in s
    text = proj.prompt("unlock").denied
    assert "DEFAULTS" in text and "No verified copy exists" in text and "s+" in text
    assert proj.state()["tamper"]["locked"] is False


def test_a_forged_verified_copy_is_not_trusted(proj):
    strict_state(proj)
    for path in verified_files(proj):
        doc = json.load(open(path))
        forge(doc)
        with open(path, "w") as fh:
            json.dump(doc, fh)
    edit_state(proj)
    proj.pre("Write", {"file_path": proj.path("a.py"), "content": "x\n"})
    s = proj.prompt("s?").denied
    assert "does not verify" in s
    assert "DEFAULTS" in proj.prompt("unlock").denied


def test_a_torn_newest_slot_falls_back_to_the_state_before_it(proj):
    strict_state(proj)
    proj.prompt("s-")  # the newest write: safemode off
    proj.prompt("s+")  # and on again: this slot is torn below, the other says OFF
    slots = sorted(verified_files(proj), key=lambda p: json.load(open(p))["state"]["seq"])
    with open(slots[-1], "r+") as fh:
        fh.truncate(100)
    edit_state(proj)
    proj.pre("Write", {"file_path": proj.path("a.py"), "content": "x\n"})
    s = proj.prompt("s?").denied
    assert s.startswith("safemode is OFF") and "last verified state" in s


def test_the_verified_copy_is_not_updated_while_locked(proj):
    strict_state(proj)
    before = {p: open(p).read() for p in verified_files(proj)}
    edit_state(proj)
    proj.pre("Write", {"file_path": proj.path("a.py"), "content": "x\n"})
    proj.prompt("s-")  # the person may still change things while locked
    proj.post("Read", {"file_path": proj.path("a.py")})
    assert {p: open(p).read() for p in verified_files(proj)} == before
    assert "last verified" in proj.prompt("unlock").denied
    assert {p: open(p).read() for p in verified_files(proj)} != before  # written again


def test_tools_cannot_touch_the_verified_copy(proj):
    strict_state(proj)
    path = verified_files(proj)[0]
    d = os.path.dirname(path)
    for tool, ti in (
        ("Read", {"file_path": path}),
        ("Write", {"file_path": path, "content": "{}"}),
        ("Grep", {"pattern": "sig", "path": d}),
        ("Bash", {"command": "cat %s" % path}),
        ("Bash", {"command": "cp /dev/null %s" % path}),
    ):
        r = proj.pre(tool, ti)
        assert r.denied and r.denied.startswith("[self-protection]"), (tool, ti, r.denied)


def _hold_lock(proj):
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import fcntl,os,sys;fd=os.open(sys.argv[1],os.O_RDWR|os.O_CREAT);"
                "fcntl.flock(fd,fcntl.LOCK_EX);print('held',flush=True);sys.stdin.read()"
            ),
            proj.path(".claude", "state.json.lock"),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert holder.stdout.readline().strip() == b"held"
    return holder


@pytest.mark.process
def test_failures_seen_while_the_lock_is_busy_are_counted_at_the_next_write(proj):
    proj.prompt("rb?")
    holder = _hold_lock(proj)
    try:
        t = time.time()
        for i in range(3):
            r = proj.fail("Bash", {"command": "pytest -k t%d" % i}, error=BAD)
            assert "busy" in r.user
        assert time.time() - t < 20
    finally:
        holder.stdin.close()
        holder.wait()
    # nothing was lost: the next hook that holds the lock counts them before its own event
    rb = proj.prompt("rb?").denied
    assert rb.startswith("breaker is TRIPPED") and "3 consecutive failures" in rb
    st = proj.state()
    assert st["circuit_breaker"]["tripped"] is True
    r = proj.pre("Write", {"file_path": proj.path("a.py"), "content": "x\n"})
    assert r.denied.startswith("[breaker]")
    # counted once: the deferred file is gone
    d = os.path.join(proj.home, ".config", "sane-hooks", "verified")
    assert not [f for f in os.listdir(d) if "pending" in f]
    events = [json.loads(x) for x in open(proj.path(".claude", "audit.jsonl"))]
    assert any(e["event"] == "deferred_failures_counted" and e["count"] == 3 for e in events)


@pytest.mark.process
def test_a_deferred_failure_counts_before_a_later_success_resets_the_streak(proj):
    proj.fail("Bash", {"command": "make a"}, error=BAD)
    holder = _hold_lock(proj)
    try:
        proj.fail("Bash", {"command": "make b"}, error=BAD)
    finally:
        holder.stdin.close()
        holder.wait()
    r = proj.fail("Bash", {"command": "make c"}, error=BAD)
    assert "TRIPPED" in r.user
    assert proj.state()["circuit_breaker"]["failures"] == 3


def test_deleting_the_state_and_the_counter_entry_is_still_tamper(proj):
    strict_state(proj)
    os.unlink(state_path(proj))
    os.unlink(os.path.join(proj.home, ".config", "sane-hooks", "counters.json"))
    r = proj.pre("Write", {"file_path": proj.path("a.py"), "content": "x\n"})
    assert r.denied.startswith("[tamper]") and "verified copy exists" in r.denied
    assert "the last verified state" in r.user  # the person hears what the hooks keep
    assert proj.prompt("s?").denied.startswith("safemode is ON")


def test_the_person_is_told_when_the_lock_falls_back_to_defaults(proj):
    proj.prompt("s+")
    for f in verified_files(proj):
        os.unlink(f)
    edit_state(proj)
    r = proj.pre("Write", {"file_path": proj.path("a.py"), "content": "x\n"})
    assert r.denied.startswith("[tamper]") and "defaults: no verified copy exists" in r.user


def test_deferred_failures_survive_a_dead_taker_and_a_late_writer(proj, monkeypatch):
    from conftest import HOOKS

    monkeypatch.syspath_prepend(HOOKS)
    monkeypatch.setenv("XDG_CONFIG_HOME", os.path.join(proj.home, ".config"))
    from core import state

    def fail(n):
        state.defer_failure(
            proj.dir,
            {"hook_event_name": "PostToolUseFailure", "tool_name": "Bash", "error": "e%d" % n},
        )

    fail(1)
    recs, n = state.take_pending(proj.dir)  # a taker that dies here, before its write
    assert [r["error"] for r in recs] == ["e1"]
    fail(2)  # a new pending file meanwhile
    recs, n = state.take_pending(proj.dir)  # the next taker finishes the dead one's first
    assert [r["error"] for r in recs] == ["e1"]
    with open(state.pending_path(proj.dir) + ".taken", "ab") as fh:
        fh.write(b'{"hook_event_name": "PostToolUseFailure", "error": "late"}\n')
    state.done_pending(proj.dir, n)
    recs, n = state.take_pending(proj.dir)
    assert sorted(r["error"] for r in recs) == ["e2", "late"]
    state.done_pending(proj.dir, n)
    assert state.take_pending(proj.dir) == ([], 0)
