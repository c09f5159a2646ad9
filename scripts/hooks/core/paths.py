"""Paths: normalisation, blocked paths, self-protection and the temp dir."""
import os
import sys

CASE_INSENSITIVE = sys.platform in ("darwin", "win32")

# Project files of INTERFACES.md's table: written only through sane.py.
PROTECTED_PROJECT = (
    ".claude/state.json", ".claude/state.json.lock", ".claude/audit.jsonl",
    ".claude/saneprompt.log", ".claude/sanetools.log", ".claude/sanetrack.log",
    ".claude/sanestop.log", ".claude/sane.yaml", ".claude/active_intents.yaml",
    ".claude/.intentignore", ".claude/agents/reviewer.md", ".claude/learnings.md",
    ".claude/learning-stats.jsonl", ".claude/agent_trace.jsonl", ".claude/intent_map.md",
)
PROTECTED_PROJECT_PREFIXES = ("scripts/hooks/", ".claude/sane-templates/")
# Names no tool may touch at all (read, write, or name in a command).
UNTOUCHABLE_NAMES = ("counters.json", "state.json.lock", "sane-hooks/secret")


def _unquote(p):
    """Decode %xx escapes (the %2e%2e style); leave anything else alone."""
    if "%" not in p:
        return p
    out, i, n = [], 0, len(p)
    while i < n:
        c = p[i]
        if c == "%" and i + 2 < n:
            h = p[i + 1:i + 3]
            try:
                out.append(chr(int(h, 16)))
                i += 3
                continue
            except ValueError:
                pass
        out.append(c)
        i += 1
    return "".join(out)


def normalise(path, cwd, home=None):
    """Absolute, normalised form of path as the agent wrote it (no symlink resolution)."""
    if not isinstance(path, str):
        return ""
    p = path.replace("\x00", "")
    for _ in range(3):  # %252e -> %2e -> .
        q = _unquote(p)
        if q == p:
            break
        p = q
    p = p.replace("\\", "/") if os.sep == "/" and "\\" in p and sys.platform == "win32" else p
    home = home or os.path.expanduser("~")
    if p == "~" or p.startswith("~/"):
        p = home + p[1:]
    elif p.startswith("$HOME/") or p == "$HOME":
        p = home + p[5:]
    elif p.startswith("${HOME}"):
        p = home + p[7:]
    if not os.path.isabs(p):
        p = os.path.join(cwd or os.getcwd(), p)
    return os.path.normpath(p)


def real(path):
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return path


def forms(path, cwd, home=None):
    """The literal normalised path and its symlink-resolved form (both are checked)."""
    lit = normalise(path, cwd, home)
    rp = real(lit)
    return (lit,) if rp == lit else (lit, rp)


def _fold(p):
    return p.lower() if CASE_INSENSITIVE else p


def is_under(path, root):
    path, root = _fold(path), _fold(root.rstrip("/") or "/")
    return path == root or path.startswith(root + "/") or root == "/"


def temp_dirs():
    dirs = []
    for d in (os.environ.get("TMPDIR"), os.environ.get("CLAUDE_CODE_TMPDIR"), "/tmp", "/var/tmp"):
        if d and os.path.isabs(d):
            dirs.append(real(d.rstrip("/") or "/"))
    return dirs


def in_temp(path, project):
    """Under the temp dir and outside the project."""
    rp = real(path)
    if is_under(rp, project):
        return False
    return any(is_under(rp, t) for t in temp_dirs())


def _glob(name, pattern):
    from fnmatch import fnmatchcase
    return fnmatchcase(_fold(name), _fold(pattern))


def blocked_rule(path, cwd, cfg, home=None):
    """The blocked-path pattern this path hits, or None."""
    home = home or os.path.expanduser("~")
    allow = cfg.list("paths.blocked_allow")
    for p in forms(path, cwd, home):
        base = os.path.basename(p)
        parts = p.split("/")
        for pat in cfg.list("paths.blocked"):
            if not isinstance(pat, str) or not pat:
                continue
            if pat.startswith("~/") or pat.startswith("/"):
                root = normalise(pat, "/", home)
                if any(ch in root for ch in "*?["):
                    if _glob(p, root) or _glob(p, root + "/*"):
                        return pat
                elif is_under(p, root):
                    return pat
                continue
            # a bare name or glob: any path component (a directory named .ssh, a file .env)
            for part in parts:
                if not part or not _glob(part, pat):
                    continue
                if part == base and any(_glob(base, a) for a in allow):
                    continue  # .env.example-style templates are not secrets
                return pat
        if _fold(p) == _fold(os.path.join(_config_dir(), "secret")):
            return "the hook secret"
    return None


def _config_dir():
    from core.state import config_dir
    return config_dir()


def untouchable(path, cwd, home=None):
    """True for the secret, the counters and the lock files: no tool may touch them."""
    cdir = _fold(_config_dir())
    for p in forms(path, cwd, home):
        fp = _fold(p)
        if is_under(fp, cdir) and os.path.basename(fp) in ("secret", "counters.json",
                                                           "counters.json.lock"):
            return True
        if fp.endswith("/.claude/state.json.lock"):
            return True
    return False


def names_untouchable(text):
    """A command that names the secret, the counters or a lock file."""
    low = _fold(text)
    return any(n in low for n in UNTOUCHABLE_NAMES) or "state.json.lock" in low


def protected_rule(path, cwd, project, cfg, home=None):
    """Why a write to path is self-protection, or None."""
    if untouchable(path, cwd, home):
        return "the hook secret, counters and locks"
    cdir = _fold(_config_dir())
    for p in forms(path, cwd, home):
        fp = _fold(p)
        if is_under(fp, cdir):
            return "sane-hooks user config (%s)" % os.path.basename(p)
        proj = _fold(real(project))
        for root in (_fold(project), proj):
            if not is_under(fp, root):
                continue
            rel = fp[len(root):].lstrip("/")
            if rel in PROTECTED_PROJECT or any(rel.startswith(x) or rel + "/" == x
                                                for x in PROTECTED_PROJECT_PREFIXES):
                return rel
            if rel == "scripts/hooks" or rel == ".claude/sane-templates":
                return rel
            if rel.startswith(".claude/settings") and rel.endswith(".json"):
                return rel
            if rel == ".claude" or rel == ".claude/agents" or rel == "scripts":
                return rel + " (holds protected files)"
        for extra in cfg.list("paths.protected_extra"):
            if isinstance(extra, str) and extra:
                target = normalise(extra, project, home)
                if is_under(fp, _fold(target)) or _glob(fp, _fold(target)):
                    return extra
    return None


def names_protected(text, project):
    """For unknown code: does the text name a protected file?"""
    low = _fold(text)
    keys = [x.split("/")[-1] for x in PROTECTED_PROJECT] + ["scripts/hooks", "sane-templates",
                                                            ".claude/settings", "settings.json",
                                                            "settings.local.json"]
    if names_untouchable(text):
        return "the hook secret, counters and locks"
    for k in keys:
        if _fold(k) in low and (k not in ("sane.yaml",) or ".claude" in low or "sane.yaml" in low):
            return k
    return None
