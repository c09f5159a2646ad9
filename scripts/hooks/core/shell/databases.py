"""Databases: SQL judged statement by statement (psql, mysql, sqlite3, clickhouse), the
redis command table, Mongo shell code, and the dump/restore/admin tools. A statement is a read
only when it is a plain SELECT/SHOW/EXPLAIN that calls no function outside the pure list;
DROP, TRUNCATE, DELETE or UPDATE without a WHERE, and ALTER ... DROP destroy."""

from __future__ import annotations

from core.shell.command import every_word, opts, stdin_text
from core.shell.sqllex import strip_comments as _strip_comments
from core.shell.verbs import DESTROYS


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
# statements that write rows, wherever they stand in a read
_SQL_WRITES = ("insert", "update", "merge", "upsert", "copy")


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


_META_READS = frozenset(
    "d dt dn df dv di du l list tables schema indexes headers mode timing x conninfo dbinfo "
    "databases help ? show width echo print nullvalue c connect pset a t encoding errverbose "
    "sf sv z dp dx q".split()
)
# client commands that run a program, a file or write one (mysql `system`, `source`, `tee`)
_SQL_CLIENT_CODE = frozenset("system source tee pager edit".split())
# words of a WHERE clause that name no column: `WHERE 1=1` or `WHERE true` keeps every row
_SQL_NOT_COLUMNS = frozenset("and or not true false null is like in between".split())


def _filters_rows(bare):
    """True when a DELETE or UPDATE has a WHERE clause that names a column."""
    k = bare.find(" where ")
    if k < 0:
        return False
    cur: list[str] = []
    for ch in bare[k + 7 :] + " ":
        if ch.isalnum() or ch == "_":
            cur.append(ch)
            continue
        if cur:
            w = "".join(cur)
            if not w.isdigit() and w not in _SQL_NOT_COLUMNS:
                return True  # the first column ends the scan
            cur = []
    return False


def _explained(low):
    """The statement EXPLAIN [ANALYZE] [options] runs, or "" when it only plans."""
    rest = low.split(" ", 1)[1] if " " in low else ""
    if rest[:1] == "(":  # EXPLAIN (ANALYZE, BUFFERS) stmt
        opts_, _, rest = rest[1:].partition(")")
        return rest.strip() if "analyze" in opts_ else ""
    runs = False
    i = 0
    while True:
        word, _, tail = rest[i:].partition(" ")
        if word not in ("analyze", "analyse", "verbose", "extended", "query", "plan"):
            break
        runs = runs or word in ("analyze", "analyse")
        i += len(word) + 1
    return rest[i:] if runs else ""


_RANK = {"read": 0, "change": 1, "unknown": 2, "destroy": 3}


def sql_effect(sql, budget=None):
    """'read', 'change', 'destroy' or 'unknown' (a client command that reaches this machine)
    for a SQL text (and psql/sqlite meta-commands). A text whose quotes or comments read
    differently in another dialect is judged in each; the worst wins. Each reading is charged
    to the work budget by the text's length (measured: up to 1.4 us a character)."""
    cost = len(sql) * 3 // 2 + 1
    if budget is not None:
        budget.spend(cost)
    worst = _sql_effect(_strip_comments(sql), 0)
    if "\\" in sql or "$" in sql or "#" in sql or sql.count("/*") > 1:
        for dialect in (1, 2):
            if budget is not None:
                budget.spend(cost)
            e = _sql_effect(_strip_comments(sql, dialect), 0)
            if _RANK[e] > _RANK[worst]:
                worst = e
    return worst


