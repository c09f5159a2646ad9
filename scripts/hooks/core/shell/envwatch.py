"""Changes to the environment that change what later words mean: a PATH that puts a directory
first where nobody has seen the programs (bare names then run unseen files), CLAUDECODE
removed or changed (the CLI then takes its caller for the person), and text bash evaluates as
a variable name or arithmetic (an array subscript in it runs `$(...)`)."""

from __future__ import annotations

# directories whose programs are the system's own: a PATH made only of these (and $PATH)
# finds nothing new
_SYSTEM_DIRS = (
    "/bin",
    "/usr/bin",
    "/usr/local/bin",
    "/sbin",
    "/usr/sbin",
    "/usr/local/sbin",
    "/opt/homebrew/bin",
)
# shell builtins and keywords: bash never looks these up in PATH
_NO_LOOKUP = frozenset(
    (
        "echo printf cd pushd popd read mapfile readarray declare typeset export local readonly "
        "unset let test [ [[ : true false set shift eval source . trap alias unalias hash type "
        "command builtin exit return pwd wait jobs getopts umask ulimit shopt enable compgen "
        "complete compopt dirs disown fg bg help history kill logout suspend times caller "
        "break continue"
    ).split()
)
# programs that run their command in a fresh environment (no CLAUDECODE); a tmux or screen
# session started by the person has theirs
_FRESH_ENV = frozenset(
    (
        "su",
        "runuser",
        "doas",
        "pkexec",
        "systemd-run",
        "machinectl",
        "at",
        "batch",
        "tmux",
        "screen",
    )
)
# text that makes bash run a command when it evaluates a subscript inside a name or number
_CODE_MARKS = ("$(", "`", "<(", ">(")

# variables whose value is a command some program runs, and ones that load code
ENV_COMMANDS = frozenset(
    (
        "GIT_SSH_COMMAND",
        "GIT_SSH",
        "GIT_EDITOR",
        "GIT_SEQUENCE_EDITOR",
        "GIT_PAGER",
        "GIT_ASKPASS",
        "SSH_ASKPASS",
        "SUDO_ASKPASS",
        "EDITOR",
        "VISUAL",
        "PAGER",
        "MANPAGER",
        "GIT_EXTERNAL_DIFF",
        "PROMPT_COMMAND",
        "LESSOPEN",
        "LESSCLOSE",
        "GIT_PROXY_COMMAND",
        "AWS_PAGER",
        "GH_PAGER",
        "GH_EDITOR",
        "GH_BROWSER",
        "BROWSER",
        "SYSTEMD_PAGER",
        "SYSTEMD_EDITOR",
        "PSQL_PAGER",
        "KUBE_EDITOR",
        "KUBECTL_EXTERNAL_DIFF",
        "SUDO_EDITOR",
        "FCEDIT",
    )
)


ENV_LOADS = frozenset(
    (
        "LD_PRELOAD",
        "LD_AUDIT",
        "DYLD_INSERT_LIBRARIES",
        "BASH_ENV",
        "ENV",
        "PERL5OPT",
        "RUBYOPT",
        "GIT_CONFIG_PARAMETERS",
        "GIT_CONFIG_COUNT",
        "PYTHONSTARTUP",
        "PYTHONHOME",
        "ZDOTDIR",
        "PYTHONINSPECT",
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_SYSTEM",
        "GIT_CONFIG",
        "GIT_EXEC_PATH",
        "GIT_TEMPLATE_DIR",
        "GIT_DIR",
        "NODE_OPTIONS_FILE",
        "PYTHONUSERBASE",
        "npm_config_script_shell",
        "NPM_CONFIG_SCRIPT_SHELL",
        "CURL_HOME",
        "WGETRC",
        "PROMPT_COMMAND",
        "PS4",
    )
)

