"""Programs that reach other machines: rsync, scp, ssh, curl, wget, sqlite3."""

from __future__ import annotations

from core.shell.command import has, join, opts, stdin_text, vals
from core.shell.databases import code_words
from core.shell.services import http_method, remote_destroys


def _remote(x):
    """host:path or rsync://: not a local path."""
    if x.startswith("rsync://") or "://" in x:
        return True
    k = x.find(":")
    return k > 0 and "/" not in x[:k]


def h_rsync(c, a, p, raw):
    found, ops = opts(
        a,
        "eBfTM",
        (
            "--exclude",
            "--include",
            "--filter",
            "--rsh",
            "--rsync-path",
            "--exclude-from",
            "--include-from",
            "--files-from",
            "--password-file",
            "--log-file",
            "--temp-dir",
            "--backup-dir",
            "--compare-dest",
            "--link-dest",
            "--copy-dest",
            "--partial-dir",
            "--chmod",
            "--chown",
            "--bwlimit",
            "--timeout",
            "--max-size",
            "--min-size",
            "--port",
            "--out-format",
            "--suffix",
            "--info",
            "--debug",
            "--iconv",
            "--usermap",
            "--groupmap",
            "--contimeout",
            "--sockopts",
            "--protocol",
            "--modify-window",
            "--block-size",
            "--max-delete",
            "--remote-option",
            "--write-batch",
            "--read-batch",
            "--only-write-batch",
            "--link-dest",
            "--compare-dest",
            "--copy-dest",
        ),
    )
    c.reads.extend(
        vals(found, "--exclude-from", "--include-from", "--files-from", "--password-file")
    )
    c.writes.extend(vals(found, "--log-file", "--write-batch", "--only-write-batch"))
    c.writes.extend(vals(found, "--temp-dir", "--backup-dir", "--partial-dir"))
    if vals(found, "--read-batch") or has(found, "--daemon", "--config", "--early-input"):
        # a batch nobody saw is applied to the destination; a daemon serves (and runs) its config
        c.flag("rsync applies a batch or a config the hooks cannot see", unknown=True)
        c.writes.extend(ops[-1:] or ["."])
    dry = has(found, "-n", "--dry-run")
    links = vals(found, "--link-dest")
    c.reads.extend(links)
    if len(ops) >= 2:
        dst = ops[-1]
        if not _remote(dst):
            if not dry:
                c.writes.append(dst)
        elif not dry:
            c.flag("rsync copies files to a remote machine", remote=True)
        srcs = [s for s in ops[:-1] if not _remote(s)]
        if has(found, "-r", "-a", "--recursive", "--archive") and (
            _remote(dst) or has(found, "-L", "--copy-links", "-k", "--copy-dirlinks")
        ):
            # every file under them leaves the machine (.env too), or each link under them
            # becomes a copy of what it leads to (a secret under the link's harmless name)
            c.tree.extend(srcs)
    else:
        srcs = [s for s in ops if not _remote(s)]
    c.reads.extend(srcs)
    if links and not dry:
        c.writes.extend(links)  # hard links to the files there: a write reaches them
    if has(found, "--remove-source-files") and not dry:
        c.writes.extend(srcs)
        c.flag("rsync --remove-source-files deletes the files it sent", destructive=True)
    if any(k.startswith("--delete") for k, _ in found) and not dry:
        c.flag("rsync --delete removes files", destructive=True)
    if vals(found, "-e", "--rsh"):
        c.flag("rsync -e runs a command", unknown=True)
    for path in vals(found, "--rsync-path"):  # the remote shell runs it in place of rsync
        c.code.append(path)
        c.flag("rsync --rsync-path runs a command on the remote machine", remote=True)
        hit = remote_destroys(path, True, p.ctx.budget)
        if hit:
            c.flag("rsync runs %s on the remote machine, which destroys" % hit, destructive=True)
    # patterns of names left out or kept (--exclude=.env): not files it reads
    return set(vals(found, "--exclude", "--include", "--filter"))


