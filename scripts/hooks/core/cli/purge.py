"""sane.py uninstall --purge: remove every local file install and the hooks made in a project,
and say what was removed. Files meant to be committed (the ledger, learning stats, learnings,
the reviewer, the templates, the person's config) are the team's record: one person's purge
keeps them and prints the `git rm` that would remove them."""

from __future__ import annotations

import glob
import json
import os
import shutil

from core.cli.common import out
from core.cli.footprint import COMMITTED, LOCAL_FILES, backup_dir, record_path


def _rm(path: str, removed: list[str], shown: str) -> None:
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.remove(path)
    else:
        return
    removed.append(shown)


def _counter_entry(project: str) -> bool:
    """Drop this project's entry from counters.json, under the counters lock."""
    from core.state import FileLock, atomic_write, counters_path

    path = counters_path()
    if not os.path.exists(path):
        return False
    lock = FileLock(path + ".lock")
    if not lock.acquire(timeout=5.0):
        out("counters lock busy: this project's counter entry was kept")
        return False
    try:
        with open(path, "rb") as fh:
            data = json.loads(fh.read())
        if not isinstance(data, dict) or project not in data:
            return False
        del data[project]
        atomic_write(path, json.dumps(data, sort_keys=True).encode())
        return True
    except (OSError, ValueError):
        return False
    finally:
        lock.release()


def _verified(project: str) -> list[str]:
    """The last verified copy of this project's state (and its pending failures) under
    <config>/sane-hooks/verified/."""
    from core import state

    pending = state.pending_path(project)
    found = list(state.verified_paths(project)) + [pending, pending + ".taken"]
    return [p for p in found if os.path.exists(p)]


def _other_installs(project: str) -> bool:
    d = os.path.dirname(record_path(project))
    mine = os.path.basename(record_path(project))
    return os.path.isdir(d) and any(n != mine and n.endswith(".json") for n in os.listdir(d))


def purge(project: str, rec: dict) -> int:
    from core.launch import choice_path

    removed: list[str] = []
    rel = lambda p: os.path.relpath(p, project)  # noqa: E731
    _rm(os.path.join(project, "scripts", "hooks"), removed, "scripts/hooks/")
    scripts = os.path.join(project, "scripts")
    if os.path.isdir(scripts) and not os.listdir(scripts):
        _rm(scripts, removed, "scripts/ (left empty)")
    cdir = os.path.join(project, ".claude")
    for r in LOCAL_FILES:
        _rm(os.path.join(project, r), removed, r)
    for pattern in ("state.json.*.tmp", "*.log.*", "*.bak-*", "settings.json.bak-*"):
        for p in sorted(glob.glob(os.path.join(glob.escape(cdir), pattern))):
            _rm(p, removed, rel(p))
    if _counter_entry(project):
        removed.append("this project's entry in the counters")
    for p in _verified(project):
        _rm(p, removed, "last verified state: %s" % p)
    _rm(backup_dir(project), removed, "settings backups: %s" % backup_dir(project))
    _rm(record_path(project), removed, "install record: %s" % record_path(project))
    for d in (os.path.dirname(backup_dir(project)), os.path.dirname(record_path(project))):
        if os.path.isdir(d) and not os.listdir(d):
            os.rmdir(d)
    choice = choice_path()
    if os.path.exists(choice):
        if _other_installs(project):
            out("kept %s: other projects on this machine use it" % choice)
        else:
            _rm(choice, removed, "this machine's interpreter choice: %s" % choice)
    out("removed:")
    for r in removed or ["nothing"]:
        out("  " + r)
    kept = [r for r in COMMITTED if os.path.lexists(os.path.join(project, r))]
    if kept:
        out("kept (meant to be committed; the team's record, not one person's to delete):")
        for r in kept:
            out("  " + r)
        out("to remove them from the repository as well: git rm -r -- %s" % " ".join(kept))
    return 0
