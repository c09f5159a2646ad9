"""The review gate's words: block templates (`.claude/sane-templates/block-<id>.md`, weighted
A/B choice, built-in fallback) and every message the agent or the person reads."""

from __future__ import annotations

import os

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from typing import Any

    from core.config import Config

CLI = "python3 scripts/hooks/sane.py"

# Used when the chosen template file is missing or unreadable (a warning goes to the log).
BUILTIN = """Review required before you stop: an independent reviewer must check this session's
work, and only the reviewer can record the verdict.

Spawn the reviewer now with the Agent tool, with exactly these parameters:
- subagent_type: "{{reviewer_agent}}"
- description: "Review this session's work"
- run_in_background: false (wait for the verdict; omit it if your Agent tool has no such field)
- prompt (it must start with the SESSION_ID line):

```
SESSION_ID={{session_id}}

## Summary
[What you did and why, in a few sentences]

## Files Changed
{{files_changed}}
```

The reviewer reads the files and the diff itself and records COMPLETE or ISSUES. When it
answers ISSUES, fix what it found and spawn it again.
"""


def _safe_id(tid):
    return (
        isinstance(tid, str) and 0 < len(tid) <= 40 and all(c.isalnum() or c in "-_" for c in tid)
    )


def select_template(cfg: Config) -> str:
    """The pinned template id, or a weighted random one (templates.active: random)."""
    active = cfg.get("review.templates.active")
    if isinstance(active, str) and active != "random" and _safe_id(active):
        return active
    weights = cfg.get("review.templates.weights") or {}
    pool = []
    for k, v in weights.items() if isinstance(weights, dict) else ():
        try:
            w = int(v)
        except (TypeError, ValueError):
            continue
        if w > 0 and _safe_id(k):
            pool.append((k, w))
    if not pool:
        return "v1"
    total = sum(w for _, w in pool)
    pick = int.from_bytes(os.urandom(4), "big") % total
    for k, w in sorted(pool):
        if pick < w:
            return k
        pick -= w
    return pool[-1][0]


def template_path(project: str, tid: str) -> str:
    return os.path.join(project, ".claude", "sane-templates", "block-%s.md" % tid)


def load_template(project: str, tid: str) -> tuple[str, str | None]:
    """(text, problem or None). A missing or unreadable file gives the built-in template."""
    if not _safe_id(tid):
        return BUILTIN, "template id %r is not a plain name; built-in template used" % (tid,)
    path = template_path(project, tid)
    try:
        with open(path, "rb") as fh:
            text = fh.read(64 * 1024).decode("utf-8")
        if "{{session_id}}" not in text:
            return BUILTIN, "%s has no {{session_id}}; built-in template used" % path
        return text, None
    except (OSError, UnicodeDecodeError) as exc:
        return BUILTIN, "template %s unreadable (%s); built-in template used" % (
            path,
            exc.__class__.__name__,
        )


def files_changed(sess: dict[str, Any], limit: int = 40) -> str:
    files = ((sess.get("edits") or {}).get("unique_files") or [])[-limit:]
    if not files:
        return "[List the files you changed]"
    return "\n".join("- %s" % f for f in files)


def render(text: str, sid: str, reviewer: str, sess: dict[str, Any]) -> str:
    return (
        text.replace("{{session_id}}", sid)
        .replace("{{reviewer_agent}}", reviewer)
        .replace("{{files_changed}}", files_changed(sess))
        .replace("{{cli}}", CLI)
    )


def agent_call(sid: str, reviewer: str, sess: dict[str, Any]) -> str:
    """The exact Agent call, for denials that do not carry the whole template."""
    return render(
        'the Agent tool with subagent_type "{{reviewer_agent}}", run_in_background '
        "false, and a prompt that starts with the line `SESSION_ID={{session_id}}` "
        "followed by `## Summary` (what you did and why) and `## Files Changed`",
        sid,
        reviewer,
        sess,
    )


def decide_commands(sid: str) -> str:
    return (
        '  %s review decide %s COMPLETE "what you checked and why it is right" '
        '--opinions "<who gave a second opinion, or none>"\n'
        '  %s review decide %s ISSUES "what is wrong" --message "what the agent must fix" '
        '--opinions "<who gave a second opinion, or none>"' % (CLI, sid, CLI, sid)
    )


# ---------------------------------------------------------------- messages


