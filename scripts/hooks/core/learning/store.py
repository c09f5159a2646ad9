"""Where learnings live: the markdown backend (`.claude/learnings.md`, and the personal file
in the user's config dir), Total Recall's daily logs, and the routing by scope between them.

Markdown format (documented in the README, parses back losslessly):

    ## learn-01J9Z6Q8W2X4Y5Z6A7B8C9D0EF: One-line summary

    - category: pitfall
    - status: active
    - scope: project
    - confidence: medium
    - criteria: behavior_changing, stable_fact
    - tags: auth, middleware
    - files: src/auth.py
    - session: 7f3c9e2a-...
    - ticket: bd-12
    - created: 2025-01-15T14:32:05Z
    - schema: 1

    > The detail, every line quoted.

A scalar value is written as is unless it is empty, has a newline, surrounding blanks or
starts with `"` or `[`: then it is a JSON string. A list is `a, b` unless an item needs
quoting or has a comma: then it is a JSON array. Unknown `- key: value` lines are kept.
"""

import json
import os
import time

from core.learning.schema import iso, one_line, parse_iso

MARKDOWN = os.path.join(".claude", "learnings.md")
MD_HEADER = (
    "# Learnings\n\n<!-- Written by `sane.py learn` (sane-hooks). One `## learn-...` "
    'section per learning; format: README, "Learnings file format". -->\n'
)
PERSONAL_HEADER = (
    "# Personal learnings\n\n<!-- Written by `sane.py learn` (sane-hooks): "
    "personal-scope learnings, outside every project. -->\n"
)
FIELDS = (
    ("category", "category"),
    ("status", "status"),
    ("scope", "scope"),
    ("confidence", "confidence"),
    ("criteria", "criteria_met"),
    ("tags", "tags"),
    ("files", "context_files"),
    ("session", "session"),
    ("ticket", "ticket"),
    ("created", "created"),
    ("updated", "updated"),
    ("supersedes", "supersedes"),
    ("superseded_by", "superseded_by"),
    ("schema", "schema"),
)
KEY_OF = {k: f for k, f in FIELDS}
LIST_FIELDS = frozenset(("criteria_met", "tags", "context_files"))
TIME_FIELDS = frozenset(("created", "updated"))
TR_DAYS = 14
ENTRY = b"\n## learn-"


def personal_path():
    from core.state import config_dir

    return os.path.join(config_dir(), "personal-learnings.md")


def markdown_path(project):
    return os.path.join(project, MARKDOWN)


# ---------------------------------------------------------------- markdown format


def _needs_json(s):
    return not s or s != s.strip() or "\n" in s or s[0] in '"['


def _enc(value):
    if isinstance(value, list):
        items = [str(x) for x in value]
        if any(_needs_json(x) or "," in x for x in items):
            return json.dumps(items, ensure_ascii=False)
        return ", ".join(items)
    s = str(value)
    return json.dumps(s, ensure_ascii=False) if _needs_json(s) else s


def _dec(field, text):
    if field in LIST_FIELDS:
        if text.startswith("["):
            try:
                v = json.loads(text)
                return [str(x) for x in v] if isinstance(v, list) else [text]
            except ValueError:
                return [text]
        return [x.strip() for x in text.split(",") if x.strip()]
    if text.startswith('"'):
        try:
            v = json.loads(text)
            text = v if isinstance(v, str) else text
        except ValueError:
            pass
    if field in TIME_FIELDS:
        return parse_iso(text)
    if field == "schema":
        try:
            return int(text)
        except ValueError:
            return text
    return text


def render_md(rec):
    lines = ["## %s: %s" % (rec["id"], one_line(rec.get("summary") or "")), ""]
    for key, field in FIELDS:
        value = rec.get(field)
        if value is None or value == [] or value == "":
            continue
        if field in TIME_FIELDS:
            value = iso(value)
        lines.append("- %s: %s" % (key, _enc(value)))
    for key, value in (rec.get("extra") or {}).items():
        lines.append("- %s: %s" % (key, _enc(value)))
    lines.append("")
    for dl in (rec.get("detail") or "").split("\n"):
        lines.append("> " + dl if dl else ">")
    lines.append("")
    return "\n".join(lines) + "\n"


