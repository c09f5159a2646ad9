"""The in-process runner (tests/inprocess.py) is faithful: the same calls give the same answers
as real processes, nothing leaks between projects, and every module cache is reset."""

from __future__ import annotations

import ast
import json
import os
import sys

import pytest

import inprocess
from conftest import HOOKS, Project, load_payload


def _module_name(path: str) -> str:
    rel = os.path.relpath(path, HOOKS)[: -len(".py")]
    return rel.replace(os.sep, ".").removesuffix(".__init__")


def _written_globals(tree: ast.Module) -> set[str]:
    """Module-level names that a function rebinds (`global x`) or mutates in place
    (`x[k] = v`, `x.a = v`, `x.clear()`, `x.append(...)`, ...) without a local of that name."""
    top = set()
    for node in tree.body:
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        for t in targets:
            for n in ast.walk(t):
                if isinstance(n, ast.Name):
                    top.add(n.id)
    mutators = {
        "append", "extend", "insert", "pop", "popitem", "clear", "update", "setdefault",
        "add", "discard", "remove", "__setitem__",
    }  # fmt: skip
    found = set()
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        local = {a.arg for a in ast.walk(fn.args) if isinstance(a, ast.arg)}
        for n in ast.walk(fn):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                local.add(n.id)
        for n in ast.walk(fn):
            if isinstance(n, ast.Global):
                found.update(n.names)
            elif isinstance(n, (ast.Subscript, ast.Attribute)) and isinstance(n.ctx, ast.Store):
                if isinstance(n.value, ast.Name):
                    found.add(n.value.id)
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
                base = n.func.value
                if isinstance(base, ast.Name) and n.func.attr in mutators:
                    found.add(base.id)
        found -= local - {g for n in ast.walk(fn) if isinstance(n, ast.Global) for g in n.names}
    return found & top


def test_every_module_cache_is_reset_or_declared_shared():
    """A module-level value a function changes outlives one call in-process; a real process
    starts without it. Each must be reset by the runner (CACHES) or declared SHARED."""
    known = {(m, n) for m, n, _ in inprocess.CACHES} | set(inprocess.SHARED)
    found = set()
    for d, _, files in os.walk(HOOKS):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(d, f)
                with open(path, encoding="utf-8") as fh:
                    tree = ast.parse(fh.read())
                found |= {(_module_name(path), n) for n in _written_globals(tree)}
    assert found - known == set(), "add these to CACHES or SHARED in tests/inprocess.py"
    assert ("core.shell.analysis", "_cache") in found  # the scan itself still sees caches


def _scenario(p: Project) -> list:
    """A short session touching the four scripts and the CLI; what each call answered."""
    f = p.path("a.py")
    calls = [
        p.hook("saneprompt", load_payload("SessionStart", p)),
        p.prompt("fix the login bug"),
        p.pre("Write", {"file_path": f, "content": "x\n"}),
        p.pre("Bash", {"command": "cat ~/.ssh/id_rsa"}),
        p.hook("sanetools", None, raw=b"not json"),
        p.hook("sanetools", None, raw=b""),
    ]
    p.research()
    calls += [
        p.pre("Write", {"file_path": f, "content": "x\n"}),
        p.post("Write", {"file_path": f, "content": "x\n"}, {"type": "create", "filePath": f}),
        p.fail("Bash", {"command": "make"}),
        p.stop(),
        p.hook("sanestop", p.payload("SessionEnd", reason="other")),
    ]
    out = [(r.code, r.stdout, r.stderr) for r in calls]
    for args in (("status", "--json"), ("config",), ("nonsense",), ("--help",)):
        r = p.cli(*args)
        text = r.stdout
        if args[0] == "status":
            doc = json.loads(text)
            text = json.dumps({k: doc[k] for k in ("verified", "safemode")}, sort_keys=True)
        out.append((r.returncode, text.replace(p.root, "<root>"), r.stderr))
    return [(c, o.replace(p.root, "<root>"), e.replace(p.root, "<root>")) for c, o, e in out]


def test_in_process_answers_equal_real_process_answers(tmp_path):
    a = Project(str(tmp_path / "a"), process=False)
    b = Project(str(tmp_path / "b"), process=True)
    a.sid = b.sid = "sess-same"
    got, want = _scenario(a), _scenario(b)
    for i, (x, y) in enumerate(zip(got, want)):
        assert x == y, "call %d differs: in-process %r, process %r" % (i, x, y)
    assert len(got) == len(want)


