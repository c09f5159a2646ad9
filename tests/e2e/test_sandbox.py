"""The layer below and an install that travels, through the real client:
- a write the analyser cannot see (a script written to the temp dir, then run, overwriting a
  hook) is stopped by Claude Code's sandbox as `install` writes it, and lands without it;
- a clean machine: a fresh clone, a fresh HOME, python3 at another path: the hooks run from a
  settings file that names no machine path."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .fakeapi import text, tool_use
from .harness import E2E, PYTHON, REPO, assert_blocked, assert_hooks_healthy

TARGET = "scripts/hooks/sanetrack.py"
# The path never appears in the script or the command: the analyser cannot see the write.
SCRIPT = (
    "import os\n"
    "p = bytes.fromhex(%r).decode()\n"
    "open(os.path.join(os.getcwd(), p), 'w').write('pwned')\n"
    "print('wrote', p)\n" % TARGET.encode().hex()
)


def _sandbox_ready() -> None:
    import sys

    sys.path.insert(0, str(REPO / "scripts" / "hooks"))
    from core import sandbox

    why = sandbox.unavailable()
    if why:
        pytest.skip("the OS sandbox cannot start here: %s" % why)


def _hidden_write(e2e: E2E) -> tuple:
    e2e.config("research:\n  required: []\n")
    e2e.commit()
    script = e2e.tmp / "w.py"
    run = e2e.run(
        "build it",
        script=[
            tool_use("Write", {"file_path": str(script), "content": SCRIPT}),
            tool_use("Bash", {"command": "python3 %s; echo rc=$?" % script, "description": "x"}),
            text("done"),
        ],
    )
    [res] = run.results_for("Bash")
    return run, res, (e2e.project / TARGET).read_text()


def _install(e2e: E2E, *extra: str) -> None:
    proc = subprocess.run(
        [PYTHON, str(REPO / "scripts" / "hooks" / "sane.py"), "install", str(e2e.project)]
        + list(extra),
        cwd=e2e.project,
        env=e2e.base_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _system_messages(run) -> str:
    return "\n".join(
        json.dumps(ev) for ev in run.events if ev.get("type") == "system" and "sandbox" in str(ev)
    )


def test_sandbox_stops_a_write_the_analyser_cannot_see(e2e: E2E) -> None:
    _sandbox_ready()
    _install(e2e)
    run, res, content = _hidden_write(e2e)
    assert "Read-only file system" in res["content"], run.describe()
    assert content != "pwned" and content.startswith("#!/usr/bin/env python3")
    assert_hooks_healthy(run, e2e)
    # the person is told once, with the setting that would allow such a write
    assert "sandbox.filesystem.allowWrite" in _system_messages(run), run.describe()
    # and the way around it is closed at PreToolUse
    run = e2e.run(
        "again",
        script=[
            tool_use(
                "Bash",
                {
                    "command": "python3 %s" % (e2e.tmp / "w.py"),
                    "description": "x",
                    "dangerouslyDisableSandbox": True,
                },
            ),
            text("ok"),
        ],
    )
    [res] = run.results_for("Bash")
    assert_blocked(res, "[sandbox]", run)
    assert (e2e.project / TARGET).read_text() != "pwned"


def test_without_the_sandbox_the_same_write_lands(e2e: E2E) -> None:
    """The control: --no-sandbox leaves only the analysis, which cannot see this write."""
    _install(e2e, "--no-sandbox")
    run, res, content = _hidden_write(e2e)
    assert "wrote " + TARGET in res["content"], run.describe()
    assert content == "pwned"


def test_clean_machine_fresh_clone_fresh_home_python_elsewhere(e2e: E2E) -> None:
    """Machine A installs from a fresh clone; machine B has a fresh HOME (no recorded
    interpreter) and python3 only at a path A never had: the committed settings still run
    every hook, through the launcher, on B's python3."""
    clone = e2e.root / "clone"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True, timeout=120)
    proc = subprocess.run(
        [PYTHON, str(clone / "scripts" / "hooks" / "sane.py"), "install", str(e2e.project)],
        env=e2e.base_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    settings = (e2e.project / ".claude" / "settings.json").read_text()
    for machine in (PYTHON, str(e2e.home), str(e2e.project), str(clone)):
        assert machine not in settings
    e2e.commit()

    # machine B: python3 lives only in a directory outside the project and the temp dir
    alt = Path.home() / ".cache" / "sane-e2e" / ("alt-python-%d" % os.getpid())
    (alt / "bin").mkdir(parents=True, exist_ok=True)
    calls = alt / "calls.log"
    wrapper = alt / "bin" / "python3"
    wrapper.write_text('#!/bin/sh\necho "$*" >> "%s"\nexec "%s" "$@"\n' % (calls, PYTHON))
    wrapper.chmod(0o755)
    home_b = e2e.root / "home-b"
    (home_b / ".config").mkdir(parents=True)
    e2e.extra_env = {
        "HOME": str(home_b),
        "XDG_CONFIG_HOME": str(home_b / ".config"),
        "PATH": "%s:/usr/local/bin:/usr/bin:/bin" % (alt / "bin"),
    }
    try:
        run = e2e.run(
            "look",
            script=[
                tool_use("Read", {"file_path": str(e2e.project / ".gitignore")}),
                tool_use("Bash", {"command": "echo hi", "description": "x"}),
                text("done"),
            ],
        )
        assert_hooks_healthy(run, e2e)
        events = {ev.get("hook_event_name") or ev.get("hook_name") for ev in run.hooks()}
        assert {"SessionStart:startup", "PreToolUse:Read", "PostToolUse:Bash", "Stop"} <= events
        assert calls.exists() and "scripts/hooks/" in calls.read_text()
        # the first hook that had to search recorded B's interpreter for the next calls
        chosen = (home_b / ".config" / "sane-hooks" / "python").read_text().strip()
        assert chosen and chosen != str(e2e.xdg)
    finally:
        shutil.rmtree(alt, ignore_errors=True)
