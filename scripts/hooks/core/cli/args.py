"""The argparse pieces every sane.py command shares, written once: the parser class (a usage
error is one line and exit 1, never argparse's exit 2, which means "refused" here), a command
or action with its --project and --session flags, and a command's list of actions."""

from __future__ import annotations

import argparse

from core.cli.common import CliError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn

    Subparsers = argparse._SubParsersAction[Any]

SESSION_HELP = "session id (default: $CLAUDE_CODE_SESSION_ID, else the most recent)"


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise CliError(
            "%s (see `sane.py %s --help`)"
            % (message, self.prog.split(" ", 1)[-1] if " " in self.prog else "")
        )


def add(
    sub: Subparsers, name: str, help_: str, session: bool | str = False, keep_session: bool = False
) -> argparse.ArgumentParser:
    """Command or action NAME under SUB, with --project and, when session is set, --session
    (True: the usual help; a string: that help). keep_session: a --session given before the
    action is kept (the action's own flag sets nothing unless given)."""
    sp = sub.add_parser(name, help=help_, description=help_)
    sp.add_argument("--project", default=argparse.SUPPRESS, help="project directory")
    if session:
        text = SESSION_HELP if session is True else str(session)
        if keep_session:
            sp.add_argument("--session", default=argparse.SUPPRESS, help=text)
        else:
            sp.add_argument("--session", help=text)
    return sp


def actions(parser: argparse.ArgumentParser, dest: str) -> Subparsers:
    """The ACTION subcommands of a command (`sane.py learn reflect`); args.<dest> names one."""
    return parser.add_subparsers(dest=dest, metavar="ACTION", parser_class=Parser)
