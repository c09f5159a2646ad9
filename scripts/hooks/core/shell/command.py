"""The Command record and the helpers every program family shares: option parsing,
stdin text, paths joined onto an earlier `cd`, scripts written earlier in the same command."""

from __future__ import annotations

from core.shell.budget import TOO_COMPLEX, Bound
from core.shell.lexer import DYNAMIC, Raw


class Command:
    """One simple command that would run."""

    __slots__ = (
        "argv",
        "program",
        "env",
        "redirects",
        "reads",
        "looks",
        "writes",
        "destructive",
        "unknown",
        "reasons",
        "stdin_is_data",
        "text",
        "wrappers",
        "code",
        "cwd",
        "remote",
        "runner",
        "tree",
        "named",
        "stripped",
        "globs",
        "plain_tree",
    )

    def __init__(self):
        self.argv = []
        self.program = ""
        self.env = {}
        self.redirects = []
        self.reads = []
        self.looks = []  # paths only looked at: names, sizes, types, counts (core.shell.looks)
        self.writes = []
        self.destructive = False
        self.unknown = False
        self.reasons = []
        self.stdin_is_data = False
        self.text = ""
        self.wrappers = []
        self.code = []
        self.cwd = None  # after an earlier `cd` in the same command: where it runs
        self.remote = False  # changes a remote system or a service (cluster, cloud, database)
        self.runner = False  # runs code the hooks cannot see that is the project's own work
        self.tree = []  # directories whose files it reads (find -exec cat)
        self.named = []  # for unknown code: every path-like word it names (checked, not read)
        self.globs = []  # name patterns of files fed to it as data (find -name X | xargs cat)
        self.plain_tree = []  # directories whose non-dot files it reads (fed by a plain ls)
        self.stripped = False  # runs with CLAUDECODE removed or changed (the CLI's person test)

    def __repr__(self):
        return "Command(%r)" % (self.argv,)

    def flag(self, reason, unknown=False, destructive=False, remote=False, runner=False):
        """Record an effect and its reason. `runner`: code the hooks cannot see that a known
        runner runs (tests, builds), so also `unknown`; `remote`: a change outside this
        machine's files (a cluster, a cloud, a database, a service)."""
        if unknown or runner:
            self.unknown = True
        if runner:
            self.runner = True
        if destructive:
            self.destructive = True
        if remote:
            self.remote = True
        if reason not in self.reasons:
            self.reasons.append(reason)


NOT_FILES = frozenset(
    (
        "/dev/null",
        "/dev/zero",
        "/dev/stdout",
        "/dev/stderr",
        "/dev/stdin",
        "/dev/tty",
        "/dev/random",
        "/dev/urandom",
        "/dev/full",
        "-",
        "",
    )
)


DISKS = (
    "/dev/sd",
    "/dev/hd",
    "/dev/vd",
    "/dev/xvd",
    "/dev/nvme",
    "/dev/mmcblk",
    "/dev/disk",
    "/dev/rdisk",
    "/dev/md",
    "/dev/dm-",
    "/dev/mapper/",
    "/dev/loop",
    "/dev/sr",
)


_VAGUE = frozenset("$`*?[")


def prog_name(w):
    """Normalised program name: basename, quotes and a leading backslash already gone."""
    j = w.rfind("/")
    if j >= 0:
        w = w[j + 1 :]
    w = w.lstrip("\\")
    if w[-4:].lower() == ".exe":
        w = w[:-4]
    return w


def vague(p):
    """A path the analysis cannot pin down: unexpanded $VAR, $(..), backtick or a glob."""
    for ch in p:
        if ch in _VAGUE:
            return True
    return False


def pathlike(a):
    return (
        (a[:1] in (".", "~", "/") or "/" in a)
        and a[:1] != "-"
        and "\n" not in a
        and " " not in a
        and "://" not in a
    )


def opts(a, short_arg="", long_arg=(), first_operand_stops=False):
    """Generic getopt: -> (list of (name, value|True), operands).  `short_arg` lists short
    options that take a value (attached or next word); `long_arg` long ones (--x=v or --x v)."""
    found = []
    ops = []
    i = 0
    n = len(a)
    while i < n:
        w = a[i]
        if w == "--":
            ops.extend(a[i + 1 :])
            break
        if w[:2] == "--":
            name, eq, val = w.partition("=")
            if name not in long_arg:
                # getopt_long: an unambiguous prefix is the option (`--outp` = `--output`)
                full = [x for x in long_arg if long_match(name, x)]
                if len(full) == 1:
                    name = full[0]
            else:
                full = [name]
            if eq:
                found.append((name, val))
            elif full and i + 1 < n:  # every option it may stand for takes a value
                found.append((name, a[i + 1]))
                i += 1
            else:
                found.append((name, True))
        elif w[:1] == "-" and len(w) > 1:
            j = 1
            while j < len(w):
                ch = w[j]
                if ch in short_arg:
                    if j + 1 < len(w):
                        found.append(("-" + ch, w[j + 1 :]))
                    elif i + 1 < n:
                        found.append(("-" + ch, a[i + 1]))
                        i += 1
                    else:
                        found.append(("-" + ch, ""))
                    break
                found.append(("-" + ch, True))
                j += 1
        else:
            if first_operand_stops:
                ops.extend(a[i:])
                break
            ops.append(w)
        i += 1
    return found, ops


