"""Ticketing: which system is in use (tissue -> beads -> tasks -> session), which tool calls
start or close a ticket, and what the tracker itself says.

Trackers are external CLIs (`tissue`, beads' `bd`): called with a 2 s timeout, every failure
ignored. Close detection looks at every simple command of a Bash call through the shell
analyser, so `tissue status X closed && git push` or `bash -c "bd close X"` are seen.
"""

import json
import os

SYSTEMS = ("tissue", "beads", "tasks", "session")
TRACKER_CLI = {"tissue": "tissue", "beads": "bd"}
TIMEOUT = 2.0
CLOSED = ("closed", "done", "resolved", "completed", "complete")
STARTED = ("in_progress", "in-progress", "inprogress", "started", "doing", "active")

# Filters through core.shell.matches (every segment); the ids come from that command's argv.
CLOSE_PATTERNS = {
    "tissue": (
        "tissue status * closed",
        "tissue edit *--status closed*",
        "tissue edit *--status=closed*",
    ),
    "beads": (
        "bd close *",
        "bd update *--status closed*",
        "bd update *--status=closed*",
        "bd update *-s closed*",
        "beads close *",
    ),
}
START_PATTERNS = {
    "tissue": (
        "tissue status * in?progress",
        "tissue edit *--status in?progress*",
        "tissue edit *--status=in?progress*",
    ),
    "beads": (
        "bd update *--status in?progress*",
        "bd update *--status=in?progress*",
        "bd update *-s in?progress*",
    ),
}
MCP_PREFIX = {"tissue": "mcp__tissue__", "beads": "mcp__beads__"}
ID_KEYS = ("id", "issue_id", "ticket_id", "ticket", "issue", "issueId", "ticketId", "task_id")
FLAG_VALUES = frozenset(
    (
        "--reason",
        "-r",
        "--message",
        "-m",
        "--comment",
        "--title",
        "-t",
        "--description",
        "-d",
        "--priority",
        "-p",
        "--assignee",
        "-a",
        "--labels",
        "-l",
        "--type",
        "--db",
        "--actor",
        "--json-file",
    )
)


def systems_enabled(cfg):
    out = []
    for s in cfg.list("learning.ticketing"):
        s = str(s).strip().lower()
        if s in SYSTEMS and s not in out:
            out.append(s)
    return out


def detected(system, project, sec=None):
    if system == "tissue":
        return os.path.isdir(os.path.join(project, ".tissue"))
    if system == "beads":
        return os.path.isdir(os.path.join(project, ".beads"))
    if system == "tasks":
        return bool(os.environ.get("CLAUDE_CODE_TASK_LIST_ID")) or bool(
            sec and sec.get("tasks_seen")
        )
    return system == "session"


def mode(cfg, project, sec=None):
    """The first detected system in learning.ticketing order, or None (gate off)."""
    for s in systems_enabled(cfg):
        if detected(s, project, sec):
            return s
    return None


# ---------------------------------------------------------------- the trackers


def spawn(argv):
    """Start argv (found on PATH) with its stdout on a pipe, without the subprocess module
    (SessionStart's budget): (pid, fd), or None. Where posix_spawn is missing: None."""
    if not hasattr(os, "posix_spawnp"):
        return None
    from core import gitrun

    return gitrun.spawn(argv, dict(os.environ, GIT_OPTIONAL_LOCKS="0"))


def collect(handle, timeout=TIMEOUT):
    """The spawned command's stdout if it exited 0 within timeout, else None."""
    from core import gitrun

    return gitrun.collect(handle, timeout)


def run(argv, cwd):
    """stdout of a tracker CLI, or None on any failure (missing, timeout, non-zero)."""
    import subprocess

    try:
        proc = subprocess.run(
            argv,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=TIMEOUT,
            env=dict(os.environ, GIT_OPTIONAL_LOCKS="0"),
        )
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    if proc.returncode != 0:
        return None
    return proc.stdout.decode("utf-8", "replace")


def _json(text):
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _items(doc):
    if isinstance(doc, list):
        return [x for x in doc if isinstance(x, dict)]
    if isinstance(doc, dict):
        for key in ("issues", "tickets", "items", "results", "data"):
            if isinstance(doc.get(key), list):
                return [x for x in doc[key] if isinstance(x, dict)]
        return [doc]
    return []


