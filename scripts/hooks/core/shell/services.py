"""Programs that change other systems: clusters, clouds, containers, databases, service
managers, package registries. Default-deny: a verb is a read only when the program's profile
lists it as one; every other verb is a remote change, and the verbs that delete, destroy,
replace or apply state are destructive too."""

from __future__ import annotations

from core.shell import containers
from core.shell.command import every_word, pathlike, prog_name
from core.shell.verbs import DESTROYS, destroying

__all__ = ["DESTROYS"]

# program: (options that take a value, read verbs). A verb path is the first one or two words
# that are not options; "a b" names a two-word read (docker compose ps, kubectl config view).
PROFILES = {
    "kubectl": (
        "-n --namespace --context --cluster --user -o --output -l --selector -c --container "
        "--kubeconfig -f --filename -s --server --token --as",
        "get describe logs top explain version api-resources api-versions cluster-info events "
        "diff wait auth-can-i auth-whoami plugin-list completion config-view config-get-contexts config-current-context "
        "config-get-clusters config-view config-get-users rollout-status rollout-history",
    ),
    "oc": (
        "-n --namespace --context -o --output -l --selector --kubeconfig",
        "get describe logs status whoami version projects explain api-resources",
    ),
    "helm": (
        "-n --namespace --kube-context --kubeconfig -o --output --repo --version",
        "list ls status get show search template lint version history env repo-list "
        "dependency-list verify",
    ),
    "terraform": (
        "-chdir -var -var-file -target -state",
        "output version state-list workspace-list workspace-show fmt-check",
    ),
    "tofu": (
        "-chdir -var -var-file -target -state",
        "output version state-list workspace-list workspace-show",
    ),
    "pulumi": (
        "-s --stack -C --cwd",
        "stack-ls stack-output config-get whoami version logs",
    ),
    "docker": (
        "-H --host --context -c --config -f --file -p --project-name -l --log-level",
        "ps images inspect logs version info history port top stats diff events search "
        "network-ls network-inspect volume-ls volume-inspect image-ls image-inspect "
        "image-history container-ls container-inspect container-logs container-top "
        "container-port container-diff container-stats system-df system-info system-events "
        "compose-ps compose-logs compose-config compose-images compose-ls compose-top "
        "compose-version compose-port context-ls context-show context-inspect buildx-ls "
        "buildx-inspect manifest-inspect node-ls service-ls service-ps stack-ls secret-ls "
        "config-ls plugin-ls trust-inspect scout-cves",
    ),
    "aws": (
        "--profile --region --output --query --endpoint-url --cli-input-json --color",
        "s3-ls sts-get-caller-identity configure-list configure-get help",
    ),
    "gcloud": (
        "--project --account --configuration --format --filter --region --zone",
        "info version help config-list auth-list",
    ),
    "az": (
        "--subscription -o --output --query -g --resource-group",
        "version account-show account-list help",
    ),
    "systemctl": (
        "-H --host -M --machine -t --type -p --property --state -n --lines -o --output",
        "status show list-units list-unit-files list-timers list-sockets list-dependencies "
        "list-jobs list-machines is-active is-enabled is-failed is-system-running cat help "
        "get-default show-environment",
    ),
    "service": ("", "status --status-all"),
    "launchctl": ("", "list print print-cache print-disabled blame dumpstate version help error"),
    "journalctl": (
        "-u --unit -n --lines -p --priority -o --output --since --until -b --boot -t "
        "--identifier -g --grep -D --directory --file -M --machine",
        "",
    ),
    "brew-services": ("", "list info"),
    "vault": (
        "-address -namespace -format -field -mount -path -method -output-curl-string",
        "status version read list path-help print kv-get kv-list kv-metadata-get token-lookup "
        "policy-list policy-read auth-list secrets-list audit-list lease-lookup operator-members",
    ),
    "consul": (
        "-http-addr -datacenter -token -namespace -partition",
        "members info version catalog-services catalog-nodes catalog-datacenters monitor kv-get "
        "operator-raft-list-peers acl-policy-list "
        "acl-token-list intention-list intention-get",
    ),
    "nomad": (
        "-address -region -namespace -token",
        "status version job-status job-inspect job-history alloc-status alloc-logs node-status "
        "server-members eval-status deployment-list deployment-status",
    ),
    "rclone": (
        "--config --filter --include --exclude --transfers --checkers --log-file --bwlimit",
        "ls lsd lsl lsf lsjson cat check size about version tree listremotes md5sum sha1sum "
        "hashsum config-file",
    ),
    "restic": (
        "-r --repo --password-file --cache-dir --tag --host --path",
        "snapshots ls stats check diff find version cat",
    ),
    "borg": ("", "list info diff check version"),
    "flyway": (
        "-url -user -password -schemas -locations -configFiles -workingDirectory",
        "version help",
    ),
    "liquibase": (
        "--url --username --password --changelog-file --defaults-file --search-path",
        "version help",
    ),
    "mysqladmin": (
        "-h -u -P -S --host --user --port --socket -c --count -i --sleep",
        "status extended-status processlist variables version ping",
    ),
    "pg_ctl": ("-D --pgdata -l --log -m --mode -o --options -t --timeout", "status"),
    "gsutil": (
        "-o -h -u -i",
        "ls cat du stat hash version help iam-get acl-get label-get versioning-get logging-get "
        "web-get cors-get lifecycle-get defacl-get retention-get autoclass-get rpo-get "
        "ubla-get pap-get requesterpays-get defstorageclass-get kms-serviceaccount",
    ),
    "velero": (
        "-n --namespace --kubeconfig --kubecontext -o --output",
        "version get describe backup-get backup-describe backup-logs restore-get "
        "restore-describe restore-logs schedule-get schedule-describe",
    ),
}
PROFILES["podman"] = PROFILES["nerdctl"] = PROFILES["docker"]
PROFILES["docker-compose"] = (
    PROFILES["docker"][0],
    "ps logs config images ls top version port",
)
PROFILES["rc-service"] = ("", "status")
# CLIs whose changes also write local files (rclone copy remote: ., restic restore, velero
# backup download, pg_ctl start -l log): every word is checked like unknown code's
_LOCAL_TOO = frozenset(("rclone", "restic", "borg", "velero", "pg_ctl", "liquibase"))
# a CLI's own destroying verbs, beyond verbs.DESTROYS (rclone sync deletes what the source
# lacks; systemctl mask and isolate stop services; borg compact frees deleted archives)
_DESTROYS_TOO = {
    "systemctl": frozenset("mask isolate suspend hibernate hybrid-sleep".split()),
    "rclone": frozenset("sync move moveto rmdirs cleanup dedupe".split()),
    "borg": frozenset("compact rdelete".split()),
    "restic": frozenset(("forget",)),
    "mysqladmin": frozenset(("refresh",)),
    # a move deletes its source
    "gsutil": frozenset(("mv",)),
    "aws": frozenset(("mv",)),
    # pulumi up/update apply the program's state without a plan the person saw
    "pulumi": frozenset(("up", "update", "refresh", "import", "watch", "deploy")),
    # kubectl patch/set/edit apply a change to live objects, as apply does
    "kubectl": frozenset(("patch", "set", "edit")),
    # terraform state push replaces the remote state; state mv rewrites its addresses
    "terraform": frozenset(("push", "mv", "replace-provider")),
    # flyway clean drops every object in the schemas it manages
    "flyway": frozenset(("clean",)),
}
_DESTROYS_TOO["oc"] = _DESTROYS_TOO["kubectl"]
_DESTROYS_TOO["tofu"] = _DESTROYS_TOO["terraform"]
# verbs that run the project's code (terraform providers and external data sources, the
# pulumi program) and change nothing else
_RUNS_PROJECT = {
    "terraform": frozenset("plan validate show graph console test providers-schema".split()),
    "pulumi": frozenset("preview about".split()),
    # migrations and callbacks may be Java classes from the project's jars
    "flyway": frozenset("info validate".split()),
    "liquibase": frozenset("status history validate diff".split()),
}
_RUNS_PROJECT["tofu"] = _RUNS_PROJECT["terraform"]
_BARE_READS = frozenset(
    (
        "helm",
        "docker",
        "podman",
        "kubectl",
        "systemctl",
        "launchctl",
        "aws",
        "gcloud",
        "az",
        "terraform",
    )
)
_READS = {k: frozenset(v[1].split()) for k, v in PROFILES.items()}
_VALUED = {k: frozenset(v[0].split()) for k, v in PROFILES.items()}
_CLOUD_READ_PREFIX = (
    "describe",
    "list",
    "get",
    "show",
    "ls",
    "head",
    "wait",
    "lookup",
    "view",
    "tail",
    "filter",
)