def _sql_effect(text, depth):
    """sql_effect of a text without comments; `depth` counts EXPLAIN ANALYZE nesting."""
    if depth > 2:
        return "unknown"  # EXPLAIN ANALYZE EXPLAIN ANALYZE ...: not worth following
    worst = "read"
    for stmt in _statements(text):
        low = " ".join(stmt.lower().split())
        if not low:
            continue
        if low[:1] in ("\\", "."):
            meta = low[1:].split(" ", 1)[0].rstrip("+")
            if meta in _META_READS or meta in ("g", "gx") and " " not in low:
                continue  # \g alone runs the query buffer; \g FILE writes a file
            if meta[:1] == "d" and meta.isalpha() and len(meta) <= 4 and low[:1] == "\\":
                continue
            if low[:1] == "." and meta in DESTROYS:
                return "destroy"
            worst = "unknown"  # psql \! runs a shell; \o, .output write files; \i runs one
            continue
        if low.split(" ", 1)[0] in _SQL_CLIENT_CODE:
            worst = "unknown"
            continue
        if low.startswith("explain "):
            inner = _explained(low)
            if inner:  # EXPLAIN ANALYZE runs its statement: judge that one
                e = _sql_effect(inner, depth + 1)
                if e == "destroy":
                    return e
                worst = e if worst == "read" or e == "unknown" else worst
                continue
        head = low.split(" ", 1)[0].strip("(")
        bare = " %s " % " ".join(
            _unquoted(low).replace("(", " ").replace(")", " ").replace(";", " ").split()
        )
        if head in ("delete", "update"):
            if not _filters_rows(bare):
                return "destroy"  # every row: DELETE FROM t, UPDATE t SET a=1, WHERE 1=1
            worst = "change" if worst == "read" else worst
            continue
        if head in _SQL_DESTROY and head != "alter" or " drop " in bare or " truncate " in bare:
            return "destroy"
        if " delete " in bare:
            return "destroy"  # a DELETE inside another statement (WITH, RULE, trigger)
        if head in ("do", "execute", "call", "begin", "prepare", "exec") and any(
            w in low for w in ("drop ", "truncate ", "delete ")
        ):
            return "destroy"  # dynamic SQL in a string: EXECUTE 'DROP TABLE t'
        if head in _SQL_READ and any(f not in _SQL_PURE for f in _calls(_unquoted(low))):
            worst = "change" if worst == "read" else worst  # a call that may change state
        if head not in _SQL_READ or any(
            w in low for w in _SQL_NEVER if w != "=" or head == "pragma"
        ):
            worst = "change" if worst == "read" else worst
        if head in _SQL_READ and any(" %s " % w in bare for w in _SQL_WRITES):
            # a data-modifying CTE or subquery: WITH x AS (UPDATE t SET a=1 ...) SELECT
            k = bare.find(" update ")
            while k >= 0 and bare[max(0, k - 4) : k] in (" for", " key"):
                k = bare.find(" update ", k + 1)  # SELECT ... FOR [NO KEY] UPDATE locks rows
            if k >= 0 and not _filters_rows(bare[k:]):
                return "destroy"
            worst = "change" if worst != "unknown" else worst
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
    """The statements of a SQL text: split at `;`; a client command (`\\x`, `.x`) runs to the
    end of its line, and one inside a line (`SELECT 1 \\g out.txt`) starts a new statement."""
    out = []
    cur: list[str] = []
    quote = None
    blank = True  # nothing but spaces in `cur` so far
    meta = False  # `cur` is a client command: it ends at the newline
    for ch in sql:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
            continue
        if ch in ("'", '"'):
            quote = ch
        if ch == ";" or ch == "\n" and meta or ch == "\\" and not blank and not meta:
            out.append("".join(cur))
            cur, blank, meta = [], True, False
            if ch != "\\":
                continue
        if blank and not ch.isspace():
            blank = False
            meta = ch in ("\\", ".")
        cur.append(ch)
    out.append("".join(cur))
    return out


# words of SQL that reach the server's files or programs (pg_read_file, COPY ... FROM,
# LOAD_FILE, INTO OUTFILE, lo_import, clickhouse file())
_SQL_FILES = (
    "pg_read",
    "pg_ls_dir",
    "pg_stat_file",
    "lo_import",
    "lo_export",
    "copy",
    "load_file",
    "load data",
    "infile",
    "outfile",
    "dumpfile",
    "readfile",
    "writefile",
    "file(",
    "program",
    "attach",
)


