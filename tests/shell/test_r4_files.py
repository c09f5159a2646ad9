"""Copies and moves into a directory (each source lands at DEST/its name), person start-up
files in HOME (code the person runs later, outside every sandbox), and PowerShell spellings
(parenthesised expressions, parameter-name prefixes, moved sources, pipeline-fed deletes,
backslash paths). Each row goes through sanetools.py in a project with the hooks installed;
@T is a temp dir outside the project, @P the project, @H its HOME."""

import os

import pytest

from shell.labs import expect, pre, two_mode_labs, verdict

SP, SM, BP, DS = "[self-protection]", "[safemode]", "[blocked-path]", "[destructive]"


FILES = {
    "README.md": "readme\n",
    "a.txt": "a\n",
    ".env": "SECRET=1\n",
    "src/a.py": "x = 1\n",
    "sub/b.txt": "b\n",
}
SCRATCH = {"ev/.mcp.json": '{"mcpServers": {}}', "ev/settings.json": "{}", "ev/a.txt": "x"}


@pytest.fixture(scope="module")
def labs(tmp_path_factory):
    return two_mode_labs(tmp_path_factory, "r4files", FILES, SCRATCH)


def run(labs, mode, cmd):
    return verdict(pre(labs[mode], cmd))


def check(labs, cmd, mode, code):
    expect(labs[mode], cmd, code)


# -- a copy or move into a directory: each source lands at DEST/its name ---------------------

INTO_DIR_DENIED = [
    "cp @T/ev/.mcp.json .",
    "mv @T/ev/.mcp.json ./",
    "cp @T/ev/.mcp.json $PWD",
    "install -m644 @T/ev/.mcp.json .",
    "cp @T/ev/.mcp.json @P",
    "cp @T/ev/.mcp.json @P/",
    "cp -f @T/ev/a.txt @T/ev/.mcp.json .",
    "cd @T/ev && mv .mcp.json @P",
    "cd @T/ev && cp .mcp.json @P/.",
    "ln @T/ev/.mcp.json .",
    "ln -sf @T/ev/.mcp.json .",
    "cp @T/ev/settings.json .claude",
    "cp @T/ev/settings.json .claude/",
    "install @T/ev/settings.json .claude",
    "mv @T/ev/settings.json ./.claude/",
    "cp -t .claude @T/ev/settings.json",
    "rsync @T/ev/.mcp.json .",
    "rsync -a @T/ev/.mcp.json ./",
    "scp @T/ev/.mcp.json .",
    "cp -- @T/ev/.mcp.json .",
    "cp @T/ev/.mcp.json sub/..",
    "cp @T/ev/.mcp.json ~+",
    "cp @T/ev/.mcp.json ${PWD}/",
    'cp @T/ev/.mcp.json "$PWD"',
    "gcp @T/ev/.mcp.json .",
    "cp -v @T/ev/.mcp.json .",
    "cp --target-directory=. @T/ev/.mcp.json",
    "install -t . @T/ev/.mcp.json",
    "ln -t . -s @T/ev/.mcp.json",
    "mv -t ./ @T/ev/.mcp.json",
    "mv -f @T/ev/.mcp.json @P/.",
    "cd @T && mv ev/.mcp.json @P",
    "cp @T/ev/.mcp.json $(pwd)",
    "cp -t. @T/ev/.mcp.json",
    "mv --target-directory . @T/ev/.mcp.json",
    "cp -at . @T/ev/.mcp.json",
    "install -Dm644 -t . @T/ev/.mcp.json",
    "ln -s @T/ev/.mcp.json",
    "ln -sft .claude @T/ev/settings.json",
    "cd .claude && cp @T/ev/settings.json .",
    "cd sub && mv @T/ev/.mcp.json ..",
    "rsync -av --progress @T/ev/settings.json .claude/",
]


@pytest.mark.parametrize("cmd", INTO_DIR_DENIED)
def test_into_dir_denied(labs, cmd):
    check(labs, cmd, "normal", SP)


INTO_DIR_ALLOWED = [
    "cp src/a.py .",
    "mv a.txt .",
    "mv a.txt ./",
    "cp @T/ev/a.txt .",
    "cp @T/ev/a.txt sub/",
    "cp README.md sub",
    "install -m644 @T/ev/a.txt .",
    "ln -s @T/ev/a.txt .",
    "rsync -a @T/ev/a.txt ./",
    "cp -r src sub/",
]


@pytest.mark.parametrize("cmd", INTO_DIR_ALLOWED)
def test_into_dir_allowed(labs, cmd):
    check(labs, cmd, "normal", None)


# -- start-up files in HOME: code the person's shell, editor or tools run later ---------------

