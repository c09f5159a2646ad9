"""Paths: normalisation, blocked paths, self-protection and the temp dir."""

from __future__ import annotations

import os

from core import pathrules
from core.globs import fnmatchcase as _glob_folded  # both sides already folded
from core.pathnorm import claude_user_dirs as _claude_user_dirs
from core.pathnorm import config_dir as _config_dir
from core.pathnorm import fold as _fold
from core.pathnorm import (
    forms,
    has_glob,
    is_under,
    linked_stat,
    normalise,
    real,
    sensitive_roots,
    stat_isreg,
)

TYPE_CHECKING = False  # typing costs milliseconds on the hot path; only mypy reads it
if TYPE_CHECKING:
    from typing import Callable


# Project files of INTERFACES.md's table: written only through sane.py.
PROTECTED_PROJECT = (
    ".claude/state.json",
    ".claude/state.json.lock",
    ".claude/audit.jsonl",
    ".claude/saneprompt.log",
    ".claude/sanetools.log",
    ".claude/sanetrack.log",
    ".claude/sanestop.log",
    ".claude/sane.yaml",
    ".claude/active_intents.yaml",
    ".claude/.intentignore",
    ".claude/agents/reviewer.md",
    ".claude/learnings.md",
    ".claude/learning-stats.jsonl",
    ".claude/agent_trace.jsonl",
    ".claude/intent_map.md",
)
PROTECTED_PROJECT_PREFIXES = ("scripts/hooks/", ".claude/sane-templates/")
# The hooks and sane.py write "<file>.<pid>.tmp" then rename, and rotate logs to "<file>.1":
# a name derived from a protected file is protected too (a symlink planted there would be
# followed by our own write).
DERIVED_ALSO = (".claude/settings.json", ".claude/settings.local.json")
# Names no tool may touch at all (read, write, or name in a command).
UNTOUCHABLE_NAMES = (
    "counters.json",
    "state.json.lock",
    "sane-hooks/secret",
    "sane-hooks/verified",
)
# In our config dir, the files a tool may read (the person's own words); everything else there
# (the key, the counters, the last verified states, the interpreter choice, ...) is untouchable.
CONFIG_READABLE = ("config.yaml", "personal-learnings.md")


def temp_dirs():
    """Every temp dir a write may go to under `paths.allow_temp_writes` (core/tempdir.py)."""
    from core import tempdir

    return [real(d) for d in tempdir.dirs()]


def in_temp(path, project):
    """Under the temp dir and outside the project.  A name longer than PATH_MAX names no file
    (the kernel refuses it), and resolving it costs a lookup per component: not resolved."""
    if len(path) > 4096:
        return False
    rp = real(path)
    if is_under(rp, project):
        return False
    return any(is_under(rp, t) for t in temp_dirs())


def _glob(name, pattern):
    from core.globs import fnmatchcase

    return fnmatchcase(_fold(name), _fold(pattern))


def blocked_rule(path, cwd, cfg, home=None, project=None, reading=False):
    """The blocked-path pattern this path hits, or None. `reading`: the path is only read, so
    a blocked_allow entry with a location (~/.ssh/*.pub, ~/.ssh/known_hosts) lets it pass when
    every form of it (the literal path and where its symlinks lead) is so allowed. A path
    whose inode is a blocked file's is that file (hard links)."""
    home = home or os.path.expanduser("~")
    rules, allow, secret, places = pathrules.blocked(cfg, home)
    for p in forms(path, cwd, home):
        fp = _fold(p)
        hit = _form_rule(p, fp, rules, allow)
        if hit is None and fp == secret:
            return "the hook secret"
        if hit is not None and not (reading and any(_glob_folded(fp, a) for a in places)):
            return hit
    return pathrules.linked_secret(path, cwd, cfg, home, project, reading)


def _form_rule(p: str, fp: str, rules: list, allow: tuple) -> str | None:
    """The first rule one form of a path (p, folded fp) hits."""
    base = os.path.basename(p)
    parts = None
    for pat, how, low, head, tail in rules:
        if how == "under":
            if fp == low or fp.startswith(head):
                return pat
        elif how == "glob":
            if fp.startswith(head) and (_glob_folded(fp, low) or _glob_folded(fp, tail)):
                return pat
        elif how == "all":
            return pat
        else:  # a bare name or glob: any path component (a directory .ssh, a file .env)
            if parts is None:
                parts = [(x, _fold(x)) for x in p.split("/") if x]
            for part, fpart in parts:
                if how == "name":
                    if fpart != low:
                        continue
                elif not (
                    fpart.startswith(head) and fpart.endswith(tail) and _glob_folded(fpart, low)
                ):
                    continue
                if part == base and any(_glob_folded(_fold(base), x) for x in allow):
                    continue  # .env.example-style templates are not secrets
                return pat
    return None


