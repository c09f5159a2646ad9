"""`.claude/active_intents.yaml` (the person's file): parsed with pyyaml's safe loader,
validated with the line of every problem, and cached in the signed state (keyed by path, size,
mtime, inode and ctime) so a hook imports pyyaml only when the file changed. `.intentignore`
is cached the same way.

The schema (the seed's):
    active_intents:
      - id: "INT-001"
        name: "JWT Authentication Migration"
        status: IN_PROGRESS          # DRAFT | IN_PROGRESS | COMPLETED | ARCHIVED
        owned_scope: ["src/auth/**", "src/middleware/jwt.ts"]
        constraints: ["Must not use external auth providers"]
        acceptance_criteria: ["Unit tests in tests/auth/ pass"]
        created_at: "2026-02-18T12:00:00Z"
        updated_at: "2026-02-18T14:30:00Z"
"""

from __future__ import annotations

import os

from core.intents import scope as intents_scope

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from typing import Any

INTENTS_REL = ".claude/active_intents.yaml"
IGNORE_REL = ".claude/.intentignore"
STATUSES = ("DRAFT", "IN_PROGRESS", "COMPLETED", "ARCHIVED")
LIST_FIELDS = ("owned_scope", "constraints", "acceptance_criteria")
MAX_BYTES = 256 * 1024  # a person writes this file; its parse lives in every state write
MAX_INTENTS = 200
MAX_ITEMS = 100
MAX_TEXT = 1000


class Intents:
    """The validated file. `exists` False: no file (the feature is off). `errors`: problems
    (with lines); when there are any, `intents` is empty and the hooks treat the file as broken."""

    __slots__ = ("path", "exists", "intents", "errors")

    def __init__(
        self, path: str, exists: bool, intents: list[dict[str, Any]], errors: list[str]
    ) -> None:
        self.path = path
        self.exists = exists
        self.intents = intents
        self.errors = errors

    def get(self, iid: object) -> dict[str, Any] | None:
        for it in self.intents:
            if it["id"] == iid:
                return it
        return None

    @property
    def active(self) -> list[dict[str, Any]]:
        return [it for it in self.intents if it["status"] == "IN_PROGRESS"]

    @property
    def broken(self) -> bool:
        return self.exists and bool(self.errors)


def _key(st):
    return [st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns]


def load(project: str, cache: dict[str, Any] | None = None) -> Intents:
    """The intents of project. cache: the state's cache['yaml'] dict (mutated on change)."""
    path = os.path.join(project, ".claude", "active_intents.yaml")
    cache = {} if cache is None else cache
    try:
        st = os.stat(path)
    except OSError:
        cache.pop(path, None)
        return Intents(path, False, [], [])
    key = _key(st)
    hit = cache.get(path)
    if isinstance(hit, dict) and hit.get("key") == key and "intents" in hit:
        return Intents(path, True, hit["intents"] or [], hit.get("errors") or [])
    intents, errors = parse_file(path, project, st.st_size)
    if errors:
        intents = []
    if not (errors and NO_YAML in errors[0]):  # installing pyyaml must not wait for an edit
        cache[path] = {"key": key, "intents": intents, "errors": errors[:20]}
    return Intents(path, True, intents, errors[:20])


def parse_file(
    path: str, project: str, size: int | None = None
) -> tuple[list[dict[str, Any]], list[str]]:
    if size is not None and size > MAX_BYTES:
        return [], [
            "%s: %d bytes is too large for an intents file (limit %d)"
            % (INTENTS_REL, size, MAX_BYTES)
        ]
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        return [], ["%s: cannot read it (%s)" % (INTENTS_REL, exc.__class__.__name__)]
    return parse_text(raw.decode("utf-8", "replace"), project)


NO_YAML = "pyyaml is not installed"


def parse_text(text: str, project: str) -> tuple[list[dict[str, Any]], list[str]]:
    """(intents, errors). Every error names the line and the problem."""
    try:
        from core.launch import optional

        yaml = optional("yaml")
    except ImportError:
        return [], [
            "%s: %s, so the intents cannot be read (pip install pyyaml)" % (INTENTS_REL, NO_YAML)
        ]
    loader = None
    try:
        loader = yaml.SafeLoader(text)
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as exc:
        ctx_mark = getattr(exc, "context_mark", None)
        mark = getattr(exc, "problem_mark", None)
        what = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        if getattr(exc, "context", None):
            what = "%s: %s" % (exc.context, what)
        first = ctx_mark or mark
        where = " line %d" % (first.line + 1) if first is not None else ""
        if ctx_mark is not None and mark is not None and mark.line != ctx_mark.line:
            what += " at line %d" % (mark.line + 1)
        return [], ["%s%s: not valid YAML (%s)" % (INTENTS_REL, where, what)]
    except Exception as exc:  # the loader on hostile input (recursion, bad tags)
        return [], ["%s: cannot be parsed as YAML (%s)" % (INTENTS_REL, exc.__class__.__name__)]
    finally:
        if loader is not None:
            loader.dispose()
    return validate(data, node, project)


