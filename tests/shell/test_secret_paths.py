"""Secrets by every reading path, and self-protection without holes, through the real gate:
files read through tracer options and start-up files, hard links to a secret, the read-only
exceptions under ~/.ssh (public keys, known_hosts, config), git hooks before `git init`,
recursive readers, and the ordinary commands these rules must let pass. Rows name the mode,
the answer ([code] of a deny, "ask [code]" or "allow") and a word of the reason.

Modes: "normal" (research done), "safe" (research done, safemode on by the person's `s+`).
"""

from __future__ import annotations

import os
import time

import pytest

from core import config, pathrules, paths
from shell.labs import answer, lab, pre, two_mode_labs, write_tree
from shell.test_attacks_remote_readers import FILES

ROWS = [
    # tracers: ltrace -F / --config reads a file; -o writes one
    ("ltrace -F .env /dev/null", "normal", "[blocked-path]", ".env"),
    ("ltrace -F.env ls", "normal", "[blocked-path]", ".env"),
    ("ltrace --config=.env ls", "safe", "[blocked-path]", ".env"),
    ("ltrace --conf .env ls", "normal", "[blocked-path]", ".env"),
    ("ltrace -F ~/.ssh/id_rsa ls", "normal", "[blocked-path]", "~/.ssh"),
    ("ltrace -o .claude/settings.json ls", "normal", "[self-protection]", "settings"),
    ("strace -o .claude/settings.json ls", "normal", "[self-protection]", "settings"),
    # response files, option values, file:// parameters, batch files
    ("gcc @.env", "normal", "[blocked-path]", ".env"),
    ("as @/etc/shadow", "normal", "[blocked-path]", "/etc/shadow"),
    ("check_cups --extra-opts=@.env", "normal", "[blocked-path]", ".env"),
    ("aws ec2 describe-instances --filter file://.env", "safe", "[blocked-path]", ".env"),
    ("aws ec2 describe-instances --filter file:///etc/shadow", "normal", "[blocked-path]", "shad"),
    ("ip -force -batch .env", "normal", "[blocked-path]", ".env"),
    ("mytool --config=~/.ssh/id_rsa", "normal", "[blocked-path]", "~/.ssh"),
    ("terraform plan -var-file=.env", "normal", "[blocked-path]", ".env"),
    ("./run.sh --token-file=.env", "normal", "[blocked-path]", ".env"),
    # words of code nobody saw: a value stuck to a short option, a key@FILE value
    ("./run.sh -F.env", "normal", "[blocked-path]", ".env"),
    ("./run.sh -k~/.ssh/id_rsa", "normal", "[blocked-path]", "~/.ssh"),
    ("./run.sh key@.env", "normal", "[blocked-path]", ".env"),
    ("node x.js --in=x@/etc/shadow", "normal", "[blocked-path]", "/etc/shadow"),
    # a start-up file runs commands nobody saw: unknown code in safemode, and a path read
    ("sqlite3 -init /tmp/x.sql :memory:", "safe", "[safemode]", "-init"),
    ("sqlite3 -init init.sql data.db .tables", "safe", "[safemode]", "init.sql"),
    ("sqlite3 -init .env :memory:", "normal", "[blocked-path]", ".env"),
    ("bash --rcfile /tmp/rc -i", "safe", "[safemode]", "rcfile"),
    ("mysqld --init-file=/tmp/x.sql", "safe", "[safemode]", ""),
    # recursive readers of a tree that holds secrets
    ("diff --recursive /tmp /etc/", "safe", "[blocked-path]", "/etc/"),
    ("diff -r src ~/", "normal", "[blocked-path]", ".ssh"),
    # git's own listers feed every tracked or changed file to the reader
    ("git ls-files -z | xargs -0 cat", "normal", "[blocked-path]", ".env"),
    ("git ls-files | xargs tail -n +1", "safe", "[blocked-path]", ".env"),
    ("git diff --name-only | xargs cat", "normal", "[blocked-path]", ".env"),
    ("cat $(git ls-files)", "normal", "[blocked-path]", ".env"),
    ("grep -r 'rm -rf' .", "normal", "[blocked-path]", "--exclude=.env"),
    ("find . -type f -exec cat {} +", "normal", "[blocked-path]", ".env"),
    ("find . -type f | xargs cat", "safe", "[blocked-path]", ".env"),
    ("find . -type f -exec sh -c 'du \"$1\"' _ {} \\;", "normal", "[blocked-path]", ".env"),
    ("find . -type f -exec du {} \\; -exec cat {} \\;", "normal", "[blocked-path]", ".env"),
    ("tar czf - . | base64", "normal", "[blocked-path]", ".env"),
    ("grep -r -elocal .", "normal", "[blocked-path]", ".env"),
    ("grep -r -e -l .", "safe", "[blocked-path]", ".env"),
    ("rg --hidden -L TOKEN", "normal", "[blocked-path]", ".env"),
    # a directory is left out by --exclude-dir, a file by --exclude; --include narrows files
    ("grep -r --exclude-dir=.env TOKEN .", "normal", "[blocked-path]", "--exclude=.env"),
    ("grep -r --exclude=.env --include='*.yml' pw .", "normal", "[blocked-path]", "secrets"),
    ("grep -r --exclude=.env --exclude=secrets pw config", "safe", "[blocked-path]", "dir=secrets"),
    ("find . -name '*.yml' -exec cat {} +", "normal", "[blocked-path]", "secrets"),
    ("rg -g '*.yml' pw", "safe", "[blocked-path]", "secrets"),
    # ~/.ssh: the private keys stay blocked, and nothing there may be written
    ("cat ~/.ssh/id_rsa", "safe", "[blocked-path]", "~/.ssh"),
    ("cat ~/.ssh/*", "normal", "[blocked-path]", "~/.ssh"),
    ("grep -r Host ~/.ssh", "normal", "[blocked-path]", "~/.ssh"),
    ("echo 'ProxyCommand x' >> ~/.ssh/config", "normal", "[blocked-path]", "~/.ssh"),
    ("cp /tmp/k ~/.ssh/id_rsa.pub", "normal", "[blocked-path]", "~/.ssh"),
    ("ssh-keyscan h >> ~/.ssh/known_hosts", "normal", "[blocked-path]", "~/.ssh"),
    ("sed -i s/a/b/ ~/.ssh/config", "normal", "[blocked-path]", "~/.ssh"),
    # code the hooks cannot see may write what it names: no read-only exception for it
    ("python3 -c \"open('$HOME/.ssh/config','w').write('x')\"", "normal", "[blocked-path]", "ssh"),
    ("./x.sh ~/.ssh/config", "normal", "[blocked-path]", "~/.ssh"),
    ("node x.js ~/.ssh/known_hosts", "normal", "[blocked-path]", "~/.ssh"),
    # files.py takes GNU long-option prefixes
    ("chmod --ref=.env src/app.py", "normal", "[blocked-path]", ".env"),
    ("chmod --reference .env src/app.py", "normal", "[blocked-path]", ".env"),
    ("chmod --rec 700 src", "normal", "ask [destructive]", "recursive"),
    ("sort --compress-prog=sh src/app.py", "safe", "[safemode]", ""),
]

