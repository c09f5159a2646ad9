"""What install leaves where: the project files the hooks write (purge removes them), the
files meant to be committed (never purged), and install's own records under the config dir.
Shared by install and purge, so neither imports the other."""

from __future__ import annotations

import hashlib
import os

# Written by the hooks or sane.py, never committed: purge removes them.
LOCAL_FILES = (
    ".claude/state.json",
    ".claude/state.json.lock",
    ".claude/audit.jsonl",
    ".claude/saneprompt.log",
    ".claude/sanetools.log",
    ".claude/sanetrack.log",
    ".claude/sanestop.log",
)
# Meant to be committed (the team's record): never deleted by one person's purge.
COMMITTED = (
    ".claude/agent_trace.jsonl",
    ".claude/learning-stats.jsonl",
    ".claude/learnings.md",
    ".claude/intent_map.md",
    ".claude/agents/reviewer.md",
    ".claude/sane-templates",
    ".claude/sane.yaml",
    ".claude/active_intents.yaml",
    ".claude/.intentignore",
)


def project_key(project: str) -> str:
    return hashlib.sha256(project.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def config_dir() -> str:
    from core import state

    return state.config_dir()


def record_path(project: str) -> str:
    return os.path.join(config_dir(), "installs", project_key(project) + ".json")


def backup_dir(project: str) -> str:
    return os.path.join(config_dir(), "backups", project_key(project))
