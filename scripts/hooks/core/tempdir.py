"""The temp dir: what `$TMPDIR` is in a Bash command, and where writes count as temp writes.

Measured with Claude Code 2.1.330 (a Bash call `echo "$TMPDIR"`, a hook printing its own
environment):
- Without the OS sandbox the hooks and the Bash tool get the same environment: the hooks'
  TMPDIR is the command's; where the hooks have none, Bash has none either (`$TMPDIR/x` is
  `/x`, unless a shell profile sets one).
- In the sandbox every command gets TMPDIR=<CLAUDE_CODE_TMPDIR when short, else the client's
  own temp dir (TMPDIR, TMP, TEMP, /tmp)>/claude-<uid>, whatever the hooks' TMPDIR; /tmp
  itself is read-only there. The hooks run outside the sandbox and are told nothing of it."""

from __future__ import annotations

import os
import sys


def _clean(value: str | None) -> str | None:
    """An absolute directory without `..` or `$` (what an analysis can stand on), else None."""
    if not value or value[0] != "/" or ".." in value.split("/") or "$" in value:
        return None
    return value.rstrip("/") or "/"


# Claude Code takes CLAUDE_CODE_TMPDIR for the sandbox only when it is short (measured as uid 0:
# up to 35 characters, <dir>/claude-0 up to 44; longer, the client's own temp dir instead,
# whatever its length). Whether the limit is on the one or the other is not known for other
# uids: where the two readings disagree, the answer is None.
SHORT_CC, SHORT_DIR = 35, 44


def sandbox_dir(env=None) -> str | None:
    """The TMPDIR Claude Code gives a sandboxed Bash command (started with `env`), or None
    when that cannot be told."""
    env = os.environ if env is None else env
    name = "claude-%d" % (os.getuid() if hasattr(os, "getuid") else 0)
    cc = env.get("CLAUDE_CODE_TMPDIR")
    if cc:
        cc = _clean(cc)
        if cc is None:
            return None
        box = "%s/%s" % (cc.rstrip("/"), name)
        short = (len(cc) <= SHORT_CC, len(box) <= SHORT_DIR)
        if all(short):
            return box
        if any(short):
            return None
    base = _clean(env.get("TMPDIR") or env.get("TMP") or env.get("TEMP") or "/tmp")  # os.tmpdir()
    return None if base is None else "%s/%s" % (base.rstrip("/"), name)


def sandbox_dirs(env=None) -> list[str]:
    """Every dir sandbox_dir() can be (for the temp-write check, which needs no single answer)."""
    env = os.environ if env is None else env
    name = "claude-%d" % (os.getuid() if hasattr(os, "getuid") else 0)
    out = []
    for d in (env.get("CLAUDE_CODE_TMPDIR"), env.get("TMPDIR"), env.get("TMP"), env.get("TEMP")):
        d = _clean(d)
        if d:
            out.append("%s/%s" % (d.rstrip("/"), name))
    return out


def _on_path(name: str) -> bool:
    """shutil.which without importing shutil (it imports re)."""
    for d in os.environ.get("PATH", "").split(os.pathsep):
        f = os.path.join(d or ".", name)
        if os.path.isfile(f) and os.access(f, os.X_OK):
            return True
    return False


def sandboxed(project: str) -> bool:
    """Will Bash run in Claude Code's sandbox: enabled in the settings, and its tools here
    (without bwrap Claude Code runs Bash unsandboxed; with a bwrap that cannot start, every
    Bash call fails, so the answer does not matter)."""
    from core import sandbox

    if sandbox.effective(project, "enabled")[0] is not True:
        return False
    if sys.platform == "darwin":
        return _on_path("sandbox-exec")
    return sys.platform.startswith("linux") and _on_path("bwrap") and _on_path("socat")


def for_bash(project: str) -> str | None:
    """$TMPDIR as the Bash tool will see it in this project, or None when the hooks cannot
    know it (no TMPDIR here: bash makes `$TMPDIR/x` `/x` unless a shell profile sets one, so
    it stays dynamic: a write there is judged as a write to an unknown place)."""
    if sandboxed(project):
        return sandbox_dir()
    return _clean(os.environ.get("TMPDIR"))


def shell_env(project: str) -> dict[str, str | None]:
    """The variables a Bash command in this project is known to get from Claude Code."""
    return {"CLAUDE_PROJECT_DIR": project, "TMPDIR": for_bash(project)}


def dirs() -> list[str]:
    """Every temp dir a write may go to under `paths.allow_temp_writes`: the hooks' TMPDIR
    (the unsandboxed Bash tool's), CLAUDE_CODE_TMPDIR, the sandbox's, /tmp and /var/tmp."""
    out = []
    env = os.environ
    for d in [
        env.get("TMPDIR"),
        env.get("CLAUDE_CODE_TMPDIR"),
        "/tmp",
        "/var/tmp",
    ] + sandbox_dirs():
        if d and os.path.isabs(d):
            out.append(d.rstrip("/") or "/")
    return out