STARTUP_DENIED = [
    "echo x > ~/.bash_aliases",
    "echo x >> @H/.bash_aliases",
    "echo 'run-shell \"rm x\"' >> ~/.tmux.conf",
    "echo x > ~/.config/tmux/tmux.conf",
    "echo '.shell rm x' > ~/.sqliterc",
    "printf '\\\\! rm x' > ~/.psqlrc",
    "echo x > ~/.psqlrc-14",
    "echo x >> ~/.zshrc.local",
    "echo x > ~/.zsh/aliases.zsh",
    "echo x > ~/.oh-my-zsh/custom/x.zsh",
    "echo x > ~/.profile.d/x.sh",
    "echo 'autocmd VimEnter * !rm x' >> ~/.vimrc",
    "mkdir -p ~/.config/nvim && echo x > ~/.config/nvim/init.lua",
    "echo x > ~/.vim/plugin/x.vim",
    "echo x > ~/.ipython/profile_default/startup/00.py",
    "echo x > ~/.Rprofile",
    "echo x > ~/.gradle/init.d/x.gradle",
    "echo x > ~/.config/git/hooks/pre-commit",
    "echo x > ~/.config/powershell/Microsoft.PowerShell_profile.ps1",
    "echo x > ~/.config/pip/pip.conf",
    "echo x > ~/.gdbinit",
    "echo x > ~/.cargo/config.toml",
    "echo x > ~/.claude/CLAUDE.md",
    "tee -a ~/.bash_aliases <<< x",
    "sed -i s/a/b/ ~/.bash_aliases",
    "cp @T/ev/a.txt ~/.tmux.conf",
    "cd @T/ev && cp a.txt ~/.bash_aliases",
    "echo x > ~/.config/autostart/x.desktop",
    "cp -t ~ @T/x/.bash_aliases",
    "ln -sf @T/ev/a.txt ~/.bash_aliases",
    "install -m600 @T/ev/a.txt ~/.psqlrc",
    "dd of=$HOME/.tmux.conf if=@T/ev/a.txt",
    "crontab - <<< '* * * * * rm x'",
    "crontab @T/ev/a.txt",
    "echo '* * * * * x' | crontab",
    "crontab -u me -",
    "EDITOR=true crontab -e",
]


@pytest.mark.parametrize("cmd", STARTUP_DENIED)
def test_startup_denied(labs, cmd):
    check(labs, cmd, "normal", SP)


@pytest.mark.parametrize(
    "cmd", ["echo x >> ~/.npmrc", "echo x > ~/.ssh/rc", "echo 'Host *' >> ~/.ssh/config"]
)
def test_startup_blocked_or_protected(labs, cmd):
    decision, reason = run(labs, "normal", cmd)
    assert decision == "deny" and reason[:6] in (SP[:6], BP[:6]), (cmd, reason)


def test_copy_into_home_denied(labs):
    src = os.path.join(labs["normal"].tmp, "x", ".bash_aliases")
    os.makedirs(os.path.dirname(src), exist_ok=True)
    with open(src, "w") as fh:
        fh.write("x")
    check(labs, "cp @T/x/.bash_aliases ~/", "normal", SP)
    check(labs, "mv @T/x/.bash_aliases @H", "normal", SP)


STARTUP_ALLOWED = [
    "cat ~/.bashrc",
    "cat ~/.bash_aliases",
    "grep alias ~/.zshrc.local",
    "cat ~/.tmux.conf ~/.psqlrc ~/.sqliterc",
    "ls ~/.config/nvim",
    "head ~/.vimrc",
    "cp ~/.bashrc @T/bashrc.bak",
    "crontab -l",
    "crontab -u me -l",
    "echo x > @T/.bashrc",
    "cp src/a.py sub/",
    "sed -i s/x/y/ src/a.py",
]


@pytest.mark.parametrize("cmd", STARTUP_ALLOWED)
def test_startup_allowed(labs, cmd):
    check(labs, cmd, "normal", None)


# -- PowerShell -------------------------------------------------------------------------------


def ps(labs, mode, cmd):
    return verdict(pre(labs[mode], cmd, "PowerShell"))


