"""The PowerShell tool (Windows): the same facts as core.shell where the syntax is simple
(cmdlets and aliases separated by ; | && ||, quoted strings, > redirects), `unknown` otherwise."""

from core.shell.command import Command as ShellCommand

WRITERS = {
    "set-content": "path",
    "add-content": "path",
    "out-file": "filepath",
    "new-item": "path",
    "remove-item": "path",
    "rm": "path",
    "del": "path",
    "erase": "path",
    "rd": "path",
    "rmdir": "path",
    "ri": "path",
    "copy-item": "destination",
    "cp": "destination",
    "copy": "destination",
    "move-item": "destination",
    "mv": "destination",
    "move": "destination",
    "rename-item": "path",
    "ren": "path",
    "clear-content": "path",
    "set-item": "path",
    "ni": "path",
    "mkdir": "path",
    "md": "path",
    "tee-object": "filepath",
    "tee": "filepath",
    "export-csv": "path",
    "expand-archive": "destinationpath",
}
READERS = (
    "get-content",
    "gc",
    "cat",
    "type",
    "select-string",
    "sls",
    "get-item",
    "gi",
    "get-childitem",
    "gci",
    "ls",
    "dir",
    "import-csv",
    "test-path",
    "resolve-path",
)
CODE = (
    "invoke-expression",
    "iex",
    "start-process",
    "saps",
    "invoke-command",
    "icm",
    "powershell",
    "pwsh",
    "cmd",
    "bash",
    "python",
    "python3",
    "node",
    "&",
    ".",
    "add-type",
    "invoke-webrequest",
    "iwr",
    "invoke-restmethod",
    "irm",
)
PRINTERS = ("write-output", "echo", "write", "write-host")
# the variables Claude Code sets for its children: our CLI reads them to tell the agent from
# the person (core.shell.envwatch.claude_var), lower-cased
CLAUDE_VARS = ("claudecode", "claude_code_")
UNSAFE = ("$(", "@(", "{", "`", "-encodedcommand", "-enc ", "[scriptblock]", "[io.file]", "::")


class Command(ShellCommand):
    """A cmdlet call: the shell analyser's record, so policy reads both the same way."""

    __slots__ = ()

    def __init__(self, argv):
        super().__init__()
        self.argv = argv
        self.program = argv[0].lower() if argv else ""
        self.text = " ".join(argv).replace("\0", ", ")
        self.named = _items(argv[1:])  # checked against protected paths when it is unknown


class Analysis:
    __slots__ = ("commands", "reads", "writes", "unknown", "destructive", "reasons")

    def __init__(self):
        self.commands, self.reads, self.writes, self.reasons = [], [], [], []
        self.unknown = self.destructive = False


def _items(words):
    """The items of every word: an array argument (`a, b`) is one word, its items NUL-joined."""
    return [x for w in words for x in w.split("\0") if x]


def _words(text):
    """Words after quote removal; an unquoted comma joins its neighbours into one array word
    (`Remove-Item a, b` removes both), its items separated by NUL."""
    words, cur, quote, i = [], "", None, 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == quote:
                quote = None
            else:
                cur += c
        elif c in "'\"":
            quote = c
        elif c == ",":
            if not cur and words:
                cur = words.pop()
            cur += "\0"
            while i + 1 < len(text) and text[i + 1] in " \t":
                i += 1
        elif c in " \t":
            if cur:
                words.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    if quote:
        return None
    if cur:
        words.append(cur)
    return words


def _claude_env(word):
    """An Env: drive path (`Env:CLAUDECODE`, `env:\\CLAUDE*`, `Env:$n`) that may name a
    variable Claude Code sets."""
    low = word.lower()
    if not low.startswith("env:"):
        return False
    name = low[4:].lstrip("\\/")
    return name.startswith(CLAUDE_VARS) or any(ch in name for ch in "$*?[") or not name


def _strips(words, low):
    """Does this cmdlet call remove or change a variable Claude Code sets? `$env:X = v`,
    an Env: drive cmdlet, or any mention of one by a command that is not a plain read."""
    first = words[0].lower()
    if first.startswith("$env:"):
        name = first[5:].split("=", 1)[0]
        return name.startswith(CLAUDE_VARS) and ("=" in first or words[1:2] == ["="])
    if first in READERS or first in PRINTERS:
        return False
    return any(_claude_env(w) for w in words[1:]) or any(v in low for v in CLAUDE_VARS)


# verbs of PowerShell's approved list that only read or print
READ_VERBS = frozenset(
    ("get", "test", "select", "measure", "compare", "find", "format", "convertto",
     "convertfrom", "group", "sort", "where", "resolve", "split", "join", "show", "search")
)  # fmt: skip


def _external(a, seg, home, stripped):
    """A program that is not a cmdlet: the segment (free of PowerShell's own syntax, which
    made the whole command unknown) is judged by the shell analyser."""
    from core.shell import analysis

    sub = analysis.analyse(seg, home)
    for c in sub.commands:
        if stripped and judge_changes(c):
            c.stripped = True
            c.unknown = True
            c.reasons.append("runs %s with CLAUDECODE removed" % c.program)
        a.commands.append(c)
    if sub.unknown and not any(c.unknown for c in sub.commands):
        a.unknown = True
        a.reasons.extend(sub.reasons)