def h_scp(c, a, p, raw):
    found, ops = opts(a, "cFiJloPSDXo", ())
    c.reads.extend(vals(found, "-F", "-i"))
    if vals(found, "-S", "-F"):
        c.flag("scp runs a program or reads a config the hooks cannot see", unknown=True)
    ssh_options(c, vals(found, "-o"), p)
    if len(ops) >= 2:
        if not _remote(ops[-1]):
            c.writes.append(ops[-1])
        else:
            c.flag("scp copies files to a remote machine", remote=True)
            if has(found, "-r"):
                c.tree.extend(s for s in ops[:-1] if not _remote(s))  # every file under them
        c.reads.extend(s for s in ops[:-1] if not _remote(s))


def ssh_options(c, values, p) -> None:
    """ssh -o KEY=VALUE: a key that names a program (ProxyCommand, XAuthLocation) is code, one
    that names a file ssh writes (UserKnownHostsFile, ControlPath) is a write, RemoteCommand is
    the command the remote runs; a key the profile does not list is unknown."""
    for v in values:
        v = v.strip()
        cut = min((k for k in (v.find("="), v.find(" "), v.find("\t")) if k >= 0), default=len(v))
        key, val = v[:cut].lower(), v[cut:].strip().lstrip("=").strip()
        if key in _SSH_WRITE_OPTIONS:
            c.writes.extend(w for w in val.split() if w.lower() != "none")
        elif key == "remotecommand":
            c.code.append(val)
            c.flag("ssh -o RemoteCommand runs a command on the remote machine", remote=True)
            hit = remote_destroys(val, True, p.ctx.budget)
            if hit:
                c.flag("ssh runs %s on the remote machine, which destroys" % hit, destructive=True)
        elif key in _SSH_CODE_OPTIONS:
            c.code.append(v)
            c.flag("ssh -o %s runs a local command" % key, unknown=True)
        elif key not in _SSH_DATA_OPTIONS:
            c.flag("ssh -o %s is an option the hooks do not know" % key, unknown=True)


def h_ssh(c, a, p, raw):
    found, ops = opts(a, "bcDEeFIiJLlmOopQRSWwB", (), True)
    c.reads.extend(vals(found, "-F", "-i"))
    c.writes.extend(vals(found, "-E", "-S"))  # the debug log; the control socket
    ssh_options(c, vals(found, "-o"), p)
    if vals(found, "-F"):
        c.flag("%s reads a config that can run commands" % c.program, unknown=True)
    if c.program == "sftp":
        c.flag("sftp changes files on a remote machine", unknown=True, remote=True)
    elif len(ops) > 1:
        c.code.append(" ".join(ops[1:]))
        c.flag("remote command over ssh", unknown=True, remote=True)
        # the remote shell reads the words joined
        hit = remote_destroys(" ".join(ops[1:]), True, p.ctx.budget)
        if hit:
            c.flag("ssh runs %s on the remote machine, which destroys" % hit, destructive=True)
    elif ops and c.program == "ssh" and not has(found, "-N", "-V", "-G", "-Q"):
        c.flag("remote shell over ssh", unknown=True, remote=True)  # commands on its stdin
    return set(ops)


