"""Commands that print credentials. A CLI that prints a token, a password, a secret value or
its raw config reads its credential store: the command counts as a read of that store (under
~, in the default blocked paths), so the [blocked-path] gate refuses it in every mode.

The rule keys on words, not on a list of commands: a verb path (the first words that are not
options, split on - : _ .) that names a secret thing (token, password, secret, credential,
key) next to a verb that shows it (get, print, show, view, read, export, access, fill, list
for a few) is a credential print of any CLI with a known store."""

from __future__ import annotations

# program: the credential store its secrets come from (relative to the home)
STORES = {
    "gh": ".config/gh/hosts.yml",
    "kubectl": ".kube/config",
    "oc": ".kube/config",
    "aws": ".aws/credentials",
    "gcloud": ".config/gcloud",
    "az": ".azure",
    "vault": ".vault-token",
    "op": ".config/op",
    "heroku": ".netrc",
    "gpg": ".gnupg",
    "gpg2": ".gnupg",
    "git": ".git-credentials",
    "npm": ".npmrc",
    "pnpm": ".npmrc",
    "yarn": ".npmrc",
    "docker": ".docker/config.json",
    "podman": ".docker/config.json",
    "doctl": ".config/doctl",
    "flyctl": ".fly",
    "fly": ".fly",
    "pass": ".password-store",
    "security": "Library/Keychains",  # macOS keychain
    "secret-tool": ".local/share/keyrings",  # libsecret (GNOME keyring)
    "printenv": "/proc/self/environ",
    # the state with every resource's secrets in clear; the API token that reads it
    "terraform": ".terraform.d/credentials.tfrc.json",
    "tofu": ".terraform.d/credentials.tfrc.json",
    "ps": "/proc/self/environ",
    "composer": ".config/composer/auth.json",
    "uv": ".local/share/uv/credentials",
}
# credential helpers named by prefix (docker-credential-desktop, git-credential-store ...): their
# `get` prints the secret for the server fed on stdin
HELPERS = {"docker-credential-": ".docker/config.json", "git-credential-": ".git-credentials"}
# verbs that put a secret somewhere: no print (`gh secret set API_TOKEN`)
_STORE_VERBS = (
    "set",
    "add",
    "create",
    "delete",
    "remove",
    "rm",
    "edit",
    "update",
    "import",
    "revoke",
)
# words that name a secret thing
_SECRET = (
    "token",
    "tokens",
    "password",
    "passwd",
    "secret",
    "secrets",
    "credential",
    "credentials",
    "apikey",
    "auth",
    "authtoken",
    "kubeconfig",
)
# words that show it
_SHOW = (
    "get",
    "print",
    "show",
    "view",
    "read",
    "export",
    "access",
    "fill",
    "reveal",
    "cat",
    "download",
)
# options that make a read print raw secrets
_RAW = ("--raw", "--flatten")
_DECRYPT = ("--with-decryption", "--reveal", "--decrypt")
_SECRET_NAMES = ("KEY", "TOKEN", "SECRET", "PASS", "CREDENTIAL", "AUTH", "COOKIE", "SESSION")


def _words(a: list[str]) -> list[str]:
    """The verb path: the first words that are not options, split into their parts."""
    out: list[str] = []
    for w in a:
        if w == "--":
            break
        if w[:1] == "-" or "/" in w and not w.startswith("secret"):
            continue
        out.append(w.lower())
        if len(out) == 4:
            break
    return out


def _parts(words: list[str]) -> list[str]:
    out: list[str] = []
    for w in words:
        for sep in ":_.":
            w = w.replace(sep, "-")
        out.extend(x for x in w.split("-") if x)
    return out


def store_key(key: str, prog: str) -> str | None:
    """The STORES/HELPERS key that judges this program (by table key, name or prefix)."""
    if key in STORES:
        return key
    if prog in STORES:
        return prog
    return next((h for h in HELPERS if prog.startswith(h) and len(prog) > len(h)), None)


