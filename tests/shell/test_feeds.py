"""A reader fed the names a plain `ls` lists reads the non-dot files only: `ls | xargs wc -l`
in a project with a .env is ordinary work, while a listed secret (*.pem) or `ls -a` is not."""

import pytest


@pytest.fixture
def lab(proj):
    proj.research()
    proj.write(".env", "TOKEN=x\n")
    proj.write("a.txt", "a\n")
    return proj


@pytest.mark.parametrize("cmd", ["ls | xargs wc -l", "ls | xargs cat", "ls src | xargs cat"])
def test_plain_ls_feeds_no_dot_files(lab, cmd):
    lab.write("src/m.py", "x = 1\n")
    assert lab.pre("Bash", {"command": cmd}).denied is None


@pytest.mark.parametrize(
    "cmd", ["ls -a | xargs cat", "ls -A | xargs head -n1", "ls -R | xargs cat"]
)
def test_listings_with_dot_files_or_subtrees_are_judged(lab, cmd):
    lab.write("sub/.env", "X=1\n")
    r = lab.pre("Bash", {"command": cmd})
    assert r.denied and r.denied.startswith("[blocked-path]") and ".env" in r.denied, r.denied


def test_a_listed_secret_is_read(lab):
    lab.write("server.pem", "-----BEGIN PRIVATE KEY-----\n")
    r = lab.pre("Bash", {"command": "ls | xargs cat"})
    assert r.denied and r.denied.startswith("[blocked-path]") and "server.pem" in r.denied
