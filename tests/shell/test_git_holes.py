"""git through the real hook (sanetools.py) in real repositories:

- git's own readers (grep, log -p, show, diff, archive, format-patch, add -p, status -v,
  cat-file of a blob id) print a file the index tracks that a blocked rule covers: denied
  [blocked-path] unless a pathspec leaves it out; with the same `.env` untracked they pass;
  `git grep --untracked` also searches the untracked files git does not ignore;
- moves of the work tree (checkout/switch to the previous branch or a new branch's start
  point, read-tree of another tree, reset --hard, stash apply/pop of changes to the hooks'
  files, merge/rebase/cherry-pick/revert of commits that change them, worktree remove/move,
  update-index of their entries) are [self-protection] when the
  hooks' files differ there, and pass when they do not;
- the verbs of stash/submodule/worktree are reads, writes or unknown (safemode).

Each row gives the lab (T: hooks committed, .env tracked; U: the same with .env untracked),
the mode, the command, and the reason code it must get (None: it must pass).
"""

import subprocess

import pytest

from conftest import Project
from shell.labs import git, pre, ready

SECRET = "[blocked-path]"
SELF = "[self-protection]"
SAFE = "[safemode]"

ROWS = [
    # git's readers of a tracked secret
    ("T", "normal", "git grep TOKEN", SECRET),
    ("T", "safe", "git grep -n -i token", SECRET),
    ("T", "normal", "git grep -e TOKEN --cached", SECRET),
    ("T", "normal", "git grep TOKEN HEAD", SECRET),
    ("T", "normal", "git log -p", SECRET),
    ("T", "normal", "git log --patch --all", SECRET),
    ("T", "normal", "git log --pat", SECRET),
    ("T", "normal", "git log -U1", SECRET),
    ("T", "normal", "git log -p -S TOKEN", SECRET),
    ("T", "normal", "git log -p --author src", SECRET),
    ("T", "normal", "git log -p ':/env*'", SECRET),
    ("T", "normal", "git whatchanged -p", SECRET),
    ("T", "normal", "git show", SECRET),
    ("T", "normal", "git show HEAD", SECRET),
    ("T", "normal", "git diff HEAD~1", SECRET),
    ("T", "normal", "git diff --check HEAD~1", SECRET),
    ("T", "normal", "git diff-tree -p HEAD", SECRET),
    ("T", "normal", "git archive HEAD -o /tmp/x.tar", SECRET),
    ("T", "normal", "git format-patch -1 --stdout", SECRET),
    ("T", "normal", "git fast-export HEAD", SECRET),
    ("T", "normal", "git range-diff HEAD~2 HEAD~1 HEAD", SECRET),
    ("T", "normal", "git cat-file --batch", SECRET),
    ("T", "normal", "git -C src log -p", SECRET),
    ("T", "normal", "cd src && git log -p", SECRET),
    ("T", "normal", "git lp", SECRET),  # an alias of log -p
    ("T", "normal", "git -c alias.zz='log -p' zz", SECRET),
    ("T", "normal", "git grep -- TOKEN", SECRET),
    (
        "T",
        "normal",
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.q GIT_CONFIG_VALUE_0='log -p' git q",
        SECRET,
    ),
    ("T", "normal", "Z='log -p' git --config-env=alias.q=Z q", SECRET),
    (
        "T",
        "normal",
        "GIT_GLOB_PATHSPECS=1 git grep TOKEN -- ':!*/.env'",
        SECRET,
    ),  # the pattern is the first word after --
    ("T", "normal", "git grep --recurse-submodules TOKEN", SECRET),
    ("T", "normal", "git log -p -- .", SECRET),
    ("T", "normal", "git grep TOKEN -- ':(glob)*.py' .", SECRET),
    ("T", "normal", "git show HEAD:.env", SECRET),
    ("T", "normal", "git diff HEAD:.env HEAD:README.md", SECRET),
    ("T", "normal", "git log -L1,1:.env", SECRET),
    ("T", "normal", "git config --blob HEAD:.env --list", SECRET),
    ("T", "normal", "git commit -F .env", SECRET),
    ("T", "normal", "git diff --no-index .env README.md", SECRET),
    ("T", "normal", "git grep --no-index TOKEN", SECRET),
    # the same readers that leave it out, or print no contents
    ("T", "safe", "git grep TOKEN -- src", None),
    ("T", "safe", "git grep TOKEN -- ':!.env'", None),
    ("T", "safe", "git grep TOKEN -- . ':(exclude).env'", None),
    ("T", "safe", "git grep TOKEN src", None),
    ("T", "safe", "git grep -l TOKEN", None),
    ("T", "safe", "git grep -c TOKEN", None),
    ("T", "safe", "git grep TOKEN -- '*.py'", None),
    ("T", "safe", "cd src && git grep TOKEN", None),
    ("T", "safe", "git -C src grep TOKEN", None),
    ("T", "safe", "git log -p -- src/app.py", None),
    ("T", "safe", "git log -p src/app.py", None),
    ("T", "safe", "git log -p 'src/*'", None),
    ("T", "safe", "git log --stat", None),
    ("T", "safe", "git log --oneline -5", None),
    ("T", "safe", "git show --stat HEAD", None),
    ("T", "safe", "git show --name-only HEAD", None),
    ("T", "safe", "git show HEAD -- src", None),
    ("T", "safe", "git show HEAD:src/app.py", None),
    ("T", "safe", "git diff", None),  # .env did not change
    ("T", "safe", "git diff --cached", None),
    ("T", "safe", "git diff HEAD", None),
    ("T", "safe", "git diff --stat HEAD~1", None),
    ("T", "safe", "git diff HEAD~1 -- src", None),
    ("T", "safe", "git diff HEAD~1 -- ':!.env'", None),
    ("T", "safe", "git stash show", None),
    ("T", "safe", "git status -sb", None),
    ("T", "safe", "git cat-file -p HEAD", None),
    ("T", "safe", "git cat-file --batch-check", None),
    ("T", "normal", "git archive HEAD src -o /tmp/x.tar", None),
    ("T", "normal", "git lp -- src", None),
    # untracked .env: git's readers do not see it
    ("U", "safe", "git grep TOKEN", None),
    ("U", "safe", "git log -p", None),
    ("U", "safe", "git show HEAD", None),
    ("U", "safe", "git diff HEAD~1", None),
    ("U", "safe", "git cat-file --batch", None),
    ("U", "normal", "git archive HEAD -o /tmp/x.tar", None),
    ("U", "safe", "git grep --untracked TOKEN", SECRET),
    ("U", "safe", "git grep --untracked TOKEN -- src", None),
    ("U", "safe", "git grep --no-index TOKEN", SECRET),
    ("U", "safe", "git show HEAD:.env", SECRET),
    ("U", "normal", "GIT_DIR={T}/.git git log -p", SECRET),  # {T}: the tracked lab
    ("U", "normal", "git --git-dir={T}/.git --work-tree={T} grep TOKEN", SECRET),
    ("U", "normal", "git -C {T} log -p", SECRET),
    # the work tree moved where the hooks' files differ
    ("U", "normal", "git checkout -", SELF),
    ("U", "normal", "git switch -", SELF),
    ("U", "normal", "git checkout @{-1}", SELF),
    ("U", "normal", "git checkout bare --", SELF),
    ("U", "normal", "git checkout -b x bare", SELF),
    ("U", "normal", "git checkout -bx bare", SELF),
    ("U", "normal", "git checkout --track -b x bare", SELF),
    ("U", "normal", "git switch -c x bare", SELF),
    ("U", "normal", "git switch --create=x bare", SELF),
    ("U", "normal", "git read-tree bare", SELF),
    ("U", "normal", "git read-tree -m HEAD bare", SELF),
    ("U", "normal", "git read-tree --empty", SELF),
    ("U", "normal", "git read-tree -u --reset bare", SELF),
    ("U", "normal", "git add -A && git reset --hard", SELF),
    ("U", "normal", "git stash apply stash@{1}", SELF),
    ("U", "normal", "git stash pop stash@{1}", SELF),
    ("U", "normal", "git stash apply 1", SELF),
    ("U", "normal", "git stash branch b2 stash@{1}", SELF),
    ("U", "normal", "git worktree remove .", SELF),
    ("U", "normal", "git worktree remove --force scripts", SELF),
    ("U", "normal", "git worktree move . ../elsewhere", SELF),
    ("U", "normal", "git update-index --skip-worktree .claude/settings.json", SELF),
    ("U", "normal", "git update-index --assume-unchanged scripts/hooks/sanetools.py", SELF),
    ("U", "normal", "git update-index --no-skip-worktree -- .claude/settings.json", SELF),
    ("U", "normal", "git update-index --chmod=-x scripts/hooks/sanetools.py", SELF),
    (
        "U",
        "normal",
        "git update-index --cacheinfo 100644,%s,.claude/settings.json" % ("e" * 40),
        SELF,
    ),
    (
        "U",
        "normal",
        "git update-index --cacheinfo 100644 %s .claude/settings.json" % ("e" * 40),
        SELF,
    ),
    ("U", "normal", "git update-index --index-info < /tmp/list", SELF),
    ("U", "normal", "cat /tmp/list | git update-index --stdin --skip-worktree", SELF),
    (
        "U",
        "normal",
        "git update-index --index-info <<< $'100644 %s\\t.claude/settings.json'" % ("e" * 40),
        SELF,
    ),
    ("U", "normal", "git merge evil", SELF),
    ("U", "normal", "git merge -m 'take it' evil", SELF),
    ("U", "normal", "git rebase evil", SELF),
    ("U", "normal", "git cherry-pick evil", SELF),
    ("U", "normal", "git cherry-pick main..evil", SELF),
    ("U", "normal", "git revert evil", SELF),
    # ... and where they do not
    ("U", "normal", "git merge bare", None),
    ("U", "normal", "git rebase --continue", None),
    ("U", "normal", "git cherry-pick --abort", None),
    ("U", "normal", "git checkout main", None),
    ("U", "normal", "git checkout -b feature", None),
    ("U", "normal", "git switch -c feature", None),
    ("U", "normal", "git checkout -f", None),
    ("U", "normal", "git checkout README.md", None),
    ("U", "normal", "git checkout bare README.md", None),
    ("U", "normal", "git read-tree HEAD", None),
    ("U", "normal", "git read-tree -u --reset HEAD", None),
    ("U", "normal", "git read-tree -n bare", None),
    ("U", "normal", "git reset --hard", None),
    ("U", "normal", "git reset --hard HEAD", None),
    ("U", "normal", "git stash apply", None),
    ("U", "normal", "git stash pop", None),
    ("U", "normal", "git stash apply --index stash@{0}", None),
    ("U", "normal", "git worktree add ../wt2", None),
    ("U", "normal", "git worktree remove ../wt2", None),
    ("U", "normal", "git worktree prune", None),
    ("U", "normal", "git update-index --assume-unchanged README.md", None),
    ("U", "normal", "git update-index --refresh", None),
    ("U", "normal", "printf 'README.md\\n' | git update-index --stdin --assume-unchanged", None),
    # verbs: reads pass safemode, changes do not, verbs the hooks do not know are unknown
    ("U", "safe", "git submodule status", None),
    ("U", "safe", "git submodule", None),
    ("U", "safe", "git submodule --quiet summary", None),
    ("U", "safe", "git stash list", None),
    ("U", "safe", "git stash show -q", None),
    ("U", "safe", "git worktree list", None),
    ("U", "safe", "git worktree prune -n", None),
    ("U", "safe", "git submodule foreach 'git status'", SAFE),
    ("U", "safe", "git submodule update --init", SAFE),
    ("U", "safe", "git submodule frobnicate", SAFE),
    ("U", "safe", "git stash frobnicate", SAFE),
    ("U", "safe", "git stash apply", SAFE),
    ("U", "safe", "git worktree frobnicate", SAFE),
    ("U", "safe", "git worktree add ../wt3", SAFE),
    ("U", "safe", "git update-index --assume-unchanged README.md", SAFE),
]


