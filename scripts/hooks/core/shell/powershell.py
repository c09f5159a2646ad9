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
    "mi": "destination",
    "cpi": "destination",
    "rni": "path",
    "ac": "path",
    "sc": "path",
    "clc": "path",
    "si": "path",
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
# cmdlets whose output objects are the items at their paths (a pipeline writer acts on them)
LISTERS = frozenset(("get-childitem", "gci", "ls", "dir", "get-item", "gi", "resolve-path"))
# cmdlets that pass on (some of) the objects fed to them
FILTERS = frozenset(
    ("select-object", "select", "where-object", "where", "?", "sort-object", "sort",
     "get-unique", "group-object")
)  # fmt: skip
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
# cmdlets that wait or print to the host's streams: no file, no code, no change
NO_EFFECT = frozenset(
    ("start-sleep", "sleep", "out-null", "out-host", "out-string", "write-verbose",
     "write-debug", "write-information", "write-warning", "write-error", "write-progress",
     "clear-host", "cls", "get-date")
)  # fmt: skip
# variable scopes an assignment may name: they hold values (alias:, function: hold commands)
_SCOPES = ("", "global", "script", "local", "private", "variable", "using")
_PS_NAME = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:")
_ASSIGN_OPS = ("??=", "+=", "-=", "*=", "/=", "%=", "=")
# characters of an expression outside its quoted strings that compute nothing but a value
_EXPR_CHARS = frozenset("0123456789 \t+-*/%.,")
OPAQUE = "\0computed"  # a literal expression's value the analysis does not work out
NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_.&")
_INTERPRETERS = ("python", "python3", "py", "pypy", "pypy3")
# the variables Claude Code sets for its children: our CLI reads them to tell the agent from
# the person (core.shell.envwatch.claude_var), lower-cased
CLAUDE_VARS = ("claudecode", "claude_code_")
# `(expr)` runs a pipeline and passes its value: `Get-Content (Join-Path . .env)`
UNSAFE = ("(", "{", "`", "-encodedcommand", "-enc ", "[scriptblock]", "[io.file]", "::")


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


_MOVERS = ("move-item", "mv", "move", "mi")
_RENAMERS = ("rename-item", "ren", "rni")
_MAKERS = ("new-item", "ni")  # New-Item -Path DIR -Name FILE
# the path parameters of the file cmdlets (PowerShell takes any unique prefix of a name)
_PATH_PARAMS = ("path", "literalpath", "pspath", "lp")
# parameters of the writers that take no value
_SWITCHES = (
    "force", "recurse", "passthru", "nonewline", "whatif", "confirm", "asbytestream",
    "append", "noclobber", "container", "verbose", "debug", "usetransaction", "raw",
    "followsymlink", "fromsession", "tosession",
)  # fmt: skip


def _param(word):
    """(lower-cased name, value attached by `:`) of a `-Name` word, or None."""
    if word[:1] != "-" or len(word) < 2 or word[1:2].isdigit():
        return None
    name, colon, val = word[1:].partition(":")
    return name.lower(), (val if colon else None)


def _writer_args(args, key):
    """(values of path parameters, values of the target parameter `key`, positional words).
    A name is matched as PowerShell does, by any prefix: one that may name a path or the
    target parameter is taken as it (an ambiguous prefix fails in PowerShell: no harm in
    reading its value as a path); a switch takes no value; any other takes the next word."""
    paths_, targets, positional = [], [], []
    j = 0
    while j < len(args):
        w = args[j]
        p = _param(w)
        if p is None:
            positional.append(w)
            j += 1
            continue
        name, val = p
        is_target = key.startswith(name) and key not in _PATH_PARAMS
        is_path = any(n.startswith(name) for n in _PATH_PARAMS)
        if not (is_target or is_path) and any(n.startswith(name) for n in _SWITCHES):
            j += 1
            continue
        if val is None and j + 1 < len(args):
            j += 1
            val = args[j]
        if val is not None:
            if is_target:
                targets.append(val)
            if is_path or (is_target and key == "path"):
                paths_.append(val)
        j += 1
    return paths_, targets, positional


