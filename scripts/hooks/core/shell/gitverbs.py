"""git subcommands that take a verb of their own (stash, submodule, worktree) and the index
writer update-index: each verb the profile knows is a read or writes what it names; a verb it
does not know is `unknown` (a newer git's verb, or a typo git turns into something else)."""

from __future__ import annotations

from core.shell.command import has, join, long_match, opts


def _first_op(rest: list[str], short_args: str = "", long_args: tuple = ()) -> tuple[str, int]:
    """(the verb, its index in rest): the first word that is not an option (options before
    the verb, `git submodule --quiet status`, `git stash -q list`, are skipped)."""
    i = 0
    while i < len(rest):
        w = rest[i]
        if w == "--":
            return "", i
        if w[:1] != "-" or w == "-":
            return w, i
        if w in long_args or (len(w) == 2 and w[1:] in short_args and short_args):
            i += 1  # the option's value
        i += 1
    return "", len(rest)


STASH_WRITES = ("push", "save", "apply", "pop", "branch")


def stash(c, rest: list[str], found, ops: list[str], paths: list[str], write, gitdir: str) -> None:
    """`git stash`: list/show read; push/save/apply/pop/branch change the work tree;
    drop/clear discard stashed work; create/store only add objects and refs."""
    verb, _ = _first_op(rest, "m", ("--message", "--pathspec-from-file"))
    if verb in ("list", "show"):
        # show is a diff: --output=F (or a prefix of it) writes the patch to F
        write(*[v for k, v in found if len(k) > 4 and "--output".startswith(k) and v is not True])
        return
    if verb in ("drop", "clear"):
        c.flag("git stash %s discards stashed work" % verb, destructive=True)
        write(gitdir)
        return
    if verb in ("create", "store"):
        write(gitdir)
        return
    if verb and verb not in STASH_WRITES:
        c.flag("git stash %s: a verb the hooks do not know" % verb, unknown=True)
    write(*(paths or ["."]))


def tree_targets(sub: str, names: list, ops: list) -> list:
    """What a tree verb without a rule of its own writes: merge-file its first operand
    (unless -p prints the result), checkout-index the paths it names (from an index the
    agent may have filled with `update-index --cacheinfo`), any other the whole tree."""
    if sub == "merge-file":
        return [] if "-p" in names or "--stdout" in names else ops[:1]
    if sub == "checkout-index" and "--stdin" not in names:
        return ops or ["."]
    return ["."]


SUBMODULE_READS = ("status", "summary")
SUBMODULE_WRITES = ("init", "update", "add", "deinit", "sync", "set-branch", "set-url")


def submodule(c, rest: list[str], write, gitdir: str, p) -> set:
    """`git submodule`: status/summary (and no verb) read; foreach runs its command in every
    submodule (code the hooks cannot see); the others write the submodules and .git."""
    verb, at = _first_op(rest)
    skip: set = set()
    if verb in SUBMODULE_READS or not verb and at >= len(rest):
        return skip
    if verb == "foreach":
        code = " ".join(w for w in rest[at + 1 :] if w not in ("--recursive", "-q", "--quiet"))
        c.code.append(code)
        p.subparse(code)
        skip.add(code)
        c.flag("git submodule foreach runs a command in every submodule", unknown=True)
        return skip
    if verb == "absorbgitdirs":
        write(gitdir)
        return skip
    if verb not in SUBMODULE_WRITES:
        c.flag("git submodule %s: a verb the hooks do not know" % verb, unknown=True)
    ops = [w for w in rest[at + 1 :] if w[:1] != "-"]
    if verb == "add":  # past the values of its options (--name N, -b BRANCH, --depth 1)
        ops = opts(rest[at + 1 :], "b", ("--name", "--branch", "--reference", "--depth"))[1]
        # git submodule add URL [PATH]: the URL is no file
        skip.update(ops[:1])
        write(*(ops[1:2] or ["."]), ".gitmodules", gitdir)
    elif verb in ("set-branch", "set-url"):
        skip.update(ops[1:] if verb == "set-url" else ops)
        write(".gitmodules")
    elif verb in ("init", "sync"):
        write(gitdir)
    else:  # update, deinit: check out or empty each submodule's work tree
        write(*(ops or ["."]), gitdir)
        if verb == "deinit" and any(w in ("-f", "--force") for w in rest[at + 1 :]):
            # without --force it refuses a tree with local changes; with it they are lost
            c.flag("git submodule deinit --force discards local changes", destructive=True)
    return skip


