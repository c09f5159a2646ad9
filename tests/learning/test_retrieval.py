"""Retrieval at SessionStart (9.5): relevance, recency, hit rate, strategies; `surfaced`,
`referenced`, `dismissed`; passive decay and restore; the stats log under concurrent writers;
`learn stats`, `list`, `search`; the signed retrieval cache."""

import json
import math
import os
import subprocess
import sys
import time

import pytest

from conftest import HOOKS
from core.learning import store
from learning.support import (
    agent_cli,
    bash,
    cand,
    closed_ticket,
    gate,
    reflect,
    session_end,  # noqa: F401
    session_start,
    stats_lines,
    tracker,  # noqa: F401 (a fixture)
)

DAY = 86400


@pytest.fixture
def p(proj):
    proj.install()
    proj.research()
    return proj


def rec(n, summary, tags=("misc",), files=(), category="pattern", age_days=0, status="active"):
    return {
        "id": "learn-01TEST%020d" % n,
        "schema": 1,
        "status": status,
        "category": category,
        "summary": summary,
        "detail": "Detail of %s, long enough to pass." % summary,
        "tags": list(tags),
        "context_files": list(files),
        "criteria_met": ["stable_fact"],
        "scope": "project",
        "confidence": "medium",
        "created": int(time.time() - age_days * DAY),
    }


def put(proj, *recs):
    store.append_md(proj.path(".claude", "learnings.md"), list(recs))


def stat_line(proj, **fields):
    with open(proj.path(".claude", "learning-stats.jsonl"), "a") as fh:
        fh.write(json.dumps(dict({"ts": time.time()}, **fields)) + "\n")


def injected_ids(ctx):
    return ["learn-" + part.split(";")[0].split(")")[0] for part in ctx.split("(learn-")[1:]]


def git(proj, *args):
    subprocess.run(
        ["git"] + list(args),
        cwd=proj.dir,
        check=True,
        capture_output=True,
        env=dict(
            proj.env,
            GIT_AUTHOR_NAME="t",
            GIT_AUTHOR_EMAIL="t@x",
            GIT_COMMITTER_NAME="t",
            GIT_COMMITTER_EMAIL="t@x",
        ),
    )


# ------------------------------------------------------------------ 9.5


def test_9_5_session_start_injects_the_top_learnings_and_records_surfaced(p):
    put(p, *[rec(i, "General learning number %d" % i) for i in range(8)])
    r = session_start(p)
    assert r.context.startswith("sane: learnings recorded in earlier sessions")
    ids = injected_ids(r.context)
    assert len(ids) == 5  # moderate: 5
    g = gate(p)
    assert [x["id"] for x in g["injected"]] == ids
    assert all(x["outcome"] == "surfaced" for x in g["injected"])
    sur = [s for s in stats_lines(p) if s["event"] == "surfaced"]
    assert sorted(s["id"] for s in sur) == sorted(ids) and all(s["session"] == p.sid for s in sur)
    assert "LearningsInjected" in [e["event"] for e in g["trace"]]


def test_no_learnings_no_context(p):
    r = session_start(p)
    assert r.code == 0 and "learnings recorded" not in r.context


@pytest.fixture
def scene(p, tracker):
    """A ticket about the cache layer, src/cache.py changed, and one learning per kind of match."""
    os.makedirs(p.path(".beads"))
    tracker.set(
        [
            {
                "id": "bd-8",
                "title": "Cache layer timeout",
                "labels": ["redis"],
                "status": "in_progress",
            }
        ]
    )
    git(p, "init", "-q")
    p.write("src/cache.py", "a = 1\n")
    git(p, "add", "-A")
    git(p, "commit", "-q", "-m", "init")
    p.write("src/cache.py", "a = 2\n")
    put(
        p,
        rec(1, "Use a connection pool for Redis", tags=["redis"]),  # exact tag 1.0
        rec(2, "The eviction code has a subtle bug", files=["src/cache.py"]),  # file 0.8
        rec(3, "Sentinel failover needs retries", tags=["redis-cluster"]),  # partial tag 0.5
        rec(4, "Raise the timeout for slow CI runners"),  # keyword 0.3
        rec(5, "Unrelated learning about fonts", tags=["css"]),
    )
    return p


def test_relevance_orders_exact_tag_file_partial_keyword(scene):
    ids = injected_ids(session_start(scene).context)
    assert ids == ["learn-01TEST%020d" % n for n in (1, 2, 3, 4)]
    score = {s["id"]: s["score"] for s in stats_lines(scene) if s["event"] == "surfaced"}
    assert (
        score["learn-01TEST%020d" % 1]
        > score["learn-01TEST%020d" % 2]
        > score["learn-01TEST%020d" % 3]
        > score["learn-01TEST%020d" % 4]
    )


