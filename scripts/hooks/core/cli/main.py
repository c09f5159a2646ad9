"""sane.py argument parsing and dispatch. Exit codes: 0 done, 1 bad input, 2 refused."""

import argparse
import sys

from core.cli.common import CliError, err, under_claude

# Subcommand groups built by the feature issues: each module has add_parser(sub) and run(args, argv).
GROUPS = ("review", "learn", "intent", "trace")


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise CliError(
            "%s (see `sane.py %s --help`)"
            % (message, self.prog.split(" ", 1)[-1] if " " in self.prog else "")
        )


def build():
    p = Parser(prog="sane.py", description="sane-hooks: keep a coding agent disciplined.")
    p.add_argument("--project", help="project directory (default: $CLAUDE_PROJECT_DIR or cwd)")
    p.add_argument("--version", action="store_true", help="print the sane-hooks version")
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND", parser_class=Parser)

    def cmd(name, help_, session=False):
        sp = sub.add_parser(name, help=help_, description=help_)
        sp.add_argument("--project", default=argparse.SUPPRESS, help="project directory")
        if session:
            sp.add_argument(
                "--session",
                help="session id (default: $CLAUDE_CODE_SESSION_ID, else the most recent)",
            )
        return sp

    sp = cmd("status", "the verified state: safemode, breaker, research, sessions")
    sp.add_argument("--json", action="store_true")
    cmd("doctor", "check interpreter, deps, settings wiring, secret, counter, state, logs")
    sp = cmd("config", "effective config with the source of each value")
    sp.add_argument("--json", action="store_true")
    sp = cmd("logs", "show the hooks' logs")
    sp.add_argument("hook", nargs="?", help="saneprompt | sanetools | sanetrack | sanestop | audit")
    sp.add_argument("--follow", "-f", action="store_true")
    sp.add_argument("--lines", "-n", type=int, default=40)
    sp = cmd("install", "install or upgrade the hooks in a project (person only)")
    sp.add_argument("target", nargs="?", metavar="PROJECT")
    sp.add_argument(
        "--no-sandbox",
        action="store_true",
        help="leave Claude Code's OS sandbox off (the hooks' analysis is then the only layer)",
    )
    sp = cmd("uninstall", "remove our settings entries from a project (person only)")
    sp.add_argument("target", nargs="?", metavar="PROJECT")
    sp.add_argument(
        "--purge",
        action="store_true",
        help="also remove the hooks, state, logs, backups and this machine's records",
    )
    sp = cmd("reset", "reset a section of the state (person only)", session=True)
    sp.add_argument(
        "section",
        nargs="?",
        help="all (default), sessions, circuit_breaker, "
        "enforcement, safemode, or a session section (research, saneloop, ...)",
    )
    cmd("unlock", "lift a tamper lock (person only)")
    cmd("demo", "replay a recorded session through the hooks and show each decision")
    sp = cmd("loop", "SaneLoop criteria", session=True)
    lsub = sp.add_subparsers(dest="loop_cmd", metavar="ACTION", parser_class=Parser)
    lc = lsub.add_parser("check", help="mark criterion N (1-based) met")
    lc.add_argument("n", type=int, metavar="N")
    lc.add_argument("--session")
    lc.add_argument("--project", default=argparse.SUPPRESS)
    ls = lsub.add_parser("status", help="show the loop")
    ls.add_argument("--session")
    ls.add_argument("--project", default=argparse.SUPPRESS)
    for name in GROUPS:
        try:
            mod = __import__("core.cli." + name, fromlist=["add_parser"])
        except ImportError:
            continue
        mod.add_parser(sub, cmd)
    return p


def dispatch(args, argv):
    c = args.cmd
    if c in ("install", "uninstall", "reset", "unlock") and under_claude():
        # Person-only: inside Claude Code no hook ever authorises these.
        raise CliError(
            "refused: `sane.py %s` is for the person only; run it in your own "
            "terminal, outside Claude Code" % c,
            2,
        )
    if c == "status":
        from core.cli.basic import status

        return status(args)
    if c == "config":
        from core.cli.basic import config

        return config(args)
    if c == "logs":
        from core.cli.basic import logs

        return logs(args)
    if c == "reset":
        from core.cli.basic import reset

        return reset(args, argv)
    if c == "unlock":
        from core.cli.basic import unlock

        return unlock(args, argv)
    if c == "loop":
        if not args.loop_cmd:
            raise CliError("loop needs an action: check N | status")
        from core.cli.basic import loop

        return loop(args, argv)
    if c == "doctor":
        from core.cli.doctor import doctor

        return doctor(args)
    if c == "install":
        from core.cli.install import install

        return install(args)
    if c == "uninstall":
        from core.cli.install import uninstall

        return uninstall(args)
    if c == "demo":
        from core.cli.demo import demo

        return demo(args)
    for name in GROUPS:
        mod = sys.modules.get("core.cli." + name)
        if mod is not None and c in getattr(mod, "COMMANDS", ()):
            return mod.run(args, argv)
    raise CliError("unknown command %r (see `sane.py --help`)" % c)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    from core.cli import common

    if common.RT.mode != "hook":  # a fresh run (a hook's hand-off swaps in its own)
        common.RT = common.Runtime()
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
