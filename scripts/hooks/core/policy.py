"""Facts about one tool call: what it reads, writes, whether it is code we cannot see.

One decision whichever tool is used: file tools and Bash both come down to these facts, and
the gates only ever look at facts.
"""

from __future__ import annotations

import os

from core import paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from core.shell.analysis import Analysis
    from core.shell.command import Command

READ_TOOLS = frozenset(
    (
        "Read",
        "Grep",
        "Glob",
        "LS",
        "WebSearch",
        "WebFetch",
        "NotebookRead",
        "TodoRead",
        "ToolSearch",
        "ListMcpResourcesTool",
        "ReadMcpResourceTool",
        "TaskGet",
        "TaskList",
        "TaskOutput",
        "ListAgents",
        "AskUserQuestion",
    )
)  # the breaker tells the agent to ask the person
FILE_WRITE_TOOLS = frozenset(("Write", "Edit", "MultiEdit", "NotebookEdit"))
SHELL_TOOLS = frozenset(("Bash", "PowerShell"))
MCP_READ_VERBS = (
    "get",
    "list",
    "search",
    "read",
    "fetch",
    "query",
    "find",
    "lookup",
    "resolve",
    "describe",
    "show",
    "view",
    "count",
    "check",
    "status",
    "browse",
    "retrieve",
    "inspect",
    "explain",
    "summar",
    "diff",
    "compare",
    "validate",
    "open_nodes",
)
PATH_KEYS = ("file_path", "notebook_path", "path", "filePath", "filename", "directory", "dir")
# MCP tools name their paths many ways (filesystem, serena, IDE servers): any of these keys,
# a string or a list of strings, is a path the call reads, and writes when it changes things.
MCP_PATH_KEYS = PATH_KEYS + (
    "paths",
    "file",
    "files",
    "source",
    "destination",
    "target",
    "src",
    "dst",
    "dest",
    "relative_path",
    "new_path",
    "old_path",
    "from",
    "to",
    "root",
    "cwd",
    "uri",
    "output",
    "output_path",
    "outputPath",
)
MCP_CODE_KEYS = ("code", "command", "cmd", "script", "shell", "expression")
# A read verb first and a change after it is a change (list_and_delete, get_or_create).
MCP_CHANGE_WORDS = frozenset(
    (
        "write",
        "create",
        "update",
        "delete",
        "remove",
        "replace",
        "edit",
        "set",
        "put",
        "post",
        "insert",
        "move",
        "rename",
        "push",
        "merge",
        "commit",
        "exec",
        "execute",
        "apply",
        "upload",
        "send",
        "close",
        "reopen",
        "approve",
        "dismiss",
        "modify",
        "patch",
        "drop",
        "truncate",
        "kill",
        "stop",
        "start",
        "restart",
        "install",
        "uninstall",
        "deploy",
        "publish",
        "mark",
        "assign",
        "lock",
        "unlock",
        "archive",
        "restore",
        "save",
        "store",
        "add",
        "clear",
        "reset",
        "fork",
        "transfer",
        "invite",
        "comment",
        "reply",
        "trigger",
        "cancel",
        "submit",
        "and",
        "or",
    )
)
# Programs that only look at a directory's names, never the contents of the files in it.
NAMES_ONLY = frozenset(
    (
        "ls",
        "cd",
        "pushd",
        "popd",
        "stat",
        "du",
        "df",
        "file",
        "test",
        "[",
        "[[",
        "realpath",
        "readlink",
        "dirname",
        "basename",
        "tree",
        "find",
        "fd",
        "mkdir",
        "touch",
        "echo",
        "printf",
        "pwd",
        "which",
        "type",
        "exa",
        "eza",
        "lsd",
        "dir",
        "vdir",
        "lsattr",
        "getfacl",
        "true",
        "false",
        "ln",
    )
)
# Segments that only feed data to our CLI (cat r.json | sane.py learn reflect) or say something.
FEEDERS = frozenset(("cat", "echo", "printf", "true", "jq"))

