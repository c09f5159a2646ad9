"""Words whose value the analysis follows after parsing: a loop variable takes every word of
its list, a function's $@/$1.. take the arguments of its calls in the same command, and
`shopt` options that change what a glob matches (extglob, nocaseglob, globstar, dotglob,
nullglob) widen every glob word to what it could match under them."""

from __future__ import annotations

from core.shell.budget import Bound

_POSITIONAL = ("$@", "${@}", "$*", "${*}") + tuple(
    f for i in range(1, 10) for f in ("$%d" % i, "${%d}" % i)
)
# shopt options that change which names a glob word stands for
_GLOB_OPTS = frozenset(
    ("extglob", "nocaseglob", "nocasematch", "globstar", "dotglob", "nullglob", "failglob")
)
_EXT = "?*+@!"
_DEPTH = 6  # directory levels a read's `**` is followed down


def call_values(ctx) -> str:
    """$@ $* $1..$9 inside a function this command defines may be any argument of any call
    of it here (shift and set -- move them). Returns a too-complex reason, or ""."""
    values = [v for vs in ctx.alts.values() for v in vs if "$" in v]
    used = [
        k
        for k in _POSITIONAL
        if any(k in w for c in ctx.out for w in c.reads + c.writes if "$" in w)
        or any(k in v for v in values)
    ]
    if not used:
        return ""
    try:
        for c in ctx.out:
            if c.program == "set":  # set -- WORDS in a function body: its $1.. are these
                args = c.argv[c.argv.index("--") + 1 :] if "--" in c.argv else c.argv[1:]
                if args and args[0][:1] in ("-", "+") and "--" not in c.argv:
                    args = []  # options only (set -e, set -o x): no new parameters
            elif c.program in ctx.funcs:
                args = c.argv[1:]
            else:
                continue
            for a in args:
                for k in used:
                    ctx.alternative(k, a)
    except Bound as e:
        ctx.error(str(e))
        return str(e)
    return ""


def array_values(ctx) -> str:
    """name=(w1 w2 ..), name[K]=w, declare -A name=([k]=w): every `${name[...]...}` (any
    subscript: N, -1, an expression, @, *, a key), "$name" and "${name}" may be any element
    (a glob: each match), after the operator that follows the subscript. Returns a
    too-complex reason, or ""."""
    arrays: dict[str, list[str]] = {}
    for name, value in list(ctx.vars.items()):
        if not isinstance(value, str):
            continue
        if value[:1] == "(" and value[-1:] == ")":
            arrays.setdefault(name, []).extend(_elements(value))
        elif name[-1:] == "]" and "[" in name:
            arrays.setdefault(name[: name.index("[")], []).append(value)  # a[3]=w
    if not arrays:
        return ""
    words = [w for c in ctx.out for w in c.reads + c.writes if "$" in w]
    try:
        for name, elements in arrays.items():
            if not elements:
                continue
            keys = {"$" + name: "", "${%s}" % name: ""}
            for w in words:
                _subscripted(w, name, keys, ctx)
            for k, rest in keys.items():
                if any(k in w for w in words):
                    for v in elements[:256]:
                        ctx.alternative(k, _after(v, rest, ctx))
    except Bound as e:
        ctx.error(str(e))
        return str(e)
    return ""


def _subscripted(word: str, name: str, keys: dict, ctx) -> None:
    """Every `${name[...]REST}` in word -> keys[that text] = REST (its operator, or "")."""
    head = "${%s[" % name
    i = word.find(head)
    while i >= 0 and len(keys) < 64:
        depth = 0
        j = i + 2
        close = -1
        while j < len(word):
            ctx.budget.spend(1)
            if word[j] == "{":
                depth += 1
            elif word[j] == "}":
                if depth == 0:
                    break
                depth -= 1
            elif word[j] == "]" and close < 0 and depth == 0:
                close = j
            j += 1
        if j >= len(word) or close < 0:
            return
        keys[word[i : j + 1]] = word[close + 1 : j]
        i = word.find(head, j)


def _after(value: str, rest: str, ctx) -> str:
    """An element after the operator that follows its subscript (`${a[0]%x}`), as far as the
    analysis works it out; the element itself otherwise."""
    if not rest:
        return value
    from core.shell.paramops import strip_affix, transform

    op = rest[:2] if rest[:2] in ("##", "%%") else rest[:1]
    if op in ("#", "%", "##", "%%") and not any(ch in rest for ch in "$`\\'\""):
        return strip_affix(value, rest[len(op) :], op, ctx)
    if rest[:1] in ":^,/" and rest[1:2] not in ("-", "=", "+", "?"):
        out = transform(value, rest, ctx)
        return value if out is None else out
    return value