_SSH_CODE_OPTIONS = frozenset(
    (
        "proxycommand",
        "localcommand",
        "permitlocalcommand",
        "knownhostscommand",
        "match",
        "include",
        "pkcs11provider",
        "securitykeyprovider",
        "sshaskpass",
        "xauthlocation",
    )
)
_SSH_WRITE_OPTIONS = frozenset(("userknownhostsfile", "controlpath"))
# ssh_config keys that only choose how to connect, or name files ssh reads (key files, known
# hosts it checks): any other key may run a program or write a file
_SSH_DATA_OPTIONS = frozenset(
    """addkeystoagent addressfamily batchmode bindaddress bindinterface canonicaldomains
    canonicalizefallbacklocal canonicalizehostname canonicalizemaxdots
    canonicalizepermittedcnames casignaturealgorithms certificatefile channeltimeout
    checkhostip ciphers clearallforwardings compression connectionattempts connecttimeout
    controlmaster controlpersist dynamicforward enableescapecommandline enablesshkeysign
    escapechar exitonforwardfailure fingerprinthash forkafterauthentication forwardagent
    forwardx11 forwardx11timeout forwardx11trusted gatewayports globalknownhostsfile
    gssapiauthentication gssapidelegatecredentials hashknownhosts hostbasedacceptedalgorithms
    hostbasedauthentication hostbasedkeytypes hostkeyalgorithms hostkeyalias hostname
    identitiesonly identityagent identityfile ignoreunknown ipqos kbdinteractiveauthentication
    kbdinteractivedevices kexalgorithms localforward loglevel logverbose macs
    nohostauthenticationforlocalhost numberofpasswordprompts obscurekeystroketiming
    passwordauthentication permitremoteopen port preferredauthentications protocol
    proxyjump proxyusefdpass pubkeyacceptedalgorithms pubkeyacceptedkeytypes
    pubkeyauthentication rekeylimit remoteforward requesttty requiredrsasize revokedhostkeys
    sendenv serveralivecountmax serveraliveinterval sessiontype setenv stdinnull
    streamlocalbindmask streamlocalbindunlink stricthostkeychecking syslogfacility tag
    tcpkeepalive tunnel tunneldevice updatehostkeys user verifyhostkeydns
    visualhostkey warnweakcrypto""".split()
)


_SQLITE_CODE = (
    "attach",
    "vacuum",
    "load_extension",
    "writefile",
    "readfile",
    "fts3_tokenizer",
    "edit(",
    "backup",
)


_SQLITE_VALUED = (
    "--cmd",
    "--separator",
    "--newline",
    "--nullvalue",
    "--init",
    "--vfs",
    "--maxsize",
    "--mmap",
    "--heap",
    "--pagecache",
    "--lookaside",
)


def h_sqlite3(c, a, p, raw):
    """The database file is written; dot-commands (.system, .shell, .output, .backup) and
    ATTACH / VACUUM INTO / writefile() reach other files or run commands."""
    from core.shell.databases import sql_effect

    # sqlite3 takes its options with one dash or two (-cmd, --cmd): read both as long ones
    a = ["-" + w if w[:1] == "-" and w[1:2] != "-" and len(w) > 2 else w for w in a]
    found, ops = opts(a, "", _SQLITE_VALUED)
    sql = ops[1:] + vals(found, "--cmd")
    effects = [sql_effect(s, p.ctx.budget) for s in sql]
    reads = sql and not c.stdin_is_data and all(e == "read" for e in effects)
    if "destroy" in effects:
        c.flag("sqlite3 SQL drops or deletes data", destructive=True)
    if ops and ops[0] != ":memory:" and "-readonly" not in a and "--readonly" not in a:
        if not reads:
            c.writes.append(ops[0])
    body = stdin_text(raw) if c.stdin_is_data else ""
    if body is None or vals(found, "--init"):
        c.flag("sqlite3 script we cannot see", unknown=True)
    else:
        sql.append(body)
    for i, s in enumerate(sql):
        low = s.lower()
        if (
            (s.lstrip()[:1] == "." or "\n." in s)
            and (effects[i] if i < len(effects) else sql_effect(s, p.ctx.budget)) != "read"
            or any(k in low for k in _SQLITE_CODE)
        ):
            c.flag("sqlite3 command that reaches files or runs commands", unknown=True)
    return set(ops[1:])


