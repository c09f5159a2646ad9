"""PostToolUse: apply the changes an agent-run sane.py handed to the hooks.

Under Claude Code's sandbox the agent's shell can neither read the HMAC key nor write the
state, so a state-changing subcommand (learn reflect|skip|observe, review decide, intent
select|clear, loop check) checks what it can and prints one request line (core/cli/common.py
REQUEST_MARK). Here, outside the sandbox and under the state lock, the request is applied
only when:
- this Bash call succeeded (PostToolUse: a failed, denied or interrupted call changes nothing),
- an unused authorisation recorded at PreToolUse for this very tool_use_id and session has
  exactly the request's arguments (it is consumed: a request counts once),
- and the subcommand, run again here on the verified state for the caller that authorisation
  names, accepts it.
The operation comes from the recorded arguments, never from the request's claims; the only
thing a request adds is the input the CLI read inside the sandbox (a reflection from stdin or
--file), which is validated like any agent input. So a forged or replayed request line grants
nothing the genuine call would not. The hooks never open a file the agent names.

Why PostToolUse and not PreToolUse: at PreToolUse the command has not run, so a call that
then fails, is interrupted or is refused by the person would still count, and a reflection's
input (stdin, --file) does not exist yet.
"""

from __future__ import annotations

import contextlib
import io
import json

from core import policy

MAX_REQUESTS = 8  # request lines looked at per tool call
CONTEXT_LIMIT = 3000  # characters of one subcommand's output passed back to the agent
# The state-changing subcommands the agent may run: a request for anything else is ignored.
CHANGERS = {
    ("learn", "reflect"),
    ("learn", "skip"),
    ("learn", "observe"),
    ("review", "decide"),
    ("intent", "select"),
    ("intent", "clear"),
    ("loop", "check"),
}


def _stdout(payload) -> str:
    resp = payload.get("tool_response")
    if isinstance(resp, dict):
        text = resp.get("stdout")
        return text if isinstance(text, str) else ""
    return resp if isinstance(resp, str) else ""


def requests_in(text: str) -> list:
    """The request lines in a Bash call's output: [(raw dict or None, problem or None)]."""
    from core.cli.common import REQUEST_LIMIT, REQUEST_MARK

    found: list[tuple[dict | None, str | None]] = []
    if REQUEST_MARK.strip() not in text:
        return found
    for line in text.splitlines():
        line = line.rstrip()  # at the start of a line, as the CLI prints it (never indented)
        if not line.startswith(REQUEST_MARK.strip()):
            continue
        if len(found) >= MAX_REQUESTS:
            found.append((None, "more than %d requests in one call" % MAX_REQUESTS))
            break
        body = line[len(REQUEST_MARK.strip()) :].strip()
        if len(body) > REQUEST_LIMIT:
            found.append((None, "a request longer than %d characters" % REQUEST_LIMIT))
            continue
        try:
            req = json.loads(body)
        except (ValueError, RecursionError):
            found.append((None, "a request that is not valid JSON (cut short?)"))
            continue
        if not isinstance(req, dict) or not isinstance(req.get("args"), list):
            found.append((None, "a request without its arguments"))
            continue
        found.append((req, None))
    return found


def _auths(ctx) -> list:
    """The unexpired authorisations of this tool call in this session."""
    tid = ctx.payload.get("tool_use_id")
    if not isinstance(tid, str) or not tid:
        return []
    return [
        a
        for a in ctx.state.get("auth") or []
        if isinstance(a, dict)
        and a.get("tool_use_id") == tid
        and a.get("session") == ctx.sid
        and a.get("agent_id") == ctx.agent_id
        and a.get("expires", 0) > ctx.now
    ]


def _name(args) -> str:
    return " ".join(str(a) for a in args[:6])[:200]


