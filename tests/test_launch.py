"""scripts/hooks/run: the committed settings name no interpreter; the launcher picks one per
machine, never one the agent can write or a version-manager shim, and fails per event."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import HOOKS

PY = os.path.abspath(sys.executable)
OUTSIDE = os.path.join(os.path.expanduser("~"), ".cache", "sane-launcher-tests")


@pytest.fixture
def installed(proj):
    proj.install()
    return proj


@pytest.fixture
def outside():
    """A directory outside the project and the temp dir (where a person's interpreter lives)."""
    d = os.path.join(OUTSIDE, str(os.getpid()))
    os.makedirs(d, exist_ok=True)
    yield d
    shutil.rmtree(d, ignore_errors=True)


def choice(proj):
    return os.path.join(proj.env["XDG_CONFIG_HOME"], "sane-hooks", "python")


def launch(proj, hook, payload=None, env=None, which=False, run=None):
    e = dict(proj.env, CLAUDE_PROJECT_DIR=proj.dir)
    e.update(env or {})
    run = run or proj.path("scripts", "hooks", "run")
    args = ["/bin/sh", run] + (["--which"] if which else []) + [hook]
    return subprocess.run(
        args,
        input=json.dumps(payload or {}).encode(),
        capture_output=True,
        env=e,
        cwd=proj.dir,
        timeout=60,
    )


def pre_payload(proj):
    return proj.payload("PreToolUse", tool_name="Read", tool_input={"file_path": "x"})


def test_install_records_the_choice_and_every_hook_runs_it(installed):
    p = installed
    with open(choice(p)) as fh:
        rec = fh.read().strip()
    assert os.path.isabs(rec) and os.access(rec, os.X_OK)
    for hook in ("saneprompt", "sanetools", "sanetrack", "sanestop"):
        r = launch(p, hook, which=True)
        assert r.returncode == 0 and r.stdout.decode().strip() == rec
    r = launch(p, "sanetools", pre_payload(p))
    assert r.returncode == 0, r.stderr


def test_a_choice_inside_the_project_is_never_run(installed):
    """A project's .venv is the agent's to write: a recorded choice there is skipped."""
    p = installed
    venv_py = p.path(".venv", "bin", "python3")
    os.makedirs(os.path.dirname(venv_py))
    with open(venv_py, "w") as fh:
        fh.write("#!/bin/sh\necho PWNED >&2\nexit 2\n")
    os.chmod(venv_py, 0o755)
    with open(choice(p), "w") as fh:
        fh.write(venv_py + "\n")
    r = launch(p, "sanetools", which=True)
    assert r.stdout.decode().strip() != venv_py
    r = launch(
        p, "sanetools", pre_payload(p), env={"PATH": os.path.dirname(venv_py) + ":/usr/bin:/bin"}
    )
    assert r.returncode == 2 and b"PWNED" not in r.stderr
    assert r.stderr.decode().startswith("[self-protection] sane-hooks cannot run")


def _record(proj, line):
    with open(choice(proj), "w") as fh:
        fh.write(line + "\n")


def _denied_everywhere(proj, line):
    """Every event refuses a choice that is not a Python the agent cannot write: PreToolUse
    with exit 2 and [self-protection], the others with a message; nothing it names runs."""
    _record(proj, line)
    r = launch(proj, "sanetools", pre_payload(proj))
    err = r.stderr.decode()
    assert r.returncode == 2, (line, err, r.stdout)
    assert err.startswith("[self-protection] sane-hooks cannot run") and "doctor" in err
    assert "PWNED" not in err
    r = launch(proj, "sanestop", {"hook_event_name": "Stop"})
    assert r.returncode == 0 and "sane-hooks is OFF" in json.loads(r.stdout)["systemMessage"]


def test_a_choice_that_is_not_python_turns_nothing_off(installed, outside):
    """`/bin/true` in the choice file would make every hook answer 'allow': a choice must be
    named python, python3, python3.N (or pypy3), be a file, and lie outside the agent's
    places by its physical directory."""
    p = installed
    for prog in ("/bin/true", "/bin/sh", "/usr/bin/env", "/bin/echo"):
        if os.path.exists(prog):
            _denied_everywhere(p, prog)
    fake = os.path.join(outside, "python3-fake")
    with open(fake, "w") as fh:
        fh.write("#!/bin/sh\necho PWNED >&2\n")
    os.chmod(fake, 0o755)
    _denied_everywhere(p, fake)
    _denied_everywhere(p, outside)  # a directory
    named = os.path.join(outside, "python3.x")
    os.symlink("/bin/true", named)
    _denied_everywhere(p, named)


def test_a_choice_reached_through_a_link_or_dots_into_the_temp_dir_is_refused(
    installed, outside, tmp_path
):
    p = installed
    evil = tmp_path / "evil"
    evil.mkdir()
    script = evil / "python3"
    script.write_text("#!/bin/sh\necho PWNED >&2\nexit 0\n")
    script.chmod(0o755)
    link = os.path.join(outside, "bin")
    os.symlink(str(evil), link)
    _denied_everywhere(p, os.path.join(link, "python3"))
    up = "/usr/.." + str(script)
    _denied_everywhere(p, up)
    _denied_everywhere(p, "/usr/./.." + str(script))
    _denied_everywhere(p, "/" + str(script))  # //tmp/...


def test_a_good_choice_by_any_python_name_runs(installed, outside):
    p = installed
    for name in ("python", "python3", "python3.12"):
        real = os.path.join(outside, name)
        os.symlink(PY, real)
        _record(p, real)
        r = launch(p, "sanetools", which=True)
        assert r.stdout.decode().strip() == real
        r = launch(p, "sanetools", pre_payload(p))
        assert r.returncode == 0, r.stderr


def test_a_choice_that_no_longer_exists_falls_back_to_the_search(installed):
    p = installed
    _record(p, "/nonexistent/python3")
    r = launch(p, "sanetools", pre_payload(p))
    assert r.returncode == 0, r.stderr


def test_search_skips_shims_and_the_temp_dir_then_records(installed, outside, tmp_path):
    p = installed
    os.remove(choice(p))
    shims = os.path.join(outside, "shims")
    real = os.path.join(outside, "bin")
    tmpbin = str(tmp_path / "tmpbin")
    for d in (shims, real, tmpbin):
        os.makedirs(d)
    log = os.path.join(outside, "shim-called")
    with open(os.path.join(shims, "python3"), "w") as fh:
        fh.write('#!/bin/sh\necho x >> "%s"\nexec "%s" "$@"\n' % (log, PY))
    os.chmod(os.path.join(shims, "python3"), 0o755)
    os.symlink(PY, os.path.join(tmpbin, "python3"))
    os.symlink(PY, os.path.join(real, "python3"))
    path = "%s:%s:%s:/usr/bin:/bin" % (shims, tmpbin, real)
    r = launch(p, "sanetools", which=True, env={"PATH": path})
    assert r.stdout.decode().strip() == os.path.join(real, "python3")
    r = launch(p, "sanetools", pre_payload(p), env={"PATH": path})
    assert r.returncode == 0, r.stderr
    assert not os.path.exists(log)  # the shim never ran
    with open(choice(p)) as fh:  # the hook recorded what the search found
        assert fh.read().strip() == os.path.join(real, "python3")


def _no_python_launcher(proj):
    """The launcher with its known absolute places pointed at nothing (a machine without a
    system python3); everything else exactly as shipped."""
    with open(os.path.join(HOOKS, "run")) as fh:
        text = fh.read()
    start = text.index("for py in /usr/bin/python3")
    end = text.index("; do", start)
    text = text[:start] + "for py in /nonexistent/python3" + text[end:]
    path = proj.path("scripts", "hooks", "run")
    with open(path, "w") as fh:
        fh.write(text)
    return path


def test_no_interpreter_fails_closed_on_pretooluse_only(installed):
    p = installed
    os.remove(choice(p))
    run = _no_python_launcher(p)
    env = {"PATH": "/nonexistent"}
    r = launch(p, "sanetools", pre_payload(p), env=env, run=run)
    assert r.returncode == 2
    err = r.stderr.decode()
    assert (
        err.startswith(
            "[self-protection] sane-hooks cannot run, so every tool call is denied: no Python 3.9 or newer found"
        )
        and "doctor" in err
    )
    for hook in ("saneprompt", "sanetrack", "sanestop"):
        r = launch(p, hook, {"hook_event_name": "Stop"}, env=env, run=run)
        assert r.returncode == 0
        msg = json.loads(r.stdout)["systemMessage"]
        assert "sane-hooks is OFF" in msg and "Python 3.9" in msg


def test_missing_hook_script_per_event(installed):
    p = installed
    for hook, code in (("sanetools", 2), ("sanestop", 0)):
        os.rename(p.path("scripts", "hooks", hook + ".py"), p.path(hook + ".moved"))
        r = launch(p, hook, {"hook_event_name": "Stop"})
        assert r.returncode == code
        text = r.stderr.decode() if code == 2 else json.loads(r.stdout)["systemMessage"]
        assert "%s.py is missing" % hook in text and "git checkout -- scripts/hooks" in text


def test_unknown_hook_name_is_refused(installed):
    r = launch(installed, "evil; rm -rf x", {})
    assert r.returncode == 0 and "unknown hook name" in json.loads(r.stdout)["systemMessage"]


def test_too_old_python_is_told_per_event(monkeypatch, capsys):
    from core import launch as ln

    monkeypatch.setattr(ln.sys, "version_info", (3, 8, 10, "final", 0))
    assert ln.too_old("sanetools") == 2
    assert capsys.readouterr().err.startswith("[self-protection] sane-hooks cannot run")
    assert ln.too_old("sanestop") == 0
    msg = json.loads(capsys.readouterr().out)["systemMessage"]
    assert "Python 3.8" in msg and "3.9 or newer" in msg


def test_missing_pyyaml_denies_pretooluse_and_tells_elsewhere(proj, tmp_path):
    """An interpreter without pyyaml cannot read the person's config: tool calls are denied
    (the rules are unknown), the other events say so and let the session go on."""
    fake = tmp_path / "noyaml" / "yaml"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('no yaml here')\n")
    proj.config("safemode:\n  allow: []\n")
    env = {"PYTHONPATH": str(fake.parent)}
    r = proj.hook("sanetools", pre_payload(proj), env=env)
    assert r.code == 2 or r.denied
    text = r.stderr if r.code == 2 else r.denied
    assert "[self-protection] pyyaml is not installed" in text and "pip install pyyaml" in text
    r = proj.hook("saneprompt", proj.payload("SessionStart", source="startup"), env=env)
    assert r.code == 0 and "pyyaml is not installed" in r.user
    r = proj.hook("sanestop", proj.payload("Stop", stop_hook_active=False), env=env)
    assert r.code == 0


def test_settings_name_no_machine_path(installed):
    p = installed
    with open(p.path(".claude", "settings.json")) as fh:
        text = fh.read()
    for machine in (PY, os.path.dirname(PY), p.home, p.dir, "/usr/bin"):
        assert machine not in text
    doc = json.loads(text)
    for groups in doc["hooks"].values():
        for h in groups[0]["hooks"]:
            assert h["command"].startswith('sh "$CLAUDE_PROJECT_DIR/scripts/hooks/run" ')


def test_the_choice_file_is_protected_like_the_key(installed):
    p = installed
    path = choice(p)
    for tool, ti in (
        ("Write", {"file_path": path, "content": "/tmp/evil/python3\n"}),
        ("Edit", {"file_path": path, "old_string": "/", "new_string": "/tmp/"}),
        ("Bash", {"command": "echo /tmp/evil > %s" % path}),
        ("Bash", {"command": "cat %s" % path}),
    ):
        r = p.pre(tool, ti)
        assert r.denied, (tool, ti)


def test_only_names_the_launcher_accepts_are_recorded():
    from core import launch as ln

    for ok in ("/usr/bin/python3", "/x/python", "/x/python3.12", "/x/pypy3"):
        assert ln.python_name(ok), ok
    for bad in ("/bin/true", "/x/python3-dbg", "/x/python3.123", "/x/python3.", "/x/py"):
        assert not ln.python_name(bad), bad


def test_doctor_never_picks_a_name_the_launcher_refuses(monkeypatch, outside):
    """An interpreter whose own sys.executable is not named python* (a debug build, a wrapper
    called python3-dbg) is passed over: recording it would deny every tool call."""
    from core.cli import interp

    odd = os.path.join(outside, "python3-dbg")
    os.symlink(PY, odd)
    monkeypatch.setattr(interp, "candidates", lambda env=None: [odd])
    monkeypatch.setattr(
        interp, "probe", lambda c: {"executable": c, "version": (3, 12), "yaml": True}
    )
    info, notes = interp.choose(None)
    assert info is None and any("python3-dbg" in n for n in notes)


def _plain_python():
    """An interpreter that processes a user site-packages (not a venv's), outside the temp dir."""
    base = getattr(sys, "_base_executable", "") or ""
    for cand in (base, shutil.which("python3", path="/usr/local/bin:/usr/bin:/bin") or ""):
        if not cand or not os.path.isfile(cand) or cand.startswith(("/tmp/", "/var/tmp/")):
            continue
        r = subprocess.run(
            [cand, "-c", "import site, sys; sys.exit(not site.ENABLE_USER_SITE)"],
            capture_output=True,
        )
        if r.returncode == 0 and os.path.basename(cand).startswith("python3"):
            return cand
    return None


def test_a_pth_file_in_the_user_site_never_runs_inside_the_hooks(installed):
    """Every Python runs the .pth files of the person's user site-packages at start-up; one
    `os._exit(0)` there would make every hook answer "allow". The launcher runs Python with -s,
    and a --user package (pyyaml) is still found through core.launch.optional."""
    py = _plain_python()
    if py is None:
        pytest.skip("no interpreter outside a venv that processes a user site-packages")
    p = installed
    _record(p, py)
    env = dict(p.env)
    user = subprocess.run(
        [py, "-c", "import site; print(site.getusersitepackages())"],
        capture_output=True,
        text=True,
        env=env,
    ).stdout.strip()
    assert user.startswith(p.home), user  # the test's own HOME, not the person's
    os.makedirs(user, exist_ok=True)
    with open(os.path.join(user, "zz_evil.pth"), "w") as fh:
        fh.write("import os; os._exit(0)\n")
    with open(os.path.join(user, "userdep_probe.py"), "w") as fh:
        fh.write("VALUE = 7\n")
    secret = os.path.join(p.home, ".ssh", "id_rsa")
    payload = p.payload("PreToolUse", tool_name="Read", tool_input={"file_path": secret})
    r = launch(p, "sanetools", payload)
    assert b"[blocked-path]" in r.stdout + r.stderr, (r.returncode, r.stdout, r.stderr)
    probe = subprocess.run(
        [
            py,
            "-s",
            "-c",
            "from core.launch import optional; print(optional('userdep_probe').VALUE)",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=p.path("scripts", "hooks"),
    )
    assert probe.stdout.strip() == "7", probe.stderr


def test_search_records_the_path_it_checked_not_where_a_wrapper_leads(installed, outside, tmp_path):
    """A python3 on PATH may be a wrapper that execs an interpreter in the temp dir (a CI
    venv under /tmp): the choice is the wrapper the launcher checked, so the next call runs."""
    p = installed
    os.remove(choice(p))
    tmpbin = tmp_path / "venv" / "bin"
    tmpbin.mkdir(parents=True)
    os.symlink(PY, str(tmpbin / "python3"))
    real = os.path.join(outside, "wrapped")
    os.makedirs(real)
    wrapper = os.path.join(real, "python3")
    with open(wrapper, "w") as fh:
        fh.write('#!/bin/sh\nexec "%s" "$@"\n' % (tmpbin / "python3"))
    os.chmod(wrapper, 0o755)
    env = {"PATH": "%s:/usr/bin:/bin" % real}
    for _ in range(2):  # the search, then the recorded choice
        r = launch(p, "sanetools", pre_payload(p), env=env)
        assert r.returncode == 0 and not r.stdout.strip(), (r.stdout, r.stderr)
        with open(choice(p)) as fh:
            assert fh.read().strip() == wrapper
