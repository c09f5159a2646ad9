"""`pytest -q tests` says in one line when the real-client tests were skipped, and how to
enable them (the README's test command is the one CI runs)."""

import os
import subprocess
import sys

import pytest

from conftest import ROOT


def pytest_run(*args, env=None):
    e = {k: v for k, v in os.environ.items() if not k.startswith(("SANE_", "CLAUDE"))}
    e.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"] + list(args),
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=e,
        timeout=300,
    )


def test_skipped_e2e_tests_get_one_summary_line():
    r = pytest_run("tests/e2e/test_s2_breaker.py", env={"SANE_E2E_DIR": "/nonexistent"})
    lines = [x for x in r.stdout.splitlines() if x.startswith("end-to-end:")]
    assert len(lines) == 1, r.stdout
    assert "1 real-client test skipped" in lines[0]
    assert "bash .ci/install_claude.sh" in lines[0] and "SANE_E2E_INSTALL=1" in lines[0]


def test_no_line_when_the_e2e_tests_ran():
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from e2e.harness import _find_cli

    if _find_cli()[0] is None:
        pytest.skip("the Claude Code CLI is not installed")
    r = pytest_run("tests/e2e/test_s2_breaker.py")
    assert r.returncode == 0 and "end-to-end:" not in r.stdout, r.stdout


def test_readme_test_command_is_the_one_ci_runs():
    with open(os.path.join(ROOT, ".ci", "run")) as fh:
        ci = fh.read()
    with open(os.path.join(ROOT, "README.md")) as fh:
        readme = fh.read()
    cmd = ".venv/bin/python -m pytest -q tests"
    assert cmd in ci and cmd in readme
