"""Research: the gate that wants research before the first edit, the PostToolUse credit for
research calls, and the person's research commands (`research`, `rr-`, `research waive`).

A category counts once a call of its kind returned something. Required categories come from
research.required plus, when research.adaptive_mcp is on, every MCP category the session used.
"""

from __future__ import annotations

from typing import Any, Callable

from core import policy

CATEGORY_TOOLS = {
    "local": "Read, Grep or Glob",
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
    if ctx.cfg.get("research.adaptive_mcp", True):
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
    missing = missing_research(ctx)
    if not missing:
        return None
    how = "; ".join("%s: use %s" % (c, CATEGORY_TOOLS[c]) for c in missing)
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
HELP = """  research             research progress per category
  rr- | reset research reset this session's research
  research waive <category>   waive a required category for this session (local web docs github memory)"""


def command(ctx: Any, first: str, rest: str) -> tuple[str, str] | None:
    """`research waive <category>`: (name, answer), or None when it is not ours."""
    if first != "research":
        return None
    words = rest.lower().split()
    if len(words) == 2 and words[0] == "waive" and words[1] in CATEGORY_TOOLS:
        return "research waive", cmd_waive(ctx, words[1])
    return None
