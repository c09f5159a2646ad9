"""Files in the person's HOME that a program the person runs later reads as code: shell rc
files and whatever they source, editor and REPL start-up files, build-tool init scripts,
terminal multiplexer and debugger configs, package-manager configs that name a program.
Code planted there runs with the person's rights, outside every check and sandbox, when the
person next opens a shell, vim, psql, tmux, gradle, ipython... Reading them stays allowed."""

from __future__ import annotations

# files (relative to HOME)
FILES = frozenset(
    (
        ".pam_environment",
        ".xprofile",
        ".xinitrc",
        ".xsession",
        ".xsessionrc",
        ".config/fish/config.fish",
        ".config/nushell/config.nu",
        ".config/nushell/env.nu",
        ".tmux.conf",  # run-shell, if-shell
        ".screenrc",  # exec
        ".sqliterc",  # .shell / .system
        ".psqlrc",  # \! runs a shell command
        ".myclirc",
        ".inputrc",
        ".vimrc",  # autocmds run commands when vim opens
        ".gvimrc",
        ".exrc",
        ".nexrc",
        ".emacs",
        ".gdbinit",  # shell, python
        ".lldbinit",
        ".Rprofile",
        ".Renviron",
        ".pythonrc",
        ".pythonrc.py",
        ".irbrc",
        ".pryrc",
        ".ghci",
        ".npmrc",  # script-shell, node-options --require
        ".yarnrc",
        ".yarnrc.yml",  # yarnPath runs a file
        ".pydistutils.cfg",
        ".mailcap",  # commands run to open attachments
        ".envrc",
        ".direnvrc",
        ".ssh/rc",  # run by sshd at each login
        ".ssh/config",  # ProxyCommand, LocalCommand, Match exec
        ".ssh/environment",
        ".ssh/authorized_keys",  # command= and who may log in
        ".ssh/authorized_keys2",
        ".cargo/config",  # build.rustc-wrapper, target runner
        ".cargo/config.toml",
        ".gradle/init.gradle",
        ".gradle/init.gradle.kts",
        ".gradle/gradle.properties",
        ".claude/CLAUDE.md",  # every later session's instructions
    )
)
# directories whose files the person's session, editor or tools run (or find first on PATH)
DIRS = (
    ".bashrc.d",
    ".oh-my-zsh",
    ".config/fish",
    ".config/nushell",
    ".config/systemd/user",
    ".config/autostart",
    ".config/environment.d",
    ".config/tmux",
    ".config/nvim",
    ".config/vim",
    ".vim",
    ".emacs.d",
    ".config/emacs",
    ".config/powershell",  # $PROFILE
    ".config/git/hooks",
    ".config/direnv",
    ".config/pip",
    ".pip",
    ".config/npm",
    ".config/yarn",
    ".ghc",
    ".ipython",  # profile_*/startup/*.py, ipython_config.py
    ".jupyter",  # jupyter_*_config.py
    ".gradle/init.d",
    ".ssh/config.d",
    ".local/bin",
    "bin",
)
# a first path part starting with one of these: rc files and the variants they source
# (.bash_aliases, .bash_profile, .zshrc.local, .zsh/, .profile.d, .kshrc, .cshrc)
PREFIXES = (
    ".bashrc",
    ".bash_",
    ".profile",
    ".zsh",
    ".zprofile",
    ".zlog",
    ".zprezto",
    ".kshrc",
    ".mkshrc",
    ".cshrc",
    ".tcshrc",
    ".login",
    ".logout",
    ".psqlrc",
)


def is_startup(rel: str) -> bool:
    """`rel` (a path relative to HOME, normalised) is a start-up file or under a start-up
    directory."""
    if rel in FILES or rel in DIRS or any(rel.startswith(d + "/") for d in DIRS):
        return True
    return rel.split("/", 1)[0].startswith(PREFIXES)
