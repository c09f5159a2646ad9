"""Configuration: defaults < user config.yaml < project .claude/sane.yaml < SANE_* environment.

Parsed YAML is cached inside the signed state (keyed by path, size and mtime), so a hook
imports pyyaml only when a config file changed.
"""

from __future__ import annotations

import builtins
import os

TYPE_CHECKING = False  # typing costs milliseconds on the hot path; only mypy reads these
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

DEFAULTS = {
    "research": {
        "required": ["local", "web"],
        "adaptive_mcp": True,
        "tools": {
            "docs": ["mcp__context7__*", "mcp__apple-docs__*"],
            "github": ["mcp__github__*"],
            "memory": ["mcp__memory__*"],
        },
    },
    "breaker": {"max_consecutive": 3, "max_same_signature": 3},
    "paths": {
        # Files and directories that hold secrets, by location (a leading ~/ or /) or by
        # name (any path component). Not whole system directories: /etc/os-release, a CA
        # bundle or /etc/hosts are no secret, and reading them is ordinary work.
        "blocked": [
            # keys and tokens in the home directory
            "~/.ssh",
            "~/.aws",
            "~/.gnupg",
            "~/.azure",
            "~/.config/gcloud",
            "~/.docker/config.json",
            "~/.kube/config",
            "~/.git-credentials",
            "~/.config/git/credentials",
            "~/.config/gh/hosts.yml",
            "~/.config/hub",
            "~/.npmrc",
            "~/.pypirc",
            "~/.gem/credentials",
            "~/.cargo/credentials",
            "~/.cargo/credentials.toml",
            "~/.config/composer/auth.json",
            "~/.composer/auth.json",
            "~/.local/share/uv/credentials",
            "~/.terraform.d/credentials.tfrc.json",
            "~/.vault-token",
            "~/.password-store",
            "~/.local/share/keyrings",
            "~/Library/Keychains",
            "~/.claude/.credentials.json",
            "~/.config/op",
            "~/.config/doctl",
            "~/.fly",
            "~/.bash_history",
            "~/.zsh_history",
            "~/.psql_history",
            "~/.mysql_history",
            # the system's secrets (not all of /etc)
            "/etc/shadow",
            "/etc/shadow*",  # shadow-, shadow.bak, ...
            "/etc/gshadow",
            "/etc/gshadow*",
            "/etc/master.passwd",
            "/etc/security/opasswd",
            "/etc/sudoers",
            "/etc/sudoers.d",
            "/etc/sudoers*",
            "/etc/ssl/private",
            "/etc/pki/tls/private",
            "/etc/ssh/ssh_host_*_key",
            "/etc/krb5.keytab",
            "/etc/letsencrypt/archive",
            "/etc/letsencrypt/live",
            "/etc/ipsec.secrets",
            "/etc/ppp/chap-secrets",
            "/etc/ppp/pap-secrets",
            "/etc/wireguard",
            "/etc/openvpn",
            "/etc/NetworkManager/system-connections",
            "/proc/*/environ",
            "/proc/*/task/*/environ",
            # secrets by name, wherever they are (another user's ~/.ssh too)
            ".ssh",
            ".gnupg",
            ".env",
            ".env.*",
            ".env~",
            ".envrc",
            "*.pem",
            "*.key",
            "*.p12",
            "*.pfx",
            "*.jks",
            "*.keystore",
            "*.kdbx",
            "id_rsa*",
            "id_ed25519*",
            "id_ecdsa*",
            "id_dsa*",
            "credentials",
            "credentials.*",
            "*.credentials",
            "secrets",
            "secrets.*",
            ".secrets",
            "*.secret",
            ".netrc",
            ".pgpass",
            ".git-credentials",
            ".htpasswd",
            ".vault-token",
        ],
        "blocked_allow": [
            ".env.example",
            ".env.sample",
            ".env.template",
            ".env.dist",
            "*.example",
            "*.sample",
            "*.template",
            "id_*.pub",
            # public halves and certificates are no secret (a private key is never *.pub)
            "*.pub",
            "*cert.pem",
            "*chain.pem",
            "ca.pem",
            # with a location: that file under a blocked location may be READ (never
            # written: ~/.ssh/config can run a ProxyCommand); every other file there (the
            # private keys) stays blocked
            "~/.ssh/*.pub",
            "~/.ssh/known_hosts",
            "~/.ssh/known_hosts.old",
            "~/.ssh/config",
            "~/.ssh/authorized_keys",
        ],
        "protected_extra": [],
        "allow_temp_writes": True,
    },
    "file_size": {"warn": 500, "block": 800},
    "loop": {"max_iterations": 20},
    "enforcement": {"max_repeats": 5},
    "review": {
        "mode": "prompt",
        "gates": [],
        "scope": "prompt",
        "approval_ttl_seconds": None,
        "max_blocks": 3,
        "cooldown_seconds": 300,
        "reviewer_agent": "reviewer",
        "retention_days": 7,
        "templates": {"active": "random", "weights": {"v1": 70, "v2": 30}},
        "external_models": {"codex": "codex", "gemini": "gemini"},
    },
    "learning": {
        "ticketing": ["tissue", "beads", "tasks", "session"],
        "backend": "auto",
        "write_gate": "lenient",
        "auto_skip": {"enabled": True, "line_threshold": 5, "decider": "agent"},
        "decay": {"passive_duration_days": 90, "immunity_hit_rate": 0.8},
        "retrieval": {"max_injections": 5, "strategy": "moderate"},
        "max_blocks": 3,
        "cooldown_seconds": 300,
    },
    "intents": {"require_selection": True, "destructive": "ask", "stale_check": True},
    "trace": {"enabled": True},
    "safemode": {"allow": []},
}

