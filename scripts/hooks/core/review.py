"""Feature hooks for the review issue (filled in by that issue). Each function is called by the
engine at the named point; a function returning a string blocks with it."""


def pre_tool(ctx, facts):
    """PreToolUse, after the project-wide gates. Return a deny reason or None."""
    return None


def post_tool(ctx, facts, ok):
    """PostToolUse (ok=True) and PostToolUseFailure (ok=False)."""


def on_prompt(ctx, prompt):
    """UserPromptSubmit for a prompt that is not a consumed command."""


def session_start(ctx):
    """SessionStart."""


def subagent_start(ctx):
    """SubagentStart."""


def subagent_stop(ctx):
    """SubagentStop. Block with ctx.answer.deny(reason)."""


def stop_gate(ctx, held):
    """Stop. Return a block reason or None. held: the gates may not block now (breaker,
    enforcement halt, tamper): keep what is pending and return None."""
    return None


def session_end(ctx):
    """SessionEnd."""


def task_completed(ctx):
    """TaskCompleted. Block with ctx.answer.deny(reason)."""


def pending(sess):
    """True when this session has something pending that must survive pruning."""
    return False


def reviewer_spawn_allowed(ctx, facts):
    """True for the reviewer's own Agent call, which the breaker lets through."""
    return False