def parse_entry(text):
    """One entry's text (starting at `learn-` or `## learn-`) -> record dict, or None."""
    if text.startswith("## "):
        text = text[3:]
    lines = text.split("\n")
    head = lines[0]
    lid, sep, summary = head.partition(": ")
    if not sep or not lid.startswith("learn-") or " " in lid:
        return None
    rec = {"id": lid, "summary": summary.rstrip(), "detail": ""}
    detail = []
    extra = None
    for line in lines[1:]:
        if line.startswith(">"):
            detail.append(line[2:] if line.startswith("> ") else line[1:])
        elif line.startswith("- ") and ": " in line:
            key, _, value = line[2:].partition(": ")
            field = KEY_OF.get(key)
            if field is None:
                extra = extra or {}
                extra[key] = value
            else:
                rec[field] = _dec(field, value)
        elif line.startswith("- ") and line.endswith(":"):
            field = KEY_OF.get(line[2:-1])
            if field:
                rec[field] = [] if field in LIST_FIELDS else ""
    rec["detail"] = "\n".join(detail).strip("\n")
    if extra:
        rec["extra"] = extra
    for field in LIST_FIELDS:
        rec.setdefault(field, [])
    rec.setdefault("status", "active")
    return rec


def split_md(data):
    """(header bytes, [(offset, entry bytes)]) of a markdown learnings file."""
    if data.startswith(b"## learn-"):
        data_ = b"\n" + data
        shift = -1
    else:
        data_, shift = data, 0
    parts = []
    pos = data_.find(ENTRY)
    header = data_[: pos if pos >= 0 else len(data_)]
    while pos >= 0:
        nxt = data_.find(ENTRY, pos + 1)
        end = nxt if nxt >= 0 else len(data_)
        parts.append((pos + 1 + shift, data_[pos + 1 : end]))
        pos = nxt
    return header[1:] if shift else header, parts


def parse_md(data):
    """[(record, offset, length)] of a markdown learnings file's bytes."""
    out = []
    for off, chunk in split_md(data)[1]:
        rec = parse_entry(chunk.decode("utf-8", "replace"))
        if rec is not None:
            out.append((rec, off, len(chunk)))
    return out


INDEX_KEYS = frozenset(("category", "status", "tags", "files", "created"))


def scan_md(data):
    """What the retrieval index needs of each entry (id, summary, category, status, tags,
    files, created), reading only the lines above the detail: [(record, offset, length)]."""
    out = []
    for off, chunk in split_md(data)[1]:
        end = chunk.find(b"\n>")
        lines = (chunk if end < 0 else chunk[:end]).decode("utf-8", "replace").split("\n")
        lid, sep, summary = lines[0][3:].partition(": ")
        if not sep or not lid.startswith("learn-") or " " in lid:
            continue
        rec = {"id": lid, "summary": summary.rstrip()}
        for line in lines[1:]:
            if line.startswith("- "):
                key, sep, value = line[2:].partition(": ")
                if sep and key in INDEX_KEYS:
                    field = KEY_OF[key]
                    rec[field] = _dec(field, value)
        out.append((rec, off, len(chunk)))
    return out


def read_entry(path, offset, length):
    """One entry, re-read from its file by offset (retrieval needs no more than that)."""
    try:
        with open(path, "rb") as fh:
            fh.seek(offset)
            chunk = fh.read(length)
    except OSError:
        return None
    text = chunk.decode("utf-8", "replace")
    if text.startswith("## learn-"):
        return parse_entry(text)
    if text.startswith("[") and "(sane:learn-" in text:
        recs = parse_tr(text, None)
        return recs[0][0] if recs else None
    return None


def _atomic(path, data):
    d = os.path.dirname(path)
    os.makedirs(d, exist_ok=True)
    tmp = "%s.%d.tmp" % (path, os.getpid())
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def append_md(path, recs, header=MD_HEADER):
    """Append records in one write (a batch is never half-written). Raises OSError."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    body = "".join("\n" + render_md(r) for r in recs).encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        if os.fstat(fd).st_size == 0:
            body = header.encode("utf-8") + body
        os.write(fd, body)
    finally:
        os.close(fd)


def rewrite_md(path, changes):
    """Apply {id: {field: value}} to a markdown file's entries; returns the ids changed."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        return set()
    header, parts = split_md(data)
    out, done = [header], set()
    for _, chunk in parts:
        text = chunk.decode("utf-8", "replace")
        rec = parse_entry(text)
        if rec is not None and rec["id"] in changes:
            rec.update(changes[rec["id"]])
            text = render_md(rec)
            done.add(rec["id"])
            out.append(("\n" + text).encode("utf-8"))
        else:
            out.append(b"\n" + chunk if not chunk.startswith(b"\n") else chunk)
    if done:
        _atomic(path, b"".join(out))
    return done


# ---------------------------------------------------------------- Total Recall


def total_recall_detected(project):
    return os.path.isdir(os.path.join(project, "memory")) and (
        os.path.isfile(os.path.join(project, "rules", "total-recall.md"))
        or os.path.isfile(os.path.join(project, ".claude", "rules", "total-recall.md"))
    )