def test_conservative_keeps_only_strong_matches(scene):
    scene.config("learning: {retrieval: {strategy: conservative}}\n")
    assert injected_ids(session_start(scene).context) == ["learn-01TEST%020d" % n for n in (1, 2)]


def test_aggressive_tops_up_with_the_best_overall(scene):
    scene.config("learning: {retrieval: {strategy: aggressive}}\n")
    put(scene, *[rec(10 + i, "Filler learning %d" % i) for i in range(10)])
    ids = injected_ids(session_start(scene).context)
    assert len(ids) == 10 and ids[:4] == ["learn-01TEST%020d" % n for n in (1, 2, 3, 4)]


def test_max_injections_caps_every_strategy(scene):
    scene.config("learning: {retrieval: {strategy: aggressive, max_injections: 2}}\n")
    assert len(injected_ids(session_start(scene).context)) == 2


def test_recency_weight_is_0_3_at_90_days():
    from core.learning import index as lidx

    assert math.exp(-lidx.K_DAY * 90) == pytest.approx(0.3)
    now = time.time()

    def w(age, sur, ref):
        return math.exp(lidx.log_weight(now - age * DAY, 0, sur, ref) - lidx.K_SEC * now)

    assert w(90, 1, 1) == pytest.approx(0.3 * 1.0)
    assert w(0, 10, 0) == pytest.approx(0.1)
    assert w(0, 0, 0) == pytest.approx(0.1 + 0.9 * lidx.PRIOR_HIT_RATE)


def test_recency_and_hit_rate_rank_equal_matches(p):
    p.config("learning: {decay: {passive_duration_days: 1000}}\n")
    old_used = rec(1, "Old but always used", age_days=30)
    new_ignored = rec(2, "New but always ignored")
    ancient_used = rec(3, "Ancient and used", age_days=400)
    put(p, old_used, new_ignored, ancient_used)
    for r, refs in ((old_used, 10), (new_ignored, 0), (ancient_used, 10)):
        for k in range(10):
            stat_line(p, event="surfaced", id=r["id"], ts=r["created"] + 60)
            if k < refs:  # a reference refreshes the recency: here, right after writing
                stat_line(p, event="referenced", id=r["id"], ts=r["created"] + 60)
    assert injected_ids(session_start(p).context) == [
        old_used["id"],
        new_ignored["id"],
        ancient_used["id"],
    ]


# ------------------------------------------------------------------ referenced / dismissed


def test_referenced_by_reading_a_context_file_and_dismissed_at_session_end(scene):
    ctx = session_start(scene).context
    assert "learn-01TEST%020d" % 2 in ctx
    f = scene.path("src", "cache.py")
    scene.post("Read", {"file_path": f}, {"type": "text", "file": {"filePath": f, "content": "a"}})
    ref = [s for s in stats_lines(scene) if s["event"] == "referenced"]
    assert [s["id"] for s in ref] == ["learn-01TEST%020d" % 2]
    assert ref[0]["how"] == "read one of its files"
    session_end(scene)
    dis = sorted(s["id"] for s in stats_lines(scene) if s["event"] == "dismissed")
    assert dis == ["learn-01TEST%020d" % n for n in (1, 3, 4)]
    outcomes = {x["id"]: x["outcome"] for x in gate(scene)["injected"]}
    assert outcomes["learn-01TEST%020d" % 2] == "referenced"
    assert "LearningDismissed" in [e["event"] for e in gate(scene)["trace"]]


def test_referenced_by_naming_the_id(p):
    a, b = rec(1, "First general learning"), rec(2, "Second general learning")
    put(p, a, b)
    session_start(p)
    bash(p, "grep -n %s .claude/learnings.md" % a["id"])
    p.hook(
        "sanestop",
        p.payload(
            "Stop", stop_hook_active=False, last_assistant_message="I followed %s here." % b["id"]
        ),
    )
    how = {s["id"]: s["how"] for s in stats_lines(p) if s["event"] == "referenced"}
    assert how == {a["id"]: "named its id", b["id"]: "named its id"}
    session_end(p)
    assert not [s for s in stats_lines(p) if s["event"] == "dismissed"]


def test_subagents_get_the_observe_hint_not_the_learnings(p):
    put(p, rec(1, "General learning for all"))
    r = p.hook("saneprompt", p.payload("SubagentStart", agent_id="a1", agent_type="Explore"))
    assert "learn observe" in r.context and "General learning" not in r.context