def judge_changes(c) -> bool:
    from core.shell import judge

    return judge.changes_or_runs(c)


def analyse(command, home=None):
    a = Analysis()
    text = command if isinstance(command, str) else ""
    low = text.lower()
    if any(u in low for u in UNSAFE) or "\x00" in text or len(text) > 100000:
        a.unknown = True
        a.reasons.append("PowerShell syntax we do not analyse")
        if any(v in low for v in CLAUDE_VARS):
            # [Environment]::SetEnvironmentVariable('CLAUDECODE', ...) and its kin
            cmd = Command(_words(text) or [text])
            cmd.unknown = True
            cmd.stripped = True
            cmd.reasons.append("changes CLAUDECODE, then runs code we do not analyse")
            a.commands.append(cmd)
        return a
    stripped = False
    segments = []
    for part in text.replace("&&", ";").replace("||", ";").replace("\n", ";").split(";"):
        segments.extend(part.split("|"))
    for seg in segments:
        words = _words(seg.strip())
        if words is None:
            a.unknown = True
            a.reasons.append("unbalanced quote")
            continue
        if not words:
            continue
        redir = []
        rest = []
        i = 0
        while i < len(words):
            w = words[i]
            if w in (">", ">>", "2>", "2>>", "*>", "*>>") and i + 1 < len(words):
                redir.append(words[i + 1])
                i += 2
                continue
            if w.startswith((">", "2>", "*>")) and len(w.lstrip("*2>")) > 0:
                redir.append(w.lstrip("*2>"))
            else:
                rest.append(w)
            i += 1
        cmd = Command(rest or [""])
        prog = cmd.program
        if rest and _strips(rest, seg.lower()):
            stripped = cmd.stripped = True
            cmd.reasons.append("removes or changes CLAUDECODE")
            others = [w for w in rest[1:] if not _claude_env(w) and w[:1] != "-"]
            if rest[0][:1] == "$" or not others:
                a.commands.append(cmd)  # only the Env: drive, which holds no files
                continue
            # it does more than that: judged as usual, without the Env: words as paths
            cmd.unknown = True
            rest = [w for w in rest if not _claude_env(w)]
        if stripped and prog not in READERS and prog not in PRINTERS:
            # without CLAUDECODE our CLI takes its caller for the person
            cmd.stripped = True
            cmd.unknown = True
            cmd.reasons.append("runs %s with CLAUDECODE removed" % prog)
        if stripped and (prog in READERS or prog in PRINTERS):
            cmd.stripped = False  # a plain read stays a read
        for t in redir:
            if t.lower() not in ("$null", "null") and t[:1] != "&":  # 2>&1 is a stream
                cmd.writes.append(t)
        if prog in CODE or prog in WRITERS or prog in READERS or prog in PRINTERS:
            pass
        elif prog[:1] in ".&" or "\\" in prog or "/" in prog:
            cmd.unknown = True
            cmd.reasons.append("PowerShell runs a script or program file: %s" % rest[0])
        elif "-" in prog:
            verb = prog.split("-", 1)[0]
            if verb in READ_VERBS:  # by PowerShell's convention these only read
                cmd.reads.extend(_items(w for w in rest[1:] if w[:1] not in ("-", "$")))
            else:
                cmd.unknown = True
                cmd.reasons.append("%s is a cmdlet the hooks do not know" % rest[0])
        elif prog:
            # a program (git, npm, ...): the shell analyser's profiles judge it
            _external(a, seg, home, stripped)
            continue
        if prog in CODE:
            cmd.unknown = True
            cmd.reasons.append("PowerShell runs code: %s" % prog)
        elif prog in WRITERS:
            key = "-" + WRITERS[prog]
            args = rest[1:]
            target = None
            for j, w in enumerate(args):
                if w.lower() in (key, "-literalpath", "-path") and j + 1 < len(args):
                    target = args[j + 1] if w.lower() == key or target is None else target
            positional = [w for w in args if not w.startswith("-")]
            if target is None and positional:
                target = positional[-1] if WRITERS[prog] == "destination" else positional[0]
            if target:
                cmd.writes.extend(_items([target]))
            else:
                cmd.unknown = True
            if (
                prog in ("remove-item", "rm", "del", "erase", "rd", "rmdir", "ri")
                and any(w.lower() in ("-recurse", "-r") for w in args)
                and any(w.lower() in ("-force", "-fo") for w in args)
            ):
                cmd.destructive = True
                cmd.reasons.append("recursive force delete")
            if WRITERS[prog] == "destination":
                cmd.reads.extend(_items(positional[:-1]))
        elif prog in READERS:
            cmd.reads.extend(_items(w for w in rest[1:] if not w.startswith("-")))
        a.commands.append(cmd)
    for c in a.commands:
        a.reads += [r for r in c.reads if r not in a.reads]
        a.writes += [w for w in c.writes if w not in a.writes]
        a.unknown = a.unknown or c.unknown
        a.destructive = a.destructive or c.destructive
        a.reasons += c.reasons
    return a
