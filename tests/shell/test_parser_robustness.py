"""The analyser on other projects' shell: every Bash command gets an answer, in time, and an
honest one. Inputs here are our own small reductions of what failed when public shell test
corpora and mutations of them ran through the hooks:

- a crash inside the analysis lost the rest of the command (its later commands unseen);
- a list inside `[[ ]]` ($(..)) was read as test words and swallowed what followed;
- nested `xargs -I{}` copies grew without bound (memory and time);
- words bash refuses (a stray fi, done, }, esac, ;;) were read as if nothing were wrong.

The rules: an analyser or facts bug holds the command like a bound (never lets it through
unchecked); a bug in a gate that guards secrets, the hooks' files or person-only commands
holds a shell command under that gate's code; a syntax error is unknown (safemode holds it);
valid compound commands still pass. Every call goes through sanetools.py in-process."""

import os
import random
import time

import pytest

from shell.labs import pre, two_mode_labs

SP, SM, BP = "[self-protection]", "[safemode]", "[blocked-path]"


@pytest.fixture(scope="module")
def labs(tmp_path_factory):
    return two_mode_labs(tmp_path_factory, "robust", {"README.md": "readme\n", ".env": "TOKEN=x\n"})


def _pre(proj, cmd):
    proj.prompt("rb-")
    t = time.perf_counter()
    r = pre(proj, cmd, reset=False)
    took = time.perf_counter() - t
    assert took < 1.5, "answered after %.2f s: %r" % (took, cmd[:80])
    assert "failed open" not in r.stdout, (cmd, r.stdout)
    return r


# (command, mode, code of the denial or None for allowed, a piece of the reason)
ROWS = [
    # a whitespace-only argument to code the hooks cannot see crashed the analysis, and
    # the commands after it went unseen
    ('make " "; cat .env', "normal", BP, ".env"),
    ('./run.sh "  " && rm .claude/settings.json', "normal", SP, "settings.json"),
    ('make " "', "normal", None, ""),
    ('make "\t"', "safe", SM, "make"),
    # $( ) inside [[ ]] is a command list, not test words
    ('[[ -n "$(date +%s)" ]] && rm .claude/settings.json', "normal", SP, "settings.json"),
    ("[[ $(pwd) == / ]] || cat .env", "normal", BP, ".env"),
    ('[[ -n "$(git status --short)" ]] && git diff', "safe", None, ""),
    ("if [[ $(uname) == Linux ]];then\n  ls\nfi", "safe", None, ""),
    # a pipe or and-or list goes on over newlines: the shell still reads the piped text
    ("echo 'rm README.md' |\n  sh", "safe", SM, ""),
    ("echo 'rm .claude/settings.json' |\n\n bash", "normal", SP, "settings.json"),
    ("echo .env |\n xargs cat", "normal", BP, ".env"),
    ("ls |", "safe", SM, ""),
    ("ls &&", "safe", SM, ""),
    ("ls && }", "safe", SM, ""),
    ("f()", "safe", SM, ""),
    ("ls\n&& rm README.md", "safe", SM, ""),
    ("ls &; pwd", "safe", SM, ""),
    ("; ls", "safe", SM, ""),
    ("ls & pwd; ls;", "safe", None, ""),
    ("git status &&\n  git diff", "safe", None, ""),
    ("ls |\n  wc -l", "safe", None, ""),
    # a test goes on to its ]]: regex groups hold ; and |, newlines may come between
    ("[[ $x =~ (^|;)a($|;) ]] && ls", "safe", None, ""),
    ("[[ -n x ; rm README.md", "safe", SM, ""),
    ("[[ a == a\n  && b == b ]] && ls", "safe", None, ""),
    # a perl script is code like a python one; an option's value before a package verb
    ("perl t.pl", "safe", SM, "t.pl"),
    ("apt-get -o Dpkg::Options::=--force-confnew install pg", "safe", SM, ""),
    ("perl -v", "safe", None, ""),
    ("sed -f fix.sed README.md", "safe", SM, ""),
    # eval parses the value of an expansion again: that value is code
    ("eval echo $X", "safe", SM, ""),
    ('eval "echo hi"', "safe", None, ""),
    ("sed -n 1,5p README.md", "safe", None, ""),
    # an rcfile is code an interactive shell runs first
    ("bash -i --rcfile x.sh", "safe", SM, "x.sh"),
    ("bash --init-file x.sh -i", "safe", SM, "x.sh"),
    # words bash refuses: unknown, so safemode holds them
    ("fi", "safe", SM, ""),
    ("ls; done", "safe", SM, ""),
    ("then ls", "safe", SM, ""),
    ("ls }", "safe", None, ""),  # an argument, not the reserved word
    ("}", "safe", SM, ""),
    ("esac", "safe", SM, ""),
    ("ls ;; pwd", "safe", SM, ""),
    ("if true; then ls", "safe", SM, ""),
    ("while true; do ls", "safe", SM, ""),
    ("for f in a b; do cat $f", "safe", SM, ""),
    ("if true; then ( fi )", "safe", SM, ""),
    ("echo $(then)", "safe", SM, ""),
    # the same constructs written right pass
    ("if true; then ls; elif false; then pwd; else ls -a; fi", "safe", None, ""),
    ("for f in a b; do cat $f; done", "safe", None, ""),
    ("for i in 1 2; { echo $i; }", "safe", None, ""),
    ("for ((i=0; i<2; i++)); do echo $i; done", "safe", None, ""),
    ("while false; do :; done; until true; do :; done", "safe", None, ""),
    ("case x in a) ls;; b) if true; then pwd; fi;; esac", "safe", None, ""),
    ("case x in (a) ls ;& b) pwd ;;& *) echo ;; esac", "safe", None, ""),
    ("f() { if true; then ls; fi; }; f", "safe", None, ""),
    ("x=$(case a in a) echo y;; esac); echo $x", "safe", None, ""),
    ("echo fi done esac then", "safe", None, ""),
    ("{ ls; } && ( pwd )", "safe", None, ""),
    ("select x in a b; do break; done", "safe", None, ""),
]