ALLOWED = [
    ("git ls-files '*.py' | xargs grep -n TODO", "normal"),
    ("git ls-files | xargs wc -l", "safe"),
    ("find / -type f -exec du -h {} + | sort -rh | head", "safe"),
    ("find . -type f -exec wc -l {} +", "safe"),
    ("find . -name '*.py' -exec stat {} +", "normal"),
    ("find . -type f -exec sha256sum {} \\;", "safe"),
    ("find ~ -maxdepth 2 -type f -exec ls -la {} +", "safe"),
    ("find . -type f | xargs wc -l", "safe"),
    ("find . -type f -print0 | xargs -0 du -sh", "safe"),
    ("cat ~/.ssh/id_rsa.pub", "safe"),
    ("cat ~/.ssh/config", "normal"),
    ("cat ~/.ssh/known_hosts", "safe"),
    ("cat ~/.ssh/*.pub", "normal"),
    ("ssh-keygen -lf ~/.ssh/id_rsa.pub", "safe"),
    ("grep -i host ~/.ssh/config", "safe"),
    ("bash -c 'cat ~/.ssh/config'", "normal"),
    ("wc -l ~/.ssh/known_hosts ~/.ssh/authorized_keys", "normal"),
    ("grep -r --exclude=.env --exclude-dir=secrets PAT .", "safe"),
    ("grep -r --exclude-dir={node_modules,secrets} --exclude=.env PAT .", "normal"),
    ("grep -rn PAT src/", "safe"),
    ("grep -r 'rm -rf' src", "normal"),
    ("strace -f -e trace=file -o /tmp/t.txt ls", "normal"),
    ("strace -c ls", "safe"),
    ("ltrace -c ls", "normal"),
    ("sqlite3 data.db .tables", "safe"),
    ("sqlite3 -readonly data.db 'select 1'", "safe"),
    ("git submodule update --init --recursive", "normal"),
    ("docker run --init --rm alpine true", "normal"),
    ("sort --rev src/app.py", "safe"),
    ("chmod 644 src/app.py", "normal"),
    ("gcc @build.rsp", "normal"),
    ("grep -rl TOKEN .", "safe"),
    ("grep -rc TOKEN .", "normal"),
    ("rg -l TOKEN", "safe"),
    ("tar tf /tmp/x.tar", "safe"),
    ("tar czf /tmp/src.tgz src", "normal"),
    ("grep -r --exclude=.env --exclude-dir=secrets --include='*.yml' pw .", "normal"),
    ("rg -g '!secrets' -g '*.yml' pw", "safe"),
    ("grep -rn --include='*.py' TOKEN src", "safe"),
    ("./run.sh -Werror -O2 -la --secrets-dir=build", "normal"),
    ("./deploy.sh user@example.com -p 22", "normal"),
    ("terraform plan -var-file=prod.tfvars", "normal"),
]


