"""UserPromptSubmit (the person's commands, prompt classification), SessionStart and
SubagentStart. A command is consumed: the model never sees it, the person sees the answer."""

from __future__ import annotations

from core import breaker, research, saneloop
from core.intents import hooks as intents
from core.learning import hooks as learning
from core.review import hooks as review

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from collections.abc import Callable

    from core.engine import Ctx

CLI = "python3 scripts/hooks/sane.py"
STOPWORDS = frozenset(
    """the and for with that this from into have has was were will would should
could about them then than there their what when where which while your you our are not but can
just also some more most very make sure please need want like does done into onto over under
file files code""".split()
)
TASK_VERBS = frozenset(
    """add fix implement create build write update change refactor remove
delete rename make migrate convert improve optimize optimise support move replace configure
integrate port rewrite extend introduce set wire hook patch bump upgrade clean split merge
document test""".split()
)
QUESTION_WORDS = frozenset(
    """what why how when where who which is are can could does do should
would explain whats""".split()
)
BIG_WORDS = (
    "entire",
    "whole",
    "all files",
    "across",
    "architecture",
    "overhaul",
    "rewrite",
    "migrate",
    "every module",
    "end to end",
    "end-to-end",
)
PASSTHROUGH = frozenset(
    (
        "ok",
        "okay",
        "yes",
        "no",
        "y",
        "n",
        "continue",
        "go",
        "go on",
        "thanks",
        "thank you",
        "proceed",
        "sure",
        "done",
        "next",
        "k",
    )
)

HELP_ROWS = (
    [
        ("s+ | safemode on", "block every edit and changing shell command"),
        ("s- | safemode off", "lift safemode"),
        ("s? | safemode status", "show safemode"),
    ]
    + breaker.HELP
    + research.HELP
    + [
        ("unlock", "lift a tamper lock"),
        ("sl+ <task>", "start a SaneLoop (acceptance criteria on the following lines)"),
        ("sl- | sl?", "stop / show the SaneLoop"),
        ("intent <ID>", "select an intent (goes on to the model)"),
        ("#review ...", "open a review for this session (goes on to the model)"),
        ("help | sane?", "this list"),
    ]
)


def help_text() -> str:
    """The command table, its second column aligned."""
    width = max(len(c) for c, _ in HELP_ROWS) + 2
    rows = ["  %s%s" % (c.ljust(width), d) for c, d in HELP_ROWS]
    return "sane-hooks commands (type them as the whole prompt):\n" + "\n".join(rows)


def keywords(text):
    out = []
    for w in "".join(c.lower() if c.isalnum() else " " for c in text).split():
        if len(w) >= 4 and w not in STOPWORDS and w not in out:
            out.append(w)
    return out[:24]


def classify(prompt):
    """question | task | big_task | passthrough."""
    p = prompt.strip()
    low = " ".join(p.lower().split())
    if len(low) < 3 or low in PASSTHROUGH or low.startswith(("/", "<task-notification>")):
        return "passthrough"
    words = [w.strip(",.:;!?()'\"") for w in low.split()]
    head = words[:6]
    is_task = any(w in TASK_VERBS for w in head) or any(w in TASK_VERBS for w in words[:1])
    is_question = low.endswith("?") or (words and words[0] in QUESTION_WORDS)
    if is_question and not (words and words[0] in TASK_VERBS):
        return "question"
    if not is_task:
        return "passthrough" if len(words) < 4 else "task"
    bullets = sum(
        1 for line in p.splitlines() if line.strip()[:2] in ("- ", "* ", "1.", "2.", "3.")
    )
    if len(words) > 60 or bullets >= 3 or any(b in low for b in BIG_WORDS):
        return "big_task"
    return "task"


# ---------------------------------------------------------------- commands


def cmd_safemode(ctx, on):
    sm = ctx.state["safemode"]
    sm["active"], sm["since"] = on, (ctx.now if on else None)
    ctx.audit("safemode", active=on)
    return "safemode is %s" % ("ON: edits and changing shell commands are blocked" if on else "OFF")


