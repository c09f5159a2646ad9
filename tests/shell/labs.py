"""The lab the shell tests share: a project with the hooks installed, a git repository, a few
files, research done, and under safemode by the person's `s+` (mode "safe") or not ("normal");
and one call through sanetools.py from a clear enforcement count.

    labs = two_mode_labs(tmp_path_factory, "misc", {"README.md": "readme\\n", "~/.ssh/": None})
    r = pre(labs["safe"], "rm README.md")  # the hook's Result (r.denied, r.spec, ...)
    answer(r)   # "allow", "ask <reason>" or the deny reason
    verdict(r)  # (permissionDecision, reason)
    denied(labs["safe"], "rm README.md", "[safemode]", "README.md")  # pre() and assert
    not_denied(labs["normal"], "ls")

Files are {path: text}: a path under ~/ lands in the project's HOME, a text of None makes
only the directory. A lab with scratch files keeps them in a directory outside the project
(proj.tmp) that stands for the temp dir: pre() runs the hook with TMPDIR set to it and writes
@T in a command as that directory, @P as the project and @H as its HOME.

environ(), engine_session() and engine_bash() drive the hook engine inside this process
instead, for tables too long to run through the script one call at a time."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterable, Iterator, Mapping
from typing import Optional, Union

from conftest import Project

MODES = ("normal", "safe")
Files = Union[Mapping[str, Optional[str]], Iterable[tuple[str, Optional[str]]]]


def write_tree(root: str, files: Files, home: str | None = None) -> None:
    """Write each file under root (a path under ~/ under home); a text of None is a directory."""
    for rel, text in files.items() if isinstance(files, Mapping) else files:
        if rel.startswith("~/"):
            assert home is not None, rel
            path = os.path.join(home, rel[2:])
        else:
            path = os.path.join(root, rel)
        if text is None:
            os.makedirs(path, exist_ok=True)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            fh.write(text)


def lab(
    root: str,
    mode: str,
    files: Files,
    git: bool = True,
    tmp: str | None = None,
    process: bool = False,
) -> Project:
    """One project in `mode`: hooks installed, `git init` (unless git=False), files written,
    research done, `s+` when mode is "safe". tmp: the lab's scratch directory (see pre)."""
    proj = Project(root, process=process)
    proj.install()
    if git:
        subprocess.run(["git", "init", "-q", proj.dir], check=True)
    write_tree(proj.dir, files, proj.home)
    ready(proj, mode)
    if tmp is not None:
        proj.places = {"@T": tmp, "@P": proj.dir, "@H": proj.home}
        proj.hook_env = {"TMPDIR": tmp}
        proj.tmp = tmp
    return proj


def ready(proj: Project, mode: str) -> Project:
    """The lab's last steps: research done, then `s+` when mode is "safe"."""
    proj.research()
    if mode == "safe":
        proj.prompt("s+")
    proj.mode = mode
    return proj


def two_mode_labs(
    factory, name: str, files: Files, scratch: Files = (), **kw
) -> dict[str, Project]:
    """{"normal": lab, "safe": lab} under one temp dir `name` (pytest's tmp_path_factory);
    scratch files go to a directory beside them that both labs use as their temp dir."""
    base = str(factory.mktemp(name))
    tmp = None
    if scratch:
        tmp = os.path.join(base, "t")
        write_tree(tmp, scratch)
    return {mode: lab(os.path.join(base, mode), mode, files, tmp=tmp, **kw) for mode in MODES}


def pre(proj: Project, cmd, tool: str = "Bash", env: dict | None = None, reset: bool = True):
    """A PreToolUse of `tool` through sanetools.py: cmd is the command (placeholders of the
    lab filled in) or a whole tool_input. reset: from a clear enforcement count (`rb-`)."""
    if reset:
        proj.prompt("rb-")
    if isinstance(cmd, dict):
        tool_input = cmd
    else:
        for place, path in getattr(proj, "places", {}).items():
            cmd = cmd.replace(place, path)
        tool_input = {"command": cmd}
    payload = proj.payload("PreToolUse", tool_name=tool, tool_input=tool_input)
    return proj.hook("sanetools", payload, env=dict(getattr(proj, "hook_env", {}), **(env or {})))


