"""Holes and false positives of default-deny outside git, secrets and databases: arithmetic on
values the analysis cannot see, package installs that change the machine wherever HOME is,
PowerShell's CLAUDECODE removal, GNU long-option prefixes in archive handlers, and read-only
forms of system tools. Each row goes through sanetools.py in a project with the hooks
installed (mode, [code], a piece of the reason)."""

import pytest

from shell.labs import denied, not_denied, pre, two_mode_labs

SP, SM, PO = "[self-protection]", "[safemode]", "[person-only]"
ARITH = "arithmetic on"

DENY = [
    # bash evaluates the value of a variable an arithmetic context names; a subscript in that
    # value runs its $(...): a value the analysis cannot see is code nobody saw
    ("x=$(cat f); echo $((x))", "safe", SM, ARITH),
    ("x=$(cat f); echo $(( $x + 1 ))", "safe", SM, ARITH),
    ("read -r n < f; (( n > 2 )) && echo big", "safe", SM, ARITH),
    ("read n; for ((i = 0; i < n; i++)); do :; done", "safe", SM, ARITH),
    ("x=`cat f`; let y=x+1", "safe", SM, ARITH),
    ("read v < f; [[ $v -eq 1 ]]", "safe", SM, ARITH),
    ("[[ $FOO -lt 3 ]] && ls", "safe", SM, ARITH),
    ("echo $((EVIL))", "safe", SM, ARITH),
    ("echo $[EVIL]", "safe", SM, ARITH),
    ("s=abc; read i; echo ${s:i:1}", "safe", SM, ARITH),
    ("read i; echo ${arr[i]}", "safe", SM, ARITH),
    ("read i; echo ${#arr[$i]}", "safe", SM, ARITH),
    ("read -r k < f; declare -i n=$k", "safe", SM, ARITH),
    ("declare -i n; n=$(cat f)", "safe", SM, ARITH),
    ("x=foo; echo $((x))", "safe", SM, ARITH),
    ("echo $(( $(cat f) ))", "safe", SM, ARITH),
    ("read i < f; read 'a[i]' <<< 1", "safe", SM, ARITH),
    ("for i in $(cat f); do echo $((i)); done", "safe", SM, ARITH),
    ("for i in $(seq -f 'a[%g]' 1 2); do echo $((i)); done", "safe", SM, ARITH),
    ("seq() { cat f; }; for i in $(seq 1 2); do echo $((i)); done", "safe", SM, ARITH),
    ("x=1; read x < f; echo $((x))", "safe", SM, ARITH),
    ("x=$((1)); read x < f; echo $((x))", "safe", SM, ARITH),
    ("read n < f; echo ${!n}", "safe", SM, "${!n}"),
    ("f() { echo $(($1)); }; f 2", "safe", SM, ARITH),
    # with a file operand wc prints the file's name too: text the hooks never saw
    ("x=$(wc -l README.md); echo $((x + 1))", "safe", SM, ARITH),
    ("read i; a[i]=1", "safe", SM, ARITH),
]

PASS = [
    # literal numbers, and names set to numbers or to arithmetic earlier in the command
    "echo $((1 + 2))",
    "echo $[6 * 7]",
    "echo $(( 16#ff + 0x1f + 2#101 ))",
    "x=5; echo $((x * 2))",
    "x=5; y=x; echo $((y + 1))",
    "i=0; while (( i < 3 )); do i=$((i + 1)); done",
    "for ((i = 0; i < 3; i++)); do echo $i; done",
    "for i in 1 2 3; do echo $((i * 2)); done",
    "for i in {1..4}; do echo $((i * i)); done",
    "for i in $(seq 1 5); do echo $((i * 2)); done",
    "let a=1 b=a+2; echo $b",
    "n=3; [[ $n -ge 2 ]] && echo ok",
    "declare -i n=4; n=n+1; echo $((n))",
    "echo $((RANDOM % 6)) $(($# + $?)) $$",
    "s=abcdef; echo ${s:1:3} ${s: -2}",
    'a=(x y z); echo "${a[1]}" "${#a[@]}" "${a[@]:1:2}"',
    "x=abc; echo ${#x} $(( ${#x} + 1 ))",
    '[ "$X" -eq 1 ] || echo no',
    "a[0]=x; a[1]=y; echo ${a[1]}",
    'declare -A m=([a]=1); m[key]=2; echo "${m[key]}" "${m[$1]}"',
]


@pytest.fixture(scope="module")
def labs(tmp_path_factory):
    files = {"README.md": "readme\n", ".env": "TOKEN=x\n", "~/.ssh/": None}
    return two_mode_labs(tmp_path_factory, "misc", files)