def run_request(ctx, auth: dict, req: dict):
    """Run the authorised subcommand in-process on the hook's store. (exit code, output)."""
    from core.cli import common, main

    argv = list(auth.get("args") or [])
    who = common.Caller("agent", auth.get("session"), auth.get("agent_id"), auth.get("agent_type"))
    rt = common.Runtime("hook", store=ctx.store, who=who, input=req.get("input"))
    rt.project = ctx.project
    old = common.set_runtime(rt)
    spill = io.StringIO()  # argparse writes --help and usage itself: never onto our JSON
    try:
        with contextlib.redirect_stdout(spill), contextlib.redirect_stderr(spill):
            try:
                args = main.build().parse_args(argv)
                code = main.dispatch(args, argv)
            except common.CliError as exc:
                common.err("sane.py: %s" % exc)
                code = exc.code
            except SystemExit as exc:  # argparse's --help and the like
                code = exc.code if isinstance(exc.code, int) else 1
                code = code or 1  # help is not a change
    finally:
        common.set_runtime(old)
    return code, "\n".join(rt.lines + ([spill.getvalue()[:500]] if spill.getvalue() else []))


def post_tool(ctx, facts, ok):
    """Apply the requests this Bash call handed over (before drop_auth clears its
    authorisations); tell the agent what happened."""
    if ctx.tool != "Bash" or not facts.sane_calls:
        return
    text = _stdout(ctx.payload) if ok else ""
    found = requests_in(text)
    auths = _auths(ctx)
    used = []
    notes = []
    for req, problem in found:
        if problem:
            notes.append("sane: ignored %s; nothing was applied for it." % problem)
            continue
        args = [a for a in req["args"] if isinstance(a, str)]
        auth = next(
            (a for a in auths if a not in used and a.get("args") == req["args"] == args), None
        )
        call = policy.SaneCall(args)
        if auth is None or call.sub not in CHANGERS or call.person_only:
            ctx.audit("handoff_refused", args=args[:8], tool_use_id=ctx.payload.get("tool_use_id"))
            notes.append(
                "sane: ignored a request for `sane.py %s`: no authorised sane.py call of this "
                "Bash call has those arguments (each call's request counts once). Nothing "
                "changed; run the subcommand itself as a plain Bash call." % _name(args)
            )
            continue
        used.append(auth)
        _consume(ctx, auth)
        if ctx.store.tamper or (ctx.state.get("tamper") or {}).get("locked"):
            notes.append(
                "sane: [tamper] `sane.py %s` was NOT applied: the sane state failed "
                "verification, so every change is locked. Stop and tell the person: they check "
                "`python3 scripts/hooks/sane.py doctor` and type `unlock`." % _name(args)
            )
            continue
        if ctx.store.busy:
            notes.append(
                "sane: [busy] `sane.py %s` was NOT applied: another sane hook held the state "
                "lock. Run the same command again." % _name(args)
            )
            continue
        try:
            code, output = run_request(ctx, auth, req)
        except Exception as exc:  # our bug: say so, never a traceback
            ctx.log("error", "handoff: %s: %s" % (type(exc).__name__, exc))
            notes.append(
                "sane: `sane.py %s` was NOT applied: the hooks failed on it (%s); see "
                ".claude/sanetrack.log" % (_name(args), type(exc).__name__)
            )
            continue
        ctx.audit("handoff", args=args[:8], code=code, agent_id=auth.get("agent_id"))
        verdict = (
            "applied by the hooks"
            if code == 0
            else "NOT applied (refused by the hooks, exit %s)" % code
        )
        notes.append(
            "sane: `sane.py %s` %s:\n%s" % (_name(args), verdict, output[-CONTEXT_LIMIT:].strip())
        )
    if ok:
        for a in auths:
            if a in used or policy.SaneCall(a.get("args") or []).sub not in CHANGERS:
                continue
            if _pending(ctx, a):
                notes.append(
                    "sane: `sane.py %s` changed nothing: its request did not reach the hooks "
                    "(was its output redirected or filtered, or the call run in the background?). "
                    "Run it again as a plain Bash call in the foreground and keep its output."
                    % _name(a.get("args") or [])
                )
    for n in notes:
        ctx.answer.add_context(n)


def _consume(ctx, auth):
    ctx.state["auth"] = [a for a in ctx.state.get("auth") or [] if a is not auth]


def _pending(ctx, auth) -> bool:
    """Is this authorisation still unused (a direct-mode CLI consumes its own)?"""
    return any(a is auth for a in ctx.state.get("auth") or [])
