"""Residual holes and false positives of default-deny: substitutions that print only a number
in arithmetic, `ip -b`, `tar -C`, PowerShell parsing and reads, a `.git` file written before
`git init`, `git bundle` of a tracked secret. Each row goes through sanetools.py in a project
with the hooks installed and asserts the decision, its [code] and a piece of the reason."""

import subprocess

import pytest

from conftest import Project
from shell.labs import lab, not_denied, pre, two_mode_labs

SP, SM, PO, BP = "[self-protection]", "[safemode]", "[person-only]", "[blocked-path]"
ARITH = "arithmetic on"


FILES = {"README.md": "readme\n", ".env": "TOKEN=x\n", "src/app.py": "print(1)\n", "~/.ssh/": None}


@pytest.fixture(scope="module")
def labs(tmp_path_factory):
    return two_mode_labs(tmp_path_factory, "resid", FILES)


def _pre(labs, mode, cmd, tool="Bash"):
    return pre(labs[mode], cmd, tool)


def _denied(r, code, why):
    assert r.denied and r.denied.startswith(code), r.denied
    assert why in r.denied, r.denied


# --- arithmetic on a substitution that can print only a number ------------------------------
NUMBER_PASS = [
    "x=$(wc -l < README.md); echo $((x))",
    "echo $(( $(nproc) + 1 ))",
    "n=$(grep -c PAT < README.md); echo $((n + 1))",
    "n=$(grep -ci -e a -e b < README.md); (( n > 0 )) && echo some",
    "echo $(( $(id -u) + $(id -g) ))",
    "echo $(( $(date +%s) - 60 ))",
    "start=$(date +%s%N); echo $(( ($(date +%s%3N) - start / 1000000) ))",  # N after a digit
    "t=$(date -u '+%Y%m%d'); echo $((t / 100))",
    "echo $(( $(getconf _NPROCESSORS_ONLN) * 2 ))",
    "echo $(( $(stat -c %s README.md) / 1024 ))",
    "echo $(( $(git ls-files | wc -l) ))",
    "echo $(( $(cat README.md | wc -lw) ))",
    "echo $(( $(expr 2 \\* 3) ))",
    'x="$(nproc --all)"; [[ $x -ge 1 ]] && echo ok',
    "for i in $(seq 1 3); do echo $(( i * $(nproc) )); done",
    "x=$(wc -c < README.md 2>/dev/null); echo $((x))",
    "x=`nproc`; echo $((x + 1))",
    "echo $(( `id -u` ))",
]
NUMBER_DENY = [
    # a file operand: wc and grep -c print the file's name, which anyone can choose
    ("x=$(wc -l README.md); echo $((x))", "x"),
    ("echo $(( $(grep -c PAT README.md) ))", "grep -c"),
    ("echo $(( $(grep -rc PAT) ))", "grep -rc"),  # -r with no operand walks the tree
    # output that holds letters, or may
    ("echo $(( $(date) ))", "$(date)"),
    ("echo $(( $(date +%N) ))", "date +%N"),  # BSD date prints a letter N
    ("echo $(( $(id -un) ))", "id -un"),
    ("echo $(( $(stat -c %n README.md) ))", "stat -c %n"),
    ("echo $(( $(getconf PATH) ))", "getconf"),
    ("echo $(( $(expr substr abc 1 2) ))", "expr"),
    ("echo $(( $(seq -f 'a[%g]' 1 2) ))", "seq -f"),
    ("echo $(( $(nproc; cat f) ))", "nproc;"),
    ("echo $(( $(wc -l < f 2>&1) ))", "2>&1"),  # bash's error message names the file
    ("echo $(( $(wc -l < f | cat) ))", "cat"),
    ("echo $(( `wc -l f` ))", "`...`"),
    # words that may become options or file names at run time
    ("echo $(( $(stat -c %s $F) ))", "$F"),
    ('echo $(( $(grep -c "$P" < f) ))', "grep -c"),
    ("echo $(( $(stat -c %s *) ))", "stat"),
    # not the system's program
    ("wc() { cat f; }; echo $(( $(wc -l < f) ))", "wc -l"),
    ("nproc() { cat f; }; x=$(nproc); echo $((x))", "x"),
    ("x=$(nproc); x=$(cat f); echo $((x))", "x"),
]


