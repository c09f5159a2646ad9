"""Programs that change other systems: clusters, clouds, containers, databases, service
managers, package registries. Default-deny: a verb is a read only when the program's profile
lists it as one; every other verb is a remote change, and the verbs that delete, destroy,
replace or apply state are destructive too."""

from __future__ import annotations

from core.shell.command import every_word, opts, pathlike, stdin_text

# verbs that delete, destroy, replace or apply state, whatever the CLI
DESTROYS = frozenset(
    (
        "delete",
        "destroy",
        "drop",
        "apply",
        "uninstall",
        "prune",
        "purge",
        "rm",
        "rmi",
        "rb",
        "remove",
        "terminate",
        "truncate",
        "wipe",
        "flushall",
        "flushdb",
        "del",
        "unlink",
        "force-unlock",
        "replace",
        "drain",
        "down",
        "kill",
        "reset",
        "rollback",
        "yank",
        "unpublish",
        "bootout",
        "unload",
        "erase",
        "taint",
        "poweroff",
        "reboot",
        "halt",
        "kexec",
    )
)

# program: (options that take a value, read verbs). A verb path is the first one or two words
# that are not options; "a b" names a two-word read (docker compose ps, kubectl config view).
PROFILES = {
    "kubectl": (
        "-n --namespace --context --cluster --user -o --output -l --selector -c --container "
        "--kubeconfig -f --filename -s --server --token --as",
        "get describe logs top explain version api-resources api-versions cluster-info events "
        "diff wait auth plugin completion config-view config-get-contexts config-current-context "
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
        "plan show validate output version providers graph state-list state-show "
        "workspace-list workspace-show console-help fmt-check",
    ),
    "tofu": (
        "-chdir -var -var-file -target -state",
        "plan show validate output version providers graph state-list state-show",
    ),
    "pulumi": (
        "-s --stack -C --cwd",
        "preview stack-ls stack-output config-get whoami version logs about",
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
    "redis-cli": (
        "-h -p -a -n -u --user --pass -s -r -i -d --tls --cacert --cert --key",
        "get mget keys scan info ping ttl pttl type exists hget hgetall hkeys hvals hlen "
        "hexists lrange llen lindex smembers scard sismember zrange zrevrange zcard zscore "
        "zrank strlen dbsize time lastsave echo memory-usage xrange xlen xinfo object "
        "--scan --bigkeys --memkeys --stat --latency --help --version config-get client-list "
        "slowlog-get role",
    ),
}
PROFILES["podman"] = PROFILES["nerdctl"] = PROFILES["docker"]
PROFILES["docker-compose"] = (
    PROFILES["docker"][0],
    "ps logs config images ls top version port",
)
PROFILES["rc-service"] = ("", "status")
PROFILES["valkey-cli"] = PROFILES["redis-cli"]
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
            if prog == "redis-cli" and w in _READS[prog]:
                out.append(w)
            continue
        out.append(w.lower())
        i += 1
    return out


def _judge_verbs(c, prog, words):
    """Read when the profile lists the verb (or the verb pair); else a remote change."""
    reads = _READS.get(prog, frozenset())
    first = words[0] if words else ""
    pair = "-".join(words[:2])
    if prog == "service" and len(words) >= 2:
        first, pair = words[1], words[1]  # service NAME status
    if prog == "aws" and len(words) >= 2:
        op = words[1]
        if pair in reads or "-".join(words[:3]) in reads:
            return
        if words[0] != "s3" and op.startswith(_CLOUD_READ_PREFIX) and op != "get-object":
            return
        first = op.split("-")[0]
    elif prog in ("gcloud", "az"):
        hit = [w for w in words if w.split("-")[0] in DESTROYS]
        if hit:
            first = hit[0]
        elif pair in reads or first in reads:
            return
        else:
            last = [w for w in words if w][-1:] or [""]
            if last[0].startswith(_CLOUD_READ_PREFIX):
                return
            first = last[0]
    elif prog == "journalctl":
        return _journalctl(c, words)
    elif first in reads or pair in reads or not words and prog in _BARE_READS:
        return
    if prog == "service" and "--status-all" in words:
        return
    if not words:
        c.flag("%s with no command reads its commands from stdin" % prog, unknown=True, remote=True)
        return
    verb = " ".join(words[:2])
    if first in DESTROYS or first.split("-")[0] in DESTROYS or pair.split("-")[-1] in DESTROYS:
        c.flag("%s %s destroys or replaces state" % (prog, verb), destructive=True, remote=True)
    else:
        c.flag("%s %s changes a remote system or service" % (prog, verb), remote=True)


def _journalctl(c, words):
    return None


def code_words(text):
    """The words of code, identifiers split at camel case: db.dropDatabase() -> db, drop,
    database."""
    out = []
    cur = []
    prev = ""
    for ch in text + " ":
        if ch.isalnum():
            if ch.isupper() and prev.islower() and cur:
                out.append("".join(cur).lower())
                cur = []
            cur.append(ch)
        elif cur:
            out.append("".join(cur).lower())
            cur = []
        prev = ch
    return out


def h_service_cli(c, a, p, raw):
    """kubectl, helm, terraform, docker, aws, gcloud, az, systemctl, launchctl, redis-cli ..."""
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
        if any(
            w.startswith(("--vacuum", "--rotate", "--flush", "--sync", "--relinquish")) for w in a
        ):
            c.flag("journalctl changes the journal", remote=True)
        return set(a)
    if any(w.startswith("--dry-run") and w not in ("--dry-run=none",) for w in a) and prog in (
        "kubectl",
        "oc",
        "helm",
    ):
        return set(a)  # a dry run (client or server) changes nothing
    words = _verbs(prog, a)
    if prog == "redis-cli" and not words and c.stdin_is_data:
        body = stdin_text(raw)
        words = body.split()[:2] if body else []
        words = [w.lower() for w in words]
    if prog in ("docker", "podman", "nerdctl") and words[:1] in (["run"], ["exec"]):
        if a[1:] == ["--help"]:
            return set(a)  # docker run --help prints
        c.flag("%s %s runs code in a container" % (prog, words[0]), remote=True)
        every_word(c, a)
        return set(a)
    _judge_verbs(c, prog, words)
    if "--force" in a and c.remote and prog in ("kubectl", "helm"):
        c.flag("%s --force replaces state" % prog, destructive=True)
    # the verbs are not files; the paths it names (-f k8s/, cp ~/x pod:/x) are reads
    return {w for w in words[:2] if not pathlike(w)}


# -------------------------------------------------------------------- SQL


# statements that only read, and words that reach files, run programs or change state
_SQL_READ = ("select", "show", "explain", "describe", "desc", "values", "table", "with", "pragma")
_SQL_NEVER = (
    "pg_read",
    "pg_ls_dir",
    "pg_stat_file",
    "lo_import",
    "lo_export",
    "copy",
    "program",
    "load_file",
    "load data",
    "readfile",
    "writefile",
    "edit(",
    "load_extension",
    "dblink",
    "attach",
    "into",
    "nextval",
    "setval",
    "pg_terminate",
    "pg_cancel",
    "set_config",
    "for update",
    "for share",
    "analyze",
    "sys_exec",
    "xp_cmdshell",
    "shell",
    "system(",
    "outfile",
    "dumpfile",
    "pg_reload",
    "pg_rotate",
    "pg_switch",
    "vacuum",
    "backup",
    "=",
)
_SQL_DESTROY = ("drop", "truncate", "delete", "alter", "replace", "flush", "purge")


# functions a read may call: they compute, they change nothing (any other call, lo_unlink,
# txid_current, pg_terminate_backend, set_config, a user function, may change state)
_SQL_PURE = frozenset(
    "count sum avg min max lower upper length char_length octet_length substr substring trim "
    "ltrim rtrim replace concat concat_ws coalesce nullif greatest least abs round ceil ceiling "
    "floor mod power sqrt exp ln log sign cast convert now current_date current_time "
    "current_timestamp date time datetime julianday strftime date_trunc date_part extract age "
    "to_char to_date to_timestamp to_number array_agg string_agg group_concat json_agg "
    "jsonb_agg json_build_object jsonb_build_object json_object json_array json_extract "
    "jsonb_pretty json_each jsonb_each json_array_length jsonb_array_length row_number rank "
    "dense_rank lag lead first_value last_value ntile percent_rank cume_dist over filter "
    "in exists any all not and or distinct values ifnull iif if case typeof quote hex unhex "
    "instr position strpos left right lpad rpad reverse split_part regexp_replace "
    "regexp_matches regexp_like like glob random md5 sha1 sha256 encode decode format "
    "pg_size_pretty pg_database_size pg_relation_size pg_total_relation_size "
    "pg_table_size pg_indexes_size version current_user session_user current_schema "
    "current_database user database schema unnest generate_series array_length cardinality "
    "bool_and bool_or every stddev variance median percentile_cont percentile_disc mode "
    "to_json to_jsonb row_to_json array_to_string string_to_array char chr ascii "
    "unicode printf total total_changes last_insert_rowid changes sqlite_version "
    "interval numeric integer int bigint text varchar decimal float real boolean timestamp "
    "timestamptz uuid json jsonb from where on using as join select union with lateral array "
    "row tuple".split()
)


def _strip_comments(sql):
    """The SQL without /* */ and -- comments (outside string literals)."""
    out = []
    i = 0
    n = len(sql)
    quote = None
    while i < n:
        ch = sql[i]
        if quote:
            out.append(ch)
            if ch == quote:
                quote = None
            i += 1
        elif ch in ("'", '"'):
            quote = ch
            out.append(ch)
            i += 1
        elif sql.startswith(("/*!", "/*+", "/*M!"), i):
            # MySQL runs the text of /*! ... */ (versioned code) and hints: keep it
            j = i + 3
            while j < n and (sql[j].isdigit() or sql[j] == "!"):
                j += 1
            out.append(" ")
            i = j
        elif sql.startswith("*/", i):
            out.append(" ")
            i += 2
        elif sql.startswith("/*", i):
            j = sql.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif sql.startswith("--", i):
            j = sql.find("\n", i)
            i = n if j < 0 else j
            out.append(" ")
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _calls(text):
    """The names of the functions a SQL text calls: identifiers right before '('."""
    out = []
    start = 0
    while True:
        j = text.find("(", start)
        if j < 0:
            return out
        k = j
        while k > 0 and text[k - 1] == " ":
            k -= 1
        e = k
        while k > 0 and (text[k - 1].isalnum() or text[k - 1] in "_.$"):
            k -= 1
        if e > k:
            out.append(text[k:e].rsplit(".", 1)[-1])
        start = j + 1


def sql_effect(sql):
    """'read', 'change' or 'destroy' for a SQL text (and psql/sqlite meta-commands)."""
    worst = "read"
    for stmt in _statements(_strip_comments(sql)):
        low = " ".join(stmt.lower().split())
        if not low:
            continue
        if low[:1] in ("\\", "."):
            meta = low[1:].split(" ", 1)[0]
            if meta in (
                "d",
                "dt",
                "dn",
                "df",
                "dv",
                "di",
                "du",
                "l",
                "list",
                "tables",
                "schema",
                "indexes",
                "headers",
                "mode",
                "timing",
                "x",
                "conninfo",
                "dbinfo",
                "databases",
                "help",
                "?",
                "show",
                "width",
                "echo",
                "print",
                "nullvalue",
            ):
                continue
            if meta[:1] == "d" and meta.isalpha() and len(meta) <= 4 and low[:1] == "\\":
                continue
            return "change"
        head = low.split(" ", 1)[0].strip("(")
        bare = " %s " % " ".join(_unquoted(low).replace("(", " ").replace(";", " ").split())
        if head in _SQL_DESTROY or any(" %s " % w in bare for w in _SQL_DESTROY[:3]):
            return "destroy"
        if head in ("do", "execute", "call", "begin", "prepare", "exec") and any(
            w in low for w in ("drop ", "truncate ", "delete ")
        ):
            return "destroy"  # dynamic SQL in a string: EXECUTE 'DROP TABLE t'
        if head in _SQL_READ and any(f not in _SQL_PURE for f in _calls(_unquoted(low))):
            worst = "change"  # a read that calls a function which may change state
        if head not in _SQL_READ or any(
            w in low for w in _SQL_NEVER if w != "=" or head == "pragma"
        ):
            worst = "change"
        if head == "with" and any(
            " %s " % w in " %s " % low for w in ("insert", "update", "delete")
        ):
            return "destroy" if " delete " in " %s " % low else "change"
    return worst


def _unquoted(s):
    """The SQL without its string literals."""
    out = []
    quote = None
    for ch in s:
        if quote:
            if ch == quote:
                quote = None
            continue
        if ch in ("'", '"'):
            quote = ch
            continue
        out.append(ch)
    return "".join(out)


def _statements(sql):
    out = []
    cur = []
    quote = None
    for ch in sql:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
            continue
        if ch in ("'", '"'):
            quote = ch
        if ch == ";" or ch == "\n" and cur and "".join(cur).lstrip()[:1] in ("\\", "."):
            out.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    out.append("".join(cur))
    return out


def _sql_flag(c, prog, texts, seen):
    """Judge the SQL a database client runs: texts it can see; `seen` False when some of it
    comes from a file or a stdin it cannot see."""
    if not seen:
        c.flag("%s runs SQL the hooks cannot see" % prog, unknown=True, remote=True)
        return
    effect = "read"
    for t in texts:
        e = sql_effect(t)
        if e == "destroy" or e == "change" and effect == "read":
            effect = e
    if effect == "destroy":
        c.flag("%s SQL drops or deletes data" % prog, destructive=True, remote=True)
    elif effect == "change":
        c.flag("%s SQL that changes data or reaches files" % prog, remote=True)


def h_sql_client(c, a, p, raw):
    """psql, mysql, mariadb, clickhouse-client, cockroach sql, mongosh: SQL from -c/-e/--command,
    files (-f), stdin."""
    prog = c.program.lower()
    if prog in ("psql", "pgcli"):
        found, ops = opts(
            a,
            "cdfhopUvLTFRP",
            (
                "--command",
                "--dbname",
                "--file",
                "--host",
                "--port",
                "--username",
                "--set",
                "--variable",
                "--output",
                "--log-file",
            ),
        )
        sql = [v for k, v in found if k in ("-c", "--command") and v is not True]
        files = [v for k, v in found if k in ("-f", "--file") and v is not True]
        outs = [
            v for k, v in found if k in ("-o", "--output", "-L", "--log-file") and v is not True
        ]
        listing = any(k in ("-l", "--list") for k, _ in found)
    elif prog in ("mongosh", "mongo"):
        found, ops = opts(
            a, "uph", ("--eval", "--host", "--port", "--username", "--password", "--file")
        )
        if any(k in ("--eval", "--file", "-f") for k, _ in found) or [
            o for o in ops[1:] if o.endswith(".js")
        ]:
            c.flag("%s runs code the hooks cannot see" % prog, unknown=True, remote=True)
            code = " ".join(v for k, v in found if k == "--eval" and v is not True)
            hit = [w for w in code_words(code) if w in DESTROYS]
            if hit:
                c.flag("%s code calls %s" % (prog, hit[0]), destructive=True)
        elif c.stdin_is_data or not any(k in ("--version", "--help") for k, _ in found):
            c.flag("%s runs commands the hooks cannot see" % prog, unknown=True, remote=True)
        return set(a)
    else:
        found, ops = opts(
            a,
            "eDhPupSo",
            (
                "--execute",
                "--database",
                "--host",
                "--port",
                "--user",
                "--password",
                "--socket",
                "--query",
                "--tee",
            ),
        )
        sql = [v for k, v in found if k in ("-e", "--execute", "--query") and v is not True]
        files = []
        outs = [v for k, v in found if k == "--tee" and v is not True]
        listing = False
    c.writes.extend(outs)
    seen = not files
    if not sql and not listing:
        body = stdin_text(raw) if c.stdin_is_data else None
        if body:
            sql.append(body)
        else:
            seen = False
    _sql_flag(c, prog, sql, seen)
    if not seen:
        c.reads.extend(files)
    return set(sql)


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


def h_httpie(c, a, p, raw):
    """http / https / xh: `http [METHOD] URL [items]`; items with = := @ send a body."""
    ops = [w for w in a if w[:1] != "-"]
    method = None
    if (
        ops
        and ops[0].isalpha()
        and ops[0].upper() == ops[0]
        or ops[:1]
        and ops[0].lower() in ("get", "post", "put", "patch", "delete", "head", "options")
    ):
        method, ops = ops[0], ops[1:]
    items = ops[1:]
    data = any(("=" in i and "==" not in i) or "@" in i for i in items) or any(
        w in ("--form", "-f", "--raw", "--multipart") for w in a
    )
    for i in items:
        k = i.find("@")
        if k >= 0:
            c.reads.append(i[k + 1 :])
    http_method(c, c.program, method, data)
    return set(ops)


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


def publish(c, prog, sub):
    """True (and flagged) when `prog sub` changes a package registry."""
    if sub not in PUBLISH:
        return False
    if sub in ("unpublish", "yank"):
        c.flag("%s %s removes a published package" % (prog, sub), destructive=True, remote=True)
    else:
        c.flag("%s %s changes a package registry" % (prog, sub), remote=True)
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