def _elements(value: str) -> list[str]:
    """The words of an array's (..) text, quotes removed (an approximation: no expansion)."""
    out: list[str] = []
    cur: list[str] = []
    quote = ""
    for ch in value.replace(")(", " ")[1:-1]:
        if quote:
            if ch == quote:
                quote = ""
            else:
                cur.append(ch)
        elif ch in "'\"":
            quote = ch
        elif ch in " \t\n":
            if cur:
                out.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
    if cur:
        out.append("".join(cur))
    # ([k]=w [3]=w): the value of each keyed element
    return [w.split("]=", 1)[1] if w[:1] == "[" and "]=" in w else w for w in out[:256]]


def _at(r: str, word: str, i: int) -> bool:
    """word occurs at r[i]: whole ($f is not the start of $foo; $1 is in $10, as in bash)."""
    if not r.startswith(word, i):
        return False
    end = i + len(word)
    last = word[-1]
    if end < len(r) and (last.isalpha() or last == "_" or last.isdigit() and word[1:2] != "{"):
        nx = r[end]
        if word[1:].isdigit():
            return True
        return not (nx.isalnum() or nx == "_")
    return True


def _replace(r: str, word: str, alt: str) -> str | None:
    out = []
    i = k = 0
    hit = False
    while True:
        j = r.find(word, i)
        if j < 0:
            break
        if _at(r, word, j):
            out.append(r[k:j])
            out.append(alt)
            k = j + len(word)
            hit = True
        i = j + 1
    if not hit:
        return None
    out.append(r[k:])
    return "".join(out)


