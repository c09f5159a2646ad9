"""Optimistic locking through the real hooks: a file changed since this agent last read or
wrote it is [stale-file]; per session and agent; bounded; the agent's own writes are not stale."""

import os
import time

import pytest


@pytest.fixture
def lab(proj):
    proj.research()
    proj.write("src/a.py", "one\ntwo\n")
    return proj


def read(proj, rel, **kw):
    f = proj.path(rel)
    with open(f) as fh:
        content = fh.read()
    return proj.post(
        "Read",
        {"file_path": f},
        {"type": "text", "file": {"filePath": f, "content": content}},
        **kw,
    )


def edit(proj, rel, **kw):
    return proj.pre(
        "Edit", {"file_path": proj.path(rel), "old_string": "one", "new_string": "uno"}, **kw
    )


def own_edit(proj, rel, old="one", new="uno", **kw):
    """The agent's Edit as Claude Code runs it: PreToolUse, the change on disk, PostToolUse."""
    r = proj.pre("Edit", {"file_path": proj.path(rel), "old_string": old, "new_string": new}, **kw)
    assert r.denied is None, r.denied
    p = proj.path(rel)
    with open(p) as fh:
        text = fh.read()
    with open(p, "w") as fh:
        fh.write(text.replace(old, new, 1))
    proj.post(
        "Edit",
        {"file_path": p, "old_string": old, "new_string": new},
        {"filePath": p, "oldString": old, "newString": new},
        **kw,
    )


def other_process_writes(proj, rel, text):
    time.sleep(0.01)
    with open(proj.path(rel), "w") as fh:
        fh.write(text)


def test_never_read_is_allowed(lab):
    assert edit(lab, "src/a.py").denied is None


def test_unchanged_since_read_is_allowed(lab):
    read(lab, "src/a.py")
    assert edit(lab, "src/a.py").denied is None


def test_changed_by_another_process_is_stale(lab):
    read(lab, "src/a.py")
    other_process_writes(lab, "src/a.py", "one\nTWO\n")
    r = edit(lab, "src/a.py")
    assert (
        r.denied.startswith("[stale-file]")
        and "src/a.py" in r.denied
        and "Re-read it first" in r.denied
    )
    r = lab.pre("Write", {"file_path": lab.path("src/a.py"), "content": "new\n"})
    assert r.denied.startswith("[stale-file]")
    read(lab, "src/a.py")  # the way forward
    assert edit(lab, "src/a.py").denied is None


