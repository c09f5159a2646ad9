"""Where language package managers write, and the verbs of theirs that only read: the
directory options that move a project (composer -d, pdm -p, cargo --manifest-path), the
paths project generators create (cargo new, uv init, uv venv), conda's environments and the
go list/doc options that only print."""

from __future__ import annotations

from core.shell.command import vals

# per manager: short and long options whose value is the project, prefix or output directory
# (or a file in it), beyond the -C/--directory/--project/--manifest-path every one is read for
DIR_OPTIONS = {
    "composer": ("d", ("--working-dir",)),
    "pdm": ("p", ()),
    "bundle": ("", ("--path", "--binstubs", "--gemfile", "--lockfile")),
    "conda": ("pf", ("--prefix", "--file")),
    "mamba": ("pf", ("--prefix", "--file")),
    "micromamba": ("pf", ("--prefix", "--file")),
}
# the options above whose value is a file: the manager writes beside it (target/, vendor/)
_FILE_IN_DIR = ("--manifest-path", "--gemfile")


def project_dirs(found) -> list:
    """The directories (and files) a writing verb changes, by the options that name them."""
    out = list(
        vals(found, "-C", "--directory", "--project", "-d", "--working-dir", "-p", "--prefix")
    )
    out += vals(found, "--path", "--binstubs", "--lockfile", "-f", "--file")
    for v in vals(found, *_FILE_IN_DIR):
        out.append(v.rpartition("/")[0] or ".")
    return out


def made_paths(prog, sub, ops, a) -> list:
    """Paths a generator creates (cargo new P, uv init P, uv venv P, hatch new NAME P), the
    directory go mod vendor -o fills (after emptying it) and the packages go fmt rewrites."""
    if sub in ("new", "init", "create", "venv"):
        return list(ops[1:])
    if prog == "go" and sub == "mod" and ops[1:2] == ["vendor"]:
        return _go_values(a, "o")
    if prog == "go" and sub == "fmt":
        paths = [w for w in ops[1:] if w[:1] in (".", "/")]
        return [w[:-4] if w.endswith("/...") else w for w in paths]
    return []


def _go_values(a, name) -> list:
    """Values of go's single-dash flag `name` (-o dir, -o=dir, --o dir)."""
    out = []
    for i, w in enumerate(a):
        flag, eq, val = w.lstrip("-").partition("=")
        if w[:1] == "-" and flag == name:
            if eq:
                out.append(val)
            elif i + 1 < len(a):
                out.append(a[i + 1])
    return out


def conda_env(c, found, ops, home):
    """conda env list/export reads (export -f writes its file); any other verb changes this
    machine's environments, and remove deletes one. conda init rewrites the shells' startup
    files."""
    verb = ops[1] if len(ops) > 1 else ""
    if ops[0] == "init":
        c.writes.append(home.rstrip("/") + "/.bashrc")
        c.flag("%s init changes the shells' startup files" % c.program, unknown=True)
        return set(ops)
    if verb in ("", "list") or ops[1:4] == ["config", "vars", "list"]:
        return set(ops)
    if verb == "export":
        c.writes.extend(vals(found, "-f", "--file"))
        return set(ops)
    c.flag("%s env %s changes this machine's environments" % (c.program, verb), unknown=True)
    if verb in ("remove", "rm"):
        c.flag("%s env %s deletes an environment" % (c.program, verb), destructive=True)
    return set(ops)


# go list / go doc options that only shape what they print; any other (-export, -compiled,
# -toolexec, -exec, doc -http) builds the packages, runs cgo or a tool, or starts a server
_GO_READ_FLAGS = frozenset(
    "f json m u versions retracted deps test e find mod modfile tags reuse C all c cmd "
    "short src buildvcs".split()
)
_GO_VALUE_FLAGS = frozenset("f mod modfile tags reuse C".split())


def go_reads(a) -> bool:
    """True when every option of go list/doc is one that only prints."""
    skip = False
    for w in a:
        if skip:
            skip = False
            continue
        if w == "--":
            return True
        if w[:1] != "-" or w == "-":
            continue
        flag, eq, _ = w.lstrip("-").partition("=")
        if flag not in _GO_READ_FLAGS:
            return False
        skip = not eq and flag in _GO_VALUE_FLAGS
    return True


# cargo's own commands: `cargo help X` of any other runs cargo-X --help from the PATH
CARGO_BUILTINS = frozenset(
    "add bench build check clean config doc fetch fix generate-lockfile help info init install "
    "locate-project login logout metadata new owner package pkgid publish read-manifest remove "
    "report run rustc rustdoc search test tree uninstall update vendor verify-project version "
    "yank b c d r t".split()
)


# go mod edit flags that take a value (-module m, -require=p@v ...); the others are bools
_GO_EDIT_VALUES = frozenset(
    "module go toolchain require droprequire exclude dropexclude replace dropreplace retract "
    "dropretract tool droptool godebug dropgodebug ignore dropignore".split()
)


def go_mod_edit(c, a):
    """go mod edit [flags] [FILE]: reads FILE (go.mod by default; -json and -print print
    it), and rewrites it unless it only prints."""
    files, prints, skip = [], False, False
    for w in a:
        if skip:
            skip = False
            continue
        if w[:1] != "-":
            files.append(w)
            continue
        flag, eq, _ = w.lstrip("-").partition("=")
        prints = prints or flag in ("json", "print", "n")
        skip = not eq and flag in _GO_EDIT_VALUES
    c.reads.extend(files or ["go.mod"])
    if not prints:
        c.writes.extend(files or ["go.mod"])
    return set(files)