def _unverified(ctx, text):
    """A status answer while tamper-locked says the values are not verified, and whose."""
    from core.state import tamper_note

    note = tamper_note(ctx.state)
    return "%s\n(%s)" % (text, note) if note else text


def _safemode_text(ctx):
    return _unverified(
        ctx, "safemode is %s" % ("ON" if ctx.state["safemode"].get("active") else "OFF")
    )


def cmd_unlock(ctx):
    t = ctx.state["tamper"]
    if not t.get("locked"):
        return "no tamper lock is on; nothing to unlock"
    from core.state import unlock, unlock_text

    was = t.get("reason")
    text = unlock_text(t)
    new = unlock(ctx.state, ctx.project)
    ctx.state.clear()
    ctx.state.update(new)
    ctx._session = None
    ctx.audit("unlock", by="person", reason=was, restored=t.get("restored"))
    return "%s\n%s\n%s" % (
        text,
        "safemode is %s" % ("ON" if new["safemode"].get("active") else "OFF"),
        breaker.status_text(new),
    )


EXACT: dict[str, Callable[[Ctx], str | None]] = {
    "s+": lambda c: cmd_safemode(c, True),
    "safemode on": lambda c: cmd_safemode(c, True),
    "s-": lambda c: cmd_safemode(c, False),
    "safemode off": lambda c: cmd_safemode(c, False),
    "s?": _safemode_text,
    "safemode status": _safemode_text,
    "unlock": cmd_unlock,
    "sl-": saneloop.cmd_stop,
    "sl?": saneloop.cmd_status,
    "help": lambda c: help_text(),
    "sane?": lambda c: help_text(),
    **breaker.COMMANDS,
    **research.COMMANDS,
}
for _name in ("rb?", "breaker status"):  # while tamper-locked, say the values are unverified
    EXACT[_name] = lambda c, _fn=EXACT[_name]: _unverified(c, _fn(c))  # type: ignore[misc]


def command(ctx, prompt):
    """The answer text if prompt is one of our commands, else None."""
    p = prompt.strip()
    norm = " ".join(p.lower().split())
    fn = EXACT.get(norm)
    if fn is not None:
        return norm, fn(ctx)
    parts = p.split(None, 1)
    if len(parts) == 2:
        first, rest = parts[0].lower(), parts[1]
        if first == "sl+" and rest.strip():
            return "sl+", saneloop.cmd_start(ctx, rest)
        hit = research.command(ctx, first, rest)
        if hit is not None:
            return hit
    return None


def on_prompt(ctx):
    prompt = ctx.payload.get("prompt")
    if not isinstance(prompt, str):
        return
    sess = ctx.session
    if prompt.lstrip().startswith("<task-notification>"):
        # A background subagent reporting back (Claude Code sends it as a prompt): not the
        # person's words, so no command, no task change, no new-prompt effects.
        return
    sess["stop_blocks"] = 0
    hit = command(ctx, prompt)
    if hit is not None:
        name, text = hit
        ctx.audit("command", command=name)
        ctx.answer.consume(text)
        return
    kind = classify(prompt)
    req = sess["requirements"]
    req["prompts"] = req.get("prompts", 0) + 1
    req["last_kind"] = kind  # passthrough ("continue") keeps the current task's kind
    if kind in ("task", "big_task"):
        kws = keywords(prompt)
        old = req.get("keywords") or []
        if old and kws:
            overlap = len(set(kws) & set(old)) / float(len(kws))
            if overlap < 0.5:
                research.reset(ctx, "task change")
                ctx.answer.add_context(
                    "sane: this looks like a new task, so this session's research was reset."
                )
        req.update(
            kind=kind,
            is_task=True,
            is_big_task=kind == "big_task",
            keywords=kws,
            requested=(req.get("requested") or [])[-9:] + [prompt.strip()[:200]],
        )
        missing = research.missing_research(ctx)
        if missing:
            ctx.answer.add_context(
                "sane: task noted. Edits stay blocked until this session has "
                "research in: %s." % ", ".join(missing)
            )
        if kind == "big_task" and not sess["saneloop"].get("active"):
            ctx.answer.add_context(
                "sane: this is a big task. The person can start a SaneLoop "
                "with `sl+ <task>` to track acceptance criteria."
            )
    elif kind == "question":
        req["kind"] = "question"
    _status_notes(ctx)
    review.on_prompt(ctx, prompt)
    learning.on_prompt(ctx, prompt)
    intents.on_prompt(ctx, prompt)