# sane.py subcommands: who may run them (INTERFACES.md).
PERSON_ONLY = {
    ("install",),
    ("uninstall",),
    ("reset",),
    ("unlock",),
    ("review", "clean"),
    ("learn", "maintain"),
}
VALUE_OPTIONS = ("--project", "--session")
# Subcommands that only read: allowed even while the state is tamper-locked.
READ_ONLY_SUBS = {
    ("status",),
    ("doctor",),
    ("config",),
    ("logs",),
    ("demo",),
    ("loop", "status"),
    ("review", "context"),
    ("review", "trace"),
    ("review", "debug"),
    ("review", "stats"),
    ("review", "sessions"),
    ("learn", "list"),
    ("learn", "search"),
    ("learn", "stats"),
    ("learn", "trace"),
    ("intent", "show"),
    ("intent", "list"),
    ("trace", "verify"),
    ("trace", "blame"),
    (),
}


def mcp_read_only(tool):
    if not tool.startswith("mcp__"):
        return False
    name = tool.rsplit("__", 1)[-1]
    if not name.lower().startswith(MCP_READ_VERBS):
        return False
    words = "".join("_" + c if c.isupper() else c for c in name).lower()
    words = words.replace("-", "_").replace(".", "_").split("_")
    return not any(w in MCP_CHANGE_WORDS for w in words[1:])


def is_read_only_tool(tool):
    return tool in READ_TOOLS or mcp_read_only(tool)


class SaneCall:
    __slots__ = ("args", "sub", "person_only", "read_only", "dynamic")

    def __init__(self, args):
        self.args = args
        words, skip = [], False
        for a in args:
            if skip:
                skip = False
            elif a[:2] == "--" and len(a) > 2 and any(o.startswith(a) for o in VALUE_OPTIONS):
                # `--project X`, and argparse's abbreviations (`--proj X`): X is no subcommand
                skip = True
            elif not a.startswith("-"):
                words.append(a)
        self.sub = tuple(words[:2])
        # A subcommand word the analysis cannot see ($(echo reset), "$X", re*) could be any
        # subcommand, a person-only one included.
        self.dynamic = any(paths.has_glob(w) or "$" in w or "`" in w for w in self.sub)
        self.person_only = (
            (self.sub[:1] in PERSON_ONLY) or (self.sub in PERSON_ONLY) or self.dynamic
        )
        self.read_only = self.sub[:1] in READ_ONLY_SUBS or self.sub in READ_ONLY_SUBS

    @property
    def name(self):
        if self.dynamic:
            return "%s (a subcommand the hooks cannot see)" % " ".join(self.sub)
        return " ".join(self.sub) or "(no subcommand)"


class Facts:
    __slots__ = (
        "tool",
        "kind",
        "reads",
        "writes",
        "unknown",
        "destructive",
        "sane_calls",
        "only_sane",
        "analysis",
        "text",
        "reasons",
        "raw_reads",
        "raw_writes",
        "raw_looks",
        "tree_reads",
        "foreign_sane",
        "unchecked",
        "name_globs",
        "blind_writes",
        "fed_cmds",
        "remote",
        "runs_code",
        "changers",
        "named",
    )

    def __init__(self, tool: str, kind: str) -> None:
        self.tool: str = tool
        self.kind: str = kind  # read | write | shell | mcp_read | mcp_write | other
        self.reads: list[str] = []
        self.writes: list[str] = []
        self.raw_reads: list[str] = []
        self.raw_writes: list[str] = []
        self.raw_looks: list[str] = []  # only looked at (ls, stat, test -f, Glob): no content
        self.unknown: bool = False
        self.destructive: bool = False
        self.sane_calls: list[SaneCall] = []
        self.only_sane: bool = False
        self.analysis: Analysis | None = None
        self.text: str = ""
        self.reasons: list[str] = []
        self.tree_reads: list[str] = []  # dirs whose files are read (grep -r, cp -r, tar, Grep)
        self.foreign_sane: list[SaneCall] = []  # sane.py run from elsewhere: never ours
        self.unchecked: list[str] = []  # read globs too broad to expand within the bound
        self.name_globs: list[str] = []  # Grep's glob: names of the files whose text it reads
        # dirs holding protected files that an unpack/patch we cannot see writes
        self.blind_writes: list[str] = []
        self.fed_cmds: list[Command] = []  # fed the files find/grep -l/git ls-files list
        self.remote: bool = False  # changes a remote system or service (cluster, cloud, database)
        self.runs_code: bool = False  # every unknown part is a known runner (tests, builds)
        self.changers: list[Command] = []  # the commands that are unknown or change a remote system
        self.named: list[str] = []  # every word of code the hooks cannot see (checked as paths)

    @property
    def read_only(self):
        return self.kind in ("read", "mcp_read")

    def mutation(self, project, cfg):
        """Does this call change anything outside the temp dir (or somewhere unknown)?"""
        if self.kind in ("write", "mcp_write"):
            return True
        if self.kind != "shell":
            return False
        if self.unknown or self.remote or self.destructive and not self.writes:
            return True  # a destructive act on no file (shutdown): a change all the same
        allow_temp = cfg.get("paths.allow_temp_writes")
        return any(not (allow_temp and paths.in_temp(w, project)) for w in self.writes)

    def outside_temp_writes(self, project, cfg):
        allow_temp = cfg.get("paths.allow_temp_writes")
        return [w for w in self.writes if not (allow_temp and paths.in_temp(w, project))]


