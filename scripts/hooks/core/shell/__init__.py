"""Shell and PowerShell command analysis: lexer, parser, effects, program tables.

Kept empty: importing a module of this package costs only that module."""
