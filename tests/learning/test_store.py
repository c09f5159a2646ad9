"""Where learnings go: the markdown format (lossless), Total Recall's daily log (the seed's
format, 9.6) and its search (9.7), the fallback to markdown, the audit log when every store
fails, scope routing (personal, team, ephemeral), supersession."""

import json
import os
import time

import pytest

from core.learning import store
from learning.support import (
    cand,
    closed_ticket,
    gate,
    learnings_md,
    reflect,
    session_start,  # noqa: F401
    stats_lines,
    tracker,  # noqa: F401 (a fixture)
)


@pytest.fixture
def p(proj):
    proj.install()
    proj.research()
    return proj


def total_recall(proj, where="rules"):
    os.makedirs(proj.path("memory", "daily"), exist_ok=True)
    proj.write(
        os.path.join(where, "total-recall.md")
        if where == "rules"
        else os.path.join(".claude", "rules", "total-recall.md"),
        "# Total Recall protocol\n",
    )


def today_log(proj):
    return proj.path("memory", "daily", time.strftime("%Y-%m-%d") + ".md")


def audit(proj, event):
    path = proj.path(".claude", "audit.jsonl")
    return (
        [r for r in map(json.loads, open(path)) if r.get("event") == event]
        if os.path.exists(path)
        else []
    )


# ------------------------------------------------------------------ markdown format

TRICKY = [
    {
        "id": "learn-01J9Z6Q8W2X4Y5Z6A7B8C9D0EF",
        "schema": 1,
        "status": "active",
        "category": "pitfall",
        "summary": "Plain summary here",
        "detail": "One line detail text.",
        "scope": "project",
        "confidence": "medium",
        "criteria_met": ["behavior_changing"],
        "tags": ["a", "b"],
        "context_files": ["src/a.py"],
        "session": "s1",
        "ticket": "bd-1",
        "created": 1700000000,
    },
    {
        "id": "learn-01J9Z6Q8W2X4Y5Z6A7B8C9D0EG",
        "schema": 1,
        "status": "superseded",
        "category": "domain",
        "summary": 'Quotes "inside" and: colons, commas',
        "detail": "Line one\n\n> a quoted line\n- a list item\n## learn-fake: heading\n  indented  ",
        "scope": "team",
        "confidence": "high",
        "criteria_met": ["stable_fact", "decision_rationale"],
        "tags": ["c,d", "[x]", '"q"'],
        "context_files": ["dir with space/f.py", "a, b.py"],
        "session": " padded ",
        "ticket": '"quoted"',
        "created": 1700000100,
        "updated": 1700000200,
        "supersedes": "learn-01J9Z6Q8W2X4Y5Z6A7B8C9D0EF",
        "superseded_by": "learn-X",
    },
    {
        "id": "learn-01J9Z6Q8W2X4Y5Z6A7B8C9D0EH",
        "schema": 1,
        "status": "archived",
        "category": "debugging",
        "summary": "Unicode: café ✓ 日本語 works",
        "detail": "Détail avec accents — et des tirets.\tTabs too.",
        "scope": "personal",
        "confidence": "low",
        "criteria_met": ["explicit_request"],
        "tags": ["ünï"],
        "context_files": [],
        "session": "",
        "ticket": None,
        "created": 1700000300,
    },
]


def _norm(rec):
    return {k: v for k, v in rec.items() if v not in (None, "", [])}


def test_markdown_round_trip_is_lossless():
    text = store.MD_HEADER + "".join("\n" + store.render_md(r) for r in TRICKY)
    back = [r for r, _, _ in store.parse_md(text.encode("utf-8"))]
    assert [_norm(b) for b in back] == [_norm(r) for r in TRICKY]
    again = store.MD_HEADER + "".join("\n" + store.render_md(r) for r in back)
    assert again == text


def test_markdown_offsets_point_at_each_entry(tmp_path):
    path = str(tmp_path / "l.md")
    store.append_md(path, TRICKY)
    for rec, off, ln in store.parse_md(open(path, "rb").read()):
        assert store.read_entry(path, off, ln)["id"] == rec["id"]


def test_rewrite_changes_only_the_named_entry_and_keeps_unknown_lines(tmp_path):
    path = str(tmp_path / "l.md")
    store.append_md(path, TRICKY)
    with open(path, "a") as fh:
        fh.write(
            "\n## learn-01J9Z6Q8W2X4Y5Z6A7B8C9D0EK: Hand written\n\n- category: process\n"
            "- owner: alice\n\n> Added by a person, with a custom field.\n"
        )
    before = open(path).read()
    assert store.rewrite_md(path, {TRICKY[0]["id"]: {"status": "archived"}}) == {TRICKY[0]["id"]}
    after = open(path).read()
    first = before.split("\n## ")[1]
    assert after.replace(after.split("\n## ")[1], first) == before  # the rest byte for byte
    recs = {r["id"]: r for r, _, _ in store.parse_md(after.encode())}
    assert recs[TRICKY[0]["id"]]["status"] == "archived"
    assert recs["learn-01J9Z6Q8W2X4Y5Z6A7B8C9D0EK"]["extra"] == {"owner": "alice"}
    store.rewrite_md(path, {"learn-01J9Z6Q8W2X4Y5Z6A7B8C9D0EK": {"status": "archived"}})
    assert "- owner: alice" in open(path).read()


