"""PreToolUse: the gates, in the README's order. The first gate that returns a reason blocks.

A gate is `gate(ctx, facts) -> reason or None`; every reason starts with its [code], says what
is missing and the exact way forward.
"""

from __future__ import annotations

import hashlib
import os

from core import breaker, paths, policy, research

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from core.contracts import Gate
    from core.engine import Ctx
    from core.policy import Facts

CLI = "python3 scripts/hooks/sane.py"
AUTH_TTL = 15 * 60


def _mutation(ctx: Ctx, facts: Facts) -> bool:
    return facts.mutation(ctx.project, ctx.cfg)


def tamper_lock(ctx: Ctx, facts: Facts) -> str | None:
    t = ctx.state["tamper"]
    if t.get("locked") and (
        _mutation(ctx, facts) or any(not c.read_only for c in facts.sane_calls)
    ):
        return (
            "[tamper] The sane state failed verification (%s), so every change is locked; "
            "reads still work. Stop and tell the person: they check `%s doctor` and lift the "
            "lock by typing `unlock`." % (t.get("reason") or "tampered", CLI)
        )
    return None


def lock_busy(ctx: Ctx, facts: Facts) -> str | None:
    if ctx.store.busy and _mutation(ctx, facts):
        ctx.answer.tell_user(
            "sane-hooks: the state lock was held for over 2 s; a change was paused."
        )
        return (
            "[busy] Another sane hook holds the state lock, so changes are paused for this "
            "call; reads still work. Retry the same call in a moment."
        )
    return None


def blocked_paths(ctx: Ctx, facts: Facts) -> str | None:
    why = getattr(facts.analysis, "too_complex", "")
    if why:  # the analysis stopped early: what it did not see may name a secret
        return (
            "[blocked-path] This command is %s: the hooks could not finish checking which "
            "paths it reads, writes or runs. Split it into smaller commands (fewer paths, "
            "shorter brace expansions, less nesting), or write a script file and run that." % why
        )
    writes = _may_write(facts)
    for raw in facts.raw_reads + facts.raw_writes:
        reading = raw not in writes  # a read-only allow entry (~/.ssh/*.pub) covers reads
        rule = paths.blocked_rule(raw, ctx.cwd, ctx.cfg, ctx.home, ctx.project, reading)
        if rule:
            return (
                "[blocked-path] %s matches the blocked path rule %r (secrets and system "
                "files are off limits to every tool). Work without it; if it is really "
                "needed, ask the person to change paths.blocked in .claude/sane.yaml." % (raw, rule)
            )
    for g in facts.name_globs:
        rule = paths.blocked_name_glob(g, ctx.cfg)
        if rule:
            return (
                "[blocked-path] the glob %s selects files the blocked path rule %r covers "
                "(secrets are off limits to every tool). Search with a glob that leaves "
                "them out." % (g, rule)
            )
    for raw in facts.unchecked[:1]:
        return (
            "[blocked-path] %s matches more files than the hooks can check for secrets in "
            "one call. Name the files, or use a narrower pattern." % raw
        )
    for raw in facts.tree_reads:
        hit = paths.tree_holds(raw, ctx.cwd, ctx.cfg, ctx.home)
        if hit and hit[1]:
            return (
                "[blocked-path] %s holds %s (blocked path rule %r), and this call %s. Search, "
                "copy or link a narrower directory that does not hold secrets."
                % (raw, hit[0], hit[1], _tree_use(facts, raw))
            )
    if facts.kind == "shell" and facts.analysis is not None:
        from core import treesecrets  # recursive readers: shell commands only

        msg = treesecrets.check(ctx, facts)
        if msg or not any(c.program == "git" for c in facts.analysis.commands):
            return msg
        from core.shell import gitsecrets  # git's own readers of tracked files

        return gitsecrets.check(ctx, facts)
    return None


def _tree_use(facts: Facts, raw: str) -> str:
    """What the call does with the files under a directory it names: reads them, or makes a
    symbolic link to it (a new name for them, which a later search through links reads)."""
    for cmd in facts.analysis.commands if facts.analysis is not None else ():
        if cmd.program in ("ln", "new-item", "ni") and raw in cmd.tree:
            return "makes a link to it (a new name for the files under it)"
    return "reads the files under it"


