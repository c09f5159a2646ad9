"""Scenario 11: the person's chat commands in the interactive terminal UI (tmux).

The real client runs interactively in a tmux pane against the fake API. A consumed command
shows as the typed prompt followed by "Operation stopped by hook: <answer>", the input box is
empty again (typing `help`, Enter, then `s?` sends `s?`, never `helps?`) and the model is
never called. Skipped when tmux or the client is missing.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import time

import pytest

from .fakeapi import text
from .harness import E2E, MODEL

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
API_KEY = "sk-ant-e2e-dummy-terminal-0123456789"


class Pane:
    """claude in a detached tmux session; keys in, screen out."""

    def __init__(self, e2e: E2E) -> None:
        self.name = "sane-e2e-%d" % id(self)
        # a person who has used Claude Code before: onboarding done, this folder trusted
        # (interactive sessions hold every project hook back until the trust dialog), the key
        # approved
        (e2e.home / ".claude.json").write_text(
            json.dumps(
                {
                    "hasCompletedOnboarding": True,
                    "theme": "dark",
                    "numStartups": 5,
                    "customApiKeyResponses": {"approved": [API_KEY[-20:]], "rejected": []},
                    "projects": {
                        str(e2e.project): {
                            "hasTrustDialogAccepted": True,
                            "hasCompletedProjectOnboarding": True,
                        }
                    },
                }
            )
        )
        env = dict(e2e.claude_env(), ANTHROPIC_API_KEY=API_KEY, TERM="xterm-256color")
        cmd = "cd %s && exec env -i %s %s --model %s" % (
            shlex.quote(str(e2e.project)),
            " ".join("%s=%s" % (k, shlex.quote(v)) for k, v in env.items()),
            shlex.quote(e2e.cli),
            MODEL,
        )
        subprocess.run(
            ["tmux", "new-session", "-d", "-s", self.name, "-x", "120", "-y", "50", cmd],
            check=True,
        )

    def screen(self) -> str:
        return subprocess.run(
            ["tmux", "capture-pane", "-p", "-J", "-t", self.name],
            capture_output=True,
            text=True,
        ).stdout

    def wait_for(self, needle: str, timeout: float = 30) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            screen = self.screen()
            if needle in screen:
                return screen
            time.sleep(0.3)
        raise AssertionError("%r never showed on the screen:\n%s" % (needle, self.screen()))

    def type(self, line: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, "-l", line], check=True)
        time.sleep(0.3)
        subprocess.run(["tmux", "send-keys", "-t", self.name, "Enter"], check=True)

    def input_box(self) -> str:
        """The text in the prompt input (the last line starting with the prompt mark)."""
        rows = [r for r in self.screen().splitlines() if r.startswith("❯")]
        return rows[-1][1:].strip() if rows else "?"

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


def test_a_consumed_command_shows_its_answer_and_clears_the_input(sane_e2e: E2E) -> None:
    e2e = sane_e2e
    e2e.api.script = [text("THE MODEL ANSWERED")] * 5
    pane = Pane(e2e)
    try:
        pane.wait_for("? for shortcuts", timeout=60)
        pane.type("s?")
        screen = pane.wait_for("Operation stopped by hook: safemode is OFF")
        assert "❯ s?" in screen, screen  # the typed command stays in the transcript
        assert "UserPromptSubmit operation blocked" not in screen
        assert "Original prompt" not in screen
        assert pane.input_box() == "", screen
        pane.type("help")
        screen = pane.wait_for("Operation stopped by hook: sane-hooks commands")
        for row in ("  rb? | breaker status", "  research waive <category>"):
            assert row in screen, screen
        assert pane.input_box() == "", screen
        pane.type("rb?")
        screen = pane.wait_for("Operation stopped by hook: breaker is OK")
        assert "helps?" not in screen and "helprb?" not in screen
        assert not [r for r in e2e.api.requests if r.kind == "main"], "a command reached the model"
        # an ordinary prompt still goes to the model
        pane.type("what does this project do?")
        pane.wait_for("THE MODEL ANSWERED")
    finally:
        pane.close()
