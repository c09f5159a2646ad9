"""sane.py: one module per command group.

Kept empty: importing a module of this package costs only that module."""