def _git(proj, *args):
    git(proj.dir, *args, env=proj.env)


def _lab(root, tracked, safe):
    """Hooks committed on main; `bare` (the previous branch) has none; `evil` deletes the
    settings; stash@{1} changes the settings, stash@{0} only README.md; .env holds a token,
    tracked or not."""
    proj = Project(root)
    proj.install()
    proj.write("README.md", "readme\n")
    proj.write("src/app.py", "print(1)\n")
    _git(proj, "init", "-q", "-b", "main")
    _git(proj, "add", "README.md", "src")
    _git(proj, "commit", "-qm", "bare")
    _git(proj, "branch", "bare")
    _git(proj, "add", "-A")
    _git(proj, "commit", "-qm", "hooks")
    _git(proj, "config", "alias.lp", "log -p")
    _git(proj, "checkout", "-qb", "evil")
    _git(proj, "rm", "-q", ".claude/settings.json")
    _git(proj, "commit", "-qm", "no settings")
    _git(proj, "checkout", "-q", "main")
    proj.write(".env", "TOKEN=x\n")
    if tracked:
        _git(proj, "add", "-f", ".env")
        _git(proj, "commit", "-qm", "env")
    _git(proj, "checkout", "-q", "bare")
    _git(proj, "checkout", "-q", "main")
    settings = proj.path(".claude", "settings.json")
    with open(settings) as fh:
        text = fh.read()
    with open(settings, "w") as fh:
        fh.write(text.replace("{", "{ ", 1))
    _git(proj, "stash", "-q")
    proj.write("README.md", "readme 2\n")
    _git(proj, "stash", "-q")
    return ready(proj, "safe" if safe else "normal")


