"""Tests of core/cli (sane.py)."""
