"""`sane.py learn reflect`: each schema rule, the write gate (strict | lenient | off),
confidence, near-duplicates, partial and total rejection. Through the real CLI (the person's
shell; the agent's path is in test_learning_gate.py)."""

import json
import os

import pytest

from learning.support import cand, gate, learnings_md, session_start, stats_lines


@pytest.fixture
def p(proj):
    session_start(proj)
    return proj


def run(p, *cands, raw=None):
    body = raw if raw is not None else json.dumps({"learnings": list(cands)})
    return p.cli("learn", "reflect", p.sid, input=body)


def stored(p):
    """The learnings in .claude/learnings.md, parsed back."""
    from core.learning.store import parse_md

    path = p.path(".claude", "learnings.md")
    if not os.path.exists(path):
        return []
    return [r for r, _, _ in parse_md(open(path, "rb").read())]


REJECT = [
    ("category missing", {"category": None}, "category is missing"),
    ("category unknown", {"category": "bug"}, "category 'bug' is not one of"),
    ("summary missing", {"summary": None}, "summary is missing"),
    ("summary 9 chars", {"summary": "x" * 9}, "summary has 9 characters (needs 10-200)"),
    ("summary 201 chars", {"summary": "x" * 201}, "summary has 201 characters"),
    ("summary blank", {"summary": "     \n    "}, "summary has 0 characters"),
    ("detail missing", {"detail": None}, "detail is missing"),
    ("detail 19 chars", {"detail": "y" * 19}, "detail has 19 characters (needs 20-2000)"),
    ("detail 2001 chars", {"detail": "y" * 2001}, "detail has 2001 characters"),
    (
        "detail = summary",
        {
            "summary": "Run the migrations first, always",
            "detail": "run the migrations   first, ALWAYS",
        },
        "repeats the summary",
    ),
    ("tags missing", {"tags": None}, "tags is missing"),
    ("tags empty", {"tags": []}, "tags has 0 entries (needs 1-10)"),
    ("tags 11", {"tags": ["t%d" % i for i in range(11)]}, "tags has 11 entries"),
    ("tag empty string", {"tags": ["ok", " "]}, "tags must be non-empty strings"),
    ("tag not a string", {"tags": [1]}, "tags must be a list of strings"),
    ("tag too long", {"tags": ["x" * 41]}, "longer than 40"),
    ("criteria missing", {"criteria_met": None}, "criteria_met is missing"),
    ("criteria empty", {"criteria_met": []}, "criteria_met needs at least one"),
    ("criteria unknown", {"criteria_met": ["vibes"]}, "criteria_met 'vibes' is not one of"),
    ("scope unknown", {"scope": "global"}, "scope 'global' is not one of"),
    ("confidence unknown", {"confidence": "sure"}, "confidence 'sure' is not one of"),
    ("context_files not strings", {"context_files": [3]}, "context_files must be a list"),
    ("supersedes not an id", {"supersedes": "the old one"}, "supersedes must be the id"),
    (
        "supersedes unknown id",
        {"supersedes": "learn-01NOTTHERE0000000000000000"},
        "which is not an active learning",
    ),
    (
        "the example copied",
        {"summary": "Example: set the session cookie before the login redirect"},
        "the example from the instructions",
    ),
]


@pytest.mark.parametrize("name,change,reason", REJECT, ids=[r[0] for r in REJECT])
def test_schema_rule_rejects(p, name, change, reason):
    c = cand()
    for k, v in change.items():
        if v is None:
            c.pop(k, None)
        else:
            c[k] = v
    r = run(p, c)
    assert r.returncode == 1, r.stdout
    assert reason in r.stderr, r.stderr
    assert "nothing was written" in r.stderr
    assert not os.path.exists(p.path(".claude", "learnings.md"))