def answer(r) -> str:
    """The deny reason, "ask <reason>" for an ask, or "allow"."""
    if r.denied:
        return r.denied
    if r.spec.get("permissionDecision") == "ask":
        return "ask " + (r.spec.get("permissionDecisionReason") or "")
    return "allow"


def verdict(r) -> tuple[str | None, str]:
    """(permissionDecision or None, its reason or the deny reason or "")."""
    spec = r.spec
    return spec.get("permissionDecision"), spec.get("permissionDecisionReason") or r.denied or ""


def expect(proj: Project, cmd, code: str | None, tool: str = "Bash") -> None:
    """code None: the call is allowed; else denied or asked with a reason that starts with code."""
    got, reason = verdict(pre(proj, cmd, tool))
    if code is None:
        assert got in (None, "allow"), (cmd, proj.mode, reason)
    else:
        assert got in ("deny", "ask") and reason.startswith(code), (cmd, proj.mode, reason)


def denied(proj: Project, cmd, code, why: str = "", tool: str = "Bash"):
    """pre(), asserting a deny whose reason starts with code (a str or a tuple) and holds why."""
    r = pre(proj, cmd, tool)
    where = "%r [%s] -> %r" % (cmd, getattr(proj, "mode", ""), r.denied)
    assert r.denied and r.denied.startswith(code), "bypass: " + where
    assert why in r.denied, "reason lacks %r: %s" % (why, where)
    return r


def not_denied(proj: Project, cmd, tool: str = "Bash"):
    """pre(), asserting no deny (an ask passes)."""
    r = pre(proj, cmd, tool)
    where = "%r [%s] -> %r" % (cmd, getattr(proj, "mode", ""), r.denied)
    assert not r.denied, "false positive: " + where
    return r


def git(cwd: str, *args: str, env: Mapping[str, str] | None = None) -> None:
    """git in cwd as a named author (env: the environment to start from, os.environ by default)."""
    e = dict(os.environ if env is None else env, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t")
    e.update(GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
    e.pop("GIT_DIR", None)
    subprocess.run(["git", *args], cwd=cwd, check=True, env=e, capture_output=True)


@contextlib.contextmanager
def environ(env: Mapping[str, str]) -> Iterator[None]:
    """os.environ is exactly env inside the block, and what it was after it."""
    old = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(old)


def engine_session(project: str, sid: str, *prompts: str) -> None:
    """Through the hook engine in this process (inside environ()): session sid reads a file and
    searches the web (research credit), then the person types each prompt ("s+", "rb-")."""
    from core import engine

    base = {"session_id": sid, "cwd": project}
    engine.handle(
        "sanetrack",
        dict(
            base,
            hook_event_name="PostToolUse",
            tool_name="Read",
            tool_input={"file_path": project + "/x"},
            tool_response={"type": "text", "file": {"content": "x"}},
        ),
        project,
    )
    engine.handle(
        "sanetrack",
        dict(
            base,
            hook_event_name="PostToolUse",
            tool_name="WebSearch",
            tool_input={"query": "q"},
            tool_response={"results": ["r"]},
        ),
        project,
    )
    for prompt in prompts:
        engine.handle(
            "saneprompt", dict(base, hook_event_name="UserPromptSubmit", prompt=prompt), project
        )


def engine_bash(project: str, sid: str, command: str, tool_use_id: str = "t"):
    """A Bash PreToolUse of session sid through the hook engine in this process: its Ctx."""
    from core import engine

    payload = {
        "session_id": sid,
        "cwd": project,
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": tool_use_id,
    }
    return engine.handle("sanetools", payload, project)