def untouchable(path, cwd, home=None):
    """True for the secret, the counters, the last verified states and the lock files (every
    file of our config dir but the person's config and personal learnings): no tool may
    touch them, nor a hard link to one of them."""
    if _untouchable_forms(forms(path, cwd, home), _fold(_config_dir())):
        return True
    return same_inode(path, cwd, home, _untouchable_files) is not None


def _untouchable_forms(fs: tuple, cdir: str) -> bool:
    """untouchable() by name: fs are the path's forms, cdir our config dir (folded)."""
    for p in fs:
        fp = _fold(p)
        if fp.rstrip("/") == cdir.rstrip("/"):
            return True  # listing or searching the directory names or reads the secret
        if is_under(fp, cdir) and fp[len(cdir) :].lstrip("/") not in CONFIG_READABLE:
            return True
        if fp.endswith("/.claude/state.json.lock"):
            return True
    return False


def _untouchable_files() -> list[str]:
    cdir = _config_dir()
    out = [os.path.join(cdir, "secret"), os.path.join(cdir, "counters.json")]
    try:
        vdir = os.path.join(cdir, "verified")
        out += [os.path.join(vdir, n) for n in sorted(os.listdir(vdir))[:200]]
    except OSError:
        pass
    return out


_INODES: dict = {}


def _inodes(files: list[str]) -> dict:
    """{(st_dev, st_ino): path} of the existing regular files among `files` (once per process
    for the same list)."""
    key = tuple(files)
    if key not in _INODES:
        table: dict = {}
        for f in files:
            try:
                st = os.stat(f)
            except (OSError, ValueError):
                continue
            if stat_isreg(st.st_mode):
                table.setdefault((st.st_dev, st.st_ino), f)
        if len(_INODES) > 8:
            _INODES.clear()
        _INODES[key] = table
    return _INODES[key]


def same_inode(path: str, cwd: str, home: str | None, files: Callable[[], list[str]]) -> str | None:
    """The file among `files()` that `path` is a hard link of, or None. A file with one link
    is nobody's other name, so this costs one stat for almost every path, and `files()` is
    asked only for a file with more than one link."""
    st = linked_stat(path, cwd, home)
    return _inodes(list(files())).get((st.st_dev, st.st_ino)) if st else None


def _squash(text):
    """The text with the quoting that splits a name removed (sa''ne, sa"\"ne, 'sa'+'ne')."""
    for ch in "'\"\\`+":
        if ch in text:
            text = text.replace(ch, "")
    return text


def names_untouchable(text):
    """A command that names the secret, the counters or a lock file."""
    if "SANE_HOOK_SECRET" in _squash(text):
        return True
    low = _fold(_squash(text))
    return any(n in low for n in UNTOUCHABLE_NAMES) or "state.json.lock" in low


def protected_rule(path, cwd, project, cfg, home=None):
    """Why a write to path is self-protection, or None."""
    hit = protected(path, cwd, project, cfg, home)
    return hit[0] if hit else None


# What each kind of protected file is, for the block message: (what it is, why not, way on).
KINDS = {
    "untouchable": (
        "the hook secret, counters, last verified state or a lock file",
        "no tool may touch them",
        "Leave them alone.",
    ),
    "settings": (
        "Claude Code's settings",
        "changing settings could switch the hooks off (or run a command outside every check)",
        "Only the person edits it: tell them the exact change you want and why.",
    ),
    "person-config": (
        "the person's sane-hooks config",
        "changing it could loosen or switch off the checks",
        "Only the person edits it: tell them the exact change you want and why.",
    ),
    "runs-outside": (
        "a file whose content runs outside every check and sandbox",
        "Claude Code or git would run what is written there with the person's rights",
        "Only the person writes it: show them the change and ask them to make it.",
    ),
    "link": (
        "a hard link to a protected file",
        "writing it writes that file",
        "Write a new file instead (remove the link first if it is yours).",
    ),
    "hooks": (
        "a sane-hooks file",
        "the agent may not write it",
        "Use the sane.py subcommands (`python3 scripts/hooks/sane.py status`, `learn`, "
        "`intent`, `review`) or ask the person to change it.",
    ),
}


