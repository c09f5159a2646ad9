"""The one program table (core/shell/programs.py): every name once per kind, every row
resolvable to a function of its family module."""

from core.shell import programs


def _rows(kind):
    seen, target = {}, ""
    for line in programs._TABLE.split("\n"):
        if not line.strip():
            continue
        if line[:1] != " ":
            target, _, line = line.partition(": ")
        is_wrapper = target.split(".", 1)[1].startswith("w_")
        if is_wrapper != (kind == "wrapper"):
            continue
        for name in line.split():
            seen.setdefault(name, []).append(target)
    return seen


def test_each_program_is_listed_once_per_kind():
    for kind in ("wrapper", "handler"):
        twice = {n: t for n, t in _rows(kind).items() if len(t) > 1}
        assert not twice, (kind, twice)  # a second row would silently win


def test_every_row_resolves():
    for name in programs.HANDLERS:
        assert programs.handler(name), name
    for name in programs.WRAPPERS:
        assert programs.wrapper(name), name


def test_a_version_suffix_names_the_program_only_for_versioned_families():
    for name, want in (
        ("python3.12", "python"),
        ("pip3", "pip"),
        ("ruby3", "ruby"),
        ("mkfs.ext4", "mkfs"),
        ("gsed", "sed"),
    ):
        assert programs.key(name) == want, name
    for name in ("ls2", "cat9", "grep3", "psql16", "rm1"):
        assert not programs.known(programs.key(name)), name  # another program: unknown