def _status_notes(ctx):
    st = ctx.state
    if st["tamper"].get("locked"):
        ctx.answer.add_context(
            "sane: the state is tamper-locked; changes are blocked until the person types `unlock`."
        )
    if st["safemode"].get("active"):
        ctx.answer.add_context(
            "sane: safemode is ON; edits are blocked until the person types `s-`."
        )
    ctx.answer.add_context(breaker.note(st))
    loop = ctx.session["saneloop"]
    if loop.get("active"):
        ctx.answer.add_context(saneloop.brief(loop))


# ---------------------------------------------------------------- session events


def _carry_over(ctx):
    """A new session id after clear/resume/compact takes over what was pending."""
    old_id = ctx.state.get("last_session")
    sessions = ctx.state["sessions"]
    if not old_id or old_id == ctx.sid or old_id not in sessions or ctx.sid in sessions:
        return
    old = sessions[old_id]
    new = ctx.session
    carried = []
    if (old.get("saneloop") or {}).get("active"):
        new["saneloop"] = old["saneloop"]
        carried.append("saneloop")
    for name, mod in (("review", review), ("learning", learning)):
        if mod.pending(old):
            new[name] = old[name]
            carried.append(name)
    if "learning" not in carried and learning.carry_baseline(old, new):
        carried.append("learning baseline")
    if ctx.payload.get("source") != "clear" and intents.selected_id(old):
        new["intent"] = old[
            "intent"
        ]  # resume/compact keep the selected intent; /clear starts fresh
        carried.append("intent")
    if carried:
        ctx.audit("carry_over", from_session=old_id, sections=carried)


def prune_sessions(ctx):
    days = ctx.cfg.get("review.retention_days")
    try:
        cutoff = ctx.now - float(days) * 86400
    except (TypeError, ValueError):
        return
    sessions = ctx.state["sessions"]
    for sid in list(sessions):
        s = sessions[sid]
        if sid == ctx.sid or not isinstance(s, dict):
            continue
        if (s.get("updated_at") or 0) < cutoff and not _pending(s):
            del sessions[sid]
    if len(sessions) > 200:
        for sid in sorted(sessions, key=lambda k: sessions[k].get("updated_at") or 0)[
            : len(sessions) - 200
        ]:
            if sid != ctx.sid and not _pending(sessions[sid]):
                del sessions[sid]


def _pending(sess):
    return bool(
        (sess.get("saneloop") or {}).get("active") or review.pending(sess) or learning.pending(sess)
    )


def on_session_start(ctx):
    if ctx.payload.get("source") in ("clear", "resume", "compact", "fork"):
        _carry_over(ctx)
    prune_sessions(ctx)
    sess = ctx.session
    model = ctx.payload.get("model")
    if isinstance(model, str):
        sess["model"] = model[:100]
    _status_notes(ctx)
    from core import sandbox

    sandbox.session_start(ctx)
    review.session_start(ctx)
    learning.session_start(ctx)
    intents.session_start(ctx)


def on_subagent_start(ctx):
    if ctx.agent_id:
        agents = ctx.session.setdefault("agents", {})
        agents[ctx.agent_id] = {"type": ctx.agent_type, "started_at": ctx.now, "stopped_at": None}
        if len(agents) > 50:
            for k in sorted(agents, key=lambda a: agents[a].get("started_at") or 0)[
                : len(agents) - 50
            ]:
                del agents[k]
    review.subagent_start(ctx)
    learning.subagent_start(ctx)
    intents.subagent_start(ctx)
