"""Variables set earlier in a command, as the shell analysis follows them."""

from __future__ import annotations


class Vars(dict):
    """Variables set earlier in the command: name -> value (None: not known). `numbers`: the
    names whose unknown value is an integer (the result of arithmetic, or a declare -i name,
    listed in `integers` too); any other assignment takes a name out of `numbers`. `used`:
    names arithmetic has read as seen; a later assignment of a value the analysis cannot see
    to one is reported through `error` (a loop or a function body reads it again)."""

    __slots__ = ("numbers", "integers", "assoc", "used", "error", "refs")

    def __init__(self, error=None):
        super().__init__()
        self.numbers = set()
        self.integers = set()
        self.assoc = set()  # declare -A names: their subscripts are strings, not arithmetic
        self.used = set()
        self.error = error
        self.refs = {}  # declare -n NAME=TARGET: NAME reads and writes TARGET

    def target(self, name):
        """The variable a name stands for, through `declare -n` references."""
        for _ in range(8):
            name = self.refs.get(name, name)
        return name

    def __setitem__(self, name, value):
        name = self.target(name) if self.refs else name
        if name in self.integers:
            if not _plain_number(value) and self.error is not None:
                self.error(
                    "%s is declare -i: bash evaluates what `read` and the like put in it" % name
                )
        else:
            self.numbers.discard(name)
            if name in self.used and not _plain_number(value):
                self.used.discard(name)
                if self.error is not None:
                    self.error(
                        "arithmetic reads %s, which the command later sets to a value the hooks "
                        "cannot see (a loop or a function reads it again)" % name
                    )
        super().__setitem__(name, value)

    def number(self, name):
        """name now holds the result of arithmetic."""
        super().__setitem__(name, None)
        self.numbers.add(name)


def _plain_number(value) -> bool:
    """A value arithmetic reads as a number and nothing else ('' is 0)."""
    if not isinstance(value, str):
        return False
    v = value.strip().lstrip("+-")
    return v == "" or v.isdigit()