@pytest.mark.parametrize("cmd", NUMBER_PASS)
def test_number_substitution_passes(labs, cmd):
    for mode in ("normal", "safe"):
        not_denied(labs[mode], cmd)


@pytest.mark.parametrize("cmd,why", NUMBER_DENY)
def test_other_substitution_unknown(labs, cmd, why):
    r = _pre(labs, "safe", cmd)
    _denied(r, SM, ARITH)
    assert why in r.denied, r.denied
    assert not _pre(labs, "normal", cmd).denied


# --- ip -batch FILE in any spelling ip accepts: reads FILE, runs the ip commands it holds ----
IP_DENY = [
    ("ip -b cmds.txt", "safe", SM, "ip -batch"),
    ("ip -ba cmds.txt", "safe", SM, "ip -batch"),
    ("ip -batch cmds.txt", "safe", SM, "ip -batch"),
    ("ip --batch cmds.txt", "safe", SM, "ip -batch"),
    ("ip -force -b -", "safe", SM, "ip -batch"),
    ("ip -4 -b cmds.txt link show", "safe", SM, "ip -batch"),
    ("ip -b .env", "normal", BP, ".env"),
    ("ip -force -batch ~/.ssh/id_rsa", "normal", BP, ".ssh"),
    ("ip -n blue link set eth0 up", "safe", SM, "ip link set"),
    ("ip -f inet addr add 10.0.0.1/24 dev eth0", "safe", SM, "ip addr add"),
    ("ip -zz addr", "safe", SM, "ip -zz"),
]
IP_PASS = [
    "ip -br a",
    "ip -br link show",
    "ip -f inet addr show",
    "ip -n blue route show",
    "ip -4 -o addr",
    "ip -c=always -j -p route get 1.1.1.1",
    "ip -s -s link",
    "ip route",
]


@pytest.mark.parametrize("cmd,mode,code,why", IP_DENY)
def test_ip_batch_and_changes(labs, cmd, mode, code, why):
    _denied(_pre(labs, mode, cmd), code, why)


@pytest.mark.parametrize("cmd", IP_PASS)
def test_ip_reads_pass(labs, cmd):
    for mode in ("normal", "safe"):
        not_denied(labs[mode], cmd)


# --- tar -C DIR: the names after it are read (or written) under DIR ---------------------------
TAR_PASS = [
    "tar -C src -cf - .",
    "tar -cf - -C src .",
    "tar --directory=src -czf - .",
    "tar --directory src -cf - app.py",
    "tar -C src -cf /tmp/src.tar .",
    "tar -C src -cf - . | tar -tf -",
    "tar cCf src - .",  # old style: C and f take the next words in order
    "tar czf /tmp/src.tgz src",
]
TAR_DENY = [
    ("tar -cf - .", "normal", BP, ".env"),
    ("tar -C . -cf - .", "normal", BP, ".env"),
    ("tar -C src -cf - . -C .. .", "normal", BP, ".env"),  # -C is relative to the one before
    ("tar -cf - -C src . -C .. .env", "normal", BP, ".env"),
    ("tar -C src -cf - ../.env", "normal", BP, ".env"),
    ("tar -C ~ -cf - .ssh", "normal", BP, ".ssh"),
    ("tar -C /tmp -cf - $PWD/.env", "normal", BP, ".env"),
    ("tar cfC - ~ .ssh", "normal", BP, ".ssh"),
    ("tar cCf . - .", "normal", BP, ".env"),
    # extraction: each member is written under the -C in force where it is named
    ("tar -x -C .claude -f a.tar settings.json -C /tmp/out y", "normal", SP, "settings.json"),
    ("tar -xf a.tar -C /tmp/out -C $PWD/.claude", "normal", SP, ".claude"),
]


@pytest.mark.parametrize("cmd", TAR_PASS)
def test_tar_directory_reads_its_tree(labs, cmd):
    for mode in ("normal", "safe"):
        not_denied(labs[mode], cmd)


