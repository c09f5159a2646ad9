"""Research: the gate that wants research before the first edit, the PostToolUse credit for
research calls, and the person's research commands (`research`, `rr-`, `research waive`).

A category counts once a call of its kind returned something. Required categories come from
research.required plus, when research.adaptive_mcp is on, every MCP category the session used.
"""

from __future__ import annotations

from core import policy

TYPE_CHECKING = False  # typing costs milliseconds on the hot path; only mypy reads it
if TYPE_CHECKING:
    from typing import Any, Callable

CATEGORY_TOOLS = {
    "local": "Read, Glob, Grep or a read-only shell command such as rg, grep, cat, ls, find",
    "web": "WebSearch or WebFetch",
    "docs": "a documentation MCP tool (context7, apple-docs)",
    "github": "a read-only GitHub MCP tool",
    "memory": "the memory MCP tool",
}
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


# ---------------------------------------------------------------- what is required


def required_research(ctx: Any) -> list[str]:
    r = ctx.session["research"]
    req = [c for c in ctx.cfg.list("research.required") if c in CATEGORY_TOOLS]
    if ctx.cfg.get("research.adaptive_mcp"):
        req += [c for c in r.get("used") or [] if c in CATEGORY_TOOLS and c not in req]
    waived = r.get("waived") or []
    return [c for c in req if c not in waived]


def missing_research(ctx: Any) -> list[str]:
    r = ctx.session["research"]
    return [c for c in required_research(ctx) if not r.get(c)]


# ---------------------------------------------------------------- PreToolUse gate


def gate(ctx: Any, facts: Any) -> str | None:
    if not facts.mutation(ctx.project, ctx.cfg):
        return None
    if (
        facts.kind == "shell"
        and facts.runs_code
        and not facts.outside_temp_writes(ctx.project, ctx.cfg)
    ):
        return None  # running the tests or a build is research too
    missing = missing_research(ctx)
    if not missing:
        return None
    how = "; ".join("%s: use %s" % (c, CATEGORY_TOOLS[c]) for c in missing)
    gone = (ctx.session["research"].get("unreachable") or {}).get("category")
    if gone in missing:
        return (
            "[research-gate] Research before editing: this session still needs %s (%s), and "
            "%s research failed for want of network. Do not retry it: ask the person whether "
            "to go on without it (they type `research waive %s`)."
            % (", ".join(missing), how, gone, gone)
        )
    return (
        "[research-gate] Research before editing: this session still needs %s (%s). Do that "
        "research (a call only counts when it returns something), then retry. Working "
        "offline? The person can waive a category for this session by typing `research "
        "waive %s`." % (", ".join(missing), how, missing[0])
    )


# ---------------------------------------------------------------- PostToolUse credit


def category(ctx: Any, tool: str) -> str | None:
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


def _nonempty(resp: Any) -> bool:
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


def track(ctx: Any, facts: Any, ok: bool) -> None:
    """Credit a research category when a research call returned something."""
    tool = ctx.tool
    r = ctx.session["research"]
    cat = category(ctx, tool)
    if cat and cat != "local" and cat != "web":
        used = r.setdefault("used", [])
        if cat not in used:
            used.append(cat)
    if not ok:
        offline = network_failure(ctx)
        if offline:
            _offline(ctx, offline)
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


# ---------------------------------------------------------------- research without network

# What a fetch that never reached its server says: the client's own preflight ("Unable to
# verify if domain X is safe to fetch ... network restrictions"), Node's socket errors
# (ENOTFOUND, EAI_AGAIN, ECONNREFUSED, ECONNRESET, ETIMEDOUT), curl's and fetch's words.
NETWORK_WORDS = (
    "network",
    "connection",
    "connect ",
    "econn",
    "enotfound",
    "eai_again",
    "getaddrinfo",
    "etimedout",
    "timed out",
    "timeout",
    "resolve host",
    "name resolution",
    "dns",
    "offline",
    "unreachable",
    "fetch failed",
    "socket hang up",
    "unable to verify if domain",
)


