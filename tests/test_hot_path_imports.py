"""The hook plumbing never imports `typing` (2-4 ms on every hook call): annotations live under
`from __future__ import annotations`, and names only the type checker needs under
`if TYPE_CHECKING:`. core/contracts.py (the gate and tracker signatures) is for mypy only.
Each kind of call loads only the modules it needs (a file tool no shell analysis, a failure
no success tracking): module sets, never times."""

from __future__ import annotations

import json
import os
import subprocess
import sys

HOOKS = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts", "hooks"
)

HOT = (
    "core.engine",
    "core.hookio",
    "core.config",
    "core.state",
    "core.log",
    "core.paths",
    "core.policy",
    "core.gates_pre",
    "core.track",
    "core.prompt",
    "core.stop",
    "core.shell.analysis",
)


def test_the_hook_modules_do_not_load_typing():
    code = (
        "import sys; sys.path.insert(0, %r)\n"
        "import %s\n"
        "print(sorted(m for m in ('typing', 'core.contracts') if m in sys.modules))"
        % (HOOKS, ", ".join(HOT))
    )
    r = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]", "loaded on the hot path: " + r.stdout


# A hook's imports are most of its cost: a call loads the modules its kind of call needs.
# Each case runs the real entry in a fresh interpreter and lists the core modules it loaded.
REPORT = (
    "import json, sys\n"
    "sys.path.insert(0, %r)\n"
    "from core import engine\n"
    "engine.main(sys.argv[1])\n"
    "sys.stderr.write('\\nLOADED ' + json.dumps(sorted(m for m in sys.modules if m[:5] == 'core.')))\n"
)
SHELL_ONLY = ("core.protect_shell", "core.treewrites", "core.treecopies", "core.treesecrets")


def loaded(proj, script, payload):
    env = dict(proj.env, CLAUDE_PROJECT_DIR=proj.dir)
    r = subprocess.run(
        [sys.executable, "-c", REPORT % HOOKS, script],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env=env,
        cwd=proj.dir,
    )
    err = r.stderr.decode()
    assert r.returncode == 0 and "LOADED " in err, err
    return set(json.loads(err.rsplit("LOADED ", 1)[1]))


def test_a_file_tool_never_loads_the_shell_analysis(proj):
    f = proj.write("src/app.py", "x = 1\n")
    calls = [
        ("sanetools", "PreToolUse", "Edit", {"file_path": f, "old_string": "1", "new_string": "2"}),
        ("sanetools", "PreToolUse", "Write", {"file_path": f, "content": "x = 2\n"}),
        ("sanetools", "PreToolUse", "Read", {"file_path": f}),
        ("sanetrack", "PostToolUse", "Read", {"file_path": f}),
        (
            "sanetrack",
            "PostToolUse",
            "Edit",
            {"file_path": f, "old_string": "1", "new_string": "2"},
        ),
    ]
    for script, event, tool, ti in calls:
        mods = loaded(proj, script, proj.payload(event, tool_name=tool, tool_input=ti))
        assert not [m for m in mods if m.startswith("core.shell") or m in SHELL_ONLY], (tool, mods)


def test_a_plain_bash_read_loads_no_rare_analysis_and_no_feature_gates(proj):
    proj.write("README.md", "hello\n")
    payload = proj.payload("PreToolUse", tool_name="Bash", tool_input={"command": "cat README.md"})
    mods = loaded(proj, "sanetools", payload)
    assert "core.shell.analysis" in mods
    rare = (
        "core.shell.arith",  # arithmetic, loops, assignments
        "core.shell.verbs",  # unknown and remote commands
        "core.treecopies",  # copiers, unpackers, patchers
        "core.review.hooks",  # subagents, our CLI, gated commands
        "core.intents.hooks",  # calls that may change something
        "core.wording",  # the breaker's words
    )
    assert not mods.intersection(rare), mods.intersection(rare)


def test_a_failed_call_loads_no_success_tracking(proj):
    payload = proj.payload(
        "PostToolUseFailure",
        tool_name="Bash",
        tool_input={"command": "false"},
        error="Exit code 1\n",
        is_interrupt=False,
    )
    mods = loaded(proj, "sanetrack", payload)
    success_only = (
        "core.handoff",
        "core.review.hooks",
        "core.intents.hooks",
        "core.learning.hooks",
    )
    assert not mods.intersection(success_only), mods.intersection(success_only)


def test_the_trackers_first_tests_name_what_their_modules_act_on():
    from core import track
    from core.learning import hooks as learning

    assert track.TASK_TOOLS == learning.TASK_TOOLS