def _verbs(prog, a):
    """The first two words that are not options (skipping the values of options that take
    one), lower case."""
    valued = _VALUED.get(prog, frozenset())
    out = []
    i = 0
    while i < len(a) and len(out) < 3:
        w = a[i]
        if w == "--":
            break
        if w[:1] == "-" and len(w) > 1:
            if "=" not in w and w in valued:
                i += 1
            i += 1
            continue
        out.append(w.lower())
        i += 1
    return out


# parts of an option name that hand it a program to run, or a place to write
_RUN_PARTS = frozenset(
    "renderer exec command cmd plugin plugins hook hooks browser editor pager program "
    "script shell credential-process".split()
)
_OUT_PARTS = frozenset("output out dest destination target export".split())


def _option_effects(c, prog):
    """Whatever the verb: an option that names a program to run (helm --post-renderer,
    --browser, --exec) runs code nobody saw; one that names an output directory
    (--output-dir, --output-directory) writes there."""
    a = c.argv[1:]
    for i, w in enumerate(a):
        if w[:2] != "--" or w == "--":
            continue
        name, eq, val = w[2:].partition("=")
        parts = set(name.lower().replace("_", "-").split("-"))
        if parts & _RUN_PARTS:
            c.flag("%s --%s runs a program the hooks cannot see" % (prog, name), unknown=True)
        elif parts & _OUT_PARTS and parts & {"dir", "directory"}:
            target = val if eq else (a[i + 1] if i + 1 < len(a) else "")
            if target:
                c.writes.append(target)