def substitute(ctx) -> str:
    """Reads and writes that hold a word with known values ("${X:-.env}", a loop variable,
    a function's "$1") are also read or written with each value (a few rounds: a loop over
    "$d"/* inside a loop over d). Returns a too-complex reason, or ""."""
    if not ctx.alts:
        return ""
    try:
        for c in ctx.out:
            for field in (c.reads, c.writes, getattr(c, "looks", [])):
                todo = list(field)
                seen = set(field)  # a list scan per new path made this quadratic
                for _ in range(3):
                    extra = []
                    for r in todo:
                        if "$" not in r:
                            continue
                        for word, alts in ctx.alts.items():
                            if word not in r:
                                continue
                            for a in alts:
                                ctx.budget.spend(2 + len(r) // 64)
                                x = _replace(r, word, a)
                                if x and x not in seen:
                                    seen.add(x)
                                    extra.append(x)
                    if not extra:
                        break
                    field.extend(extra)
                    todo = extra
    except Bound as e:
        ctx.error(str(e))
        return str(e)
    return ""


def options(ctx) -> set[str]:
    """The glob options `shopt -s` turns on anywhere in this command (all of them when the
    option name is dynamic); GLOBIGNORE set turns on dotglob."""
    on: set[str] = set()
    for c in ctx.out:
        if c.program != "shopt":
            continue
        args = c.argv[1:]
        if not any(a[:1] == "-" and "s" in a for a in args):
            continue
        for a in args:
            if a[:1] == "-":
                continue
            if "$" in a or "`" in a:
                on |= _GLOB_OPTS
            elif a in _GLOB_OPTS:
                on.add(a)
    if "GLOBIGNORE" in ctx.vars:
        on.add("dotglob")
    return on


def _ext_paren(s: str, i: int) -> int:
    """End (after the ')') of the extglob group whose '(' is at s[i], or -1."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == "(":
            depth += 1
        elif s[j] == ")":
            depth -= 1
            if depth == 0:
                return j + 1
    return -1


def _has_ext(w: str) -> bool:
    i = w.find("(")
    while i > 0:
        if w[i - 1] in _EXT:
            return True
        i = w.find("(", i + 1)
    return False


def _dot_group(part: str) -> bool:
    """An extglob group that starts the name and has a sub-pattern beginning with a dot
    (`@(.e)nv`): it may match a dot file, as bash matches one without dotglob."""
    return part[:1] in _EXT and part[1:2] == "(" and ("(." in part or "|." in part)


def _component(part: str, on: set[str]) -> str:
    if "extglob" in on:
        out = []
        i = 0
        while i < len(part):
            if part[i] in _EXT and part[i + 1 : i + 2] == "(":
                end = _ext_paren(part, i + 1)
                if end > 0:
                    out.append("*")  # any of the names the group can match, or more
                    i = end
                    continue
            out.append(part[i])
            i += 1
        part = "".join(out)
    if not any(ch in part for ch in "*?["):
        return part
    if "globstar" in on and "**" in part:
        return "**"
    if on & {"nocaseglob", "nocasematch"}:
        if "[" in part:
            return "." * (part[:1] == ".") + "*"  # a class: any name (a dot one if it leads)
        part = "".join("[%s%s]" % (ch.lower(), ch.upper()) if ch.isalpha() else ch for ch in part)
    return part


def widen(word: str, on: set[str], tree: bool = True) -> list[str]:
    """What a glob word may match under the options `on`, as plain globs: extglob groups are
    `*`, letters of a no-case component match both cases, `**` (globstar) is every path below
    its prefix (`tree`: a write or a tree) or the pattern at each depth up to a bound (a
    read), and with dotglob a component that starts with a wildcard may name a dot file.
    Not a glob: [] (the word names itself)."""
    if not (any(ch in word for ch in "*?[") or "extglob" in on and _has_ext(word)):
        return []
    raw = word.split("/")
    parts = [_component(p, on) for p in raw]
    shapes = [(parts, raw)]
    if "globstar" in on and "**" in parts:
        k = parts.index("**")
        if tree:  # a shorter pattern names every path below its prefix
            shapes = [(parts[:k] + ["*"], raw[:k] + ["*"])]
        else:  # zero or more directories: each depth up to a bound
            shapes = [
                (parts[:k] + ["*"] * d + parts[k + 1 :], raw[:k] + ["*"] * d + raw[k + 1 :])
                for d in range(_DEPTH)
                if d or parts[k + 1 :]
            ]
    out = []
    for ps0, raw0 in shapes:
        out.append("/".join(ps0))
        # a leading wildcard may name a dot file under dotglob (a directory `**` walks
        # into too); an extglob group may spell the dot
        dots = [i for i, p in enumerate(ps0) if p[:1] in ("*", "?", "[")]
        if "dotglob" not in on:
            dots = [i for i in dots if "extglob" in on and _dot_group(raw0[i])]
        lead = dots[:4]
        for mask in range(1, 1 << len(lead)):
            ps = list(ps0)
            for b, i in enumerate(lead):
                if mask >> b & 1:
                    ps[i] = "." + ps[i]
            out.append("/".join(ps))
    return [w for w in out if w != word]


def apply(ctx, cwd_default: str = ".") -> str:
    """_apply, bounded: returns a too-complex reason, or ""."""
    try:
        _apply(ctx, cwd_default)
    except Bound as e:
        ctx.error(str(e))
        return str(e)
    return ""


def _apply(ctx, cwd_default: str) -> None:
    """Widen the glob words every command reads or writes when `shopt` changed what globs
    match. nullglob: a glob that matches nothing vanishes, so a reader may read its
    default (the cwd: grep -r PAT *.none) and find may start at '.' instead."""
    # extglob on or not: without it `@(` is a syntax error, and the person's shell snapshot
    # (bash-completion turns it on) may carry it into the Bash tool
    on = options(ctx) | {"extglob"}
    for c in ctx.out:
        for field in (c.reads, c.writes, c.tree):
            extra: list[str] = []
            seen = set(field)
            for w in list(field):
                if "$" in w or "`" in w:
                    continue
                wide = widen(w, on, field is not c.reads)
                if wide:
                    ctx.budget.spend(len(wide) * (1 + len(w) // 64))
                for x in wide:
                    if x not in seen:
                        seen.add(x)
                        extra.append(x)
            field.extend(extra)
        if "nullglob" not in on:
            continue
        globbed = [w for w in c.argv[1:] if any(ch in w for ch in "*?[") or _has_ext(w)]
        if globbed:
            here = c.cwd if isinstance(c.cwd, str) and c.cwd != "$PWD" else cwd_default
            if here not in c.reads:
                c.reads.append(here)
            if c.program == "find" and any(w in c.writes for w in globbed):
                c.writes.append(here)
            c.flag(
                "nullglob: a glob that matches nothing vanishes and the words after it move",
                unknown=True,
            )
        if c.argv and any(ch in c.argv[0] for ch in "*?["):
            c.flag("the program name is a glob", unknown=True)
