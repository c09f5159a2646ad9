"""Read-only commands (status, doctor) look at a project without creating anything in it."""

from __future__ import annotations

import os

from core.state import Store


class ReadOnlyStore(Store):
    """A Store that opens without making .claude/ or a lock file when there is no state file.

    A missing state file still goes through the normal load: fresh defaults on a true first
    run, a tamper finding when the counter remembers a state that is gone."""

    def open(self) -> ReadOnlyStore:
        if os.path.exists(self.path):
            super().open()
            return self
        from core.state import secret_key

        self.locked = False
        self.busy = False
        self._key = secret_key()  # the user's config dir, never the project
        self._load()
        return self

    def commit(self, force: bool = False) -> bool:
        raise RuntimeError("a read-only store is never committed")


def installed(project: str) -> bool:
    """sane-hooks is wired here: its hooks are copied in or named by the project settings."""
    if os.path.isfile(os.path.join(project, "scripts", "hooks", "sanetools.py")):
        return True
    try:
        with open(os.path.join(project, ".claude", "settings.json"), encoding="utf-8") as fh:
            return "sanetools.py" in fh.read(1_000_000)
    except OSError:
        return False


def not_installed(project: str, cli: str) -> str:
    return (
        "sane-hooks is not installed in %s (no hooks in .claude/settings.json); "
        "`%s install %s` installs it" % (project, cli, project)
    )
