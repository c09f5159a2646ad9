"""Scenario 7: the learning cycle through the real client.

The scratch project uses beads (`.beads/`); a small fake `bd` on PATH keeps its tickets in a
JSON file outside the project. The scripted agent works on ticket bd-1 and closes it with
`bd close bd-1` through Bash; its Stop is blocked naming `[learning]` with the exact
`sane.py learn reflect <sid>` command; it records a reflection that way and may then stop.
`.claude/learnings.md` holds the learning, and the next session (working on another parser
ticket) starts with it injected: the model's first request carries it.
"""

from __future__ import annotations

import json
import os
import re
import stat

from .fakeapi import block_text, text, tool_use
from .harness import E2E, PYTHON, assert_allowed, assert_hooks_healthy

FAKE_BD = """#!{python}
import json, os, sys
path = os.environ["FAKE_BD_STATE"]
with open(path) as f:
    tickets = json.load(f)
args = [a for a in sys.argv[1:] if a != "--json"]
cmd = args[0] if args else ""
if cmd == "list":
    want = args[args.index("--status") + 1] if "--status" in args else None
    print(json.dumps([t for t in tickets if want in (None, t["status"])]))
elif cmd == "show":
    print(json.dumps([t for t in tickets if t["id"] == args[1]]))
elif cmd == "close":
    for t in tickets:
        if t["id"] == args[1]:
            t["status"] = "closed"
    with open(path, "w") as f:
        json.dump(tickets, f)
    print("Closed " + args[1])
else:
    sys.exit("fake bd: unsupported " + " ".join(sys.argv[1:]))
"""

SUMMARY = "The parser crashes on trailing commas: strip them before tokenizing"
LEARNING = {
    "category": "pitfall",
    "summary": SUMMARY,
    "detail": "A trailing comma in the input list made the tokenizer emit an empty token "
    "that the parser could not handle; strip trailing commas first.",
    "tags": ["parser", "tokenizer"],
    "criteria_met": ["behavior_changing"],
    "scope": "project",
    "context_files": ["parser.py"],
}
SID = re.compile(r"learn reflect ([0-9a-f-]{8,})")
PARSER = "def parse(s):\n    return [t for t in s.split(',') if t]\n"


def reflect(body: dict) -> list:
    """The agent's turn after the [learning] block: the reflect command the block gave."""
    feedback = block_text(body["messages"][-1]["content"])
    m = SID.search(feedback)
    assert m and "[learning]" in feedback, f"no [learning] block: {feedback[:500]!r}"
    cmd = (
        f"python3 scripts/hooks/sane.py learn reflect {m.group(1)} <<'EOF'\n"
        f"{json.dumps({'learnings': [LEARNING]})}\nEOF"
    )
    return tool_use("Bash", {"command": cmd, "description": "record the learning"})


def test_learning_gate_cycle(sane_e2e: E2E) -> None:
    e2e = sane_e2e
    # the fake ticket tool keeps its database outside the project (under /tmp), which is
    # read-only inside Claude Code's sandbox: this scenario runs without it
    e2e.install_sane("--no-sandbox")
    e2e.config("research: {required: [local]}\n")
    bin_dir = e2e.root / "bin"
    bin_dir.mkdir()
    bd = bin_dir / "bd"
    bd.write_text(FAKE_BD.format(python=PYTHON))
    bd.chmod(bd.stat().st_mode | stat.S_IEXEC)
    tickets = e2e.root / "tickets.json"
    tickets.write_text(
        json.dumps(
            [
                {
                    "id": "bd-1",
                    "title": "Fix the parser crash on trailing commas",
                    "status": "in_progress",
                    "description": "parse('a,b,') crashes",
                    "labels": ["parser"],
                },
                {
                    "id": "bd-2",
                    "title": "Parser: handle empty input",
                    "status": "open",
                    "description": "parse('') should return []",
                    "labels": ["parser"],
                },
            ]
        )
    )
    e2e.extra_env.update(
        PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", FAKE_BD_STATE=str(tickets)
    )
    (e2e.project / ".beads").mkdir()
    readme = e2e.write("README.md", "# parser\n")
    e2e.commit()

    run = e2e.run(
        "fix the parser crash (bd-1)",
        script=[
            tool_use("Read", {"file_path": str(readme)}),
            tool_use("Write", {"file_path": str(e2e.project / "parser.py"), "content": PARSER}),
            tool_use("Bash", {"command": "bd close bd-1", "description": "close the ticket"}),
            text("fixed and closed"),  # Stop: blocked, reflection required
            reflect,
            text("learning recorded"),
        ],
    )  # Stop: allowed
    assert run.returncode == 0, run.describe()
    assert_hooks_healthy(run, e2e)
    assert "Closed bd-1" in assert_allowed(run.results_for("Bash")[0], run)
    stops = run.hooks("Stop")
    assert "[learning]" in str(stops[0].get("stdout")), run.describe()
    assert "Ticket bd-1" in str(stops[0].get("stdout")), run.describe()
    assert_allowed(run.results_for("Bash")[1], run)
    assert '"decision": "block"' not in str(stops[-1].get("stdout")), run.describe()
    assert run.result_text == "learning recorded", run.describe()
    learnings = (e2e.project / ".claude" / "learnings.md").read_text()
    assert SUMMARY in learnings

    tickets.write_text(
        json.dumps(
            [
                {
                    "id": "bd-2",
                    "title": "Parser: handle empty input",
                    "status": "in_progress",
                    "description": "parse('') should return []",
                    "labels": ["parser"],
                }
            ]
        )
    )
    nxt = e2e.run("work on bd-2", new_session=True, script=[text("ok")])
    assert nxt.session_id != run.session_id
    assert_hooks_healthy(nxt, e2e)
    first = json.dumps(nxt.calls()[0].messages)
    assert SUMMARY in first, f"the learning was not injected\n{nxt.describe()}"
