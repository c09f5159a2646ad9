"""The sane.py command table (core/cli/main.py COMMANDS): every command registered one way,
each name resolving to a real function, every command taking --project, and a command module
that fails to import is a clear error (exit 1 naming it), never a command silently missing."""

from __future__ import annotations

import os
import sys

import pytest

HOOKS = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "scripts", "hooks"
)
sys.path.insert(0, HOOKS)

from core.cli import main  # noqa: E402


def test_every_entry_names_a_function():
    for name, c in main.COMMANDS.items():
        assert callable(main.resolve(c.handler)), name
        if c.arguments:
            assert callable(main.resolve(c.arguments)), name


def test_every_command_is_in_the_parser_with_project():
    p = main.build()
    for name in main.COMMANDS:
        args = p.parse_args(
            [name, "--project", "/x"]
            + {
                "loop": ["status"],
                "review": ["sessions"],
                "learn": ["list"],
                "intent": ["list"],
            }.get(name, [])
            + {"trace": ["verify"]}.get(name, [])
        )
        assert args.cmd == name and args.project == "/x"


def test_a_command_module_that_fails_to_import_is_an_error(monkeypatch, capsys):
    table = dict(main.COMMANDS)
    table["broken"] = main.Command(
        "core.cli.no_such_module:run", "a command whose module is gone", "core.cli.no_such_module:x"
    )
    monkeypatch.setattr(main, "COMMANDS", table)
    code = main.main(["status", "--json"])
    err = capsys.readouterr().err
    assert code == 1
    assert "core.cli.no_such_module" in err


def test_person_only_commands_are_refused_inside_claude(monkeypatch, capsys):
    monkeypatch.setenv("CLAUDECODE", "1")
    for name, c in main.COMMANDS.items():
        if c.person_only:
            assert main.main([name]) == 2, name
            assert "for the person only" in capsys.readouterr().err


def test_usage_errors_exit_1_not_argparse_2(capsys):
    assert main.main(["loop", "check", "not-a-number"]) == 1
    assert main.main(["no-such-command"]) == 1
    assert "sane.py" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["intent", "--session", "S1", "list"]])
def test_a_session_given_before_the_action_is_kept(argv):
    assert main.build().parse_args(argv).session == "S1"