def _judge_verbs(c, prog, words):
    """Read when the profile lists the verb (or the verb pair); else a remote change."""
    _option_effects(c, prog)
    reads = _READS.get(prog, frozenset())
    first = words[0] if words else ""
    pair = "-".join(words[:2])
    # a two-word group whose verb is the third word (vault kv metadata delete)
    group = len(words) > 2 and any(r.startswith(pair + "-") for r in reads)
    if prog == "service" and len(words) >= 2:
        first, pair = words[1], words[1]  # service NAME status
    if prog == "aws" and len(words) >= 2:
        op = words[1]
        if pair in reads or "-".join(words[:3]) in reads:
            return
        if words[0] != "s3" and op.startswith(_CLOUD_READ_PREFIX) and op != "get-object":
            return
        first = op
        if words[0] in ("secretsmanager", "ssm") and op.startswith(("put-", "update-")):
            # a new secret value replaces the one clients use (ssm: with --overwrite)
            if words[0] == "secretsmanager" or "--overwrite" in c.argv:
                first = "replace"
    elif prog in ("gcloud", "az"):
        hit = [w for w in words if destroying(w)]
        if hit:
            first = hit[0]
        elif pair in reads or first in reads:
            return
        else:
            last = [w for w in words if w][-1:] or [""]
            if last[0].startswith(_CLOUD_READ_PREFIX):
                return
            first = last[0]
    elif group and "-".join(words[:3]) in reads:
        return  # vault kv metadata get
    elif not group and (first in reads or pair in reads) or not words and prog in _BARE_READS:
        return
    if prog == "service" and "--status-all" in c.argv:
        return
    if not words:
        c.flag("%s with no command reads its commands from stdin" % prog, unknown=True, remote=True)
        return
    verb = " ".join(words[:2])
    extra = _DESTROYS_TOO.get(prog, frozenset())
    if destroying(first, extra) or any(destroying(w, extra) for w in words[: 3 if group else 2]):
        c.flag("%s %s destroys or replaces state" % (prog, verb), destructive=True, remote=True)
    elif _to_zero(c.argv[1:], words):
        c.flag(
            "%s %s scales to zero (stops everything)" % (prog, verb), destructive=True, remote=True
        )
    elif prog == "gsutil" and "rsync" in words and _short(c.argv, "d"):
        c.flag("gsutil rsync -d deletes what the source lacks", destructive=True, remote=True)
    else:
        c.flag("%s %s changes a remote system or service" % (prog, verb), remote=True)