def protected_reason(path: str, cwd: str, project: str, cfg, home: str | None = None) -> str | None:
    """The whole [self-protection] block message for a write to path, or None."""
    hit = protected(path, cwd, project, cfg, home)
    if not hit:
        return None
    rule, kind = hit
    what, why, way = KINDS.get(kind, KINDS["hooks"])
    return "[self-protection] %s is %s (%s): %s. %s" % (path, what, rule, why, way)


def protected(
    path: str, cwd: str, project: str, cfg, home: str | None = None
) -> tuple[str, str] | None:
    """(rule, kind) when a write to path is self-protection, else None. kind is a key of
    KINDS. A path whose inode is a protected file's is that file (hard links)."""
    home = home or os.path.expanduser("~")
    cdir = _fold(_config_dir())
    fs = forms(path, cwd, home)
    if _untouchable_forms(fs, cdir) or same_inode(path, cwd, home, _untouchable_files):
        return "the hook secret, counters and locks", "untouchable"
    user_dirs, claude_dirs, roots, extras = pathrules.protected(project, cfg, home)
    checked = []
    for p in fs:
        fp = _fold(p)
        checked.append(fp)
        if is_under(fp, cdir):
            name = os.path.basename(p)
            if name == "config.yaml":
                return "sane-hooks user config (%s)" % p, "person-config"
            return "sane-hooks user config (%s)" % name, "hooks"
        hit = _claude_rule(fp, claude_dirs, home)
        if hit:
            return hit
        for root in roots:
            if not is_under(fp, root):
                continue
            rel = fp[len(root) :].lstrip("/")
            if rel == ".claude/sane.yaml" or rel.startswith(".claude/sane.yaml."):
                return rel, "person-config"
            if rel in PROTECTED_PROJECT or any(
                rel.startswith(x) or rel + "/" == x for x in PROTECTED_PROJECT_PREFIXES
            ):
                return rel, "hooks"
            if rel == "scripts/hooks" or rel == ".claude/sane-templates":
                return rel, "hooks"
            if rel.startswith(".claude/settings") and rel.endswith(".json"):
                return rel, "settings"
            if rel == ".git/hooks" or rel.startswith(".git/hooks/"):
                # git runs them on commit: protected before `git init` makes the directory
                return "git hooks (%s)" % rel, "runs-outside"
            if rel == ".git" and os.path.isfile(os.path.join(root, ".git")):
                # a .git file (gitdir: DIR) names the directory whose hooks git runs
                return "the .git file (names the git directory and its hooks)", "runs-outside"
            if rel == ".mcp.json" or rel.startswith(".mcp.json."):
                return ".mcp.json (MCP server commands)", "runs-outside"
            if rel == ".claude" or rel == "scripts":
                return rel + " (holds protected files)", "hooks"
            for prot in PROTECTED_PROJECT + DERIVED_ALSO:
                if rel.startswith(prot + "."):  # our temp files and rotated logs: a symlink
                    return prot + " (a temp, backup or rotated copy of it)", "hooks"
        for extra, target in extras:
            if is_under(fp, target) or _glob_folded(fp, target):
                return extra, "hooks"
    from core import hookfiles

    for d in hookfiles.git_hook_dirs(project):
        fd = _fold(d)
        if any(is_under(fp, fd) for fp in checked):
            return "git hooks (%s)" % d, "runs-outside"
    runs = hookfiles.command_files(project, home, user_dirs)
    for f in runs:
        if _fold(f) in checked:
            return "run by a command in the settings or .mcp.json (%s)" % f, "runs-outside"
    link = same_inode(path, cwd, home, lambda: _link_targets(project, cfg, home, runs))
    if link:
        return "the same file as %s" % link, "link"
    return None


# Under any `.claude` directory (the project's, a nested one, the user's): agent, skill and
# slash command definitions can carry a `hooks:` block (Claude Code 2.1.0), plugins carry
# hooks, and the settings hold hooks.
RUNS_IN_CLAUDE_DIR = ("agents", "skills", "commands", "plugins")
# Claude Code's managed settings (highest precedence; writable wherever the agent runs as root).
MANAGED_SETTINGS = ("/etc/claude-code", "/Library/Application Support/ClaudeCode")


