"""What `install` writes into a project's Claude Code settings, and how it is merged in and
taken out again. Ours is recognised by value, so `uninstall` removes only ours:
- hooks: one handler per event, `sh "$CLAUDE_PROJECT_DIR/scripts/hooks/run" HOOK` (no machine
  path; the launcher picks the interpreter), or an older form naming `scripts/hooks/HOOK.py`;
- sandbox: Claude Code's OS sandbox for Bash with our denyWrite/denyRead entries;
- permissions.deny: Edit/Read rules for the file tools on the same paths.
Per-machine paths (a config dir other than ~/.config) go in .claude/settings.local.json."""

from __future__ import annotations

import json
import os

from core.cli.common import CliError

SCRIPTS = {
    "saneprompt": ("UserPromptSubmit", "SessionStart", "SubagentStart"),
    "sanetools": ("PreToolUse",),
    "sanetrack": ("PostToolUse", "PostToolUseFailure"),
    "sanestop": ("Stop", "SubagentStop", "SessionEnd", "TaskCompleted"),
}
# Events whose matcher selects tools or agents; the others take no matcher.
MATCHED = (
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "SubagentStart",
    "SubagentStop",
    "SessionStart",
)
TIMEOUTS = {"SessionStart": 15, "SessionEnd": 5}
LAUNCHER = 'sh "$CLAUDE_PROJECT_DIR/scripts/hooks/run" %s'

# The sandbox's view of what the agent's shell may not write: whole directories, so a file
# created after the session started is covered too (a concrete file that does not exist yet
# cannot be bound read-only).
DENY_WRITE = ("./.claude", "./scripts/hooks", "./.git/hooks", "~/.config/sane-hooks")
# Secrets a sandboxed command may not read: concrete directories and files, never all of
# /etc (DNS and TLS need it). Name patterns (.env) stay with the analyser and permissions.
SECRET_DIRS = (
    "~/.ssh",
    "~/.aws",
    "~/.gnupg",
    "~/.config/gcloud",
    "~/.azure",
    "~/.kube",
    "~/.config/gh",
    "~/.password-store",
)
SECRET_FILES = (
    "~/.docker/config.json",
    "~/.netrc",
    "~/.git-credentials",
    "~/.vault-token",
    "~/.pypirc",
    "~/.npmrc",
)
DENY_READ = SECRET_DIRS + SECRET_FILES + ("~/.config/sane-hooks", "./.claude/state.json.lock")
# Package caches outside the project, so installs keep working under the sandbox.
CACHES = (
    "~/.cache/pip",
    "~/.cache/uv",
    "~/.npm",
    "~/.cache/yarn",
    "~/.local/share/pnpm",
    "~/.cargo/registry",
    "~/.cargo/git",
    "~/go/pkg/mod",
    "~/.cache/go-build",
    "~/.m2/repository",
    "~/.gradle/caches",
)
# File-tool rules (Edit covers every built-in editing tool). The hooks check these paths
# already; the rules are the floor when a hook cannot run.
EDIT_DENY = (
    "./.claude/settings.json",
    "./.claude/settings.local.json",
    "./.claude/state.json",
    "./.claude/state.json.lock",
    "./.claude/audit.jsonl",
    "./.claude/*.log",
    "./.claude/*.log.*",
    "./.claude/sane.yaml",
    "./.claude/active_intents.yaml",
    "./.claude/.intentignore",
    "./.claude/agents/reviewer.md",
    "./.claude/sane-templates/**",
    "./.claude/learnings.md",
    "./.claude/learning-stats.jsonl",
    "./.claude/agent_trace.jsonl",
    "./.claude/intent_map.md",
    "./scripts/hooks/**",
    "./.git/hooks/**",
    "~/.config/sane-hooks/**",
)
READ_DENY = (
    tuple(p + "/**" for p in SECRET_DIRS)
    + SECRET_FILES
    + (
        "~/.config/sane-hooks/**",
        "./.claude/state.json.lock",
    )
)


def is_ours(handler: object) -> bool:
    if not isinstance(handler, dict):
        return False
    cmd = (
        str(handler.get("command", "")) + " " + " ".join(str(a) for a in handler.get("args") or [])
    )
    if "scripts/hooks/run" in cmd and any(cmd.rstrip().endswith(" " + s) for s in SCRIPTS):
        return True
    return any("scripts/hooks/%s.py" % s in cmd for s in SCRIPTS)


def our_hooks() -> dict:
    hooks = {}
    for script, events in SCRIPTS.items():
        for ev in events:
            handler: dict = {"type": "command", "command": LAUNCHER % script}
            handler["timeout"] = TIMEOUTS.get(ev, 10)
            group = {"matcher": "*", "hooks": [handler]} if ev in MATCHED else {"hooks": [handler]}
            hooks[ev] = group
    return hooks


def machine_paths(config_dir: str, home: str, claude_dir: str | None) -> list[str]:
    """Per-machine absolute paths to protect: a config dir other than ~/.config/sane-hooks,
    a CLAUDE_CONFIG_DIR. Empty on a default machine."""
    out = []
    if os.path.normpath(config_dir) != os.path.join(home, ".config", "sane-hooks"):
        out.append(os.path.normpath(config_dir))
    if claude_dir and os.path.normpath(claude_dir) != os.path.join(home, ".claude"):
        out.append(os.path.normpath(claude_dir))
    return out


