"""Scenario 13: `$TMPDIR` under Claude Code's sandbox, through the real client.

Installed with the sandbox on and safemode on, a Bash write to "$TMPDIR"/x (the sandbox's own
temp dir, here /tmp/claude-<uid>: the harness's CLAUDE_CODE_TMPDIR is too long for Claude Code
to take; the hooks are never told) is a temp write and runs; a write into the project is still
stopped by safemode."""

from __future__ import annotations

import os
import sys

from .fakeapi import text, tool_use
from .harness import E2E, REPO, assert_allowed, assert_blocked, assert_hooks_healthy
from .test_sandbox import _install, _sandbox_ready

sys.path.insert(0, str(REPO / "scripts" / "hooks"))
from core import tempdir  # noqa: E402


def test_a_write_to_the_sandbox_tmpdir_runs_under_safemode(e2e: E2E) -> None:
    _sandbox_ready()
    _install(e2e)
    e2e.config("research:\n  required: []\n")
    e2e.commit()
    name = "sane-e2e-%s" % e2e.secret[:12]  # /tmp/claude-<uid> is shared: a name of our own
    on = e2e.run("s+", script=[text("the model must not see s+")])
    assert on.model_calls == 0 and e2e.status()["safemode"]["active"] is True, on.describe()
    run = e2e.run(
        "use the temp dir",
        script=[
            tool_use(
                "Bash",
                {
                    "command": 'echo hi > "$TMPDIR"/%s && cat ${TMPDIR}/%s && echo "$TMPDIR"'
                    % (name, name),
                    "description": "tmp",
                },
            ),
            tool_use("Bash", {"command": "echo hi > f", "description": "project"}),
            text("done"),
        ],
    )
    assert_hooks_healthy(run, e2e)
    tmp_res, project_res = run.results_for("Bash")
    out = assert_allowed(tmp_res, run)
    box = tempdir.sandbox_dir(e2e.claude_env())  # what the hooks expected
    assert box and "hi\n%s\n" % box in out, run.describe()
    with open(os.path.join(box, name)) as fh:
        assert fh.read() == "hi\n"
    os.remove(os.path.join(box, name))
    assert_blocked(project_res, "[safemode]", run)
    assert not (e2e.project / "f").exists()
