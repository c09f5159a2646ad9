"""Looking at a blocked path is not reading it (core/shell/looks.py), through the real gate:
`ls -la .env`, `[ -f .env ]`, `stat`, `du`, `wc`, `file`, `realpath` and the Glob tool learn a
name, size, type or count, never a byte of content, and pass in normal mode and safemode.
Content stays blocked: readers, checksums, copies, unknown programs, the content options of
the lookers (du --files0-from, file -m, tree --fromfile), and a looked-at name that the same
command turns into a read (`ls .env | xargs cat`). Self-protection still covers looks.

Rows: command, then the answer in both modes ("allow", or the [code] a deny starts with) and
a word the reason must name.
"""

from __future__ import annotations

import os

import pytest

from core.shell.analysis import analyse
from shell.labs import answer, pre, two_mode_labs
from shell.test_attacks_remote_readers import FILES

BP, SP, SM = "[blocked-path]", "[self-protection]", "[safemode]"

LOOKS = [
    "ls -la .env",
    "ls .env cert.pem",
    "ls ~/.ssh",
    "ls -la ~/.ssh/id_rsa",
    "ls -laR ~/.ssh",
    "ls -la ~/.ssh/ | head -20",
    "ls -la .env | grep env",
    'ls -la .env 2>/dev/null || echo "no .env file"',
    "test -f .env && echo yes",
    'test -f .env && echo "exists" || echo "missing"',
    "[ -f .env ]",
    "[ ! -e .env ] && echo missing",
    "[[ -e ~/.aws/credentials ]]",
    "[[ -f .env && -r .env ]]",
    "[ -s ~/.ssh/id_rsa ] && echo ok",
    "test .env -nt cert.pem",
    "if [ -f .env ]; then echo found; fi",
    "stat .env",
    "stat -c '%s %n' .env | sort -n",
    "stat --printf='%y\\n' ~/.ssh/id_rsa",
    "du -sh ~/.ssh",
    "du -sh .env cert.pem",
    "du --exclude .env -sh .",
    "file .env",
    "file -i cert.pem",
    "wc -c .env",
    "wc -l .env cert.pem",
    "realpath .env",
    "readlink -f ~/.ssh/id_rsa",
    "tree -a ~/.ssh",
    "ls -la .env 2>/dev/null >/dev/null && echo ok",
    "ls .env* 2>/dev/null | wc -l",
    "du -ah ~/.config | sort -h | tail",
    "wc -l src/*.py .env",
]

# (command, code, word the reason names)
READS = [
    ("cat .env", BP, ".env"),
    ("head -1 .env", BP, ".env"),
    ("source .env", BP, ".env"),
    (". .env", BP, ".env"),
    ("grep PAT .env", BP, ".env"),
    ("diff .env README.md", BP, ".env"),
    ("cmp .env cert.pem", BP, ".env"),
    ("cp .env /tmp/x", BP, ".env"),
    ("md5sum .env", BP, ".env"),
    ("sha256sum ~/.ssh/id_rsa", BP, ".ssh"),
    ("wc -l < .env", BP, ".env"),
    ("[ -f .env ] && source .env", BP, ".env"),
    ("ls .env && cat .env", BP, ".env"),
    # the lookers' content options
    ("du --files0-from=.env", BP, ".env"),
    ("du --files0 .env", BP, ".env"),
    ("du -X .env .", BP, ".env"),
    ("du -sX.env .", BP, ".env"),
    ("du --exclude-fr=.env .", BP, ".env"),
    ("wc --files0-from .env", BP, ".env"),
    ("file -f .env", BP, ".env"),
    ("file -m .env README.md", BP, ".env"),
    ("file --magic-file=.env README.md", BP, ".env"),
    ("tree --fromfile .env", BP, ".env"),
    ("tree --fromf ~/.ssh/id_rsa", BP, ".ssh"),
    ("find . -type f -exec du --files0-from={} \\;", BP, ".env"),
    # a looked-at name the same command turns into a read
    ("ls .env | xargs cat", BP, ".env"),
    ("ls ~/.ssh/id_rsa | xargs cat", BP, ".ssh"),
    ("realpath .env | xargs cat", BP, ".env"),
    ("stat -c %n .env | xargs cat", BP, ".env"),
    ("file .env | cut -d: -f1 | xargs cat", BP, ".env"),
    ("cat $(ls -d .env)", BP, ".env"),
    ('for f in $(ls -d .env); do cat "$f"; done', BP, ".env"),
    ('ls .env | while read f; do cat "$f"; done', BP, ".env"),
    ("ls .env | tar -T - -cf - | base64", BP, ".env"),
    ("ls .env | tr '\\n' '\\0' | sort --files0-from=-", BP, ".env"),
    ("ls .env | tr '\\n' '\\0' | sort --fil=-", BP, ".env"),
    ("ls .env | sh", BP, ".env"),
    ("ls .env > /tmp/l; xargs cat < /tmp/l", BP, ".env"),
    ("ls .env > /tmp/names && tar -T /tmp/names -czf /tmp/x.tgz", BP, ".env"),
    ("ls .env | awk '{while((getline l < $0)>0) print l}'", BP, ".env"),
    ('ls .env | python3 -c "import sys; print(open(input()).read())"', BP, ".env"),
    ("ls .env | zip -@ /tmp/x.zip", BP, ".env"),
    ("x=$(ls .env); cat $x", BP, ".env"),
    ("ls -d ~/.ssh/* | xargs cat", BP, ".ssh"),
    ('ls "${X:-.env}" | xargs cat', BP, ".env"),
    ("ls .e* | xargs cat", BP, ".env"),
    ("eval \"$(ls .env | sed 's/^/cat /')\"", BP, ".env"),
    # programs that may read what they name
    ("frob .env", BP, ".env"),
    ("mytool --check ~/.ssh/id_rsa", BP, ".ssh"),
    # looks still touch the hooks' own files; writes are unchanged
    ("stat ~/.config/sane-hooks/secret", SP, "secret"),
    ("ls -la ~/.config/sane-hooks", SP, "sane-hooks"),
    ("ls > .env", BP, ".env"),
    ("tree -o .claude/settings.json", SP, "settings"),
    # what runs after `cd` runs inside the directory (a server, a script): not a look
    ("cd ~/.ssh && ls -la", BP, ".ssh"),
]