@pytest.mark.parametrize(
    "change,field,value",
    [
        ({"category": "PitFall"}, "category", "pitfall"),
        ({"scope": "TEAM"}, "scope", "team"),
        ({}, "scope", "project"),
        ({"summary": "x" * 10}, "summary", "x" * 10),
        ({"summary": "y" * 200}, "summary", "y" * 200),
        ({"summary": "  two\n lines  " + "z" * 8}, "summary", "two lines " + "z" * 8),
        ({"detail": "d" * 20}, "detail", "d" * 20),
        ({"tags": ["#Rust", "async io", "rust"]}, "tags", ["rust", "async-io"]),
        ({"tags": "single"}, "tags", ["single"]),
        ({"criteria_met": ["Stable_Fact", "stable_fact"]}, "criteria_met", ["stable_fact"]),
        (
            {"context_files": ["src/a.py", "src/a.py", "src/b, c.py"]},
            "context_files",
            ["src/a.py", "src/b, c.py"],
        ),
    ],
)
def test_schema_rule_accepts_and_normalises(p, change, field, value):
    c = cand()
    c.update(change)
    r = run(p, c)
    assert r.returncode == 0, r.stderr
    [rec] = stored(p)
    assert rec[field] == value
    assert rec["status"] == "active" and rec["schema"] == 1 and rec["session"] == p.sid
    assert rec["id"].startswith("learn-") and len(rec["id"]) == 32


@pytest.mark.parametrize("shape", ["object", "list", "single", "candidates"])
def test_input_shapes(p, shape):
    c = cand()
    body = {
        "object": {"learnings": [c]},
        "list": [c],
        "single": c,
        "candidates": {"candidates": [c]},
    }[shape]
    assert run(p, raw=json.dumps(body)).returncode == 0


def test_reflect_from_a_file(p, tmp_path):
    f = tmp_path / "r.json"
    f.write_text(json.dumps([cand()]))
    r = p.cli("learn", "reflect", p.sid, "--file", str(f))
    assert r.returncode == 0, r.stderr


# ------------------------------------------------------------------ write gate and confidence

VAGUE = {
    "summary": "Widgets and gadgets galore here",
    "detail": "Lorem ipsum dolor sit amet consectetur adipiscing elit",
    "criteria_met": ["behavior_changing"],
}


def test_lenient_keeps_an_unsupported_claim_at_low_confidence(p):
    r = run(p, cand(**VAGUE))
    assert r.returncode == 0
    assert stored(p)[0]["confidence"] == "low"


def test_lenient_never_keeps_high_confidence_for_an_unsupported_claim(p):
    run(p, cand(confidence="high", **VAGUE))
    assert stored(p)[0]["confidence"] == "low"


def test_strict_rejects_an_unsupported_claim(p):
    p.config("learning: {write_gate: strict}\n")
    r = run(p, cand(**VAGUE))
    assert r.returncode == 1 and "write gate (strict)" in r.stderr
    assert run(p, cand()).returncode == 0


def test_strict_explicit_request_needs_the_person_asking(p):
    p.config("learning: {write_gate: strict}\n")
    r = run(p, cand(criteria_met=["behavior_changing", "explicit_request"]))
    assert r.returncode == 1 and "explicit_request claimed" in r.stderr
    ok = cand(
        summary="Keep the changelog in British English",
        detail="The person asked me to remember this: always write the changelog in "
        "British English.",
        criteria_met=["explicit_request"],
    )
    assert run(p, ok).returncode == 0


def test_off_accepts_without_judging(p):
    p.config("learning: {write_gate: off}\n")
    run(p, cand(**VAGUE))
    assert stored(p)[0]["confidence"] == "medium"


def test_confidence_from_plausibility(p):
    strong = cand(
        summary="Always run migrations before the API tests",
        detail="Because the tests need the schema, you must run `make migrate` "
        "first; otherwise use the fixture instead.",
    )
    run(p, strong)
    assert stored(p)[0]["confidence"] == "high"


def test_given_confidence_is_kept_when_supported(p):
    run(p, cand(confidence="low"))
    assert stored(p)[0]["confidence"] == "low"


# ------------------------------------------------------------------ duplicates


@pytest.mark.parametrize(
    "second",
    [
        "Run the migrations before the API tests",  # the same
        "RUN THE MIGRATIONS before the api tests",  # case
        "migrations before the API",  # a substring of the active one
        "Always run the migrations before the API tests, even locally",  # contains it
    ],
)
def test_near_duplicates_of_active_learnings_are_rejected(p, second):
    assert run(p, cand()).returncode == 0
    r = run(p, cand(summary=second))
    assert r.returncode == 1 and "near-duplicate of active learning learn-" in r.stderr
    assert len(stored(p)) == 1


