"""Tests of core/learning."""