def ticket_of(item, system):
    tid = next((item[k] for k in ID_KEYS if isinstance(item.get(k), (str, int))), None)
    if tid is None:
        return None
    desc = item.get("description") or item.get("body") or item.get("desc") or ""
    labels = item.get("labels") or item.get("tags") or []
    return {
        "id": str(tid)[:100],
        "source": system,
        "title": str(item.get("title") or item.get("summary") or item.get("subject") or "")[:300],
        "description": str(desc)[:1000] if isinstance(desc, str) else "",
        "labels": [str(x)[:40] for x in labels if isinstance(x, (str, int))][:10]
        if isinstance(labels, list)
        else [],
        "status": str(item.get("status") or item.get("state") or "").lower()[:40],
    }


def in_progress(system, project):
    """The first in-progress ticket the tracker lists, or None."""
    cli = TRACKER_CLI.get(system)
    if not cli:
        return None
    for item in _items(_json(run([cli, "list", "--status", "in_progress", "--json"], project))):
        t = ticket_of(item, system)
        if t:
            return t
    return None


def show(system, tid, project):
    cli = TRACKER_CLI.get(system)
    if not cli or not tid:
        return None
    items = _items(_json(run([cli, "show", tid, "--json"], project)))
    for item in items:
        t = ticket_of(item, system)
        if t and (t["id"] == tid or len(items) == 1):
            return t
    return None


def is_closed(system, tid, project):
    t = show(system, tid, project)
    return bool(t) and t["status"] in CLOSED


# ---------------------------------------------------------------- tool calls


def _ids_after(argv, word, first_only):
    """Ticket ids in argv after the subcommand `word`, skipping flags and their values."""
    try:
        k = argv.index(word)
    except ValueError:
        return []
    out = []
    skip = False
    for a in argv[k + 1 :]:
        if skip:
            skip = False
            continue
        if a.startswith("-"):
            skip = a in FLAG_VALUES or a in ("--status", "-s")
            continue
        if a in CLOSED or a in STARTED:
            continue
        out.append(a[:100])
        if first_only:
            break
    return out


def _command_events(c, system, action):
    argv = [c.program] + list(c.argv[1:])
    if system == "tissue":
        sub = "status" if len(argv) > 1 and argv[1] == "status" else "edit"
        return [(action, system, tid) for tid in _ids_after(argv, sub, True)]
    if len(argv) > 1 and argv[1] == "close":
        return [(action, system, tid) for tid in _ids_after(argv, "close", False)]
    return [(action, system, tid) for tid in _ids_after(argv, "update", True)]


def scan_shell(analysis, systems):
    """[(action 'close'|'start', system, ticket id)] for every segment of a Bash call."""
    from core.shell import analysis as shell

    if analysis is None:
        return []
    out = []
    for action, table in (("close", CLOSE_PATTERNS), ("start", START_PATTERNS)):
        for system, pats in table.items():
            if system not in systems:
                continue
            for pat in pats:
                if not shell.matches(pat, analysis):
                    continue
                for c in analysis.commands:
                    if c.program not in ("tissue", "bd", "beads"):
                        continue
                    if _segment_matches(c, pat):
                        for ev in _command_events(c, system, action):
                            if ev not in out:
                                out.append(ev)
    return out


def _segment_matches(c, pat):
    from core.shell import analysis as shell

    probe = shell.Analysis(c.text, [c], [])
    return shell.matches(pat, probe)


def scan_mcp(tool, tool_input, systems):
    """MCP tools of tissue or beads: `*close*` tools, or an update to a closed / started
    status."""
    out = []
    low = tool.lower()
    for system, prefix in MCP_PREFIX.items():
        if system not in systems or not low.startswith(prefix):
            continue
        name = low[len(prefix) :]
        tid = next(
            (tool_input[k] for k in ID_KEYS if isinstance(tool_input.get(k), (str, int))), None
        )
        ids = [str(tid)[:100]] if tid is not None else []
        if not ids and isinstance(tool_input.get("ids"), list):
            ids = [str(x)[:100] for x in tool_input["ids"] if isinstance(x, (str, int))]
        status = str(tool_input.get("status") or "").lower()
        if "close" in name or status in CLOSED:
            out += [("close", system, t) for t in ids or ["?"]]
        elif status in STARTED or "start" in name or "claim" in name:
            out += [("start", system, t) for t in ids]
    return out


def scan_task_tool(tool, tool_input):
    """Claude Code's own task list: TaskUpdate to in_progress / completed."""
    if tool not in ("TaskUpdate", "TodoWrite"):
        return []
    if tool == "TaskUpdate":
        tid = tool_input.get("taskId") or tool_input.get("task_id") or tool_input.get("id")
        status = str(tool_input.get("status") or "").lower()
        if not isinstance(tid, (str, int)):
            return []
        if status == "completed":
            return [("close", "tasks", str(tid)[:100])]
        if status == "in_progress":
            return [("start", "tasks", str(tid)[:100])]
    return []