# ------------------------------------------------------------------ decay


def test_passive_decay_archives_unused_learnings_once_a_day(p):
    stale, immune, fresh = (
        rec(1, "Stale learning nobody used", age_days=100),
        rec(2, "Old but very useful one", age_days=100),
        rec(3, "Fresh learning from today"),
    )
    put(p, stale, immune, fresh)
    for _ in range(5):
        stat_line(p, event="surfaced", id=immune["id"], ts=time.time() - 95 * DAY)
        stat_line(p, event="referenced", id=immune["id"], ts=time.time() - 95 * DAY)
    ctx = session_start(p).context
    assert stale["id"] not in ctx and immune["id"] in ctx
    recs = {
        r["id"]: r
        for r, _, _ in store.parse_md(open(p.path(".claude", "learnings.md"), "rb").read())
    }
    assert recs[stale["id"]]["status"] == "archived" and recs[stale["id"]].get("updated")
    assert recs[immune["id"]]["status"] == "active"
    assert [s["id"] for s in stats_lines(p) if s["event"] == "archived"] == [stale["id"]]
    another = rec(4, "Another stale learning here", age_days=200)
    put(p, another)
    session_start(p, sid="s2")  # same day: decay does not run again
    assert (
        "- status: archived"
        not in open(p.path(".claude", "learnings.md")).read().split(another["id"])[1]
    )
    m = p.cli("learn", "maintain")
    assert m.returncode == 0 and another["id"] in m.stdout
    r = p.cli("learn", "list", "--all", "--json")
    status = {x["id"]: x["status"] for x in json.loads(r.stdout)["learnings"]}
    assert status[another["id"]] == "archived"


def test_decay_duration_is_configurable(p):
    p.config("learning: {decay: {passive_duration_days: 5}}\n")
    put(
        p, rec(1, "Ten days old learning", age_days=10), rec(2, "Two days old learning", age_days=2)
    )
    ctx = session_start(p).context
    assert "learn-01TEST%020d" % 1 not in ctx and "learn-01TEST%020d" % 2 in ctx


def test_maintain_restore(p):
    stale = rec(1, "Stale learning nobody used", age_days=100)
    put(p, stale, rec(2, "Fresh learning from today"))
    session_start(p)
    r = p.cli("learn", "maintain", "--restore", stale["id"])
    assert r.returncode == 0 and "restored" in r.stdout
    assert stale["id"] in session_start(p, sid="s2").context
    assert any(s["event"] == "restored" for s in stats_lines(p))
    again = p.cli("learn", "maintain", "--restore", stale["id"])
    assert again.returncode == 1 and "not archived" in again.stderr
    assert p.cli("learn", "maintain", "--restore", "learn-nope").returncode == 1


# ------------------------------------------------------------------ stats log

WRITER = r"""
import sys
sys.path.insert(0, %(hooks)r)
from core.learning import stats as learning_stats
for i in range(%(n)d):
    learning_stats.append(%(project)r, "surfaced", id="learn-w%%s-%%d" %% (sys.argv[1], i),
                          session="s", pad="x" * (i * 37 %% 3000))
"""


def test_concurrent_stats_writers_never_lose_or_tear_a_line(p):
    n, procs = 60, 16
    code = WRITER % {"hooks": HOOKS, "n": n, "project": p.dir}
    ps = [subprocess.Popen([sys.executable, "-c", code, str(k)], env=p.env) for k in range(procs)]
    assert all(x.wait(60) == 0 for x in ps)
    lines = open(p.path(".claude", "learning-stats.jsonl")).read().splitlines()
    assert len(lines) == n * procs
    ids = {json.loads(line)["id"] for line in lines}  # every line is whole JSON
    assert len(ids) == n * procs


def test_a_corrupt_stats_line_is_skipped(p):
    put(p, rec(1, "Some learning to surface"))
    with open(p.path(".claude", "learning-stats.jsonl"), "w") as fh:
        fh.write('{"event": "surfaced", "id": "learn-01TEST%020d"}\nnot json\n{"truncat' % 1)
    assert session_start(p).code == 0
    assert json.loads(p.cli("learn", "stats", "--json").stdout)["surfaced"] >= 1


