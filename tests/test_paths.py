"""Self-protection at the path level, through sanetools.py: hard links to protected files, the
person's config files, files whose content runs outside every check (git hooks, hook commands
in the settings, agent and skill files, .mcp.json), and the block messages that say why."""

import json
import os

import pytest


def deny(r):
    return r.denied or ""


@pytest.fixture
def ready(proj):
    proj.research()
    return proj


def writes(proj, path):
    """Every way the tools write a file: Write, Edit, a Bash redirect, tee."""
    return [
        proj.pre("Write", {"file_path": path, "content": "x\n"}),
        proj.pre("Edit", {"file_path": path, "old_string": "a", "new_string": "b"}),
        proj.pre("Bash", {"command": "echo pwned > '%s'" % path}),
        proj.pre("Bash", {"command": "printf x | tee -a %s" % path}),
    ]


def assert_protected(proj, path, *words):
    for r in writes(proj, path):
        d = deny(r)
        assert d.startswith("[self-protection]"), (path, d)
        for w in words:
            assert w in d, (path, w, d)


# ------------------------------------------------------------------ hard links


def test_a_hard_link_in_the_temp_dir_to_a_settings_file_is_that_file(ready, tmp_path):
    settings = ready.write(".claude/settings.json", "{}\n")
    link = str(tmp_path / "innocent.txt")
    os.link(settings, link)
    assert_protected(ready, link, "hard link", ".claude/settings.json", "writing it writes")


def test_a_hard_link_inside_the_project_to_the_person_config_is_that_file(ready):
    cfg = ready.config("paths: {allow_temp_writes: true}\n")
    link = ready.path("notes.txt")
    os.link(cfg, link)
    assert_protected(ready, link, "hard link", "sane.yaml")


def test_a_hard_link_to_a_hook_script(ready, tmp_path):
    ready.install()
    link = str(tmp_path / "t")
    os.link(ready.path("scripts", "hooks", "sanetools.py"), link)
    assert_protected(ready, link, "hard link", "sanetools.py")


def test_a_hard_link_to_the_key_cannot_even_be_read(ready, tmp_path):
    # (the counters and verified copies are replaced by rename on every write, so a link to
    # one soon holds an old copy; the key file is never rewritten)
    key = os.path.join(ready.home, ".config", "sane-hooks", "secret")
    with open(key, "w") as fh:
        fh.write("k" * 64)
    link = str(tmp_path / "notes.txt")
    os.link(key, link)
    for tool, ti in (("Read", {"file_path": link}), ("Bash", {"command": "cat " + link})):
        assert deny(ready.pre(tool, ti)).startswith("[self-protection]"), tool