PS_DENIED = [
    # (command, mode, code); code None: any deny or ask
    ("Get-Content (Join-Path . .env)", "safe", None),
    ("Compare-Object (gc .env) x", "safe", None),
    ("Get-Content (Join-Path . .env)", "normal", None),
    ("Set-Content -Value x -Pat .claude/settings.json", "normal", SP),
    ("Set-Content -Va x -Pa .claude/settings.json", "normal", SP),
    ("Copy-Item -Dest .claude/settings.json -Pa @T/ev/a.txt", "normal", SP),
    ("Add-Content -Value x -LiteralP .claude/settings.json", "normal", SP),
    ("mv README.md @T/x", "safe", None),
    ("Move-Item -Path README.md -Destination @T/x", "safe", None),
    ("move README.md @T/x", "safe", None),
    ("gci scripts\\hooks -Recurse | Remove-Item -Force", "normal", None),
    ("Get-ChildItem .claude | Remove-Item", "normal", None),
    ("ls scripts/hooks | rm -Recurse -Force", "normal", None),
    ("Get-Content ~\\.config\\sane-hooks\\key", "normal", None),
    ("Get-Content ~\\.config\\sane-hooks\\key", "safe", None),
    ("gc .claude\\..\\.env", "normal", BP),
    ("Set-Content -Path .claude\\settings.json -Value x", "normal", SP),
    ("Copy-Item @T/ev/.mcp.json .", "normal", SP),
    ("cpi @T/ev/.mcp.json .", "normal", SP),
    ("Copy-Item -Path @T/ev/settings.json -Destination .claude", "normal", SP),
    ("Move-Item @T/ev/.mcp.json .\\", "normal", SP),
    ("mi @T/ev/.mcp.json .", "normal", SP),
    ("mi README.md @T/x", "safe", None),
    ("New-Item -Name .mcp.json -Value x", "normal", SP),
    ("New-Item -Path .claude -Name settings.json -ItemType File", "normal", SP),
    ("Rename-Item a.txt .mcp.json", "normal", SP),
    ("rni -Path a.txt -NewName .mcp.json", "normal", SP),
    ("ac .claude/settings.json x", "normal", SP),
    ("Out-File -Enc utf8 -FilePath .claude/settings.json", "normal", SP),
    ("Out-File -Fi .claude/settings.json", "normal", SP),
    ("Remove-Item -Pa .claude -Rec -Fo", "normal", SP),
    ("Remove-Item -Path:.claude -Recurse", "normal", SP),
    ("Get-ChildItem -Path .claude | Remove-Item", "normal", SP),
    ("gc $(Join-Path . .env)", "safe", None),
    ("gci .claude | Select-Object -First 9 | Remove-Item", "normal", SP),
    ("gci -Path scripts | sort | Remove-Item -Recurse", "normal", SP),
    ("Get-Content @T/ev/a.txt | Remove-Item", "safe", None),
    ("Copy-Item @T/ev/.mcp.json $PWD", "normal", None),
    ("Copy-Item @T/ev/.mcp.json $pwd/", "normal", None),
    ("Set-Content $HOME/.bash_aliases x", "normal", SP),
    ("Set-Content ~/.bash_aliases x", "normal", SP),
    ("Add-Content -Pa ~\\.tmux.conf -Va x", "normal", SP),
    ("Set-Content $env:HOME/.bashrc x", "normal", SP),
    ("Set-Content -Path $home\\.bash_aliases -Value x", "normal", SP),
    ("Copy-Item @T/ev/.mcp.json $Pwd", "normal", SP),
    ("Get-Content $env:HOME/.config/sane-hooks/key", "safe", None),
    ("Get-Content @(Resolve-Path .env)", "normal", None),
    ("type ~\\.config\\sane-hooks\\key", "normal", None),
]


@pytest.mark.parametrize("cmd,mode,code", PS_DENIED)
def test_ps_denied(labs, cmd, mode, code):
    decision, reason = ps(labs, mode, cmd)
    assert decision in ("deny", "ask"), (cmd, mode, reason)
    if code:
        assert reason.startswith(code), (cmd, mode, reason)


PS_ALLOWED = [
    ("Get-Content README.md", "normal"),
    ("Get-Content README.md", "safe"),
    ("Get-Content src\\a.py", "safe"),
    ("Set-Content -Path a.txt -Value x", "normal"),
    ("Set-Content -Pa a.txt -Va x", "normal"),
    ("mv a.txt b.txt", "normal"),
    ("Copy-Item src\\a.py sub\\", "normal"),
    ("Get-ChildItem src | Select-Object Name", "normal"),
    ("Get-ChildItem sub | Remove-Item", "normal"),
    ("Copy-Item src/a.py sub", "normal"),
    ("Move-Item a.txt sub\\", "normal"),
    ("New-Item -ItemType Directory -Path build", "normal"),
    ("Rename-Item a.txt b.txt", "normal"),
    ("Get-ChildItem -Recurse src | Select-String TODO", "normal"),
    ("Out-File -FilePath out.txt -Encoding utf8", "normal"),
    ("Get-Content $HOME/.bashrc", "normal"),
    ("Get-Content ~\\.bash_aliases", "normal"),
    ("Set-Content -Path $PWD/notes.txt -Value x", "normal"),
]


@pytest.mark.parametrize("cmd,mode", PS_ALLOWED)
def test_ps_allowed(labs, cmd, mode):
    decision, reason = ps(labs, mode, cmd)
    assert decision in (None, "allow"), (cmd, mode, reason)


@pytest.mark.parametrize(
    "rel,code",
    [(".bash_aliases", SP), (".tmux.conf", SP), (".config/nvim/init.lua", SP), (".notes", None)],
)
def test_startup_write_tool(labs, rel, code):
    proj = labs["normal"]
    proj.prompt("rb-")
    path = os.path.join(proj.home, rel)
    payload = proj.payload(
        "PreToolUse", tool_name="Write", tool_input={"file_path": path, "content": "x"}
    )
    spec = proj.hook("sanetools", payload).spec
    reason = spec.get("permissionDecisionReason") or ""
    if code is None:
        assert spec.get("permissionDecision") in (None, "allow"), reason
    else:
        assert spec.get("permissionDecision") == "deny" and reason.startswith(code), reason