def _sql_flag(c, prog, texts, seen, budget=None):
    """Judge the SQL a database client runs: texts it can see; `seen` False when some of it
    comes from a file or a stdin it cannot see."""
    if not seen:
        c.flag("%s runs SQL the hooks cannot see" % prog, unknown=True, remote=True)
        return
    effects = {sql_effect(t, budget) for t in texts}
    files = [t for t in texts if any(k in t.lower() for k in _SQL_FILES)]
    if files:  # the server may be this machine: files it reads or writes there are code's
        c.flag("%s SQL reaches the server's files or programs" % prog, unknown=True)
        every_word(c, files)
    if "destroy" in effects:
        c.flag("%s SQL drops or deletes data" % prog, destructive=True, remote=True)
    elif effects - {"read"}:
        c.flag("%s SQL that changes data or reaches files" % prog, remote=True)
    if "unknown" in effects:
        c.flag("%s runs a client command that reaches this machine" % prog, unknown=True)


# client options that only pick the server, the session or the output format (mysql
# --init-command is SQL, judged as such); any other (mysql --pager, --defaults-file, --plugin-dir; psql -P pager, ...) may run
# SQL or code, load a file or write one: unknown
_PSQL_PLAIN = frozenset(
    "-c -d -f -h -p -U -v -o -L -T -F -R -P -l -A -t -x -q -X -1 -e -E -a -b -n -s -S -w -W "
    "-z -0 -H -V -? --command --dbname --file --host --port --username --set --variable "
    "--output --log-file --list --no-align --tuples-only --expanded --quiet --no-psqlrc "
    "--single-transaction --echo-all --echo-errors --echo-queries --echo-hidden --csv "
    "--html --no-password --password --version --help --field-separator --record-separator "
    "--field-separator-zero --record-separator-zero --table-attr".split()
)
_MYSQL_PLAIN = frozenset(
    "-e -D -h -P -u -p -S -o -B -N -s -t -H -X -v -V -E -A -r -n -C -U -f -c -? --execute "
    "--database --host --port --user --password --socket --query --tee --batch "
    "--skip-column-names --column-names --silent --table --html --xml --verbose --version "
    "--help --vertical --raw --unbuffered --compress --no-auto-rehash --auto-rehash "
    "--safe-updates --i-am-a-dummy --force --comments --skip-comments --protocol "
    "--default-character-set --connect-timeout --ssl --skip-ssl --ssl-mode --ssl-ca "
    "--ssl-cert --ssl-key --ssl-capath --ssl-cipher --ssl-verify-server-cert --line-numbers "
    "--skip-line-numbers --one-database --binary-mode --show-warnings --no-beep "
    "--skip-pager --no-tee --reconnect --skip-reconnect --quick --init-command".split()
)


def _plain_options(c, prog, found, plain):
    for k, _ in found:
        if k not in plain:
            c.flag(
                "%s %s is an option the hooks do not know (it may run SQL or code, load or "
                "write a file)" % (prog, k),
                unknown=True,
            )
            return


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
        _plain_options(c, prog, found, _PSQL_PLAIN)
        sql = [v for k, v in found if k in ("-c", "--command") and v is not True]
        files = [v for k, v in found if k in ("-f", "--file") and v is not True]
        outs = [
            v for k, v in found if k in ("-o", "--output", "-L", "--log-file") and v is not True
        ]
        listing = any(k in ("-l", "--list") for k, _ in found)
    elif prog in ("mongosh", "mongo"):
        found, ops = opts(
            a,
            "uphf",
            (
                "--eval",
                "--host",
                "--port",
                "--username",
                "--password",
                "--file",
                "--authenticationDatabase",
            ),
        )
        _mongo(c, prog, found, ops, raw, p.ctx.budget)
        return set(a)
    elif prog == "clickhouse-client":
        found, ops = opts(
            a,
            "qdhu",
            ("--query", "--database", "--host", "--port", "--user", "--password", "--queries-file"),
        )
        sql = [v for k, v in found if k in ("-q", "--query") and v is not True]
        files = [v for k, v in found if k == "--queries-file" and v is not True]
        outs = []
        listing = False
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
                "--init-command",
            ),
        )
        _plain_options(c, prog, found, _MYSQL_PLAIN)
        sql = [
            v
            for k, v in found
            if k in ("-e", "--execute", "--query", "--init-command") and v is not True
        ]
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
    _sql_flag(c, prog, sql, seen, p.ctx.budget)
    if not seen:
        c.reads.extend(files)
    return set(sql)