def test_same_content_touched_is_not_stale(lab):
    read(lab, "src/a.py")
    st = os.stat(lab.path("src/a.py"))
    os.utime(lab.path("src/a.py"), ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    assert edit(lab, "src/a.py").denied is None


def test_deleted_after_read_is_stale(lab):
    read(lab, "src/a.py")
    os.unlink(lab.path("src/a.py"))
    r = edit(lab, "src/a.py")
    assert r.denied.startswith("[stale-file]") and "deleted" in r.denied
    r = lab.pre("Write", {"file_path": lab.path("src/a.py"), "content": "x\n"})
    assert r.denied.startswith("[stale-file]")


def test_own_writes_are_not_stale(lab):
    read(lab, "src/a.py")
    own_edit(lab, "src/a.py", "one", "uno")
    own_edit(lab, "src/a.py", "two", "dos")
    p = lab.path("src/a.py")
    assert lab.pre("Write", {"file_path": p, "content": "x\n"}).denied is None
    with open(p, "w") as fh:
        fh.write("x\n")
    lab.post(
        "Write",
        {"file_path": p, "content": "x\n"},
        {"type": "update", "filePath": p, "content": "x\n"},
    )
    assert lab.pre("Write", {"file_path": p, "content": "y\n"}).denied is None


def test_own_shell_write_is_not_stale(lab):
    read(lab, "src/a.py")
    cmd = "sed -i s/one/uno/ src/a.py"
    assert lab.pre("Bash", {"command": cmd}).denied is None
    other_process_writes(lab, "src/a.py", "uno\ntwo\n")  # what sed did
    lab.post("Bash", {"command": cmd}, {"stdout": "", "stderr": ""})
    assert (
        lab.pre(
            "Edit", {"file_path": lab.path("src/a.py"), "old_string": "uno", "new_string": "one"}
        ).denied
        is None
    )


def test_own_shell_delete_then_write_is_not_stale(lab):
    read(lab, "src/a.py")
    os.unlink(lab.path("src/a.py"))
    lab.post("Bash", {"command": "rm src/a.py"}, {"stdout": "", "stderr": ""})
    assert lab.pre("Write", {"file_path": lab.path("src/a.py"), "content": "x\n"}).denied is None


def test_subagent_change_makes_the_main_threads_copy_stale(lab):
    sub = {"agent_id": "agent-7", "agent_type": "general-purpose"}
    read(lab, "src/a.py")  # main thread
    read(lab, "src/a.py", **sub)  # the subagent
    own_edit(lab, "src/a.py", **sub)  # the subagent edits: fine for it
    r = edit(lab, "src/a.py")  # the main thread's view is now stale
    assert r.denied.startswith("[stale-file]")
    assert (
        lab.pre(
            "Edit",
            {"file_path": lab.path("src/a.py"), "old_string": "uno", "new_string": "one"},
            **sub,
        ).denied
        is None
    )


def test_other_session_has_its_own_baselines(lab):
    read(lab, "src/a.py")
    other_process_writes(lab, "src/a.py", "changed\n")
    r = lab.pre(
        "Edit",
        {"file_path": lab.path("src/a.py"), "old_string": "changed", "new_string": "x"},
        session_id="other-session",
    )
    assert r.denied is None or not r.denied.startswith("[stale-file]")


def test_failed_read_records_nothing(lab):
    f = lab.path("src/a.py")
    lab.fail("Read", {"file_path": f}, error="File does not exist.")
    other_process_writes(lab, "src/a.py", "changed\n")
    assert edit(lab, "src/a.py").denied is None


def test_symlinked_path_shares_the_baseline(lab):
    os.symlink(lab.path("src"), lab.path("alias"))
    read(lab, "alias/a.py")
    other_process_writes(lab, "src/a.py", "changed\n")
    assert edit(lab, "src/a.py").denied.startswith("[stale-file]")


def test_stale_check_off(lab):
    lab.config("intents: {stale_check: false}\n")
    read(lab, "src/a.py")
    other_process_writes(lab, "src/a.py", "changed\n")
    assert edit(lab, "src/a.py").denied is None


def test_baselines_are_bounded_in_state(lab):
    for i in range(110):
        f = lab.write("many/f%d.txt" % i, "x%d\n" % i)
        lab.post(
            "Read", {"file_path": f}, {"type": "text", "file": {"filePath": f, "content": "x"}}
        )
    reads = lab.session_state()["reads"]
    assert len(reads["main"]) <= 100
    assert lab.path("many/f109.txt") in reads["main"]  # the newest kept


def test_huge_file_baseline_streams(lab):
    p = lab.path("big.bin")
    with open(p, "wb") as fh:
        for _ in range(64):
            fh.write(os.urandom(1 << 20))
    lab.post("Read", {"file_path": p}, {"type": "text", "file": {"filePath": p, "content": "x"}})
    with open(p, "r+b") as fh:
        fh.seek(40 << 20)
        fh.write(b"changed")
    r = lab.pre("Edit", {"file_path": p, "old_string": "a", "new_string": "b"})
    assert r.denied.startswith("[stale-file]")


def test_giant_file_baseline_by_size_and_mtime(lab):
    p = lab.path("disk.img")
    with open(p, "wb") as fh:
        fh.truncate(100 * 1024 * 1024)
    lab.post("Read", {"file_path": p}, {"type": "text", "file": {"filePath": p, "content": "x"}})
    assert lab.pre("Write", {"file_path": p, "content": "x"}).denied is None
    st = os.stat(p)
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert lab.pre("Write", {"file_path": p, "content": "x"}).denied.startswith("[stale-file]")