def test_in_process_calls_leave_the_test_process_as_they_found_it(proj):
    env, cwd, argv = dict(os.environ), os.getcwd(), list(sys.argv)
    std = sys.stdin, sys.stdout, sys.stderr
    proj.pre("Bash", {"command": "ls ~"}, env={"SANE_SAFEMODE__X": "1"})
    proj.cli("status")
    assert dict(os.environ) == env and os.getcwd() == cwd and sys.argv == argv
    assert (sys.stdin, sys.stdout, sys.stderr) == std


def test_home_does_not_leak_between_projects(tmp_path):
    """Each project has its own HOME: `~` in a command means that project's home."""
    for name in ("one", "two"):
        p = Project(str(tmp_path / name))
        p.research()
        r = p.pre("Bash", {"command": "cat ~/.ssh/id_ed25519"})
        assert r.denied and r.denied.startswith("[blocked-path]")
        r = p.pre("Bash", {"command": "cat %s" % os.path.join(p.home, ".ssh", "id_ed25519")})
        assert r.denied and r.denied.startswith("[blocked-path]")
        r = p.pre("Bash", {"command": "cat ~/notes.txt"})
        assert r.denied is None, r.denied


def test_an_exit_code_and_a_traceback_surface_as_a_process_would_show_them(proj):
    bad = proj.write("boom.py", "import sys\nsys.stdout.write('out')\nraise ValueError('x')\n")
    r = proj.run(bad, env=proj.env)
    assert r.returncode == 1 and r.stdout == b"out" and b"Traceback" in r.stderr
    bye = proj.write("bye.py", "import sys\nprint('partial')\nsys.exit(3)\n")
    r = proj.run(bye, env=proj.env)
    assert (r.returncode, r.stdout) == (3, b"partial\n")


def test_a_call_past_its_timeout_is_stopped(proj):
    slow = proj.write("slow.py", "import time\ntime.sleep(30)\n")
    with pytest.raises(Exception) as exc:
        proj.run(slow, env=proj.env, timeout=0.2)
    assert exc.type.__name__ == "TimeoutExpired"


@pytest.mark.process
def test_the_process_marker_runs_real_processes(proj):
    assert proj.process
    r = proj.pre("Read", {"file_path": proj.path("a.py")})
    assert r.code == 0 and r.denied is None


def test_ctx_fixture_runs_the_gate_functions_as_the_hook_does(proj, ctx):
    from core import gates_pre, research

    secret = os.path.join(proj.home, ".ssh", "id_rsa")
    c = ctx("Read", {"file_path": secret})
    assert gates_pre.blocked_paths(c, c.facts).startswith("[blocked-path]")
    assert proj.pre("Read", {"file_path": secret}).denied.startswith("[blocked-path]")

    write = ("Write", {"file_path": proj.path("a.py"), "content": "x\n"})
    c = ctx(*write)
    assert c.facts.tool == "Write" and gates_pre.blocked_paths(c, c.facts) is None
    assert research.gate(c, c.facts).startswith("[research-gate]")
    proj.research()  # the real hooks, between two gate checks: the lock is not held
    c = ctx(*write)
    assert research.gate(c, c.facts) is None
    gates_pre.on_pre_tool(c)  # every gate, as sanetools runs them
    assert not c.answer.blocked
    assert proj.pre(*write).denied is None

    c = ctx(event="Stop", hook="sanestop", stop_hook_active=False)
    assert c.facts is None and c.event == "Stop" and c.sid == proj.sid


def test_install_reuses_current_bytecode_and_the_copy_runs(proj, monkeypatch):
    import compileall
    import py_compile

    compileall.compile_dir(HOOKS, quiet=2)
    compiled = []
    real = py_compile.compile
    monkeypatch.setattr(
        py_compile, "compile", lambda f, *a, **k: compiled.append(f) or real(f, *a, **k)
    )
    proj.install()
    assert compiled == []  # every module's .pyc came along and is current for the copy
    copy = proj.path("scripts", "hooks", "sane.py")
    r = proj.run(copy, ["status", "--json", "--project", proj.dir], env=proj.env, process=True)
    assert r.returncode == 0 and json.loads(r.stdout)["verified"] is not None
    proj.write(
        "scripts/hooks/core/hookio.py",
        "# changed\n" + open(proj.path("scripts/hooks/core/hookio.py")).read(),
    )
    proj.install()  # a changed copy is put back, with the bytecode that goes with it
    from importlib.util import cache_from_source

    for rel in ("core/hookio.py", "sane.py"):
        src, dst = os.path.join(HOOKS, rel), proj.path("scripts", "hooks", rel)
        assert open(dst).read() == open(src).read()
        assert (
            open(cache_from_source(dst), "rb").read() == open(cache_from_source(src), "rb").read()
        )
    assert compiled == []