def _str(v):
    return v if isinstance(v, str) else ""


def _strs(v):
    """A path field's strings: the value, or each string of a list given where one path was
    expected (a tool may take either; every one is checked)."""
    if isinstance(v, str):
        return [v] if v else []
    if isinstance(v, (list, tuple)):
        return [x for x in v[:64] if isinstance(x, str) and x]
    return []


class _NoCfg:
    def list(self, key):
        return []


def facts_for(tool, tool_input, cwd, project, home=None, cfg=None):
    tool = tool if isinstance(tool, str) else ""
    cfg = cfg or _NoCfg()
    ti = tool_input if isinstance(tool_input, dict) else {}
    if tool in SHELL_TOOLS:
        command = ti.get("command")
        text = _str(command) or " ".join(_strs(command))  # a list of words: checked as a line
        try:
            f = _shell_facts(tool, text, cwd, project, home, cfg)
        except Exception as exc:  # a bug here would let the call past every gate: hold it
            import traceback

            from core import log

            log.write(
                project,
                "sanetools",
                "error",
                "shell facts failed: %r" % exc,
                trace=traceback.format_exc()[-4000:],
            )
            f = _unchecked_shell(tool, text, exc)
        if not isinstance(command, str):
            f.unknown = True  # nothing we can read: a change to a place we cannot see
            f.reasons.append("the command is not a string")
        return f
    if tool in FILE_WRITE_TOOLS:
        f = Facts(tool, "write")
        given = _strs(ti.get("file_path")) + _strs(ti.get("notebook_path"))
        for p in given:
            f.raw_writes.append(p)
            f.writes.append(paths.normalise(p, cwd, home))
        if not given or not isinstance(ti.get("file_path") or ti.get("notebook_path"), str):
            f.unknown = True
        return f
    if is_read_only_tool(tool):
        f = Facts(tool, "mcp_read" if tool.startswith("mcp__") else "read")
    elif tool.startswith("mcp__"):
        f = Facts(tool, "mcp_write")
    else:
        f = Facts(tool, "other")
    if tool.startswith("mcp__") or tool == "ReadMcpResourceTool":
        _mcp_paths(f, ti)
    else:
        url = _str(ti.get("url"))
        if url.startswith("file://"):
            f.raw_reads.append(url[7:])
        for key in PATH_KEYS:
            f.raw_reads.extend(_strs(ti.get(key)))
    base = _str(ti.get("path")) or cwd
    if tool in ("Glob", "LS"):  # they list names, never a file's text
        f.raw_looks, f.raw_reads = f.raw_reads, []
    if tool == "Glob":
        pat = _str(ti.get("pattern"))
        prefix = pat.split("*")[0].split("?")[0].split("[")[0]
        if prefix and ("/" in prefix or prefix.startswith("~") or prefix.startswith(".")):
            f.raw_looks.append(prefix if prefix.startswith("~") else os.path.join(base, prefix))
    if tool == "Grep":
        g = _str(ti.get("glob"))
        if g:
            # rg's glob: with a `/` a path under the search root, else a name at any depth
            f.raw_reads.append(g if g.startswith("~") else os.path.join(base, g))
            f.name_globs.append(g.rstrip("/").rsplit("/", 1)[-1])
        f.tree_reads.extend(_strs(ti.get("path")))
    if tool.startswith("mcp__"):
        _half_seen(f, cwd, project, home, cfg)
    f.reads = [paths.normalise(p, cwd, home) for p in f.raw_reads]
    f.writes = [paths.normalise(p, cwd, home) for p in f.raw_writes]
    return f