def prints_secret(prog: str, a: list[str]) -> bool:
    """Does `prog a...` print a credential (token, password, secret value, raw config)?"""
    low = [x.lower() for x in a]
    if prog in HELPERS:
        return _words(a)[:1] == ["get"]
    if prog == "secret-tool":
        return _words(a)[:1] in (["lookup"], ["search"])
    if prog == "security":
        # find-*-password -w/-g prints the password, dump-keychain -d every secret
        w = _words(a)[:1]
        return bool(w) and (w[0].endswith("-password") or w[0] in ("dump-keychain", "export"))
    if prog == "printenv":
        # the hooks' own SANE_* names are self-protection's (a clearer answer)
        names = [x.upper() for x in a if x[:1] != "-" and not x.startswith("SANE_")]
        return any(s in x for x in names for s in _SECRET_NAMES)
    if prog == "ps":
        # BSD-style `ps e`, `ps eww`, `ps auxe` print every process's environment
        return bool(a) and a[0].isalpha() and "e" in a[0]
    if prog in ("gpg", "gpg2"):
        # an export of secret keys, or a decryption with them (-d, --decrypt)
        secret_ops = ("--export-secret", "--export-ssh-key", "--decrypt")
        return any(x.startswith(secret_ops) or x == "-d" for x in a)
    words = _words(a)
    parts = _parts(words)
    secret = [x for x in parts if x in _SECRET]
    if prog in ("terraform", "tofu"):
        return _state_print(words, low)
    if prog in ("kubectl", "oc"):
        # get secret -o yaml/json/jsonpath (wherever the kind stands: after -n NS, in a
        # list like cm,secret, as secret/NAME); config view --raw; create token
        out = any(x.startswith(("-o", "--output", "--template")) for x in low)
        kinds = [k for x in low if x[:1] != "-" for k in x.replace("/", ",").split(",")]
        if "get" in words[:3] and any(k.startswith("secret") for k in kinds) and out:
            return True
        if words[:2] == ["config", "view"] and any(x in _RAW for x in low):
            return True
        return words[:2] == ["create", "token"]
    if prog == "gh" and words[:2] == ["auth", "status"]:
        return any(x in ("-t", "--show-token") or x.startswith("--show-t") for x in low)
    if prog == "git" and _git_verb(low) == "config":
        # a key that holds a credential (http.extraheader with the CI token, a password)
        keys = [x for x in low[low.index("config") + 1 :] if x[:1] != "-"]
        return any(k in x for x in keys for k in ("extraheader", "password", "token", "secret"))
    if prog == "git":
        return bool(words) and words[0].startswith("credential")
    if prog in ("npm", "pnpm", "yarn") and words[:1] in (["get"], ["c"]):
        words = ["config"] + words[words[0] == "c" :]  # npm get K, npm c get K: config get
    if (
        prog in ("npm", "pnpm", "yarn")
        and words[:1] == ["config"]
        and words[1:2] in ([], ["get"], ["list"], ["ls"])
    ):
        # a named auth key, the raw (--json, --no-redacted) listing; pnpm lists them raw
        raw = "--json" in low or "--no-redacted" in low or prog == "pnpm" and words[1:2] != ["get"]
        secret_words = ("auth", "token", "password", "passwd", "secret")
        return any(k in x for x in low[1:] for k in secret_words) or raw
    if prog == "composer" and words[:1] == ["config"]:
        # an auth key (github-oauth.x, http-basic.x, bearer.x), --auth, or the global listing
        secret_keys = ("oauth", "token", "http-basic", "bearer", "auth")
        listed = any(x in ("-l", "--list") for x in low) and any(
            x in ("-g", "--global") for x in low
        )
        return any(k in x for x in low[1:] for k in secret_keys) or listed
    if prog == "aws" and words[:2] == ["configure", "get"]:
        return any(s in x for x in low[2:] for s in ("secret", "key", "token"))
    if prog == "aws" and words[:2] == ["configure", "export-credentials"]:
        return True
    if prog == "vault" and (words[:1] == ["read"] or words[:2] == ["kv", "get"]):
        return True
    if prog == "op":
        return words[:1] in (["read"], ["inject"]) or words[:2] == ["item", "get"]
    if prog == "pass":
        return bool(words) and words[0] not in ("ls", "list", "find", "search", "help", "version")
    show = [x for x in parts if x in _SHOW]
    if show and any(x in _DECRYPT for x in low):
        return True
    if not secret or any(x in _STORE_VERBS for x in parts[:2]):
        return False
    if prog == "gh" and words[:2] == ["auth", "token"]:
        return True
    # list/describe of secrets names them without values; a show/get/print verb prints them
    if show:
        return True
    # a verb that is itself the secret (`gh auth token`, `heroku auth:token`, `join-token`)
    if any(x in ("list", "ls") for x in parts):
        return False  # npm token list: ids, not values
    return any(_parts([w])[-1:] in (["token"], ["password"]) for w in words[:3] if _parts([w]))


def _git_verb(low: list[str]) -> str:
    """git's subcommand, past its global options (-C DIR, -c K=V, --git-dir=X ...)."""
    i = 0
    while i < len(low) and low[i][:1] == "-":
        i += 2 if low[i] in ("-c", "-C", "--git-dir", "--work-tree", "--namespace") else 1
    return low[i] if i < len(low) else ""


def _state_print(words: list[str], low: list[str]) -> bool:
    """`show -json` and `state pull` print the whole state, every resource's secrets in
    clear (plain `show` hides the sensitive ones). Outputs are the values the configuration
    publishes (`output -json` too): a read of what its author chose to show."""
    flags = [x.lstrip("-").split("=", 1)[0] for x in low if x[:1] == "-"]
    if words[:1] == ["show"]:
        return "json" in flags
    return words[:2] == ["state", "pull"]


def credential_reads(c, prog: str, a: list[str], home: str) -> None:
    """Add the credential store to the reads when the command prints a credential."""
    store = STORES.get(prog) or HELPERS.get(prog)
    if store is None or not prints_secret(prog, a):
        return
    path = store if store[:1] == "/" else home.rstrip("/") + "/" + store
    if path not in c.reads:
        c.reads.append(path)
    c.flag("%s prints credentials (a read of %s)" % (prog, path))
