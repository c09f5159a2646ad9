"""Tests of core/trace."""