def _link_targets(args, rest):
    """The target of `New-Item -ItemType HardLink|SymbolicLink|Junction` (-Value, its alias
    -Target, or a positional word after the path); an item type that is not File or Directory
    is taken as a link (PowerShell matches the type's name loosely)."""
    kinds = _named_values(args, "itemtype") + _named_values(args, "type")
    if not any(k.lower()[:1] not in ("f", "d") for k in kinds):
        return []
    return _named_values(args, "value") + _named_values(args, "target") + rest


def _named_values(args, name):
    """The values given to the parameter `name` by any prefix of it."""
    out = []
    for j, w in enumerate(args):
        p = _param(w)
        if p and len(p[0]) > 1 and name.startswith(p[0]):
            out.append(p[1] if p[1] is not None else args[j + 1] if j + 1 < len(args) else "")
    return [v for v in out if v]


_SPLIT = frozenset("()[]{}@$;|,'\"=+`<>&!\t\n\r ")


def _tokens(text):
    """The words of code the hooks do not parse, split at PowerShell's punctuation, a backslash as
    `/`: `(Join-Path . .env)` names `.env`. Bounded by the text's length."""
    out, cur = [], []
    for c in text[:100000]:
        if c in _SPLIT:
            if cur:
                out.append("".join(cur))
            cur = []
        else:
            cur.append("/" if c == "\\" else c)
    if cur:
        out.append("".join(cur))
    return [w for w in dict.fromkeys(out) if w[:1] != "-"][:512]


def _path_word(word):
    """A cmdlet's word as a POSIX path: `\\` as `/`, `$env:NAME` as `$NAME`, and the automatic
    $HOME and $PWD (any case, as PowerShell reads them) spelt as the path checks know them."""
    w = word.replace("\\", "/")
    k = w.lower().find("$env:")
    while k >= 0:
        w = w[:k] + "$" + w[k + 5 :]
        k = w.lower().find("$env:", k + 1)
    for auto in ("$HOME", "$PWD"):
        k = w.upper().find(auto)
        while k >= 0:
            end = k + len(auto)
            if end >= len(w) or w[end] not in _PS_NAME:
                w = w[:k] + auto + w[end:]
            k = w.upper().find(auto, end)
    return w


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


def _segments(text):
    """The pipeline elements of a command: split on ; | && || and newlines outside quotes
    (`'a;b'` and `"a|b"` are one word), each with whether a `|` feeds it. Single quotes
    double to escape ('it''s')."""
    out, start, quote, i, n = [], 0, None, 0, len(text)
    piped = [False]
    while i < n:
        c = text[i]
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c in ";|\n" or text.startswith("&&", i):
            out.append(text[start:i])
            two = text.startswith(("&&", "||"), i)
            piped.append(c == "|" and not two)
            i += 2 if two else 1
            start = i
            continue
        i += 1
    out.append(text[start:])
    return list(zip(out, piped))


def _assignment(seg):
    """`$name = value` (and +=, -= ...): (scope, name, value text), lower-cased scope and name;
    None when seg is no assignment."""
    if seg[:1] != "$":
        return None
    j = 1
    while j < len(seg) and seg[j] in _PS_NAME:
        j += 1
    ref = seg[1:j]
    rest = seg[j:].lstrip(" \t")
    op = next((o for o in _ASSIGN_OPS if rest.startswith(o)), None)
    if not ref or op is None or rest.startswith("=="):
        return None
    scope, colon, name = ref.lower().rpartition(":")
    return scope, name, rest[len(op) :].strip()


