"""Scenario 5: a blocked path through Bash.

`cat ~/.ssh/id_rsa` (the scratch HOME's, holding a fake key) is blocked naming
`[blocked-path]`, and the key never reaches the model; so are two other spellings of the same
path and a Read of it.
"""

from __future__ import annotations

import json

from .fakeapi import text, tool_use
from .harness import E2E, assert_blocked, assert_hooks_healthy

KEY = "E2E-FAKE-PRIVATE-KEY-MATERIAL"


def test_cat_ssh_key_is_blocked(sane_e2e: E2E) -> None:
    e2e = sane_e2e
    ssh = e2e.home / ".ssh"
    ssh.mkdir(mode=0o700)
    key = ssh / "id_rsa"
    key.write_text(
        f"-----BEGIN OPENSSH PRIVATE KEY-----\n{KEY}\n-----END OPENSSH PRIVATE KEY-----\n"
    )
    key.chmod(0o600)
    e2e.commit()
    commands = ["cat ~/.ssh/id_rsa", 'cat "$HOME/.ssh/id_rsa"', "cd ~/.ssh && cat id_rsa"]
    run = e2e.run(
        "show me my ssh key",
        script=[
            *[tool_use("Bash", {"command": c, "description": "show key"}) for c in commands],
            tool_use("Read", {"file_path": str(key)}),
            text("done"),
        ],
    )
    assert run.returncode == 0, run.describe()
    assert_hooks_healthy(run, e2e)
    for res in run.results_for("Bash"):
        assert_blocked(res, "[blocked-path]", run)
    # the Read meets install's permissions.deny rule first (Claude Code checks its deny rules
    # before the hooks run): refused either way, and the key never reaches the model
    read = run.results_for("Read")[0]
    assert read is not None and read["is_error"], run.describe()
    assert (
        "[blocked-path]" in read["content"]
        or "denied by your permission settings" in (read["content"])
    ), run.describe()
    sent = json.dumps([r.body for r in run.requests])
    assert KEY not in sent, "the key reached the model"
    assert any("blocked-path" in str(a) for a in e2e.audit()), "the block is not audited"
