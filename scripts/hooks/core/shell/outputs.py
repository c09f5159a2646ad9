"""Readers and formatters with output, exec or in-place options. A reader (the readers and
pagers families, exiftool) is read-only only with the options that print: an output option
(-o, --output, --out, --report-file), an output operand (pdftotext IN OUT), an in-place flag
(mlr -I, --in-place) or an edit verb (dasel put) is a write; a pager, program, init or
command option, or a DSL that calls system()/exec() or writes with tee/emit/print >, is
code the hooks cannot see."""

from __future__ import annotations

# parts of long option names that name where output goes (--output, --report-file, --out)
_OUT_WORDS = frozenset(
    ("out", "output", "outfile", "report", "write", "save", "dump", "tee", "logfile", "log")
)
# parts that make it a style, not a place (--output-format, --layout is no part match)
_NOT_PLACE = frozenset(("format", "fmt", "style", "color", "colour", "width", "mode", "type"))
# parts of long option names that name code to run
_CODE_WORDS = frozenset(
    (
        "pager",
        "exec",
        "command",
        "cmd",
        "init",
        "shell",
        "preprocess",
        "plugin",
        "script",
        "eval",
        "editor",
        "preprocessor",
        "lessopen",
        "hook",
        "program",
        "prepipe",
        "prepipex",
    )
)
_INPLACE = ("--in-place", "--inplace")
_INPLACE_SHORT = {"mlr": "-I"}  # tree -I is a pattern, mlr -I edits in place
# short options that run commands, per program (man -P pager, mlr -s FILE of arguments)
_CODE_SHORT = {"man": "PH", "less": "", "file": "C", "mlr": "s"}
# programs whose second operand is the output file
_OUT_OPERAND = {"pdftotext": 1, "pdftohtml": 1, "pdftoppm": 1, "pdfimages": 1, "pdftocairo": 1}
# DSL text that runs commands or writes files
_DSL_CODE = ("system(", "exec(", "popen", "tee >", "emit >", "print >", "dump >", "printn >")
_EDIT_VERBS = ("put", "set", "delete", "edit", "write")


# subcommands of listed readers that write files or caches (bat cache --build, xsv index)
_WRITING_VERBS = {"bat": ("cache",), "batcat": ("cache",), "xsv": ("index", "split")}
# mlr verbs that write files of their own (split writes split_*.csv, tee a copy)
_MLR_WRITERS = frozenset(("split", "tee"))


def judge(c, prog: str, a: list[str]) -> None:
    """Flag the output, in-place and code options of a reader."""
    from core.shell import readeropts

    bad = ""
    listed_ops: list[str] = []
    if prog in readeropts.LISTED:
        bad, listed_ops = readeropts.unlisted(prog, a)
        if bad:
            c.flag(
                "%s %s is an option the hooks do not know (it may write a file or run code)"
                % (prog, bad),
                unknown=True,
            )
        if listed_ops and listed_ops[0] in _WRITING_VERBS.get(prog, ()):
            c.flag("%s %s writes files" % (prog, listed_ops[0]), unknown=True)
    ops: list[str] = []
    outs: list[str] = []
    inplace = False
    short_code = _CODE_SHORT.get(prog, "")
    i = 0
    if prog in readeropts.LISTED and not bad:
        ops, i = listed_ops, len(a)  # only options that print: the operands are what is left
    while i < len(a):
        w = a[i]
        nxt = a[i + 1] if i + 1 < len(a) else None
        if w == "--":
            ops.extend(a[i + 1 :])
            break
        if w[:2] == "--" and len(w) > 2:
            name, eq, val = w[2:].partition("=")
            parts = set(name.lower().replace("_", "-").split("-"))
            if w in _INPLACE:
                inplace = True
            elif parts & _CODE_WORDS:
                c.flag("%s --%s runs a program the hooks cannot see" % (prog, name), unknown=True)
            elif parts & _OUT_WORDS and not parts & _NOT_PLACE and (eq or name != "log"):
                target = val if eq else nxt
                if target and target[:1] != "-":
                    outs.append(target)
                    i += 0 if eq else 1
        elif w[:1] == "-" and len(w) > 1:
            if prog == "exiftool" and ("=" in w or "<" in w):
                inplace = True  # -TAG=value, -FileName=, -all=: exiftool writes the files
            elif w in _INPLACE or w == _INPLACE_SHORT.get(prog):
                inplace = True
            elif w[:2] == "-o":
                target = w[2:] or nxt
                if target and target != "-":
                    outs.append(target)
                    i += 0 if w[2:] else 1
            elif short_code and w[1:2] in short_code:
                c.flag("%s %s runs a program the hooks cannot see" % (prog, w), unknown=True)
        else:
            ops.append(w)
        i += 1
    if prog == "mlr" and _MLR_WRITERS & set(ops):
        c.flag("mlr split/tee writes files", unknown=True)
    text = " ".join(ops).lower()
    if any(k in text for k in _DSL_CODE):
        c.flag("%s expression runs commands or writes files" % prog, unknown=True)
    if ops and ops[0].lower() in _EDIT_VERBS and prog in ("dasel", "yq", "tomlq", "gron"):
        inplace = True
        if prog == "dasel":  # dasel put -f FILE: the file it edits
            outs.extend(_values(a, ("-f", "--file")))
    n = _OUT_OPERAND.get(prog)
    if n is not None and len(ops) > n and ops[n] != "-":
        outs.append(ops[n])
    if inplace:
        outs.extend(x for x in ops if "/" in x or "." in x)
    for o in outs:
        if o not in c.writes:
            c.writes.append(o)
    if outs:
        c.flag("%s writes %s" % (prog, ", ".join(outs[:3])))


def _values(a: list[str], names: tuple[str, ...]) -> list[str]:
    out = []
    for i, w in enumerate(a):
        name, eq, val = w.partition("=")
        if name in names:
            out.append(val if eq else a[i + 1] if i + 1 < len(a) else "")
    return [x for x in out if x]


def h_exiftool(c, a, p, raw):
    """exiftool reads metadata; tag assignments, -o and -FileName= write or move files."""
    judge(c, "exiftool", a)