def h_curl(c, a, p, raw):
    found, ops = opts(
        a,
        "AbcCdDeEFHKmoPQrtTuUwxXyYz",
        (
            "--output",
            "--output-dir",
            "--dump-header",
            "--cookie-jar",
            "--cookie",
            "--config",
            "--upload-file",
            "--data",
            "--data-binary",
            "--data-raw",
            "--data-urlencode",
            "--data-ascii",
            "--form",
            "--form-string",
            "--json",
            "--header",
            "--user-agent",
            "--user",
            "--proxy",
            "--request",
            "--referer",
            "--cert",
            "--key",
            "--cacert",
            "--capath",
            "--max-time",
            "--connect-timeout",
            "--retry",
            "--range",
            "--write-out",
            "--trace",
            "--trace-ascii",
            "--stderr",
            "--libcurl",
            "--etag-save",
            "--etag-compare",
            "--hsts",
            "--alt-svc",
            "--netrc-file",
            "--url",
            "--resolve",
            "--interface",
            "--limit-rate",
            "--max-filesize",
            "--oauth2-bearer",
            "--time-cond",
            "--quote",
            "--continue-at",
            "--proto",
            "--proto-redir",
            "--aws-sigv4",
            "--variable",
        ),
    )
    dirs = vals(found, "--output-dir")
    base = dirs[-1] if dirs else None
    _curl_effect(c, found, ops, a)
    for v in vals(found, "-w", "--write-out"):
        # curl >= 8.3: `%output{FILE}` (`%output{>>FILE}` appends) sends the rest there
        if v[:1] == "@":
            c.reads.append(v[1:])  # the format (printed) comes from that file
        for part in v.split("%output{")[1:]:
            c.writes.append(part.split("}", 1)[0].lstrip(">"))
    for v in vals(found, "-o", "--output"):
        if v != "-":
            c.writes.append(join(base, v) if base else v)
    urls = ops + vals(found, "--url")
    if has(found, "-O", "--remote-name", "--remote-name-all", "-J", "--remote-header-name"):
        for u in urls:
            name = u.split("?")[0].split("#")[0].rstrip("/").rsplit("/", 1)[-1]
            if (
                has(found, "-J", "--remote-header-name")
                or not name
                or "://" in u
                and u.split("://", 1)[1].find("/") < 0
            ):
                c.writes.append(base or ".")
                c.flag("curl names the downloaded file itself", unknown=True)
            else:
                c.writes.append(join(base, name) if base else name)
    for v in vals(
        found,
        "-D",
        "--dump-header",
        "-c",
        "--cookie-jar",
        "--trace",
        "--trace-ascii",
        "--stderr",
        "--libcurl",
        "--etag-save",
        "--hsts",
        "--alt-svc",
    ):
        if v != "-":
            c.writes.append(v)
    c.reads.extend(
        vals(
            found,
            "-K",
            "--config",
            "-T",
            "--upload-file",
            "-E",
            "--cert",
            "--key",
            "--cacert",
            "--netrc-file",
            "--etag-compare",
        )
    )
    for v in vals(found, "-b", "--cookie"):
        if "=" not in v:
            c.reads.append(v)
    for v in vals(
        found,
        "-d",
        "--data",
        "--data-binary",
        "--data-urlencode",
        "--data-ascii",
        "--json",
        "-F",
        "--form",
    ):
        at = v.find("@")
        lt = v.find("<") if v[:1] != "<" else 0
        if at >= 0 and (at == 0 or v[at - 1] == "="):
            c.reads.append(v[at + 1 :].split(";")[0])
        elif lt >= 0 and (lt == 0 or v[lt - 1] == "="):
            c.reads.append(v[lt + 1 :].split(";")[0])
    for v in vals(found, "--data-urlencode", "--variable"):
        name, at, path = v.partition("@")  # name@file: the file's content (curl's manual)
        if at and name and "=" not in name:
            c.reads.append(path.split("[", 1)[0] if v[:1] != "%" else path)
    return set(
        vals(
            found,
            "-H",
            "--header",
            "-d",
            "--data",
            "--data-raw",
            "-A",
            "--user-agent",
            "-w",
            "--write-out",
            "-X",
            "--request",
        )
    )