# -------------------------------------------------------------------- Mongo shell code

# methods that only read: a call outside this list may change data (or run local code:
# mongosh is a Node shell with require())
_MONGO_READS = frozenset(
    "find findone count countdocuments estimateddocumentcount aggregate distinct explain "
    "limit skip sort pretty toarray itcount hasnext next batchsize projection hint "
    "maxtimems collation comment getcollectionnames getcollectioninfos stats datasize "
    "storagesize totalsize totalindexsize getindexes getindexkeys hello ismaster "
    "serverstatus dbstats version getname getsiblingdb getcollection printjson print "
    "tojson hostinfo buildinfo currentop getusers getroles getmongo listcollections "
    "getdbnames status conf getreplicationinfo printreplicationinfo foreach map".split()
)
# calls that touch every document when their filter is empty
_MONGO_ALL_ROWS = ("remove", "deletemany", "deleteone", "findoneanddelete", "updatemany")


def mongo_effect(code):
    """'read', 'change' or 'destroy' for Mongo shell code; 'unknown' when it is more than
    method calls on the database (functions, assignments, require, templates, a shell
    function such as runProgram or removeFile that acts on this machine)."""
    bare = _unquoted(code)
    if any(k in bare for k in ("=", "`", "require", "function", "new ", "process", "this")):
        return "unknown"
    worst = "read"
    if _computed_calls(bare):
        # db.c["remove"]({}), db.c['dr'+'op'](), a call split from its name: the method is
        # a value the hooks would have to compute; a destroying word in it destroys
        words = code_words(code)
        if any(w in _MONGO_DESTROYS or w in _MONGO_ALL_ROWS or w[:4] == "drop" for w in words):
            return "destroy"
        worst = "unknown"
    for stmt in bare.replace("\n", ";").split(";"):
        low = " ".join(stmt.split()).lower().replace(" (", "(")
        if any(v in low for v in _MONGO_DESTROYS) and any(
            w in _MONGO_DESTROYS for w in code_words(stmt)
        ):
            return "destroy"  # db.shutdownServer(), runCommand({dropDatabase: 1})
        if not low or low.split(" ", 1)[0] in ("show", "use", "it"):
            continue
        for name, method in _mongo_calls(low):
            if name in _BSON:
                continue
            if not method:
                return "unknown"  # cat(), runProgram(), load(): this machine, not the database
            if name.startswith("drop"):
                return "destroy"
            if name in _MONGO_ALL_ROWS:
                k = low.find(name + "(") + len(name) + 1
                arg = low[k : k + 16].replace(" ", "")
                if arg[:1] == ")" or arg[:2] == "{}" and arg[2:3] in (")", ","):
                    return "destroy"  # remove({}), deleteMany({}), updateMany({}, ...)
                worst = "change"
            elif name not in _MONGO_READS:
                worst = "change"
        tight = low.replace(" ", "")
        if "$out" in low or "renamecollection(" in low and ",true" in tight:
            return "destroy"  # $out and rename with dropTarget replace a whole collection
        if any("%s:{filter:{}" % k in tight for k in _MONGO_ALL_ROWS):
            return "destroy"  # bulkWrite([{deleteMany: {filter: {}}}]): every document
        if "$merge" in low:
            worst = "change"  # an aggregate that writes a collection
    return worst


