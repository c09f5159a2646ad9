"""gh, the GitHub CLI: default-deny like the other remote CLIs. Reads are the listed read
verbs and `gh api` GET calls without fields or input; every other verb changes the remote;
deleting, merging and archiving are destructive. Its token prints are core.shell.authprint's."""

from __future__ import annotations

from core.shell.verbs import destroying

# gh options that take a value (the verb path skips them)
_GH_VALUED = frozenset(
    "-R --repo -X --method -H --header -f -F --field --raw-field --input -q --jq -t --template "
    "-L --limit -s --state -b --body -B --base -a --assignee -l --label -A --author -w "
    "--workflow --json --hostname -p --preamble --cache".split()
)
# the second word of a read (gh pr view, gh run list, gh repo view, gh secret list ...)
_GH_READ_VERBS = frozenset(
    "list ls view status diff checks search watch download clone checkout check verify get".split()
)
_GH_READ_GROUPS = frozenset("status search help version completion browse".split())
# gh's own destroying verbs beyond the common ones: merge (history), archive, rename, transfer
_GH_DESTROYS = frozenset(("merge", "archive", "rename", "transfer"))


def h_gh(c, a, p, raw):
    """gh: default-deny like the other remote CLIs. Reads are the listed read verbs and
    `gh api` GET without fields or input; every other verb changes the remote; deleting,
    merging and archiving are destructive. Clone/checkout/download write locally."""
    from core.shell import git

    skip = git.h_gh(c, a, p, raw)
    words = []
    i = after = 0
    while i < len(a):
        w = a[i]
        if w == "--":
            break
        if w[:1] == "-" and len(w) > 1:
            if w in ("--source", "-s") and words[:2] == ["repo", "create"] and i + 1 < len(a):
                c.tree.append(a[i + 1])  # the directory it pushes
            i += 2 if w in _GH_VALUED and "=" not in w else 1
            continue
        if len(words) < 2:
            words.append(w.lower())
            after = i + 1
        i += 1
    group = words[0] if words else ""
    verb = words[1] if len(words) > 1 else ""
    if group == "api":
        _gh_api(c, a)
        return skip
    if (
        not words
        or group in _GH_READ_GROUPS
        or verb in _GH_READ_VERBS
        or group == "auth"
        and verb in ("status", "token")  # a token print: core.shell.authprint
    ):
        return skip
    name = "gh %s" % " ".join(words)
    c.reads.extend(_uploads(a[after:]))  # what it uploads is read here first
    if destroying(verb, _GH_DESTROYS) or group == "repo" and "--visibility" in " ".join(a):
        c.flag("%s destroys or replaces state" % name, destructive=True, remote=True)
    else:
        c.flag("%s changes a remote system or service" % name, remote=True)
    return skip


def _uploads(rest):
    """The files a changing gh verb may send: its operands (`gist create F`, `release upload T
    F`, `ssh-key add F`) and option values (`-F/--body-file F`, `--notes-file F`, `secret set
    -f F`). gh's short options mean different things per verb (`-p` is --public for gist,
    --preamble elsewhere), so every word that is no option counts: a number, a title or a name
    read as a path names no file."""
    out = []
    for w in rest:
        if w[:2] == "--" and "=" in w:
            w = w.split("=", 1)[1]
        if w[:1] != "-" and w:
            out.append(w)
    return out[:64]


def _gh_api(c, a):
    """gh api: GET (read) unless a method, fields or input make it a write; a graphql
    mutation is a write."""
    method = ""
    body = False
    for i, w in enumerate(a):
        nxt = a[i + 1] if i + 1 < len(a) else ""
        if w in ("-X", "--method"):
            method = nxt.upper()
        elif w.startswith("--method="):
            method = w.split("=", 1)[1].upper()
        elif w.startswith("-X") and len(w) > 2:
            method = w[2:].upper()
        elif w in ("-f", "-F", "--field", "--raw-field", "--input") or w.startswith(
            ("--field=", "--raw-field=", "--input=", "-f", "-F")
        ):
            body = True
            val = nxt if w in ("-f", "-F", "--field", "--raw-field", "--input") else w
            if "=@" in val:
                c.reads.append(val.split("=@", 1)[1])
            elif w in ("--input",) and nxt not in ("-", ""):
                c.reads.append(nxt)
    graphql = "graphql" in [x.lower() for x in a if x[:1] != "-"]
    mutation = any("mutation" in x.lower() for x in a)
    if graphql and not mutation and method in ("", "POST"):
        return
    if method in ("", "GET", "HEAD") and not body:
        return
    if method in ("", "GET", "HEAD") and graphql and not mutation:
        return
    if method == "DELETE" or mutation and "delete" in " ".join(a).lower():
        c.flag(
            "gh api %s deletes remote state" % (method or "mutation"), destructive=True, remote=True
        )
    else:
        c.flag("gh api %s changes a remote system or service" % (method or "POST"), remote=True)