_CURL_DATA = (
    "-d",
    "--data",
    "--data-binary",
    "--data-raw",
    "--data-urlencode",
    "--data-ascii",
    "--json",
    "-F",
    "--form",
    "--form-string",
    "-T",
    "--upload-file",
)
_CURL_SCHEMES = ("http://", "https://", "ftp://", "ftps://", "file://")


def _curl_effect(c, found, ops, a=()):
    """A config file (-K) can hold any option; file:// reads a local file; a method other than
    GET/HEAD, or a body, changes the server; other schemes (gopher, dict, telnet, smtp ...)
    talk to services the hooks cannot judge."""
    if has(found, "-K", "--config"):
        c.flag("curl -K reads options the hooks cannot see", unknown=True)
    urls = ops + vals(found, "--url")
    for u in urls:
        low = u.lower()
        if low.startswith("file://"):
            c.reads.append(u[7:] if u[7:8] == "/" else u[7:].split("/", 1)[-1])
        elif "://" in low and not low.startswith(_CURL_SCHEMES):
            c.flag(
                "curl %s talks to a service the hooks cannot judge" % low.split("://")[0],
                unknown=True,
                remote=True,
            )
    method = (vals(found, "-X", "--request") or [None])[-1]
    # a header that overrides the method (X-HTTP-Method-Override: DELETE) is the method
    for h in vals(found, "-H", "--header"):
        name, _, value = str(h).partition(":")
        if "method" in name.lower() and value.strip():
            method = value.strip().upper()
    # FTP/SFTP quote commands (-Q 'DELE f', RMD, RNFR) change the server
    if has(found, "-Q", "--quote"):
        c.flag("curl -Q sends commands that change the server", destructive=True, remote=True)
    # --variable/--expand-* build a body or URL the hooks cannot see in full
    if any(str(w).startswith(("--variable", "--expand-")) for w in a):
        c.flag("curl builds its request from variables", remote=True)
    if has(found, "-I", "--head"):
        method = method or "HEAD"
    data = has(found, *_CURL_DATA) and not has(found, "-G", "--get")
    if has(found, "-T", "--upload-file") and not method:
        method = "UPLOAD"
    http_method(c, "curl", method, data)
    if c.remote and not c.destructive:
        url_verbs(c, "curl", urls)


def url_verbs(c, prog, urls):
    """A request that changes the server is destructive when a word of its URL path names a
    delete (/_delete_by_query, /job/x/doDelete, /api/purge)."""
    for u in urls:
        path = u.split("://", 1)[-1].partition("/")[2]
        for seg in path.replace("?", "/").replace("&", "/").split("/"):
            low = seg.lower()
            if not any(v in low for v in _URL_DESTROYS):
                continue  # the common case, without splitting the word
            if any(w in _URL_DESTROYS for w in code_words(seg.split("=")[0])):
                c.flag("%s %s names a delete" % (prog, seg), destructive=True)
                return


_URL_DESTROYS = frozenset(
    ("delete", "destroy", "drop", "purge", "truncate", "wipe", "flush", "remove", "erase")
)


def h_wget(c, a, p, raw):
    found, ops = opts(
        a,
        "OoaPiUtTwlAReDQ",
        (
            "--output-document",
            "--output-file",
            "--append-output",
            "--directory-prefix",
            "--input-file",
            "--post-file",
            "--body-file",
            "--load-cookies",
            "--save-cookies",
            "--user-agent",
            "--tries",
            "--timeout",
            "--wait",
            "--level",
            "--accept",
            "--reject",
            "--header",
            "--user",
            "--password",
            "--post-data",
            "--method",
            "--body-data",
            "--domains",
            "--exclude-domains",
            "--ca-certificate",
            "--certificate",
            "--private-key",
        ),
    )
    out = vals(found, "-O", "--output-document")
    pref = (vals(found, "-P", "--directory-prefix") or [None])[-1]
    for v in out:
        if v != "-":
            c.writes.append(v)
    c.writes.extend(vals(found, "-o", "--output-file", "-a", "--append-output", "--save-cookies"))
    c.reads.extend(
        vals(
            found,
            "-i",
            "--input-file",
            "--post-file",
            "--body-file",
            "--load-cookies",
            "--ca-certificate",
            "--certificate",
            "--private-key",
        )
    )
    if has(found, "-e", "--execute", "--config"):
        c.flag("wget -e/--config runs wgetrc commands the hooks cannot see", unknown=True)
    method = (vals(found, "--method") or [None])[-1]
    data = has(found, "--post-data", "--post-file", "--body-data", "--body-file")
    http_method(c, "wget", method, data)
    if not out and "--spider" not in a:  # --spider checks the URL, saves nothing
        if has(found, "-r", "--recursive", "-m", "--mirror"):
            c.writes.append(pref or ".")
        else:
            for u in ops:
                name = (
                    u.split("?")[0].split("#")[0].rsplit("/", 1)[-1]
                    if "/" in u.split("://", 1)[-1]
                    else ""
                )
                name = name or "index.html"
                c.writes.append(join(pref, name) if pref else name)
    return set(ops)