@pytest.mark.parametrize("cmd,mode,code,why", TAR_DENY)
def test_tar_directory_denied(labs, cmd, mode, code, why):
    _denied(_pre(labs, mode, cmd), code, why)


# --- PowerShell: parsing that respects quotes, values, sane.py, PATH ------------------------
PWSH_PASS = [
    "Start-Sleep 1",
    "Start-Sleep -Seconds 2; Write-Host done",
    "Write-Output 'a;b' 'c|d'",
    'Write-Host "x && y || z"',
    "Get-Content 'it''s;notes.txt'",
    'Select-String -Pattern "a|b" -Path README.md',
    "$x = 1",
    "$n = 3 * 4; Write-Output $n",
    "$name = 'README.md'; Get-Content $name",
    "$files = Get-ChildItem src; $files.Count",
    "$x = Get-ChildItem | Select-Object -First 1",
    "$global:count += 1",
    "$PSVersionTable.PSVersion",
    "$env:Path += ';C:\\tools'; Get-ChildItem",
    "$f = 'README.md'; git diff -- $f",
    "$i = 0; $i = $i + 1; Write-Output $i",
    "$x = 1; $y = $x; Write-Output $y",
]
PWSH_DENY = [
    # a quoted ; or | is text; the command around it is judged whole
    ("Set-Content 'a;b' x; Remove-Item .claude/settings.json", "normal", SP, "settings.json"),
    ("Start-Sleep 1 > .claude/settings.json", "normal", SP, "settings.json"),
    # assignments: a command's value runs the command; a literal value is the word's value
    ("$x = Remove-Item README.md", "safe", SM, "README.md"),
    ("$x = Get-Content .env", "normal", BP, ".env"),
    ("$p = '.claude/settings.json'; Set-Content $p x", "normal", SP, "settings.json"),
    ("$d = '~/.ssh'; Get-Content $d/id_rsa", "normal", BP, ".ssh"),
    ("$x = (Remove-Item README.md)", "safe", SM, "expression"),
    ("$f = Get-ChildItem src; Remove-Item $f", "safe", SM, "did not work out"),
    ("$alias:ls = 'Remove-Item'", "safe", SM, "$alias:ls"),
    # a program's words get the value too (judged by the bash analysis)
    ("$f = '.claude/settings.json'; git checkout -- $f", "normal", SP, "settings.json"),
    ("$global:f = '.claude/settings.json'; git checkout -- $global:f", "normal", SP, "settings"),
    ("$b = $HOME + '/.ssh'; Get-Content $b/config", "safe", SM, "did not work out"),
    ("$env:GIT_SSH_COMMAND = 'sh x'; git fetch", "safe", SM, "$env:git_ssh_command"),
    # our CLI's person-only subcommands are the person's, in PowerShell as in bash
    ("python scripts/hooks/sane.py reset safemode", "normal", PO, "sane.py reset safemode"),
    ("& python3 .\\scripts\\hooks\\sane.py unlock", "safe", PO, "sane.py unlock"),
    ("py scripts\\hooks\\sane.py reset breaker", "normal", PO, "sane.py reset breaker"),
    # a backslash separates path parts: bash's analysis of a program's words must see them
    ("git checkout -- .claude\\settings.json", "normal", SP, "settings.json"),
    # a changed PATH: bare program names after it run files nobody has seen
    ("$env:PATH = 'C:\\evil;' + $env:PATH; git status", "safe", SM, "changed PATH"),
    ("$env:Path = '/tmp/x'; python x.py", "safe", SM, "changed PATH"),
    ("Set-Item Env:PATH /tmp/x; git status", "safe", SM, "changed PATH"),
]


@pytest.mark.parametrize("cmd", PWSH_PASS)
def test_powershell_reads_and_values_pass(labs, cmd):
    for mode in ("normal", "safe"):
        not_denied(labs[mode], cmd, "PowerShell")


@pytest.mark.parametrize("cmd,mode,code,why", PWSH_DENY)
def test_powershell_denied(labs, cmd, mode, code, why):
    _denied(_pre(labs, mode, cmd, "PowerShell"), code, why)