def _claude_rule(fp: str, claude_dirs: list[str], home: str) -> tuple[str, str] | None:
    """(rule, kind) for Claude Code's own files at fp: settings, agents, skills, plugins,
    ~/.claude.json (user MCP servers). Any `.claude` directory counts, nested ones too."""
    parts = fp.split("/")
    base = parts[-1]
    if fp == _fold(os.path.join(home, ".claude.json")) or fp.startswith(
        _fold(os.path.join(home, ".claude.json."))
    ):
        return "~/.claude.json (Claude Code's user config and MCP servers)", "runs-outside"
    if any(is_under(fp, _fold(d)) for d in MANAGED_SETTINGS):
        return (
            "Claude Code's managed settings (%s), which can switch the hooks off" % fp,
            "settings",
        )
    if fp.rstrip("/") in claude_dirs:
        return "Claude Code's user settings (%s), which can switch the hooks off" % base, "settings"
    roots = [d for d in claude_dirs if is_under(fp, d)]
    if not roots:
        i = len(parts) - 1 - parts[::-1].index(".claude") if ".claude" in parts else -1
        if i < 0:
            return None
        roots = ["/".join(parts[: i + 1])]
    rel = fp[len(roots[0]) :].lstrip("/")
    top = rel.split("/")[0]
    if top in RUNS_IN_CLAUDE_DIR or not rel:
        if not rel:
            return None
        return (
            "%s/%s (agent, skill, command and plugin files can define hooks that run outside "
            "every check)" % (os.path.basename(roots[0]), top),
            "runs-outside",
        )
    if "/" not in rel and top.startswith("settings") and ".json" in top:
        return "Claude Code's settings (%s), which can switch the hooks off" % top, "settings"
    return None


def _link_targets(project: str, cfg, home: str, runs: list[str]) -> list[str]:
    """The files a hard link must not share an inode with (asked only for a path with more
    than one link)."""
    out = list(_protected_candidates(project, cfg, home))
    out += hookfiles_settings(project, home)
    out += [os.path.join(_config_dir(), "config.yaml"), os.path.join(project, ".mcp.json")]
    out += list(runs)
    from core import hookfiles

    for d in hookfiles.git_hook_dirs(project):
        try:
            out += [os.path.join(d, n) for n in sorted(os.listdir(d))[:100]]
        except OSError:
            pass
    out += _untouchable_files()
    return out


def hookfiles_settings(project: str, home: str | None = None) -> list[str]:
    from core import hookfiles

    return hookfiles.settings_files(project, _claude_user_dirs(home))


def names_protected(text, project):
    """For unknown code: does the text name a protected file?"""
    low = _fold(_squash(text))
    keys = [x.split("/")[-1] for x in PROTECTED_PROJECT] + [
        "scripts/hooks",
        "sane-templates",
        "sane.py",
        ".claude/settings",
        "settings.json",
        "settings.local.json",
    ]
    if names_untouchable(text):
        return "the hook secret, counters and locks"
    for k in keys:
        if _fold(k) in low and (k not in ("sane.yaml",) or ".claude" in low or "sane.yaml" in low):
            return k
    return None


# ------------------------------------------------------------------ shell words we can only half see

GLOB_BUDGET = {"entries": 20000, "matches": 1000}  # per tool call: bounded time, whatever the glob


def expand(path, cwd, home=None, hidden=False, budget=None, new_ok=False):
    """What bash's pathname expansion makes of path: (existing matches, complete). Components
    without glob characters are taken as they are; `*` does not match a leading dot unless
    `hidden` (a $VAR standing in for a name can hold one). Bounded by `budget` (directory
    entries looked at, matches kept; shared by every word of a call): when it runs out the
    answer says it is not complete. `new_ok`: the last name need not exist (a write)."""
    from core.globs import fnmatchcase

    budget = budget if budget is not None else dict(GLOB_BUDGET)
    p = normalise(path, cwd, home)
    parts = p.split("/")[1:]
    found = ["/"]
    for k, part in enumerate(parts):
        nxt = []
        for base in found:
            if not has_glob(part):
                cand = os.path.join(base, part)
                if k == len(parts) - 1 or os.path.isdir(cand):
                    if os.path.lexists(cand) or new_ok and k == len(parts) - 1:
                        nxt.append(cand)  # a write may make the last name
                continue
            try:
                it = os.scandir(base)
            except (OSError, ValueError):
                continue
            with it:
                for e in it:
                    budget["entries"] -= 1
                    if budget["entries"] < 0:
                        return nxt, False
                    if e.name[:1] == "." and part[:1] != "." and not hidden:
                        continue
                    if fnmatchcase(_fold(e.name), _fold(part)):
                        nxt.append(os.path.join(base, e.name))
            if len(nxt) > budget["matches"]:
                return nxt[: budget["matches"]], False
        found = nxt
        if not found:
            break
    budget["matches"] -= len(found)
    return found, budget["matches"] >= 0