def _pre(labs, mode, cmd, tool="Bash"):
    return pre(labs[mode], cmd, tool)


@pytest.mark.parametrize("cmd,mode,code,why", DENY, ids=["%s:%s" % (r[1], r[0][:50]) for r in DENY])
def test_hole_denied(labs, cmd, mode, code, why):
    denied(labs[mode], cmd, code, why)


@pytest.mark.parametrize("cmd", [r[0] for r in DENY if r[1] == "safe" and r[2] == SM])
def test_unseen_code_runs_in_normal_mode(labs, cmd):
    """`unknown` is denied under safemode only: normal mode keeps ordinary work going."""
    not_denied(labs["normal"], cmd)


@pytest.mark.parametrize("cmd", PASS)
def test_seen_forms_pass(labs, cmd):
    for mode in ("normal", "safe"):
        not_denied(labs[mode], cmd)


# a package install changes the machine's programs: denied under safemode even when HOME (where
# it writes) lives in the temp dir, as on CI
INSTALLS = [
    ("cargo install ripgrep", "cargo install"),
    ("go install golang.org/x/tools/gopls@latest", "go install"),
    ("uv tool install ruff", "uv tool install"),
    ("scoop install git", "scoop"),
]


@pytest.mark.parametrize("cmd,why", INSTALLS)
def test_install_denied_with_home_in_temp(labs, cmd, why):
    proj = labs["safe"]
    r = pre(proj, cmd, env={"TMPDIR": proj.root})
    assert r.denied and r.denied.startswith(SM), (cmd, r.denied)
    assert why in r.denied, r.denied
    assert not _pre(labs, "normal", cmd).denied


# PowerShell: removing or changing CLAUDECODE, then code, is the person's (as in bash)
PWSH = [
    ("$env:CLAUDECODE=''; python scripts/hooks/sane.py reset safemode", "normal", PO),
    ('$env:CLAUDECODE = ""; node x.js', "normal", PO),
    ("$env:CLAUDE_CODE_SESSION_ID=$null; .\\x.exe", "normal", PO),
    ("Remove-Item Env:CLAUDECODE; python scripts/hooks/sane.py reset", "normal", PO),
    ("Remove-Item Env:CLAUDECODE; python /tmp/s/cli.py reset", "normal", PO),
    ("ri env:\\CLAUDE*; pwsh -File x.ps1", "safe", PO),
    ("Set-Item -Path Env:CLAUDECODE -Value 0; python x.py", "normal", PO),
    ("[Environment]::SetEnvironmentVariable('CLAUDECODE', $null); python x.py", "normal", PO),
    ("[System.Environment]::SetEnvironmentVariable('CLAUDECODE','')", "safe", PO),
]
PWSH_PASS = ["Get-ChildItem env:CLAUDECODE", "echo $env:CLAUDECODE", "Get-Content README.md"]


@pytest.mark.parametrize("cmd,mode,code", PWSH)
def test_powershell_claudecode(labs, cmd, mode, code):
    r = _pre(labs, mode, cmd, "PowerShell")
    assert r.denied and r.denied.startswith(code), (cmd, mode, r.denied)
    # a call to our CLI's person-only subcommand is the person's, as in bash
    assert ("sane.py" if "sane.py" in cmd else "CLAUDECODE") in r.denied, r.denied


@pytest.mark.parametrize("cmd", PWSH_PASS)
def test_powershell_reads_pass(labs, cmd):
    for mode in ("normal", "safe"):
        not_denied(labs[mode], cmd, "PowerShell")


# GNU long-option prefixes (getopt_long): any unambiguous prefix is the option, and an exact
# name wins over a longer one it begins
PREFIX = [
    ("tar --extr -f a.tar", "normal", SP, "changes files under"),
    ("tar --to-c=sh -xf a.tar -C /tmp/out", "safe", SM, "runs a command"),
    ("tar --cre -f .claude/settings.json src", "normal", SP, "settings.json"),
    ("tar --appe -f .claude/settings.json README.md", "normal", SP, "settings.json"),
    ("zip -TT=sh -T a.zip README.md", "safe", SM, "zip -TT"),
    ("zip --unzip=sh -T a.zip README.md", "safe", SM, "zip -TT"),
    ("gdb -batch --eval-c='shell rm .claude/settings.json' ./a", "normal", SP, "settings.json"),
    ("gdb -batch -iex='shell rm .claude/settings.json' ./a", "normal", SP, "settings.json"),
    ("dpkg --inst x.deb", "safe", SM, "/usr"),
]
PREFIX_PASS = ["tar --list -f a.tar", "tar -t --file a.tar", "tar -tvf a.tar"]


