"""What a container CLI (docker, podman, nerdctl) lets code the hooks never see write on this
machine: a bind mount of a host directory into `run`/`create` (writable unless `:ro`), a
build's exported output (`build -o DIR`), a `cp` from a container. The words after the image
run inside the container: they are not host paths."""

from __future__ import annotations

CLIS = frozenset(("docker", "podman", "nerdctl"))
# global options that take a value (docker -H host run ...)
_GLOBAL_VALUED = frozenset(
    "-H --host --context -c --config -l --log-level --url --connection --root --runroot "
    "--storage-driver --cgroup-manager --namespace -n --address -a "
    # compose's own, before its verb
    "-f --file -p --project-name --project-directory --env-file --profile --ansi --progress "
    "--parallel".split()
)
# run/create options that take no value; any other option takes one (default-deny: an
# option we do not know must not make the hooks take its value for the image)
_RUN_FLAGS = frozenset(
    "-d --detach -i --interactive -t --tty --rm --privileged --init -P --publish-all "
    "--read-only --no-healthcheck --oom-kill-disable --sig-proxy -q --quiet "
    "--disable-content-trust --help --replace --read-only-tmpfs --no-hosts --http-proxy "
    "--rootfs --tls-verify --env-host --use-tty".split()
)
_SHORT_FLAGS = "dtiPq"


def verb(a: list[str]) -> tuple[list[str], int]:
    """(verb words, index after them): `run`, `container run`, `compose run`, `buildx
    build`, after the global options."""
    i = 0
    words: list[str] = []
    while i < len(a) and len(words) < 2:
        w = a[i]
        if w[:1] == "-" and len(w) > 1:
            if words and words[0] != "compose":
                break  # an option of the verb: no second verb word
            i += 2 if "=" not in w and w in _GLOBAL_VALUED else 1
            continue
        words.append(w.lower())
        i += 1
        if words[0] not in ("container", "compose", "buildx", "builder", "image", "service", "pod"):
            break
    return words, i


def run_options(a: list[str]) -> tuple[list[str], int] | None:
    """For `run`/`create`/`exec` (also `container run`, `compose run`, `service create`,
    `service update`, `pod create`): (the option words, the index of the image, service or
    container), else None."""
    words, i = verb(a)
    if not words or words[-1] not in ("run", "create", "exec", "update"):
        return None
    start = i
    while i < len(a):
        w = a[i]
        if w == "--":
            return a[start:i], i + 1
        if w[:2] == "--":
            i += 1 if "=" in w or w in _RUN_FLAGS else 2
            continue
        if w[:1] == "-" and len(w) > 1:
            rest = w[1:]
            while rest and rest[0] in _SHORT_FLAGS:
                rest = rest[1:]
            i += 2 if rest and len(rest) == 1 else 1  # -itv VAL: -v takes the next word
            continue
        return a[start:i], i
    return a[start:], len(a)


def _mount_field(spec: str) -> tuple[str, bool] | None:
    """--mount type=bind,src=X,dst=Y[,readonly]: (host path, writable), None for volumes."""
    kind, src, writable = "", "", True
    for part in spec.split(","):
        k, eq, v = part.partition("=")
        k = k.strip().lower()
        if k == "type":
            kind = v.lower()
        elif k in ("src", "source"):
            src = v
        elif k in ("ro", "readonly") and (not eq or v.lower() in ("1", "true")):
            writable = False
    if kind in ("volume", "tmpfs", "image", "npipe", "cluster") or not src:
        return None
    if not kind and not _hostlike(src):
        return None
    return src, writable


def _hostlike(src: str) -> bool:
    """A host path, not a named volume: `/x`, `.`, `./x`, `~/x`, `$X/...`."""
    return src[:1] in ("/", ".", "~", "$", "`")


def mounts(a: list[str]) -> list[tuple[str, bool]]:
    """(host path, writable) for every bind mount of a run/create."""
    found = run_options(a)
    if found is None:
        return []
    opts = found[0]
    out = []
    i = 0
    while i < len(opts):
        w = opts[i]
        name, eq, val = w.partition("=")
        if w[:2] != "--" and w[:1] == "-":
            rest = w[1:].lstrip(_SHORT_FLAGS)  # -itv SRC:DST, -v.:/w
            val = rest[1:] or (opts[i + 1] if i + 1 < len(opts) else "")
            name, val = "-" + rest[:1], val[1:] if rest[1:2] == "=" else val  # -v=SRC:DST
        elif not eq and i + 1 < len(opts):
            val = opts[i + 1]
        if name in ("-v", "--volume"):
            src, sep, rest = val.partition(":")
            if sep and _hostlike(src):
                flags = rest.partition(":")[2].lower().split(",")
                out.append((src, "ro" not in flags and "readonly" not in flags))
        elif name in ("--mount", "--mount-add"):  # service create / update
            m = _mount_field(val)
            if m:
                out.append(m)
        i += 1
    return out