WORKTREE_VERBS = ("add", "move", "remove", "prune", "lock", "unlock", "repair", "list")


def worktree(c, rest: list[str], found, ops: list[str], write, gitdir: str) -> None:
    """`git worktree`: list reads; add writes the new tree; move writes both places; remove
    deletes a tree; repair rewrites the trees' `.git` files; prune, lock and unlock change
    only .git."""
    verb = ops[0] if ops else ""
    if verb == "list" or not verb:
        return
    if verb not in WORKTREE_VERBS:
        c.flag("git worktree %s: a verb the hooks do not know" % verb, unknown=True)
        write(gitdir)
        return
    args = ops[1:]
    if verb == "add" and args:
        c.writes.append(args[0])
    elif verb == "move":
        c.writes.extend(args[:2])
    elif verb == "remove" and args:
        c.writes.append(args[0])
        if has(found, "-f", "--force"):
            c.flag("removes a worktree with its changes", destructive=True)
    elif verb == "repair":
        for a in args or ["."]:
            c.writes.append(join(a, ".git"))
    elif verb == "prune" and has(found, "-n", "--dry-run"):
        return
    write(gitdir)


# update-index options followed by a value that is not a path
_UPDATE_INDEX_ARGS = ("--index-version", "--chmod")


STDIN_INDEX = "git update-index takes the paths from stdin, which the hooks cannot see"


def _stdin_paths(text: str, info: bool, nul: bool) -> list[str]:
    """The paths of update-index's stdin: one per line (NUL with -z); --index-info lines are
    `mode sha [stage]<TAB>path`."""
    out = []
    for line in text.split("\0" if nul else "\n"):
        if info:
            line = line.split("\t", 1)[1] if "\t" in line else ""
        if line.strip():
            out.append(line)
    return out


def update_index(c, rest: list[str], write, gitdir: str, stdin: str | None) -> set:
    """`git update-index`: every path it names has its index entry replaced (content, mode,
    skip-worktree or assume-unchanged bits), which a later checkout, reset or sparse checkout
    writes back to the file or removes: a write of that path. Paths read from stdin
    (--stdin, --index-info) cannot be seen: the whole tree."""
    skip: set = set()
    named: list[str] = []
    i = 0
    dash = False
    while i < len(rest):
        w = rest[i]
        if dash or w[:1] != "-":
            named.append(w)
        elif w == "--":
            dash = True
        elif long_match(w, "--stdin") or long_match(w, "--index-info"):
            if stdin is None:
                c.flag(STDIN_INDEX, unknown=True)
                named.append(".")
            else:
                named.extend(_stdin_paths(stdin, long_match(w, "--index-info"), "-z" in rest))
        elif long_match(w, "--cacheinfo") and len(w) > 3 and i + 1 < len(rest):
            info = rest[i + 1]
            if "," in info:
                named.append(info.split(",", 2)[-1])
                skip.add(info)
                i += 1
            else:  # --cacheinfo MODE SHA PATH
                skip.update(rest[i + 1 : i + 3])
                named.extend(rest[i + 3 : i + 4])
                i += 3
        elif w.startswith("--c") and long_match(w.split("=", 1)[0], "--cacheinfo") and "=" in w:
            named.append(w.split(",", 2)[-1])
        elif any(long_match(w, x) for x in _UPDATE_INDEX_ARGS) and i + 1 < len(rest):
            skip.add(rest[i + 1])
            i += 1
        i += 1
    write(gitdir)
    write(*named)
    return skip


# git's own options before the subcommand that take the next word as their value
TOP_ARGS = ("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env")