def _may_write(facts: Facts) -> set:
    """The paths this call may write: its writes, and every path a command the hooks cannot
    see into names (a script handed ~/.ssh/config may write it)."""
    out = set(facts.raw_writes)
    out.update(facts.named)
    analysis = facts.analysis if facts.kind == "shell" else None
    for cmd in analysis.commands if analysis is not None else ():
        if cmd.unknown or cmd.runner or cmd.code:
            out.update(cmd.reads)
    return out


def self_protection(ctx: Ctx, facts: Facts) -> str | None:
    for raw in facts.raw_reads + facts.raw_writes + facts.raw_looks:
        if paths.untouchable(raw, ctx.cwd, ctx.home):
            return (
                "[self-protection] %s is the hook secret, counters, last verified state or "
                "a lock file; no tool may touch it. Leave it alone." % raw
            )
    if facts.kind in ("shell", "mcp_write") and paths.names_untouchable(facts.text):
        return (
            "[self-protection] The command names the hook secret, counters or a lock file; "
            "no tool may touch them. Leave them alone."
        )
    for raw in facts.tree_reads:
        hit = paths.tree_holds(raw, ctx.cwd, ctx.cfg, ctx.home)
        if hit and not hit[1]:
            return (
                "[self-protection] %s holds the sane-hooks secret and counters (%s), and "
                "this call %s; no tool may touch them. Search, copy or link a narrower "
                "directory." % (raw, hit[0], _tree_use(facts, raw))
            )
    for raw in facts.raw_writes:
        reason = paths.protected_reason(raw, ctx.cwd, ctx.project, ctx.cfg, ctx.home)
        if reason:
            return reason
    wipe = _wipes_protected(ctx, facts)
    if wipe:
        return (
            "[self-protection] `%s` would delete or lock up %s, which holds the sane-hooks "
            "files (scripts/hooks, .claude). Name the paths to remove instead (e.g. `rm -rf "
            "build dist`)." % (wipe[0], wipe[1])
        )
    if facts.kind in ("write", "mcp_write"):
        from core import startupfiles  # a file tool loads only the check it needs

        msg = startupfiles.check(ctx, facts)
        if msg:
            return msg
    elif facts.kind == "shell":
        from core import protect_shell

        msg = protect_shell.check(ctx, facts)
        if msg:
            return msg
    for d in facts.blind_writes[:1]:
        return (
            "[self-protection] This changes files under %s, which holds sane-hooks files "
            "(scripts/hooks, .claude), and the hooks cannot see which ones (files found by "
            "a search, an archive on stdin or in a format we do not read, a patch we cannot "
            "see). Narrow it to a directory without them (e.g. `find src ...`, `git ls-files "
            "src`), or unpack into the temp dir first and copy what you need." % d
        )
    for raw in facts.named if facts.unknown else ():
        rule = paths.protected_rule(raw, ctx.cwd, ctx.project, ctx.cfg, ctx.home)
        if rule and rule != "scripts (holds protected files)":
            return (
                "[self-protection] The command runs code we cannot see and names %s, a "
                "sane-hooks file (%s); the agent may not change those files. Use the sane.py "
                "subcommands or ask the person." % (raw, rule)
            )
    if facts.unknown and facts.kind in ("shell", "mcp_write"):
        name = paths.names_protected(facts.text, ctx.project)
        if name:
            return (
                "[self-protection] The command runs code we cannot see and names a "
                "sane-hooks file (%s); the agent may not change those files. Use the "
                "sane.py subcommands or ask the person." % name
            )
    return None


WIPERS = frozenset(
    (
        "rm",
        "rmdir",
        "shred",
        "chmod",
        "chown",
        "chgrp",
        "chattr",
        "mv",
        "find",
        "unlink",
        "truncate",
        "srm",
        "wipe",
    )
)
HOLDERS = (".claude", "scripts")


