"""The learning gate: reflect at ticket close, inject relevant learnings at session start.

Kept empty: importing a module of this package costs only that module."""