def test_powershell_sane_status_is_not_person_only(labs):
    """A read-only subcommand is not the person's: it stays code the hooks do not run as
    their CLI (named file of the hooks)."""
    r = _pre(labs, "normal", "python scripts/hooks/sane.py status", "PowerShell")
    assert not (r.denied or "").startswith(PO), r.denied


# --- a .git file or link before `git init`: it names the directory git works in -------------
@pytest.fixture(scope="module")
def nogit(tmp_path_factory):
    """A project that is no git repository yet (normal mode, after research)."""
    return lab(
        str(tmp_path_factory.mktemp("resid-nogit")), "normal", {"README.md": "readme\n"}, git=False
    )


GITFILE_DENY = [
    "echo 'gitdir: /tmp/x' > .git",
    "printf 'gitdir: %s\\n' /tmp/x >> ./.git",
    "ln -s /tmp/x .git",
    "cp /tmp/gitfile .git",
    "mv /tmp/evil-repo .git",
    "tee .git <<< 'gitdir: /tmp/x'",
    "cd src && echo 'gitdir: /tmp/x' > ../.git",
    "echo 'gitdir: /tmp/x' > sub/.git",  # git run in sub/ takes that directory's config
]
GITFILE_PASS = [
    "git init",
    "git init -q && git add README.md",
    "git clone https://example.com/r.git sub",
    "cat .gitignore",
]


@pytest.mark.parametrize("cmd", GITFILE_DENY)
def test_git_file_before_init_denied(nogit, cmd):
    r = pre(nogit, cmd)
    _denied(r, SP, ".git")


@pytest.mark.parametrize("cmd", GITFILE_PASS)
def test_git_init_and_clone_pass(nogit, cmd):
    r = pre(nogit, cmd)
    assert not r.denied, (cmd, r.denied)


def test_git_file_by_write_tool_denied(nogit):
    r = pre(nogit, {"file_path": nogit.path(".git"), "content": "gitdir: /tmp/x\n"}, "Write")
    _denied(r, SP, ".git")


def test_git_separate_dir_denied(nogit):
    for cmd in ("git init --separate-git-dir=/tmp/x", "git init --separate /tmp/x"):
        _denied(pre(nogit, cmd), SP, "--separate")


def test_writes_inside_git_directory_unchanged(labs):
    """With .git a real directory, a write aimed at `.git` lands inside it (or fails)."""
    for cmd in ("git add README.md", "git commit -qm x"):
        not_denied(labs["normal"], cmd)


# --- git bundle create: a copy of every file of the bundled commits ---------------------------
@pytest.fixture(scope="module")
def tracked(tmp_path_factory):
    """A repository whose index tracks a secret (.env added by mistake)."""
    proj = Project(str(tmp_path_factory.mktemp("resid-tracked")))
    proj.install()
    subprocess.run(["git", "init", "-q", proj.dir], check=True)
    proj.write("README.md", "readme\n")
    proj.write(".env", "TOKEN=x\n")
    subprocess.run(["git", "-C", proj.dir, "add", "README.md", ".env"], check=True)
    proj.research()
    return proj


BUNDLE_DENY = [
    "git bundle create /tmp/all.bundle --all",
    "git bundle create - HEAD",
    "git -C . bundle create repo.bundle main -- src",  # a pathspec leaves no file out
    "git bundle create -q /tmp/b.bundle HEAD~3..HEAD",
]


@pytest.mark.parametrize("cmd", BUNDLE_DENY)
def test_bundle_of_tracked_secret_denied(tracked, cmd):
    _denied(pre(tracked, cmd), BP, "git bundle create")


def test_bundle_without_tracked_secret_passes(labs):
    r = _pre(labs, "normal", "git bundle create /tmp/all.bundle --all")
    assert not r.denied, r.denied
    for mode in ("normal", "safe"):
        for cmd in ("git bundle verify /tmp/all.bundle", "git bundle list-heads /tmp/all.bundle"):
            not_denied(labs[mode], cmd)
