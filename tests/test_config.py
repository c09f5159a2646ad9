"""Config defaults live in one place (core.config.DEFAULTS): every key the code reads has a
default there, no call site repeats one, and a key the merged config lacks falls back to it."""

from __future__ import annotations

import ast
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOOKS = os.path.join(ROOT, "scripts", "hooks")
sys.path.insert(0, HOOKS)

from core import config  # noqa: E402

METHODS = ("get", "int", "list", "text")


def _receiver_name(node: ast.expr) -> str:
    """The last name of a call's receiver: `ctx.cfg.get` -> 'cfg', `cfg.get` -> 'cfg'."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def config_reads() -> list[tuple[str, int, str, int]]:
    """(file, line, dotted key, number of extra arguments) of every config read in the hooks.

    A read is `<x>.get/int/list/text("a.b")` where the receiver is named cfg, the method is one
    only Config has (int, list, text), or the key's first part is a config section.
    """
    found = []
    for base, dirs, files in os.walk(HOOKS):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(base, name)
            with open(path, encoding="utf-8") as fh:
                tree = ast.parse(fh.read(), path)
            for node in ast.walk(tree):
                if not (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr in METHODS
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                ):
                    continue
                key = node.args[0].value
                parts = key.split(".")
                if len(parts) < 2 or not all(p.isidentifier() for p in parts):
                    continue
                if not (
                    _receiver_name(node.func.value) == "cfg"
                    or node.func.attr in ("int", "list", "text")
                    or parts[0] in config.DEFAULTS
                ):
                    continue
                extra = len(node.args) - 1 + len(node.keywords)
                found.append((os.path.relpath(path, ROOT), node.lineno, key, extra))
    return found


def test_the_scan_sees_the_config_reads():
    keys = {k for _, _, k, _ in config_reads()}
    # A scan that finds nothing would pass the tests below without checking anything.
    assert {"breaker.max_consecutive", "review.max_blocks", "paths.blocked"} <= keys
    assert len(keys) >= 25


def test_every_key_read_has_a_default():
    missing = []
    for path, line, key, _ in config_reads():
        try:
            config.default(key)
        except KeyError:
            missing.append("%s:%d %s" % (path, line, key))
    assert not missing, "config keys read without a default in DEFAULTS: %s" % missing


def test_no_call_site_repeats_a_default():
    repeated = ["%s:%d %s" % (p, n, k) for p, n, k, extra in config_reads() if extra]
    assert not repeated, "pass no default at the call site (DEFAULTS holds it): %s" % repeated


def test_a_key_without_a_default_is_an_error():
    cfg = config.load("/nonexistent", env={})
    with pytest.raises(KeyError):
        cfg.get("breaker.no_such_key")
    with pytest.raises(KeyError):
        cfg.int("nosection.key")


def test_a_replaced_section_falls_back_to_the_defaults():
    # A person's `breaker: 5` replaces the whole section with a scalar.
    cfg = config.Config({"breaker": 5}, {}, [])
    assert cfg.int("breaker.max_consecutive") == config.DEFAULTS["breaker"]["max_consecutive"]
    assert cfg.get("review.mode") == "prompt"
    assert cfg.list("paths.blocked") == config.DEFAULTS["paths"]["blocked"]


def test_a_value_that_is_not_a_number_gives_the_default():
    env = {"SANE_BREAKER__MAX_CONSECUTIVE": "many", "SANE_FILE_SIZE__WARN": "7"}
    cfg = config.load("/nonexistent", env=env)
    assert cfg.get("breaker.max_consecutive") == "many"
    assert cfg.int("breaker.max_consecutive") == 3
    assert cfg.int("file_size.warn") == 7


def test_text_never_gives_an_empty_name():
    cfg = config.Config({"learning": {"backend": None, "retrieval": {"strategy": ""}}}, {}, [])
    assert cfg.text("learning.backend") == "auto"
    assert cfg.text("learning.retrieval.strategy") == "moderate"
    assert cfg.text("review.reviewer_agent") == "reviewer"
    cfg = config.Config({"review": {"reviewer_agent": "critic"}}, {}, [])
    assert cfg.text("review.reviewer_agent") == "critic"


def test_a_null_the_person_set_stays_null():
    # Only a missing key falls back: an explicit null is the person's choice.
    cfg = config.Config({"review": {"approval_ttl_seconds": None, "gates": None}}, {}, [])
    assert cfg.get("review.approval_ttl_seconds") is None
    assert cfg.list("review.gates") == []
    assert cfg.get("intents.stale_check") is True
