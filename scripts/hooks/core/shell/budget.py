"""The work budget of one command's analysis: counted steps, not a clock.

Every costly step of the analysis spends from one `Budget`: a token, a judged command, an
expansion, a scanned escape, a heredoc line, each word a brace expansion makes (by its
length), and each path the analysis hands to the gates (by its length and depth, because
the gates look every path up against every rule).  When it runs out, `Bound` stops the
analysis; the command is then "too complex to check" and is denied, never allowed late.
Counting steps keeps the answer deterministic: the same command gets the same decision on
a fast machine and on a loaded one.  Sized (bench/bench_shell.py) so that any command up to
1 MB is analysed, and its paths checked, well under a second.
"""

from __future__ import annotations

UNITS = 60000  # a unit: about 1 us of parsing; paths cost more, as the gates work more
PATH_COST = 75  # each path the gates will look up (measured: ~0.5 ms under load) ...
PART_COST = 12  # ... plus each of its components (every rule is tried on each)
CHAR_COST = 16  # characters per unit of a word made by brace expansion
TOO_COMPLEX = "too complex to check"


class Bound(Exception):
    """The input hit a size, depth or work bound: stop, the command is too complex."""


class Budget:
    """Work units left for one analysis.  `spend(n)` raises Bound when they run out."""

    __slots__ = ("left",)

    def __init__(self, units: int = UNITS) -> None:
        self.left = units

    def spend(self, n: int) -> None:
        self.left -= n
        if self.left < 0:
            raise Bound("%s (more work than the analysis allows)" % TOO_COMPLEX)

    def paths(self, paths) -> None:
        """Charge the paths the gates will look up: each by its length and depth."""
        n = 0
        for p in paths:
            n += PATH_COST + PART_COST * p.count("/") + len(p) // 64
        self.spend(n)

    def words(self, words) -> None:
        """Charge a command's words by their depth: the gates may resolve any of them as a
        path (option values, code paths), one lookup per component; longer than PATH_MAX
        names no file and is not resolved."""
        n = 0
        for w in words:
            if isinstance(w, str) and len(w) <= PATH_MAX:
                n += PART_COST * w.count("/")
        self.spend(n)


# programs that run a script file named by their first operand (or -f)
SCRIPT_RUNNERS = frozenset(
    (
        "sh",
        "bash",
        "zsh",
        "dash",
        "ksh",
        "fish",
        "node",
        "nodejs",
        "deno",
        "bun",
        "perl",
        "ruby",
        "php",
        "lua",
        "tclsh",
        "osascript",
        "Rscript",
        "rscript",
        "ts-node",
        "tsx",
        "awk",
        "gawk",
        "sed",
        "make",
        "gmake",
        "source",
        ".",
    )
)
CODE_PATH_ENV = ("PYTHONPATH", "NODE_PATH", "PERL5LIB", "RUBYLIB")


# programs whose first operand is program text, not a file: only -f names their script file
_TEXT_FIRST = frozenset(("sed", "gsed", "awk", "gawk", "mawk", "nawk"))
PATH_MAX = 4096  # the kernel refuses a longer path name (ENAMETOOLONG): no program opens it


def code_paths(cmd):
    """The words that may name a script, makefile or module path the command runs: argv[0]
    with a '/', the script operand of an interpreter or runner, the code-path variables.
    Only path-sized words: program text is not looked up as a file."""
    cands = []
    argv = cmd.argv
    if argv and "/" in argv[0]:
        cands.append(argv[0])
    prog = cmd.program
    if prog.lower().startswith(("python", "pypy")) or prog in SCRIPT_RUNNERS:
        text_first = prog in _TEXT_FIRST
        rest = argv[1:]
        for i, w in enumerate(rest):
            if w in ("-f", "-C", "--file", "--directory", "--makefile") and i + 1 < len(rest):
                cands.append(rest[i + 1])
            elif w.startswith(("--file=", "--directory=", "--makefile=")):
                cands.append(w.split("=", 1)[1])
            elif not w.startswith("-"):
                if not text_first:
                    cands.append(w)
                break
    for k in CODE_PATH_ENV:
        v = cmd.env.get(k)
        if isinstance(v, str):
            cands.extend(v.split(":"))
    return [c for c in cands if c and len(c) <= PATH_MAX and "\n" not in c]
