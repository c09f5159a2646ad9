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
