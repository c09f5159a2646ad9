"""The review gate: a reviewer subagent must approve the work before the agent stops.

Kept empty: importing a module of this package costs only that module."""
