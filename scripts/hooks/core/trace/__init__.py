"""The Agent Trace ledger: one record per successful mutation, verify and blame.

Kept empty: importing a module of this package costs only that module."""