# verbs that copy from one side to the other: the last of two or more paths is the target
_COPIES = frozenset("cp mv sync rsync copy copyto moveto get-object".split())
# verbs that write a file named by an option or (save, export) by their last path
_FETCHES = frozenset("download save export pull fetch".split())
# options whose value is a local file or directory the verb writes
_OUT_OPTIONS = frozenset(
    "-o --output --output-file --out --untardir --destination --file --dest --target-dir".split()
)


# CLIs whose -f / -d name no local output (kubectl -f reads; gsutil rsync -d deletes)
_NO_SHORT_OUT = frozenset(("kubectl", "oc", "gsutil"))


def _local_targets(prog, a):
    """The local paths a change writes: the destination of a copy (aws s3 cp s3://b/x ./y,
    docker cp c:/x ./y), the file a save names (consul snapshot save f), and output options
    of those verbs (docker save -o f, helm pull --untardir d, az storage blob download -f f)."""
    valued = _VALUED.get(prog, frozenset())
    out = []
    pos = []
    i = 0
    while i < len(a):
        w = a[i]
        if w == "--":
            break  # kubectl exec pod -- cp a b: a command in the container
        name, eq, val = w.partition("=")
        if w[:1] == "-" and len(w) > 1:
            if name in _OUT_OPTIONS or name in ("-f", "-d") and prog not in _NO_SHORT_OUT:
                out.append(val if eq else (a[i + 1] if i + 1 < len(a) else ""))
                i += 1 if eq else 2
                continue
            i += 2 if not eq and w in valued else 1
            continue
        pos.append(w)
        i += 1
    # the verb may be the fifth word: vault operator raft snapshot save f
    k = next((i for i, w in enumerate(pos[:5]) if _copy_verb(w)), -1)
    if k < 0:
        return []
    verb = pos[k]
    pos = pos[k + 1 :]  # the words after the verb
    if verb in _COPIES and len(pos) > 1:
        out.append(pos[-1])
    elif verb in ("save", "export") and pos and ("." in pos[-1] or "/" in pos[-1]):
        out.append(pos[-1])
    return [w for w in out if w and w != "-" and "://" not in w and not _remote_path(w)]


_UPLOAD_FLAGS = frozenset(
    "--recursive --delete --dryrun --dry-run --quiet --no-progress --exact-timestamps "
    "--follow-symlinks --no-follow-symlinks --only-show-errors --size-only --no-clobber".split()
)


def _uploaded_trees(c, words, a):
    """aws s3 sync . s3://b, gcloud storage cp -r src gs://b: the local directories whose
    every file leaves the machine (checked for secrets like a recursive read)."""
    deep = "sync" in words or "rsync" in words or any(w in ("--recursive", "-r", "-R") for w in a)
    if not deep:
        return []
    pos = []
    for i, w in enumerate(a):
        prev = a[i - 1] if i else ""
        if w[:1] == "-" or prev[:2] == "--" and "=" not in prev and prev not in _UPLOAD_FLAGS:
            continue  # an option, or the value of one (--exclude '.env', --profile p)
        pos.append(w)
    while pos and pos[0].replace("-", "").isalnum() and len(pos) > 2:
        pos = pos[1:]  # the verb words: s3 sync, storage cp
    if len(pos) < 2 or "://" not in pos[-1] and not _remote_path(pos[-1]):
        return []  # the last is a local target: a download
    return [w for w in pos[:-1] if "://" not in w and not _remote_path(w) and w not in c.writes]


def _copy_verb(w):
    return w in _COPIES or w in _FETCHES or w[:8] == "download"


def _remote_path(w):
    """host:path, pod:/path, container:/x: a path on the other side."""
    k = w.find(":")
    return k > 0 and "/" not in w[:k]