def subcommand(argv: list[str]) -> tuple[str, int]:
    """(git's subcommand, its index in argv), git's own options skipped; ("", len) if none."""
    i = 1
    while i < len(argv):
        w = argv[i]
        if w[:1] != "-":
            return w, i
        i += 2 if w in TOP_ARGS else 1
    return "", len(argv)


def pathspec(spec: str) -> tuple[bool, str]:
    """(exclude, path) of a git pathspec: `:!x`, `:^x` and `:(exclude)x` leave x out;
    `:/x` and `:(top,glob)x` name x from the top."""
    if spec[:1] != ":":
        return False, spec
    if spec.startswith(":("):
        end = spec.find(")")
        if end < 0:
            return False, spec
        return "exclude" in spec[2:end].split(","), spec[end + 1 :]
    i = 1
    while i < len(spec) and spec[i] in "/!^":
        i += 1
    body = spec[i + 1 :] if spec[i : i + 1] == ":" else spec[i:]
    return "!" in spec[1:i] or "^" in spec[1:i], body


# git config's own options (parse-options: an unambiguous prefix is the option)
CFG_VALUED = ("--file", "--blob", "--type", "--default", "--comment", "--value", "--url")
CFG_READS = (
    "--get",
    "--get-all",
    "--get-regexp",
    "--get-urlmatch",
    "--get-color",
    "--get-colorbool",
    "--list",
)
CFG_WRITES = (
    "--add",
    "--replace-all",
    "--append",
    "--unset",
    "--unset-all",
    "--rename-section",
    "--remove-section",
    "--edit",
)
CFG_FLAGS = (
    "--global",
    "--system",
    "--local",
    "--worktree",
    "--bool",
    "--int",
    "--bool-or-int",
    "--path",
    "--expiry-date",
    "--null",
    "--name-only",
    "--show-origin",
    "--show-scope",
    "--fixed-value",
    "--includes",
    "--no-includes",
    "--all",
    "--regexp",
    "--no-type",
)
CFG_LONG = CFG_VALUED + CFG_READS + CFG_WRITES + CFG_FLAGS
CFG_SHORT = {"-f": "--file", "-t": "--type", "-l": "--list", "-e": "--edit", "-z": "--null"}
CFG_SUBS = frozenset(("list", "get", "set", "unset", "rename-section", "remove-section", "edit"))


def config_args(c, rest):
    """git config's words -> (option names, option values, operands). An option it does not
    know is flagged (default-deny)."""
    names: list[str] = []
    values: dict[str, str] = {}
    ops: list[str] = []
    i = 0
    while i < len(rest):
        w = rest[i]
        i += 1
        if w == "--":
            ops.extend(rest[i:])
            break
        if w[:1] != "-" or w == "-":
            ops.append(w)
            continue
        if w[:2] != "--":  # a bundle (-lz); a valued letter takes the rest or the next word
            for j in range(1, len(w)):
                opt = CFG_SHORT.get("-" + w[j])
                if opt is None:
                    names.append("-" + w[j])
                    c.flag("git config option %s the hooks do not know" % w, unknown=True)
                    break
                names.append(opt)
                if opt in CFG_VALUED:
                    val = w[j + 1 :]
                    if not val and i < len(rest):
                        val = rest[i]
                        i += 1
                    values[opt] = val
                    break
            continue
        name, eq, val = w.partition("=")
        full = [x for x in CFG_LONG if long_match(name, x)]
        exact = name if name in CFG_LONG else None
        name = exact or (full[0] if len(full) == 1 else name)
        if name not in CFG_LONG and not name.startswith("--no-"):
            c.flag("git config option %s the hooks do not know" % name, unknown=True)
        names.append(name)
        if name in CFG_VALUED:
            if not eq and i < len(rest):
                val = rest[i]
                i += 1
            values[name] = val
    return names, values, ops