def test_a_hard_link_to_a_secret_reads_the_secret(ready, tmp_path):
    key = os.path.join(ready.home, ".ssh", "id_ed25519")
    os.makedirs(os.path.dirname(key))
    with open(key, "w") as fh:
        fh.write("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    link = str(tmp_path / "notes.txt")
    os.link(key, link)
    for tool, ti in (
        ("Read", {"file_path": link}),
        ("Bash", {"command": "cat " + link}),
        ("Grep", {"pattern": "KEY", "path": link}),
    ):
        d = deny(ready.pre(tool, ti))
        assert d.startswith("[blocked-path]") and "hard link" in d and "~/.ssh" in d, (tool, d)


def test_an_ordinary_file_and_a_link_between_ordinary_files_are_writable(ready, tmp_path):
    a = tmp_path / "a.txt"
    a.write_text("a")
    os.link(str(a), str(tmp_path / "b.txt"))
    for p in (str(a), str(tmp_path / "b.txt"), ready.path("src", "app.py")):
        r = ready.pre("Write", {"file_path": p, "content": "x\n"})
        assert r.denied is None, (p, r.denied)


# ------------------------------------------------------------------ the person's config files


def test_user_config_is_the_persons_and_says_why(ready):
    path = os.path.join(ready.home, ".config", "sane-hooks", "config.yaml")
    assert_protected(ready, path, "person's sane-hooks config", "Only the person edits it")


def test_project_config_is_the_persons_and_says_why(ready):
    ready.config("review: {mode: prompt}\n")
    assert_protected(
        ready, ready.path(".claude", "sane.yaml"), "person's sane-hooks config", "loosen"
    )


@pytest.mark.parametrize(
    "rel",
    [
        ".claude/settings.json",
        ".claude/settings.local.json",
        "~/.claude/settings.json",
        "/etc/claude-code/managed-settings.json",
    ],
)
def test_settings_block_says_it_could_switch_the_hooks_off(ready, rel):
    path = rel.replace("~", ready.home) if rel.startswith("~") else ready.path(rel)
    assert_protected(
        ready, path, "could switch the hooks off", "Only the person edits it", "settings"
    )


# ------------------------------------------------------------------ content run outside checks


def test_git_hooks_are_protected(ready):
    os.makedirs(ready.path(".git", "hooks"))
    assert_protected(ready, ready.path(".git", "hooks", "pre-commit"), "git hooks", "outside")
    assert deny(ready.pre("Bash", {"command": "cp evil.sh .git/hooks/post-checkout"})).startswith(
        "[self-protection]"
    )


def test_git_hooks_of_a_worktree_and_a_configured_hooks_path(ready, tmp_path):
    gitdir = tmp_path / "main.git" / "worktrees" / "wt"
    gitdir.mkdir(parents=True)
    (gitdir / "commondir").write_text("../..\n")
    ready.write(".git", "gitdir: %s\n" % gitdir)
    assert_protected(ready, str(tmp_path / "main.git" / "hooks" / "pre-push"), "git hooks")
    (tmp_path / "main.git" / "config").write_text("[core]\n\thooksPath = .husky\n")
    os.makedirs(ready.path(".husky"))
    assert_protected(ready, ready.path(".husky", "pre-commit"), "git hooks")


def test_commands_the_settings_run_are_protected(ready):
    settings = {
        "hooks": {
            "PostToolUse": [
                {"hooks": [{"type": "command", "command": "bash .claude/hooks/fmt.sh --all"}]},
                {
                    "hooks": [
                        {
                            "type": "command",
                            "command": 'python3 "$CLAUDE_PROJECT_DIR"/tools/check.py',
                        }
                    ]
                },
            ]
        },
        "statusLine": {"type": "command", "command": "~/bin/status.sh"},
    }
    ready.write(".claude/settings.json", json.dumps(settings))
    for rel in (".claude/hooks/fmt.sh", "tools/check.py"):
        assert_protected(ready, ready.path(rel), "run by a command in the settings")
    assert_protected(ready, os.path.join(ready.home, "bin", "status.sh"), "outside")
    # the program itself and the project are not files of the hook
    assert (
        ready.pre("Write", {"file_path": ready.path("tools", "other.py"), "content": "x"}).denied
        is None
    )


def test_mcp_json_and_the_servers_it_starts_are_protected(ready):
    ready.write(
        ".mcp.json",
        json.dumps({"mcpServers": {"x": {"command": "node", "args": ["./mcp/server.js"]}}}),
    )
    assert_protected(ready, ready.path(".mcp.json"), "MCP server commands", "outside")
    assert_protected(ready, ready.path("mcp", "server.js"), "run by a command")
    assert_protected(ready, os.path.join(ready.home, ".claude.json"), "MCP servers")


@pytest.mark.parametrize(
    "rel",
    [
        ".claude/agents/helper.md",
        ".claude/skills/deploy/SKILL.md",
        ".claude/commands/x.md",
        "pkg/sub/.claude/skills/x/SKILL.md",
        "~/.claude/agents/a.md",
        "~/.claude/skills/s/SKILL.md",
        "~/.claude/commands/deploy.md",
        "~/.claude/plugins/p/hooks/hooks.json",
    ],
)
def test_agent_skill_and_plugin_files_can_carry_hooks(ready, rel):
    path = rel.replace("~", ready.home) if rel.startswith("~") else ready.path(rel)
    assert_protected(ready, path, "can define hooks", "Only the person writes it")


def test_other_claude_files_stay_writable(ready):
    for rel in (".claude/rules/x.md", "docs/.claude-notes.md", "CLAUDE.md"):
        r = ready.pre("Write", {"file_path": ready.path(rel), "content": "x"})
        assert r.denied is None, (rel, r.denied)


# ------------------------------------------------------------------ blocked paths: secrets only


@pytest.mark.parametrize(
    "path, rule",
    [
        ("/etc/shadow", "/etc/shadow"),
        ("/etc/gshadow", "/etc/gshadow"),
        ("/etc/sudoers", "/etc/sudoers"),
        ("/etc/sudoers.d/90-cloud", "/etc/sudoers.d"),
        ("/etc/shadow.bak", "/etc/shadow*"),
        ("/home/someone/.ssh/config", ".ssh"),
        ("/etc/ssl/private/site.crt", "/etc/ssl/private"),
        ("/etc/ssh/ssh_host_ed25519_key", "/etc/ssh/ssh_host_*_key"),
        ("/etc/letsencrypt/live/x/privkey.pem", "/etc/letsencrypt/live"),
        ("/proc/self/environ", "/proc/*/environ"),
        ("~/.ssh/id_rsa", "~/.ssh"),
        ("~/.aws/credentials", "~/.aws"),
        ("~/.gnupg/pubring.kbx", "~/.gnupg"),
        ("~/.docker/config.json", "~/.docker/config.json"),
        ("~/.kube/config", "~/.kube/config"),
        ("~/.netrc", ".netrc"),
        ("~/.pgpass", ".pgpass"),
        ("~/.git-credentials", "~/.git-credentials"),
        ("~/.config/gh/hosts.yml", "~/.config/gh/hosts.yml"),
        ("~/.npmrc", "~/.npmrc"),
        ("~/.pypirc", "~/.pypirc"),
        ("{p}/deploy/keystore.p12", "*.p12"),
    ],
)
def test_secret_locations_are_blocked_with_their_rule(ready, path, rule):
    p = path.replace("~", ready.home).replace("{p}", ready.dir)
    for tool, ti in (("Read", {"file_path": p}), ("Bash", {"command": "cat %s" % p})):
        d = deny(ready.pre(tool, ti))
        assert d.startswith("[blocked-path]") and repr(rule) in d, (tool, p, d)


@pytest.mark.parametrize(
    "path",
    [
        "/etc/os-release",
        "/etc/hosts",
        "/etc/passwd",
        "/etc/resolv.conf",
        "/etc/ssl/certs/ca-certificates.crt",
        "/etc/ssh/ssh_host_ed25519_key.pub",
        "/etc/ssh/sshd_config",
        "{p}/keys/id_ed25519.pub",
    ],
)
def test_system_files_that_hold_no_secret_are_readable(ready, path):
    p = path.replace("{p}", ready.dir)
    for tool, ti in (("Read", {"file_path": p}), ("Bash", {"command": "cat %s" % p})):
        r = ready.pre(tool, ti)
        assert r.denied is None, (tool, p, r.denied)


@pytest.mark.parametrize(
    "command",
    [
        "tar xf /tmp/x.tar .git/hooks",
        "cp -r /tmp/evil/. .git/hooks/",
        "mv /tmp/m.json .mcp.json",
        "rsync -a /tmp/skills/ .claude/skills/",
        "unzip -o /tmp/a.zip -d .claude/skills",
    ],
)
def test_shell_writes_into_run_outside_files(ready, command):
    os.makedirs(ready.path(".git", "hooks"))
    d = deny(ready.pre("Bash", {"command": command}))
    assert d.startswith("[self-protection]"), (command, d)


def test_a_case_insensitive_project_folds_names(ready, monkeypatch):
    """On a case-insensitive file system (WSL's /mnt/c, vfat, a casefold directory) .CLAUDE
    is .claude: the hooks see that (one stat of each spelling) and compare names folded.
    Here a link .CLAUDE -> .claude stands in for such a file system."""
    from core import pathnorm

    monkeypatch.setattr(pathnorm, "_FOLDED", set())
    os.symlink(".claude", os.path.join(ready.dir, ".CLAUDE"))
    r = ready.pre("Bash", {"command": "rm .CLAUDE/SETTINGS.JSON"})
    assert deny(r).startswith("[self-protection]"), deny(r)
    r = ready.pre("Write", {"file_path": ready.dir + "/.Claude/Settings.json", "content": "{}"})
    assert deny(r).startswith("[self-protection]"), deny(r)


def test_a_case_sensitive_project_keeps_names_apart(ready, monkeypatch):
    from core import pathnorm

    monkeypatch.setattr(pathnorm, "_FOLDED", set())
    pathnorm.note_case(ready.dir)
    assert not pathnorm._FOLDED


def test_a_list_where_one_path_was_expected_checks_every_path(ready):
    """A tool input with a list in a path field (or a Bash command given as words) is not
    passed unread: each string is the path (or word) it would be."""
    env = os.path.join(ready.dir, ".env")
    with open(env, "w") as fh:
        fh.write("TOKEN=x\n")
    hook = os.path.join(ready.dir, "scripts", "hooks", "sane.py")
    assert deny(ready.pre("Read", {"file_path": [env]})).startswith("[blocked-path]")
    assert deny(ready.pre("Grep", {"pattern": "x", "path": [env]})).startswith("[blocked-path]")
    r = ready.pre("Write", {"file_path": [hook], "content": "x"})
    assert deny(r).startswith("[self-protection]"), deny(r)
    r = ready.pre("Bash", {"command": ["rm", hook]})
    assert deny(r).startswith("[self-protection]"), deny(r)