def _build_options(a: list[str], wanted) -> list[tuple[str, str]]:
    """(name, value) of each option of `docker build` whose name `wanted` accepts, its value
    joined (`--x=v`, `-ov`) or the next word; nothing for any other verb."""
    words, i = verb(a)
    if not words or words[-1] != "build":
        return []
    out = []
    rest = a[i:]
    for k, w in enumerate(rest):
        name, eq, val = w.partition("=")
        if w[:2] == "-o" and len(w) > 2:
            name, val, eq = "-o", w[2:], "="
        if not wanted(name):
            continue
        if not eq:
            val = rest[k + 1] if k + 1 < len(rest) else ""
        out.append((name, val))
    return out


def _is_output(name: str) -> bool:
    return name in ("-o", "--output") or name[:3] == "--o" and "--output".startswith(name)


def outputs(a: list[str]) -> list[str]:
    """Local directories or files a build exports to: `-o DIR`, `--output type=local,dest=DIR`
    (tar: a file), not an image or a registry."""
    out = []
    for _, val in _build_options(a, _is_output):
        if "=" not in val:
            if val and val != "-":
                out.append(val)
            continue
        fields = dict(p.partition("=")[::2] for p in val.split(","))
        dest = fields.get("dest") or fields.get("destination") or ""
        if dest and dest != "-" and fields.get("type", "local") in ("local", "tar", "oci", ""):
            out.append(dest)
    return out


def build_reads(a: list[str]) -> list[str]:
    """Host files a build hands to the Dockerfile's steps: `--secret id=x,src=FILE` (env= a
    variable), `--ssh default=KEY`, `--secret-file`: the build may print them."""
    out = []
    for name, val in _build_options(a, ("--secret", "--ssh").__contains__):
        for field in val.split(","):
            key, has_eq, path = field.partition("=")
            if name == "--ssh" and has_eq and key != "id" or key in ("src", "source"):
                out.extend(path.split(","))
    return out


def config_dir(a: list[str]) -> bool:
    """`docker --config DIR`: its config.json names credential helpers and proxies the
    CLI runs (the person's own config is theirs; one the command points at is not)."""
    words, i = verb(a)
    return any(w.partition("=")[0] == "--config" for w in a[:i])


# options of `cp` / `rsync` out of a container or pod that take a value
_COPY_VALUED = frozenset("-c --container -n --namespace --retries --context -e --exclude".split())


def copies(a: list[str], prog: str = "docker") -> list[tuple[str, str]]:
    """`cp CONTAINER:SRC DEST` (docker, podman, kubectl, oc; oc rsync): (SRC, DEST) for a
    copy out of a container or pod. kubectl puts a directory's contents at DEST itself:
    its SRC comes back as `SRC/.`."""
    words, i = verb(a)
    if not words or words[-1] not in ("cp", "rsync") or words[-1] == "rsync" and prog != "oc":
        return []
    ops = []
    skip = False
    for w in a[i:]:
        if skip:
            skip = False
        elif w[:1] != "-" or w == "-":
            ops.append(w)
        else:
            skip = "=" not in w and w in _COPY_VALUED
    if len(ops) != 2 or ops[1] == "-":
        return []
    head, colon, src = ops[0].partition(":")
    if not colon or not head or ":" in ops[1].split("/", 1)[0]:
        return []
    if "/" in head and prog not in ("kubectl", "oc"):
        return []  # ns/pod:/x names a pod of a namespace
    if (
        prog in ("kubectl", "oc")
        and words[-1] == "cp"
        or src.endswith("/")
        and words[-1] == "rsync"
    ):
        src = src.rstrip("/") + "/."  # the directory's contents land in DEST itself
    return [(src, ops[1])]


# `compose config` options that print names only, or nothing
_CONFIG_NAMES = frozenset(
    "-q --quiet --services --volumes --profiles --images --networks --hash --no-interpolate".split()
)