_MONGO_DESTROYS = frozenset(("drop", "shutdown", "purge", "wipe", "truncate"))


def _computed_calls(bare):
    """True when code without its strings names a member by a computed value (x[..] after a
    name or a call) or calls something that is not a plain name (`](`, `?.(`, a name and
    its `(` on different lines)."""
    for j, ch in enumerate(bare):
        if ch not in "([":
            continue
        k = j - 1
        newline = False
        while k >= 0 and bare[k].isspace():
            newline = newline or bare[k] in "\r\n"
            k -= 1
        prev = bare[k] if k >= 0 else ""
        name = prev.isalnum() or prev in "_$)]"
        if ch == "[" and name or ch == "(" and (prev in "].?" or newline and name):
            return True
    return False


# value constructors a filter may call
_BSON = frozenset(
    "objectid isodate date numberlong numberint numberdecimal uuid timestamp bindata regexp "
    "minkey maxkey dbref printjson print tojson".split()
)


def _mongo_calls(text):
    """(name, is a method) for each call in Mongo shell code."""
    out = []
    j = text.find("(")
    while j >= 0:
        k = j
        while k > 0 and text[k - 1].isspace():
            k -= 1
        e = k
        while k > 0 and (text[k - 1].isalnum() or text[k - 1] in "_$"):
            k -= 1
        if e > k:
            out.append((text[k:e], k > 0 and text[k - 1] == "."))
        j = text.find("(", j + 1)
    return out