# journalctl's options that only print, by kind: flags, and options that take a value
_JOURNAL_FLAGS = frozenset(
    "-a --all -e --pager-end -f --follow -k --dmesg -m --merge -q --quiet -r --reverse -x "
    "--catalog -l --full --no-full --no-pager --no-hostname --no-tail --utc --system --user "
    "--list-boots --disk-usage --list-catalog --dump-catalog --header --verify --show-cursor "
    "--list-namespaces --list-fields --list-invocations --fields -N --truncate-newline "
    "--case-sensitive -h --help --version --boot -b --lines -n --invocation -I "
    "--new-id128".split()
)
_JOURNAL_VALUED = frozenset(
    "-u --unit --user-unit -p --priority -o --output --output-fields --since -S --until -U "
    "-t --identifier -T --exclude-identifier -g --grep -D --directory --file -i -M --machine "
    "-c --cursor --after-cursor --facility --namespace --root --image -F --field "
    "--verify-key --image-policy".split()
)
# short options whose value may follow as the next word (-b -1, -n 20)
_JOURNAL_OPTIONAL = frozenset("bnI")


# option parts that size a fleet: replicas, desired count, nodes, instances
_SIZES = frozenset("replicas desired nodes instances count size capacity scale".split())


def _to_zero(a, words):
    """--replicas=0, --desired-capacity 0, --num-nodes=0, `scale web=0`: a change that
    leaves nothing running (a minimum of zero is not one)."""
    scale = any("scale" in w or "resize" in w for w in words)
    for i, w in enumerate(a):
        if w[:2] == "--":
            name, eq, val = w[2:].partition("=")
            parts = set(name.lower().split("-"))
            if not parts & _SIZES or parts & {"min", "max", "page", "batch"}:
                continue
            val = val if eq else (a[i + 1] if i + 1 < len(a) else "")
            val = val.rpartition("=")[2]  # --scale web=0
        elif scale and "=" in w and w[:1] != "-":
            val = w.rpartition("=")[2]
        else:
            continue
        if val and val.isdigit() and int(val) == 0:
            return True
    return False


def _short(a, letter):
    """True when a short-option word (-rd, -d) holds `letter`, or its long form is given."""
    return any(w[:1] == "-" and w[1:2] != "-" and letter in w[1:] or w == "--delete" for w in a)


def _journalctl(c, a):
    """journalctl prints the journal; only the options listed as reads are reads (vacuum,
    rotate, flush, --setup-keys, --update-catalog change the machine's journal; an option
    the hooks do not know is unknown)."""
    i = 0
    while i < len(a):
        w = a[i]
        nxt = a[i + 1] if i + 1 < len(a) else ""
        i += 1
        if w[:1] != "-" or w == "-":
            continue  # a match (_SYSTEMD_UNIT=x) or a program path
        if w == "--":
            break
        if w[:2] == "--":
            name, eq, val = w.partition("=")
            if name == "--cursor-file":
                c.writes.append(val if eq else nxt)
                i += 0 if eq else 1
            elif name in _JOURNAL_VALUED:
                i += 0 if eq else 1
            elif name not in _JOURNAL_FLAGS:
                _journal_change(c, name)
            elif name in ("--boot", "--lines") and not eq and _optional_value(nxt):
                i += 1
            continue
        for k, ch in enumerate(w[1:]):
            opt = "-" + ch
            rest = w[k + 2 :]
            if opt in _JOURNAL_VALUED:
                i += 0 if rest else 1
                break
            if opt not in _JOURNAL_FLAGS:
                _journal_change(c, opt)
                break
            if ch in _JOURNAL_OPTIONAL:
                if not rest and _optional_value(nxt):
                    i += 1
                break
    return None


def _optional_value(w):
    return w[:1] != "-" and w != "" or w[1:].isdigit()


_JOURNAL_CHANGES = ("--vacuum", "--rotate", "--flush", "--sync", "--relinquish", "--smart")


def _journal_change(c, name):
    if name.startswith("--vacuum"):
        c.flag("journalctl %s deletes journal files" % name, destructive=True, remote=True)
    elif name.startswith(_JOURNAL_CHANGES) or name in ("--setup-keys", "--update-catalog"):
        c.flag("journalctl %s changes the machine's journal" % name, remote=True)
    else:
        c.flag("journalctl %s is an option the hooks do not know" % name, unknown=True)


_depth = [0]  # remote commands being judged inside one another
# handlers of commands that delete what they name: on another machine, nobody sees the paths
_DELETERS = frozenset(
    ("files.h_rm", "files.h_rmdir", "files.h_shred", "files.h_truncate", "system.h_mkfs")
)