def glob_protected(path, cwd, project, cfg, home=None):
    """For a glob too broad to expand: the protected paths it could name (component by
    component, as bash matches), or the directories above them."""
    from core.globs import fnmatchcase

    pat = _fold(normalise(path, cwd, home)).split("/")
    out = []
    for c in _protected_candidates(project, cfg, home):
        cs = _fold(c).split("/")
        if len(pat) <= len(cs) and all(fnmatchcase(cs[i], pat[i]) for i in range(len(pat))):
            out.append(c)
    return out


def dyn_pattern(p):
    """A write target with parts the analysis could not expand ($VAR, ${..}, $(..), `..`) as
    a glob with `*` for each such part; None when it has none."""
    if not isinstance(p, str) or ("$" not in p and "`" not in p):
        return None
    out, i, n = [], 0, len(p)
    while i < n:
        c = p[i]
        if c == "`":
            j = p.find("`", i + 1)
            i = n if j < 0 else j + 1
            out.append("*")
        elif c == "$" and i + 1 < n:
            nx = p[i + 1]
            if nx in "({":
                close = ")" if nx == "(" else "}"
                depth, j = 0, i + 1
                while j < n:
                    if p[j] == nx:
                        depth += 1
                    elif p[j] == close:
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                i = j + 1
            elif nx.isalnum() or nx == "_":
                j = i + 1
                while j < n and (p[j].isalnum() or p[j] == "_"):
                    j += 1
                i = j
            else:
                i += 2
            out.append("*")
        else:
            out.append(c)
            i += 1
    pat = "".join(out)
    while "**" in pat:
        pat = pat.replace("**", "*")
    return pat


_CANDIDATES: dict = {}


def _protected_candidates(project, cfg, home=None, limit=400):
    """Every path a write must never reach: the table's files, the hooks, the settings, our
    user files; for matching half-seen write targets against. Once per process."""
    key = (project, tuple(x for x in cfg.list("paths.protected_extra") if isinstance(x, str)))
    if key not in _CANDIDATES:
        _CANDIDATES.clear()
        _CANDIDATES[key] = _candidates(project, cfg, home, limit)
    return _CANDIDATES[key]


def _candidates(project, cfg, home, limit):
    proj = real(project)
    out = [os.path.join(proj, r) for r in PROTECTED_PROJECT]
    out += [os.path.join(proj, r) + ".0.tmp" for r in PROTECTED_PROJECT + DERIVED_ALSO]
    out += [
        os.path.join(proj, r)
        for r in (
            ".claude",
            ".claude/agents",
            "scripts",
            "scripts/hooks",
            ".claude/sane-templates",
            ".claude/settings.json",
            ".claude/settings.local.json",
            ".claude/skills",
            ".claude/commands",
            ".claude/plugins",
            ".mcp.json",
        )
    ]
    from core import hookfiles

    out += hookfiles.git_hook_dirs(proj)
    out += hookfiles.command_files(proj, home or os.path.expanduser("~"), _claude_user_dirs(home))
    n = 0
    for top in ("scripts/hooks", ".claude/sane-templates"):
        for root, dirs, files in os.walk(os.path.join(proj, top)):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for name in dirs + files:
                out.append(os.path.join(root, name))
                n += 1
            if n > limit:
                break
    cdir = _config_dir()
    out += [cdir] + [
        os.path.join(cdir, x)
        for x in (
            "secret",
            "counters.json",
            "counters.json.lock",
            "config.yaml",
            "personal-learnings.md",
            "verified",
        )
    ]
    for extra in cfg.list("paths.protected_extra"):
        if isinstance(extra, str) and extra:
            out.append(normalise(extra, proj, home))
    return out