LIST_KEYS = {
    "research.required",
    "paths.blocked",
    "paths.blocked_allow",
    "paths.protected_extra",
    "review.gates",
    "safemode.allow",
    "learning.ticketing",
}


def user_config_path() -> str:
    from core.state import config_dir

    return os.path.join(config_dir(), "config.yaml")


def project_config_path(project: str) -> str:
    return os.path.join(project, ".claude", "sane.yaml")


def scalar(text: str) -> Any:
    """A config value from the environment, read as YAML would read a plain scalar."""
    t = text.strip()
    low = t.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("null", "~", "none", ""):
        return None
    try:
        return int(t)
    except ValueError:
        pass
    try:
        return float(t)
    except ValueError:
        pass
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
        return t[1:-1]
    return t


def load_yaml_cached(path: str, cache: dict) -> tuple[dict | None, str | None]:
    """(data dict or None, error str or None). cache: the state's cache['yaml'] dict."""
    try:
        st = os.stat(path)
    except OSError:
        cache.pop(path, None)
        return None, None
    key = [st.st_size, st.st_mtime_ns]
    hit = cache.get(path)
    if isinstance(hit, dict) and hit.get("key") == key:
        return hit.get("data"), hit.get("error")
    data, error = None, None
    try:
        from core.launch import optional

        yaml = optional("yaml")

        with open(path, "rb") as fh:
            data = yaml.safe_load(fh)
        if data is None:
            data = {}
        if not isinstance(data, dict):
            data, error = None, "%s: top level must be a mapping" % path
    except ImportError:
        error = "pyyaml is not installed; %s ignored" % path
    except Exception as exc:
        mark = getattr(exc, "problem_mark", None)
        where = " line %d" % (mark.line + 1) if mark is not None else ""
        error = "%s%s: %s" % (
            path,
            where,
            str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__,
        )
        data = None
    if data is not None:
        try:
            import json

            data = json.loads(json.dumps(data, default=str))  # plain JSON types only
        except (TypeError, ValueError):
            data, error = None, "%s: values must be plain scalars, lists and mappings" % path
    cache[path] = {"key": key, "data": data, "error": error}
    return data, error


def _merge(base, over, sources, source, prefix=""):
    for k, v in over.items():
        if not isinstance(k, str):
            continue
        dotted = prefix + k
        if isinstance(v, dict) and isinstance(base.get(k), dict):
            _merge(base[k], v, sources, source, dotted + ".")
        else:
            base[k] = v
            sources[dotted] = source


def _copy(d):
    return {
        k: _copy(v) if isinstance(v, dict) else (list(v) if isinstance(v, list) else v)
        for k, v in d.items()
    }


def default(dotted: str) -> Any:
    """The default of a dotted key. A key with no default is a programming error: KeyError."""
    node: Any = DEFAULTS
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            raise KeyError("config key %r has no default in core.config.DEFAULTS" % dotted)
        node = node[part]
    return node


class Config:
    """Effective config. get('review.max_blocks'); sources[dotted] says where a value came from.

    Every key read must have a default in DEFAULTS: a key the merged config lacks (a section
    the person replaced by a scalar, a Config built from partial data) falls back to it, so
    the defaults live in one place and never at a call site.
    """

    def __init__(self, data: dict, sources: dict[str, str], errors: list[str]) -> None:
        self.data = data
        self.sources = sources
        self.errors = errors

    def get(self, dotted: str) -> Any:
        node: Any = self.data
        for part in dotted.split("."):
            if not isinstance(node, dict) or part not in node:
                return default(dotted)
            node = node[part]
        return node

    def list(self, dotted: str) -> builtins.list[Any]:
        v = self.get(dotted)
        if v is None:
            return []
        if isinstance(v, str):
            return [x.strip() for x in v.split(",") if x.strip()]
        return list(v) if isinstance(v, (list, tuple)) else [v]

    def text(self, dotted: str) -> str:
        """The value as a string; null, empty or false gives the default (a mode name, an
        agent name: never an empty one)."""
        v = self.get(dotted)
        return str(v) if v else str(default(dotted))

    def int(self, dotted: str) -> builtins.int:
        """The value as an int; a value that is not a number gives the default."""
        v = self.get(dotted)
        try:
            return int(v)
        except (TypeError, ValueError):
            return int(default(dotted))


def load(project: str, cache: dict | None = None, env: Mapping[str, str] | None = None) -> Config:
    """Build the effective Config. cache: state['cache']['yaml'] (mutated when files change)."""
    env = os.environ if env is None else env
    cache = {} if cache is None else cache
    data = _copy(DEFAULTS)
    sources: dict[str, str] = {}
    errors: list[str] = []
    for source, path in (("user", user_config_path()), ("project", project_config_path(project))):
        over, error = load_yaml_cached(path, cache)
        if error:
            errors.append(error)
        if over:
            _merge(data, over, sources, "%s (%s)" % (source, path))
    for name, value in env.items():
        if not name.startswith("SANE_") or name == "SANE_HOOK_SECRET" or "__" not in name:
            continue
        dotted = name[5:].lower().replace("__", ".")
        parts = dotted.split(".")
        if parts[0] not in DEFAULTS:
            continue
        node = data
        for part in parts[:-1]:
            nxt = node.get(part)
            if not isinstance(nxt, dict):
                nxt = node[part] = {}
            node = nxt
        node[parts[-1]] = (
            [scalar(x) for x in value.split(",") if x.strip()]
            if dotted in LIST_KEYS
            else scalar(value)
        )
        sources[dotted] = "environment (%s)" % name
    return Config(data, sources, errors)
