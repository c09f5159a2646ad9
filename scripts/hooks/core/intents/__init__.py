"""Intent governance: selected intents, owned scopes, stale-file checks.

Kept empty: importing a module of this package costs only that module."""