def test_stats_table_and_json(p, tracker):
    closed_ticket(p, tracker)
    reflect(p, cand(), cand(summary="bad"))
    session_start(p, sid="s2")
    r = p.cli("learn", "stats")
    assert r.returncode == 0
    for word in (
        "category",
        "pitfall",
        "hit rate",
        "write gate: accepted",
        "1 of 2 (50%)",
        "skip rate",
        "insights:",
    ):
        assert word in r.stdout, word
    j = json.loads(p.cli("learn", "stats", "--json").stdout)
    assert j["candidates"] == 2 and j["accepted"] == 1 and j["write_gate_pass_rate"] == 0.5
    assert j["by_category"]["pitfall"]["surfaced"] == 1 and "insights" in j


def test_insights(p):
    put(p, *[rec(i, "Learning %02d about something" % i, category="domain") for i in range(12)])
    for i in range(12):
        lid = "learn-01TEST%020d" % i
        stat_line(p, event="written", id=lid, category="domain", criteria=["behavior_changing"])
        stat_line(p, event="surfaced", id=lid, category="domain")
    for _ in range(4):
        stat_line(p, event="reflection", produced=5, accepted=1, rejected=4)
    for _ in range(8):
        stat_line(p, event="skip", decider="agent")
    ins = json.loads(p.cli("learn", "stats", "--json").stdout)["insights"]
    text = "\n".join(ins)
    assert "rubber-stamping" in text and "gate too strict" in text
    assert "low-hit category: domain" in text and "high skip rate" in text


# ------------------------------------------------------------------ list, search


def test_list_and_search(p):
    put(
        p,
        rec(1, "Use a connection pool for Redis", tags=["redis"]),
        rec(2, "Pin the ORM version", tags=["orm"], files=["requirements.txt"]),
        rec(3, "Old archived one", status="archived"),
    )
    r = p.cli("learn", "list")
    assert (
        r.returncode == 0 and "2 learning(s) active" in r.stdout and "Old archived" not in r.stdout
    )
    assert "Old archived" in p.cli("learn", "list", "--all").stdout
    s = p.cli("learn", "search", "redis")
    assert "Use a connection pool for Redis" in s.stdout and "Pin the ORM" not in s.stdout
    s = json.loads(p.cli("learn", "search", "requirements.txt", "--json").stdout)
    assert [x["id"] for x in s] == ["learn-01TEST%020d" % 2]
    assert "no learning matches" in p.cli("learn", "search", "zebra").stdout


def test_list_works_as_the_agent_through_the_hooks(p):
    put(p, rec(1, "Use a connection pool for Redis", tags=["redis"]))
    pre, cli = agent_cli(p, "learn", "list")
    assert pre.denied is None and cli.returncode == 0 and "connection pool" in cli.stdout


# ------------------------------------------------------------------ the cache


def cache_file(proj):
    d = os.path.join(proj.home, ".config", "sane-hooks", "learning-cache")
    return os.path.join(d, os.listdir(d)[0])


def test_a_tampered_cache_is_never_trusted(p):
    put(p, rec(1, "The genuine learning text"))
    assert "genuine" in session_start(p).context
    path = cache_file(p)
    data = open(path, "rb").read()
    with open(path, "wb") as fh:
        fh.write(data.replace(b"the genuine learning text", b"the evil injected text!!!!"))
    ctx = session_start(p, sid="s2").context
    assert "genuine" in ctx and "evil" not in ctx


def test_the_cache_follows_appends_and_rewrites(p, tracker):
    put(p, rec(1, "First learning in the file"))
    session_start(p)
    closed_ticket(p, tracker)
    reflect(p, cand(tags=["migrations"]))
    assert "Run the migrations" in session_start(p, sid="s2").context
    path = p.path(".claude", "learnings.md")
    text = open(path).read().replace("First learning in the file", "Edited by the person")
    with open(path, "w") as fh:
        fh.write(text)
    ctx = session_start(p, sid="s3").context
    assert "Edited by the person" in ctx and "First learning in the file" not in ctx


def test_session_start_imports_no_yaml(p):
    put(p, *[rec(i, "Learning number %d" % i) for i in range(50)])
    code = r"""
import json, sys
sys.path.insert(0, %r)
from core import engine
ctx = engine.handle("saneprompt", {"session_id": "s", "cwd": %r, "hook_event_name": "SessionStart",
                                   "source": "startup"}, %r)
print(json.dumps({"yaml": "yaml" in sys.modules, "ctx": "\n".join(ctx.answer.context)}))
""" % (HOOKS, p.dir, p.dir)
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=dict(p.env, CLAUDE_PROJECT_DIR=p.dir),
        capture_output=True,
        text=True,
        timeout=60,
    )
    doc = json.loads(out.stdout)
    assert doc["yaml"] is False and "Learning number" in doc["ctx"]