def _literal(value):
    """What `$x = value` puts in $x when value is an expression that runs nothing: the text of
    one quoted string, number or `$name`; OPAQUE for other literal arithmetic and joins (its
    value is not worked out); None when the value may run or read anything."""
    v = value.strip()
    if len(v) > 1 and v[0] == v[-1] and v[0] in "'\"" and v[0] not in v[1:-1]:
        return v[1:-1]
    if v.lstrip("+-").replace(".", "", 1).isdigit():
        return v
    if len(v) > 1 and v[0] == "$" and all(c in _PS_NAME for c in v[1:]):
        return v
    quote, bare = None, []
    for c in v:
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        else:
            bare.append(c)
    if quote or not v:
        return None
    i, text = 0, "".join(bare)
    while i < len(text):
        if text[i] == "$":
            i += 1
            while i < len(text) and text[i] in _PS_NAME:
                i += 1
            continue
        if text[i] not in _EXPR_CHARS:
            return None
        i += 1
    return OPAQUE


def _bash_values(seg, values):
    """`name='value'; ` for each literal variable the segment names, so the bash analysis of a
    program's words sees what PowerShell passes; None when one cannot be spelt so."""
    import shlex

    out = []
    for _, ref in _refs(seg):
        scope, _, name = ref.lower().rpartition(":")
        if name in values and scope in _SCOPES:
            val = values[name]
            if val is None or val is OPAQUE or ":" in ref:
                return None  # bash has no $global:x: a value it cannot see
            out.append("%s=%s; " % (ref, shlex.quote(val)))
    return "".join(out)


def _refs(text):
    """(`$ref` as written, ref) for each variable reference in the text."""
    k = text.find("$")
    while k >= 0:
        j = k + 1
        while j < len(text) and text[j] in _PS_NAME:
            j += 1
        yield text[k:j], text[k + 1 : j]
        k = text.find("$", j)


def _uses(word, names):
    """The names of `names` (lower-cased) the word refers to as $name."""
    found = []
    for written, ref in _refs(word.lower()):
        name = ref.rpartition(":")[2] if ref.rpartition(":")[0] in _SCOPES else ref
        if name in names:
            found.append((written, name))
    return found


def _shows(word):
    """`$x`, `$x.Count`, `$PSVersionTable.PSVersion`: prints a value (not an Env: one)."""
    if word[:1] != "$" or word[1:5].lower() == "env:" or len(word) < 2:
        return False
    return all(c in _PS_NAME or c == "." for c in word[1:])


def _put(word, ref, value):
    """word with the variable reference `ref` (lower-cased) replaced by value."""
    k = word.lower().find(ref)
    while k >= 0:
        end = k + len(ref)
        if end >= len(word) or word[end] not in _PS_NAME:
            word = word[:k] + value + word[end:]
            end = k + len(value)
        k = word.lower().find(ref, end)
    return word


def _names_env_path(words):
    """A word that names the PATH variable on the Env: drive."""
    for w in words[1:]:
        low = w.lower()
        if low.startswith("env:") and low[4:].lstrip("\\/") == "path":
            return True
    return False


