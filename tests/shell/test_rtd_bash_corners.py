"""Bash corner cases (red team D): bracket expressions as bash reads them (`[^...]` negates
as `[!...]` does, `[[:alpha:]]`-style classes), pushd's `~N`/`~+N`/`~-N`, env's `-a ARGV0`
and options it does not know, and a NUL in the command (bash -c stops there, a script read
by bash drops it). Each row goes through sanetools.py in a project with the hooks installed
(mode, [code], a piece of the reason); the ordinary forms must pass."""

import os

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


# bash's command hash and alias table as arrays, and functions imported from the environment
TABLES = [
    ("BASH_ALIASES[ls]='rm -rf'\nls scripts", "scripts"),
    ("BASH_ALIASES[ls]='rm -rf'; ls scripts", "scripts"),
    ("BASH_CMDS[ls]=/bin/rm; ls scripts/hooks/sane.py", "code we cannot see"),
    ("declare -A BASH_CMDS=([ls]=/bin/rm); ls scripts/hooks/sane.py", "code we cannot see"),
    ("printf -v 'BASH_CMDS[ls]' /bin/rm; ls .claude/settings.json", "code we cannot see"),
    ("env 'BASH_FUNC_ls%%=() { rm -rf scripts; }' bash -c ls", "scripts"),
    ("sudo 'BASH_FUNC_ls()=() { rm scripts/hooks/sane.py; }' bash -c ls", "sane.py"),
]


@pytest.mark.parametrize("cmd,why", TABLES)
def test_lookup_tables_and_imported_functions(labs, cmd, why):
    denied(labs["normal"], cmd, SP, why)
    denied(labs["safe"], cmd, (SP, SM))


def test_table_changes_are_unknown_in_safemode(labs):
    denied(labs["safe"], "declare -A BASH_CMDS=([ls]=/bin/rm); ls README.md", SM)
    denied(labs["safe"], "env 'BASH_FUNC_x%%=() { rm README.md; }' bash -c x", SM)
    for mode in ("normal", "safe"):
        denied(labs[mode], "env 'BASH_FUNC_x%%=() { cat .env; }' bash -c x", BP, ".env")


# /dev/fd/N is a descriptor; a path that walks on from /dev/fd (a link to /proc/self/fd) is a
# file, and the kernel follows that link before the `..` after it
FD_WALKS = [
    "echo x > /dev/fd/../../self/cwd/scripts/hooks/sane.py",
    "echo x > /proc/self/fd/../cwd/scripts/hooks/sane.py",
    "rm /dev/fd/../cwd/.claude/settings.json",
]


@pytest.mark.parametrize("cmd", FD_WALKS)
def test_fd_dir_walks_are_paths(labs, cmd):
    denied(labs["normal"], cmd, SP)
    denied(labs["safe"], cmd, (SP, SM))


def test_fd_dir_walk_reads(labs):
    for mode in ("normal", "safe"):
        denied(labs[mode], "cat /dev/fd/../cwd/.env", BP, ".env")


FD_ORDINARY = [
    "echo x > /dev/fd/2",
    "cat /dev/fd/0 < README.md",
    "diff <(ls) <(ls src)",
    "env LC_ALL=C ls",
    'echo "${BASH_ALIASES[@]}"',
]


@pytest.mark.parametrize("cmd", FD_ORDINARY)
def test_fd_and_env_ordinary(labs, cmd):
    for mode in ("normal", "safe"):
        not_denied(labs[mode], cmd)


# `exec` with only redirections changes the shell's stdin for every later command
EXEC_STDIN = [
    "exec 0<<EOF\nrm scripts/hooks/sane.py\nEOF\nbash",
    "exec <<<'rm .claude/settings.json'; sh",
]


@pytest.mark.parametrize("cmd", EXEC_STDIN)
def test_exec_stdin_feeds_a_later_shell(labs, cmd):
    denied(labs["normal"], cmd, SP)
    denied(labs["safe"], cmd, (SP, SM))


def test_exec_stdin_from_a_file_is_unknown(labs):
    for cmd in ("exec < README.md; bash", "exec 3<README.md; exec <&3; sh"):
        denied(labs["safe"], cmd, SM, "script piped into")


def test_exec_stdin_ordinary(labs):
    for mode in ("normal", "safe"):
        not_denied(labs[mode], "exec </dev/null; ls")
        not_denied(labs[mode], "exec 2>&1; ls src")


# a glob word of code the hooks cannot see stands for the files it matches
UNSEEN_GLOBS = [
    "xyz scripts/hook?",
    "xyz scripts/hook[s]",
    "xyz .claude/setting?.json",
    "xyz --out=scripts/hoo[k]s/sane.py",
]


