"""Claude Code's OS sandbox under the hooks: is it on, can it start here, and what to tell the
person when it is off or refuses something.

Claude Code gives the hooks no sign of the sandbox: where bubblewrap is missing it runs Bash
unsandboxed with a warning on its own stderr only, and where user namespaces are off every
Bash call fails. So SessionStart checks for itself and says so (`session_start`), and
PostToolUse tells the person once per kind when the sandbox refused something, with the exact
setting that allows it (`post_tool`)."""

from __future__ import annotations

import json
import os
import sys

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from core.engine import Ctx
    from core.policy import Facts

LOCAL = ".claude/settings.local.json"


def _load(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
        return doc if isinstance(doc, dict) else {}
    except (OSError, ValueError):
        return {}


def settings_sources(project: str) -> list[tuple[str, dict]]:
    """(name, settings) lowest precedence first: user, project, local."""
    home = os.path.expanduser("~")
    user_dir = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude")
    return [
        ("~/.claude/settings.json", _load(os.path.join(user_dir, "settings.json"))),
        (".claude/settings.json", _load(os.path.join(project, ".claude", "settings.json"))),
        (LOCAL, _load(os.path.join(project, LOCAL))),
    ]


def effective(project: str, key: str) -> tuple[object, str | None]:
    """(value, source) of sandbox.<key> as Claude Code resolves a scalar: the last source
    that sets it wins (managed and --settings files are not looked at)."""
    value, src = None, None
    for name, doc in settings_sources(project):
        sb = doc.get("sandbox")
        if isinstance(sb, dict) and key in sb:
            value, src = sb[key], name
    return value, src


def unavailable() -> str | None:
    """Why the sandbox cannot start on this machine, or None when it can."""
    import shutil
    import subprocess

    if sys.platform == "darwin":
        return None if shutil.which("sandbox-exec") else "sandbox-exec is missing"
    if not sys.platform.startswith("linux"):
        return "Claude Code's sandbox is not checked on %s" % sys.platform
    missing = [t for t in ("bwrap", "socat") if not shutil.which(t)]
    if missing:
        return "%s not installed (apt-get install bubblewrap socat)" % " and ".join(
            {"bwrap": "bubblewrap (bwrap)", "socat": "socat"}[m] for m in missing
        )
    try:
        proc = subprocess.run(
            ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--unshare-net", "--", "true"],
            capture_output=True,
            text=True,
            timeout=5,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return "bwrap does not run: %s" % exc
    if proc.returncode != 0:
        line = (proc.stderr.strip().splitlines() or ["exit %d" % proc.returncode])[-1]
        return "bwrap cannot create its namespaces (%s); user namespaces may be off" % line[:200]
    return None


LOST = (
    "without it, a write the hooks' analysis cannot see (a script written to the temp dir and "
    "run, a path built at run time) can reach the hooks, the state and the settings, and Bash "
    "can read ~/.ssh and other secrets"
)


def status(project: str) -> tuple[bool, str]:
    """(active, one line): whether Bash will run sandboxed in this project, and why not."""
    enabled, src = effective(project, "enabled")
    if enabled is not True:
        how = "disabled in %s" % src if src else "not enabled in the settings"
        return False, "the OS sandbox is off (%s)" % how
    why = unavailable()
    if why:
        return False, "the OS sandbox is enabled but cannot start here: %s" % why
    fallback, fsrc = effective(project, "allowUnsandboxedCommands")
    if fallback is not False:
        return True, "the OS sandbox is on, but allowUnsandboxedCommands is not false (%s)" % (
            fsrc or "default true"
        )
    return True, "the OS sandbox is on"


def session_start(ctx: Ctx) -> None:
    """Tell the person, at a session's start, when the OS layer is off."""
    if getattr(ctx, "payload", {}).get("source") not in (None, "startup"):
        return
    enabled, src = effective(ctx.project, "enabled")
    if enabled is not True:
        if src:  # the person turned it off (--no-sandbox leaves it unset: said at install)
            ctx.answer.tell_user(
                "sane-hooks: Claude Code's OS sandbox is off (%s); only the hooks' analysis "
                "guards Bash." % src
            )
        return
    why = unavailable()
    if why:
        ctx.answer.tell_user(
            "sane-hooks: the OS layer is OFF: Claude Code's sandbox cannot start here (%s), "
            "so Bash runs without it; %s. `python3 scripts/hooks/sane.py doctor` says more."
            % (why, LOST)
        )


# What a sandbox refusal looks like in a Bash result, and the setting that allows it.
REFUSALS = (
    (
        "network",
        ("deny network-outbound", "blocked-by-allowlist"),
        'add the domain to "sandbox.network.allowedDomains" in %s' % LOCAL,
    ),
    (
        "socket",
        ("socket(AF_UNIX", "Operation not permitted", "docker.sock"),
        'set "sandbox.network.allowAllUnixSockets": true in %s (for docker this hands the '
        "agent root-equivalent access: consider running those commands yourself)" % LOCAL,
    ),
    (
        "write",
        ("Read-only file system",),
        "/tmp is read-only in the sandbox (tools should use $TMPDIR); for another directory "
        'add it to "sandbox.filesystem.allowWrite" in %s (never one holding the hooks, '
        ".claude or your config)" % LOCAL,
    ),
)


def post_tool(ctx: Ctx, facts: Facts, ok: bool) -> None:
    """Once per kind and session: the sandbox refused something the work asked for."""
    if getattr(ctx, "tool", "") not in ("Bash", "PowerShell"):
        return
    text = _result_text(ctx.payload)
    if not text:
        return
    told = ctx.session.get("sandbox_told") or []
    for kind, marks, fix in REFUSALS:
        if kind in told or not any(m in text for m in marks):
            continue
        if kind == "socket" and "AF_UNIX" not in text and "sock" not in text:
            continue
        if effective(ctx.project, "enabled")[0] is not True:
            return  # not the sandbox's doing
        ctx.session["sandbox_told"] = told + [kind]
        ctx.answer.tell_user(
            "sane-hooks: Claude Code's sandbox refused a Bash command (%s). If the work needs "
            "it: %s. You are told this once per session." % (kind, fix)
        )
        return


def _result_text(payload: dict) -> str:
    parts = []
    resp = payload.get("tool_response")
    if isinstance(resp, dict):
        for k in ("stdout", "stderr"):
            if isinstance(resp.get(k), str):
                parts.append(resp[k][-20000:])
    elif isinstance(resp, str):
        parts.append(resp[-20000:])
    if isinstance(payload.get("error"), str):
        parts.append(payload["error"][-20000:])
    return "\n".join(parts)