def _mongo(c, prog, found, ops, raw, budget):
    """mongosh/mongo: --eval code judged; files and stdin are code the hooks cannot see."""
    code = [v for k, v in found if k == "--eval" and v is not True]
    files = [v for k, v in found if k in ("--file", "-f") and v is not True]
    files += [o for o in ops[1:] if o.endswith(".js")]
    body = stdin_text(raw) if c.stdin_is_data and not code else None
    if body:
        code.append(body)  # echo 'db.users.find()' | mongosh: the code is on the line
    if files or (c.stdin_is_data and not code):
        c.flag("%s runs code the hooks cannot see" % prog, unknown=True, remote=True)
        c.reads.extend(files)
        return
    if not code:
        if not any(k in ("--version", "--help") for k, _ in found):
            c.flag("%s runs commands the hooks cannot see" % prog, unknown=True, remote=True)
        return
    budget.spend(sum(len(x) for x in code) // 2 + 1)  # measured: about 0.3 us a character
    effects = [mongo_effect(x) for x in code]
    if "destroy" in effects:
        c.flag(
            "%s code drops, empties or shuts down a database" % prog, destructive=True, remote=True
        )
    if "unknown" in effects:
        c.flag("%s runs code the hooks cannot see" % prog, unknown=True, remote=True)
        hit = [w for x in code for w in code_words(x) if w in DESTROYS]
        if hit:
            c.flag("%s code calls %s" % (prog, hit[0]), destructive=True)
    elif "change" in effects:
        c.flag("%s code changes data" % prog, remote=True)


# -------------------------------------------------------------------- redis

# commands that only read; two-word ones joined by "-"
_REDIS_READS = frozenset(
    "get mget keys scan info ping ttl pttl expiretime pexpiretime type exists hget hgetall "
    "hkeys hvals hlen hexists hmget hscan hstrlen hrandfield lrange llen lindex lpos smembers "
    "scard sismember smismember sscan srandmember sdiff sinter sunion sintercard zrange "
    "zrevrange zrangebyscore zrevrangebyscore zrangebylex zcard zscore zmscore zrank zrevrank "
    "zcount zlexcount zscan zrandmember strlen getrange substr dbsize time lastsave echo "
    "xrange xrevrange xlen xinfo xpending object dump randomkey role bitcount bitpos getbit "
    "pfcount geopos geodist geohash georadius_ro georadiusbymember_ro geosearch lcs "
    "touch wait monitor subscribe psubscribe ssubscribe readonly "
    "memory-usage memory-stats memory-doctor command command-count command-info "
    "command-docs latency-latest latency-history latency-doctor slowlog-get slowlog-len "
    "config-get client-list client-info client-getname client-id cluster-info cluster-nodes "
    "cluster-slots cluster-shards cluster-myid cluster-keyslot module-list acl-list "
    "acl-whoami acl-users acl-cat acl-getuser pubsub-channels pubsub-numsub pubsub-numpat "
    "function-list script-exists xinfo-stream xinfo-groups xinfo-consumers json.get "
    "json.mget json.type json.strlen json.arrlen json.objkeys".split()
)
# commands that delete data, stop or crash the server, or repoint it
_REDIS_DESTROYS = frozenset(
    "flushall flushdb del unlink getdel shutdown debug swapdb replicaof slaveof failover "
    "migrate restore rename renamenx config-set config-resetstat config-rewrite script-flush "
    "script-kill function-flush function-delete function-restore cluster-reset "
    "cluster-forget cluster-failover cluster-flushslots acl-deluser client-kill "
    "module-unload xgroup-destroy json.del json.forget module-load module-loadex "
    "hdel srem zrem lrem ltrim xdel xtrim zremrangebyrank zremrangebyscore zremrangebylex "
    "zpopmin zpopmax bzpopmin bzpopmax".split()
)
# setting a time to live of zero or less (or a time in the past) deletes the key
_REDIS_EXPIRES = frozenset("expire pexpire expireat pexpireat getex".split())
# options that print statistics only; options that take a value
_REDIS_READ_OPTIONS = frozenset(
    "--scan --bigkeys --memkeys --hotkeys --stat --latency --latency-history --latency-dist "
    "--intrinsic-latency --help --version".split()
)
_REDIS_VALUED = frozenset(
    "-h -p -a -n -u -s -r -i -d -t --user --pass --askpass --cacert --cacertdir --cert --key "
    "--sni --tls-ciphers --tls-ciphersuites --pattern --count --quoted-pattern --eval "
    "--rdb --functions-rdb --cluster --replica -e --resp2 --resp3".split()
) - {"--resp2", "--resp3", "-e"}


def redis_effect(words):
    """'read', 'change' or 'destroy' for one redis command (its words)."""
    if not words:
        return "read"
    one = words[0].lower()
    two = "-".join(w.lower() for w in words[:2])
    if one in _REDIS_DESTROYS or two in _REDIS_DESTROYS:
        return "destroy"
    if one in _REDIS_EXPIRES:
        ttl = next((w for w in words[2:] if w.lstrip("-").isdigit()), "")
        if one != "getex" and (not ttl or int(ttl) <= 0) or one in ("expireat", "pexpireat"):
            return "destroy"  # EXPIRE k 0, EXPIREAT k 1 (the past); a TTL it cannot see
    if one in ("eval", "evalsha", "eval_ro", "fcall", "fcall_ro"):
        hit = [w for x in words[1:2] for w in code_words(x) if w in _REDIS_DESTROYS]
        return "destroy" if hit else ("read" if one.endswith("_ro") else "change")
    if one in _REDIS_READS or two in _REDIS_READS:
        return "read"
    return "change"


def h_redis(c, a, p, raw):
    """redis-cli / valkey-cli: the command on the line (or each line of stdin) from the
    command table; --rdb writes a file; --pipe and --eval run what the hooks cannot see."""
    prog = c.program.lower()
    i = 0
    words: list[str] = []
    stat = False
    while i < len(a):
        w = a[i]
        if w[:1] == "-" and len(w) > 1 and not words:
            if w in ("--rdb", "--functions-rdb") and i + 1 < len(a):
                c.writes.append(a[i + 1])
            if w in ("--eval", "--pipe"):
                c.flag("%s %s runs commands the hooks cannot see" % (prog, w), unknown=True)
                c.flag("%s %s changes the database" % (prog, w), remote=True)
                c.reads.extend(a[i + 1 : i + 2] if w == "--eval" else [])
            stat = stat or w in _REDIS_READ_OPTIONS or w in ("--rdb", "--functions-rdb")
            i += 2 if w in _REDIS_VALUED else 1
            continue
        words.append(w)
        i += 1
    if not words:
        if stat:
            return set(a)
        body = stdin_text(raw) if c.stdin_is_data else None
        if body is None:
            c.flag("%s reads commands the hooks cannot see" % prog, unknown=True, remote=True)
            return set(a)
        effects = [redis_effect(line.split()) for line in body.split("\n")]
    elif "--cluster" in a:  # redis-cli --cluster call HOST CMD ...: the command comes later
        cmd = [w for w in words if w.lower() in _REDIS_DESTROYS or w.lower() == "del"]
        effects = ["destroy" if cmd or "del" in a else "change"]
    else:
        effects = [redis_effect(words)]
    verb = " ".join(words[:2]) if words else "(stdin)"
    if "destroy" in effects:
        c.flag("%s %s deletes data or stops the server" % (prog, verb), destructive=True)
        c.flag("%s %s" % (prog, verb), remote=True)
    elif "change" in effects:
        c.flag("%s %s changes the database" % (prog, verb), remote=True)
    return set(a)


# -------------------------------------------------------------------- dump, restore, admin


def h_db_tool(c, a, p, raw):
    """pg_dump/pg_dumpall/mongodump/mongoexport read a database into a file (or stdout);
    pg_restore/mongorestore/mongoimport write one; --clean/--drop drops what is there first."""
    prog = c.program.lower()
    outs = []
    clean = False
    listing = False
    for i, w in enumerate(a):
        name, eq, val = w.partition("=")
        nxt = val if eq else (a[i + 1] if i + 1 < len(a) else "")
        if name in ("-f", "--file", "-o", "--out", "--output") or (
            name == "--archive" and eq and prog[:5] == "mongo"
        ):
            outs.append(nxt)
        elif w[:2] == "-f" and len(w) > 2 and prog[:2] == "pg":
            outs.append(w[2:])
        clean = clean or name in ("--clean", "--drop") or prog[:2] == "pg" and _short(w, "c")
        listing = listing or name == "--list" or prog == "pg_restore" and _short(w, "l")
    c.reads.extend(
        w for i, w in enumerate(a) if w[:1] != "-" and (i == 0 or a[i - 1] not in _DB_VALUED)
    )  # the dump a restore reads, a database name (a harmless read)
    reads_only = prog in ("pg_dump", "pg_dumpall", "mongodump", "mongoexport")
    if reads_only or listing or prog == "pg_restore" and outs:
        c.writes.extend(o for o in outs if o and o != "-")
        if prog == "mongodump" and not outs and "--archive" not in a:
            c.writes.append("dump")  # mongodump writes ./dump by default
        if clean and not listing:
            c.flag(
                "%s --clean writes a dump that drops what it restores over" % prog, destructive=True
            )
        return set()  # the files it names are reads (pg_restore -l .env)
    if clean:
        c.flag("%s drops what is there before it restores" % prog, destructive=True, remote=True)
    else:
        c.flag("%s writes to a database" % prog, remote=True)
    return set()


# options of the dump and restore tools that take a value
_DB_VALUED = frozenset(
    "-d --dbname -f --file -h --host -p --port -U --username -n --schema -t --table -F "
    "--format -j --jobs -L --use-list -S --role -o --out --output --db -c --collection "
    "--uri -u --password --authenticationDatabase -q --query --nsInclude --nsExclude".split()
)


def _short(w, letter):
    """A short-option cluster that holds `letter` (-c, -cv, -Fc is not: F takes a value)."""
    return w[:1] == "-" and w[1:2] != "-" and w[1:].isalpha() and letter in w[1:].split("F")[0]
