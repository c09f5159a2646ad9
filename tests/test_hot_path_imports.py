"""The hook plumbing never imports `typing` (2-4 ms on every hook call): annotations live under
`from __future__ import annotations`, and names only the type checker needs under
`if TYPE_CHECKING:`. core/contracts.py (the gate and tracker signatures) is for mypy only."""

from __future__ import annotations

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