def long_match(given, full):
    """GNU getopt_long and git's parse-options take any prefix of a long option (`--li` is
    `--link` when no other option starts so; when one does, the program stops with an error),
    so a prefix of a dangerous option is judged as that option."""
    return given == full or (
        given[:2] == "--" and full[:2] == "--" and len(given) > 2 and full.startswith(given)
    )


def _named(k, names):
    if k in names:
        return True
    if k[:2] == "--" and len(k) > 2:
        for n in names:
            # `--output` is its own option beside `--output-dir`: a prefix that ends where a
            # word of the longer name ends is taken as an option of its own
            if long_match(k, n) and n[len(k) : len(k) + 1] != "-":
                return True
    return False


def has(found, *names):
    for k, _ in found:
        if _named(k, names):
            return True
    return False


def vals(found, *names):
    return [v for k, v in found if v is not True and _named(k, names)]


def stdin_redirect(raw):
    for r in reversed(raw.redirs):
        if r.fd in (None, 0) and r.op in ("<<", "<<-", "<<<", "<", "<>"):
            return r
    return None


def stdin_text(raw):
    """The text a command gets on stdin when the analysis can see it; None when it cannot
    (a pipe from curl, `< file`); '' when nothing is fed."""
    r = stdin_redirect(raw)
    if r is not None:
        return None if r.op in ("<", "<>") else (r.body or "")
    if not raw.piped:
        return ""
    prev = raw.prev
    pc = prev.cmd if prev is not None else None
    if pc is None or pc.unknown:
        return None
    a = pc.argv[1:]
    if pc.program == "echo":
        while a and a[0] in ("-n", "-e", "-E", "-ne", "-en"):
            a = a[1:]
        return " ".join(a) + "\n"
    if pc.program == "printf" and len(a) == 1 and "%" not in a[0]:
        return a[0].replace("\\n", "\n").replace("\\t", "\t")
    if pc.program == "cat" and not a:
        r = stdin_redirect(prev)
        if r is not None and r.op != "<":
            return r.body or ""
    return None


def spawn(words, p, piped=False, prev=None):
    """Run words as a command of their own (find -exec, parallel, flock ...)."""
    if words:
        p.ctx.finalise(Raw(list(words), [], [], piped, prev), p)


def stdin_code(c, a, p, raw, lang, shell=False):
    """An interpreter with no script: its stdin is code."""
    if not c.stdin_is_data:
        return
    body = stdin_text(raw)
    if body is None:
        r = stdin_redirect(raw)
        if r is not None and r.op in ("<", "<>"):
            c.reads.append(r.target)
        c.flag("script piped into %s" % lang if shell else "%s code on stdin" % lang, unknown=True)
        return
    if body == "":
        return
    c.code.append(body)
    if shell:
        p.subparse(body, pos=list(a))
    else:
        c.flag("%s code on stdin" % lang, unknown=True)


def cd_to(ctx, target):
    if target == "-" or vague(target) or ctx.cwd is DYNAMIC and target[:1] != "/":
        ctx.cwd = DYNAMIC
    elif target[:1] == "/" or ctx.cwd is None:
        ctx.cwd = target.rstrip("/") or "/"
    else:
        ctx.cwd = join(ctx.cwd, target)


def join(base, p):
    if p[:1] == "/":
        return p
    if p in ("", "."):
        return base
    if base == ".":
        return p
    return base.rstrip("/") + "/" + p


def link(p, name, raw_target, maybe_dir):
    """Remember a symlink this command makes, so later writes through it are seen. A dynamic
    or globbed target is kept as it is (the write through it is then half-seen, not
    missed); `ln -s T D` into an existing directory D makes D/<name of T>."""
    cwd = p.ctx.cwd if isinstance(p.ctx.cwd, str) else None
    names = [name]
    if maybe_dir:
        names.append(join(name.rstrip("/"), raw_target.rstrip("/").rsplit("/", 1)[-1]))
    for name in names:
        targets = [raw_target]
        if raw_target[:1] != "/" and "/" in name.rstrip("/"):
            # relative to the link's directory; '$PWD/..' renders as './..', so keep both
            targets.insert(0, join(name.rstrip("/").rsplit("/", 1)[0], raw_target))
        name = norm(join(cwd, name) if cwd else name)
        targets = [norm(join(cwd, t) if cwd and t[:1] not in ("/", "$") else t) for t in targets]
        if not vague(name):
            if len(p.ctx.links) >= 256:  # a link left out could be the one written through
                raise Bound(TOO_COMPLEX + " (more symlinks than it follows)")
            p.ctx.links[name.rstrip("/")] = [t.rstrip("/") or "/" for t in targets]