def test_markdown_file_as_written_by_reflect(p, tracker):
    closed_ticket(p, tracker)
    assert reflect(p, cand(context_files=["src/db.py"]))[1].returncode == 0
    text = learnings_md(p)
    assert text.startswith("# Learnings\n")
    lid = gate(p)["reflection"]["accepted"][0]
    for line in (
        "## %s: Run the migrations before the API tests" % lid,
        "- category: pitfall",
        "- status: active",
        "- scope: project",
        "- criteria: behavior_changing",
        "- tags: testing, database",
        "- files: src/db.py",
        "- session: %s" % p.sid,
        "- ticket: bd-12",
        "- schema: 1",
        "> The API tests need the schema: run `make migrate` first, otherwise every "
        "test fails with a missing table.",
    ):
        assert line + "\n" in text, line


# ------------------------------------------------------------------ Total Recall (9.6)


@pytest.mark.parametrize("where", ["rules", ".claude"])
def test_total_recall_detection(proj, where):
    assert not store.total_recall_detected(proj.dir)
    total_recall(proj, where)
    assert store.total_recall_detected(proj.dir)


def test_9_6_total_recall_write_in_the_seeds_format(p, tracker):
    total_recall(p)
    closed_ticket(p, tracker)
    pre, cli = reflect(p, cand(scope="team", context_files=["src/db.py"]))
    assert cli.returncode == 0 and "Total Recall memory/daily/" in cli.stdout
    text = open(today_log(p)).read()
    lid = gate(p)["reflection"]["accepted"][0]
    assert "## Learnings\n" in text
    lines = text.split("\n")
    head = [ln for ln in lines if "(sane:%s)" % lid in ln][0]
    assert (
        head[0] == "["
        and head[3] == ":"
        and head[6:].startswith(
            "] **Pitfall** (sane:%s): Run the migrations before the API tests" % lid
        )
    )
    assert (
        "> The API tests need the schema: run `make migrate` first, otherwise every test "
        "fails with a missing table." in text
    )
    assert (
        "Tags: #testing #database | Confidence: High | Ticket: bd-12 | Scope: Team | "
        "Files: src/db.py"
    ) in text
    assert not os.path.exists(p.path(".claude", "learnings.md"))  # no markdown when TR is on
    back = store.parse_tr(text, time.localtime()[:3])[0][0]
    assert back["id"] == lid and back["category"] == "pitfall" and back["ticket"] == "bd-12"
    assert back["tags"] == ["testing", "database"] and back["scope"] == "team"


def test_total_recall_appends_under_the_existing_learnings_section(p, tracker):
    total_recall(p)
    p.write(
        os.path.relpath(today_log(p), p.dir),
        "# Today\n\n## Notes\nmet Bob\n\n## Learnings\n\n[09:00] **Process** (other): x\n\n"
        "## Later\nstuff\n",
    )
    closed_ticket(p, tracker)
    assert reflect(p, cand())[1].returncode == 0
    text = open(today_log(p)).read()
    assert text.index("(sane:learn-") < text.index("## Later")
    assert text.index("(sane:learn-") > text.index("[09:00]")
    assert text.count("## Learnings") == 1 and "met Bob" in text and "stuff" in text


def test_9_6_failed_total_recall_write_falls_back_to_markdown_and_says_so(p, tracker):
    total_recall(p)
    os.rmdir(p.path("memory", "daily"))
    p.write("memory/daily", "not a directory")  # the daily log cannot be written
    closed_ticket(p, tracker)
    pre, cli = reflect(p, cand())
    assert cli.returncode == 0
    assert "Total Recall write failed" in cli.stdout and ".claude/learnings.md" in cli.stdout
    assert "Run the migrations before the API tests" in learnings_md(p)
    assert gate(p)["status"] == "reflected"
    r = p.stop(active=True)
    assert r.denied is None and "Total Recall write failed" in r.user  # the person is told
    assert any(s["event"] == "written" and s["where"] == "markdown" for s in stats_lines(p))


def test_when_every_store_fails_the_learning_goes_to_the_audit_log(p, tracker):
    os.makedirs(p.path(".claude", "learnings.md"))  # a directory: cannot append
    closed_ticket(p, tracker)
    pre, cli = reflect(p, cand())
    assert cli.returncode == 0 and "audit.jsonl" in cli.stdout
    assert gate(p)["status"] == "reflected"  # fail-open: the gate opens
    lost = audit(p, "learning_lost")
    assert lost and lost[0]["learning"]["summary"] == "Run the migrations before the API tests"
    r = p.stop(active=True)
    assert r.denied is None and "learning_lost" in r.user


# ------------------------------------------------------------------ scopes