def _mcp_paths(f, ti):
    """Path arguments of an MCP tool: reads, and writes too when the tool changes things;
    code it runs is text we cannot see. The keys are looked for in nested objects too
    (`{"input": {"path": ...}}`); every word of code (a command, a script, the arguments of
    a program, a query) is checked like the words of unseen shell code."""
    found, code = [], []
    _mcp_walk(ti, found, code, 0, [0])
    f.raw_reads.extend(found)
    run = [t for t, kind in code if kind == "code"]
    if f.kind == "mcp_write":
        f.raw_writes.extend(found)
        if run:
            f.unknown = True
            f.text = "\n".join(run)
    if code:
        from core.shell.command import Command, every_word

        whole, query = Command(), Command()
        every_word(whole, [t for t, kind in code if kind != "query"])
        every_word(query, [t for t, kind in code if kind == "query"])
        # a query's words stand for files only where they look like one (`readfile('.env')`)
        words = whole.named + [w for w in query.named if w[:1] in "./~" or "/" in w]
        f.raw_reads.extend(words)
        f.named.extend(words)


# keys whose text is a query: its path-like words are checked, not every word
MCP_QUERY_KEYS = ("query", "sql", "statement")
MCP_ARGV_KEYS = ("args", "argv", "arguments")


def _mcp_walk(node, found, code, depth, seen):
    """Collect path values and (text, kind) of code, program arguments and queries from an
    MCP input, bounded in depth and size."""
    if depth > 4 or seen[0] > 400:
        return
    items = node.items() if isinstance(node, dict) else enumerate(node)
    for key, v in items:
        seen[0] += 1
        if isinstance(v, (dict, list)):
            if key in MCP_PATH_KEYS and isinstance(v, list):
                found.extend(x[7:] if x.startswith("file://") else x for x in v[:50] if _s(x))
            if key in MCP_ARGV_KEYS and isinstance(v, list):
                code.extend((x, "argv") for x in v[:50] if _s(x))
            _mcp_walk(v, found, code, depth + 1, seen)
        elif not _s(v):
            continue
        elif key in MCP_PATH_KEYS:
            found.append(v[7:] if v.startswith("file://") else v)
        elif key in MCP_CODE_KEYS:
            code.append((v, "code"))
        elif key in MCP_ARGV_KEYS:
            code.append((v, "argv"))
        elif key in MCP_QUERY_KEYS:
            code.append((v, "query"))


def _s(v):
    return isinstance(v, str) and bool(v)


def _unchecked_shell(tool, command, exc):
    """The facts of a command whose analysis failed: unknown, and stopped early like a bound,
    so the path gate holds it (what was not reached may name a secret or a protected file)."""
    from core.shell.analysis import Analysis

    why = "not checkable (the analysis failed on it: %s)" % type(exc).__name__
    f = Facts(tool, "shell")
    f.text = command
    f.unknown = True
    f.reasons.append(why)
    f.analysis = Analysis(command, [], [why], why)
    return f


