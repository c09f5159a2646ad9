"""Bash corner cases (red team D): bracket expressions as bash reads them (`[^...]` negates
as `[!...]` does, `[[:alpha:]]`-style classes), pushd's `~N`/`~+N`/`~-N`, env's `-a ARGV0`
and options it does not know, and a NUL in the command (bash -c stops there, a script read
by bash drops it). Each row goes through sanetools.py in a project with the hooks installed
(mode, [code], a piece of the reason); the ordinary forms must pass."""

import pytest

from shell.labs import denied, not_denied, two_mode_labs

SP, SM, BP = "[self-protection]", "[safemode]", "[blocked-path]"

FILES = {
    "README.md": "readme\n",
    "src/app.py": "x = 1\n",
    "src/Util.py": "y = 2\n",
    ".env": "TOKEN=x\n",
}


@pytest.fixture(scope="module")
def labs(tmp_path_factory):
    return two_mode_labs(tmp_path_factory, "rtdcorners", FILES)


# bracket expressions that match the protected directories and files
GLOB_WRITES = [
    ("rm -rf .[^.]*", ""),  # .claude, .env, .git
    ("rm .claude/s[[:alpha:]]ttings.json", "settings.json"),
    ("rm -rf [[:lower:]]cripts", "scripts"),
    ("rm -rf [^x]cripts", "scripts"),
    ("rm -rf .[[:alpha:]]laude", ".claude"),
    ("rm .claude/settings.[[:alnum:][:punct:]]son", "settings.json"),
    ("rm scripts/hooks/sane.[[=p=]]y", "sane.py"),
]


@pytest.mark.parametrize("cmd,why", GLOB_WRITES)
def test_bracket_classes_reach_protected_files(labs, cmd, why):
    denied(labs["normal"], cmd, (SP, BP), why)
    denied(labs["safe"], cmd, (SP, SM, BP))


GLOB_READS = ["cat .[[:alpha:]]nv", "grep . .[^.]*", "head .[[:lower:]][^x]v"]


@pytest.mark.parametrize("cmd", GLOB_READS)
def test_bracket_classes_reach_blocked_files(labs, cmd):
    for mode in ("normal", "safe"):
        denied(labs[mode], cmd, BP, ".env")


def test_dirstack_tilde_is_not_a_user(labs):
    """~1 is the second pushd entry (here the project), never a user named 1."""
    for cmd in (
        "pushd src; rm ~1/scripts/hooks/sane.py",
        "pushd src; rm ~+1/.claude/settings.json",
        "pushd src >/dev/null; echo x > ~-0/scripts/hooks/sane.py",
    ):
        denied(labs["normal"], cmd, SP)
        denied(labs["safe"], cmd, (SP, SM))


def test_env_argv0_takes_a_value(labs):
    denied(labs["normal"], "env -a ls rm scripts/hooks/sane.py", SP, "sane.py")
    denied(labs["normal"], "env --argv0=ls rm .claude/settings.json", SP)
    denied(labs["safe"], "env -a ls rm README.md", SM)


def test_env_unknown_option_is_unknown(labs):
    denied(labs["safe"], "env -x ls README.md", SM, "env option -x")


def test_nul_read_both_ways(labs):
    for mode in ("normal", "safe"):
        denied(labs[mode], "cat .env\0x", BP, ".env")  # bash -c: `cat .env`
        denied(labs[mode], "cat .e\0nv", BP, ".env")  # bash reading a script: `cat .env`
    denied(labs["normal"], "rm scripts/hooks/sane.py\0junk", SP)


ORDINARY = [
    "ls src/[^x]*.py",
    "ls src/[[:upper:]]*.py",
    "ls [[:alpha:]]*",
    "env -i PATH=/usr/bin ls",
    "env -u FOO ls src",
    "pushd src >/dev/null && ls && popd >/dev/null",
    "rm -f src/[[:lower:]]pp.pyc",
]


@pytest.mark.parametrize("cmd", ORDINARY)
def test_ordinary_forms_pass(labs, cmd):
    not_denied(labs["normal"], cmd)
    if not cmd.startswith("rm"):
        not_denied(labs["safe"], cmd)
