"""Shell command analyser: the corpus in tests/shell/corpus.py, the API, bounds."""

import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "hooks"))
sys.path.insert(0, HERE)

import pytest  # noqa: E402

from core.shell.analysis import Analysis, Redirect, analyse, matches, sane_args  # noqa: E402
from shell.corpus import HOME, ROWS  # noqa: E402


def _id(row):
    text = row["cmd"].replace("\n", "\\n")
    return text[:60] if len(text) < 400 else "len-%d" % len(text)


@pytest.mark.parametrize("row", ROWS, ids=[_id(r) for r in ROWS])
def test_corpus(row):
    a = analyse(row["cmd"], home=HOME)
    assert a.writes == row["w"], a
    for path in row["r"]:
        assert path in a.reads, (path, a)
    for path in row["nr"]:
        assert path not in a.reads, (path, a)
    assert a.unknown is row["u"], a
    assert a.destructive is row["d"], a
    if row["p"] is not None:
        assert [c.program for c in a.commands] == row["p"], a
    for pat in row["m"]:
        assert matches(pat, a), pat
    for pat in row["nm"]:
        assert not matches(pat, a), pat


def test_corpus_size_and_hints():
    assert len(ROWS) >= 300
    hints = {r["decision_hint"] for r in ROWS}
    assert hints <= {
        "person-only",
        "write-protected",
        "read-blocked",
        "unknown",
        "destructive",
        "write",
        "allow",
    }
    assert len({r["cmd"] for r in ROWS}) == len(ROWS), "duplicate rows"


# --- API shape ---------------------------------------------------------------------------
def test_command_fields():
    a = analyse('FOO=1 /bin/rm -f "a b" 2>>err.log < in.txt', home=HOME)
    assert isinstance(a, Analysis)
    (c,) = a.commands
    assert c.argv == ["/bin/rm", "-f", "a b"]
    assert c.program == "rm"
    assert c.env == {"FOO": "1"}
    assert c.redirects == [Redirect(2, ">>", "err.log", True), Redirect(None, "<", "in.txt")]
    assert c.writes == ["a b", "err.log"]
    assert c.reads == ["in.txt"]
    assert c.text == "rm -f a b"
    assert c.stdin_is_data is True
    assert c.destructive is False and c.unknown is False and c.reasons == []


@pytest.mark.parametrize(
    "cmd,fd,op,target,append",
    [
        ("ls > f", None, ">", "f", False),
        ("ls >> f", None, ">>", "f", True),
        ("ls 2> f", 2, ">", "f", False),
        ("ls &> f", None, "&>", "f", False),
        ("ls &>> f", None, "&>>", "f", True),
        ("ls >| f", None, ">|", "f", False),
        ("ls 2>&1", 2, ">&", "1", False),
        ("ls < f", None, "<", "f", False),
        ("ls 3<> f", 3, "<>", "f", False),
        ("ls <<< word", None, "<<<", "word", False),
    ],
)
def test_redirect_parse(cmd, fd, op, target, append):
    (c,) = analyse(cmd).commands
    (r,) = c.redirects
    assert (r.fd, r.op, r.target, r.append) == (fd, op, target, append)


def test_heredoc_body_and_stdin_flag():
    (c,) = analyse("cat <<'EOF'\nline 1\nline 2\nEOF").commands
    assert c.redirects[0].op == "<<" and c.redirects[0].body == "line 1\nline 2\n"
    assert c.stdin_is_data
    cs = analyse("git log | head").commands
    assert [c.stdin_is_data for c in cs] == [False, True]


def test_env_args_and_wrappers():
    (c,) = analyse("sudo env A=1 B=2 nice -n 5 make -j4").commands
    assert c.env == {"A": "1", "B": "2"} and c.program == "make"
    assert c.argv == ["make", "-j4"] and c.text == "make -j4"
    assert c.wrappers[:1] == ["sudo"]