def test_near_duplicates_in_one_batch(p):
    r = run(
        p,
        cand(),
        cand(summary="the migrations before the API tests"),
        cand(
            summary="Pin the ORM to 2.x",
            detail="3.x changed the session API; pin it until the port is done.",
        ),
    )
    assert r.returncode == 0
    assert "#2" in r.stdout and "near-duplicate of candidate 1 in this batch" in r.stdout
    assert len(stored(p)) == 2


def test_archived_learnings_are_not_duplicates(p):
    assert run(p, cand()).returncode == 0
    lid = stored(p)[0]["id"]
    from core.learning.store import rewrite_md

    rewrite_md(p.path(".claude", "learnings.md"), {lid: {"status": "archived"}})
    assert run(p, cand()).returncode == 0
    assert [r["status"] for r in stored(p)] == ["archived", "active"]


def test_supersedes_marks_the_old_one(p):
    assert run(p, cand()).returncode == 0
    old = stored(p)[0]["id"]
    r = run(
        p,
        cand(
            summary="Run the migrations before the API tests, with the test settings",
            detail="make migrate needs DJANGO_SETTINGS=test, else it migrates the dev "
            "database and the tests still fail.",
            supersedes=old,
        ),
    )
    assert r.returncode == 0, r.stderr
    recs = {x["id"]: x for x in stored(p)}
    new = [x for x in recs if x != old][0]
    assert recs[old]["status"] == "superseded" and recs[old]["superseded_by"] == new
    assert recs[new]["supersedes"] == old
    assert any(s["event"] == "superseded" and s["id"] == old for s in stats_lines(p))


# ------------------------------------------------------------------ partial and total failure


def test_partial_batch_writes_the_valid_ones_and_records_every_rejection(p):
    r = run(
        p,
        cand(),
        cand(summary="short"),
        cand(summary="A second valid learning here", category="convention", tags=["style"]),
    )
    assert r.returncode == 0
    assert "rejected 1:" in r.stdout and "summary has 5 characters" in r.stdout
    assert len(stored(p)) == 2
    ref = [s for s in stats_lines(p) if s["event"] == "reflection"][-1]
    assert ref["produced"] == 3 and ref["accepted"] == 2 and ref["rejected"] == 1
    assert ref["rejected_summaries"] == ["short"]
    assert "summary has 5 characters" in ref["reasons"][0]


def test_zero_accepted_writes_nothing_and_says_why_for_each(p):
    r = run(p, cand(summary="short"), cand(category="nope"), cand(tags=[]))
    assert r.returncode == 1
    for why in ("#1", "summary has 5", "#2", "category 'nope'", "#3", "tags has 0"):
        assert why in r.stderr
    assert learnings_md(p) == ""
    assert "ReflectionRejected" in [e["event"] for e in gate(p)["trace"]]
    ref = [s for s in stats_lines(p) if s["event"] == "reflection"][-1]
    assert ref["accepted"] == 0 and ref["rejected"] == 3
    assert not any(s["event"] == "written" for s in stats_lines(p))


def test_more_than_twenty_candidates(p):
    many = [
        cand(summary="Distinct learning number %02d here" % i, tags=["t%d" % i]) for i in range(21)
    ]
    r = run(p, *many)
    assert r.returncode == 0 and "more than 20 candidates" in r.stdout
    assert len(stored(p)) == 20


def test_unknown_session(p):
    r = p.cli("learn", "reflect", "no-such-session", input=json.dumps([cand()]))
    assert r.returncode == 1 and "unknown session" in r.stderr


def test_tamper_locked_state_refuses(p):
    with open(p.path(".claude", "state.json"), "r+") as fh:
        doc = json.load(fh)
        doc["sig"] = "0" * 64
        fh.seek(0)
        fh.truncate()
        json.dump(doc, fh)
    r = run(p, cand())
    assert r.returncode == 2 and "tamper" in r.stderr


# ------------------------------------------------------------------ ids


def test_ids_are_time_ordered():
    from core.learning.schema import new_id

    ids = [new_id(1700000000 + i * 0.0001) for i in range(50)] + [new_id(1700000001)]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert all(i.startswith("learn-") and len(i) == 32 for i in ids)
