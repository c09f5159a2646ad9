"""Scenario 9: install hygiene.

`sane.py install` into a project whose settings already have the person's own hooks and
settings keeps them all, backs the old file up, is idempotent, and Claude Code accepts the
result: in a real run both the person's hooks and ours fire, and ours still block.
"""

from __future__ import annotations

import copy
import json

from .fakeapi import text, tool_use
from .harness import E2E, assert_allowed, assert_blocked, assert_hooks_healthy, probe, probe_log

# our entries run the launcher: `sh "$CLAUDE_PROJECT_DIR/scripts/hooks/run" <hook>`
OUR_EVENTS = {
    "UserPromptSubmit": "saneprompt",
    "SessionStart": "saneprompt",
    "SubagentStart": "saneprompt",
    "PreToolUse": "sanetools",
    "PostToolUse": "sanetrack",
    "PostToolUseFailure": "sanetrack",
    "Stop": "sanestop",
    "SubagentStop": "sanestop",
    "SessionEnd": "sanestop",
    "TaskCompleted": "sanestop",
}


def commands(settings: dict, event: str) -> list[str]:
    return [
        h.get("command", "") + " " + " ".join(h.get("args", []))
        for group in settings.get("hooks", {}).get(event, [])
        for h in group.get("hooks", [])
    ]


def test_install_keeps_existing_hooks_and_both_fire(e2e: E2E) -> None:
    e2e.config("research: {required: [local]}\n")
    theirs = {
        "permissions": {"allow": ["Bash(ls:*)"]},
        "env": {"E2E_THEIR_SETTING": "kept"},
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Bash|Write",
                    "hooks": [
                        {"type": "command", "command": probe(e2e, "their-pre"), "timeout": 30}
                    ],
                }
            ],
            "UserPromptSubmit": [
                {"hooks": [{"type": "command", "command": probe(e2e, "their-prompt")}]}
            ],
        },
    }
    e2e.write_settings(theirs)
    original = e2e.settings_path.read_bytes()
    before = {p.name for p in (e2e.project / ".claude").iterdir()}

    e2e.install_sane()
    merged = e2e.settings()
    assert merged["permissions"]["allow"] == theirs["permissions"]["allow"]
    assert "Edit(./scripts/hooks/**)" in merged["permissions"]["deny"]  # install's floor
    assert merged["env"] == theirs["env"]
    for event, groups in theirs["hooks"].items():
        for group in groups:
            assert group in merged["hooks"][event], f"their {event} hook was lost: {merged}"
    for event, script in OUR_EVENTS.items():
        ours = [c for c in commands(merged, event) if script in c]
        assert len(ours) == 1, f"{event}: expected one {script} entry, got {ours}"
        assert "$CLAUDE_PROJECT_DIR" in ours[0], ours[0]
    for event in ("PreToolUse", "PostToolUse", "PostToolUseFailure"):
        ours = [
            g
            for g in merged["hooks"][event]
            if any(OUR_EVENTS[event] in json.dumps(h) for h in g["hooks"])
        ]
        assert ours[0].get("matcher") == "*", ours
    # backups live with the install record, out of the project's tracked tree
    assert not [
        p
        for p in (e2e.project / ".claude").iterdir()
        if p.name not in before and p.is_file() and p.read_bytes() == original
    ]
    backups = [
        p
        for p in (e2e.xdg / "sane-hooks" / "backups").rglob("*")
        if p.is_file() and p.read_bytes() == original
    ]
    assert backups, "no backup of the old settings.json"
    gitignore = (e2e.project / ".gitignore").read_text()
    assert "state.json" in gitignore and "audit.jsonl" in gitignore, gitignore

    installed = e2e.settings_path.read_bytes()
    snapshot = copy.deepcopy(merged)
    e2e.install_sane()
    assert e2e.settings_path.read_bytes() == installed, "a second install changed settings"
    assert e2e.settings() == snapshot
    e2e.commit()

    target = e2e.project / "out.txt"
    run = e2e.run(
        "write the output file",
        script=[
            tool_use("Write", {"file_path": str(target), "content": "1\n"}),
            tool_use("Read", {"file_path": str(e2e.settings_path)}),
            tool_use("Write", {"file_path": str(target), "content": "2\n"}),
            text("done"),
        ],
    )
    assert run.returncode == 0, run.describe()
    assert_hooks_healthy(run, e2e)
    first, second = run.results_for("Write")
    assert_blocked(first, "[research-gate]", run)  # ours block although theirs allow
    assert_allowed(second, run)
    assert target.read_text() == "2\n"

    assert len(probe_log(e2e, "their-prompt")) == 1, "their UserPromptSubmit hook did not fire"
    assert len(probe_log(e2e, "their-pre")) == 2, "their PreToolUse hook did not fire"
    assert len(run.hooks("UserPromptSubmit")) == 2, run.describe()
    logs = e2e.hook_logs()
    for hook in ("saneprompt", "sanetools", "sanetrack"):
        assert logs[hook], f"{hook}.py logged nothing: our hook did not fire"