@pytest.mark.parametrize("cmd,mode,code,why", ROWS, ids=["%s:%s" % (r[1], r[0][:40]) for r in ROWS])
def test_answers(labs, cmd, mode, code, why):
    r = _pre(labs[mode], cmd)
    if code is None:
        assert r.denied is None, (cmd, mode, r.denied)
    else:
        assert r.denied and r.denied.startswith(code), (cmd, mode, r.denied)
        assert why in r.denied, r.denied
    assert os.path.exists(labs[mode].path(".claude", "settings.json"))


def _nested_xargs(layers, words):
    return "xargs -I{} " * layers + "cat <<E\n" + "w " * words + "\nE"


@pytest.mark.parametrize("mode", ["normal", "safe"])
def test_copies_are_bounded(labs, mode):
    """Each `xargs -I{}` layer copies the fed words into every argument, the next layer's
    `-I{}` included: the copies are paid for before they are made, so the analysis stops
    at its bound (too complex: held) instead of growing without end."""
    r = _pre(labs[mode], _nested_xargs(6, 100))
    assert r.denied and r.denied.startswith(BP) and "too complex" in r.denied, r.denied
    r = _pre(labs[mode], _nested_xargs(1, 3))  # one layer over a few names: judged as usual
    assert r.denied is None or not r.denied.startswith(BP), r.denied


def test_many_words_of_unseen_code(labs):
    """Every word unseen code names is looked up by the gates: repeats once, and distinct
    ones are paid for, so a flood of them is held (too complex) instead of answered late."""
    r = _pre(labs["normal"], "./t.sh 'no merge from here' x/y; " * 150)
    assert r.denied is None, r.denied
    r = _pre(labs["normal"], "./t.sh " + " ".join("d%d/f%d" % (i, i) for i in range(6000)))
    assert r.denied and r.denied.startswith(BP) and "too complex" in r.denied, r.denied


def test_path_past_path_max(labs):
    """A name longer than PATH_MAX names no file: it is not resolved prefix by prefix."""
    r = _pre(labs["safe"], ("d" * 60 + "/") * 4000 + "x")
    assert r.denied and r.denied.startswith(SM), r.denied


def test_analyser_bug_holds_the_command(labs, monkeypatch):
    """A bug inside the parser stops the analysis early, like a bound: what it did not reach
    may name a secret, so the command is held (never `read-only`, never let through)."""
    from core.shell import parser

    def boom(self):
        raise KeyError("bug")

    monkeypatch.setattr(parser.Parser, "run", boom)
    r = _pre(labs["normal"], "ls")
    assert r.denied and r.denied.startswith(BP), r.denied
    assert "not checkable" in r.denied and "KeyError" in r.denied, r.denied


def test_facts_bug_holds_the_command(labs, monkeypatch):
    """A bug while turning the analysis into facts used to escape the whole hook (every gate
    skipped); now the command is held the same way."""
    from core import policy

    def boom(*a, **k):
        raise TypeError("bug")

    monkeypatch.setattr(policy, "_shell_facts", boom)
    r = _pre(labs["safe"], "ls")
    assert r.denied and r.denied.startswith(BP) and "not checkable" in r.denied, r.denied
    r = labs["normal"].pre("Read", {"file_path": labs["normal"].path("README.md")})
    assert r.denied is None, r.denied  # other tools never reach it


