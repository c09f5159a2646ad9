"""Shared pieces of the learning-gate tests: fake ticket trackers on PATH, an agent
that runs `sane.py learn ...` through the hooks, and learning files. No tests here."""

import json
import os
import shlex
import stat
import sys

import pytest

SID = "sess-test-1"
CLI = "python3 scripts/hooks/sane.py"

# A fake `bd` / `tissue`: answers list/show from a JSON db, logs every call, can fail or hang.
FAKE_TRACKER = r"""#!%(python)s
import json, os, sys, time
here = os.path.dirname(os.path.abspath(__file__))
name = os.path.basename(sys.argv[0])
db_path = os.path.join(here, "tracker.json")
try:
    db = json.load(open(db_path))
except (OSError, ValueError):
    db = {}
with open(os.path.join(here, "calls.log"), "a") as fh:
    fh.write(json.dumps([name] + sys.argv[1:]) + "\n")
mode = db.get("mode", "ok")
if mode == "hang":
    time.sleep(10)
if mode == "fail":
    sys.stderr.write("tracker is broken\n")
    sys.exit(1)
tickets = db.get("tickets", [])
args = sys.argv[1:]
if args[:1] == ["list"]:
    want = args[args.index("--status") + 1] if "--status" in args else None
    print(json.dumps([t for t in tickets if want is None or t.get("status") == want]))
elif args[:1] == ["show"]:
    hit = [t for t in tickets if t.get("id") == args[1]]
    if not hit:
        sys.stderr.write("no such ticket\n")
        sys.exit(1)
    print(json.dumps(hit[0] if name == "tissue" else hit))
else:
    print("ok")
"""


