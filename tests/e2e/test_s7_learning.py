"""Scenario 7 (issue 7, waits for issue 5): the learning gate through the real client.

Plan:
1. a ticket exists in the scratch project's ticketing backend (beads: `bd`); the scripted
   agent closes it with `bd close <id>` through Bash (PostToolUse sees the close);
2. Stop is blocked naming `[learning]` until a reflection is recorded; the next scripted turn
   runs `python3 scripts/hooks/sane.py learn reflect <SID>` with the reflection JSON on stdin;
3. Stop is then allowed; `.claude/learnings.md` holds the learning;
4. a new session (`new_session=True`) starts with it injected: the SessionStart
   additionalContext reaches the model (the first request's user message contains it).
"""
import pytest


def test_learning_gate_cycle() -> None:
    pytest.skip("waits for issue 5 (the learning gate)")