def _shell_facts(tool, command, cwd, project, home, cfg):
    from core import treewrites  # shell calls only: a file tool never loads the analyser
    from core.shell import analysis as shell
    from core.shell import judge
    from core.tempdir import shell_env

    f = Facts(tool, "shell")
    f.text = command
    if tool == "PowerShell":
        from core.shell import powershell

        a = powershell.analyse(command, home)
    else:
        a = shell.analyse(command, home, env=shell_env(project))
    f.analysis = a
    ours = paths.real(os.path.join(project, "scripts", "hooks", "sane.py"))
    others = 0
    runners_only = True
    prev = None
    for cmd in a.commands:
        if tool == "Bash":
            treewrites.fed_writes(f, cmd, prev, cwd, project, home, cfg)
        prev = cmd
        args = shell.sane_args(cmd) if tool == "Bash" else powershell.sane_args(cmd)
        if tool != "Bash" and args and not SaneCall(args[1:]).person_only:
            args = None  # PowerShell: only the person's subcommands are matched to our CLI
        mod = treewrites.python_module(cmd) if tool == "Bash" else None
        if mod:
            treewrites.python_unpack(f, cmd, mod, cwd, project, home, cfg)
        if mod and mod[0] in ("sane", "sane.py", "core.cli", "core.cli.main"):
            args = ["-m " + mod[0]] + list(mod[1])
        if args and not mod and judge.interp_options(cmd):
            # python3 -i sane.py ...: the interpreter runs more than our CLI (an interactive
            # prompt, a module, warnings hooks): code with the CLI's rights, never ours
            call = SaneCall(args[1:])
            call.dynamic = call.person_only = True
            f.foreign_sane.append(call)
            f.unknown = True
            f.reasons.append("sane.py run with interpreter options")
            others += 1
            continue
        if args:
            script = (
                args[0]
                .replace("$CLAUDE_PROJECT_DIR", project)
                .replace("${CLAUDE_PROJECT_DIR}", project)
            )
            # its own redirects and path arguments are judged like any command's
            f.raw_reads.extend(cmd.reads)
            f.raw_writes.extend(cmd.writes)
            if paths.real(paths.normalise(script, cwd, home)) == ours:
                f.sane_calls.append(SaneCall(args[1:]))
                others += bool(cmd.writes)
                continue
            call = SaneCall(args[1:])
            f.foreign_sane.append(call)
            if not call.person_only:
                cmd.flag("runs a sane.py that is not this project's CLI", unknown=True)
        if cmd.program == "git" and tool == "Bash":
            from core.shell import gitrepo  # git commands only

            if gitrepo.foreign(cmd, cwd, project, home):
                cmd.flag(gitrepo.FOREIGN, unknown=True)
        if cmd.program in FEEDERS and not cmd.writes and not cmd.unknown:
            f.raw_reads.extend(cmd.reads)
            f.tree_reads.extend(cmd.tree)  # file names fed to it by a producer
            f.name_globs.extend(getattr(cmd, "globs", ()))
            continue
        others += 1
        if not args:
            f.raw_reads.extend(cmd.reads)
            f.raw_writes.extend(cmd.writes)
        f.raw_looks.extend(cmd.looks)
        if cmd.program not in NAMES_ONLY and (cmd.unknown or not judge.plain(cmd)):
            f.tree_reads.extend(cmd.reads)
        f.tree_reads.extend(cmd.tree)
        f.name_globs.extend(getattr(cmd, "globs", ()))  # names of the files fed to it as data
        f.raw_reads.extend(cmd.named)  # words of code the hooks cannot see: checked, not read
        f.named.extend(cmd.named)
        if tool == "Bash":
            treewrites.tree_writes(f, cmd, cwd, project, home, cfg)
        temp = tool == "Bash" and judge.temp_code(cmd, cwd, project)
        if cmd.unknown or temp:
            f.unknown = True
            f.changers.append(cmd)
            if not cmd.runner or temp:
                runners_only = False  # a script in the temp dir is not the project's tests
            if temp:
                f.reasons.append("runs a script from the temp dir")
        if getattr(cmd, "remote", False):
            f.remote = True
            runners_only = False
            if cmd not in f.changers:
                f.changers.append(cmd)
        if cmd.destructive and not judge.plain_delete(cmd, cwd, project, home, cfg):
            f.destructive = True
        f.reasons.extend(cmd.reasons)
    stripped = False
    for cmd in a.commands:
        # without CLAUDECODE our CLI takes its caller for the person: unseen code or a
        # changing CLI call run so (or after it: what it runs is listed after it) is a
        # person-only escape
        # removed on purpose (True): anything but a read; by sudo, su, at ... (2): unseen code
        own = getattr(cmd, "stripped", False)  # PowerShell's commands have no such field
        if own and stripped is not True:
            stripped = own
        args = shell.sane_args(cmd) if stripped else None
        if args and paths.real(paths.normalise(args[0], cwd, home)) == ours:
            continue  # this project's CLI: each subcommand's own gate judges these spellings
        seen = judge.changes_or_runs(cmd) if stripped is True else cmd.unknown
        if stripped and ((args and not SaneCall(args[1:]).read_only) or (not args and seen)):
            call = SaneCall(args[1:] if args else ["$CLAUDECODE-removed"])
            call.dynamic = call.person_only = True
            f.foreign_sane.append(call)
            f.reasons.append("runs code with CLAUDECODE removed")
            break
    if not a.commands and a.unknown:
        f.unknown = True
        f.reasons.extend(a.reasons)
    elif a.unknown and not any(c.unknown for c in a.commands):
        f.unknown = True  # the parse itself failed or hit a bound
        f.reasons.extend(a.reasons)
    f.only_sane = bool(f.sane_calls) and others == 0 and not f.unknown
    f.runs_code = f.unknown and runners_only and not f.remote and bool(f.changers)
    if f.runs_code and a.unknown and not all(c.unknown for c in a.commands if c.reasons):
        f.runs_code = False
    for attr in ("raw_reads", "raw_writes", "tree_reads", "named", "name_globs"):
        setattr(f, attr, list(dict.fromkeys(getattr(f, attr))))  # each path looked up once
    _half_seen(f, cwd, project, home, cfg)
    f.reads = [paths.normalise(p, cwd, home) for p in f.raw_reads]
    f.writes = [paths.normalise(p, cwd, home) for p in f.raw_writes]
    return f