def remote_destroys(text: str, deletes: bool = True, budget=None) -> str:
    """What destroys in a command run on another machine or in a container (kubectl exec,
    docker exec, ssh host CMD), judged as a command of its own: '' when nothing does.
    `deletes`: a running machine's files count (rm there); a new container's do not, only
    what its command destroys elsewhere (psql -h prod -c 'DROP ...')."""
    if _depth[0] > 2 or not text.strip():
        return ""
    from core.shell import programs
    from core.shell.analysis import analyse

    if budget is not None:
        budget.spend(len(text))
    _depth[0] += 1
    try:  # the inner analysis spends from our budget: its work is ours, counted, not timed
        an = analyse(text, home="/nonexistent", budget=budget)
    finally:
        _depth[0] -= 1
    if budget is not None:
        budget.spend(0)  # spent out inside: too complex out here too
    for cmd in an.commands:
        if not deletes:  # a new container: only what it destroys elsewhere counts
            if cmd.destructive and cmd.remote:
                return cmd.program
            continue
        if cmd.destructive or programs.family(programs.key(cmd.program)) in _DELETERS:
            return cmd.program or "a command"
    return "a command" if an.destructive and deletes else ""


def _argv_text(words):
    """The command line for words run without a shell (each one word)."""
    from shlex import quote

    return " ".join(quote(w) for w in words)


def _remote_command(prog, a, words):
    """The command a remote exec or container runs, as shell text; None when there is none."""
    if prog in ("kubectl", "oc") and words[:1] in (["exec"], ["debug"], ["run"], ["attach"]):
        return _argv_text(a[a.index("--") + 1 :]) if "--" in a else None
    if prog in ("gcloud",) and "ssh" in words:
        for i, w in enumerate(a):
            if w == "--command":
                return a[i + 1] if i + 1 < len(a) else None
            if w.startswith("--command="):
                return w[10:]
        return " ".join(a[a.index("--") + 1 :]) if "--" in a else None  # ssh joins them
    if prog == "az" and words[:2] == ["vm", "run-command"]:  # --scripts 'rm -rf /srv'
        return _option_text(a, ("--scripts",))
    if prog == "aws" and words[:1] == ["ssm"]:  # --parameters commands=...,command=...
        text = _option_text(a, ("--parameters",))
        return text.split("=", 1)[1] if text and "=" in text else text
    if prog in containers.CLIS or prog.endswith("-compose"):
        found = containers.run_options(a if not prog.endswith("-compose") else ["compose"] + a)
        if found is None:
            return None
        k = found[1] + (0 if not prog.endswith("-compose") else -1)
        return _argv_text(a[k + 1 :])
    return None


def remote_lines(args, budget) -> str:
    """A command line handed to code the hooks cannot see (the words after `--`, or one word
    that starts with a program the table knows): what destroys in it, judged as a command."""
    from core.shell import programs

    lines = [" ".join(args[args.index("--") + 1 :])] if "--" in args else []
    for w in args[1:]:
        head = w.split(None, 1)[0] if " " in w.strip() else ""
        if head and programs.known(programs.key(prog_name(head))):
            lines.append(w)
    for text in lines[:8]:
        hit = remote_destroys(text, True, budget)
        if hit:
            return hit
    return ""


def _option_text(a, names) -> str | None:
    """The words an option takes, up to the next option, as shell text."""
    for i, w in enumerate(a):
        name, eq, val = w.partition("=")
        if name in names:
            vals = [val] if eq else []
            for x in a[i + 1 :] if not eq else ():
                if x[:2] == "--":
                    break
                vals.append(x)
            return " ".join(vals) or None
    return None


def _dry_run(w: str) -> bool:
    """kubectl/helm --dry-run[=client|server|true]; =none and =false (and any other value)
    apply for real."""
    name, eq, val = w.partition("=")
    return name == "--dry-run" and (not eq or val.lower() in ("client", "server", "true"))


