import json
import subprocess

from conftest import Project


def test_fph(tmp_path_factory):
    d = json.load(open("/tmp/redteam/fp_h.txt.json"))
    labs = {}
    for mode in ("N", "S"):
        proj = Project(str(tmp_path_factory.mktemp("fph-" + mode)))
        proj.install()
        subprocess.run(["git", "init", "-q", proj.dir], check=True)
        proj.write("README.md", "readme\n")
        proj.research()
        if mode == "S":
            proj.prompt("s+")
        labs[mode] = proj
    bad = []
    for o in d:
        for mode, key, was in (("N", "exp_n", "normal"), ("S", "exp_s", "safe")):
            if o[key] != "a":
                continue
            proj = labs[mode]
            proj.prompt("rb-")
            r = proj.pre("Bash", {"command": o["cmd"]})
            if r.denied and o[was]["dec"] == "allow":
                bad.append((mode, o["cmd"][:80], r.denied[:100]))
    with open("/tmp/rtenv/fph.out", "w") as fh:
        for b in bad:
            fh.write("%s | %s | %s\n" % b)
    assert not bad, len(bad)