def _wipes_protected(ctx, facts):
    """(program, target) when a deleting or permission-changing command aims at the project
    root, an ancestor of it, or a glob in the root that can match .claude or scripts."""
    a = facts.analysis
    if a is None:
        return None
    from core.globs import fnmatchcase
    from core.shell import judge

    root = paths.real(ctx.project)
    for cmd in a.commands:
        prog = cmd.program
        if cmd in facts.fed_cmds:
            continue  # `find . -name '*.pyc' | xargs rm`: judged by the files it is fed (policy)
        if prog == "git":
            takes = _git_takes_untracked(cmd)
            if not takes or judge.plain_delete(cmd, ctx.cwd, ctx.project, ctx.home, ctx.cfg):
                continue  # none, or only under named paths that hold no protected file
            if takes == "ignored" or _untracked_protected(ctx):
                return prog, "the untracked files of the project"
            continue
        elif prog == "find" and _find_spares_protected(cmd, ctx):
            continue
        elif prog not in WIPERS:
            continue
        for raw in cmd.writes:
            glob_at = min(
                [i for i in (raw.find("*"), raw.find("?"), raw.find("[")) if i >= 0] or [-1]
            )
            if glob_at >= 0:
                head, _, pat = raw[:glob_at].rpartition("/")
                pat = pat + raw[glob_at:].split("/", 1)[0]
                base = paths.real(paths.normalise(head or ".", ctx.cwd, ctx.home))
                if base == root and any(fnmatchcase(h, pat) for h in HOLDERS):
                    return prog, raw
                if paths.is_under(root, base) and base != root:
                    step = root[len(base.rstrip("/")) + 1 :].split("/", 1)[0]
                    if fnmatchcase(step, pat):  # the glob can match the way down to the project
                        return prog, raw
                continue
            target = paths.real(paths.normalise(raw, ctx.cwd, ctx.home))
            if target == root and prog == "mv" and _mv_into(ctx, cmd) == root:
                continue  # `mv a.txt .`: moves a file INTO the root, takes nothing away
            if target == root or paths.is_under(root, target):
                return prog, raw
    return None


def _mv_into(ctx, cmd) -> str:
    """The directory mv's last operand names (where the sources go), resolved."""
    last = cmd.argv[-1] if len(cmd.argv) > 2 else ""
    if not last or last[:1] == "-" or "--" in cmd.argv:
        return ""
    for w in cmd.argv[1:-1]:  # -t DIR / --target-directory: every operand is a source
        if w[:2] == "--" and "--target-directory".startswith(w.split("=", 1)[0]):
            return ""
        if w[:1] == "-" and w[:2] != "--" and "t" in w:
            return ""
    cwd = paths.normalise(cmd.cwd, ctx.cwd, ctx.home) if cmd.cwd else ctx.cwd
    return paths.real(paths.normalise(last, cwd, ctx.home))


def _git_takes_untracked(cmd):
    """git clean (not a dry run) and git stash -u/--all take untracked files away: hook files
    and settings that are not committed go with them."""
    args = cmd.argv[1:]
    words = [w for w in args if not w.startswith("-")]
    flags = [w for w in args if w.startswith("-")]
    short = "".join(w[1:] for w in flags if not w.startswith("--"))
    if words[:1] == ["clean"]:
        if "n" in short or "--dry-run" in flags:
            return False
        return "ignored" if "x" in short or "X" in short else "untracked"
    if words[:1] == ["stash"] and words[1:2] in ([], ["push"], ["save"]):
        if "a" in short or "--all" in flags:
            return "ignored"
        if "u" in short or "--include-untracked" in flags:
            return "untracked"
    return False


def _untracked_protected(ctx):
    """Protected files of the project that git does not track and does not ignore (so git
    clean -f / stash -u would take them). git runs hardened (no fsmonitor, hooks or external
    programs); outside a repository nothing is taken; when git cannot answer, the files
    count as untracked. With -x / --all ignored files go too: the caller denies those."""
    import subprocess

    root = ctx.project
    found = [
        os.path.relpath(p, root)
        for p in paths.protected_under(root, root, root, ctx.cfg, ctx.home)
        if paths.is_under(p, root) and os.path.exists(p)
    ]
    if not found:
        return []
    cmd = [
        "git",
        "-c",
        "core.fsmonitor=",
        "-c",
        "core.hooksPath=/dev/null",
        "-c",
        "diff.external=",
        "ls-files",
        "-z",
        "--others",
        "--exclude-standard",
    ]
    try:
        out = subprocess.run(
            cmd + ["--"] + found[:200],
            cwd=root,
            capture_output=True,
            timeout=3,
            env=dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_OPTIONAL_LOCKS="0"),
        )
    except (OSError, subprocess.SubprocessError):
        return found
    if out.returncode != 0:
        return [] if b"not a git repository" in out.stderr else found
    return [x for x in out.stdout.decode("utf-8", "replace").split("\0") if x]


