"""Files whose content runs outside every check: commands Claude Code starts itself (hooks,
the status line, key helpers in settings; MCP servers in `.mcp.json`), and git's hooks, which
run when the person commits. A write to one of them runs the agent's code with the person's
rights, outside the sandbox and outside these hooks, so they are protected like the settings.
"""

from __future__ import annotations

import json
import os

# Settings keys whose string value Claude Code runs as a command.
COMMAND_KEYS = frozenset(
    ("command", "apiKeyHelper", "awsAuthRefresh", "awsCredentialExport", "otelHeadersHelper")
)
SPLIT = ";&|()<>\n\t"
MAX_FILE = 256 * 1024  # a settings file larger than this is not read (bounded time)
MAX_TOKENS = 200

_CACHE: dict = {}


def _load_json(path: str):
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_FILE + 1)
    except OSError:
        return None
    if len(raw) > MAX_FILE:
        return None
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return None


def _commands(node, out: list, depth: int = 0) -> None:
    """Every string a settings document runs as a command (hooks, statusLine, helpers)."""
    if depth > 12 or len(out) > MAX_TOKENS:
        return
    if isinstance(node, dict):
        for k, v in node.items():
            if k in COMMAND_KEYS and isinstance(v, str):
                out.append(v)
            else:
                _commands(v, out, depth + 1)
    elif isinstance(node, list):
        for v in node[:200]:
            _commands(v, out, depth + 1)


def _mcp_commands(doc, out: list) -> None:
    servers = doc.get("mcpServers") if isinstance(doc, dict) else None
    if not isinstance(servers, dict):
        return
    for spec in list(servers.values())[:100]:
        if not isinstance(spec, dict):
            continue
        words = [spec.get("command")] + list(spec.get("args") or [])[:50]
        out.append(" ".join(w for w in words if isinstance(w, str)))


def _files_of(command: str, project: str, home: str) -> list[str]:
    """The files a command line names (scripts it runs), as absolute paths. Directories, the
    project and the home directory themselves are never returned (they are not a file)."""
    text = command
    for var in ('"$CLAUDE_PROJECT_DIR"', "${CLAUDE_PROJECT_DIR}", "$CLAUDE_PROJECT_DIR"):
        text = text.replace(var, project)
    for ch in SPLIT:
        text = text.replace(ch, " ")
    out = []
    for word in text.split()[:MAX_TOKENS]:
        w = word.strip("'\"")
        if not w or w.startswith("-") or "=" in w.split("/")[0]:
            continue
        if "/" not in w and "." not in w:
            continue  # a program looked up on PATH, not a file of ours
        if w.startswith("~/"):
            w = home + w[1:]
        elif w.startswith(("$HOME/", "${HOME}/")):
            w = home + w[w.index("/") :]
        if "$" in w or "`" in w:
            continue
        p = os.path.normpath(w if os.path.isabs(w) else os.path.join(project, w))
        if p in ("/", project, home) or os.path.isdir(p):
            continue
        out.append(p)
    return out


def settings_files(project: str, claude_dirs: list[str]) -> list[str]:
    out = [
        os.path.join(project, ".claude", "settings.json"),
        os.path.join(project, ".claude", "settings.local.json"),
    ]
    for d in claude_dirs:
        out += [os.path.join(d, "settings.json"), os.path.join(d, "settings.local.json")]
    return out


def command_files(project: str, home: str, claude_dirs: list[str]) -> list[str]:
    """Files the settings and `.mcp.json` run (once per process)."""
    key = (project, home, tuple(claude_dirs))
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    cmds: list[str] = []
    for path in settings_files(project, claude_dirs):
        doc = _load_json(path)
        if doc is not None:
            _commands(doc, cmds)
    doc = _load_json(os.path.join(project, ".mcp.json"))
    if doc is not None:
        _mcp_commands(doc, cmds)
    files: list[str] = []
    for c in cmds[:MAX_TOKENS]:
        for f in _files_of(c, project, home):
            if f not in files:
                files.append(f)
    _CACHE[key] = files
    return files


def git_hook_dirs(project: str) -> list[str]:
    """Where git looks for the hooks it runs when the person commits: `.git/hooks` (also for
    a worktree or submodule whose `.git` is a file), and core.hooksPath when the repository's
    config sets one. Once per process."""
    hit = _CACHE.get("hooks-dirs:" + project)
    if hit is None:
        hit = _CACHE["hooks-dirs:" + project] = _git_hook_dirs(project)
    return hit


def _git_hook_dirs(project: str) -> list[str]:
    dot = os.path.join(project, ".git")
    gitdirs = []
    if os.path.isdir(dot):
        gitdirs.append(dot)
    elif os.path.isfile(dot):
        try:
            with open(dot, "r", encoding="utf-8", errors="replace") as fh:
                line = fh.read(4096).strip()
        except OSError:
            line = ""
        if line.startswith("gitdir:"):
            g = os.path.normpath(os.path.join(project, line[7:].strip()))
            gitdirs.append(g)
            try:
                with open(os.path.join(g, "commondir"), encoding="utf-8") as fh:
                    gitdirs.append(os.path.normpath(os.path.join(g, fh.read(4096).strip())))
            except OSError:
                pass
    out = [os.path.join(g, "hooks") for g in gitdirs]
    for g in gitdirs:
        hp = _hooks_path(os.path.join(g, "config"))
        if hp:
            hp = os.path.expanduser(hp)
            out.append(os.path.normpath(hp if os.path.isabs(hp) else os.path.join(project, hp)))
    return out


def _hooks_path(config: str) -> str | None:
    """core.hooksPath from a git config file (a plain reading: sections and keys, any case)."""
    try:
        with open(config, "r", encoding="utf-8", errors="replace") as fh:
            text = fh.read(MAX_FILE)
    except OSError:
        return None
    section, found = "", None
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("["):
            section = s[1:].split("]")[0].strip().lower()
            continue
        if section == "core" and "=" in s:
            k, _, v = s.partition("=")
            if k.strip().lower() == "hookspath":
                found = v.strip().strip('"') or None
    return found