def test_default_home_is_expanduser():
    a = analyse("cat ~/x")
    assert a.reads == [os.path.expanduser("~") + "/x"]


def test_env_mapping_resolves_known_variables():
    a = analyse('echo hi > "$TMPDIR/out.txt"', home=HOME, env={"TMPDIR": "/var/tmp"})
    assert a.writes == ["/var/tmp/out.txt"] and not a.unknown


def test_reasons_are_short_and_named():
    assert "inline python code (python -c)" in analyse("python -c 'x'").reasons
    assert "recursive force delete" in analyse("rm -rf x").reasons
    assert "unbalanced quote" in analyse('echo "x').reasons
    assert "unterminated heredoc" in analyse("cat <<E\nx").reasons


def test_code_is_exposed_for_protected_name_checks():
    a = analyse("python3 -c \"open('.claude/state.json','w')\"")
    assert any(".claude/state.json" in code for code in a.code)
    a = analyse("python3 <<'EOF'\nimport shutil; shutil.rmtree('scripts/hooks')\nEOF")
    assert any("scripts/hooks" in code for code in a.code)


# --- matches ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "pattern,command,expected",
    [
        ("gh issue close*", "GH_TOKEN=x gh issue close 1 | cat", True),
        ("gh issue close*", "true || gh issue close 1", True),
        ("gh issue close*", 'bash -c "gh issue close 1"', True),
        ("gh issue close*", "sudo gh issue close 1", True),
        ("gh issue close*", "gh issue view 1", False),
        ("gh issue close", "gh issue close 1", False),
        ("git push*", "git push --force", True),
        ("git push*", "echo git push", False),
        ("rm -rf *", "/bin/rm -rf /", True),
        ("npm [tr]*", "npm test", True),
        ("npm [!tr]*", "npm test", False),
        ("tissue status * closed", "tissue status T-1 closed", True),
        ("*", "anything at all", True),
        ("a?c", "abc", True),
        ("x[", "x[", True),
    ],
)
def test_matches(pattern, command, expected):
    assert matches(pattern, command) is expected


# --- sane_args ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command,expected",
    [
        ("python3 scripts/hooks/sane.py status", ["scripts/hooks/sane.py", "status"]),
        ("python scripts/hooks/sane.py learn list", ["scripts/hooks/sane.py", "learn", "list"]),
        (
            '/usr/bin/python3 "$CLAUDE_PROJECT_DIR/scripts/hooks/sane.py" reset',
            ["$CLAUDE_PROJECT_DIR/scripts/hooks/sane.py", "reset"],
        ),
        (
            'python3 "${CLAUDE_PROJECT_DIR}/scripts/hooks/sane.py" reset',
            ["$CLAUDE_PROJECT_DIR/scripts/hooks/sane.py", "reset"],
        ),
        ("./scripts/hooks/sane.py doctor", ["./scripts/hooks/sane.py", "doctor"]),
        ("scripts/hooks/sane.py status --json", ["scripts/hooks/sane.py", "status", "--json"]),
        ("python3 -u scripts/hooks/sane.py status", ["scripts/hooks/sane.py", "status"]),
        (
            "env CLAUDECODE=1 python3 scripts/hooks/sane.py unlock",
            ["scripts/hooks/sane.py", "unlock"],
        ),
        ("sudo python3 scripts/hooks/sane.py reset", ["scripts/hooks/sane.py", "reset"]),
        (
            "bash -c 'python3 scripts/hooks/sane.py reset breaker'",
            ["scripts/hooks/sane.py", "reset", "breaker"],
        ),
        ('eval "python3 scripts/hooks/sane.py install"', ["scripts/hooks/sane.py", "install"]),
        (
            "python3 'scripts/hooks/sane.py' learn reflect S <<'EOF'\n{}\nEOF",
            ["scripts/hooks/sane.py", "learn", "reflect", "S"],
        ),
        (
            "cat r.json | python3 scripts/hooks/sane.py learn reflect S",
            ["scripts/hooks/sane.py", "learn", "reflect", "S"],
        ),
        ("uv run scripts/hooks/sane.py status", ["scripts/hooks/sane.py", "status"]),
        (
            "python3.12 /abs/proj/scripts/hooks/sane.py status",
            ["/abs/proj/scripts/hooks/sane.py", "status"],
        ),
    ],
)
def test_sane_args(command, expected):
    found = [sane_args(c) for c in analyse(command).commands]
    found = [f for f in found if f]
    assert found == [expected]