@pytest.fixture(scope="module")
def labs(tmp_path_factory):
    return {
        (lab, mode): _lab(
            str(tmp_path_factory.mktemp("git-%s-%s" % (lab, mode))), lab == "T", mode == "safe"
        )
        for lab in ("T", "U")
        for mode in ("normal", "safe")
    }


@pytest.mark.parametrize(
    "lab,mode,cmd,code", ROWS, ids=["%s-%s:%s" % (r[0], r[1], r[2][:60]) for r in ROWS]
)
def test_git_row(labs, lab, mode, cmd, code):
    cmd = cmd.replace("{T}", labs[("T", "normal")].dir)
    r = pre(labs[(lab, mode)], cmd)
    if code is None:
        assert not r.denied, "false positive: %r [%s %s] -> %r" % (cmd, lab, mode, r.denied)
    else:
        assert r.denied and r.denied.startswith(code), "bypass: %r [%s %s] -> %r" % (
            cmd,
            lab,
            mode,
            r.denied,
        )


def test_secret_message_names_the_way_forward(labs):
    r = labs[("T", "normal")].pre("Bash", {"command": "git grep TOKEN"})
    assert r.denied.startswith(SECRET)
    assert ".env" in r.denied and "':!.env'" in r.denied and "--" in r.denied