def _find_spares_protected(cmd, ctx):
    """`find . -name '*.pyc' -delete`: every name filter is a pattern no protected file's
    name matches, so the files it deletes are not ours."""
    from core.globs import fnmatchcase

    a = cmd.argv[1:]
    pats = [a[i + 1] for i, w in enumerate(a[:-1]) if w in ("-name", "-iname")]
    if not pats or any(w in ("-o", "-or", ",", "!", "-not", "-path", "-regex") for w in a):
        return False
    from core.shell.judge import FIND_RM, protected_names

    names = protected_names(ctx.project, ctx.cfg, ctx.home, FIND_RM in cmd.reasons)
    return not any(
        fnmatchcase(n, pat) or fnmatchcase(n.lower(), pat.lower()) for n in names for pat in pats
    )


def person_only(ctx: Ctx, facts: Facts) -> str | None:
    if "runs code with CLAUDECODE removed" in facts.reasons and facts.foreign_sane:
        args = facts.foreign_sane[-1].args
        what = "code" if args == ["$CLAUDECODE-removed"] else "`sane.py %s`" % " ".join(args)
        return (
            "[person-only] This command runs %s with CLAUDECODE removed or changed (env -u/-i, "
            "unset, sudo, su, at ...); without it sane.py takes its caller for the person, so "
            "that is for the person only. Run the command without touching CLAUDECODE." % what
        )
    for call in facts.foreign_sane:
        if call.person_only or call.dynamic:
            return (
                "[person-only] `sane.py %s` run from %s is not this project's CLI through "
                "the hooks; person-only subcommands are for the person, never the agent. "
                "Ask the person to run `%s %s` in their own terminal."
                % (call.name, "a module or a copy", CLI, call.name)
            )
    for call in facts.sane_calls:
        if call.person_only:
            return (
                "[person-only] `sane.py %s` is for the person only, never the agent. Ask "
                "the person to run `%s %s` in their own terminal (or type the prompt "
                "command if there is one)." % (call.name, CLI, call.name)
            )
    return None


def sandbox_escape(ctx: Ctx, facts: Facts) -> str | None:
    """A shell call asking to run outside Claude Code's OS sandbox: never, whatever the
    settings say (a fallback left open would run it unconfined)."""
    if ctx.tool not in ("Bash", "PowerShell"):
        return None
    flag = ctx.tool_input.get("dangerouslyDisableSandbox")
    if flag is None or flag is False:
        return None
    return (
        "[sandbox] This %s call asks to run outside Claude Code's sandbox "
        "(dangerouslyDisableSandbox); the hooks never allow that. Run it again without "
        "dangerouslyDisableSandbox. If the sandbox refused something the work needs, stop and "
        "tell the person what and why: they can allow it in .claude/settings.local.json "
        "(sandbox.filesystem.allowWrite, sandbox.network.allowedDomains) or run it "
        "themselves." % ctx.tool
    )


def safemode(ctx: Ctx, facts: Facts) -> str | None:
    """Safemode runs only what is known to change nothing: edits, writes outside the temp
    dir, remote changes and code the hooks cannot see are denied. The person's
    safemode.allow patterns (review.gates syntax) let named commands through."""
    if not ctx.state["safemode"].get("active") or not _mutation(ctx, facts):
        return None
    if facts.kind == "shell":
        return _safemode_shell(ctx, facts)
    what = ", ".join(str(t) for t in facts.raw_writes[:3]) or facts.tool
    return (
        "[safemode] Safemode is ON: edits and shell commands that change anything outside "
        "the temp dir are blocked (here: %s). Reads still work. Only the person turns it "
        "off, by typing `s-`." % what
    )