def backend_of(project, cfg):
    """'total-recall' or 'markdown' (learning.backend: auto | total-recall | markdown)."""
    want = cfg.text("learning.backend").lower()
    if want == "markdown":
        return "markdown"
    if want == "total-recall":
        return "total-recall"
    return "total-recall" if total_recall_detected(project) else "markdown"


def render_tr(rec):
    """The seed's daily-log entry, with the `sane:` id prefix."""
    t = time.localtime(rec.get("created") or time.time())
    lines = [
        "[%02d:%02d] **%s** (sane:%s): %s"
        % (
            t.tm_hour,
            t.tm_min,
            (rec.get("category") or "").capitalize(),
            rec["id"],
            one_line(rec.get("summary") or ""),
        )
    ]
    if rec.get("supersedes"):
        lines.append("> [supersedes sane:%s]" % rec["supersedes"])
    for dl in (rec.get("detail") or "").split("\n"):
        lines.append("> " + dl if dl else ">")
    lines.append("")
    meta = [
        "Tags: " + " ".join("#" + t for t in rec.get("tags") or []),
        "Confidence: " + (rec.get("confidence") or "medium").capitalize(),
    ]
    if rec.get("ticket"):
        meta.append("Ticket: " + rec["ticket"])
    if rec.get("scope") and rec["scope"] != "project":
        meta.append("Scope: " + rec["scope"].capitalize())
    if rec.get("context_files"):
        meta.append("Files: " + ", ".join(rec["context_files"]))
    lines.append(" | ".join(meta))
    return "\n".join(lines) + "\n"


def parse_tr(text, date):
    """[(record, char offset, char length)] of the `sane:` entries in a Total Recall file.
    date: (y, m, d) of a daily log, for the entry's time; None for registers."""
    out = []
    lines = text.split("\n")
    pos = 0
    i = 0
    n = len(lines)
    offsets = []
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1
    while i < n:
        line = lines[i]
        k = line.find("(sane:learn-")
        if k < 0 or not line.startswith("[") or "**" not in line[:k]:
            i += 1
            continue
        start = i
        hm = line[1:6]
        cat = line[line.find("**") + 2 : line.rfind("**", 0, k)].strip().lower()
        lid, _, summary = line[k + 6 :].partition("): ")
        rec = {
            "id": lid.rstrip(")"),
            "category": cat,
            "summary": summary.strip(),
            "status": "active",
            "scope": "project",
            "confidence": "medium",
            "tags": [],
            "context_files": [],
            "criteria_met": [],
            "detail": "",
        }
        detail = []
        i += 1
        while i < n and (lines[i].startswith(">") or not lines[i].strip()):
            if lines[i].startswith(">"):
                dl = lines[i][2:] if lines[i].startswith("> ") else lines[i][1:]
                if dl.startswith("[supersedes sane:") and not detail:
                    rec["supersedes"] = dl[17:].split("]")[0].split(" ")[0]
                else:
                    detail.append(dl)
            elif detail and i + 1 < n and not lines[i + 1].startswith(">"):
                break
            i += 1
        while i < n and not lines[i].strip():
            i += 1
        if i < n and lines[i].startswith("Tags:"):
            for part in lines[i].split(" | "):
                key, _, value = part.partition(": ")
                key = key.strip().lower()
                if key == "tags":
                    rec["tags"] = [t.lstrip("#") for t in value.split() if t.strip("#")]
                elif key == "confidence":
                    rec["confidence"] = value.strip().lower()
                elif key == "ticket":
                    rec["ticket"] = value.strip()
                elif key == "scope":
                    rec["scope"] = value.strip().lower()
                elif key == "files":
                    rec["context_files"] = [f.strip() for f in value.split(",") if f.strip()]
            i += 1
        rec["detail"] = "\n".join(detail).strip("\n")
        if date is not None:
            try:
                h, m = int(hm[:2]), int(hm[3:5])
            except ValueError:
                h = m = 0
            rec["created"] = int(time.mktime((date[0], date[1], date[2], h, m, 0, 0, 0, -1)))
        end = offsets[i] if i < n else len(text)
        out.append((rec, offsets[start], end - offsets[start]))
    return out


def tr_daily_dir(project):
    return os.path.join(project, "memory", "daily")


def tr_files(project):
    """(daily logs of the last TR_DAYS days, newest first; register files)."""
    daily = []
    d = tr_daily_dir(project)
    try:
        names = os.listdir(d)
    except OSError:
        names = []
    for name in names:
        if len(name) == 13 and name.endswith(".md") and name[4] == "-" and name[7] == "-":
            daily.append(name)
    daily.sort(reverse=True)
    cutoff = time.strftime("%Y-%m-%d", time.localtime(time.time() - TR_DAYS * 86400))
    daily = [os.path.join(d, n) for n in daily if n[:10] > cutoff][:TR_DAYS]
    regs = []
    r = os.path.join(project, "memory", "registers")
    try:
        regs = sorted(os.path.join(r, n) for n in os.listdir(r) if n.endswith(".md"))
    except OSError:
        pass
    return daily, regs


