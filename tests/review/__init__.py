"""Tests of core/review."""