def _safemode_shell(ctx, facts):
    allow = _allow_patterns(ctx)
    a = facts.analysis
    cmds = a.commands if a is not None else []
    targets = facts.outside_temp_writes(ctx.project, ctx.cfg)
    if allow and a is not None and not (a.unknown and not any(c.unknown for c in cmds)):
        # every command that changes something must match a pattern; its own writes still count
        if all(_allowed(c, allow, ctx.cwd) for c in facts.changers) and facts.changers:
            if not targets:
                return None
    if targets and not facts.changers:
        return (
            "[safemode] Safemode is ON: shell commands that change anything outside the "
            "temp dir are blocked (here: %s). Reads still work. Only the person turns it off, "
            "by typing `s-`." % ", ".join(str(x) for x in targets[:3])
        )
    first = facts.changers[0] if facts.changers else None
    name = (first.text if first is not None else facts.text)[:120]
    if first is None and facts.destructive and not facts.unknown:
        what = "`%s` is destructive (%s)" % (name, ", ".join(facts.reasons[:2]))
    elif first is not None and first.remote and not first.unknown:
        what = "`%s` changes a remote system or service (%s)" % (
            name,
            ", ".join(first.reasons[:2]) or "a verb not known to only read",
        )
    else:
        what = "`%s` runs code the hooks cannot see (%s)" % (
            name,
            ", ".join((first.reasons if first is not None else facts.reasons)[:2]) or "unknown",
        )
    return (
        "[safemode] Safemode is ON and runs only commands known to change nothing; %s. "
        "Reads still work. The person can allow a command under safemode by adding a "
        'pattern to safemode.allow in their config (e.g. `safemode: {allow: ["pytest -q*"]}` '
        "in ~/.config/sane-hooks/config.yaml), or turn safemode off by typing `s-`." % what
    )


def _allow_patterns(ctx):
    pats = ctx.cfg.get("safemode.allow") or []
    if isinstance(pats, str):
        pats = [pats]
    out = []
    for pat in pats if isinstance(pats, list) else []:
        if not isinstance(pat, str) or not pat.strip():
            continue
        pat = pat.strip()
        if ":" in pat.split(" ", 1)[0]:
            tool, _, pat = pat.partition(":")
            if tool.strip() not in ("Bash", "*"):
                continue
        out.append(" ".join(pat.split()))
    return out


def _allowed(cmd, allow, cwd=None):
    """A command matches a safemode.allow pattern the way review.gates match Bash commands:
    its normalised text (wrappers stripped), or its words as written. A match covers the
    words the person wrote, not what rides along: environment assignments (PYTHONPATH=,
    LD_PRELOAD=, PYTEST_ADDOPTS=) match only when the pattern spells them; the words a `*`
    admits must not name code or places (see _rides_along); a command fed data on stdin
    (a debugger prompt, a REPL) never matches."""
    from core.globs import fnmatchcase

    if cmd.stdin_is_data:
        return False
    texts = [cmd.text]
    if cmd.argv and cmd.argv[0] != cmd.program:
        texts.append(" ".join(cmd.argv))
    if cmd.wrappers:
        texts.append(" ".join(cmd.wrappers + cmd.argv))
    if cmd.env:
        assigns = " ".join("%s=%s" % (k, v) for k, v in cmd.env.items())
        texts = [assigns + " " + t for t in texts if t]
    for pat in allow:
        for t in texts:
            if t and fnmatchcase(t, pat) and not _rides_along(cmd, pat, cwd):
                return True
    return False


# option names that point a runner at code, config or a place it writes or empties
_PLACE_OPTIONS = (
    "dir",
    "temp",
    "tmp",
    "path",
    "file",
    "out",
    "root",
    "conf",
    "plugin",
    "prefix",
    "cache",
    "load",
    "import",
    "require",
    "init",
    "module",
    "exec",
    "eval",
    "command",
    "shell",
    "preload",
    "site",
    "rc",
)