# httpie / xh options that only shape the request or what is printed ("=": takes a value);
# -o/--output and --download write files, --session a session file; any other is unknown
_HTTPIE_FLAGS = frozenset(
    "--json -j --form -f --multipart --unsorted --sorted --headers -h --meta -m --body -b "
    "--verbose -v --all --stream -S --quiet -q --offline --check-status --follow -F "
    "--ignore-stdin -I --chunked --compress -x --ignore-netrc --path-as-is --debug "
    "--traceback --help --version --continue -c --https --curl --curl-long -4 -6 "
    "--native-tls --no-check-status --history-print -P --raw-output -B".split()
)
_HTTPIE_VALUED = frozenset(
    "--pretty --style -s --response-charset --response-mime --format-options --print -p "
    "--max-redirects --max-headers --timeout --boundary --raw --auth -a --auth-type -A "
    "--proxy --verify --ssl --ciphers --cert --cert-key --cert-key-pass --default-scheme "
    "--session-read-only --http-version --resolve --interface --bearer".split()
)


def _httpie_options(c, a, p):
    """The options of http/xh: (operands, a body option was given)."""
    ops: list[str] = []
    body = False
    i = 0
    while i < len(a):
        w = a[i]
        i += 1
        if w == "--":
            ops.extend(a[i:])
            break
        if w[:1] != "-" or w == "-":
            ops.append(w)
            continue
        name, eq, val = w.partition("=")
        if name in _HTTPIE_VALUED or name in ("-o", "--output", "--session"):
            if not eq:
                val = a[i] if i < len(a) else ""
                i += 1
            if name in ("-o", "--output"):
                c.writes.append(val)
            elif name == "--session":  # a path, or a name under ~/.config/httpie/sessions
                if "/" in val or val.endswith(".json"):
                    c.reads.append(val)
                    c.writes.append(val)
                else:
                    c.writes.append(p.ctx.home + "/.config/httpie/sessions")
            elif name in ("--cert", "--cert-key", "--verify", "--session-read-only") and (
                "/" in val or "." in val
            ):
                c.reads.append(val)
            elif name == "--raw":
                body = True
        elif name in ("-d", "--download"):
            if "-o" not in a and "--output" not in a:
                c.flag("%s --download writes a file named by the server" % c.program, unknown=True)
                c.writes.append(".")
        elif name in _HTTPIE_FLAGS:
            body = body or name in ("--form", "-f", "--multipart")
        else:
            c.flag("%s %s is an option the hooks do not know" % (c.program, w), unknown=True)
    return ops, body


def h_httpie(c, a, p, raw):
    """http / https / xh: `http [METHOD] URL [items]`; items with = := @ send a body."""
    ops, body = _httpie_options(c, a, p)
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
    data = any(("=" in i and "==" not in i) or "@" in i for i in items) or body
    for i in items:
        k = i.find("@")
        if k >= 0:
            c.reads.append(i[k + 1 :])
    http_method(c, c.program, method, data)
    return set(ops)
