"""Intent governance: every change cites a selected intent, stays inside its scope,
asks the person before a destructive command, never overwrites a file changed since it was
read, and leaves an Agent Trace record in `.claude/agent_trace.jsonl`.

Loaded by every hook: the module imports nothing heavy, and without an intents file a gate
costs one stat. The YAML is parsed only when the file changed (the result is cached in the
signed state); see intents_file.py, intents_scope.py, intents_reads.py and trace*.py.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from typing import Any

    from core.engine import Ctx
    from core.intents.loader import Intents
    from core.policy import Facts

CLI = "python3 scripts/hooks/sane.py"
FILE_TOOLS = ("Write", "Edit", "MultiEdit", "NotebookEdit")
READ_TOOLS = ("Read", "NotebookRead")


# ---------------------------------------------------------------- helpers


class _NoFile:
    exists = broken = False
    intents: tuple[dict[str, Any], ...] = ()
    active: tuple[dict[str, Any], ...] = ()
    errors: tuple[str, ...] = ()

    def get(self, iid):
        return None


NO_FILE = _NoFile()


def intents_path(project: str) -> str:
    return os.path.join(project, ".claude", "active_intents.yaml")


def load(ctx: Ctx) -> Intents | _NoFile:
    """The validated intents file. Without one: one stat, no import."""
    path = intents_path(ctx.project)
    if not os.path.exists(path):
        cache = ctx.state["cache"].get("yaml")
        if isinstance(cache, dict):
            cache.pop(path, None)
            cache.pop(os.path.join(ctx.project, ".claude", ".intentignore"), None)
        return NO_FILE
    from core.intents import loader as intents_file

    return intents_file.load(ctx.project, ctx.state["cache"].setdefault("yaml", {}))


def _real(path):
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return path


def selected_id(sess: dict[str, Any]) -> str | None:
    info = sess.get("intent") if isinstance(sess, dict) else None
    iid = info.get("id") if isinstance(info, dict) else None
    return iid if isinstance(iid, str) and iid else None


def current(ctx: Ctx, intents: Intents | _NoFile) -> dict[str, Any] | None:
    """The session's selected intent when it is still IN_PROGRESS in the file, else None."""
    it = intents.get(selected_id(ctx.session) or "")
    return it if it is not None and it["status"] == "IN_PROGRESS" else None


def select(
    sess: dict[str, Any], it: dict[str, Any], by: str, agent_id: str | None, now: float
) -> None:
    info = sess.setdefault("intent", {})
    info.update(id=it["id"], selected_at=round(now, 3), by=by, agent_id=agent_id)


def clear(sess: dict[str, Any]) -> str | None:
    info = sess.setdefault("intent", {})
    was = info.get("id")
    for k in ("id", "selected_at", "by", "agent_id"):
        info.pop(k, None)
    return was


def _list(items, limit=6):
    return ", ".join(items[:limit]) + (", ..." if len(items) > limit else "")


def active_text(intents: Intents | _NoFile) -> str:
    return "; ".join(
        "%s (%s; scope: %s)" % (it["id"], it["name"], _list(it["scope"], 3) or "none")
        for it in intents.active[:8]
    )


def describe(project: str, it: dict[str, Any], history: bool = True) -> str:
    """Scope, constraints, acceptance criteria and recent ledger history of an intent."""
    lines = [
        "Scope (only these paths may change): %s"
        % (", ".join(it["scope"]) or "none: this intent allows no writes")
    ]
    if it["constraints"]:
        lines.append("Constraints:")
        lines += ["- " + c for c in it["constraints"][:20]]
    if it["acceptance_criteria"]:
        lines.append("Acceptance criteria:")
        lines += ["- " + c for c in it["acceptance_criteria"][:20]]
    if history:
        from core.trace import ledger as trace

        recent = trace.recent_for_intent(project, it["id"])
        if recent:
            lines.append("Recent changes under this intent (newest first):")
            for ts, paths, mclass, sid in recent:
                lines.append(
                    "- %s %s (%s, session %s)"
                    % (ts, _list([p for p in paths if p], 4), mclass, sid)
                )
        else:
            lines.append("No change has been recorded under this intent yet.")
    return "\n".join(lines)


def brief(project: str, it: dict[str, Any], history: bool = True) -> str:
    """What the model needs once an intent is selected."""
    return "sane: intent %s (%s) is selected for this session [%s].\n%s" % (
        it["id"],
        it["name"],
        it["status"],
        describe(project, it, history),
    )


def reminder(intents: Intents | _NoFile) -> str:
    return (
        "sane: this project has active intents: %s. Before changing anything, select the one "
        "this work belongs to: `%s intent select <ID>` (the person can type `intent <ID>`)."
        % (active_text(intents), CLI)
    )