def stop_block(body: str, decision: dict[str, Any] | None) -> str:
    """[review] Stop block: the reviewer's ISSUES first, then the template."""
    head = "[review] "
    if decision and decision.get("word") == "ISSUES" and decision.get("confirmed"):
        head += (
            "The reviewer found ISSUES, so you may not stop yet.\nReviewer's summary: %s\n"
            "What to fix: %s\n\nFix these, then have the work reviewed again.\n\n"
            % (decision.get("summary") or "-", decision.get("message") or "-")
        )
    return head + body


def waiting(aids: list[str], now: float, reviewers: dict[str, Any]) -> str:
    parts = []
    for aid in aids:
        rec = reviewers.get(aid) or {}
        parts.append(
            "%s (started %ds ago)" % (aid, max(0, int(now - (rec.get("started_at") or now))))
        )
    return (
        "[review] Waiting for the reviewer: %s has not finished yet. Its verdict counts only "
        "once it finishes, and this wait does not count toward the review breaker. Wait for "
        "it (check its output with the TaskOutput tool, or run a short `sleep 30` in Bash), "
        "then end your turn again." % ", ".join(parts)
    )


def gate_denied(
    call: str, pattern: str, status: str, sid: str, reviewer: str, sess: dict[str, Any], scope: str
) -> str:
    why = {
        "pending": "a review is open and not yet approved",
        "blocked": "a review is open and not yet approved",
        "approved": "the approval has expired",
        "idle": "this session has no reviewer approval",
    }.get(status, "no approval")
    return (
        "[review-gate] %s matches the review gate %r and %s. A review is now open for this "
        "session. Spawn the reviewer with %s; once it records COMPLETE, retry this call "
        "(approval scope: %s)." % (call, pattern, why, agent_call(sid, reviewer, sess), scope)
    )


def bad_session_id(got: str, sid: str, reviewer: str, sess: dict[str, Any], template: str) -> str:
    return (
        "[review] The reviewer's prompt must start with `SESSION_ID=%s` (this session); it "
        "has %s. Call the Agent tool again:\n\n%s"
        % (
            sid,
            "`SESSION_ID=%s`" % got if got else "no SESSION_ID line",
            render(template, sid, reviewer, sess),
        )
    )


def main_thread_decide(sid: str, reviewer: str, sess: dict[str, Any]) -> str:
    return (
        "[review] Only the reviewer subagent may record a review decision: the agent whose "
        "work is reviewed cannot approve it, in any spelling. Spawn the reviewer with %s and "
        "let it decide. (The person can also decide, outside Claude Code: `%s review decide "
        '%s COMPLETE "summary"`.)' % (agent_call(sid, reviewer, sess), CLI, sid)
    )


def reviewer_mutation(what: str) -> str:
    return (
        "[review] The reviewer only reads: %s would change something. Review by reading the "
        "files, `git diff` and `git log`, ask for second opinions in read-only mode, and "
        "record the verdict with `%s review decide`." % (what, CLI)
    )


def reviewer_wrong_session(got: str, sid: str) -> str:
    return (
        "[review] This reviewer reviews session %s; it may not decide for %s. Use `%s review "
        "decide %s ...`." % (sid, got or "(none)", CLI, sid)
    )


def reviewer_cli(name: str) -> str:
    return (
        "[review] The reviewer may not run `sane.py %s`: it changes state. The reviewer reads, "
        "and only records its verdict with `%s review decide`." % (name, CLI)
    )


def nudge(sid: str) -> str:
    return (
        "[review] You are finishing without recording a decision, so the review does not "
        "count. Record it now with exactly one of:\n%s" % decide_commands(sid)
    )


def reviewer_context(sid: str, tools: list[tuple[str, str]], external: list[str]) -> str:
    lines = [
        "sane review gate: you review session %s (SESSION_ID=%s)." % (sid, sid),
        "Get the person's prompts, the gate trigger and the changed files with "
        "`%s review context %s`." % (CLI, sid),
    ]
    if tools:
        lines.append(
            "Second-opinion tools installed here: %s. Ask at least one of them, "
            "read-only, in this order."
            % ", ".join("%s (`%s`)" % (name, cmd) for name, cmd in tools)
        )
    else:
        lines.append(
            "No second-opinion tool is installed here (looked for: %s). Say so in your "
            "summary and record `--opinions none`." % (", ".join(external) or "none configured")
        )
    lines.append(
        "You may only read: any change to files is denied. Record your verdict with:\n"
        + decide_commands(sid)
    )
    return "\n".join(lines)
