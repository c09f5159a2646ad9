"""Facts about one tool call: what it reads, writes, whether it is code we cannot see.

One decision whichever tool is used: file tools and Bash both come down to these facts, and
the gates only ever look at facts.
"""
import os

from core import paths

READ_TOOLS = frozenset(("Read", "Grep", "Glob", "LS", "WebSearch", "WebFetch", "NotebookRead",
                        "TodoRead", "ToolSearch", "ListMcpResourcesTool", "ReadMcpResourceTool",
                        "TaskGet", "TaskList", "TaskOutput", "ListAgents"))
FILE_WRITE_TOOLS = frozenset(("Write", "Edit", "MultiEdit", "NotebookEdit"))
SHELL_TOOLS = frozenset(("Bash", "PowerShell"))
MCP_READ_VERBS = ("get", "list", "search", "read", "fetch", "query", "find", "lookup", "resolve",
                  "describe", "show", "view", "count", "check", "status", "browse", "retrieve",
                  "inspect", "explain", "summar", "diff", "compare", "validate", "open_nodes")
PATH_KEYS = ("file_path", "notebook_path", "path", "filePath", "filename", "directory", "dir")
# Segments that only feed data to our CLI (cat r.json | sane.py learn reflect) or say something.
FEEDERS = frozenset(("cat", "echo", "printf", "true", "jq"))

# sane.py subcommands: who may run them (INTERFACES.md).
PERSON_ONLY = {("install",), ("uninstall",), ("reset",), ("unlock",), ("review", "clean"),
               ("learn", "maintain")}
VALUE_OPTIONS = ("--project", "--session")
# Subcommands that only read: allowed even while the state is tamper-locked.
READ_ONLY_SUBS = {("status",), ("doctor",), ("config",), ("logs",), ("demo",), ("loop", "status"),
                  ("review", "context"), ("review", "trace"), ("review", "debug"),
                  ("review", "stats"), ("review", "sessions"), ("learn", "list"),
                  ("learn", "search"), ("learn", "stats"), ("learn", "trace"), ("intent", "show"),
                  ("intent", "list"), ("trace", "verify"), ("trace", "blame"), ()}


def mcp_read_only(tool):
    if not tool.startswith("mcp__"):
        return False
    name = tool.rsplit("__", 1)[-1].lower()
    return name.startswith(MCP_READ_VERBS)


def is_read_only_tool(tool):
    return tool in READ_TOOLS or mcp_read_only(tool)


class SaneCall:
    __slots__ = ("args", "sub", "person_only", "read_only")

    def __init__(self, args):
        self.args = args
        words, skip = [], False
        for a in args:
            if skip:
                skip = False
            elif a in VALUE_OPTIONS:
                skip = True  # `--project X`: X is not a subcommand word
            elif not a.startswith("-"):
                words.append(a)
        self.sub = tuple(words[:2])
        self.person_only = (self.sub[:1] in PERSON_ONLY) or (self.sub in PERSON_ONLY)
        self.read_only = self.sub[:1] in READ_ONLY_SUBS or self.sub in READ_ONLY_SUBS

    @property
    def name(self):
        return " ".join(self.sub) or "(no subcommand)"


class Facts:
    __slots__ = ("tool", "kind", "reads", "writes", "unknown", "destructive", "sane_calls",
                 "only_sane", "analysis", "text", "reasons", "raw_reads", "raw_writes")

    def __init__(self, tool, kind):
        self.tool = tool
        self.kind = kind  # read | write | shell | mcp_read | mcp_write | other
        self.reads = []
        self.writes = []
        self.raw_reads = []
        self.raw_writes = []
        self.unknown = False
        self.destructive = False
        self.sane_calls = []
        self.only_sane = False
        self.analysis = None
        self.text = ""
        self.reasons = []

    @property
    def read_only(self):
        return self.kind in ("read", "mcp_read")

    def mutation(self, project, cfg):
        """Does this call change anything outside the temp dir (or somewhere unknown)?"""
        if self.kind in ("write", "mcp_write"):
            return True
        if self.kind != "shell":
            return False
        if self.unknown:
            return True
        allow_temp = cfg.get("paths.allow_temp_writes", True)
        return any(not (allow_temp and paths.in_temp(w, project)) for w in self.writes)

    def outside_temp_writes(self, project, cfg):
        allow_temp = cfg.get("paths.allow_temp_writes", True)
        return [w for w in self.writes if not (allow_temp and paths.in_temp(w, project))]