def test_blob_id_of_a_tracked_secret(labs):
    proj = labs[("T", "normal")]
    out = subprocess.run(
        ["git", "rev-parse", "HEAD:.env"], cwd=proj.dir, capture_output=True, text=True
    )
    blob = out.stdout.strip()
    for cmd in (
        "git cat-file -p %s" % blob[:7],
        "git cat-file blob %s" % blob,
        "git show %s" % blob[:8],
        "git diff %s %s" % (blob[:8], blob[:9]),
    ):
        r = proj.pre("Bash", {"command": cmd})
        assert r.denied and r.denied.startswith(SECRET) and ".env" in r.denied, (cmd, r.denied)
    other = subprocess.run(
        ["git", "rev-parse", "HEAD:README.md"], cwd=proj.dir, capture_output=True, text=True
    ).stdout.strip()
    r = proj.pre("Bash", {"command": "git cat-file -p %s" % other[:7]})
    assert not r.denied, r.denied


def test_secret_in_a_subdirectory_and_outside_the_cwd(tmp_path):
    """A tracked key under config/ is found from anywhere in the tree; `git grep` from a
    directory that does not hold it searches only there."""
    proj = Project(str(tmp_path))
    proj.install()
    proj.write("config/server.pem", "-----BEGIN PRIVATE KEY-----\n")
    proj.write("src/app.py", "x\n")
    _git(proj, "init", "-q", "-b", "main")
    _git(proj, "add", "-A")
    _git(proj, "commit", "-qm", "x")
    proj.research()
    r = proj.pre("Bash", {"command": "git log -p"})
    assert r.denied and r.denied.startswith(SECRET) and "server.pem" in r.denied, r.denied
    r = proj.pre("Bash", {"command": "cd src && git grep PRIVATE"})
    assert not r.denied, r.denied
    r = proj.pre("Bash", {"command": "cd config && git grep PRIVATE"})
    assert r.denied and r.denied.startswith(SECRET), r.denied
    r = proj.pre("Bash", {"command": "git grep PRIVATE -- ':!config/server.pem'"})
    assert not r.denied, r.denied


def test_revert_of_the_root_commit_takes_its_files(tmp_path):
    """A root commit has no parent to diff against: reverting it removes every file it added,
    the hooks and the settings among them. A later commit that changed only README.md
    reverts freely."""
    proj = Project(str(tmp_path))
    proj.install()
    proj.write("README.md", "readme\n")
    _git(proj, "init", "-q", "-b", "main")
    _git(proj, "add", "-A")
    _git(proj, "commit", "-qm", "all")
    proj.research()
    r = proj.pre("Bash", {"command": "git revert --no-edit HEAD"})
    assert r.denied and r.denied.startswith(SELF), r.denied
    proj.write("README.md", "readme 2\n")
    _git(proj, "commit", "-qam", "readme")
    r = proj.pre("Bash", {"command": "git revert --no-edit HEAD"})
    assert not r.denied, r.denied
    r = proj.pre("Bash", {"command": "git revert --no-edit HEAD~1"})
    assert r.denied and r.denied.startswith(SELF), r.denied
