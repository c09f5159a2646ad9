"""The blocked-path rules are normalised once per hook call (core/pathrules.py), not once per
path; the answers are the same as matching every rule afresh for every path (the reference
below is that older way), whatever the order of the rules, their case, globs and the home."""

from __future__ import annotations

import os
import random

from core import config, pathrules, paths
from core.globs import fnmatchcase


def reference_rule(path, cwd, cfg, home):
    """blocked_rule as it was: every rule normalised and glob-matched for every path (hard
    links aside)."""

    def glob(name, pat):
        return fnmatchcase(paths._fold(name), paths._fold(pat))

    allow = cfg.list("paths.blocked_allow")
    for p in paths.forms(path, cwd, home):
        base = os.path.basename(p)
        parts = p.split("/")
        for pat in cfg.list("paths.blocked"):
            if not isinstance(pat, str) or not pat:
                continue
            if pat.startswith("~/") or pat.startswith("/"):
                root = paths.normalise(pat, "/", home)
                if any(ch in root for ch in "*?["):
                    if glob(p, root) or glob(p, root + "/*"):
                        return pat
                elif paths.is_under(p, root):
                    return pat
                continue
            for part in parts:
                if not part or not glob(part, pat):
                    continue
                if part == base and any(glob(base, a) for a in allow):
                    continue
                return pat
        if paths._fold(p) == paths._fold(os.path.join(paths._config_dir(), "secret")):
            return "the hook secret"
    return None


def cfg_with(tmp_path, blocked, allow=None):
    cfg = config.load(str(tmp_path))
    cfg.data["paths"]["blocked"] = blocked
    if allow is not None:
        cfg.data["paths"]["blocked_allow"] = allow
    return cfg


NAMES = ["a", "b.txt", ".env", ".env.local", ".env.example", "id_rsa", "id_rsa.pub", "x.pem",
         "secrets", "secrets.yml", "my.secret", "k[1]", "shadow-", "f?", "credentials",
         "Key.PEM", "s", "ab", "abab", "a.b.c"]  # fmt: skip
RULES = ["~/.ssh", "/etc/shadow*", "/etc/ssh/ssh_host_*_key", "/proc/*/environ", ".env",
         ".env.*", "*.pem", "id_rsa*", "secrets", "secrets.*", "*.secret", "k[0-9]*", "a*b",
         "?b", "a?", "[!x]b", "/", "/srv/data", "/srv/*/k?y", "ab*ab", "*.[ch]", "~/x*",
         "credentials", "d1", "/etc/ssh"]  # fmt: skip
DIRS = ["/etc", "/etc/ssh", "/proc/1", "/srv/data", "/srv/q", "{h}", "{h}/.ssh", "{h}/x1",
        "{p}", "{p}/d1", "{p}/sub/.ssh", "rel", "rel/../up", "/srv/data/../x"]  # fmt: skip


def test_the_same_rule_as_matching_every_rule_for_every_path(tmp_path):
    home = str(tmp_path / "home")
    proj = str(tmp_path / "proj")
    rnd = random.Random(7)
    checked = hits = 0
    for round_ in range(40):
        blocked = rnd.sample(RULES, rnd.randint(1, 12))
        if "/" in blocked and rnd.random() < 0.7:
            blocked.remove("/")
        allow = rnd.sample(["*.example", "*.pub", ".env.example", "a?", "secrets.*"], 2)
        cfg = cfg_with(tmp_path, blocked, allow)
        for _ in range(60):
            d = rnd.choice(DIRS).replace("{h}", home).replace("{p}", proj)
            path = d + "/" + rnd.choice(NAMES)
            if rnd.random() < 0.2:
                path = path.replace("/", "//", 1)
            cwd = rnd.choice([proj, "/", home])
            want = reference_rule(path, cwd, cfg, home)
            assert paths.blocked_rule(path, cwd, cfg, home) == want, (blocked, allow, path, cwd)
            checked += 1
            hits += want is not None
    assert checked == 2400 and 300 < hits < 2100  # both answers well represented


def test_a_changed_rule_list_or_home_is_not_answered_from_the_cache(tmp_path):
    home = str(tmp_path / "h")
    cfg = cfg_with(tmp_path, ["~/.ssh"])
    assert paths.blocked_rule(home + "/.ssh/k", "/", cfg, home) == "~/.ssh"
    assert paths.blocked_rule(home + "/.ssh/k", "/", cfg, str(tmp_path / "other")) is None
    cfg.data["paths"]["blocked"] = ["*.key"]
    assert paths.blocked_rule(home + "/.ssh/k", "/", cfg, home) is None
    assert paths.blocked_rule("/x/a.key", "/", cfg, home) == "*.key"
    assert len(pathrules._RULES) <= 17


def test_protected_extra_is_read_once_and_still_matched(tmp_path):
    proj = str(tmp_path / "p")
    cfg = cfg_with(tmp_path, [])
    cfg.data["paths"]["protected_extra"] = ["docs/keep", "*.lock"]
    home = str(tmp_path / "h")
    assert paths.protected_rule("docs/keep/a.md", proj, proj, cfg, home) == "docs/keep"
    assert paths.protected_rule(proj + "/x.lock", proj, proj, cfg, home) == "*.lock"
    assert paths.protected_rule("docs/other.md", proj, proj, cfg, home) is None
    cfg.data["paths"]["protected_extra"] = []
    assert paths.protected_rule("docs/keep/a.md", proj, proj, cfg, home) is None
