"""PostToolUse / PostToolUseFailure: edits, research credit, failures and the breaker, the
action log. Decides from explicit fields only: text in stdout is never an error."""

import os

from core import paths, policy
from core.intents import hooks as intents
from core.learning import hooks as learning
from core.review import hooks as review

UNIQUE_FILES_CAP = 200
ACTION_LOG_CAP = 20
SHELL_READERS = frozenset(
    (
        "cat",
        "head",
        "tail",
        "less",
        "more",
        "grep",
        "rg",
        "ag",
        "ls",
        "find",
        "fd",
        "tree",
        "wc",
        "file",
        "stat",
        "git",
        "sed",
        "awk",
        "jq",
        "diff",
    )
)


def research_category(ctx, tool):
    """Which research category a tool belongs to, or None."""
    if tool in ("Read", "Grep", "Glob", "LS", "NotebookRead"):
        return "local"
    if tool in ("WebSearch", "WebFetch"):
        return "web"
    if tool.startswith("mcp__"):
        from core.globs import fnmatchcase

        tools = ctx.cfg.get("research.tools") or {}
        for cat, pats in tools.items() if isinstance(tools, dict) else ():
            for pat in pats if isinstance(pats, list) else [pats]:
                if isinstance(pat, str) and fnmatchcase(tool, pat):
                    return cat
    return None


def _nonempty(resp):
    if resp is None:
        return False
    if isinstance(resp, str):
        return bool(resp.strip())
    if isinstance(resp, list):
        return any(_nonempty(x) for x in resp)
    if isinstance(resp, dict):
        if "numFiles" in resp:
            return bool(resp.get("numFiles")) or bool(resp.get("content"))
        f = resp.get("file")
        if isinstance(f, dict):
            return bool(f.get("content")) or f.get("type") not in (None, "text")
        for key in ("content", "results", "result", "text", "stdout", "filenames", "data"):
            if key in resp:
                return _nonempty(resp[key])
        return any(_nonempty(v) for v in resp.values() if not isinstance(v, bool))
    return bool(resp)


def credit_research(ctx, facts, ok):
    tool = ctx.tool
    r = ctx.session["research"]
    cat = research_category(ctx, tool)
    if cat and cat != "local" and cat != "web":
        used = r.setdefault("used", [])
        if cat not in used:
            used.append(cat)
    if not ok:
        return
    resp = ctx.payload.get("tool_response")
    if cat is None and facts.kind == "shell" and not facts.writes and not facts.unknown:
        a = facts.analysis
        if a is not None and a.commands and all(c.program in SHELL_READERS for c in a.commands):
            cat = "local"
    if cat is None or not policy.is_read_only_tool(tool) and facts.kind != "shell":
        return
    if not _nonempty(resp):
        return
    if not r.get(cat):
        r[cat] = {"at": ctx.now, "tool": tool}


def track_edits(ctx, facts, ok):
    if not ok:
        return
    targets = []
    if facts.kind == "write":
        targets = facts.writes
    elif facts.kind == "shell":
        targets = [w for w in facts.writes if paths.is_under(w, ctx.project)]
    if not targets:
        return
    e = ctx.session["edits"]
    e["count"] = e.get("count", 0) + 1
    files = e.setdefault("unique_files", [])
    for t in targets:
        rel = os.path.relpath(t, ctx.project) if paths.is_under(t, ctx.project) else t
        if rel not in files:
            e["unique_count"] = e.get("unique_count", len(files)) + 1
            files.append(rel)
        e["last_file"] = rel
    if len(files) > UNIQUE_FILES_CAP:
        del files[: len(files) - UNIQUE_FILES_CAP]