def sane_args(cmd):
    """[script, *args] when this PowerShell call runs a sane.py (python sane.py reset,
    & python3 .\\scripts\\hooks\\sane.py unlock, .\\sane.py reset), else None. The caller
    matches only person-only calls to our CLI, so they are denied as the person's, as in
    bash; other calls stay code the hooks do not run as their CLI."""
    from core.shell.effects import interp_scan

    argv = [w.replace("\\", "/") for w in cmd.argv]
    if argv[:1] in (["&"], ["."]):
        argv = argv[1:]
    if not argv:
        return None
    prog = argv[0].rsplit("/", 1)[-1].lower()
    if prog.endswith(".exe"):
        prog = prog[:-4]
    if prog == "sane.py":
        return argv
    if prog in _INTERPRETERS:
        kind, script, rest = interp_scan(argv[1:], "c", (), "WXQ", (), "m")
        if kind == "script" and script.rsplit("/", 1)[-1].lower() == "sane.py":
            return [script] + list(rest)
    return None


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

    # a backslash is a path separator to PowerShell, an escape to bash: `.claude\x` is
    # .claude/x (PowerShell's own escape, the backtick, made the command unknown already)
    sub = analysis.analyse(seg.replace("\\", "/"), home)
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
        why = "PowerShell syntax we do not analyse: an expression, script block or escape"
        a.reasons.append(why)
        cmd = Command(_words(text) or [text])
        cmd.unknown = True
        cmd.named = _tokens(text)  # every path-like word it names: checked, not read
        if any(v in low for v in CLAUDE_VARS):
            # [Environment]::SetEnvironmentVariable('CLAUDECODE', ...) and its kin
            cmd.stripped = True
            cmd.reasons.append("changes CLAUDECODE, then runs code we do not analyse")
        else:
            cmd.reasons.append(why)
        a.commands.append(cmd)
        return a
    stripped = False
    path_changed = False
    values: dict = {}  # variables this command set: name -> literal value, None: an output
    producer = None  # the previous pipeline element: what it lists feeds a writer
    for seg, piped in _segments(text):
        seg = seg.strip()
        fed, producer = producer if piped else None, None
        asg = _assignment(seg)
        if asg is not None and not (asg[0] == "env" and asg[1].startswith(CLAUDE_VARS)):
            scope, name, value = asg
            if scope == "env" and name == "path":
                path_changed = True  # bare program names are looked up in it from here on
                continue
            if scope not in _SCOPES:
                cmd = Command(_words(seg) or [seg])
                cmd.flag("sets $%s:%s, which programs or PowerShell read" % (scope, name), True)
                a.commands.append(cmd)
                continue
            lit = _literal(value)
            refs = _uses(value, values)
            if lit is not None and refs and lit is not OPAQUE:  # $y = $x: x's value
                values[name] = values[refs[0][1]]
                continue
            if lit is not None:
                values[name] = OPAQUE if refs else lit
                continue
            values[name] = None
            if value[:1] not in NAME_START:
                cmd = Command(_words(seg) or [seg])
                cmd.flag("a PowerShell expression the hooks do not analyse", True)
                a.commands.append(cmd)
                continue
            seg = value  # $x = Get-ChildItem: the command runs; its output is kept
        words = _words(seg)
        if words is None:
            a.unknown = True
            a.reasons.append("unbalanced quote")
            continue
        # `\` separates path parts for PowerShell (its escape is the backtick, unsafe above)
        words = [w.replace("\\", "/") for w in words[:1]] + [_path_word(w) for w in words[1:]]
        if not words:
            continue
        if len(words) == 1 and _shows(words[0]):
            continue  # `$x`, `$files.Count`: prints a value
        used = [u for w in words for u in _uses(w, values)]
        first = words[0].lower()
        unseen = [n for _, n in used if values[n] is None]
        unseen += [n for _, n in used if values[n] is OPAQUE and first not in PRINTERS]
        if unseen:
            cmd = Command(words)
            cmd.flag("passes $%s, a value the hooks did not work out, on" % unseen[0], True)
            a.commands.append(cmd)
            continue
        for ref, name in used:
            if values[name] is not OPAQUE:
                words = [_put(w, ref, values[name]) for w in words]
        if used and first not in PRINTERS:
            preset = _bash_values(seg, values)
            if preset is None:
                cmd = Command(words)
                cmd.flag("passes a scoped variable on", True)
                a.commands.append(cmd)
                continue
            seg = preset + seg  # a program's words, judged by bash's analysis below
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
        if path_changed and "-" not in prog:
            cmd.flag("runs %s found through a changed PATH" % rest[0], True)
            a.commands.append(cmd)
            continue
        if _names_env_path(rest) and prog not in READERS and prog not in PRINTERS:
            path_changed = True  # Set-Item Env:PATH ...
        if prog in CODE or prog in WRITERS or prog in READERS or prog in PRINTERS:
            pass
        elif prog in NO_EFFECT:
            pass  # its redirects are its only writes
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
            if prog in FILTERS and fed is not None:
                producer = fed  # `sort` is Sort-Object's alias on Windows
            else:
                producer = Command(rest)
                producer.unknown = True  # its output lines name paths nobody saw
            continue
        if prog in CODE:
            cmd.unknown = True
            cmd.reasons.append("PowerShell runs code: %s" % prog)
        elif prog in WRITERS:
            args = rest[1:]
            dest = WRITERS[prog] in ("destination", "destinationpath")
            paths_, targets, positional = _writer_args(args, WRITERS[prog])
            if dest:  # Copy-Item SRC DEST: -Path names sources, the other word the target
                if paths_:
                    sources, targets = paths_ + positional[1:], targets or positional[:1]
                elif targets:
                    sources = positional
                else:
                    sources, targets = positional[:-1], positional[-1:]
                cmd.reads.extend(_items(sources))
                if prog in _MOVERS:
                    cmd.writes.extend(_items(sources))  # a moved file leaves its place
                if WRITERS[prog] == "destination":  # into a directory: DEST/its name
                    names = [x.rstrip("/").rpartition("/")[2] for x in _items(sources)]
                    for t in _items(targets):
                        cmd.writes.extend(t.rstrip("/") + "/" + n for n in names if n)
            else:
                targets = paths_ + targets or positional[:1]
                new = _named_values(args, "name") if prog in _MAKERS else []
                if prog in _RENAMERS:
                    new = (positional[:1] if paths_ else positional[1:2]) + _named_values(
                        args, "newname"
                    )
                base = targets[0].rstrip("/") if prog in _MAKERS and targets else "."
                if prog in _RENAMERS and targets:
                    base = targets[0].rstrip("/").rpartition("/")[0] or "."
                cmd.writes.extend(base + "/" + n for n in _items(new))
                targets = targets or [base + "/" + n for n in _items(new)]
                if prog in _MAKERS:
                    # a hard link, symbolic link or junction makes its target writable by a
                    # new name (as `ln` does): the target counts as written, and as a tree a
                    # later search through the link reads
                    linked = _items(_link_targets(args, positional[1:]))
                    cmd.writes.extend(linked)
                    cmd.tree.extend(linked)
            if not targets and not (dest and cmd.reads) and fed is not None:
                # `gci X | Remove-Item`: the writer acts on what a lister lists; anything
                # else (file lines, objects) names paths the hooks do not see
                if fed.program in LISTERS and not fed.unknown:
                    targets = fed.reads or ["."]
                else:
                    cmd.unknown = True
                    cmd.named = fed.reads + fed.writes + fed.named
            if targets:
                cmd.writes.extend(_items(targets))
            elif not cmd.reads:
                cmd.unknown = True
            if (
                prog in ("remove-item", "rm", "del", "erase", "rd", "rmdir", "ri")
                and any(w.lower() in ("-recurse", "-r") for w in args)
                and any(w.lower() in ("-force", "-fo") for w in args)
            ):
                cmd.destructive = True
                cmd.reasons.append("recursive force delete")
        elif prog in READERS:
            cmd.reads.extend(_items(w for w in rest[1:] if not w.startswith("-")))
        a.commands.append(cmd)
        # `gci X | Select-Object -First 3 | rm`: a filter passes on what came before it
        producer = fed if fed is not None and prog in FILTERS else cmd
    for c in a.commands:
        if c.unknown and isinstance(c, Command):
            # code nobody parsed (`bash -c 'cat .env'`, `iex "gc .env"`): every word in it
            # is named, as the unparsed forms above are
            c.named = list(dict.fromkeys(c.named + _tokens(" ".join(c.argv[1:]))))
        a.reads += [r for r in c.reads if r not in a.reads]
        a.writes += [w for w in c.writes if w not in a.writes]
        a.unknown = a.unknown or c.unknown
        a.destructive = a.destructive or c.destructive
        a.reasons += c.reasons
    return a
