"""Scenario 8 (issue 7, waits for issue 6): intent scope through the real client.

Plan:
1. `.claude/active_intents.yaml` defines an intent whose scope is `src/**`;
2. the person's prompt `intent <ID>` selects it (not consumed: it reaches the model with the
   intent's context);
3. after research, a Write inside `src/` succeeds and a Write outside the scope is denied
   naming `[scope]`; `.claude/agent_trace.jsonl` records the allowed edit with the intent.
"""
import pytest


def test_write_outside_intent_scope_is_denied() -> None:
    pytest.skip("waits for issue 6 (intents)")