def _targets(ctx, facts):
    """(real write targets the intent gates judge, unknown). Temp-dir writes and the
    project's .git are not the intents' business."""
    from core import paths

    allow_temp = ctx.cfg.get("paths.allow_temp_writes")
    out = []
    git = os.path.join(ctx.project, ".git")
    for w in facts.writes:
        if allow_temp and paths.in_temp(w, ctx.project):
            continue
        real = _real(w)
        if real == git or real.startswith(git + os.sep):
            continue  # git's own metadata (a commit, a push): no intent owns it
        out.append(real)
    return out, bool(facts.unknown)


# ---------------------------------------------------------------- PreToolUse gates


def pre_tool(ctx: Ctx, facts: Facts) -> str | None:
    """[no-intent], [scope], destructive commands (ask or [destructive]), [stale-file].
    Reads are never blocked here; our own agent-allowed CLI calls pass."""
    if facts.kind not in ("write", "shell") or facts.only_sane:
        return None
    targets, unknown = _targets(ctx, facts)
    if targets or unknown:
        reason = intent_gate(ctx, facts, targets, unknown)
        if reason:
            return reason
    if facts.kind == "shell" and facts.destructive:
        reason = destructive_gate(ctx, facts)
        if reason:
            return reason
    if (
        facts.kind == "write"
        and facts.writes
        and ctx.cfg.get("intents.stale_check")
        and _has_baselines(ctx)
    ):
        return stale_gate(ctx, facts)
    return None


def _has_baselines(ctx):
    reads = ctx.session.get("reads")
    return isinstance(reads, dict) and bool(reads.get(ctx.agent_id or "main"))


def intent_gate(ctx: Ctx, facts: Facts, targets: list[str], unknown: bool) -> str | None:
    intents = load(ctx)
    if not intents.exists:
        return None
    if intents.broken:
        ctx.answer.tell_user(
            "sane-hooks: .claude/active_intents.yaml has problems, so changes "
            "are blocked: %s" % intents.errors[0]
        )
        return (
            "[no-intent] The intents file .claude/active_intents.yaml cannot be used: %s. "
            "Changes are blocked until it is fixed; reads still work. It is the person's "
            "file: tell them the problem (`%s intent list` shows it)."
            % ("; ".join(intents.errors[:3]), CLI)
        )
    it = current(ctx, intents)
    if it is None:
        if not intents.active or not ctx.cfg.get("intents.require_selection"):
            return None
        sel = selected_id(ctx.session)
        why = (
            "The selected intent %s is no longer IN_PROGRESS" % sel
            if sel
            else "No intent is selected for this session"
        )
        return (
            "[no-intent] %s, and every change must cite one. Active intents: %s. Select the "
            "one this change belongs to with `%s intent select <ID>` (or the person types "
            "`intent <ID>`), then retry. Reads need no intent." % (why, active_text(intents), CLI)
        )
    return scope_gate(ctx, it, targets, unknown)


def scope_gate(ctx: Ctx, it: dict[str, Any], targets: list[str], unknown: bool) -> str | None:
    from core.intents import loader as intents_file
    from core.intents import scope as intents_scope

    how = (
        "Keep the change inside the scope, select the intent that owns it (`%s intent select "
        "<ID>`), or ask the person to widen owned_scope in .claude/active_intents.yaml (or "
        "to exempt the path in .claude/.intentignore)." % CLI
    )
    owns = ", ".join(it["scope"]) or "nothing (an empty scope allows no writes)"
    if unknown and not it["scope"]:
        return (
            "[scope] This command runs code whose writes cannot be seen, and intent %s (%s) "
            "owns no paths. %s" % (it["id"], it["name"], how)
        )
    rules = None
    for path in targets:
        rel = intents_scope.relative(path, ctx.project)
        if rel is None:
            return "[scope] %s is outside the project; intent %s (%s) owns only: %s. %s" % (
                path,
                it["id"],
                it["name"],
                owns,
                how,
            )
        if intents_scope.in_scope(it["scope"], rel):
            continue
        if rules is None:
            rules = intents_file.load_ignore(ctx.project, ctx.state["cache"].setdefault("yaml", {}))
        if rules and intents_scope.ignored(rules, rel):
            continue
        return "[scope] %s is outside the scope of intent %s (%s), which owns: %s. %s" % (
            rel or ".",
            it["id"],
            it["name"],
            owns,
            how,
        )
    return None