def dyn_protected(path, cwd, project, cfg, home=None):
    """The protected paths a write target with dynamic parts could stand for: its pattern
    (`*` for each dynamic part, matching across `/`) against every protected path. A target
    that is only a dynamic name with a suffix ("$f", "${f%.txt}.md") names nothing."""
    pat = dyn_pattern(path)
    if pat is None:
        return []
    lit = pat.replace("*", "").replace("/", "").replace(".", "")
    if not lit or (pat[:1] == "*" and "/" not in pat):
        return []
    from core.globs import fnmatchcase

    if pat[:1] != "*":
        pat = normalise(pat, cwd, home)
    # a dynamic part that starts a component may be an absolute path ("$D/x" after a cd)
    pats = [_fold(pat)] + [
        _fold(pat[i + 1 :])
        for i in range(len(pat) - 1)
        if pat[i : i + 2] == "/*" and "/" in pat[i + 2 :]
    ]
    return [
        c
        for c in _protected_candidates(project, cfg, home)
        if any(fnmatchcase(_fold(c), q) or fnmatchcase(_fold(c), q + "/*") for q in pats)
    ]


def tree_roots(path, cwd, home=None):
    """The directories a tree reader's operand names: a glob (`~/.con*`) its matches, or,
    when there are too many to list, its literal prefix (every path the glob can reach)."""
    if not has_glob(path):
        return [path]
    matches, complete = expand(path, cwd, home, False, {"entries": 4000, "matches": 200})
    if complete:
        return matches
    parts = normalise(path, cwd, home).split("/")
    k = next(i for i, part in enumerate(parts) if has_glob(part))
    return ["/".join(parts[:k]) or "/"]


def tree_holds(path, cwd, cfg, home=None):
    """(root, rule) when path is a directory at or above a blocked directory or our config
    dir (rule None), else None. A glob stands for every directory it matches."""
    if has_glob(path):
        for q in tree_roots(path, cwd, home):
            hit = tree_holds(q, cwd, cfg, home)
            if hit:
                return hit
        return None
    for p in forms(path, cwd, home):
        if not os.path.isdir(p):
            continue
        for root, rule in sensitive_roots(cfg, home):
            if is_under(root, p):
                return root, rule
    return None


def blocked_name_glob(glob, cfg):
    """The blocked name rule a search glob (`*.pem`, `.env*`, `*.{key,pem}`) could select
    files of, or None. A glob of wildcards only selects everything: that is no naming."""
    from core.globs import fnmatchcase

    if not isinstance(glob, str) or not glob.strip("*?./{},"):
        return None
    globs = [glob]
    if "{" in glob and "}" in glob:
        head, _, rest = glob.partition("{")
        alts, _, tail = rest.partition("}")
        globs = [head + a + tail for a in alts.split(",")[:20]]
    allow = cfg.list("paths.blocked_allow")
    for pat in cfg.list("paths.blocked"):
        if not isinstance(pat, str) or not pat or pat.startswith(("~/", "/")):
            continue
        samples = {pat.replace("*", "").replace("?", "x"), pat.replace("*", "x").replace("?", "x")}
        for smp in samples:
            if any(_glob(smp, a) for a in allow):
                continue
            if any(fnmatchcase(_fold(smp), _fold(g)) for g in globs):
                return pat
    return None


def protected_under(path, cwd, project, cfg, home=None):
    """The protected paths at or under directory `path`."""
    out = []
    for p in forms(path, cwd, home):
        if os.path.isdir(p):
            out.extend(c for c in _protected_candidates(project, cfg, home) if is_under(c, p))
    return out


def holds_protected(path, cwd, project, cfg, home=None):
    """The first protected path at or under directory `path`, or None."""
    hits = protected_under(path, cwd, project, cfg, home)
    return hits[0] if hits else None


def tree_copy_hits(src, dest, cwd, project, cfg, home=None):
    """Protected paths a recursive copy of directory `src` into `dest` would write: the
    protected files under dest whose relative path exists under src (for both `cp -r src
    dest` landing in dest/<name> and `src/` or `src/.` copying the contents)."""
    s = normalise(src, cwd, home)
    if not os.path.isdir(s):
        return []
    out = []
    for d in forms(dest, cwd, home):
        roots = [d, os.path.join(d, os.path.basename(s))]
        for c in _protected_candidates(project, cfg, home):
            for r in roots:
                if (
                    c != r
                    and is_under(c, r)
                    and os.path.lexists(os.path.join(s, os.path.relpath(c, r)))
                ):
                    out.append(c)
                    break
    return out
