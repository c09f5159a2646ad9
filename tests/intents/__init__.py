"""Tests of core/intents."""