def _str(v):
    return v if isinstance(v, str) else ""


def facts_for(tool, tool_input, cwd, project, home=None):
    tool = tool if isinstance(tool, str) else ""
    ti = tool_input if isinstance(tool_input, dict) else {}
    if tool in SHELL_TOOLS:
        return _shell_facts(tool, _str(ti.get("command")), cwd, project, home)
    if tool in FILE_WRITE_TOOLS:
        f = Facts(tool, "write")
        p = _str(ti.get("file_path")) or _str(ti.get("notebook_path"))
        if p:
            f.raw_writes.append(p)
            f.writes.append(paths.normalise(p, cwd, home))
        else:
            f.unknown = True
        return f
    if is_read_only_tool(tool):
        f = Facts(tool, "mcp_read" if tool.startswith("mcp__") else "read")
    elif tool.startswith("mcp__"):
        f = Facts(tool, "mcp_write")
    else:
        f = Facts(tool, "other")
    for key in PATH_KEYS:
        p = _str(ti.get(key))
        if p:
            f.raw_reads.append(p)
            f.reads.append(paths.normalise(p, cwd, home))
    if tool == "Glob":
        pat = _str(ti.get("pattern"))
        prefix = pat.split("*")[0].split("?")[0].split("[")[0]
        if prefix and ("/" in prefix or prefix.startswith("~") or prefix.startswith(".")):
            base = _str(ti.get("path")) or cwd
            f.raw_reads.append(prefix)
            f.reads.append(paths.normalise(os.path.join(base, prefix) if not prefix.startswith("~") else prefix, cwd, home))
    if tool == "Grep":
        g = _str(ti.get("glob"))
        if g and ("/" in g or g.startswith("~")):
            f.raw_reads.append(g)
            f.reads.append(paths.normalise(g.split("*")[0] or ".", cwd, home))
    return f


def _shell_facts(tool, command, cwd, project, home):
    from core import shell
    f = Facts(tool, "shell")
    f.text = command
    if tool == "PowerShell":
        from core import powershell
        a = powershell.analyse(command, home)
    else:
        a = shell.analyse(command, home)
    f.analysis = a
    ours = paths.real(os.path.join(project, "scripts", "hooks", "sane.py"))
    others = 0
    for cmd in a.commands:
        args = shell.sane_args(cmd) if tool == "Bash" else None
        if args:
            script = args[0].replace("$CLAUDE_PROJECT_DIR", project).replace("${CLAUDE_PROJECT_DIR}", project)
            if paths.real(paths.normalise(script, cwd, home)) == ours:
                f.sane_calls.append(SaneCall(args[1:]))
                continue
        if cmd.program in FEEDERS and not cmd.writes and not cmd.unknown:
            f.raw_reads.extend(cmd.reads)
            continue
        others += 1
        f.raw_reads.extend(cmd.reads)
        f.raw_writes.extend(cmd.writes)
        if cmd.unknown:
            f.unknown = True
        if cmd.destructive:
            f.destructive = True
        f.reasons.extend(cmd.reasons)
    if not a.commands and a.unknown:
        f.unknown = True
        f.reasons.extend(a.reasons)
    elif a.unknown and not any(c.unknown for c in a.commands):
        f.unknown = True  # the parse itself failed or hit a bound
        f.reasons.extend(a.reasons)
    f.only_sane = bool(f.sane_calls) and others == 0 and not f.unknown
    f.reads = [paths.normalise(p, cwd, home) for p in f.raw_reads]
    f.writes = [paths.normalise(p, cwd, home) for p in f.raw_writes]
    return f