def test_personal_scope_goes_to_the_users_file(p, tracker):
    closed_ticket(p, tracker)
    assert reflect(p, cand(scope="personal"))[1].returncode == 0
    personal = os.path.join(p.home, ".config", "sane-hooks", "personal-learnings.md")
    assert "Run the migrations before the API tests" in open(personal).read()
    assert learnings_md(p) == ""
    assert "Run the migrations" in session_start(p, sid="s2").context


def test_ephemeral_without_total_recall_is_dropped(p, tracker):
    closed_ticket(p, tracker)
    pre, cli = reflect(p, cand(scope="ephemeral"))
    assert cli.returncode == 0 and "dropped" in cli.stdout
    assert learnings_md(p) == ""
    assert gate(p)["status"] == "reflected"


def test_ephemeral_with_total_recall_goes_to_the_daily_log(p, tracker):
    total_recall(p)
    closed_ticket(p, tracker)
    assert reflect(p, cand(scope="ephemeral"))[1].returncode == 0
    assert "Scope: Ephemeral" in open(today_log(p)).read()


def test_backend_markdown_overrides_detection(p, tracker):
    total_recall(p)
    p.config("learning: {backend: markdown}\n")
    closed_ticket(p, tracker)
    assert reflect(p, cand())[1].returncode == 0
    assert "Run the migrations" in learnings_md(p) and not os.path.exists(today_log(p))


def test_supersession_in_total_recall(p, tracker):
    total_recall(p)
    closed_ticket(p, tracker)
    reflect(p, cand())
    old = gate(p)["reflection"]["accepted"][0]
    tracker.set([{"id": "bd-13", "title": "more", "status": "closed"}])
    from learning.support import bash

    bash(p, "bd close bd-13")
    r = reflect(
        p,
        cand(
            summary="Migrations need the test settings too",
            detail="make migrate with DJANGO_SETTINGS=test, or the tests still fail.",
            supersedes=old,
        ),
    )[1]
    assert r.returncode == 0, r.stderr
    assert "> [supersedes sane:%s]" % old in open(today_log(p)).read()
    ev = [s for s in stats_lines(p) if s["event"] == "superseded"]
    assert ev and ev[0]["id"] == old and ev[0]["backend"] == "total-recall"
    ctx = session_start(p, sid="s2").context
    assert "Migrations need the test settings too" in ctx and old not in ctx


# ------------------------------------------------------------------ Total Recall search (9.7)


def tr_entry(lid, summary, tags, hm="10:00"):
    return (
        "[%s] **Pattern** (sane:%s): %s\n> %s, in detail for the test.\n\n"
        "Tags: %s | Confidence: Medium\n\n"
        % (hm, lid, summary, summary, " ".join("#" + t for t in tags))
    )


def test_9_7_search_reads_recent_daily_logs_and_registers_merged_with_markdown(p):
    total_recall(p)
    today = time.strftime("%Y-%m-%d")
    old = time.strftime("%Y-%m-%d", time.localtime(time.time() - 20 * 86400))
    p.write(
        "memory/daily/%s.md" % today,
        "## Learnings\n\n"
        + tr_entry("learn-01TODAY00000000000000000000", "Today learning about caching", ["cache"])
        + "[11:00] **Note** (not ours): a Total Recall note of the person\n",
    )
    p.write(
        "memory/daily/%s.md" % old,
        "## Learnings\n\n"
        + tr_entry("learn-01OLD0000000000000000000000", "Old learning from long ago", ["cache"]),
    )
    os.makedirs(p.path("memory", "registers"))
    p.write(
        "memory/registers/decisions.md",
        "# Decisions\n\n"
        + tr_entry("learn-01REGISTER0000000000000000", "Register learning promoted", ["cache"]),
    )
    dup = {
        "id": "learn-01TODAY00000000000000000000",
        "schema": 1,
        "status": "active",
        "category": "pattern",
        "summary": "Today learning about caching",
        "detail": "The markdown copy of the same learning.",
        "tags": ["cache"],
        "criteria_met": ["stable_fact"],
        "scope": "project",
        "confidence": "medium",
        "created": int(time.time()),
    }
    md = {
        "id": "learn-01MARKDOWN0000000000000000",
        "schema": 1,
        "status": "active",
        "category": "convention",
        "summary": "Markdown learning here",
        "detail": "Stored in the project's markdown file.",
        "tags": ["style"],
        "criteria_met": ["stable_fact"],
        "scope": "project",
        "confidence": "medium",
        "created": int(time.time()),
    }
    store.append_md(p.path(".claude", "learnings.md"), [dup, md])
    p.config("learning: {retrieval: {strategy: aggressive}}\n")
    ctx = session_start(p).context
    assert "Today learning about caching" in ctx and ctx.count("learn-01TODAY") == 1
    assert "Register learning promoted" in ctx and "Markdown learning here" in ctx
    assert "Old learning from long ago" not in ctx and "not ours" not in ctx
    assert "The markdown copy of the same learning." in ctx  # markdown wins the merge


def test_total_recall_search_failure_is_empty_not_an_error(p):
    total_recall(p)
    p.write("memory/daily/%s.md" % time.strftime("%Y-%m-%d"), "\x00\xff garbage (sane:learn- **")
    r = session_start(p)
    assert r.code == 0 and "failed open" not in r.user