def _half_seen(f, cwd, project, home, cfg):
    """Words the analysis could not pin down: globs become the files bash would expand them
    to (a glob that matches stands for its matches); a write target with dynamic parts adds
    every protected path its pattern could be; a read path with dynamic parts inside adds the
    existing files it could be. A read glob too broad to expand is `unchecked` (blocked: it
    could hide a secret); a write one adds the protected paths it could name."""
    budget = dict(paths.GLOB_BUDGET)
    literal = getattr(f.analysis, "literal", ())
    for attr in ("raw_reads", "raw_writes", "named"):
        raw = getattr(f, attr)
        if not any(paths.has_glob(p) or "$" in p or "`" in p for p in raw):
            continue
        out = []
        for p in raw:
            dyn = paths.dyn_pattern(p)
            if dyn is not None:
                out.append(p)
                if attr != "raw_reads":
                    out.extend(paths.dyn_protected(p, cwd, project, cfg, home))
                elif dyn.replace("*", "").strip("/.") and ("/" not in dyn or dyn[:1] != "*"):
                    # the files it may be: `$DIR/x` anywhere, `.en${X}v` or `${X}.pem` here
                    out.extend(paths.expand(dyn, cwd, home, True, budget)[0])
                continue
            if not paths.has_glob(p) or p in literal:  # '/*' quoted is a name, not a glob
                out.append(p)
                continue
            matches, complete = paths.expand(p, cwd, home, False, budget, attr == "raw_writes")
            out.extend(matches)
            if not matches or not complete:
                out.append(p)
            if not complete:
                f.unknown = True
                if attr == "raw_reads":
                    f.unchecked.append(p)
                else:
                    out.extend(paths.glob_protected(p, cwd, project, cfg, home))
        setattr(f, attr, out)