def _rides_along(cmd, pat, cwd):
    """Do the words a pattern's wildcard admits name code or places? A word the pattern
    does not spell is refused when it is an option named for a place or for code
    (--basetemp, --rootdir, -p/--plugin?, --confcutdir, --import-mode, -o ...=path), a
    value with a path outside the project (/tmp/x, ~/x, ../x, $VAR), or an option value
    that names an existing file or directory (--basetemp=src)."""
    import os

    spelled = set(pat.replace("*", " ").replace("?", " ").split())
    for w in cmd.argv[1:]:
        if w in spelled:
            continue
        if w[:1] == "-" and len(w) > 1:
            name, eq, val = w.lstrip("-").partition("=")
            low = name.lower()
            if w[:2] == "--" and any(k in low for k in _PLACE_OPTIONS):
                return True
            if w[:2] != "--" and len(name) > 1 and not eq:
                val = name[1:]  # -p/tmp/x, -pevil: a short option's attached value
            if val and _names_place(val, cwd, os):
                return True
            continue
        k, eq, rhs = w.partition("=")
        if _outside(w) or eq and _names_place(rhs, cwd, os):
            return True  # an operand outside the project; -o cache_dir=src
    return False


def _outside(v):
    return v[:1] in ("/", "~", "$", "`") or ".." in v or "$" in v


def _names_place(v, cwd, os):
    """An option value that is a path: outside the project, or an existing file."""
    if _outside(v) or "/" in v:
        return True
    return bool(cwd) and os.path.exists(os.path.join(cwd, v))


def _lines(text: str) -> int:
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def _read_regular(path: str, limit: int) -> str | None:
    """The text of a regular file (never a FIFO or a device: reading one could hang the hook
    past its timeout, which lets the call through), or None."""
    import stat

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as fh:
            return fh.read(limit).decode("utf-8", "replace")
    except (OSError, ValueError):
        return None


PROJECT_LIMIT = 32_000_000  # characters an edit projection may build; past it, count lines


def _projected(ctx: Ctx, facts: Facts) -> tuple[int, int] | None:
    """(lines before, lines after) for a Write/Edit/MultiEdit, or None."""
    ti = ctx.tool_input
    if facts.tool == "Write":
        content = ti.get("content")
        if not isinstance(content, str):
            return None
        text = _read_regular(facts.writes[0], 4_000_000) if facts.writes else None
        return _lines(text or ""), _lines(content)
    if facts.tool not in ("Edit", "MultiEdit") or not facts.writes:
        return None
    text = _read_regular(facts.writes[0], 8_000_000)
    if text is None:
        return None
    before = _lines(text)
    edits = ti.get("edits") if facts.tool == "MultiEdit" else [ti]
    after = None
    for e in edits[:200] if isinstance(edits, list) else []:
        if not isinstance(e, dict):
            continue
        old, new = e.get("old_string"), e.get("new_string")
        if not (isinstance(old, str) and isinstance(new, str) and old):
            continue
        n = text.count(old) if e.get("replace_all") else min(1, text.count(old))
        grow = n * (len(new) - len(old))
        if after is not None or len(text) + grow > PROJECT_LIMIT:
            # too big to build: count the lines it would have (a bound for the rest too)
            after = (before if after is None else after) + n * (new.count("\n") - old.count("\n"))
            continue
        text = text.replace(old, new) if n > 1 else text.replace(old, new, 1)
    return before, after if after is not None else _lines(text)


def file_size(ctx: Ctx, facts: Facts) -> str | None:
    if facts.kind != "write":
        return None
    proj = _projected(ctx, facts)
    if proj is None:
        return None
    before, after = proj
    warn, block = ctx.cfg.int("file_size.warn"), ctx.cfg.int("file_size.block")
    name = facts.raw_writes[0] if facts.raw_writes else "the file"
    if after > block and after > before:
        return (
            "[file-size] %s would have %d lines, over the %d-line limit. Split it into "
            "smaller modules (or shrink it) instead; the limit is file_size.block in "
            ".claude/sane.yaml." % (name, after, block)
        )
    if after > warn:
        ctx.answer.add_context(
            "sane: %s will have %d lines (warning at %d, hard limit %d). "
            "Consider splitting it." % (name, after, warn, block)
        )
    return None