def h_service_cli(c, a, p, raw):
    """kubectl, helm, terraform, docker, aws, gcloud, az, systemctl, launchctl, vault ..."""
    prog = c.program.lower()
    if prog in ("terraform", "tofu") and a[:1] == ["fmt"] and ("-check" in a or "-diff" in a):
        return set(a)
    if prog in ("terraform", "tofu"):
        for i, w in enumerate(a):  # plan -out=FILE, -state-out, -backup: files it writes
            name, eq, val = w.lstrip("-").partition("=")
            if w[:1] == "-" and name in ("out", "state-out", "backup"):
                c.writes.extend([val] if eq else a[i + 1 : i + 2])
    if prog in ("terraform", "tofu") and a[:1] == ["fmt"]:
        c.writes.extend([w for w in a[1:] if w[:1] != "-"] or ["."])
        c.flag("formats code")
        return set(a)
    if prog == "journalctl":
        _journalctl(c, a)
        return set(a)
    if prog in ("kubectl", "oc", "helm") and any(
        w == "--kubeconfig" or w.startswith("--kubeconfig=") for w in a
    ):  # a kubeconfig names the programs kubectl runs (exec credential plugins)
        c.flag("%s --kubeconfig: a config that may run programs" % prog, unknown=True)
    if any(_dry_run(w) for w in a) and prog in ("kubectl", "oc", "helm"):
        _option_effects(c, prog)  # but its renderer runs, its output dir is written
        return set(a)  # a dry run (client or server) changes nothing
    words = _verbs(prog, a)
    inner = _remote_command(prog, a, words)
    hit = remote_destroys(inner, "run" not in words[:2], p.ctx.budget) if inner else ""
    if hit:
        c.flag(
            "%s %s runs %s there, which destroys" % (prog, " ".join(words[:2]), hit),
            destructive=True,
            remote=True,
        )
    runs = _RUNS_PROJECT.get(prog, frozenset())
    if words[:1] and (words[0] in runs or "-".join(words[:2]) in runs):
        _option_effects(c, prog)
        c.flag("%s %s runs the project's providers or program" % (prog, words[0]), runner=True)
        return {w for w in words[:2] if not pathlike(w)}
    if prog in ("terraform", "tofu") and words == ["providers"]:
        return set(words)  # lists the providers the configuration requires
    if prog in ("docker", "podman", "nerdctl") and words[:1] in (["run"], ["exec"]):
        if a[1:] == ["--help"]:
            return set(a)  # docker run --help prints
        c.flag("%s %s runs code in a container" % (prog, words[0]), remote=True)
        # its options name host files (mounts, --env-file); the words after the image run
        # in the container: not host paths (protect_shell judges the mounts)
        found = containers.run_options(a)
        every_word(c, a if found is None else a[: found[1] + 1])
        return set(a)
    if prog in containers.CLIS:
        c.writes.extend(containers.outputs(a))  # build -o DIR: what the build exports
        c.reads.extend(containers.build_reads(a))  # build --secret src=FILE, --ssh KEY
        if containers.config_dir(a):
            c.flag("%s --config: a config that names programs it runs" % prog, unknown=True)
    if prog in containers.CLIS or prog.endswith("-compose"):
        dirs, files = containers.compose_prints(prog, a)  # config prints .env's values
        c.tree.extend(dirs)
        c.reads.extend(files)
    _judge_verbs(c, prog, words)
    if c.remote and prog in _LOCAL_TOO:
        c.flag("%s %s may write local files" % (prog, words[0]), unknown=True)
    if c.remote:
        c.writes.extend(_local_targets(prog, a))
        c.tree.extend(_uploaded_trees(c, words, a))
    if "--force" in a and c.remote and prog in ("kubectl", "helm"):
        c.flag("%s --force replaces state" % prog, destructive=True)
    # the verbs are not files; the paths it names (-f k8s/, cp ~/x pod:/x) are reads; the
    # words of a command a pod runs (kubectl exec p -- cat /etc/hosts) name the pod's files
    remote_words: set[str] = set()
    if prog in ("kubectl", "oc") and inner:
        k = a.index("--")
        remote_words = set(a[k + 1 :]) - set(a[:k])  # a word also named here stays a path
    return {w for w in words[:2] if not pathlike(w)} | remote_words


# ansible modules that only gather facts; modules that run code on the hosts
_ANSIBLE_READS = frozenset("ping setup gather_facts debug stat service_facts package_facts".split())
_ANSIBLE_CODE = frozenset("command shell raw script expect".split())