# Environment is default-deny: a variable set for a program (prefix, export, `env N=V`) may
# make it run a command, load code, read a config or write a file (TAR_OPTIONS, GIT_DIR,
# HOME, LD_PRELOAD ...). Harmless: these, LC_*, and flag values (1, true, off) of names
# without a risky part.
_PLAIN_ENV = frozenset(
    (
        "LANG LANGUAGE TZ TERM COLORTERM TERM_PROGRAM NO_COLOR FORCE_COLOR CLICOLOR "
        "CLICOLOR_FORCE COLUMNS LINES CI DEBUG VERBOSE QUIET NODE_ENV RAILS_ENV RACK_ENV "
        "APP_ENV MIX_ENV FLASK_ENV FLASK_DEBUG BABEL_ENV RUST_LOG RUST_BACKTRACE "
        "RUST_LIB_BACKTRACE CARGO_TERM_COLOR PYTHONUNBUFFERED PYTHONDONTWRITEBYTECODE "
        "PYTHONHASHSEED PYTHONIOENCODING PYTHONUTF8 PYTHONFAULTHANDLER PYTHONDEVMODE "
        "PYTHONNOUSERSITE PYTHONSAFEPATH PYTHONTRACEMALLOC GOOS GOARCH GOARM GOAMD64 "
        "CGO_ENABLED GO111MODULE DEBIAN_FRONTEND GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL "
        "GIT_AUTHOR_DATE GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_COMMITTER_DATE "
        "GIT_TERMINAL_PROMPT GIT_OPTIONAL_LOCKS GIT_ADVICE POSIXLY_CORRECT TIME_STYLE "
        "LS_COLORS GREP_COLOR GREP_COLORS TIMEFORMAT SOURCE_DATE_EPOCH LOG_LEVEL LOGLEVEL "
        "PORT HOST HOSTNAME NODE_NO_WARNINGS npm_config_loglevel NPM_CONFIG_LOGLEVEL "
        "PIP_DISABLE_PIP_VERSION_CHECK PIP_NO_INPUT PYTEST_XDIST_AUTO_NUM_WORKERS "
        "DOCKER_BUILDKIT COMPOSE_DOCKER_CLI_BUILD BUILDKIT_PROGRESS JOBS AWS_PROFILE AWS_REGION "
        "AWS_DEFAULT_REGION HTTP_PROXY HTTPS_PROXY NO_PROXY ALL_PROXY http_proxy https_proxy "
        "no_proxy all_proxy PGHOST PGPORT PGUSER PGDATABASE PGSSLMODE PGAPPNAME"
    ).split()
)
# a name with one of these parts names a place, a program or options: no value is a flag
_RISKY_PARTS = (
    "HOME DIR PATH FILE CONF RC OPT PRELOAD LIBRARY AUDIT COMMAND CMD SHELL EDITOR PAGER "
    "BROWSER EXEC PROG HOOK PLUGIN LOAD ROOT INCLUDE SCRIPT STARTUP INSPECT ASKPASS PROXY "
    "GEMFILE INDEX ENV PS4 PROMPT FLAGS ARGS DIFF TOOL"
).split()
# a credential the program sends, never runs or opens
_CREDENTIALS = ("_TOKEN", "_API_KEY", "_SECRET", "PASSWORD", "_USERNAME", "MYSQL_PWD")
_LESS_FLAGS = frozenset("-FRSXimMNqQ ")
_FLAGS = frozenset(("true", "false", "yes", "no", "on", "off", "y", "n"))
# NODE_OPTIONS that only tune the runtime
_NODE_PLAIN = (
    "--max-old-space-size",
    "--max-semi-space-size",
    "--stack-size",
    "--enable-source-maps",
    "--no-warnings",
    "--no-deprecation",
    "--trace-warnings",
    "--trace-deprecation",
    "--unhandled-rejections",
    "--experimental-vm-modules",
    "--openssl-legacy-provider",
    "--dns-result-order",
    "--max-http-header-size",
)
# builtins whose work no environment variable changes (cd reads CDPATH; source, eval and
# exec run code)
_ENV_BLIND = frozenset(
    (
        "echo printf read mapfile readarray declare typeset export local readonly unset let "
        "test [ [[ : true false set shift pwd wait jobs getopts umask shopt dirs type alias "
        "unalias return exit break continue compgen complete"
    ).split()
)
# names a plain `NAME=value;` changes for later programs without `export`: ones the Bash tool
# usually has in its environment already, and the shell's own (PS4 with set -x)
_EXPORTED_PREFIXES = ("HOME", "XDG_", "GIT_", "LD_", "DYLD_", "BASH_ENV", "ENV", "PS")


def claude_var(name: str) -> bool:
    """The variables Claude Code sets for its children (CLAUDECODE, CLAUDE_CODE_*, CLAUDE_PID
    ...); our CLI reads them to tell the agent from the person. `CLAUDECODE[1]=x` and
    `CLAUDECODE+=x` change it too (an array is no longer exported)."""
    return name.split("[", 1)[0].rstrip("+").startswith("CLAUDE")