MORE = {  # the ssh files anyone may read and a secrets directory, written after research
    "~/.ssh/id_rsa.pub": "ssh-rsa AAAA x\n",
    "~/.ssh/config": "Host x\n",
    "~/.ssh/known_hosts": "h ssh-ed25519 AAAA\n",
    "~/.ssh/authorized_keys": "ssh-rsa AAAA x\n",
    "config/secrets/prod.yml": "pw: x\n",
}


@pytest.fixture(scope="module")
def labs(tmp_path_factory):
    labs = two_mode_labs(tmp_path_factory, "secp", FILES)
    for proj in labs.values():
        write_tree(proj.dir, MORE, proj.home)
    return labs


@pytest.mark.parametrize("cmd,mode,code,why", ROWS, ids=["%s:%s" % (r[1], r[0][:50]) for r in ROWS])
def test_secret_reading_path_is_closed(labs, cmd, mode, code, why):
    got = answer(pre(labs[mode], cmd))
    assert got.startswith(code), "bypass: %r [%s] -> %r" % (cmd, mode, got)
    assert why in got, "%r [%s]: reason lacks %r: %r" % (cmd, mode, why, got)


@pytest.mark.parametrize("cmd,mode", ALLOWED, ids=["%s:%s" % (r[1], r[0][:50]) for r in ALLOWED])
def test_ordinary_work_passes(labs, cmd, mode):
    got = answer(pre(labs[mode], cmd))
    assert got == "allow", "false positive: %r [%s] -> %r" % (cmd, mode, got)


def test_read_tool_follows_the_same_read_only_exception(labs):
    proj = labs["normal"]
    ssh = os.path.join(proj.home, ".ssh")
    assert answer(proj.pre("Read", {"file_path": os.path.join(ssh, "config")})) == "allow"
    got = answer(proj.pre("Read", {"file_path": os.path.join(ssh, "id_rsa")}))
    assert got.startswith("[blocked-path]") and "~/.ssh" in got, got
    got = answer(proj.pre("Write", {"file_path": os.path.join(ssh, "config"), "content": "x"}))
    assert got.startswith("[blocked-path]"), got


# ------------------------------------------------------------------ hard links and symlinks


LINKED = {
    "~/.ssh/id_rsa.pub": "public\n",
    "~/.ssh/config": "public\n",
    "config/secrets.yml": "token: x\n",
    ".claude/settings.local.json": "{}\n",
}