def destructive_gate(ctx: Ctx, facts: Facts) -> str | None:
    mode = str(ctx.cfg.get("intents.destructive")).lower()
    if mode in ("off", "false", "allow", "none"):
        return None
    from core import paths

    if (
        facts.writes
        and all(paths.in_temp(w, ctx.project) for w in facts.writes)
        and ctx.cfg.get("paths.allow_temp_writes")
    ):
        return None  # only throw-away files under the temp dir
    cmd = " ".join(facts.text.split())[:200]
    why = (
        _list(
            [
                r
                for r in facts.reasons
                if "destruct" in r.lower() or "force" in r.lower() or "recursive" in r.lower()
            ]
            or facts.reasons,
            2,
        )
        or "destructive"
    )
    ctx.audit("destructive", mode=mode, command=cmd, tool_use_id=ctx.payload.get("tool_use_id"))
    if mode == "deny":
        return (
            "[destructive] `%s` is destructive (%s) and intents.destructive is deny. Find a "
            "non-destructive way, or ask the person to run it themselves." % (cmd, why)
        )
    ctx.answer.ask(
        "[destructive] `%s` is destructive (%s). sane-hooks asks the person to "
        "confirm it before it runs." % (cmd, why)
    )
    return None


def stale_gate(ctx: Ctx, facts: Facts) -> str | None:
    from core.intents import reads as intents_reads

    path = _real(facts.writes[0])
    state = intents_reads.stale(ctx, path)
    if state is None:
        return None
    rel = path
    if path.startswith(ctx.project.rstrip("/") + "/"):
        rel = path[len(ctx.project.rstrip("/")) + 1 :]
    if state == "deleted":
        return (
            "[stale-file] %s was deleted since you last read it (another process or agent "
            "removed it). Check what happened and re-read the directory first; do not "
            "recreate it from memory." % rel
        )
    return (
        "[stale-file] %s changed since you last read or wrote it (another process or agent "
        "wrote it). Re-read it first (Read %s), then make the change on its current content."
        % (rel, rel)
    )


# ---------------------------------------------------------------- PostToolUse


def post_tool(ctx: Ctx, facts: Facts, ok: bool) -> None:
    """Read baselines, the trace ledger, and the intent brief after `intent select`."""
    if not ok:
        return
    tool = facts.tool
    if tool in READ_TOOLS:
        if facts.reads and ctx.cfg.get("intents.stale_check"):
            from core.intents import reads as intents_reads

            intents_reads.record(ctx, _real(facts.reads[0]))
        return
    if facts.kind == "write" and facts.writes:
        path = _real(facts.writes[0])
        if ctx.cfg.get("intents.stale_check"):
            from core.intents import reads as intents_reads

            intents_reads.record(ctx, path)
        _trace(ctx, facts, [path])
    elif facts.kind == "shell":
        if facts.writes:
            from core.intents import reads as intents_reads

            git = os.path.join(ctx.project, ".git")
            targets = [
                t
                for t in (_real(w) for w in facts.writes)
                if t != git and not t.startswith(git + os.sep)
            ]
            for t in targets:
                intents_reads.refresh_if_tracked(ctx, t)
            _trace(ctx, facts, targets)
        if facts.sane_calls:
            _after_cli(ctx, facts)


def _after_cli(ctx, facts):
    for call in facts.sane_calls:
        if call.sub == ("intent", "select"):
            intents = load(ctx)
            it = current(ctx, intents)
            if it is not None:
                ctx.answer.add_context(brief(ctx.project, it))


def _trace(ctx, facts, paths_):
    if not ctx.cfg.get("trace.enabled"):
        return
    try:
        from core.trace import code as trace_code
        from core.trace import ledger as trace

        entries, mclass = _entries(ctx, facts, paths_)
        if not entries:
            return
        intents = load(ctx)
        sel = selected_id(ctx.session)
        it = intents.get(sel) if sel else None
        iid = it["id"] if it else None
        if iid:
            entries = [
                (rel, rng, spans, trace_code.symbols(os.path.join(ctx.project, rel), spans))
                for rel, rng, spans, _ in entries
            ]
        rec = trace.build(ctx, entries, mclass, iid)
        trace.append(ctx.project, rec)
        if iid and mclass == trace_code.INTENT_EVOLUTION:
            from core.trace import intent_map as trace_map

            trace_map.regenerate(ctx.project, intents.intents)
    except Exception as exc:  # the ledger never breaks a hook
        ctx.log("warn", "trace: %s: %s" % (exc.__class__.__name__, exc))