def lookup_tables(ctx, name: str, value: str | None, p=None) -> None:
    """bash's BASH_CMDS and BASH_ALIASES are its command hash and alias table: an element set
    there is `hash -p` (a name then runs another file) or `alias`. An alias whose name and
    text are known is followed like one from `alias`; any other change makes every bare
    program name after it unknown."""
    base, _, sub = name.partition("[")
    if base == "BASH_ALIASES" and sub[:-1] and sub[-1:] == "]" and value and p is not None:
        key = sub[:-1]
        if not _unseen_name(key) and len(ctx.aliases) < 64:
            p.subparse(value)
            ctx.aliases[key] = value
            return
    if base in ("BASH_CMDS", "BASH_ALIASES"):
        ctx.path_changed = True


def name_changes(ctx, name: str, tables: bool = True) -> None:
    """A name a builtin assigns, unsets, re-declares or binds (read, mapfile, printf -v,
    getopts, for/select, declare -n, unset): a CLAUDE* one, or one the analysis cannot see
    (`unset $v`, `unset ${!CLAUDE*}`, `read "$n"`), may take CLAUDECODE from what runs after
    it."""
    if tables and name.startswith("BASH_"):
        lookup_tables(ctx, name, None)
    if claude_var(name) or _unseen_name(name):
        ctx.stripped = True
    if ctx.allexport or name.startswith(_EXPORTED_PREFIXES) or _unseen_name(name):
        exported(ctx, name, None)  # `read HOME`, `for GIT_DIR in ...`: a value nobody saw


def _unseen_name(name: str) -> bool:
    """A name whose text is not the name bash uses: a substitution, or a glob the shell may
    expand to a file's name (`unset CLAUDE?ODE` after `touch CLAUDECODE`); a trailing [SUB]
    is a subscript."""
    for ch in name:
        if ch in "$`*?\\{":
            return True
    k = name.find("[")
    return k >= 0 and (k == 0 or not name.endswith("]"))


def arith_assigns(ctx, text: str) -> None:
    """Arithmetic assigns with = += ++ and their kin: `((CLAUDECODE=0))`, `let CLAUDECODE++`."""
    from core.shell import arith  # loaded for arithmetic only

    if arith.claude_assigns(text):
        ctx.stripped = True


def plain_env(name: str, value: str | None) -> bool:
    """A variable no program runs, loads, reads or writes anything by."""
    if name == "LESS" and value is not None:
        return all(ch in _LESS_FLAGS for ch in value)  # not -o/-O FILE, -k KEYFILE
    if name in _PLAIN_ENV or name[:3] == "LC_" or name.endswith(_CREDENTIALS):
        # a locale or terminal name with a slash is a path the program loads from
        slashed = name in ("LANG", "LANGUAGE", "TERM") or name[:3] == "LC_"
        return value is None or "/" not in value or not slashed
    if name == "NODE_OPTIONS" and value is not None:
        return all(w.split("=", 1)[0] in _NODE_PLAIN for w in value.split())
    if value is None:
        return False
    v = value.strip().lower()
    if not (v == "" or v in _FLAGS or v.isdigit() and len(v) <= 6):
        return False
    up = name.upper()
    for part in _RISKY_PARTS:
        if part in up:
            return False
    return True


def env_judge(c, name: str, value: str | None) -> None:
    """A variable in a program's environment that is not plain: the program may run, load,
    read or write anything by it (its value is named by the caller's every-word check)."""
    if name == "PATH" or claude_var(name) or name in ENV_COMMANDS or plain_env(name, value):
        return  # a command variable's value is analysed as a command (builtins.env_code)
    if c.argv and c.argv[0] in _ENV_BLIND:
        return
    prog = c.argv[0].rsplit("/", 1)[-1] if c.argv else "the program"
    c.flag(
        "%s in the environment may change what %s runs, loads or writes" % (name, prog),
        unknown=True,
    )


def exported(ctx, name: str, value: str | None) -> None:
    """`export NAME=V` (or `declare -x`, `set -a` then NAME=V, or a plain assignment to a
    name the environment already holds): NAME is in every later program's environment."""
    if name == "PATH" or claude_var(name) or plain_env(name, value):
        ctx.exported.pop(name, None)
        return
    if len(ctx.exported) < 64:
        ctx.exported[name] = "$" + name if value is None else value  # None: nobody saw it


