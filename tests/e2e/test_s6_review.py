"""Scenario 6 (issue 7, waits for issue 4): the review gate cycle through the real client.

Plan (scripted turns, one `claude -p` run unless noted):
1. the main agent researches (Read) and edits a file (Write);
2. Stop is blocked naming `[review-gate]` (the model receives "Stop hook feedback: ...");
3. the next scripted turn calls the Agent tool with the reviewer subagent (`reviewer`, from
   `.claude/agents/reviewer.md` installed by `sane.py install`); the fake API routes the
   subagent's calls by its first user message and scripts it to run
   `python3 scripts/hooks/sane.py review decide <SID> COMPLETE "looks right"` through Bash;
4. our state records the review COMPLETE (`sane.py status --json`), and the next Stop is
   allowed (the run ends with the final text; no further Stop feedback);
5. a second run where the main agent itself runs the same `review decide` command is denied
   naming `[review]` (only the reviewer subagent may decide).
"""
import pytest


def test_review_gate_cycle() -> None:
    pytest.skip("waits for issue 4 (the review gate)")