def _entries(ctx, facts, paths_):
    from core.trace import code as trace_code
    from core.trace import ledger as trace

    ti, resp = ctx.tool_input, ctx.payload.get("tool_response")
    resp = resp if isinstance(resp, dict) else {}
    tool = facts.tool
    entries = []
    if tool in ("Edit", "MultiEdit"):
        path = paths_[0]
        spans = trace.patch_ranges(resp.get("structuredPatch"))
        edits = ti.get("edits") if tool == "MultiEdit" else [ti]
        edits = [e for e in edits if isinstance(e, dict)] if isinstance(edits, list) else []
        if spans is None:
            spans = trace.locate_ranges(path, [e.get("new_string") for e in edits])
        e = trace.file_entry(ctx.project, path, spans)
        old = "\n".join(x.get("old_string") for x in edits if isinstance(x.get("old_string"), str))
        new = "\n".join(x.get("new_string") for x in edits if isinstance(x.get("new_string"), str))
        mclass = trace_code.mutation_class(old, new)
        if e:
            entries.append(e + ([],))
        return entries, mclass
    if tool == "Write":
        orig = resp.get("originalFile")
        mclass = trace_code.mutation_class(
            orig if isinstance(orig, str) else None, ti.get("content")
        )
    else:
        mclass = trace_code.INTENT_EVOLUTION  # notebooks, shell writes: no reliable before/after
    for path in paths_[: trace.MAX_FILES]:
        e = trace.file_entry(ctx.project, path, "whole")
        if e:
            entries.append(e + ([],))
    return entries, mclass


# ---------------------------------------------------------------- prompts and sessions


def on_prompt(ctx: Ctx, prompt: str) -> None:
    """`intent <ID>` selects (not consumed: the prompt goes on with the intent's context);
    a task prompt with active intents and none selected gets a reminder."""
    parts = prompt.split()
    if len(parts) == 2 and parts[0].lower() == "intent":
        if _prompt_select(ctx, parts[1]):
            return
    intents = load(ctx)
    if intents.broken:
        ctx.answer.add_context(
            "sane: .claude/active_intents.yaml has problems (%s); changes are "
            "blocked until the person fixes it." % intents.errors[0]
        )
        ctx.answer.tell_user("sane-hooks: .claude/active_intents.yaml: %s" % intents.errors[0])
        return
    if not intents.active or current(ctx, intents) is not None:
        return
    # the prompt hook classified this prompt just before calling us
    if ctx.session["requirements"].get("last_kind") in ("task", "big_task"):
        ctx.answer.add_context(reminder(intents))


def _prompt_select(ctx, word):
    intents = load(ctx)
    it = intents.get(word)
    if it is None:
        low = word.lower()
        matches = [x for x in intents.intents if x["id"].lower() == low]
        it = matches[0] if len(matches) == 1 else None
    if it is None:
        return False  # not one of our ids: an ordinary prompt
    if it["status"] != "IN_PROGRESS":
        ctx.answer.add_context(
            "sane: intent %s is %s; only an IN_PROGRESS intent can be selected. "
            "%s"
            % (
                it["id"],
                it["status"],
                reminder(intents) if intents.active else "No intent is IN_PROGRESS.",
            )
        )
        ctx.answer.tell_user(
            "sane-hooks: intent %s is %s, not IN_PROGRESS: not selected." % (it["id"], it["status"])
        )
        return True
    select(ctx.session, it, "person", None, ctx.now)
    ctx.audit("intent_select", intent=it["id"], by="person", via="prompt")
    ctx.answer.add_context(brief(ctx.project, it))
    ctx.answer.tell_user("sane-hooks: intent %s selected for this session." % it["id"])
    return True


def _session_note(ctx, short=False):
    intents = load(ctx)
    if intents.broken:
        ctx.answer.add_context(
            "sane: .claude/active_intents.yaml has problems (%s); changes are "
            "blocked until the person fixes it." % intents.errors[0]
        )
        return
    it = current(ctx, intents)
    if it is not None:
        ctx.answer.add_context(brief(ctx.project, it, history=not short))
    elif intents.active:
        ctx.answer.add_context(reminder(intents))


def session_start(ctx: Ctx) -> None:
    """SessionStart: the selected intent's brief, or a reminder to select one."""
    _session_note(ctx)


def subagent_start(ctx: Ctx) -> None:
    """SubagentStart: subagents share the session's intent; tell them its scope."""
    _session_note(ctx, short=True)


def subagent_stop(ctx: Ctx) -> None:
    """SubagentStop: nothing to hold."""


def stop_gate(ctx: Ctx, held: bool) -> None:
    """Intents never block Stop."""
    return None


def session_end(ctx: Ctx) -> None:
    """SessionEnd: nothing to flush (records are appended as they happen)."""


def task_completed(ctx: Ctx) -> None:
    """TaskCompleted: nothing."""


def pending(sess: dict[str, Any]) -> bool:
    """A selection is not pending work: it never keeps a session alive."""
    return False