@pytest.mark.parametrize("cmd", UNSEEN_GLOBS)
def test_unseen_code_glob_words(labs, cmd):
    denied(labs["normal"], cmd, SP, "sane-hooks file")


def test_unseen_code_glob_words_ordinary(labs):
    for cmd in ("xyz src/*.py", "xyz README.*", "xyz 'scripts/*'"):
        not_denied(labs["normal"], cmd)


def test_dereferencing_tree_copies_read_what_links_lead_to(labs, tmp_path):
    """cp -rL / rsync -L turn each link under the tree into a copy of its target: a link to
    .env becomes a plain file under a harmless name in the copy."""
    proj = labs["normal"]
    os.makedirs(os.path.join(proj.dir, "lk"), exist_ok=True)
    link = os.path.join(proj.dir, "lk", "e")
    if not os.path.lexists(link):
        os.symlink("../.env", link)
    for cmd in ("cp -rL lk %s/y" % tmp_path, "rsync -aL lk/ %s/y/" % tmp_path):
        denied(proj, cmd, BP, ".env")
    not_denied(proj, "cp -r src %s/z" % tmp_path)


def test_jobs_x_runs_its_command(labs):
    denied(labs["normal"], "jobs -x rm scripts/hooks/sane.py", SP, "sane.py")
    denied(labs["normal"], "jobs -lx sh -c 'rm .claude/settings.json'", SP)
    denied(labs["safe"], "jobs -x rm README.md", SM)
    for mode in ("normal", "safe"):
        denied(labs[mode], "jobs -x cat .env", BP, ".env")
        not_denied(labs[mode], "jobs -l")


def test_positionals_set_on_a_heredoc_line(labs):
    """The commands on a heredoc's line are judged once its body is read, but their words
    are expanded as they are parsed: a `set --` there leaves "$@" after it unknown."""
    for cmd in (
        'echo <<E; set -- scripts/hooks/sane.py; rm "$@"\nE',
        "cat <<E; set -- a .claude/settings.json; shift; rm $1\nE",
    ):
        denied(labs["normal"], cmd, SP)
        denied(labs["safe"], cmd, (SP, SM))
    not_denied(labs["normal"], 'cat <<E\nx\nE\nset -- src/app.py; wc -l "$@"')


def test_su_shell_option_names_the_program_that_runs(labs):
    """`su -s PROGRAM user ARGS` runs PROGRAM with ARGS; `su user x.sh` runs x.sh."""
    for cmd in (
        "su -s /bin/rm root -- scripts/hooks/sane.py",
        "su --shell=/usr/bin/rm - root .claude/settings.json",
        "su root -- scripts/hooks/sane.py",
    ):
        denied(labs["normal"], cmd, SP)
        denied(labs["safe"], cmd, (SP, SM))
    for mode in ("normal", "safe"):
        denied(labs[mode], "su -s /bin/cat root .env", BP, ".env")
        not_denied(labs[mode], "su -c 'ls' root")


def test_positionals_set_in_a_loop_reach_its_later_turns(labs):
    """A `set --` or `shift` in a loop body changes "$@" and $1 for the loop's next turn."""
    for cmd in (
        'for i in 1 2; do rm "$@"; set -- scripts/hooks/sane.py; done',
        'while :; do rm "$1"; set -- .claude/settings.json; done',
    ):
        denied(labs["normal"], cmd, SP)
        denied(labs["safe"], cmd, (SP, SM))
    for mode in ("normal", "safe"):
        not_denied(labs[mode], 'set -- src/app.py; for i in 1; do wc -l "$@"; done')


LOOP_CARRIED = [
    "for i in 1 2; do rm hooks/sane.py; cd scripts; done",
    "while :; do rm settings.json; cd .claude; done",
    "for i in 1 2; do bash; exec <<< 'rm scripts/hooks/sane.py'; done",
]


@pytest.mark.parametrize("cmd", LOOP_CARRIED)
def test_a_later_turn_of_a_loop_sees_what_an_earlier_one_changed(labs, cmd):
    """cd, exec and PATH in a loop body act on the commands before them on the next turn."""
    denied(labs["normal"], cmd, SP)
    denied(labs["safe"], cmd, (SP, SM))


def test_path_set_later_in_a_loop(labs):
    denied(labs["safe"], "for i in 1 2; do ls src; PATH=/tmp/x:$PATH; done", SM)
    for mode in ("normal", "safe"):
        not_denied(labs[mode], 'for f in src/*.py; do wc -l "$f"; done')