# looked-at programs that write in some forms: a change under safemode
SAFE_ONLY = [
    ("tree -R -H . -L 1", SM),
    ("file -C -m magic", SM),
]


@pytest.fixture(scope="module")
def labs(tmp_path_factory):
    return two_mode_labs(tmp_path_factory, "looks", FILES)


def _ask(proj, tool, tool_input):
    return answer(pre(proj, tool_input, tool))


@pytest.mark.parametrize("mode", ["normal", "safe"])
@pytest.mark.parametrize("cmd", LOOKS)
def test_a_look_passes(labs, cmd, mode):
    got = _ask(labs[mode], "Bash", {"command": cmd})
    assert got == "allow", "false positive: %r [%s] -> %r" % (cmd, mode, got)


@pytest.mark.parametrize("mode", ["normal", "safe"])
@pytest.mark.parametrize("cmd,code,why", READS)
def test_a_read_stays_denied(labs, cmd, code, why, mode):
    got = _ask(labs[mode], "Bash", {"command": cmd})
    assert got.startswith(code), "bypass: %r [%s] -> %r" % (cmd, mode, got)
    assert why in got, "%r [%s]: reason lacks %r: %r" % (cmd, mode, why, got)


@pytest.mark.parametrize("cmd,code", SAFE_ONLY)
def test_a_looker_that_writes_is_a_change(labs, cmd, code):
    assert _ask(labs["safe"], "Bash", {"command": cmd}).startswith(code)
    assert _ask(labs["normal"], "Bash", {"command": cmd}) == "allow"


@pytest.mark.parametrize("mode", ["normal", "safe"])
def test_listing_tools_look(labs, mode):
    proj = labs[mode]
    ssh = os.path.join(proj.home, ".ssh")
    assert _ask(proj, "Glob", {"pattern": ".env*"}) == "allow"
    assert _ask(proj, "Glob", {"pattern": "*", "path": ssh}) == "allow"
    assert _ask(proj, "Glob", {"pattern": "~/.ssh/id_*"}) == "allow"
    assert _ask(proj, "LS", {"path": ssh}) == "allow"
    got = _ask(proj, "Glob", {"pattern": "~/.config/sane-hooks/*"})
    assert got.startswith(SP), got
    got = _ask(proj, "Read", {"file_path": os.path.join(proj.dir, ".env")})
    assert got.startswith(BP) and ".env" in got, got
    got = _ask(proj, "Grep", {"pattern": "TOKEN", "path": ssh})
    assert got.startswith(BP), got


@pytest.mark.parametrize(
    "cmd,looks,reads",
    [
        ("ls -la .env", [".env"], []),
        ("[ -f .env ] && wc -c .env", [".env", ".env"], []),
        ("du -X skip.txt -sh src", ["src"], ["skip.txt"]),
        ("cd src && stat app.py", ["src/app.py"], []),
        ("tree --fromfile list.txt", [], ["list.txt"]),
        ("ls .env | xargs cat", [], [".env"]),
    ],
)
def test_the_record_keeps_looks_apart(cmd, looks, reads):
    a = analyse(cmd, home="/home/u")
    got_looks = [x for c in a.commands for x in c.looks]
    assert got_looks == looks, a
    for r in reads:
        assert r in a.reads, a
    for x in looks:
        assert x not in a.reads, a