def sandbox_block(local_paths: list[str] | None = None) -> dict:
    """Our sandbox settings; with local_paths, the per-machine block for settings.local.json."""
    if local_paths is not None:
        return {"filesystem": {"denyWrite": list(local_paths), "denyRead": list(local_paths)}}
    return {
        "enabled": True,
        "allowUnsandboxedCommands": False,
        "autoAllowBashIfSandboxed": False,
        "network": {"allowedDomains": ["*"]},
        "filesystem": {
            "denyWrite": list(DENY_WRITE),
            "denyRead": list(DENY_READ),
            "allowWrite": list(CACHES),
        },
    }


def permission_rules(local_paths: list[str] | None = None) -> list[str]:
    if local_paths is not None:
        return ["%s(/%s/**)" % (t, p) for p in local_paths for t in ("Edit", "Read")]
    return ["Edit(%s)" % p for p in EDIT_DENY] + ["Read(%s)" % p for p in READ_DENY]


def wanted(sandbox: bool, local_paths: list[str] | None = None) -> dict:
    """Everything of ours for one settings file (local_paths: the settings.local.json part)."""
    out: dict = {}
    if local_paths is None:
        out["hooks"] = {ev: [g] for ev, g in our_hooks().items()}
    elif not local_paths:
        return {}
    rules = permission_rules(local_paths)
    if rules:
        out["permissions"] = {"deny": rules}
    if sandbox:
        out["sandbox"] = sandbox_block(local_paths)
    return out


# ------------------------------------------------------------------ merge / strip


def _copy(x: object) -> object:
    return json.loads(json.dumps(x))


def merge(settings: dict, ours: dict, person_user: dict | None = None) -> dict:
    """settings with ours merged in: hook handlers replaced (never duplicated, old forms
    included), list entries added once, a scalar set only where the person has not set one
    (their autoAllowBashIfSandboxed, in this file or their user settings, is theirs)."""
    new = _copy(settings)
    assert isinstance(new, dict)
    if "hooks" in new and not isinstance(new["hooks"], dict):
        raise CliError('settings.json: "hooks" is not an object; fix it by hand first')
    strip_hooks(new.get("hooks") or {})
    for ev, groups in (ours.get("hooks") or {}).items():
        new.setdefault("hooks", {}).setdefault(ev, []).extend(_copy(groups))
    user_sb = (person_user or {}).get("sandbox")
    for key in ("permissions", "sandbox"):
        if key not in ours:
            continue
        if key in new and not isinstance(new[key], dict):
            raise CliError('settings.json: "%s" is not an object; fix it by hand first' % key)
        _merge_into(new.setdefault(key, {}), ours[key], key)
    if isinstance(user_sb, dict) and "autoAllowBashIfSandboxed" in user_sb:
        sb = new.get("sandbox")
        if isinstance(sb, dict) and "autoAllowBashIfSandboxed" not in (
            settings.get("sandbox") or {}
        ):
            sb.pop("autoAllowBashIfSandboxed", None)  # the person chose it for every project
    if not new.get("hooks"):
        new.pop("hooks", None)
    return new


def _merge_into(dst: dict, src: dict, where: str) -> None:
    for k, v in src.items():
        if isinstance(v, dict):
            if k in dst and not isinstance(dst[k], dict):
                raise CliError("settings.json: %s.%s is not an object; fix it first" % (where, k))
            _merge_into(dst.setdefault(k, {}), v, where + "." + k)
        elif isinstance(v, list):
            cur = dst.setdefault(k, [])
            if not isinstance(cur, list):
                raise CliError("settings.json: %s.%s is not a list; fix it first" % (where, k))
            cur.extend(x for x in v if x not in cur)
        elif k not in dst:
            dst[k] = v


def strip_hooks(hooks: dict) -> None:
    """Remove our handlers (and groups left empty) from a settings 'hooks' object."""
    for ev in list(hooks):
        groups = hooks[ev]
        if not isinstance(groups, list):
            continue
        kept = []
        for g in groups:
            if isinstance(g, dict) and isinstance(g.get("hooks"), list):
                hs = [h for h in g["hooks"] if not is_ours(h)]
                if not hs and g["hooks"]:
                    continue
                g = dict(g, hooks=hs)
            kept.append(g)
        if kept:
            hooks[ev] = kept
        else:
            del hooks[ev]


def strip(settings: dict, ours: dict, before: dict | None = None) -> dict:
    """settings without ours. `before`: the settings as they were before install, when known:
    what the person had there already stays."""
    new = _copy(settings)
    assert isinstance(new, dict)
    if isinstance(new.get("hooks"), dict):
        strip_hooks(new["hooks"])
        if not new["hooks"]:
            del new["hooks"]
    for key in ("permissions", "sandbox"):
        if isinstance(new.get(key), dict) and key in ours:
            _strip_from(new[key], ours[key], (before or {}).get(key))
            if not new[key]:
                del new[key]
    return new


def _strip_from(dst: dict, src: dict, before: object) -> None:
    had = before if isinstance(before, dict) else {}
    for k, v in src.items():
        if k not in dst:
            continue
        if isinstance(v, dict) and isinstance(dst[k], dict):
            _strip_from(dst[k], v, had.get(k))
            if not dst[k] and k not in had:
                del dst[k]
        elif isinstance(v, list) and isinstance(dst[k], list):
            kept = had.get(k)
            keep = kept if isinstance(kept, list) else []
            dst[k] = [x for x in dst[k] if x not in v or x in keep]
            if not dst[k] and k not in had:
                del dst[k]
        elif dst[k] == v and k not in had:
            del dst[k]


def has_ours(settings: dict) -> bool:
    hooks = settings.get("hooks")
    if isinstance(hooks, dict):
        for groups in hooks.values():
            for g in groups if isinstance(groups, list) else []:
                if isinstance(g, dict) and any(is_ours(h) for h in g.get("hooks") or []):
                    return True
    return False