# The review, learning and intent gates come late: a call an earlier gate turns away never
# loads their modules, nor does a call that concerns none of them (the tests below are the
# first tests of their pre_tool).
def review_gate(ctx: Ctx, facts: Facts) -> str | None:
    if not (
        ctx.agent_id is not None  # a subagent (the reviewer's calls are its business)
        or facts.sane_calls  # `sane.py review decide`
        or facts.tool in ("Agent", "Task")  # the reviewer's spawn
        or ctx.cfg.get("review.gates")  # commands the person gated
    ):
        return None
    from core.review import hooks

    return hooks.pre_tool(ctx, facts)


def learning_gate(ctx: Ctx, facts: Facts) -> str | None:
    from core.learning import hooks

    return hooks.pre_tool(ctx, facts)


def intents_gate(ctx: Ctx, facts: Facts) -> str | None:
    if facts.kind == "shell" and not (facts.writes or facts.unknown or facts.destructive):
        return None  # a command that changes nothing: no intent, scope or stale-file question
    from core.intents import hooks

    return hooks.pre_tool(ctx, facts)


GATES: list[Gate] = [
    tamper_lock,
    lock_busy,
    blocked_paths,
    self_protection,
    person_only,
    sandbox_escape,
    breaker.gate,
    breaker.halt_gate,
    safemode,
    review_gate,
    learning_gate,
    intents_gate,
    research.gate,
    file_size,
]


# Gates that keep secrets, the hooks' own files and person-only commands safe: when one of
# them fails on a shell command, the command is held under its code (the rule could not be
# checked), never let through. The other gates are workflow: their bug fails open.
_HOLD = {
    "blocked_paths": "[blocked-path]",
    "self_protection": "[self-protection]",
    "person_only": "[person-only]",
}


def _authorise(ctx: Ctx, facts: Facts) -> None:
    """Single-use authorisations for our CLI, consumed by sane.py (INTERFACES.md)."""
    auth = [
        a
        for a in ctx.state.get("auth") or []
        if isinstance(a, dict) and a.get("expires", 0) > ctx.now
    ]
    for call in facts.sane_calls:
        auth.append(
            {
                "session": ctx.sid,
                "agent_id": ctx.agent_id,
                "agent_type": ctx.agent_type,
                "args": call.args,
                "tool_use_id": ctx.payload.get("tool_use_id"),
                "expires": ctx.now + AUTH_TTL,
                "id": hashlib.sha256(os.urandom(16)).hexdigest()[:16],
            }
        )
    ctx.state["auth"] = auth[-50:]


def on_pre_tool(ctx: Ctx) -> None:
    facts = policy.facts_for(ctx.tool, ctx.tool_input, ctx.cwd, ctx.project, ctx.home, ctx.cfg)
    ctx.facts = facts
    _ = ctx.session  # touch: the session exists from its first tool call
    broken = []
    for gate in GATES:
        try:
            reason = gate(ctx, facts)
        except Exception as exc:  # one gate's bug must not switch off the gates after it
            code = _HOLD.get(gate.__name__) if facts.kind == "shell" else None
            ctx.log(
                "error",
                "gate %s failed %s: %s: %s"
                % (gate.__name__, "closed" if code else "open", type(exc).__name__, exc),
            )
            if not code:
                broken.append(gate.__name__)
                continue
            reason = (
                "%s The hooks failed while checking this command against that rule (their "
                "own bug, %s, logged in .claude/sanetools.log), so it is held rather than let "
                "through unchecked. Try a simpler spelling of the command; if it keeps "
                "failing, tell the person." % (code, type(exc).__name__)
            )
        if reason:
            reason = breaker.count_denial(ctx, facts, reason)
            ctx.session["blocks"] = ctx.session.get("blocks", 0) + 1
            ctx.audit(
                "block",
                hook="sanetools",
                tool=facts.tool,
                code=reason.split("]", 1)[0] + "]",
                reason=reason[:500],
                tool_use_id=ctx.payload.get("tool_use_id"),
            )
            ctx.answer.deny(reason)
            return
    if broken:
        ctx.answer.tell_user(
            "sane-hooks: the %s gate failed on this call and let it through; "
            "see .claude/sanetools.log" % ", ".join(broken)
        )
    breaker.allowed(ctx, facts)
    if facts.sane_calls:
        _authorise(ctx, facts)
