"""Looking at a file without reading it: the one notion of which programs learn only a file's
name, size, times, type, line count or a link's target, never a byte of its content.

Their operands are `looks` (Command.looks), not `reads`: `ls -la .env`, `stat .env`,
`[ -f .env ]`, `du -sh ~/.ssh` reveal no secret, so the blocked-path rule lets them pass;
self-protection still covers them. An option that makes such a program read content turns
the form into a read: `du --files0-from=F` and `wc --files0-from=F` print F's words in their
errors, `file -f F` / `file -m F` do the same (a magic file's bad line is printed),
`tree --fromfile F` prints F's lines as a tree.

A checksum is not a look at a named file: the digest of a short secret can be guessed back.
Fed every file of a tree by `find -exec` or xargs, checksums are accepted (TREE_SAFE): what
they print there is no file's text; fed the files a name test picks (`find . -name .env -exec
md5sum {} +`), they read those files.
"""

from __future__ import annotations

from core.shell.command import long_match, opts, vals

# print names, sizes, times, modes, types, counts or link targets, whatever their options
# (but the content options below)
LOOKERS = frozenset(
    ("ls", "dir", "vdir", "eza", "exa", "lsd", "stat", "du", "wc", "file", "tree")
    + ("realpath", "readlink", "test", "[", "[[")
)
DIGESTS = frozenset(
    ("cksum", "sum", "b2sum", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum")
    + ("sha512sum", "shasum", "md5")
)
# fed every file of a tree, they reveal no file's text (`find / -exec du -h {} +`)
TREE_SAFE = LOOKERS | DIGESTS | frozenset(("touch",))

# program -> (short options whose value it reads as content, long ones, other valued shorts,
# other valued longs): the values are reads, every other word a look
_CONTENT = {
    "du": (
        "X",
        ("--exclude-from", "--files0-from"),
        "Bdt",
        ("--block-size", "--max-depth", "--exclude", "--threshold", "--time-style"),
    ),
    "wc": ("", ("--files0-from",), "", ()),
    "file": ("fm", ("--files-from", "--magic-file"), "eFP", ("--exclude", "--separator")),
}
_TREE_FROM = ("--fromfile", "--fromtabfile")
_TEST_WORDS = frozenset(("]", "]]", "!", "(", ")", "=", "==", "!=", "<", ">", "=~", "&&", "||"))


def content_values(prog: str, a: list[str]) -> list[str] | None:
    """The words of `prog a...` it reads as content ([] when none); None when every operand
    is read (tree --fromfile), or when prog is no looker."""
    if prog == "tree":
        if any(long_match(w.split("=", 1)[0], f) for w in a for f in _TREE_FROM):
            return None
        return []
    if prog not in LOOKERS:
        return None
    spec = _CONTENT.get(prog)
    if spec is None:
        return []
    short, long_, other_short, other_long = spec
    found, _ = opts(a, short + other_short, long_ + other_long)
    names = tuple("-" + ch for ch in short) + long_
    return [v for v in vals(found, *names) if v]


def only_looks(prog: str, a: list[str]) -> bool:
    """`prog a...` reads no file's content (a digest is no content in a tree walk)."""
    if prog in DIGESTS or prog == "touch":
        return not any(w in ("-c", "--check") or long_match(w, "--check") for w in a)
    return content_values(prog, a) == []


def split(c, a: list[str]) -> set[str] | None:
    """Give a looker's words to c.looks, its content values to c.reads; -> the words the
    generic path rule must skip. None (nothing changed) when this form reads content."""
    content = content_values(c.program, a)
    if content is None:
        return None
    c.reads.extend(content)
    skip = set()
    test = c.program in ("test", "[", "[[")
    for w in a:
        if w in content or test and w in _TEST_WORDS:
            continue
        if w[:2] == "--" and "=" in w:
            w = w.split("=", 1)[1]
        if w and w not in content and w[:1] != "-":
            c.looks.append(w)
            skip.add(w)
    return skip


# stdin text filters: what they print is made of the text they are given, never of a file
# that text names (unless told to read names: --files0-from)
_FILTERS = frozenset(
    ("grep", "egrep", "fgrep", "head", "tail", "wc", "sort", "uniq", "cut", "tr", "column")
    + ("nl", "cat", "less", "more", "fold", "fmt", "rev", "tac")
)


def fed_back(commands: list) -> bool:
    """A looker prints the names it looks at. When this same command can turn printed text
    into file names (xargs, a read of a dynamic word such as "$f" or $(..), a pipe or a
    redirect into anything but a plain text filter, code nobody saw), a looked-at name may
    be read: every look is then a read, as any printed path is (`ls .env | xargs cat`).
    True when a look became a read."""
    if not any(c.looks for c in commands):
        return False
    takers = [c for c in commands if _takes_names(c)]
    moved = False
    for c in commands:
        # a looker in a form that writes (tree -R) is none; one whose listing goes to a file
        # hands the names on (`ls .env > n; tar -T n -cf x`). A looker that is itself fed
        # names (`find . | xargs ls -la`) prints them for no other command to read.
        fed = any(t is not c for t in takers)
        if c.looks and (fed or c.unknown or _lists_to_file(c)):
            c.reads.extend(x for x in c.looks if x not in c.reads)
            c.looks = []
            moved = True
    return moved


def _takes_names(c) -> bool:
    if "xargs" in c.wrappers or c.unknown and (c.stdin_is_data or any(map(_dynamic, c.argv))):
        return True
    if any(_dynamic(x) for x in c.reads + c.writes):
        return True
    if not c.stdin_is_data:
        return False
    # --files0-from and its prefixes (`sort --fil=-`): names to read, on stdin
    return c.program not in _FILTERS or any(w[:3] == "--f" for w in c.argv)


def _dynamic(word: str) -> bool:
    return "$" in word or "`" in word


def _lists_to_file(c) -> bool:
    for r in c.redirects:
        if r.fd in (None, 1) and r.op in (">", ">>", ">|", "&>", "&>>") and r.target != "/dev/null":
            return True
    return False
