"""Fixtures for the end-to-end tests: the real Claude Code CLI against a scripted local API.

The CLI is the npm package pinned in ``.ci/install_claude.sh``, installed outside the repo
(``$SANE_E2E_DIR``, default ``~/.cache/sane-e2e``); ``SANE_CLAUDE_BIN`` points at another
binary. The tests skip, saying why, when it is missing, unless ``SANE_E2E_INSTALL=1`` lets
them run the install script themselves. (This directory is a package so that its modules
never shadow ``tests/conftest.py`` as the top-level ``conftest`` module.)
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from .fakeapi import FakeAPI
from .harness import E2E, INSTALL_SCRIPT, MODEL, _find_cli


@pytest.fixture(scope="session")
def claude_cli() -> str:
    path, why = _find_cli()
    if path is None and os.environ.get("SANE_E2E_INSTALL") == "1":
        proc = subprocess.run(
            ["bash", str(INSTALL_SCRIPT)], capture_output=True, text=True, timeout=900
        )
        if proc.returncode != 0:
            pytest.fail(f"install_claude.sh failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
        path, why = _find_cli()
    if path is None:
        pytest.skip(why)
    proc = subprocess.run(
        [path, "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        env={
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.environ.get("HOME", "/tmp"),
        },
    )
    if proc.returncode != 0:
        pytest.skip(f"{path} --version failed: {proc.stderr.strip()[:300]}")
    return path


@pytest.fixture
def fake_api() -> Iterator[FakeAPI]:
    api = FakeAPI(model=MODEL).start()
    try:
        yield api
    finally:
        api.stop()


@pytest.fixture
def e2e(tmp_path: Path, claude_cli: str, fake_api: FakeAPI) -> E2E:
    return E2E(tmp_path, claude_cli, fake_api)


@pytest.fixture
def sane_e2e(e2e: E2E) -> E2E:
    """An e2e project with our hooks installed by `sane.py install`."""
    e2e.install_sane()
    return e2e


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line when real-client tests were skipped: how many, why and how to run them (the
    dots of `pytest -q tests` say nothing about it)."""
    here = os.path.dirname(os.path.abspath(__file__))
    reasons: dict[str, int] = {}
    for rep in terminalreporter.stats.get("skipped", []):
        path = str(getattr(rep, "fspath", "") or "")
        if not os.path.abspath(path).startswith(here):
            continue
        longrepr = rep.longrepr
        why = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else "skipped"
        why = why[len("Skipped: ") :] if why.startswith("Skipped: ") else why
        reasons[why] = reasons.get(why, 0) + 1
    if not reasons:
        return
    total = sum(reasons.values())
    top = max(reasons, key=reasons.get)
    more = (
        " (and %d for other reasons: -rs lists them)" % (total - reasons[top])
        if len(reasons) > 1
        else ""
    )
    terminalreporter.write_line(
        "end-to-end: %d real-client test%s skipped: %s%s"
        % (total, "" if total == 1 else "s", top, more),
        yellow=True,
    )