def network_failure(ctx: Any) -> str | None:
    """The research category of a failed call that needs the network and failed for want of
    it (not the agent's doom loop: the breaker leaves it alone), else None."""
    if ctx.event != "PostToolUseFailure" or ctx.payload.get("is_interrupt") is True:
        return None
    cat = category(ctx, ctx.tool)
    if cat is None or cat == "local":
        return None
    err = ctx.payload.get("error")
    low = err.lower() if isinstance(err, str) else ""
    return cat if any(w in low for w in NETWORK_WORDS) else None


def _offline(ctx: Any, cat: str) -> None:
    """Tell the model to ask rather than retry; tell the person once per session how to
    waive the category (only they can, and only while it is still required)."""
    r = ctx.session["research"]
    err = ctx.payload.get("error")
    r["unreachable"] = {"at": ctx.now, "tool": ctx.tool, "category": cat}
    ctx.answer.add_context(
        "sane: %s failed for want of network (%s research looks unavailable here). Do not "
        "retry it: ask the person whether to waive it (they type `research waive %s`) or how "
        "to go on." % (ctx.tool, cat, cat)
    )
    told = r.setdefault("offline_told", [])
    if cat in told or cat not in missing_research(ctx):
        return
    told.append(cat)
    ctx.audit("research_unavailable", category=cat, tool=ctx.tool)
    ctx.answer.tell_user(
        "sane-hooks: %s research looks unavailable (%s: %s). Edits need it; if you are "
        "offline, type `research waive %s` to go on without it for this session."
        % (cat, ctx.tool, (err if isinstance(err, str) else "failed")[:100], cat)
    )


# ---------------------------------------------------------------- the person's commands


def status_text(ctx: Any) -> str:
    r = ctx.session["research"]
    req = required_research(ctx)
    lines = ["research for this session:"]
    for cat in CATEGORY_TOOLS:
        done = r.get(cat)
        if done:
            mark = "done"
        elif cat in (r.get("waived") or []):
            mark = "WAIVED"
        else:
            mark = "missing" if cat in req else "not required"
        via = " (via %s)" % done.get("tool") if isinstance(done, dict) else ""
        lines.append("  %-7s %s%s" % (cat, mark, via))
    missing = missing_research(ctx)
    lines.append(
        "edits allowed: yes" if not missing else "edits blocked until: " + ", ".join(missing)
    )
    return "\n".join(lines)


def reset(ctx: Any, why: str) -> None:
    r = ctx.session["research"]
    for cat in CATEGORY_TOOLS:
        r[cat] = None
    ctx.audit("research_reset", why=why)


def cmd_reset(ctx: Any) -> str:
    reset(ctx, "command")
    return "research reset.\n" + status_text(ctx)


def cmd_waive(ctx: Any, cat: str) -> str:
    r = ctx.session["research"]
    waived = r.setdefault("waived", [])
    if cat not in waived:
        waived.append(cat)
    ctx.audit("research_waive", category=cat)
    return "research category %r waived for this session.\n%s" % (cat, status_text(ctx))


COMMANDS: dict[str, Callable[[Any], str]] = {
    "research": status_text,
    "rr-": cmd_reset,
    "reset research": cmd_reset,
}
HELP = [
    ("research", "research progress per category"),
    ("rr- | reset research", "reset this session's research"),
    (
        "research waive <category>",
        "waive a required category for this session (%s)" % " ".join(CATEGORY_TOOLS),
    ),
]


def command(ctx: Any, first: str, rest: str) -> tuple[str, str] | None:
    """`research waive <category>`: (name, answer), or None when it is not ours."""
    if first != "research":
        return None
    words = rest.lower().split()
    if len(words) == 2 and words[0] == "waive" and words[1] in CATEGORY_TOOLS:
        return "research waive", cmd_waive(ctx, words[1])
    return None