def error_signature(tool, error):
    """A normalised signature for a failure, from the explicit error field."""
    text = error if isinstance(error, str) else ""
    lines = text.splitlines()
    exit_code = None
    if lines and lines[0].startswith("Exit code "):
        exit_code = lines[0][10:].strip()
        body = "\n".join(lines[1:]).lower()
    else:
        body = text.lower()
    if "command not found" in body or "not recognized as" in body:
        kind = "COMMAND_NOT_FOUND"
    elif "syntax error" in body or "syntaxerror" in body or "unexpected token" in body:
        kind = "SYNTAX_ERROR"
    elif "permission denied" in body or "eacces" in body:
        kind = "PERMISSION_DENIED"
    elif (
        "no such file" in body
        or "enoent" in body
        or "does not exist" in body
        or "not found" in body
    ):
        kind = "FILE_NOT_FOUND"
    elif "modulenotfounderror" in body or "importerror" in body or "cannot find module" in body:
        kind = "IMPORT_ERROR"
    elif "timed out" in body or "timeout" in body:
        kind = "TIMEOUT"
    elif "assert" in body or "failed" in body or "failures" in body:
        kind = "TEST_FAILURE"
    elif "connection" in body or "network" in body or "resolve host" in body:
        kind = "NETWORK"
    elif "string to replace not found" in body or "old_string" in body:
        kind = "EDIT_MISMATCH"
    else:
        kind = "EXIT_%s" % exit_code if exit_code else "ERROR"
    return "%s:%s" % (tool or "?", kind)


def track_failure(ctx, facts, ok):
    cb = ctx.state["circuit_breaker"]
    if ok:
        if cb.get("failures") and not cb.get("tripped"):
            cb["failures"] = 0
        return
    if ctx.payload.get("is_interrupt") is True:
        return  # the person stopped it: not a failure of the agent
    sig = error_signature(ctx.tool, ctx.payload.get("error"))
    cb["failures"] = cb.get("failures", 0) + 1
    sigs = cb.setdefault("error_signatures", {})
    sigs[sig] = sigs.get(sig, 0) + 1
    if len(sigs) > 50:
        for k in sorted(sigs, key=sigs.get)[: len(sigs) - 50]:
            del sigs[k]
    err = ctx.payload.get("error")
    cb["last_error"] = (err if isinstance(err, str) else sig)[:300]
    max_c = ctx.cfg.int("breaker.max_consecutive", 3)
    max_s = ctx.cfg.int("breaker.max_same_signature", 3)
    if cb.get("tripped"):
        return
    if cb["failures"] >= max_c or sigs[sig] >= max_s:
        why = (
            "%d consecutive failures" % cb["failures"]
            if cb["failures"] >= max_c
            else "%d failures with the signature %s" % (sigs[sig], sig)
        )
        cb.update(tripped=True, tripped_at=ctx.now, trip_reason=why)
        ctx.audit("breaker_trip", reason=why, signature=sig)
        ctx.answer.add_context(
            "sane: the circuit breaker TRIPPED (%s). Only read-only tools work "
            "now. Stop and explain the failures to the person; they reset it "
            "with `rb-`." % why
        )
        ctx.answer.tell_user(
            "sane-hooks: circuit breaker TRIPPED (%s). Type `rb-` to reset it." % why
        )
    else:
        ctx.answer.add_context(
            "sane: failure %d of %d before the circuit breaker trips (%s seen "
            "%d of %d times). Change the approach rather than retrying."
            % (cb["failures"], max_c, sig, sigs[sig], max_s)
        )


def log_action(ctx, facts, ok):
    log = ctx.session.setdefault("action_log", [])
    target = (facts.raw_writes or facts.raw_reads or [facts.text[:80]] or [None])[0]
    log.append(
        {
            "ts": round(ctx.now, 3),
            "tool": ctx.tool,
            "ok": ok,
            "target": target[:200] if isinstance(target, str) else None,
        }
    )
    if len(log) > ACTION_LOG_CAP:
        del log[: len(log) - ACTION_LOG_CAP]


def drop_auth(ctx, facts, ok):
    tid = ctx.payload.get("tool_use_id")
    auth = ctx.state.get("auth") or []
    keep = [
        a
        for a in auth
        if isinstance(a, dict) and a.get("tool_use_id") != tid and a.get("expires", 0) > ctx.now
    ]
    if len(keep) != len(auth):
        ctx.state["auth"] = keep


def sandbox_refusal(ctx, facts, ok):
    if ctx.tool in ("Bash", "PowerShell"):
        from core import sandbox

        sandbox.post_tool(ctx, facts, ok)


TRACKERS = [
    drop_auth,
    track_failure,
    track_edits,
    credit_research,
    log_action,
    sandbox_refusal,
    review.post_tool,
    learning.post_tool,
    intents.post_tool,
]


def on_post_tool(ctx):
    ok = ctx.event == "PostToolUse"
    facts = policy.facts_for(ctx.tool, ctx.tool_input, ctx.cwd, ctx.project, ctx.home)
    ctx.facts = facts
    for tracker in TRACKERS:
        tracker(ctx, facts, ok)