def prompt_code(name: str, value: str | None, p) -> None:
    """PS0-PS4 hold text bash expands (`$(...)` runs) whenever it prints that prompt (PS4:
    every command under set -x); PROMPT_COMMAND holds a command."""
    if not value:
        return
    if name == "PROMPT_COMMAND":
        p.subparse(value, keep_cwd=True)
    elif name[:2] == "PS" and name[2:].isdigit() and ("$" in value or "`" in value):
        p.subparse(": " + value, keep_cwd=True)


def path_unseen(value: str | None) -> bool:
    """A PATH value with a directory outside the system's bin directories."""
    if value is None:
        return True
    for d in value.split(":"):
        d = d.rstrip("/")
        if d in ("$PATH", "${PATH}") or d in _SYSTEM_DIRS:
            continue
        return True
    return False


def note_assign(ctx, name: str, value: str | None, p=None, export: bool = False) -> None:
    """A plain assignment (`PATH=...;`, `export CLAUDECODE=`) that holds for the rest of the
    command."""
    if name.startswith("BASH_"):
        lookup_tables(ctx, name, value, p)
    if name == "PATH" and path_unseen(value):
        ctx.path_changed = True
    else:
        name_changes(ctx, name, tables=False)
    if export or ctx.allexport or name.startswith(_EXPORTED_PREFIXES) or name in ctx.exported:
        if name not in ENV_COMMANDS:
            exported(ctx, name, value)
        elif p is not None and value and value.strip() and not export:
            p.subparse(value, keep_cwd=True)  # a command some program runs: analysed once
    if p is not None:
        prompt_code(name, value, p)


def watch(c, args: list, p) -> None:
    """Judge one command against the environment it runs in."""
    ctx = p.ctx
    if args and args[0].rsplit("/", 1)[-1] in _FRESH_ENV and not c.stripped:
        c.stripped = 2  # what it runs starts from a fresh environment, without CLAUDECODE
    for k, v in c.env.items():
        if k.startswith("BASH_FUNC_") and v and v.lstrip()[:2] == "()":
            p.subparse(v.lstrip()[2:], keep_cwd=True)  # bash imports it as a function
        if claude_var(k):
            c.stripped = True
        elif k == "PATH" and path_unseen(v) and args and "/" not in args[0]:
            c.flag("runs %s found through a changed PATH" % args[0], unknown=True)
    if args and _unseen_name(args[0]) and any("CLAUDE" in w for w in args[1:]):
        ctx.stripped = True  # `$(echo unset) CLAUDECODE`: any builtin may run in this shell
    if ctx.stripped and c.stripped is not True:
        c.stripped = True
    if args and ctx.exported:
        for k, v in ctx.exported.items():
            c.env.setdefault(k, v)  # judged with the command's own (builtins.env_code)
    if ctx.path_changed and args and "/" not in args[0] and args[0] not in _NO_LOOKUP:
        c.flag("runs %s found through a changed PATH" % args[0], unknown=True)


def has_code(text: str) -> bool:
    """Text bash may evaluate as a name or number that holds a command to run."""
    for m in _CODE_MARKS:
        if m in text:
            return True
    return False


def eval_words(c, words, p, names: bool = True) -> None:
    """Words bash evaluates as variable names or arithmetic (let, read NAME, printf -v NAME,
    [[ -v NAME ]], declare -i values ...): `a[$(cmd)]` in one runs cmd, so cmd is analysed
    as a command of its own. `names`: the words are names, whose subscripts are arithmetic."""
    for w in words:
        if isinstance(w, str) and has_code(w):
            c.code.append(w)
            p.subparse(": " + w, keep_cwd=True)
    if names:
        from core.shell import arith

        arith.subscripts(c, p, words)


def value_code(c, value: str | None, p) -> None:
    """A value with a subscript holding code (`x='a[$(rm f)]'`): any arithmetic, `${!x}`,
    `[[ $x -eq 1 ]]` or declare -i use later runs it, so it is analysed where it is set."""
    if value and "[" in value and has_code(value[value.find("[") :]):
        if c is not None:
            c.code.append(value)
        p.subparse(": " + value, keep_cwd=True)


def arith_text(p, text: str) -> None:
    """(( ... )), $(( ... )), for (( ... )): bash expands the text as if double-quoted, so a
    `$(...)` inside single quotes there runs too (the parser saw it as quoted text)."""
    if "'" in text and has_code(text):
        p.subparse(": " + text.replace("'", " "), keep_cwd=True)
    from core.shell import arith

    body = text[1:] if text[:1] == "$" else text
    arith.check(p, body[2:-2] if body[-2:] == "))" else body[2:])
