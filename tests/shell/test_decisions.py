"""The shell corpus's decision columns: every row's decision through the real gates
under normal mode (research done), safemode, and a gated pattern. All rows run in-process
through the hook's engine (the same code path as the script); a sample runs through
sanetools.py as real PreToolUse payloads."""

import json
import os

import pytest

from conftest import clean_env
from shell.corpus import HOME, ROWS  # noqa: E402
from shell.labs import engine_bash, engine_session, environ

TEMP = ("/tmp/", "/var/tmp/")
GUARD = ("[self-protection]", "[blocked-path]", "[person-only]")


def _in_temp(w):
    return w.startswith(TEMP) or w in ("/tmp", "/var/tmp")


def expected(row, mode):
    """(set of acceptable block codes) or None for allow; a row's n / s column, when it has
    one, is checked exactly instead (see _check)."""
    hint = row["decision_hint"]
    if hint in ("write-protected", "read-blocked", "person-only"):
        return set(GUARD)
    if mode == "safemode":
        changes = (
            row["u"]
            or row.get("rc")
            or row["d"]
            and not row["w"]  # shutdown: destructive, no file written
            or any(not _in_temp(w) for w in row["w"])
        )
        return {"[safemode]"} | set(GUARD) if changes else None
    if mode == "gated":
        return {"[review-gate]"} | set(GUARD)
    return None


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("decisions"))
    project = os.path.realpath(os.path.join(root, "project"))
    os.makedirs(os.path.join(project, ".claude"))
    env = clean_env(os.path.join(root, "home"))
    env["HOME"] = HOME  # the corpus's home; nothing is read or written there
    return project, env


def decide(lab, command, mode, pattern=None, sid="s"):
    project, env = lab
    env = dict(env, CLAUDE_PROJECT_DIR=project)
    if mode == "gated":
        env["SANE_REVIEW__GATES"] = "Bash:" + pattern
    with environ(env):
        engine_session(project, sid, "s+" if mode == "safemode" else "s-", "rb-")
        ctx = engine_bash(project, sid, command)
        if ctx.answer.block:
            return ctx.answer.block
        return "[ask] " + ctx.answer.reason if ctx.answer.decision == "ask" else None


def _check(row, mode, reason):
    code = reason.split("]", 1)[0] + "]" if reason else None
    asked = code == "[ask]"
    exact = row.get("n") if mode == "normal" else row.get("s") if mode == "safemode" else None
    if exact is not None:
        got = "allow" if code is None else "ask" if asked else code
        assert got == exact, (row["cmd"], mode, reason)
        return code
    if asked:
        code = None  # the [destructive] ask lets the person decide: not a block
    want = expected(row, mode)
    if want is None:
        # allowed, unless a villain rule (blocked or protected place, code we cannot see that
        # names our files) legitimately holds it
        assert code is None or code in GUARD, (row["cmd"], mode, reason)
    else:
        assert code in want, (row["cmd"], mode, reason)
    return code


COUNTS = {}


@pytest.mark.parametrize("mode", ["normal", "safemode"])
def test_corpus_decisions(lab, mode):
    table = {}
    for row in ROWS:
        code = _check(row, mode, decide(lab, row["cmd"], mode))
        table[code or "allow"] = table.get(code or "allow", 0) + 1
    COUNTS[mode] = table
    print("\n%s: %s" % (mode, json.dumps(table, sort_keys=True)))
    assert table.get("allow", 0) > 50


def test_corpus_gated_patterns(lab):
    n = 0
    for row in ROWS:
        for pat in row["m"]:
            _check(row, "gated", decide(lab, row["cmd"], "gated", pat, sid="g%d" % n))
            n += 1
        for pat in row["nm"]:
            reason = decide(lab, row["cmd"], "gated", pat, sid="g%d" % n)
            assert not (reason or "").startswith("[review-gate]"), (row["cmd"], pat, reason)
            n += 1
    assert n >= 26


SAMPLE = ROWS[::15]


@pytest.mark.parametrize("row", SAMPLE, ids=lambda r: r["cmd"][:50])
def test_sample_through_sanetools(proj, row):
    proj.env["HOME"] = HOME
    proj.research()
    r = proj.pre("Bash", {"command": row["cmd"]})
    _check(row, "normal", r.denied or _asked(r))
    proj.prompt("s+")
    r = proj.pre("Bash", {"command": row["cmd"]})
    _check(row, "safemode", r.denied or _asked(r))


def _asked(r):
    if r.spec.get("permissionDecision") == "ask":
        return "[ask] " + r.spec.get("permissionDecisionReason", "")
    return None


def test_remote_column_matches_the_analyser():
    """rc: a remote or service change, as the analyser reports it."""
    from core.shell.analysis import analyse

    for row in ROWS:
        a = analyse(row["cmd"], home=HOME)
        assert any(c.remote for c in a.commands) is bool(row.get("rc")), (row["cmd"], a)