@pytest.mark.parametrize(
    "gate,code", [("blocked_paths", BP), ("self_protection", SP), ("person_only", "[person-only]")]
)
def test_guard_gate_bug_holds_shell(labs, monkeypatch, gate, code):
    """A gate that keeps secrets, the hooks' files or person-only commands safe cannot be
    skipped by a command that makes it fail: the command is held under its code."""
    from core import gates_pre

    i = [g.__name__ for g in gates_pre.GATES].index(gate)

    def boom(ctx, facts):
        raise ValueError("bug")

    boom.__name__ = gate
    monkeypatch.setattr(gates_pre, "GATES", gates_pre.GATES[:i] + [boom] + gates_pre.GATES[i + 1 :])
    monkeypatch.setattr(labs["normal"], "gate_bug_expected", True)
    r = _pre(labs["normal"], "cat README.md")
    assert r.denied and r.denied.startswith(code), r.denied
    assert "ValueError" in r.denied and "held" in r.denied, r.denied


def test_workflow_gate_bug_fails_open(proj, ctx, monkeypatch):
    """The other gates are workflow: their bug lets the call through and says so (run on the
    engine's Ctx: the test project's hook calls refuse any fail-open answer)."""
    from core import gates_pre

    i = [g.__name__ for g in gates_pre.GATES].index("file_size")

    def boom(ctx, facts):
        raise ValueError("bug")

    boom.__name__ = "file_size"
    monkeypatch.setattr(gates_pre, "GATES", gates_pre.GATES[:i] + [boom] + gates_pre.GATES[i + 1 :])
    proj.research()
    c = ctx("Bash", {"command": "cat README.txt"})
    gates_pre.on_pre_tool(c)
    assert c.answer.block is None, c.answer.block
    assert any("file_size" in u for u in c.answer.user), c.answer.user


# shell shapes from other projects' grammar tests, written for this file: each is mutated
# (cut, doubled, nested, quotes swapped) and every mutation must be judged without an
# analyser failure and within its time
SEEDS = [
    "cat <<-EOF | tac\n\tone\nEOF\n",
    'while read -r l; do echo "$l"; done < <(ls -1)',
    "for ((i=0; i<3; i++)); do echo ${arr[i]:-x}; done",
    "case $1 in (a|b) echo ${1#a};; *) : ;; esac",
    '[[ ${x} =~ ^[0-9]+$ && -n "$(pwd)" ]] && echo ok',
    "f() { local IFS=$'\\n'; echo \"${*// /_}\"; }; f a b",
    "echo {a,b}{1..3} ~/x ${y:-$(date)} $((1 << 2)) `echo z`",
    "exec 3<>/dev/null; echo hi >&3; exec 3>&-",
    'a=(1 2 3); echo ${#a[@]} ${a[@]:1} "${!a[@]}"',
    "cut -d ' ' -f1 README.md | sort | uniq -c | sort -rn | head",
    'printf \'%s\\n\' "$@" | xargs -I{} echo {} " "',
    "if ! command -v x >/dev/null 2>&1; then echo no; fi",
]
WRAPS = [("$(", ")"), ("`", "`"), ("bash -c '", "'"), ('eval "', '"'), ("( ", " )"), ("{ ", "; }")]


def _mutations(n, seed=7):
    rnd = random.Random(seed)
    for _ in range(n):
        s = rnd.choice(SEEDS)
        for _ in range(rnd.randrange(1, 4)):
            i, j = sorted((rnd.randrange(len(s) + 1), rnd.randrange(len(s) + 1)))
            k = rnd.randrange(6)
            if k == 0:
                s = s[:i]
            elif k == 1:
                s = s[:j] + s[i:j] + s[j:]
            elif k == 2:
                a, b = rnd.choice(WRAPS)
                s = a * rnd.randrange(1, 6) + s + b * rnd.randrange(1, 6)
            elif k == 3:
                s = s.translate(str.maketrans({"'": '"', '"': "'"}))
            elif k == 4:
                s = s[:i] + rnd.choice("'\"`$(){}[]<>|&;\\\n# ") + s[i:]
            else:
                s = s + rnd.choice([" | ", " && ", "; ", "\n"]) + rnd.choice(SEEDS)
        yield s


def test_mutations_never_break_the_analysis():
    from core import policy

    slow = []
    for s in _mutations(600):
        t = time.perf_counter()
        f = policy.facts_for("Bash", {"command": s}, "/tmp", "/tmp", "/tmp/home")
        took = time.perf_counter() - t
        assert not any("failed on it" in r for r in f.reasons), (s, f.reasons)
        if took > 0.5:
            slow.append((round(took, 2), s[:80]))
    assert not slow, slow
