"""sane.py install / uninstall: the hooks travel with the project.

install: copies scripts/hooks (dropping files an older layout left behind), ships the reviewer
and templates into .claude/, records this machine's interpreter, and merges our entries into
.claude/settings.json (hooks through the launcher, the sandbox, permission rules) and
.claude/settings.local.json (per-machine paths only). Running it again upgrades in place:
state, config, learnings and the ledger are kept; our settings entries are replaced, never
duplicated. An install record under <config>/sane-hooks/installs/ (out of the agent's reach,
out of the tracked tree, with the backups) lets uninstall put settings.json and .gitignore back
byte for byte when nothing else changed them since."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import time

from core.cli import wiring
from core.cli.common import CliError, out
from core.cli.footprint import COMMITTED, LOCAL_FILES, backup_dir, config_dir, record_path
from core.version import VERSION

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from typing import Any

GITIGNORE_MARK = "# sane-hooks (generated; state, locks and logs stay local)"
GITIGNORE_LINES = (
    ".claude/state.json",
    ".claude/state.json.lock",
    ".claude/state.json.*.tmp",
    ".claude/audit.jsonl",
    ".claude/*.log",
    ".claude/*.log.*",
    ".claude/*.bak-*",
    ".claude/settings.local.json",
    "scripts/hooks/**/__pycache__/",
)
HOOKS_SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# What install ships into a project's .claude/ (committed there): the reviewer and templates.
SHIPPED = (".claude/agents/reviewer.md", ".claude/sane-templates")


def _sha(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def _read_bytes(path: str) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        return None


def _read_settings(path: str) -> dict:
    data = _read_bytes(path)
    if data is None:
        return {}
    try:
        doc = json.loads(data.decode("utf-8"))
    except ValueError as exc:
        raise CliError("%s is not valid JSON (%s); fix it first, nothing was changed" % (path, exc))
    if not isinstance(doc, dict):
        raise CliError("%s is not a JSON object; nothing was changed" % path)
    return doc


def _dump(doc: dict, like: bytes | None = None) -> bytes:
    """JSON with the indent of `like` (the file as the person keeps it), else 2 spaces."""
    indent: int | str = 2
    for line in (like or b"").decode("utf-8", "replace").splitlines()[1:2]:
        lead = line[: len(line) - len(line.lstrip())]
        if lead and set(lead) == {" "}:
            indent = len(lead)
        elif lead and set(lead) == {"\t"}:
            indent = "\t"
    return (json.dumps(doc, indent=indent) + "\n").encode("utf-8")


def _atomic(path: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = "%s.%d.tmp" % (path, os.getpid())
    with open(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)


def _backup(project: str, rel: str, data: bytes | None) -> str | None:
    """Keep the previous bytes out of the tracked tree, with the install record."""
    if data is None:
        return None
    d = backup_dir(project)
    os.makedirs(d, mode=0o700, exist_ok=True)
    path = os.path.join(d, "%s.%s" % (rel.replace("/", "_"), time.strftime("%Y%m%d-%H%M%S")))
    with open(path, "wb") as fh:
        fh.write(data)
    return path


def load_record(project: str) -> dict:
    try:
        with open(record_path(project), encoding="utf-8") as fh:
            rec = json.load(fh)
        return rec if isinstance(rec, dict) else {}
    except (OSError, ValueError):
        return {}


def _save_record(project: str, rec: dict) -> None:
    path = record_path(project)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    _atomic(path, json.dumps(rec, indent=1, sort_keys=True).encode())


def _track(rec: dict, rel: str, before: bytes | None, after: bytes | None, clean: bool) -> None:
    """Remember how to put rel back: its bytes before our first change, valid while the file
    still has exactly the bytes we last wrote."""
    files = rec.setdefault("files", {})
    old = files.get(rel)
    if isinstance(old, dict) and old.get("after_sha") == _sha(before):
        entry = old  # unchanged since our last write: the original bytes still apply
    else:
        text = None if before is None else before.decode("utf-8", "surrogateescape")
        entry = {"before": text, "existed": before is not None, "exact": clean}
    entry["after_sha"] = _sha(after)
    files[rel] = entry


# ------------------------------------------------------------------ copying


def source_root() -> str:
    """The tree install copies from: the sane-hooks repository, or an installed project."""
    return os.path.dirname(os.path.dirname(HOOKS_SRC))


def _copy_hooks(dest: str) -> tuple[int, list[str]]:
    """Copy scripts/hooks; remove .py files the source no longer has (an older layout's
    flat core/ modules). Returns (files copied, files removed)."""
    src = os.path.realpath(HOOKS_SRC)
    if os.path.realpath(dest) == src:
        return 0, []
    n, keep = 0, set()
    for root, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        rel = os.path.relpath(root, src)
        os.makedirs(os.path.join(dest, rel), exist_ok=True)
        for f in files:
            if f.endswith((".pyc", ".tmp")):
                continue
            s, d = os.path.join(root, f), os.path.join(dest, rel, f)
            keep.add(os.path.normpath(d))
            with open(s, "rb") as fh:
                data = fh.read()
            if _read_bytes(d) == data:
                continue
            shutil.copy2(s, d)
            _copy_bytecode(s, d)
            n += 1
    removed = []
    for root, dirs, files in os.walk(dest):
        for f in files:
            p = os.path.normpath(os.path.join(root, f))
            if p not in keep and f.endswith(".py") and "__pycache__" not in p:
                os.remove(p)
                removed.append(os.path.relpath(p, dest))
    if removed:  # stale bytecode goes too; compileall makes it again
        for root, dirs, _files in os.walk(dest, topdown=False):
            for d in dirs:
                p = os.path.join(root, d)
                if d == "__pycache__":
                    shutil.rmtree(p, ignore_errors=True)
                elif not os.listdir(p):
                    os.rmdir(p)
    return n, sorted(removed)


def _copy_bytecode(src: str, dest: str) -> None:
    """Bring the source's bytecode along: the copy keeps the source's mtime and size, so
    compileall below keeps a current .pyc and compiles only what is stale or missing."""
    if not src.endswith(".py"):
        return
    try:
        from importlib.util import cache_from_source

        pyc = cache_from_source(src)
        if os.path.isfile(pyc):
            target = cache_from_source(dest)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy2(pyc, target)
    except (OSError, ValueError, NotImplementedError):
        pass


def _shipped_sources() -> list[tuple[str, str]]:
    """(source path, project-relative dest) for the reviewer and each template."""
    root = source_root()
    pairs = []
    for rel in SHIPPED:
        s = os.path.join(root, rel)
        if not os.path.exists(s):
            continue
        if os.path.isdir(s):
            pairs += [(os.path.join(s, f), rel + "/" + f) for f in sorted(os.listdir(s))]
        else:
            pairs.append((s, rel))
    return pairs


def _ship(project: str) -> int:
    """Reviewer agent and block templates, installed once (never over the person's edits)."""
    n = 0
    for s, rel in _shipped_sources():
        d = os.path.join(project, rel)
        if os.path.realpath(s) == os.path.realpath(d) or os.path.exists(d):
            continue
        os.makedirs(os.path.dirname(d), exist_ok=True)
        shutil.copy2(s, d)
        n += 1
    return n


def _gitignore_text(text: str | None, add: bool) -> str | None:
    lines = (text or "").splitlines()
    if add:
        missing = [x for x in GITIGNORE_LINES if x not in lines]
        if not missing:
            return text
        if GITIGNORE_MARK not in lines:
            lines += ([""] if lines and lines[-1] else []) + [GITIGNORE_MARK]
        lines += missing
    else:
        if GITIGNORE_MARK not in lines:
            return text
        lines = [x for x in lines if x != GITIGNORE_MARK and x not in GITIGNORE_LINES]
        while lines and not lines[-1]:
            lines.pop()
    return "\n".join(lines) + "\n" if lines else ""


# ------------------------------------------------------------------ install


def _project(args: object) -> str:
    p = getattr(args, "target", None) or getattr(args, "project", None) or os.getcwd()
    project = os.path.realpath(p)
    if not os.path.isdir(project):
        raise CliError("no such project directory: %s" % project)
    return project


def _user_settings() -> dict:
    base = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    try:
        with open(os.path.join(base, "settings.json"), encoding="utf-8") as fh:
            doc = json.load(fh)
        return doc if isinstance(doc, dict) else {}
    except (OSError, ValueError):
        return {}


def local_paths() -> list[str]:
    return wiring.machine_paths(
        config_dir(), os.path.expanduser("~"), os.environ.get("CLAUDE_CONFIG_DIR")
    )


def interpreter(project: str, quiet: bool = False) -> str | None:
    """Keep a working recorded choice; else choose one and record it."""
    from core.cli import interp

    cur = interp.recorded()
    if cur and os.access(cur, os.X_OK) and not interp.agent_writable(cur, project):
        info = interp.probe(cur)
        if info and info["version"] >= (3, 9):
            return cur
    info, notes = interp.choose(project)
    if info is None:
        out("WARNING: no usable Python 3.9+ found for the hooks: %s" % "; ".join(notes))
        return None
    path = interp.record(info["executable"])
    if not quiet:
        out("hooks interpreter: %s (recorded in %s)" % (info["executable"], path))
    if not info["yaml"]:
        out(
            "WARNING: %s has no pyyaml: config files cannot be read; run `%s -m pip install "
            "pyyaml`" % (info["executable"], info["executable"])
        )
    return info["executable"]


def install(args: object) -> int:
    project = _project(args)
    sandbox = not getattr(args, "no_sandbox", False)
    rec = load_record(project)
    prior = rec.get("version")
    settings_path = os.path.join(project, ".claude", "settings.json")
    local_path = os.path.join(project, ".claude", "settings.local.json")
    old_bytes = _read_bytes(settings_path)
    old = _read_settings(settings_path)
    old_local_bytes = _read_bytes(local_path)
    old_local = _read_settings(local_path)
    user = _user_settings()
    machine = local_paths()
    had = rec.setdefault("had", {})
    for rel, doc in ((".claude/settings.json", old), (".claude/settings.local.json", old_local)):
        if rel not in had and not wiring.has_ours(doc):
            had[rel] = doc  # what the person had before our first install: theirs to keep
    new = wiring.merge(_strip_all(old, rec, ".claude/settings.json"), wiring.wanted(sandbox), user)
    new_local = wiring.merge(
        _strip_all(old_local, rec, ".claude/settings.local.json"), wiring.wanted(sandbox, machine)
    )

    python = interpreter(project)
    copied, removed = _copy_hooks(os.path.join(project, "scripts", "hooks"))
    os.makedirs(os.path.join(project, ".claude"), exist_ok=True)
    shipped = _ship(project)
    for rel, path, before, doc, was in (
        (".claude/settings.json", settings_path, old_bytes, new, old),
        (".claude/settings.local.json", local_path, old_local_bytes, new_local, old_local),
    ):
        after = before if doc == was else _dump(doc)
        if doc == was and before is None and not doc:
            after = None
        if after != before and after is not None:
            b = _backup(project, rel, before)
            _atomic(path, after)
            out("wrote %s%s" % (rel, " (previous copy: %s)" % b if b else ""))
        _track(rec, rel, before, after, clean=not wiring.has_ours(was))
    gi_path = os.path.join(project, ".gitignore")
    gi_before = _read_bytes(gi_path)
    gi_text = _gitignore_text(None if gi_before is None else gi_before.decode("utf-8"), True)
    gi_after = None if gi_text is None else gi_text.encode("utf-8")
    if gi_after != gi_before and gi_after is not None:
        _atomic(gi_path, gi_after)
        out("added sane-hooks entries to .gitignore")
    clean = gi_before is None or GITIGNORE_MARK.encode() not in gi_before
    _track(rec, ".gitignore", gi_before, gi_after, clean=clean)
    rec.update(project=project, version=VERSION, sandbox=sandbox, installed_at=time.time())
    rec["local_paths"] = machine
    _save_record(project, rec)
    try:
        import compileall

        compileall.compile_dir(os.path.join(project, "scripts", "hooks"), quiet=1)
    except Exception:
        pass
    if prior and prior != VERSION:
        out(
            "upgraded sane-hooks %s -> %s (state, config, learnings, ledger kept)"
            % (prior, VERSION)
        )
    if removed:
        out("removed %d files an older layout left in scripts/hooks" % len(removed))
    out(
        "copied %d files into scripts/hooks, %d into .claude; version %s"
        % (copied, shipped, VERSION)
    )
    if sandbox:
        from core import sandbox as sbx

        for key, want in (("enabled", True), ("allowUnsandboxedCommands", False)):
            value, src = sbx.effective(project, key)
            if value is not want:
                out(
                    "NOTE: sandbox.%s is %s in %s (yours, kept); the sandbox as installed needs "
                    "%s" % (key, json.dumps(value), src, json.dumps(want))
                )
        why = sbx.unavailable()
        out(
            "sandbox: on (Bash runs in Claude Code's OS sandbox)"
            if not why
            else "sandbox: written to the settings, but it cannot start here: %s" % why
        )
    else:
        out("sandbox: off (--no-sandbox); the hooks' static analysis is the only layer for Bash")
    out(
        "next: `%s %s/scripts/hooks/sane.py doctor --project %s`"
        % (python or "python3", project, project)
    )
    return 0


def _strip_all(doc: dict, rec: dict, rel: str) -> dict:
    """doc without any entries of ours from an earlier install (either sandbox choice, any
    per-machine paths, the old interpreter-path hook commands); what the person had there
    before the first install stays."""
    had = (rec.get("had") or {}).get(rel)
    if rel == ".claude/settings.json":
        variants = [wiring.wanted(True), wiring.wanted(False)]
    else:
        paths = sorted(set(rec.get("local_paths") or []) | set(local_paths()))
        variants = [wiring.wanted(True, paths), wiring.wanted(False, paths)] if paths else []
    for ours in variants:
        doc = wiring.strip(doc, ours, had)
    return wiring.strip(doc, {}) if not variants else doc


# ------------------------------------------------------------------ uninstall


def _restore_or_strip(project: str, rel: str, rec: dict, left: list[str]) -> None:
    path = os.path.join(project, rel)
    cur = _read_bytes(path)
    entry = (rec.get("files") or {}).get(rel)
    if isinstance(entry, dict) and entry.get("exact") and entry.get("after_sha") == _sha(cur):
        before: Any = entry.get("before")  # the text install found (a str when it existed)
        if cur is None and not entry.get("existed"):
            return
        _backup(project, rel, cur)
        if entry.get("existed"):
            _atomic(path, before.encode("utf-8", "surrogateescape"))
            out("restored %s exactly as it was before install" % rel)
        else:
            os.remove(path)
            out("removed %s (install created it)" % rel)
        return
    if cur is None:
        return
    if rel == ".gitignore":
        text = _gitignore_text(cur.decode("utf-8"), False)
        if text is not None and text.encode() != cur:
            _atomic(path, text.encode("utf-8"))
            out("removed the sane-hooks block from .gitignore (changed since install)")
        return
    doc = _read_settings(path)
    new = _strip_all(doc, rec, rel)
    if new != doc:
        _backup(project, rel, cur)
        _atomic(path, _dump(new, like=cur))
        out("removed the sane-hooks entries from %s (changed since install; the rest kept)" % rel)
        if entry is not None:
            left.append("%s: reformatted (it was changed after install)" % rel)


def uninstall(args: object) -> int:
    project = _project(args)
    rec = load_record(project)
    left: list[str] = []
    for rel in (".claude/settings.json", ".claude/settings.local.json", ".gitignore"):
        _restore_or_strip(project, rel, rec, left)
    if getattr(args, "purge", False):
        from core.cli.purge import purge

        return purge(project, rec)
    if os.path.exists(record_path(project)):
        os.remove(record_path(project))  # the settings are back: nothing left to restore
    present = [
        r
        for r in ("scripts/hooks",) + LOCAL_FILES + COMMITTED
        if os.path.lexists(os.path.join(project, r))
    ]
    out("left in place (the hooks no longer run; `uninstall --purge` removes the local ones):")
    for r in present:
        why = (
            "the hook scripts"
            if r == "scripts/hooks"
            else "local state and logs"
            if r in LOCAL_FILES
            else "committed: the team's record"
        )
        out("  %s  (%s)" % (r, why))
    for line in left:
        out("  " + line)
    if not present and not left:
        out("  nothing")
    return 0


def version_of(project: str) -> str | None:
    """The version of a project's installed hooks (its own core/version.py), None if absent,
    '0' when installed by a release that recorded none."""
    hooks = os.path.join(project, "scripts", "hooks")
    data = _read_bytes(os.path.join(hooks, "core", "version.py"))
    if data is None:
        return "0" if os.path.exists(os.path.join(hooks, "sanetools.py")) else None
    for line in data.decode("utf-8", "replace").splitlines():
        if line.startswith("VERSION"):
            return line.split("=", 1)[1].strip().strip("\"'")
    return "0"


def example_settings() -> dict:
    """settings.example.json: exactly what install writes into an empty project."""
    return wiring.merge({}, wiring.wanted(True))


def python_for_display() -> str:
    return os.path.abspath(sys.executable)