@pytest.mark.parametrize(
    "command",
    [
        'python3 -c "import sane"',
        "python3 -m sane",
        "cat scripts/hooks/sane.py",
        "python3 scripts/hooks/other.py",
        "echo python3 scripts/hooks/sane.py",
        "vim sane.py",
    ],
)
def test_sane_args_none(command):
    assert all(sane_args(c) is None for c in analyse(command).commands)


def test_sane_json_on_stdin_is_data_not_code():
    a = analyse(
        "python3 scripts/hooks/sane.py learn reflect S <<'EOF'\n"
        '{"learnings": [{"text": "rm -rf / is bad"}]}\nEOF'
    )
    assert not a.unknown and not a.destructive and a.writes == []
    (c,) = a.commands
    assert c.stdin_is_data


# --- bounds: never a crash, never a hang -------------------------------------------------
def _timed(cmd):
    t = time.perf_counter()
    a = analyse(cmd, home=HOME)
    return a, time.perf_counter() - t


HOSTILE = [
    "echo " + "a" * (1 << 20),
    "a " * (1 << 19),
    'echo "' + "x" * (1 << 20),
    "ls; " * (1 << 18),
    "$(" * 5000 + "ls" + ")" * 5000,
    "`" * 100000,
    "{" * 100000,
    "(" * 100000,
    "${" * 100000,
    "$((" * 50000,
    "cat <<EOF\n" + "line\n" * 200000,
    "cat <<'EOF' > big.txt\n" + ("x" * 79 + "\n") * 13000 + "EOF",
    "echo $x" * 150000,
    "\\\n" * 300000,
    "'" * 1000001,
    "a=b " * 200000,
    "echo {a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}{s,t}",
    "cat " + "<(" * 3000 + ")" * 3000,
]


@pytest.mark.parametrize("cmd", HOSTILE, ids=["hostile-%d" % i for i in range(len(HOSTILE))])
def test_hostile_input_is_bounded(cmd):
    a, dt = _timed(cmd)
    assert dt < 0.25, dt  # the bench reports the real figure; CI machines vary
    if len(cmd) > 256 * 1024:
        assert a.unknown


def test_one_megabyte_is_unknown_and_fast():
    cmd = "echo " + "a" * (1 << 20)
    best = min(_timed(cmd)[1] for _ in range(3))
    assert best < 0.05, best
    assert analyse(cmd).unknown


def test_nesting_bound():
    a = analyse("$(" * 40 + "ls" + ")" * 40)
    assert a.unknown and any("nesting" in r for r in a.reasons)
    a = analyse("echo $(" * 10 + "ls" + ")" * 10)
    assert not a.unknown, a


def test_fuzz_never_raises():
    rnd = random.Random(3)
    alphabet = list("ab $`'\"\\|&;<>(){}[]*?~=#!\n\t-01") + ["$(", "<<", "EOF", "${", "$(("]
    for _ in range(3000):
        cmd = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 40)))
        a = analyse(cmd, home=HOME)
        assert isinstance(a.unknown, bool)
        for c in a.commands:
            assert isinstance(c.argv, list) and isinstance(c.program, str)


def test_non_string_input():
    a = analyse(None)
    assert a.unknown and a.commands == []