@pytest.fixture(scope="module")
def linked(tmp_path_factory):
    """A project and home with secrets, and a directory of hard links and symlinks to them."""
    root = tmp_path_factory.mktemp("secp-links")
    proj = lab(str(root / "lab"), "normal", FILES)
    ssh = os.path.join(proj.home, ".ssh")
    write_tree(proj.dir, LINKED, proj.home)
    links = root / "links"
    links.mkdir()
    for name, target in (
        ("envhl", os.path.join(proj.dir, ".env")),
        ("ymlhl", os.path.join(proj.dir, "config", "secrets.yml")),
        ("keyhl", os.path.join(ssh, "id_rsa")),
        ("pubhl", os.path.join(ssh, "id_rsa.pub")),
        ("cfghl", os.path.join(ssh, "config")),
        ("readmehl", os.path.join(proj.dir, "README.md")),
        ("settingshl", os.path.join(proj.dir, ".claude", "settings.local.json")),
    ):
        os.link(target, str(links / name))
    os.symlink(os.path.join(ssh, "id_rsa"), str(links / "keysym"))
    for name, target in (("envtree", ".env"), ("keytree", "id_rsa")):
        d = root / name
        d.mkdir()
        (d / "a.txt").write_text("plain\n")
        src = os.path.join(proj.dir if target == ".env" else ssh, target)
        if target == ".env":
            os.link(src, str(d / "notes.txt"))
        else:
            os.symlink(src, str(d / "notes.txt"))
    plain = root / "plaintree"
    plain.mkdir()
    (plain / "a.txt").write_text("x\n")
    os.link(str(plain / "a.txt"), str(plain / "b.txt"))
    return proj, str(links)


LINK_ROWS = [
    ("cat {L}/envhl", "[blocked-path]", ".env (a hard link"),
    ("base64 {L}/ymlhl", "[blocked-path]", "secrets.*"),
    ("cat {L}/keyhl", "[blocked-path]", "~/.ssh (a hard link"),
    ("cat {L}/keysym", "[blocked-path]", "~/.ssh"),
    ("echo x >> {L}/cfghl", "[blocked-path]", "~/.ssh (a hard link"),
    ("echo {{}} > {L}/settingshl", "[self-protection]", "hard link"),
    ("cat {L}/pubhl", "allow", ""),
    ("cat {L}/cfghl", "allow", ""),
    ("cat {L}/readmehl", "allow", ""),
    # recursive readers meet the same file under another name in the tree they read
    ("grep -r TOKEN {L}/../envtree", "[blocked-path]", ".env (a hard link"),
    ("tar cf - {L}/../envtree", "[blocked-path]", "notes.txt"),
    ("grep -R x {L}/../keytree", "[blocked-path]", "~/.ssh"),
    ("zip -r - {L}/../keytree", "[blocked-path]", "~/.ssh"),
    ("grep -r x {L}/../plaintree", "allow", ""),
]


@pytest.mark.parametrize("cmd,code,why", LINK_ROWS, ids=[r[0] for r in LINK_ROWS])
def test_a_hard_link_is_the_file_it_links(linked, cmd, code, why):
    proj, links = linked
    got = answer(pre(proj, cmd.format(L=links)))
    assert got.startswith(code), "%r -> %r" % (cmd, got)
    assert why in got, "%r: reason lacks %r: %r" % (cmd, why, got)


def test_a_tree_holding_a_hard_link_to_the_hook_counters_is_not_read(tmp_path):
    proj = lab(str(tmp_path / "lab"), "normal", FILES)
    cdir = os.path.join(proj.home, ".config", "sane-hooks")
    tree = tmp_path / "tree"
    tree.mkdir()
    os.link(os.path.join(cdir, "counters.json"), str(tree / "notes.json"))
    got = answer(proj.pre("Bash", {"command": "grep -r seq %s" % tree}))
    assert got.startswith("[blocked-path]") and "the hook secret" in got, got


def test_a_symlinked_public_name_to_a_private_key_stays_blocked(tmp_path):
    proj = lab(str(tmp_path / "lab"), "normal", FILES)
    ssh = os.path.join(proj.home, ".ssh")
    os.symlink(os.path.join(ssh, "id_rsa"), os.path.join(ssh, "config"))
    os.symlink(os.path.join(ssh, "id_rsa"), os.path.join(ssh, "id_rsa.pub"))
    for name in ("config", "id_rsa.pub"):
        got = answer(proj.pre("Bash", {"command": "cat ~/.ssh/" + name}))
        assert got.startswith("[blocked-path]") and "~/.ssh" in got, (name, got)


