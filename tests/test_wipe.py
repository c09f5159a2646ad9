"""Self-protection against commands that would wipe the tree holding the hooks."""

import pytest


@pytest.mark.parametrize(
    "cmd",
    [
        "rm -rf .",
        "rm -rf ./",
        "rm -rf ..",
        "rm -rf *",
        "rm -rf .c*",
        "chmod -R 000 .",
        "git clean -fdx",
        "git clean -dfX",
        "find . -delete",
        "rm -rf $PWD",
        "cd src && rm -rf ..",
        "sudo rm -rf /",
        "mv . ../elsewhere",
        'rm -rf "$CLAUDE_PROJECT_DIR"',
    ],
)
def test_wiping_the_project_is_self_protection(proj, cmd):
    proj.research()
    r = proj.pre("Bash", {"command": cmd})
    assert (r.denied or "").startswith(("[self-protection]", "[blocked-path]")), (cmd, r.stdout)


@pytest.mark.parametrize(
    "cmd",
    [
        "rm -rf build dist",
        "rm -rf src/*.pyc",
        "git clean -fd",
        "find build -delete",
        "chmod -R u+w src",
        "rm -rf node_modules",
        "git checkout -- .",
        "git stash",
    ],
)
def test_narrow_deletes_are_not(proj, cmd):
    proj.research()
    r = proj.pre("Bash", {"command": cmd})
    assert not (r.denied or "").startswith("[self-protection]"), (cmd, r.denied)
