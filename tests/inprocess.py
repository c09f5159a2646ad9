"""Run a hook script or sane.py inside the test process, as Claude Code would run it.

The script file itself runs (runpy, as `__main__`), so the real entry goes through the real
`leave(main(...))`: stdin bytes in; exit code, stdout and stderr out. What a fresh
process would give it is swapped in for the call and put back afterwards: sys.stdin/stdout/
stderr, sys.argv, os.environ (replaced whole), the cwd, and the module caches that depend on
the environment (CACHES below). os._exit (a hook's way out, skipping the teardown) ends the
script as sys.exit would, not the test process; the garbage collector a hook switches off is
switched back on. A call that runs longer than its timeout is stopped with TimeoutExpired, as
subprocess.run would.

Saves the interpreter start and the imports (about 40-50 ms a call on a loaded 2-core box);
the code under test is the same. tests/test_inprocess.py checks that every module-level cache
in scripts/hooks is listed in CACHES, and that a call gives the same answer both ways.
"""

from __future__ import annotations

import gc
import io
import os
import runpy
import signal
import subprocess
import sys
import threading
import traceback

# Module-level state in scripts/hooks that a real process starts without: (module, name,
# how to reset it). A new cache must be added here (tests/test_inprocess.py checks it).
# how: "none" sets it to None, "clear" empties it, "fresh" puts a new instance of its class.
CACHES = (
    ("core.shell.analysis", "_home", "none"),  # HOME read once per process
    ("core.shell.analysis", "_cache", "clear"),  # analyses of recent commands
    ("core.paths", "_CANDIDATES", "clear"),  # protected paths of one project
    ("core.paths", "_INODES", "clear"),  # inodes of the protected files (hard links)
    ("core.pathrules", "_SECRETS", "clear"),  # inodes of the blocked secrets (hard links)
    ("core.pathrules", "_RULES", "clear"),  # blocked and protected rules, normalised once
    ("core.hookfiles", "_CACHE", "clear"),  # files the settings run, git hook dirs
    ("core.gitrun", "_FILTERS", "clear"),  # filter drivers a repository config names
    ("core.shell.gitsecrets", "_TRACKED", "clear"),  # tracked secrets of a work tree
    ("core.pathnorm", "_FOLDED", "clear"),  # the project is on a case-insensitive file system
    ("core.cli.common", "RT", "fresh"),  # how this process runs sane.py (direct, hand-off)
)
# Module-level state that is right to share across calls: the same whatever the environment.
SHARED = (
    ("core.learning.schema", "_last_ms"),  # a monotonic id clock, process-wide
    ("core.shell.effects", "HANDLERS"),  # the program table, completed lazily
    ("core.shell.programs", "_funcs"),  # program handlers, imported lazily
    ("core.shell.services", "_depth"),  # nesting of remote commands, back to 0 after each
)


def _memo_gettext_find() -> None:
    """argparse looks its messages up through gettext.find on every add_argument: about 0.15 ms
    of stat calls each, some 20 ms per sane.py call. The answer depends only on the arguments,
    the locale variables and the installed catalogues, so one lookup per key is the same."""
    import gettext

    find = getattr(gettext.find, "__wrapped__", gettext.find)
    memo: dict = {}

    def cached_find(domain, localedir=None, languages=None, all=False):  # noqa: A002
        key = (
            domain,
            localedir,
            tuple(languages) if languages is not None else None,
            all,
            tuple(os.environ.get(k) for k in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")),
        )
        if key not in memo:
            memo[key] = find(domain, localedir, languages, all)
        hit = memo[key]
        return list(hit) if isinstance(hit, list) else hit

    cached_find.__wrapped__ = find  # type: ignore[attr-defined]
    gettext.find = cached_find


_memo_gettext_find()


def memo_interpreter_probe() -> None:
    """`install` asks the interpreter for its version and pyyaml in a child process (about
    0.1 s) whenever the HOME has no recorded choice, i.e. once per test. The answer depends
    only on that interpreter file, so it is asked once per file (path and stat) per session;
    a failed probe is not remembered."""
    try:
        from core.cli import interp
    except ImportError:
        return
    probe = getattr(interp.probe, "__wrapped__", interp.probe)
    memo: dict = {}

    def cached_probe(python: str, timeout: float = 10.0) -> dict | None:
        try:
            st = os.stat(python)
            key = (python, os.path.realpath(python), st.st_ino, st.st_size, st.st_mtime_ns)
        except (OSError, ValueError, TypeError):
            return probe(python, timeout)
        if key not in memo:
            info = probe(python, timeout)
            if info is None:
                return None
            memo[key] = info
        return dict(memo[key])

    cached_probe.__wrapped__ = probe  # type: ignore[attr-defined]
    interp.probe = cached_probe


def _exit_script(code: int) -> None:
    raise SystemExit(code)


class _Timeout(BaseException):
    """Raised in the script when its time is up; BaseException so fail-open code won't eat it."""


def reset_caches() -> None:
    for module, name, how in CACHES:
        mod = sys.modules.get(module)
        if mod is None or not hasattr(mod, name):
            continue
        if how == "clear":
            getattr(mod, name).clear()
        elif how == "fresh":
            setattr(mod, name, type(getattr(mod, name))())
        else:
            setattr(mod, name, None)


def _exit_code(code: object, err: io.TextIOBase) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    err.write("%s\n" % (code,))  # sys.exit("message"): printed, status 1
    return 1


def run(
    script: str, args: list[str], env: dict[str, str], cwd: str, data: bytes, timeout: float
) -> tuple[int, bytes, bytes]:
    """Run `script args` with stdin `data`: (exit code, stdout bytes, stderr bytes)."""
    out, err = io.BytesIO(), io.BytesIO()
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    stderr = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True)
    saved_std = sys.stdin, sys.stdout, sys.stderr
    saved_argv, saved_bytecode = sys.argv, sys.dont_write_bytecode
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    saved_exit, saved_gc = os._exit, gc.isenabled()
    timer = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    if timer:

        def expire(signum: int, frame: object) -> None:
            raise _Timeout()

        old_handler = signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, timeout)
    code = 0
    try:
        os.environ.clear()
        os.environ.update(env)
        os.chdir(cwd)
        reset_caches()
        sys.stdin, sys.stdout, sys.stderr = stdin, stdout, stderr
        sys.argv = [script] + list(args)
        os._exit = _exit_script  # type: ignore[assignment]
        try:
            runpy.run_path(script, run_name="__main__")
        except SystemExit as exc:
            code = _exit_code(exc.code, stderr)
        except _Timeout:
            raise subprocess.TimeoutExpired([script] + list(args), timeout) from None
        except Exception:  # an uncaught error: the traceback a real process would print
            traceback.print_exc(file=stderr)
            code = 1
    finally:
        os._exit = saved_exit
        if saved_gc:
            gc.enable()
        if timer:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old_handler)
        for s in (stdout, stderr):
            try:
                s.flush()
            except Exception:
                pass
        sys.stdin, sys.stdout, sys.stderr = saved_std
        sys.argv, sys.dont_write_bytecode = saved_argv, saved_bytecode
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        reset_caches()
    return code, out.getvalue(), err.getvalue()