def _line(node, *path):
    """1-based line of the node at path (mapping keys / sequence indexes), best effort."""
    cur = node
    for step in path:
        nxt = None
        if cur is None:
            break
        if isinstance(step, int) and cur.id == "sequence":
            if 0 <= step < len(cur.value):
                nxt = cur.value[step]
        elif cur.id == "mapping":
            for k, v in cur.value:
                if getattr(k, "value", None) == step:
                    nxt = v
        if nxt is None:
            break
        cur = nxt
    return cur.start_mark.line + 1 if cur is not None else 1


def _text(v):
    if isinstance(v, str):
        return v[:MAX_TEXT]
    if v is None:
        return None
    return str(v)[:MAX_TEXT]  # dates and numbers the YAML loader produced


def validate(data: object, node: Any, project: str) -> tuple[list[dict[str, Any]], list[str]]:
    where = INTENTS_REL
    if data is None:
        return [], []
    if not isinstance(data, dict):
        return [], [
            "%s line %d: the top level must be a mapping with `active_intents:`"
            % (where, _line(node))
        ]
    items = data.get("active_intents")
    if items is None:
        return [], [] if not data else [
            "%s line %d: no `active_intents:` list (found: %s)"
            % (where, _line(node), ", ".join(map(str, list(data)[:5])))
        ]
    if not isinstance(items, list):
        return [], [
            "%s line %d: `active_intents` must be a list of intents"
            % (where, _line(node, "active_intents"))
        ]
    errors: list[str] = []
    out: list[dict[str, Any]] = []
    seen: dict[str, Any] = {}
    for i, it in enumerate(items[:MAX_INTENTS]):
        line = _line(node, "active_intents", i)
        if not isinstance(it, dict):
            errors.append(
                "%s line %d: intent #%d must be a mapping (id, name, status, "
                "owned_scope, ...)" % (where, line, i + 1)
            )
            continue
        iid = it.get("id")
        if not isinstance(iid, str) or not iid.strip():
            errors.append(
                '%s line %d: intent #%d needs an `id` string (quote ids like "001")'
                % (where, _line(node, "active_intents", i, "id") if "id" in it else line, i + 1)
            )
            continue
        iid = iid.strip()
        label = "intent %r" % iid
        if any(c.isspace() for c in iid) or len(iid) > 100:
            errors.append(
                "%s line %d: %s: an id is one word of at most 100 characters"
                % (where, _line(node, "active_intents", i, "id"), label)
            )
        if iid in seen:
            errors.append(
                "%s line %d: %s: duplicate id (first defined on line %d)"
                % (where, _line(node, "active_intents", i, "id"), label, seen[iid])
            )
            continue
        seen[iid] = _line(node, "active_intents", i, "id")
        status = it.get("status")
        norm = status.strip().upper() if isinstance(status, str) else None
        if norm not in STATUSES:
            errors.append(
                "%s line %d: %s: unknown status %r (one of %s)"
                % (
                    where,
                    _line(node, "active_intents", i, "status") if "status" in it else line,
                    label,
                    status,
                    " | ".join(STATUSES),
                )
            )
        entry: dict[str, Any] = {"id": iid, "name": _text(it.get("name")) or iid, "status": norm}
        for field in LIST_FIELDS:
            v = it.get(field)
            fl = _line(node, "active_intents", i, field) if field in it else line
            if v is None:
                entry[field] = []
                continue
            if not isinstance(v, list):
                errors.append("%s line %d: %s: `%s` must be a list" % (where, fl, label, field))
                entry[field] = []
                continue
            vals = []
            for j, x in enumerate(v[:MAX_ITEMS]):
                if not isinstance(x, (str, int, float)) or isinstance(x, bool) or x == "":
                    errors.append(
                        "%s line %d: %s: `%s` item %d must be a non-empty string"
                        % (where, _line(node, "active_intents", i, field, j), label, field, j + 1)
                    )
                    continue
                vals.append(_text(x))
            entry[field] = vals
        scope = []
        for j, pat in enumerate(entry["owned_scope"]):
            norm_pat, problem = intents_scope.normalise_pattern(pat, project)
            if problem:
                errors.append(
                    "%s line %d: %s: owned_scope %s"
                    % (where, _line(node, "active_intents", i, "owned_scope", j), label, problem)
                )
            else:
                scope.append(norm_pat)
        entry["scope"] = scope
        for field in ("created_at", "updated_at"):
            entry[field] = _text(it.get(field))
        out.append(entry)
    if len(items) > MAX_INTENTS:
        errors.append("%s: %d intents; at most %d are read" % (where, len(items), MAX_INTENTS))
    return out, errors


def load_ignore(project: str, cache: dict[str, Any] | None = None) -> list[Any]:
    """The parsed `.claude/.intentignore` rules (cached like the intents)."""
    path = os.path.join(project, ".claude", ".intentignore")
    cache = {} if cache is None else cache
    try:
        st = os.stat(path)
    except OSError:
        cache.pop(path, None)
        return []
    key = _key(st)
    hit = cache.get(path)
    if isinstance(hit, dict) and hit.get("key") == key and "rules" in hit:
        return hit["rules"] or []
    try:
        with open(path, "rb") as fh:
            text = fh.read(256 * 1024).decode("utf-8", "replace")
    except OSError:
        text = ""
    rules = intents_scope.parse_ignore(text)
    cache[path] = {"key": key, "rules": rules}
    return rules