def test_the_hard_link_check_costs_one_stat_for_a_file_with_one_link(tmp_path, monkeypatch):
    cfg = config.load(str(tmp_path))
    f = tmp_path / "plain.txt"
    f.write_text("x")
    pathrules._SECRETS.clear()
    calls = []
    monkeypatch.setattr(pathrules, "_scan_project", lambda *a: calls.append(a))
    monkeypatch.setattr(pathrules, "_scan_locations", lambda *a: calls.append(a))
    home = str(tmp_path / "home")
    assert paths.blocked_rule(str(f), str(tmp_path), cfg, home, str(tmp_path), True) is None
    assert calls == []  # no table is built for a file nobody else names
    os.link(str(f), str(tmp_path / "other.txt"))
    assert paths.blocked_rule(str(f), str(tmp_path), cfg, home, str(tmp_path), True) is None
    assert len(calls) == 2  # built once ...
    paths.blocked_rule(str(tmp_path / "other.txt"), str(tmp_path), cfg, home, str(tmp_path), True)
    assert len(calls) == 2  # ... and kept for the process


def test_the_project_scan_is_bounded(tmp_path, monkeypatch):
    cfg = config.load(str(tmp_path))
    proj = tmp_path / "big"
    for i in range(60):
        d = proj / ("d%02d" % i)
        d.mkdir(parents=True)
        for j in range(60):
            (d / ("f%02d" % j)).write_text("")
    (proj / "d59" / ".env").write_text("T=1\n")
    link = tmp_path / "hl"
    os.link(str(proj / "d59" / ".env"), str(link))
    monkeypatch.setattr(pathrules, "PROJECT_SCAN", 500)
    pathrules._SECRETS.clear()
    home = str(tmp_path / "home")
    t0 = time.perf_counter()
    paths.blocked_rule(str(link), str(proj), cfg, home, str(proj), True)
    assert time.perf_counter() - t0 < 1.0
    monkeypatch.setattr(pathrules, "PROJECT_SCAN", 5000)
    pathrules._SECRETS.clear()
    assert paths.blocked_rule(str(link), str(proj), cfg, home, str(proj), True) == (
        ".env (a hard link to a file under it)"
    )


# ------------------------------------------------------------------ git hooks before git init


@pytest.fixture(scope="module")
def no_git(tmp_path_factory):
    return lab(
        str(tmp_path_factory.mktemp("secp-nogit")), "normal", {"README.md": "readme\n"}, git=False
    )


@pytest.mark.parametrize(
    "cmd",
    [
        "echo x > .git/hooks/pre-commit",
        "mkdir -p .git/hooks && echo x > .git/hooks/pre-commit",
        "cp /tmp/x .git/hooks/post-checkout",
        "tee .git/hooks/pre-push < /tmp/x",
    ],
)
def test_git_hooks_are_protected_before_the_repository_exists(no_git, cmd):
    assert not os.path.exists(os.path.join(no_git.dir, ".git"))
    got = answer(pre(no_git, cmd))
    assert got.startswith("[self-protection]") and "git hooks" in got, (cmd, got)


def test_git_init_still_passes_without_a_repository(no_git):
    assert answer(pre(no_git, "git init -q")) == "allow"


def test_a_git_file_that_names_the_git_directory_is_protected(tmp_path):
    proj = lab(
        str(tmp_path / "wt"),
        "normal",
        {".git": "gitdir: /somewhere/.git/worktrees/wt\n"},
        git=False,
    )
    got = answer(proj.pre("Bash", {"command": "echo 'gitdir: /tmp/evil' > .git"}))
    assert got.startswith("[self-protection]") and ".git file" in got, got


def test_a_hard_link_to_a_file_a_location_glob_names_is_that_file(tmp_path):
    cfg = config.load(str(tmp_path))
    keys = tmp_path / "keys"
    keys.mkdir()
    (keys / "host_rsa_key").write_text("KEY\n")
    (keys / "host_rsa_key.pub").write_text("PUB\n")
    rule = str(keys) + "/host_*_key"
    cfg.data["paths"]["blocked"] = [rule]
    os.link(str(keys / "host_rsa_key"), str(tmp_path / "a"))
    os.link(str(keys / "host_rsa_key.pub"), str(tmp_path / "b"))
    pathrules._SECRETS.clear()
    home = str(tmp_path / "home")
    got = paths.blocked_rule(str(tmp_path / "a"), "/", cfg, home, str(tmp_path / "p"), True)
    assert got == rule + " (a hard link to a file under it)"
    assert (
        paths.blocked_rule(str(tmp_path / "b"), "/", cfg, home, str(tmp_path / "p"), True) is None
    )
