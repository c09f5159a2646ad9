"""core/breaker.py and core/research.py each hold their feature whole, plugged into the gate
and tracker lists, with no import cycle through gates_pre, intents and prompt."""

import ast
import os

from conftest import HOOKS

CORE = os.path.join(HOOKS, "core")


def imports_of(path):
    """core.* modules a file imports (at any level: lazy imports close cycles too)."""
    with open(path) as fh:
        tree = ast.parse(fh.read())
    out = set()
    # `if TYPE_CHECKING:` imports never run (only the type checker reads them): no cycle
    type_only = {
        id(n)
        for t in ast.walk(tree)
        if isinstance(t, ast.If) and isinstance(t.test, ast.Name) and t.test.id == "TYPE_CHECKING"
        for n in ast.walk(t)
    }
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("core"):
            for alias in node.names:
                full = "%s.%s" % (node.module, alias.name)
                sub = os.path.join(HOOKS, *full.split(".")) + ".py"
                out.add(full if os.path.exists(sub) else node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("core"))
    return out


def graph():
    g = {}
    for root, _, files in os.walk(CORE):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(root, f)
                rel = os.path.relpath(path, HOOKS)[:-3].replace(os.sep, ".")
                g[rel.replace(".__init__", "")] = imports_of(path)
    return g


def reaches(g, start, goal):
    seen, todo = set(), list(g.get(start, ()))
    while todo:
        m = todo.pop()
        if m == goal:
            return True
        if m not in seen:
            seen.add(m)
            todo.extend(g.get(m, ()))
    return False


def test_no_cycle_through_the_hook_plumbing():
    g = graph()
    for mod in ("core.gates_pre", "core.track", "core.prompt", "core.research", "core.breaker"):
        assert not reaches(g, mod, mod), mod
    assert "core.prompt" not in g["core.intents.hooks"]  # the stored prompt kind is used


def test_each_feature_is_plugged_into_the_lists():
    from core import breaker, gates_pre, prompt, research, track

    assert breaker.gate in gates_pre.GATES and breaker.halt_gate in gates_pre.GATES
    assert research.gate in gates_pre.GATES
    assert breaker.track in track.TRACKERS and research.track in track.TRACKERS
    for name in ("rb-", "rb+", "reset breaker"):
        assert prompt.EXACT[name] is breaker.COMMANDS[name]
    assert set(breaker.COMMANDS) <= set(prompt.EXACT)  # rb? is wrapped for the tamper note
    for name in ("research", "rr-", "reset research"):
        assert prompt.EXACT[name] is research.COMMANDS[name]
    # the research gate runs after the breaker: a tripped agent hears about the breaker first
    assert gates_pre.GATES.index(breaker.gate) < gates_pre.GATES.index(research.gate)


def test_error_signatures():
    from core.breaker import error_signature

    assert error_signature("Bash", "Exit code 127\nfoo: command not found") == (
        "Bash:COMMAND_NOT_FOUND"
    )
    assert error_signature("Bash", "Exit code 1\n1 failed, 3 passed") == "Bash:TEST_FAILURE"
    assert error_signature("Bash", "Exit code 9\n") == "Bash:EXIT_9"
    assert error_signature("", None) == "?:ERROR"


def test_status_text_is_one_place():
    from core.breaker import status_text
    from core.state import defaults

    st = defaults("/p")
    assert status_text(st) == "breaker is OK: 0 failures in a row"
    st["circuit_breaker"].update(failures=1, error_signatures={"Bash:EXIT_1": 1})
    assert status_text(st) == "breaker is OK: 1 failure in a row, most common Bash:EXIT_1 x1"
    st["circuit_breaker"].update(
        tripped=True, failures=3, trip_reason="3 failures with the signature Bash:EXIT_1"
    )
    text = status_text(st)
    assert text.count("Bash:EXIT_1") == 1 and text.startswith("breaker is TRIPPED: 3 failures")
