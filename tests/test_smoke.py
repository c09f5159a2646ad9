"""First end-to-end checks of the four scripts through their real entry points."""

from conftest import load_payload


def test_real_payload_pretool_read_allows_silently(proj):
    p = load_payload("PreToolUse.Read", proj)
    r = proj.hook("sanetools", p)
    assert r.code == 0 and r.stdout == "" and r.stderr == ""


def test_write_blocked_until_research(proj):
    f = proj.path("a.py")
    r = proj.pre("Write", {"file_path": f, "content": "x\n"})
    assert r.denied.startswith("[research-gate]")
    proj.research()
    r = proj.pre("Write", {"file_path": f, "content": "x\n"})
    assert r.denied is None and r.stdout == ""