def date_of(path):
    name = os.path.basename(path)
    try:
        return int(name[0:4]), int(name[5:7]), int(name[8:10])
    except ValueError:
        return None


def append_tr(project, recs, now):
    """Append entries to today's daily log under `## Learnings`. Raises OSError."""
    path = os.path.join(
        tr_daily_dir(project), time.strftime("%Y-%m-%d", time.localtime(now)) + ".md"
    )
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        with open(path, "rb") as fh:
            text = fh.read().decode("utf-8", "replace")
    except FileNotFoundError:
        text = ""
    block = "".join(render_tr(r) + "\n" for r in recs)
    lines = text.split("\n")
    at = None
    for i, line in enumerate(lines):
        if line.strip() == "## Learnings":
            at = i
            break
    if at is None:
        body = text.rstrip("\n")
        text = (body + "\n\n" if body else "") + "## Learnings\n\n" + block
    else:
        j = at + 1
        while j < len(lines) and not (lines[j].startswith("## ") or lines[j].startswith("# ")):
            j += 1
        before = "\n".join(lines[:j]).rstrip("\n") + "\n\n"
        after = "\n".join(lines[j:])
        text = before + block + ("\n" + after if after.strip() else "")
    _atomic(path, text.encode("utf-8"))
    return path


# ---------------------------------------------------------------- routing by scope


def write(project, cfg, recs, now):
    """Store accepted learnings by scope. Returns (where per id, notes for the caller).

    project/team -> the primary backend (Total Recall when detected, else markdown); a failed
    Total Recall write falls back to markdown. personal -> the personal file. ephemeral ->
    the daily log when Total Recall is active, else dropped. A learning nothing could store
    goes to the audit log (the gate still opens: the seed's fail-open).
    """
    from core import log

    primary = backend_of(project, cfg)
    where, notes = {}, []
    groups = {"tr": [], "md": [], "personal": [], "dropped": []}
    for r in recs:
        scope = r.get("scope") or "project"
        if scope == "personal":
            groups["personal"].append(r)
        elif scope == "ephemeral":
            groups["tr" if primary == "total-recall" else "dropped"].append(r)
        else:
            groups["tr" if primary == "total-recall" else "md"].append(r)
    if groups["tr"]:
        try:
            path = append_tr(project, groups["tr"], now)
            for r in groups["tr"]:
                where[r["id"]] = "total-recall:" + os.path.relpath(path, project)
        except OSError as exc:
            keep = [r for r in groups["tr"] if r.get("scope") != "ephemeral"]
            notes.append(
                "Total Recall write failed (%s); saved to %s instead"
                % (exc.__class__.__name__, MARKDOWN)
            )
            for r in groups["tr"]:
                if r.get("scope") == "ephemeral":
                    where[r["id"]] = "dropped"
            groups["md"].extend(keep)
    for r in groups["dropped"]:
        where[r["id"]] = "dropped"
    if groups["dropped"]:
        notes.append(
            "%d ephemeral learning(s) dropped: ephemeral scope is kept only in Total "
            "Recall's daily log, and Total Recall is not active" % len(groups["dropped"])
        )
    for key, path, header in (
        ("md", markdown_path(project), MD_HEADER),
        ("personal", personal_path(), PERSONAL_HEADER),
    ):
        batch = groups[key]
        if not batch:
            continue
        try:
            append_md(path, batch, header)
            for r in batch:
                where[r["id"]] = "personal" if key == "personal" else "markdown"
        except OSError as exc:
            for r in batch:
                log.audit(
                    project,
                    "learning_lost",
                    learning=r,
                    reason="%s: %s" % (exc.__class__.__name__, exc),
                )
                where[r["id"]] = "audit"
            notes.append(
                "could not write %s (%s); %d learning(s) kept in .claude/audit.jsonl "
                "(event learning_lost)" % (path, exc.__class__.__name__, len(batch))
            )
    return where, notes


def set_status(project, ids_status, now):
    """Change status in the markdown files. ids_status: {id: {field: value}}.
    Returns ids changed there (the rest live in Total Recall: stats events carry them)."""
    changes = {}
    for lid, fields in ids_status.items():
        f = dict(fields)
        f["updated"] = int(now)
        changes[lid] = f
    done = set()
    for path in (markdown_path(project), personal_path()):
        left = {k: v for k, v in changes.items() if k not in done}
        if not left:
            break
        try:
            done |= rewrite_md(path, left)
        except OSError:
            pass
    return done