# git configuration that is data: the sections whose every key is (user.name, pull.rebase,
# branch.x.merge), and the keys of the other sections that are. Any other key may name a
# program git runs later (man.viewer, browser.x.cmd, remote.x.uploadpack, mergetool.x.cmd,
# sendemail.smtpserver, gpg.ssh.program, submodule.x.update, hook.x.command, trailer.x.cmd)
# or relocate what git writes (core.worktree, init.templatedir, trace2.*target).
_DATA_SECTIONS = frozenset(
    "user color advice pull push fetch rebase log format status commit tag gc pack index "
    "feature rerere clone checkout grep i18n blame column http https transfer safe branch am "
    "apply reset stash maintenance pager-off notes versionsort tar uploadarchive "
    "receive".split()
)
_DATA_KEYS = {
    "core": frozenset(
        "autocrlf filemode ignorecase eol safecrlf quotepath longpaths symlinks whitespace "
        "excludesfile attributesfile compression loosecompression bare logallrefupdates "
        "repositoryformatversion abbrev commentchar commentstring precomposeunicode "
        "untrackedcache preloadindex fscache checkstat trustctime hidedotfiles multipackindex "
        "commitgraph splitindex deltabasecachesize bigfilethreshold packedgitlimit "
        "packedgitwindowsize warnambiguousrefs notesref sharedrepository createobject fsync "
        "fsyncmethod fsyncobjectfiles filesreflocktimeout packedrefstimeout protecthfs "
        "protectntfs checkroundtripencoding sparsecheckout sparsecheckoutcone "
        "restrictinheritedhandles unsetenvvars usereplacerefs autocrlf".split()
    ),
    "init": frozenset(("defaultbranch", "defaultobjectformat", "defaultrefformat")),
    "gpg": frozenset(("format", "mintrustlevel")),
    "protocol": frozenset(("version",)),
    "credential": frozenset(("usehttppath", "username", "interactive", "protectprotocol")),
    "remote": frozenset(
        "url pushurl fetch push prune prunetags tagopt mirror skipdefaultupdate skipfetchall "
        "partialclonefilter promisor serveroption pushdefault followremotehead".split()
    ),
    "submodule": frozenset(
        "url path branch shallow ignore active fetchrecursesubmodules recurse fetchjobs "
        "alternatelocation alternateerrorstrategy propagatebranches".split()
    ),
    "url": frozenset(("insteadof", "pushinsteadof")),
    "diff": frozenset(
        "algorithm colormoved colormovedws context interhunkcontext mnemonicprefix noprefix "
        "relative renamelimit renames statgraphwidth submodule suppressblankempty tool "
        "guitool wserrorhighlight orderfile ignoresubmodules dirstat indentheuristic "
        "autorefreshindex srcprefix dstprefix statnamewidth".split()
    ),
    "merge": frozenset(
        "conflictstyle ff log renormalize autostash verbosity tool guitool stat renames "
        "renamelimit directoryrenames suppressdest defaulttoupstream branchdesc".split()
    ),
    "lfs": frozenset(("url", "pushurl", "locksverify", "fetchinclude", "fetchexclude")),
}


def config_data(key: str, value: str) -> bool:
    """True when `git config KEY VALUE` sets data git never runs: a key of a data section or
    one the section's profile lists (url.X.insteadOf only when X and the value are no ext::
    or fd:: transports, which run commands)."""
    key = key.lower()
    parts = key.split(".")
    if len(parts) < 2 or "ext::" in key or "fd::" in key:
        return False
    section, last = parts[0], parts[-1]
    if section in _DATA_SECTIONS:
        return True
    if value.lower().startswith(("ext::", "fd::")):
        return False
    if section in ("diff", "merge", "lfs", "core", "init", "gpg", "protocol") and len(parts) > 2:
        return section == "gpg" and key == "gpg.ssh.allowedsignersfile"  # drivers, programs
    return last in _DATA_KEYS.get(section, ())


# the dry-run flags of subcommands that then only print what they would do (`git commit -n`
# is --no-verify and `git fetch -n` --no-tags: not dry runs)
_DRY = {
    "add": ("-n", "--dry-run"),
    "rm": ("-n", "--dry-run"),
    "mv": ("-n", "--dry-run"),
    "prune": ("-n", "--dry-run"),
    "commit": ("--dry-run",),
}


def dry_run(sub: str, names: list[str]) -> bool:
    return any(k in _DRY.get(sub, ()) for k in names)
