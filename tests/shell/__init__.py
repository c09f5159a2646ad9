"""Tests of core/shell."""