def own_script(c, path, args, p, lang, shell=False):
    """A script written earlier in this same command: code we may be able to see. True when
    it was one (its code analysed, or flagged when it cannot be)."""
    ctx = p.ctx
    key = norm(join(ctx.cwd, path) if isinstance(ctx.cwd, str) else path)
    if key not in ctx.written:
        return False
    body = ctx.written[key]
    if body is not None:
        c.code.append(body)
    first = (body or "").split("\n", 1)[0]
    if (
        shell
        and body is not None
        and (
            not first.startswith("#!")
            or first.rstrip().endswith(("sh", "bash", "zsh", "dash", "ksh"))
        )
    ):
        p.subparse(body, pos=list(args))
    else:
        c.flag("runs a script written by this same command (%s)" % lang, unknown=True)
    return True


def vague_script(path):
    """A script path we cannot pin down; $CLAUDE_PROJECT_DIR/... is the caller's to resolve."""
    for var in ("$CLAUDE_PROJECT_DIR/", "${CLAUDE_PROJECT_DIR}/"):
        if path.startswith(var):
            return vague(path[len(var) :])
    return vague(path)


_FD_DIRS = ("/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/")


def fd_path(f):
    """An open descriptor of the process itself (/dev/fd/3, /proc/self/fd/0): no file name.
    A path that goes on past the number or walks up (/dev/fd/../../self/cwd/x) names a file."""
    for d in _FD_DIRS:
        if f.startswith(d):
            return f[len(d) :].isdigit()
    return False


def pipe_path(f):
    return fd_path(f) or f == "/dev/stdin"


def norm(path):
    while path[:2] == "./" and len(path) > 2:
        path = path[2:]
    return path


def interp_scan(a, short_code, long_code, short_arg, long_arg, short_mod):
    """-> (kind, value, rest): kind is 'code', 'module', 'script', 'stdin' or 'none'."""
    i = 0
    n = len(a)
    while i < n:
        w = a[i]
        if w == "-":
            return "stdin", None, a[i + 1 :]
        if w == "--":
            return ("script", a[i + 1], a[i + 2 :]) if i + 1 < n else ("none", None, [])
        if w[:1] != "-" or len(w) < 2:
            return "script", w, a[i + 1 :]
        if w[:2] == "--":
            name, eq, val = w.partition("=")
            if name in long_code:
                return "code", val if eq else (a[i + 1] if i + 1 < n else ""), a[i + 2 :]
            if name in long_arg and not eq:
                i += 1
            i += 1
            continue
        if w in long_code:  # erl -eval
            return "code", a[i + 1] if i + 1 < n else "", a[i + 2 :]
        j = 1
        while j < len(w):
            ch = w[j]
            if ch in short_code or ch in short_mod or ch in short_arg:
                v = w[j + 1 :]
                step = 1
                if not v:
                    v = a[i + 1] if i + 1 < n else ""
                    step = 2
                if ch in short_code:
                    return "code", v, a[i + step :]
                if ch in short_mod:
                    return "module", v, a[i + step :]
                i += step - 1
                break
            j += 1
        i += 1
    return "none", None, []


_TOKEN_SPLIT = " \t\n'\"(),;=<>|&{}[]`+:@"  # @: response files, key@FILE values
_GLOB_SPLIT = _TOKEN_SPLIT.replace("[", "").replace("]", "")
_MAX_TOKENS = 256


def every_word(c, words):
    """For a command the hooks cannot see into: every word and every piece of one (option
    values, code text) is named, so a blocked or protected path it names is caught wherever
    it stands."""
    for w in words:
        if len(c.named) > _MAX_TOKENS:
            c.flag("too many words to check", unknown=True)
            return
        if not isinstance(w, str) or not w or len(w) > 65536:
            continue
        if w[:2] == "--" and "=" in w:
            w = w.split("=", 1)[1]
        elif w[:1] == "-" and w[1:2] != "-" and len(w) > 2:
            w = w[2:]  # -ofile, -I/path, -F.env: the value stuck to a short option
        if "[" in w and not any(ch in _GLOB_SPLIT for ch in w):
            _word_read(c, w)  # scripts/hook[s]: a bracket glob, whole as bash matches it
        cur = []
        for ch in w:
            if ch in _TOKEN_SPLIT:
                if cur:
                    _word_read(c, "".join(cur))
                    cur = []
            else:
                cur.append(ch)
        if cur:
            _word_read(c, "".join(cur))


def _word_read(c, tok):
    if tok[:1] == "-" or tok in NOT_FILES or len(tok) > 4096 or len(tok) < 2:
        return
    if "://" in tok:
        if tok.startswith("file://"):
            c.named.append(tok[7:])
        return
    if "$" in tok:
        return
    c.named.append(tok)  # a glob stands for what it matches (core.policy expands it)


def prefix_of(name, full):
    """GNU getopt takes any unambiguous prefix of a long option: `--in-pl` is `--in-place`."""
    return name != full and long_match(name, full)


def risky_prefix(a, risky):
    """The first word of `a` that is an abbreviation of one of the `risky` long options (an
    exact name wins, as in getopt_long: `--file` is not `--files-from`)."""
    for w in a:
        if w == "--":
            break
        name = w.split("=", 1)[0]
        if name[:2] == "--" and name not in risky and any(prefix_of(name, r) for r in risky):
            return w
    return None
