"""The shape of scripts/hooks, measured: import cycles, module sizes, the largest functions,
private names imported across modules, and what each package's __init__ costs.

    python bench/arch_check.py            # report; exit 1 when a rule is broken
    python bench/arch_check.py --top 20   # more of the largest functions

Rules (the project's own): no import cycle anywhere in scripts/hooks, no module over 800 lines,
no `_private` name imported from another module, package __init__ files import nothing.
Imports inside functions count as edges too: a lazy cycle is still a cycle.
"""

from __future__ import annotations

import argparse
import ast
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOOKS = os.path.join(ROOT, "scripts", "hooks")
MAX_LINES = 800


def modules() -> dict[str, str]:
    """Dotted module name -> file path, for every module under scripts/hooks."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(HOOKS):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for f in sorted(filenames):
            if not f.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), HOOKS)[:-3].replace(os.sep, ".")
            name = rel[: -len(".__init__")] if rel.endswith(".__init__") else rel
            found[name] = os.path.join(dirpath, f)
    return found


def _resolve(mod: str, node: ast.ImportFrom, is_pkg: bool) -> str:
    if not node.level:
        return node.module or ""
    base = mod.split(".")
    base = base if is_pkg else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _type_only(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING"
    )


def edges(mods: dict[str, str]) -> tuple[dict[str, set[str]], list[str]]:
    """Import graph between our modules, and the private names imported across modules."""
    graph: dict[str, set[str]] = {m: set() for m in mods}
    private = []
    for mod, path in mods.items():
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), path)
        is_pkg = path.endswith("__init__.py")
        # `if TYPE_CHECKING:` imports never run: only the type checker follows them, so they
        # form no import cycle and cost nothing.
        type_only = {id(n) for t in ast.walk(tree) if _type_only(t) for n in ast.walk(t)}
        for node in ast.walk(tree):
            if id(node) in type_only:
                continue
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                src = _resolve(mod, node, is_pkg)
                for a in node.names:
                    sub = src + "." + a.name
                    targets.append(sub if sub in mods else src)
                    if a.name.startswith("_") and not a.name.startswith("__") and src in mods:
                        private.append("%s imports %s from %s" % (mod, a.name, src))
            for t in targets:
                # `import core.shell.analysis` depends on the module, not on each parent
                while t and t not in mods:
                    t = t.rpartition(".")[0]
                if t and t != mod:
                    graph[mod].add(t)
    return graph, private


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out = []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            node, it = work[-1]
            for nxt in it:
                # package parents (core, core.shell) are namespaces, not dependencies
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        m = stack.pop()
                        on.discard(m)
                        comp.append(m)
                        if m == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def functions(mods: dict[str, str]) -> list[tuple[int, str]]:
    sizes = []
    for mod, path in mods.items():
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), path)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                n = (node.end_lineno or node.lineno) - node.lineno + 1
                kind = "class" if isinstance(node, ast.ClassDef) else "def"
                sizes.append((n, "%s %s.%s" % (kind, mod, node.name)))
    return sorted(sizes, reverse=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--top", type=int, default=10, help="how many of the largest functions")
    args = ap.parse_args(argv)
    mods = modules()
    graph, private = edges(mods)
    # a package imports its parent package's namespace implicitly; that is not a cycle
    for m in graph:
        graph[m] = {t for t in graph[m] if not m.startswith(t + ".")}
    bad = 0
    lines = {m: sum(1 for _ in open(p, encoding="utf-8")) for m, p in mods.items()}
    n_edges = sum(len(v) for v in graph.values())
    print("%d modules, %d lines, %d import edges" % (len(mods), sum(lines.values()), n_edges))
    cyc = cycles(graph)
    print("import cycles: %d" % len(cyc))
    for c in cyc:
        print("  " + " <-> ".join(c))
    bad += len(cyc)
    big = sorted(((n, m) for m, n in lines.items() if n > MAX_LINES), reverse=True)
    print("modules over %d lines: %d" % (MAX_LINES, len(big)))
    for n, m in big:
        print("  %5d  %s" % (n, m))
    bad += len(big)
    print("private names imported across modules: %d" % len(private))
    for p in private:
        print("  " + p)
    bad += len(private)
    heavy = [m for m, p in mods.items() if p.endswith("__init__.py") and graph[m]]
    print("package __init__ files that import something: %d" % len(heavy))
    for m in heavy:
        print("  %s -> %s" % (m, ", ".join(sorted(graph[m]))))
    bad += len(heavy)
    print("largest modules:")
    for m, n in sorted(lines.items(), key=lambda kv: -kv[1])[:5]:
        print("  %5d  %s" % (n, m))
    print("largest functions and classes:")
    for n, name in functions(mods)[: args.top]:
        print("  %5d  %s" % (n, name))
    print("OK" if not bad else "%d rule(s) broken" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