def test_typical_command_well_under_a_millisecond():
    cmds = [r["cmd"] for r in ROWS if len(r["cmd"]) < 200]
    times = []
    for cmd in cmds:
        t = time.perf_counter()
        analyse(cmd, home=HOME)
        times.append(time.perf_counter() - t)
    times.sort()
    assert times[len(times) // 2] < 0.0005, times[len(times) // 2]


def test_import_is_cheap_and_stdlib_only():
    code = (
        "import os, sys, time; sys.path.insert(0, %r); t = time.perf_counter(); "
        "import core.shell.analysis; print(time.perf_counter() - t)"
        % os.path.join(HERE, "..", "..", "scripts", "hooks")
    )
    best = min(
        float(
            subprocess.run(
                [sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(3)
    )
    assert best < 0.1, best  # a sanity bound only (shared CI boxes); the bench reports the figure
    mods = subprocess.run(
        [
            sys.executable,
            "-S",
            "-c",
            "import sys; sys.path.insert(0, %r); import core.shell.analysis; "
            'print(" ".join(sorted(m for m in ("re", "dataclasses", "fnmatch", "shlex") '
            "if m in sys.modules)))" % os.path.join(HERE, "..", "..", "scripts", "hooks"),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert mods == ""


def test_program_table_resolves():
    """Every row of the one program table names a function its family module defines."""
    from core.shell import programs

    for name in list(programs.HANDLERS) + list(programs.WRAPPERS):
        assert programs.handler(name) or programs.wrapper(name), name


# --- the work budget: bounded time, never a late answer ----------------------------------
def _deep(levels):
    return "/".join(["a"] * levels)


def pathological():
    """The slow shapes, each pushed past the budget: expansion times path length, repeated
    cd, escapes, heredocs, nesting, pipelines, globs and paths by the thousand."""
    mb = 1 << 20
    return [
        ("braces x deep path", "rm {1..256}/%s README.md" % _deep(3000)),
        ("nested braces x path", "cat {a,b,c,d}{1..64}/%s x" % _deep(1500)),
        ("many cd", "cd a && " * 20000 + "rm x"),
        ("cd down and up", "cd a/b/c/../.. ; " * 20000 + "rm x"),
        ("ANSI-C escapes", "echo $'" + "\\x41" * (mb // 4) + "'"),
        ("unterminated ANSI-C", "echo $'" + "\\u263a" * (mb // 6)),
        ("backtick escapes", "echo `" + "\\$" * (mb // 2) + "`"),
        ("heredoc of substitutions", "cat <<EOF\n" + "$x $(ls) a\n" * (mb // 12) + "EOF"),
        ("heredoc to a shell", "bash <<EOF\n" + "rm x\n" * (mb // 5) + "EOF"),
        ("delimiter everywhere", "cat <<a\n" + "a" * mb),
        ("deep subshells", "(" * 20000 + "ls" + ")" * 20000),
        ("deep cmd substitution", "echo " + "$(" * 20000 + "ls" + ")" * 20000),
        ("long pipeline", "ls" + " | cat" * (mb // 6)),
        ("many globs", "cat " + "/*/* " * (mb // 6)),
        ("many paths", "cat " + " ".join("d%d/f" % i for i in range(100000))),
        ("deep path words", "cat " + " ".join(_deep(2000) + str(i) for i in range(50))),
        # each use of a variable copies its value: doubling it 40 times is 2^40 bytes
        ("variable doubling", "a=x; " + "a=$a$a; " * 40 + "rm $a"),
        ("variable doubling, braces", "a=x; " + 'a="${a}${a:-y}"; ' * 40 + "echo $a"),
        ("two variables doubling", "a=x; " + "b=$a$a; a=$b$b; " * 20 + "cat $a"),
        ("1 MB of SQL", "psql -c '" + "select 1; " * (mb // 10) + "'"),
        ("SQL nested comments", "mysql -e '" + "/*" * (mb // 8) + "*/" * (mb // 8) + "'"),
        ("SQL word of an unknown program", 'frob "delete ' + "x " * (mb // 2) + '"'),
        ("1 MB of Mongo code", "mongosh --eval '" + "db.c.find();" * (mb // 12) + "'"),
        # every value of every loop variable in a path: thousands of paths, each new one was
        # compared with every earlier one
        (
            "nested loops",
            "".join("for v%d in a b c d e f g h; do " % i for i in range(8))
            + "rm "
            + "".join("$v%d" % i for i in range(8))
            + "; done" * 8,
        ),
        (
            "two loops of 200",
            "for a in %s; do for b in %s; do rm $a/$b; done; done"
            % (" ".join("x%d" % i for i in range(200)), " ".join("y%d" % i for i in range(200))),
        ),
        ("600 KB ed script", "ed f <<'E'\n" + "1d\n" * (mb // 6) + "w\nE"),
    ]


@pytest.mark.parametrize("name,cmd", pathological(), ids=[n for n, _ in pathological()])
def test_pathological_commands_stop_at_the_budget(name, cmd):
    a, dt = _timed(cmd)
    assert a.too_complex.startswith("too complex to check"), (name, a.reasons[:3])
    assert a.unknown and a.too_complex in a.reasons
    assert dt < 1.0, (name, dt)  # the bench prints the real worst case
    again = analyse(cmd, home=HOME)  # counted steps, not a clock: the same answer each time
    assert again.too_complex == a.too_complex


@pytest.mark.parametrize(
    "cmd",
    [
        "git add " + " ".join("src/pkg/mod%d.py" % i for i in range(400)),
        "cat > big.py <<'EOF'\n" + "print('x')\n" * 5000 + "EOF",
        "cd a && ls && cd b && ls && cd ../c && make -j4 && cd - && ls",
        "rm -rf build/{a,b,c}/{1..20}",
        "echo $'" + "\\t" * 2000 + "'",
        "ls " + "| grep x " * 200,
    ],
    ids=["400 paths", "5000-line heredoc", "cds", "braces", "escapes", "pipeline"],
)
def test_ordinary_big_commands_fit_the_budget(cmd):
    assert analyse(cmd, home=HOME).too_complex == ""


def test_depth_bound_is_too_complex():
    a = analyse("$(" * 40 + "ls" + ")" * 40)
    assert "nesting deeper than 16 levels" in a.too_complex


# --- ((: arithmetic or subshells, as bash decides ----------------------------------------
@pytest.mark.parametrize(
    "cmd,programs,writes",
    [
        ("((rm x) && ls)", ["rm", "ls"], ["x"]),
        ("((rm x)|cat)", ["rm", "cat"], ["x"]),
        ("( (rm x) )", ["rm"], ["x"]),
        ("((rm x) ; (touch y))", ["rm", "touch"], ["x", "y"]),
        ("echo $((rm x) )", ["rm", "echo"], ["x"]),
        ('((echo "(" ; rm x) )', ["echo", "rm"], ["x"]),
        ('((echo ")"; rm x))', [], []),  # bash: the quoted ) is skipped, so arithmetic
        ("((1 + 2))", [], []),
        ("(( (a) * 2 ))", [], []),
        ("x=$((1+2)); echo $x", ["echo"], []),
        ("echo $(( $(rm x) + 1 ))", ["rm", "echo"], ["x"]),
    ],
)
def test_double_paren_is_arithmetic_only_when_it_closes_with_double_paren(cmd, programs, writes):
    a = analyse(cmd, home=HOME)
    assert [c.program for c in a.commands] == programs, a
    assert a.writes == writes, a


# --- heredocs fed to a shell are code ----------------------------------------------------
@pytest.mark.parametrize("shell", ["bash", "sh", "zsh", "dash", "/bin/bash", "bash -s"])
@pytest.mark.parametrize(
    "form",
    [
        "{sh} <<EOF\nrm -rf src\nEOF",
        "{sh} <<'EOF'\nrm -rf src\nEOF",
        "{sh} <<-EOF\n\trm -rf src\n\tEOF",
        '{sh} <<< "rm -rf src"',
        "cat <<EOF | {sh}\nrm -rf src\nEOF",
    ],
)
def test_heredoc_fed_to_a_shell_is_analysed(shell, form):
    a = analyse(form.format(sh=shell), home=HOME)
    assert "rm" in [c.program for c in a.commands], a
    assert "src" in a.writes and a.destructive, a


# --- parameter forms are the paths they can produce --------------------------------------
@pytest.mark.parametrize("op", [":-", "-", ":=", "=", ":+", "+"])
@pytest.mark.parametrize("shape", ['"${X%s.env}"', "${X%s.env}", '"${X%s./.env}"', "${X%s.env}x"])
def test_unknown_variable_default_forms_read_their_default(op, shape):
    word = shape % op
    default = word.replace('"', "").replace("${X%s" % op, "").replace("}", "")
    a = analyse("cat " + word, home=HOME)
    assert default in a.reads, (word, a)
    a = analyse("cat " + word.replace("X", "UNSET_IN_TESTS"), home=HOME, env={})
    assert default in a.reads, (word, a)


@pytest.mark.parametrize(
    "word,read",
    [
        ('"${X:-".env"}"', ".env"),
        ("${X:-'.env'}", ".env"),
        ("${X:-\\.env}", ".env"),
        ('"${X:-$HOME/.ssh/id_rsa}"', HOME + "/.ssh/id_rsa"),
        ("${X:-~/.ssh/id_rsa}", HOME + "/.ssh/id_rsa"),
        ("${X:=${HOME}/.netrc}", HOME + "/.netrc"),
        ('${X-"$HOME"/.pgpass}', HOME + "/.pgpass"),
    ],
)
def test_default_words_are_expanded_like_bash(word, read):
    a = analyse("cat " + word, home=HOME)
    assert read in a.reads, (word, a)


@pytest.mark.parametrize(
    "cmd",
    [
        ': "${X:=.env}"; cat "$X"',
        "Y=${Z:-.env}; cat $Y",
        'Y="${Z:-.env}"; cat "${Y}"',
        "export Y=${Z:-.env}; cat $Y",
        "Y=${Z:-.env} && cd . && cat $Y",
    ],
)
def test_a_variable_set_from_a_default_may_be_that_default(cmd):
    assert ".env" in analyse(cmd, home=HOME).reads


def test_commands_in_a_default_are_judged_once():
    a = analyse("cat ${X:-$(rm q)}", home=HOME)
    assert [c.program for c in a.commands] == ["rm", "cat"] and a.writes == ["q"], a


def test_default_forms_of_a_known_variable_take_its_value():
    a = analyse('X=notes.txt; cat "${X:-.env}" "${X:+b.txt}" "${X:?}"', home=HOME)
    assert a.reads == ["notes.txt", "b.txt"], a
    a = analyse('X=; cat "${X:-.env}" "${X:+b.txt}"; cat "${Y:=c.txt}"; cat "$Y"', home=HOME)
    assert ".env" in a.reads and "b.txt" not in a.reads and a.reads.count("c.txt") == 1, a


@pytest.mark.parametrize(
    "cmd,read",
    [
        ("cat ${HOME:?x}/.docker/config.json", HOME + "/.docker/config.json"),
        ('cat "${HOME:?}/.ssh/id_rsa"', HOME + "/.ssh/id_rsa"),
        ("cat ${HOME?}/.netrc", HOME + "/.netrc"),
        ("cat /${HOME#/}/.pgpass", HOME + "/.pgpass"),
        ("cat ${HOME%/}/.env", HOME + "/.env"),
        ("F=/a/b/.env.bak; cat ${F%.bak}", "/a/b/.env"),
        ("F=/a/b/.env; cat ${F##*/}", ".env"),
        ("F=x/y/z; cat ${F%%/*}/.env", "x/.env"),
    ],
)
def test_known_variable_operator_forms_resolve(cmd, read):
    a = analyse(cmd, home=HOME)
    assert read in a.reads, a


def test_unknown_variable_strip_forms_stay_dynamic():
    a = analyse("rm ${X#a}", home=HOME)
    assert a.unknown and a.writes[0].startswith("$X"), a


def test_default_form_write_target_stays_unknown():
    """The target as written stays (unknown), and its default is written too."""
    a = analyse('cp x "${DEST:-scripts/hooks/core/x.py}"', home=HOME)
    assert a.unknown and a.writes == [
        "${DEST:-scripts/hooks/core/x.py}",
        "scripts/hooks/core/x.py",
    ], a


# --- quoted glob characters are names, not globs ------------------------------------------
@pytest.mark.parametrize(
    "cmd,literal",
    [
        ("echo '/*'", True),
        ('echo "/*"', True),
        ("echo \\/\\*", True),
        ("ls '/e'*", False),
        ("echo '/*' /*", False),
        ("echo /*", False),
        ("cat 'a[1].txt'", True),
    ],
)
def test_quoted_glob_characters_are_literal(cmd, literal):
    a = analyse(cmd, home=HOME)
    word = a.commands[0].argv[1]
    assert (word in a.literal) is literal, (word, a.literal)


# --- $TMPDIR is the temp dir the hooks and the Bash tool share --------------------------
@pytest.mark.parametrize(
    "word", ['"$TMPDIR"/x', "$TMPDIR/x", "${TMPDIR}/x", '"${TMPDIR}/x"', '"${TMPDIR:-/tmp}/x"']
)
def test_tmpdir_expands_to_the_shared_temp_dir(monkeypatch, word):
    monkeypatch.setenv("TMPDIR", "/var/tmp/claude-1/")
    a = analyse("echo hi > " + word, home=HOME)
    assert a.writes == ["/var/tmp/claude-1/x"] and not a.unknown, a
    monkeypatch.delenv("TMPDIR")
    a = analyse("echo hi > " + word.replace(":-/tmp", ""), home=HOME)
    assert a.unknown, a  # unset here: bash and a sandbox disagree, so it stays dynamic


# --- through the real hook ----------------------------------------------------------------
def _deny(proj, cmd, env=None):
    t = time.perf_counter()
    r = proj.hook(
        "sanetools",
        proj.payload("PreToolUse", tool_name="Bash", tool_input={"command": cmd}),
        env=env,
    )
    return (r.denied or ""), time.perf_counter() - t


def test_hook_denies_a_too_complex_command_in_time(proj):
    proj.research()
    for cmd in (
        "rm {1..256}/%s README.md" % _deep(3000),
        "cat " + " ".join("d%d/f" % i for i in range(150000)),  # about 1 MB
    ):
        reason, dt = _deny(proj, cmd)
        assert reason.startswith("[blocked-path]") and "too complex to check" in reason, reason
        assert "Split it" in reason
        assert dt < 5, dt  # the installed timeout is 10 s; a late answer is no answer


def test_hook_decides_parameter_forms_globs_and_tmpdir(proj):
    proj.research()
    proj.write(".env", "TOKEN=x\n")
    for cmd in ('cat "${X:=.env}"', "cat ${X:-.env}", "cat ${HOME:?x}/.docker/config.json"):
        reason, _ = _deny(proj, cmd)
        assert reason.startswith("[blocked-path]"), (cmd, reason)
    proj.prompt("s+")
    tmp = os.path.join(proj.root, "tmp")
    os.makedirs(tmp)
    assert _deny(proj, "echo '/*'")[0] == ""
    assert _deny(proj, 'echo hi > "$TMPDIR"/x', env={"TMPDIR": tmp})[0] == ""
    assert _deny(proj, "echo hi > ${TMPDIR}/x", env={"TMPDIR": tmp})[0] == ""
    assert _deny(proj, "echo hi > x", env={"TMPDIR": tmp})[0].startswith("[safemode]")
    assert _deny(proj, "((rm x) && ls)")[0].startswith("[safemode]")
    assert _deny(proj, "bash <<EOF\nrm -rf src\nEOF")[0].startswith("[safemode]")