@pytest.mark.parametrize("cmd,mode,code,why", PREFIX)
def test_long_option_prefix(labs, cmd, mode, code, why):
    denied(labs[mode], cmd, code, why)


@pytest.mark.parametrize("cmd", PREFIX_PASS)
def test_exact_option_wins(labs, cmd):
    for mode in ("normal", "safe"):
        not_denied(labs[mode], cmd)


# read-only forms of system tools pass; their changing forms, dry runs that still run code and
# alias names stay `unknown` (denied under safemode only)
READ_ONLY = [
    "bc <<< '1+2'",
    "echo 'scale=3; 10/3' | bc -l",
    "mount | head",
    "mount -l -t ext4",
    "stty size",
    "stty -a",
    "stty -g",
]
UNKNOWN = [
    ("stty raw", "stty"),
    ("stty -echo", "stty"),
    ("mount -a", "mount"),
    ("mount -o remount,rw /mnt", "mount"),
    ("make -n", "still runs $(MAKE)"),
    ("make --dry-run build", "still runs $(MAKE)"),
    ("ll", "ll"),
]


@pytest.mark.parametrize("cmd", READ_ONLY)
def test_read_only_system_forms(labs, cmd):
    for mode in ("normal", "safe"):
        not_denied(labs[mode], cmd)


@pytest.mark.parametrize("cmd,why", UNKNOWN)
def test_unknown_forms_safemode_only(labs, cmd, why):
    denied(labs["safe"], cmd, SM, why)
    assert not _pre(labs, "normal", cmd).denied


# a value seen when arithmetic reads it, then changed to one nobody saw: a loop or a function
# body reads it again with the new value
LATER = [
    ("x=1; while read l; do echo $((x)); x=$l; done < README.md", "later sets"),
    ("x=1; f() { echo $((x)); }; x=$(cat README.md); f", "later sets"),
    ("n=3; i=0; while (( i < n )); do read n; i=$((i + 1)); done", "later sets"),
    ("declare -i c=0; read c < README.md", "declare -i"),
]


@pytest.mark.parametrize("cmd,why", LATER)
def test_value_changed_after_arithmetic(labs, cmd, why):
    denied(labs["safe"], cmd, SM, why)


def test_positional_offset_is_arithmetic(labs):
    r = _pre(labs, "safe", "read i; set -- a b c; echo ${@:i}")
    assert r.denied and r.denied.startswith(SM) and ARITH in r.denied, r.denied
    assert not _pre(labs, "safe", "set -- a b c; echo ${@:2} ${*:1:2}").denied


# PowerShell arrays: every item of `a, b` is an argument (Remove-Item removes both)
PWSH_ARRAYS = [
    ("Remove-Item README.md, .claude/settings.json", "settings.json"),
    ("Remove-Item -Path README.md,scripts/hooks/sanetools.py", "sanetools.py"),
    ("Copy-Item README.md , x.txt .claude/settings.json", "settings.json"),
]


@pytest.mark.parametrize("cmd,why", PWSH_ARRAYS)
def test_powershell_array_items(labs, cmd, why):
    denied(labs["normal"], cmd, SP, why, "PowerShell")


# PowerShell: a program the hooks do not know is unknown; a program that is not a cmdlet is
# judged by the shell analyser's profiles; Get-/Test-/Select- ... cmdlets only read
PWSH_UNKNOWN = [
    (".\\evil.ps1", "script or program file"),
    ("Stop-Process -Name code", "Stop-Process"),
    ("Set-ExecutionPolicy Bypass", "Set-ExecutionPolicy"),
    ("frob x", "frob"),
    ("npm test 2>&1", "npm test"),
    ("git push --force", "git push"),
]
PWSH_READS = ["git status", "Get-Process | Sort-Object CPU", "Get-ChildItem src", "ls"]


@pytest.mark.parametrize("cmd,why", PWSH_UNKNOWN)
def test_powershell_default_deny(labs, cmd, why):
    denied(labs["safe"], cmd, SM, why, "PowerShell")


@pytest.mark.parametrize("cmd", PWSH_READS)
def test_powershell_reads(labs, cmd):
    for mode in ("normal", "safe"):
        not_denied(labs[mode], cmd, "PowerShell")


def test_powershell_read_verb_names_a_secret(labs):
    denied(labs["normal"], "Get-FileHash .env", "[blocked-path]", ".env", "PowerShell")
