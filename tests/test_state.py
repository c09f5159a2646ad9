"""The signed state: tamper, replay, foreign and missing states, counters, concurrency, kills."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import HOOKS


def state_path(proj):
    return proj.path(".claude", "state.json")


def counters(proj):
    with open(os.path.join(proj.home, ".config", "sane-hooks", "counters.json")) as fh:
        return json.load(fh)


def write_file(proj):
    return proj.pre("Write", {"file_path": proj.path("a.py"), "content": "x\n"})


def audit_events(proj):
    try:
        with open(proj.path(".claude", "audit.jsonl")) as fh:
            return [json.loads(x) for x in fh]
    except FileNotFoundError:
        return []


def test_first_run_gets_defaults_and_a_counter(proj):
    proj.prompt("s+")
    st = proj.state()
    assert st["verified"] and st["safemode"]["active"] is True
    assert counters(proj)[proj.dir] == st["seq"] >= 1
    doc = json.load(open(state_path(proj)))
    assert set(doc) == {"sig", "state"} and len(doc["sig"]) == 64


@pytest.mark.parametrize(
    "mangle",
    [
        lambda d: d["state"]["safemode"].update(active=False),  # hand-edited value
        lambda d: d.update(sig="0" * 64),  # forged signature
        lambda d: d.pop("sig"),  # missing signature
        lambda d: d["state"].update(seq=d["state"]["seq"] + 5),  # edited sequence
    ],
)
def test_tampered_state_locks_mutations_but_allows_reads(proj, mangle):
    proj.prompt("s+")
    doc = json.load(open(state_path(proj)))
    mangle(doc)
    with open(state_path(proj), "w") as fh:
        json.dump(doc, fh)
    r = write_file(proj)
    assert r.denied.startswith("[tamper]") and "unlock" in r.denied
    assert "failed verification" in r.user  # the person is told, not silently
    assert proj.pre("Read", {"file_path": proj.path("a.py")}).denied is None
    r = proj.pre("Bash", {"command": "rm -rf build"})
    assert r.denied.startswith("[tamper]")
    assert any(e["event"] == "tamper" for e in audit_events(proj))
    st = proj.state()
    assert st["tamper"]["locked"] is True
    # the forged state never grants more: safemode was ON in the genuine state; the lock
    # blocks every mutation regardless
    r = proj.prompt("unlock")
    assert "tamper lock lifted" in r.denied
    assert proj.state()["tamper"]["locked"] is False


def test_replayed_older_copy_is_tamper(proj):
    proj.prompt("s+")
    old = open(state_path(proj)).read()
    proj.prompt("s-")
    proj.prompt("rb-")
    with open(state_path(proj), "w") as fh:
        fh.write(old)  # genuinely signed, but older than the counter
    r = write_file(proj)
    assert r.denied.startswith("[tamper]") and "replay" in r.denied


def test_state_signed_for_another_project_is_tamper_and_unlock_adopts_a_move(proj, tmp_path):
    proj.prompt("s+")
    moved = os.path.realpath(str(tmp_path / "moved"))
    os.rename(proj.dir, moved)
    proj.dir = moved
    r = proj.cli("doctor")
    assert r.returncode == 1 and "moved" in r.stdout
    r = write_file(proj)
    assert r.denied.startswith("[tamper]") and "another project" in r.denied
    r = proj.cli("unlock")
    assert r.returncode == 0 and "Adopted" in r.stdout
    st = proj.state()
    assert st["tamper"]["locked"] is False and st["safemode"]["active"] is True


def test_deleted_state_after_a_write_is_tamper(proj):
    proj.prompt("s+")
    os.unlink(state_path(proj))
    assert write_file(proj).denied.startswith("[tamper]")


def test_deleted_counters_with_a_state_is_tamper(proj):
    proj.prompt("s+")
    os.unlink(os.path.join(proj.home, ".config", "sane-hooks", "counters.json"))
    r = write_file(proj)
    assert r.denied.startswith("[tamper]") and "counter" in r.denied


def test_unreadable_garbage_state_is_tamper(proj):
    proj.prompt("s+")
    with open(state_path(proj), "wb") as fh:
        fh.write(b"\x00\xffnot json")
    assert write_file(proj).denied.startswith("[tamper]")


def test_secret_from_key_file_is_0600_and_outside_project(proj):
    env = {"SANE_HOOK_SECRET": ""}
    proj.env.pop("SANE_HOOK_SECRET")
    proj.prompt("s+")
    key = os.path.join(proj.home, ".config", "sane-hooks", "secret")
    assert os.stat(key).st_mode & 0o777 == 0o600
    assert not any("secret" in f for f in os.listdir(proj.path(".claude")))
    assert proj.state()["safemode"]["active"] is True
    del env


def _spawn(proj, script, payload):
    e = dict(proj.env, CLAUDE_PROJECT_DIR=proj.dir)
    return subprocess.Popen(
        [sys.executable, os.path.join(HOOKS, script + ".py")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=e,
        cwd=proj.dir,
    ), json.dumps(payload).encode()


def test_16_concurrent_tracks_lose_no_edit(proj):
    procs = []
    for i in range(16):
        f = proj.path("f%d.py" % i)
        p, data = _spawn(
            proj,
            "sanetrack",
            proj.payload(
                "PostToolUse",
                tool_name="Write",
                tool_input={"file_path": f, "content": "x"},
                tool_response={"type": "create", "filePath": f},
                tool_use_id="toolu_c%d" % i,
            ),
        )
        procs.append((p, data))
    for p, data in procs:
        p.stdin.write(data)
        p.stdin.close()
    for p, _ in procs:
        assert p.wait(timeout=60) == 0
    edits = proj.session_state()["edits"]
    assert edits["count"] == 16 and edits["unique_count"] == 16
    assert proj.state()["verified"]


def test_kill_during_writes_never_tampers_or_loses_completed_updates(proj):
    done = 0
    for round_ in range(6):
        procs = []
        for i in range(8):
            f = proj.path("k%d_%d.py" % (round_, i))
            procs.append(
                _spawn(
                    proj,
                    "sanetrack",
                    proj.payload(
                        "PostToolUse",
                        tool_name="Write",
                        tool_input={"file_path": f, "content": "x"},
                        tool_response={},
                        tool_use_id="toolu_k%d_%d" % (round_, i),
                    ),
                )
            )
        for p, data in procs:
            p.stdin.write(data)
            p.stdin.close()
        time.sleep(0.02 * (round_ % 3))
        victim = procs[round_ % 8][0]
        victim.send_signal(signal.SIGKILL)
        for p, _ in procs:
            p.wait(timeout=60)
            done += p.returncode == 0
        st = proj.state()
        assert st["verified"] and not st["tamper"]["locked"]
    # every hook that exited 0 had its update committed (a killed one may or may not have)
    assert proj.session_state()["edits"]["count"] >= done


def test_lock_held_too_long_denies_mutations_with_busy_but_allows_reads(proj):
    proj.prompt("s-")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import fcntl,os,sys,time;fd=os.open(sys.argv[1],os.O_RDWR|os.O_CREAT);"
                "fcntl.flock(fd,fcntl.LOCK_EX);print('held',flush=True);time.sleep(30)"
            ),
            proj.path(".claude", "state.json.lock"),
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout.readline().strip() == b"held"
        t = time.time()
        r = write_file(proj)
        assert r.denied.startswith("[busy]") and time.time() - t < 10
        assert "lock" in r.user
        assert proj.pre("Read", {"file_path": proj.path("a.py")}).denied is None
    finally:
        holder.kill()
        holder.wait()
    assert proj.state()["verified"]


def test_older_schema_state_migrates_key_by_key(proj):
    sys.path.insert(0, HOOKS)
    from core import state as st_mod

    old = {
        "schema": 0,
        "seq": 0,
        "project": proj.dir,
        "safemode": {"active": True},
        "sessions": {"s": {"edits": {"count": 2}}},
    }
    migrated = st_mod.migrate(old, proj.dir)
    assert (
        migrated["circuit_breaker"]["tripped"] is False and migrated["safemode"]["active"] is True
    )
    sess = st_mod.migrate_session(migrated["sessions"]["s"])
    assert sess["edits"]["count"] == 2 and sess["edits"]["unique_files"] == []
    a, b = st_mod.defaults(), st_mod.defaults()
    a["circuit_breaker"]["error_signatures"]["x"] = 1
    assert b["circuit_breaker"]["error_signatures"] == {}  # defaults are never shared