def h_ansible(c, a, p, raw):
    """ansible HOSTS [-m MODULE] [-a ARGS] runs a module on other machines (command by
    default); ansible-playbook runs a playbook. Listing and syntax checks change
    nothing; `state=absent` or a destroying command in -a destroys. Modules are code the
    hooks cannot see: every word is checked."""
    prog = c.program.lower()
    module, args = "command", ""
    for i, w in enumerate(a):
        nxt = a[i + 1] if i + 1 < len(a) else ""
        if w in ("-m", "--module-name"):
            module = nxt.lower().rsplit(".", 1)[-1]
        elif w in ("-a", "--args"):
            args = nxt
    for i, w in enumerate(a):  # files it reads: inventory, keys, vars files (-e @vars.yml)
        nxt = a[i + 1] if i + 1 < len(a) else ""
        if w in ("-i", "--inventory", "--private-key", "--key-file", "--vault-password-file"):
            c.reads.append(nxt)
        elif w in ("-e", "--extra-vars") and nxt[:1] == "@":
            c.reads.append(nxt[1:])
        elif w == "--tree":
            c.writes.append(nxt)  # one output file per host
    # check mode is no read: a task with check_mode: false runs for real
    if any(w in ("--syntax-check", "--list-hosts", "--list-tasks", "--list-tags") for w in a):
        return set(a)
    if prog == "ansible" and module in _ANSIBLE_READS:
        return set(a)
    first = args.split()[:1]
    if "state=absent" in args.replace(" ", "") or first and destroying(first[0]):
        c.flag("ansible -m %s destroys state on other machines" % module, destructive=True)
    if prog != "ansible" or module in _ANSIBLE_CODE:
        c.flag("%s runs code on other machines" % prog, unknown=True, remote=True)
    else:  # copy, fetch, template read and write local files too
        c.flag("ansible -m %s changes other machines and local files" % module, True, remote=True)
    return set(a)


# -------------------------------------------------------------------- HTTP and registries


_READ_METHODS = ("GET", "HEAD", "OPTIONS")


def http_method(c, prog, method, data):
    """A request with a method other than GET/HEAD/OPTIONS, or with a body, changes the
    server's state; DELETE and PUT destroy or replace it."""
    m = (method or ("POST" if data else "GET")).upper()
    if m in _READ_METHODS:
        return
    if m in ("DELETE", "PUT"):
        c.flag(
            "%s %s request destroys or replaces remote state" % (prog, m),
            destructive=True,
            remote=True,
        )
    else:
        c.flag("%s %s request changes remote state" % (prog, m), remote=True)


# npm/pnpm/yarn/cargo/gem/twine/poetry/uv/gh subcommands that change a registry or remote
PUBLISH = frozenset(
    (
        "publish",
        "unpublish",
        "deprecate",
        "dist-tag",
        "owner",
        "access",
        "token",
        "adduser",
        "login",
        "logout",
        "yank",
        "push",
        "upload",
        "release",
        "team",
        "hook",
        "star",
        "unstar",
    )
)


# registry verbs whose sub-verb only lists or reads (npm owner ls, npm dist-tag ls)
_REGISTRY_READS = {
    "owner": ("ls", "list"),
    "dist-tag": ("ls", "list"),
    "access": ("list", "ls-packages", "ls-collaborators", "get"),
    "team": ("ls", "list"),
    "hook": ("ls", "list"),
}


def publish(c, prog, sub, verb=None):
    """True (and flagged) when `prog sub` changes a package registry; True and unflagged
    when `verb` is one of the sub's listings (a read of the registry)."""
    if sub not in PUBLISH:
        return False
    if verb in _REGISTRY_READS.get(sub, ()):
        return True
    if sub in ("unpublish", "yank"):
        c.flag("%s %s removes a published package" % (prog, sub), destructive=True, remote=True)
    else:
        c.flag("%s %s publishes to (changes) a package registry" % (prog, sub), remote=True)
    return True


def h_twine(c, a, p, raw):
    ops = [w for w in a if w[:1] != "-"]
    if ops[:1] == ["check"]:
        c.reads.extend(ops[1:])
        return set(ops[:1])
    publish(c, "twine", "upload" if ops[:1] == ["upload"] else (ops[:1] or ["upload"])[0])
    if not c.remote:
        c.flag("twine %s" % " ".join(ops[:1]), remote=True)
    return set(a)
