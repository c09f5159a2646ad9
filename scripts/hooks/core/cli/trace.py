"""sane.py trace verify | blame FILE: read the Agent Trace ledger against the working tree
(anyone may run them; they change nothing)."""

import argparse
import json
import os

from core.cli.args import actions, add
from core.cli.common import CliError, err, out, project_of
from core.wording import plural


def add_arguments(sp: argparse.ArgumentParser) -> None:
    tsub = actions(sp, "trace_cmd")
    a = add(tsub, "verify", "re-hash every recorded range: in place, moved or changed")
    a.add_argument("--json", action="store_true")
    a = add(tsub, "blame", "which lines of FILE came from which intent and session")
    a.add_argument("file", metavar="FILE")
    a.add_argument("--json", action="store_true")


def run(args, argv):
    cmd = getattr(args, "trace_cmd", None)
    if not cmd:
        raise CliError("trace needs an action: verify | blame FILE")
    project = project_of(args)
    return verify(args, project) if cmd == "verify" else blame(args, project)


def _short(s, n=12):
    return (s or "-")[:n]


def verify(args, project):
    from core.trace import verify as trace_verify

    results, problems, nrec = trace_verify.verify(project)
    counts = {}
    for r in results:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    if args.json:
        out(
            json.dumps(
                {
                    "records": nrec,
                    "ranges": len(results),
                    "counts": counts,
                    "problems": problems,
                    "results": results,
                },
                indent=2,
            )
        )
        return 0
    for p in problems:
        err("sane.py: " + p)
    if not nrec:
        out("the ledger (.claude/agent_trace.jsonl) has no records yet.")
        return 0
    for r in results:
        where = ""
        if r["status"] == "moved":
            where = " -> %s:%d-%d" % (r["now_path"], r["now_start"], r["now_end"])
        out(
            "%-9s %s:%d-%d%s  (intent %s, session %s, %s)"
            % (
                r["status"],
                r["path"],
                r["start"],
                r["end"],
                where,
                r["intent"] or "-",
                _short(r["session"]),
                r["time"],
            )
        )
    out(
        "%s, %s: %s%s"
        % (
            plural(nrec, "record"),
            plural(len(results), "range"),
            ", ".join(
                "%d %s" % (counts.get(k, 0), k) for k in ("in place", "moved", "changed", "missing")
            ),
            "; %s (above)" % plural(len(problems), "ledger problem") if problems else "",
        )
    )
    return 0


def blame(args, project):
    from core.trace import verify as trace_verify

    rel = trace_verify.rel_of(project, args.file, os.getcwd())
    if rel is None:
        raise CliError("%s is outside the project %s" % (args.file, project))
    if not os.path.isfile(os.path.join(project, rel)):
        raise CliError("no such file: %s" % args.file)
    runs, problems = trace_verify.blame(project, rel)
    if runs is None:
        raise CliError("%s cannot be read (or is over 16 MB)" % rel)
    if args.json:
        out(
            json.dumps(
                {
                    "file": rel,
                    "runs": [{"start": s, "end": e, "by": who} for s, e, who in runs],
                    "problems": problems,
                },
                indent=2,
            )
        )
        return 0
    for p in problems:
        err("sane.py: " + p)
    total = sum(e - s + 1 for s, e, _ in runs)
    mine = sum(e - s + 1 for s, e, who in runs if who)
    out("%s: %s, %d from the agent per the ledger" % (rel, plural(total, "line"), mine))
    for s, e, who in runs:
        span = "%d-%d" % (s, e) if e > s else "%d" % s
        if not who:
            out("  %-11s -" % span)
            continue
        out(
            "  %-11s intent %-10s session %-12s agent %-10s %s %s%s"
            % (
                span,
                who["intent"] or "-",
                _short(who["session"]),
                _short(who["agent"] or "main", 10),
                who["time"],
                who["class"] or "",
                "  (moved from %s)" % who["from"] if who["from"] else "",
            )
        )
    return 0
