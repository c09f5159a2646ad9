"""Git as the hooks run it: hardened, so a repository config the agent wrote never runs code
with the hooks' rights (they run outside Claude Code's sandbox).

What a `.git/config` can make a plain `git status` or `git diff` run: `core.fsmonitor`, hooks
(`post-index-change`; `core.hooksPath`), an external diff (`diff.external`, `diff.<d>.command`),
a textconv (`diff.<d>.textconv`), and clean/smudge filters (`filter.<f>.clean|process`, chosen
by `.gitattributes`), which `git diff` and `git status` run on a changed file. Every one is
switched off on the command line (`-c` beats the repository's config, and reaches the git
processes git itself starts); the filter drivers are named by the config, so they are listed
first with `git config`, which runs nothing.
"""

from __future__ import annotations

import os

TIMEOUT = 2.0
HARDEN = (
    "-c",
    "core.fsmonitor=",
    "-c",
    "core.hooksPath=/dev/null",  # an empty value would mean hooks at "/<name>"
    "-c",
    "diff.external=",
    "-c",
    "core.pager=cat",
    "-c",
    "protocol.allow=never",  # the hooks never fetch; no transport helper runs either
)
# Per subcommand: the options that keep an external diff, a textconv and submodules (their
# own configs) out.
SUB_OPTIONS = {
    "diff": ("--no-ext-diff", "--no-textconv", "--ignore-submodules=all"),
    "log": ("--no-ext-diff", "--no-textconv"),
    "show": ("--no-ext-diff", "--no-textconv"),
    "status": ("--ignore-submodules=all",),
}
DROP_ENV = ("GIT_EXTERNAL_DIFF", "GIT_PAGER", "GIT_SSH_COMMAND", "GIT_SSH", "GIT_ASKPASS")
FILTER_KEYS = ("clean", "smudge", "process")

_FILTERS: dict = {}


def env() -> dict:
    """The environment for a hardened git: no optional locks, no prompts, no pager."""
    e = {k: v for k, v in os.environ.items() if k not in DROP_ENV}
    e.update(GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0")
    return e


def filter_drivers(project: str) -> list[str]:
    """The filter driver names the configs in force for project define (once per process)."""
    hit = _FILTERS.get(project)
    if hit is not None:
        return hit
    names: list[str] = []
    cmd = ["git", "-C", project, *HARDEN, "config", "-z", "--name-only", "--get-regexp"]
    out = capture(cmd + [r"^filter\."]) or ""
    for key in out.split("\0"):
        key = key.strip()
        if key.count(".") >= 2:
            name = key[len("filter.") : key.rindex(".")]
            if name and name not in names:
                names.append(name)
    _FILTERS[project] = names[:200]
    return _FILTERS[project]


def argv(project: str, sub: str, *args: str) -> list[str]:
    """`git -C project <hardening> sub <sub's hardening> args...`, ready to run."""
    out = ["git", "-C", project, *HARDEN]
    for name in filter_drivers(project):
        for key in FILTER_KEYS:
            out += ["-c", "filter.%s.%s=" % (name, key)]
        out += ["-c", "filter.%s.required=false" % name]
    return out + [sub, *SUB_OPTIONS.get(sub, ()), *args]


def run(project: str, sub: str, *args: str) -> str | None:
    """stdout of a hardened git, or None on any failure (missing, timeout, non-zero)."""
    return capture(argv(project, sub, *args))


def capture(cmd: list[str]) -> str | None:
    """stdout of cmd if it exits 0 within TIMEOUT, else None. posix_spawn where there is one
    (the subprocess module costs an import on SessionStart's budget)."""
    if not hasattr(os, "posix_spawnp"):
        import subprocess

        try:
            proc = subprocess.run(
                cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT, env=env()
            )
        except (OSError, subprocess.SubprocessError, ValueError):
            return None
        return proc.stdout.decode("utf-8", "replace") if proc.returncode == 0 else None
    out = collect(spawn(cmd, env()))
    return None if out is None else out.decode("utf-8", "replace")


def spawn(cmd: list[str], environ: dict[str, str]) -> tuple[int, int] | None:
    """Start cmd (found on PATH) with its stdout on a pipe, stdin and stderr on /dev/null,
    without the subprocess module: (pid, fd), or None."""
    r, w = os.pipe()
    try:
        pid = os.posix_spawnp(
            cmd[0],
            cmd,
            environ,
            file_actions=[
                (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                (os.POSIX_SPAWN_DUP2, w, 1),
                (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
                (os.POSIX_SPAWN_CLOSE, r),
                (os.POSIX_SPAWN_CLOSE, w),
            ],
        )
    except (OSError, ValueError):
        os.close(r)
        os.close(w)
        return None
    os.close(w)
    return pid, r


def collect(handle: tuple[int, int] | None, timeout: float = TIMEOUT) -> bytes | None:
    """The spawned command's stdout if it exited 0 within timeout, else None (killed)."""
    if handle is None:
        return None
    import select
    import time

    pid, fd = handle
    chunks, deadline, killed = [], time.monotonic() + timeout, False
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLHUP)
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                os.kill(pid, 9)
                killed = True
                break
            if poller.poll(left * 1000):
                data = os.read(fd, 65536)
                if not data:
                    break
                chunks.append(data)
    except OSError:
        killed = True
    finally:
        os.close(fd)
    try:
        _, status = os.waitpid(pid, 0)
    except OSError:
        return None
    if killed or not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0):
        return None
    return b"".join(chunks)
