"""Helpers for the review-gate tests (no tests here): drive the real scripts in Claude Code's
real event order, with one tool_use_id per call and the reviewer's own agent_id/agent_type."""

import itertools
import json
import os
import shlex
import subprocess
import sys

REVIEWER = "reviewer"
CLI = "python3 scripts/hooks/sane.py"
_ids = itertools.count(1)


def deny(r):
    return r.denied or ""


class Flow:
    """One session of a scratch project (several Flows may share a project)."""

    def __init__(self, proj, sid=None):
        self.p = proj
        self.sid = sid or proj.sid

    # -- the main agent and the person
    def tid(self):
        return "toolu_rv_%06d" % next(_ids)

    def prompt(self, text):
        return self.p.prompt(text, session_id=self.sid)

    def session_start(self, source="startup"):
        return self.p.hook(
            "saneprompt", self.p.payload("SessionStart", session_id=self.sid, source=source)
        )

    def pre(self, tool, ti, agent=None, agent_type=REVIEWER, tid=None):
        kw = {"session_id": self.sid, "tool_use_id": tid or self.tid()}
        if agent:
            kw.update(agent_id=agent, agent_type=agent_type)
        return self.p.pre(tool, ti, **kw)

    def post(self, tool, ti, response=None, agent=None, agent_type=REVIEWER, tid=None):
        kw = {"session_id": self.sid, "tool_use_id": tid or self.tid()}
        if agent:
            kw.update(agent_id=agent, agent_type=agent_type)
        return self.p.post(tool, ti, response, **kw)

    def bash(self, command, agent=None, agent_type=REVIEWER):
        """PreToolUse, and PostToolUse when allowed (the command itself is not run)."""
        tid = self.tid()
        r = self.pre("Bash", {"command": command}, agent=agent, agent_type=agent_type, tid=tid)
        if r.denied is None:
            self.post(
                "Bash",
                {"command": command},
                {"stdout": "", "stderr": "", "interrupted": False},
                agent=agent,
                agent_type=agent_type,
                tid=tid,
            )
        return r

    def stop(self, active=False, **kw):
        return self.p.stop(active=active, session_id=self.sid, **kw)

    def agent_input(self, sid=None, subagent_type=REVIEWER, prompt=None):
        return {
            "description": "Review this session's work",
            "subagent_type": subagent_type,
            "run_in_background": False,
            "prompt": prompt
            if prompt is not None
            else "SESSION_ID=%s\n\n## Summary\nDid the thing.\n\n## Files Changed\n- app.py"
            % (sid or self.sid),
        }

    # -- the reviewer's life cycle
    def spawn(self, agent="agent-rev-1", agent_type=REVIEWER, background=True, sid=None):
        """Main thread's Agent PreToolUse (+ PostToolUse async_launched when background),
        then SubagentStart. Returns (pre result, SubagentStart result, Agent tool_use_id)."""
        ti = self.agent_input(sid=sid, subagent_type=agent_type)
        tid = self.tid()
        r = self.pre("Agent", ti, tid=tid)
        if r.denied is not None:
            return r, None, tid
        if background:
            self.post(
                "Agent",
                ti,
                {
                    "isAsync": True,
                    "status": "async_launched",
                    "agentId": agent,
                    "description": ti["description"],
                    "prompt": ti["prompt"],
                },
                tid=tid,
            )
        s = self.p.hook(
            "saneprompt",
            self.p.payload(
                "SubagentStart", session_id=self.sid, agent_id=agent, agent_type=agent_type
            ),
        )
        return r, s, tid

    def finish_foreground(self, tid, agent="agent-rev-1"):
        ti = self.agent_input()
        return self.post(
            "Agent",
            ti,
            {
                "status": "completed",
                "agentId": agent,
                "content": [{"type": "text", "text": "verdict"}],
            },
            tid=tid,
        )

    def decide_args(
        self,
        word,
        summary="read app.py and the diff; correct",
        message=None,
        opinions="none",
        sid=None,
    ):
        args = ["review", "decide", sid or self.sid, word, summary]
        if message is not None:
            args += ["--message", message]
        if opinions is not None:
            args += ["--opinions", opinions]
        return args

    def decide(self, agent, word, agent_type=REVIEWER, **kw):
        """The reviewer's Bash decide: PreToolUse, the CLI run as Claude Code runs it, then
        PostToolUse. Returns (PreToolUse result, CLI process or None)."""
        args = self.decide_args(word, **kw)
        command = "%s %s" % (CLI, shlex.join(args))
        tid = self.tid()
        r = self.pre("Bash", {"command": command}, agent=agent, agent_type=agent_type, tid=tid)
        if r.denied is not None:
            return r, None
        c = self.cli(args)
        resp = {"stdout": c.stdout, "stderr": c.stderr, "interrupted": False}
        if c.returncode == 0:
            self.post(
                "Bash", {"command": command}, resp, agent=agent, agent_type=agent_type, tid=tid
            )
        else:
            self.p.fail(
                "Bash",
                {"command": command},
                error="Exit code %d\n%s" % (c.returncode, c.stderr),
                session_id=self.sid,
                tool_use_id=tid,
                agent_id=agent,
                agent_type=agent_type,
            )
        return r, c

    def cli(self, args, claude=True, extra_env=None):
        """sane.py exactly as a Bash call runs it: cwd = the project, the project's installed
        copy, CLAUDECODE=1 and CLAUDE_CODE_SESSION_ID when claude (else the person's shell)."""
        env = dict(self.p.env)
        if claude:
            env.update(
                CLAUDECODE="1", CLAUDE_CODE_SESSION_ID=self.sid, CLAUDE_PROJECT_DIR=self.p.dir
            )
        env.update(extra_env or {})
        script = self.p.path("scripts", "hooks", "sane.py")
        if not os.path.exists(script):
            script = os.path.join(
                os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                "scripts",
                "hooks",
                "sane.py",
            )
        proc = subprocess.run(
            [sys.executable, script] + list(args),
            capture_output=True,
            text=True,
            env=env,
            cwd=self.p.dir,
            timeout=60,
        )
        assert "Traceback" not in proc.stderr, proc.stderr
        return proc

    def subagent_stop(self, agent="agent-rev-1", active=False, agent_type=REVIEWER, message="done"):
        return self.p.hook(
            "sanestop",
            self.p.payload(
                "SubagentStop",
                session_id=self.sid,
                agent_id=agent,
                agent_type=agent_type,
                stop_hook_active=active,
                last_assistant_message=message,
                agent_transcript_path=os.path.join(self.p.home, "agent.jsonl"),
                background_tasks=[],
                session_crons=[],
            ),
        )

    def review_cycle(self, word="COMPLETE", agent="agent-rev-1", **kw):
        """Spawn, decide, finish: the whole reviewer run. Returns the CLI process."""
        r, s, tid = self.spawn(agent=agent)
        assert r.denied is None, r.stdout
        r, c = self.decide(agent, word, **kw)
        assert r.denied is None, r.stdout
        assert c.returncode == 0, c.stderr
        s = self.subagent_stop(agent)
        assert s.denied is None, s.stdout
        return c

    # -- reading the state
    def review(self):
        return self.p.session_state(self.sid).get("review") or {}

    def audit(self, event=None):
        path = self.p.path(".claude", "audit.jsonl")
        if not os.path.exists(path):
            return []
        recs = [json.loads(line) for line in open(path) if line.strip()]
        return [r for r in recs if event is None or r.get("event") == event]

    def trace_types(self):
        return [e["type"] for e in self.review().get("trace") or []]
