"""sane.py argument parsing and dispatch. Exit codes: 0 done, 1 bad input, 2 refused."""

from __future__ import annotations

import importlib
import sys
from typing import Callable, NamedTuple

from core.cli.args import Parser, actions, add
from core.cli.common import CliError, Runtime, err, set_runtime, under_claude

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse


class Command(NamedTuple):
    """One sane.py command. handler and arguments are "module:function" names, imported only
    when the parser is built or the command runs (like pip's command table)."""

    handler: str  # handler(args) -> exit code; with argv=True handler(args, argv)
    help: str
    arguments: str | None = None  # function(parser) adding the command's own flags and actions
    argv: bool = False  # the handler needs the raw argv (who is calling, authorisation)
    session: bool = False  # the command takes --session
    person_only: bool = False  # refused inside Claude Code: no hook ever authorises it


COMMANDS: dict[str, Command] = {
    "status": Command(
        "core.cli.basic:status",
        "the verified state: safemode, breaker, research, sessions",
        "core.cli.main:json_flag",
    ),
    "doctor": Command(
        "core.cli.doctor:doctor",
        "check interpreter, deps, settings wiring, secret, counter, state, logs",
    ),
    "config": Command(
        "core.cli.basic:config",
        "effective config with the source of each value",
        "core.cli.main:json_flag",
    ),
    "logs": Command("core.cli.basic:logs", "show the hooks' logs", "core.cli.main:logs_arguments"),
    "install": Command(
        "core.cli.install:install",
        "install or upgrade the hooks in a project (person only)",
        "core.cli.main:install_arguments",
        person_only=True,
    ),
    "uninstall": Command(
        "core.cli.install:uninstall",
        "remove our settings entries from a project (person only)",
        "core.cli.main:uninstall_arguments",
        person_only=True,
    ),
    "reset": Command(
        "core.cli.basic:reset",
        "reset a section of the state (person only)",
        "core.cli.main:reset_arguments",
        argv=True,
        session=True,
        person_only=True,
    ),
    "unlock": Command(
        "core.cli.basic:unlock", "lift a tamper lock (person only)", argv=True, person_only=True
    ),
    "demo": Command(
        "core.cli.demo:demo", "replay a recorded session through the hooks and show each decision"
    ),
    "loop": Command(
        "core.cli.main:loop",
        "SaneLoop criteria",
        "core.cli.main:loop_arguments",
        argv=True,
        session=True,
    ),
    "review": Command(
        "core.cli.review:run",
        "the review gate: decide, context, trace, debug, sessions, stats, clean",
        "core.cli.review:add_arguments",
        argv=True,
    ),
    "learn": Command(
        "core.cli.learn:run",
        "the learning gate: reflect, skip, observe, list, search, stats, trace, maintain",
        "core.cli.learn:add_arguments",
        argv=True,
    ),
    "intent": Command(
        "core.cli.intent:run",
        "select, show, list or clear this session's intent",
        "core.cli.intent:add_arguments",
        argv=True,
        session=True,
    ),
    "trace": Command(
        "core.cli.trace:run",
        "check the Agent Trace ledger (.claude/agent_trace.jsonl)",
        "core.cli.trace:add_arguments",
        argv=True,
    ),
}


def resolve(name: str) -> Callable[..., int]:
    """The function a "module:function" name in the table names. A module that fails to
    import is an error that names it, never a command silently missing from the tool."""
    module, _, attr = name.partition(":")
    try:
        return getattr(importlib.import_module(module), attr)
    except ImportError as exc:
        raise CliError("cannot load %s (%s): %s" % (module, name, exc), 1)


# ---------------------------------------------------------------- the built-in commands' flags


def json_flag(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--json", action="store_true")


def logs_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("hook", nargs="?", help="saneprompt | sanetools | sanetrack | sanestop | audit")
    sp.add_argument("--follow", "-f", action="store_true")
    sp.add_argument("--lines", "-n", type=int, default=40)


def install_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("target", nargs="?", metavar="PROJECT")
    sp.add_argument(
        "--no-sandbox",
        action="store_true",
        help="leave Claude Code's OS sandbox off (the hooks' analysis is then the only layer)",
    )


def uninstall_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("target", nargs="?", metavar="PROJECT")
    sp.add_argument(
        "--purge",
        action="store_true",
        help="also remove the hooks, state, logs, backups and this machine's records",
    )


def reset_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "section",
        nargs="?",
        help="all (default), sessions, circuit_breaker, "
        "enforcement, safemode, or a session section (research, saneloop, ...)",
    )


def loop_arguments(sp: argparse.ArgumentParser) -> None:
    acts = actions(sp, "loop_cmd")
    a = add(acts, "check", "mark criterion N (1-based) met", session=True)
    a.add_argument("n", type=int, metavar="N")
    add(acts, "status", "show the loop", session=True)


def loop(args: argparse.Namespace, argv: list[str]) -> int:
    if not args.loop_cmd:
        raise CliError("loop needs an action: check N | status")
    from core.cli import basic

    return basic.loop(args, argv)


# ---------------------------------------------------------------- parse and dispatch


def build() -> Parser:
    p = Parser(prog="sane.py", description="sane-hooks: keep a coding agent disciplined.")
    p.add_argument("--project", help="project directory (default: $CLAUDE_PROJECT_DIR or cwd)")
    p.add_argument("--version", action="store_true", help="print the sane-hooks version")
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND", parser_class=Parser)
    for name, c in COMMANDS.items():
        sp = add(sub, name, c.help, session=c.session)
        if c.arguments:
            resolve(c.arguments)(sp)
    return p


def dispatch(args: argparse.Namespace, argv: list[str]) -> int:
    c = COMMANDS.get(args.cmd)
    if c is None:
        raise CliError("unknown command %r (see `sane.py --help`)" % args.cmd)
    if c.person_only and under_claude():
        # Person-only: inside Claude Code no hook ever authorises these.
        raise CliError(
            "refused: `sane.py %s` is for the person only; run it in your own "
            "terminal, outside Claude Code" % args.cmd,
            2,
        )
    handler = resolve(c.handler)
    return handler(args, argv) if c.argv else handler(args)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    set_runtime(Runtime())  # each run decides afresh: direct, or handing off to the hooks
    try:
        args = build().parse_args(argv)
        if getattr(args, "version", False) and not args.cmd:
            from core.version import VERSION

            print("sane-hooks %s" % VERSION)
            return 0
        if not args.cmd:
            build().print_help()
            return 1
        return dispatch(args, argv)
    except CliError as exc:
        err("sane.py: %s" % exc)
        return exc.code
    except KeyboardInterrupt:
        return 1
    except BrokenPipeError:
        return 0