class Tracker:
    """Fake `bd` and `tissue` CLIs in a bin dir put first on the hooks' PATH."""

    def __init__(self, proj):
        self.dir = os.path.join(proj.root, "bin")
        os.makedirs(self.dir, exist_ok=True)
        for name in ("bd", "tissue"):
            p = os.path.join(self.dir, name)
            with open(p, "w") as fh:
                fh.write(FAKE_TRACKER % {"python": sys.executable})
            os.chmod(p, os.stat(p).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        proj.env["PATH"] = self.dir + os.pathsep + proj.env.get("PATH", "")
        self.set([])

    def set(self, tickets, mode="ok"):
        with open(os.path.join(self.dir, "tracker.json"), "w") as fh:
            json.dump({"tickets": tickets, "mode": mode}, fh)

    def calls(self):
        try:
            with open(os.path.join(self.dir, "calls.log")) as fh:
                return [json.loads(line) for line in fh if line.strip()]
        except OSError:
            return []


@pytest.fixture
def tracker(proj):
    return Tracker(proj)


def cand(summary="Run the migrations before the API tests", category="pitfall", **kw):
    """A candidate that passes every rule unless told otherwise."""
    c = {
        "category": category,
        "summary": summary,
        "detail": kw.pop(
            "detail",
            "The API tests need the schema: run `make migrate` first, "
            "otherwise every test fails with a missing table.",
        ),
        "tags": kw.pop("tags", ["testing", "database"]),
        "criteria_met": kw.pop("criteria_met", ["behavior_changing"]),
    }
    c.update(kw)
    return c


def agent_cli(proj, *args, input=None, agent_id=None, agent_type=None, sid=None, post=True):
    """Run `sane.py ARGS` as the agent: PreToolUse (records the authorisation), the CLI with
    Claude Code's environment, then PostToolUse. Returns (pre result, CLI process)."""
    args = list(args) + ["--project", proj.dir]
    command = CLI + " " + " ".join(shlex.quote(a) for a in args)
    if input is not None:
        command += " <<'EOF'\n%s\nEOF" % input
    kw = {}
    if agent_id:
        kw.update(agent_id=agent_id, agent_type=agent_type or "Explore")
    tool_input = {"command": command}
    pre = proj.hook(
        "sanetools",
        proj.payload(
            "PreToolUse",
            tool_name="Bash",
            tool_input=tool_input,
            tool_use_id="toolu_cli_%d" % len(command),
            session_id=sid or proj.sid,
            **kw,
        ),
    )
    cli = None
    if pre.denied is None:
        cli = proj.cli(
            *args, input=input, env={"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": sid or proj.sid}
        )
        if post:
            payload = proj.payload(
                "PostToolUse" if cli.returncode == 0 else "PostToolUseFailure",
                tool_name="Bash",
                tool_input=tool_input,
                tool_use_id="toolu_cli_%d" % len(command),
                session_id=sid or proj.sid,
                **kw,
            )
            if cli.returncode == 0:
                payload["tool_response"] = {
                    "stdout": cli.stdout,
                    "stderr": "",
                    "interrupted": False,
                }
            else:
                payload.update(
                    error="Exit code %d\n%s" % (cli.returncode, cli.stderr), is_interrupt=False
                )
            proj.hook("sanetrack", payload)
    return pre, cli


def reflect(proj, *cands, sid=None, **kw):
    return agent_cli(
        proj,
        "learn",
        "reflect",
        sid or proj.sid,
        input=json.dumps({"learnings": list(cands)}),
        sid=sid,
        **kw,
    )


def bash(proj, command, ok=True, tool_use_id=None, error="Exit code 1\nfailed", **kw):
    """One Bash call through PreToolUse and PostToolUse (or PostToolUseFailure)."""
    tid = tool_use_id or "toolu_%d" % abs(hash(command))
    pre = proj.hook(
        "sanetools",
        proj.payload(
            "PreToolUse", tool_name="Bash", tool_input={"command": command}, tool_use_id=tid, **kw
        ),
    )
    assert pre.denied is None, pre.denied
    if ok:
        post = proj.hook(
            "sanetrack",
            proj.payload(
                "PostToolUse",
                tool_name="Bash",
                tool_input={"command": command},
                tool_use_id=tid,
                tool_response={"stdout": "ok\n", "stderr": "", "interrupted": False},
                **kw,
            ),
        )
    else:
        post = proj.hook(
            "sanetrack",
            proj.payload(
                "PostToolUseFailure",
                tool_name="Bash",
                tool_input={"command": command},
                tool_use_id=tid,
                error=error,
                is_interrupt=False,
                **kw,
            ),
        )
    return pre, post


def gate(proj, sid=None):
    return proj.session_state(sid).get("learning") or {}


def events(proj, sid=None):
    return [e["event"] for e in gate(proj, sid).get("trace") or []]


def stats_lines(proj):
    try:
        with open(proj.path(".claude", "learning-stats.jsonl")) as fh:
            return [json.loads(line) for line in fh if line.strip()]
    except OSError:
        return []


def session_start(proj, sid=None, source="startup"):
    return proj.hook(
        "saneprompt", proj.payload("SessionStart", source=source, session_id=sid or proj.sid)
    )


def session_end(proj, sid=None):
    return proj.hook(
        "sanestop",
        proj.payload("SessionEnd", reason="prompt_input_exit", session_id=sid or proj.sid),
    )


def edit(proj, rel="src/app.py", text="x = 1\n"):
    """A real write the session records (research first so the gate lets it through)."""
    p = proj.write(rel, text)
    proj.post(
        "Write",
        {"file_path": p, "content": text},
        {"type": "create", "filePath": p, "content": text},
    )
    return p


def learnings_md(proj):
    try:
        with open(proj.path(".claude", "learnings.md")) as fh:
            return fh.read()
    except OSError:
        return ""


def closed_ticket(proj, tracker, tid="bd-12", title="Fix the login redirect"):
    """The usual start: beads in use, a ticket closed through Bash."""
    os.makedirs(proj.path(".beads"), exist_ok=True)
    tracker.set([{"id": tid, "title": title, "status": "closed"}])
    return bash(proj, "bd close %s" % tid)
