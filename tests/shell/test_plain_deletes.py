"""Deleting named paths inside the project that hold no protected file is ordinary work in
normal mode: no [destructive] ask. Outside the project, or with a pattern a protected file
matches, the ask or the self-protection block stands."""

import pytest


@pytest.fixture
def lab(proj):
    proj.install()
    proj.research()
    proj.write("src/m.py", "x = 1\n")
    return proj


def answer(r):
    spec = r.spec
    return spec.get("permissionDecision"), spec.get("permissionDecisionReason") or r.stderr


@pytest.mark.parametrize(
    "cmd",
    [
        "find . -name '*.pyc' -delete",
        "find src -name '__pycache__' -delete",
        "find . -iname '*.PYC' -delete",
        "rm -rf build dist",
        "mv src/m.py .",
        "find . -name __pycache__ -type d -exec rm -rf {} +",
        "find src -name '*.pyc' -exec rm -f {} \\;",
        "cd src && mv m.py ..",
    ],
)
def test_clean_up_inside_the_project_is_ordinary(lab, cmd):
    assert answer(lab.pre("Bash", {"command": cmd})) == (None, ""), cmd


@pytest.mark.parametrize(
    "cmd,code",
    [
        ("find / -name '*.pyc' -delete", "[destructive]"),
        ("find /var/log -name '*.log' -delete", "[destructive]"),
        ("find . -name '*.pyc' -o -name '*.py' -delete", "[self-protection]"),
        ("find . -name '*.py' -delete", "[self-protection]"),
        ("mv . /tmp/elsewhere", "[self-protection]"),
        # -exec rm -r takes a matched directory whole: a name on the way to a hook file counts
        ("find . -name scripts -exec rm -rf {} +", "[self-protection]"),
        ("find . -name 'hoo*' -type d -exec rm -r {} +", "[self-protection]"),
        ("find / -name __pycache__ -exec rm -rf {} +", "[destructive]"),
        ("mv -t /tmp src .", "[self-protection]"),
        ("find . -delete", "[self-protection]"),
    ],
)
def test_other_deletes_keep_their_answer(lab, cmd, code):
    decision, reason = answer(lab.pre("Bash", {"command": cmd}))
    assert decision in ("ask", "deny") and reason.startswith(code), (cmd, decision, reason)