def compose_prints(prog: str, a: list[str]) -> tuple[list[str], list[str]]:
    """`docker compose config` (`convert`, `docker-compose config`) prints the model with the
    variables of the project's .env and every env_file resolved: the directories whose files
    it reads (the project directory) and the env files it names; nothing when it does not
    print them."""
    words, i = verb(a)
    if prog.endswith("-compose"):
        words = ["compose"] + words[:1]
    if words[:2] not in (["compose", "config"], ["compose", "convert"]):
        return [], []
    if any(w.split("=", 1)[0] in _CONFIG_NAMES for w in a[i:]):
        return [], []
    out: list[str] = []
    files: list[str] = []
    for k, w in enumerate(a):
        name, eq, val = w.partition("=")
        val = val if eq else (a[k + 1] if k + 1 < len(a) else "")
        if name == "--project-directory":
            out.append(val)
        elif name in ("-f", "--file") and val and val != "-":
            out.append(val.rsplit("/", 1)[0] if "/" in val else ".")
        elif name == "--env-file":
            files.append(val)
    return out or ["."], files


# compose verbs that create containers from the file's services (their volumes mounted)
_COMPOSE_STARTS = frozenset(("up", "run", "create", "watch"))
_COMPOSE_FILES = ("compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml")
_COMPOSE_OVERRIDES = (
    "compose.override.yaml",
    "compose.override.yml",
    "docker-compose.override.yml",
    "docker-compose.override.yaml",
)
COMPOSE_LIMIT = 256 * 1024


def compose_mounts(prog: str, a: list[str], cwd: str) -> list[tuple[str, bool]]:
    """`docker compose up/run/create`: (host path, writable) for the bind mounts its compose
    files give the services (`- ./:/app`, `source: .`), paths taken from each file's
    directory. A file too big or unreadable gives ("?", True): mounts not seen."""
    import os

    words, i = verb(a)
    if prog.endswith("-compose"):
        words = ["compose"] + words[:1]
    if words[:1] != ["compose"] or words[1:2] and words[1] not in _COMPOSE_STARTS:
        return []
    if len(words) < 2:
        return []
    files, base = [], cwd
    for k, w in enumerate(a[:i]):
        name, eq, val = w.partition("=")
        val = val if eq else (a[k + 1] if k + 1 < len(a) else "")
        if name in ("-f", "--file"):
            files.append(val)
        elif name == "--project-directory":
            base = os.path.join(cwd, val)
    if not files:
        # compose looks in the directory, then in each parent until it finds one
        for start in dict.fromkeys((os.path.normpath(base), os.path.normpath(cwd))):
            d = start
            for _ in range(64):
                found = [f for f in _COMPOSE_FILES if os.path.isfile(os.path.join(d, f))][:1]
                if found:
                    found += [f for f in _COMPOSE_OVERRIDES if os.path.isfile(os.path.join(d, f))][
                        :1
                    ]
                    files += [os.path.join(d, f) for f in found]
                    break
                if os.path.dirname(d) == d:
                    break
                d = os.path.dirname(d)
    out: list[tuple[str, bool]] = []
    for f in files[:8]:
        path = os.path.join(cwd, f)
        try:
            if os.path.getsize(path) > COMPOSE_LIMIT:
                return [("?", True)]
            with open(path, encoding="utf-8", errors="replace") as fh:
                text = fh.read(COMPOSE_LIMIT)
        except OSError:
            if f == "-" or os.path.exists(path):
                return [("?", True)]  # stdin or unreadable: what it mounts is not seen
            continue  # no such file: compose fails
        here = os.path.dirname(path)
        out.extend(
            (src if src[:1] in ("/", "$", "~") else os.path.join(here, src), w)
            for src, w in _compose_binds(text, cwd)
        )
    return out


def _compose_binds(text: str, cwd: str) -> list[tuple[str, bool]]:
    """Bind mounts in compose text: short items `- SRC:DST[:ro]` and long ones `source:`
    (read_only: true in the same item makes it read-only)."""
    lines = text.splitlines()[:20000]
    out = []
    for n, line in enumerate(lines):
        body = line.strip()
        if body[:1] == "-":
            item = body[1:].strip().strip("'\"")
            src, sep, rest = item.partition(":")
            if sep and _hostlike(src.replace("${PWD}", cwd).replace("$PWD", cwd)):
                flags = rest.partition(":")[2].lower().split(",")
                out.append((src, "ro" not in flags and "readonly" not in flags))
        elif body.startswith("source:"):
            src = body[7:].strip().strip("'\"")
            if _hostlike(src):
                near = " ".join(x.strip() for x in lines[max(0, n - 4) : n + 5])
                out.append((src, "read_only: true" not in near))
    return [(s.replace("${PWD}", cwd).replace("$PWD", cwd), w) for s, w in out]


def is_cli(prog: str) -> bool:
    """docker, podman, nerdctl and their compose front ends."""
    return prog in CLIS or prog.endswith("-compose")
