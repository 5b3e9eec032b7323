"""The runtime's rooms and the direction of imports between them (issue 26).

The runtime is three rooms: ``operators/`` (what converted code calls), ``staging/``
(the framework-neutral core) and ``backends/<framework>/`` (one package each). Imports
run one way: the package's top (``runtime/__init__``, the ``ag__`` namespace) -> operators
-> staging; a backend -> staging. A backend never imports another backend or the
operators; the staging core imports nothing above it; the converters import no backend.

Every import counts, also one inside a function: a lazy import is still a dependency.
Import circles are allowed only inside one room, and only those listed in
``ALLOWED_CIRCLES`` with the reason the split would be artificial.
"""

from __future__ import annotations

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNTIME = "autograph.runtime"

# Circles inside one room, each with why it stays one.
ALLOWED_CIRCLES = {
    # The tracer and its symbolic values: recording an op makes Tensors, a Tensor's
    # operators record ops; raising and Variables record through the same trace.
    frozenset({"backends.numpy_graph.raising", "backends.numpy_graph.tensor",
               "backends.numpy_graph.trace", "backends.numpy_graph.variables"}),
    # The NumPy engine's staging answers: a value None on some paths (maybe_none) and
    # argument write-back (writes) are asked by the backend and ask it for its ops.
    frozenset({"backends.numpy_graph.backend", "backends.numpy_graph.maybe_none",
               "backends.numpy_graph.writes"}),
    # The JAX backend and its numeric twins: the backend hands builtins and item writes to
    # numeric, whose masked selections ask the backend for its ops (one framework's room).
    frozenset({"backends.jax.backend", "backends.jax.numeric"}),
    # A concrete function, the polymorphic function that holds its concrete functions,
    # and saving both (ConcreteFunction.save / Function.save; loading makes them again).
    frozenset({"backends.numpy_graph.concrete", "backends.numpy_graph.polymorphic",
               "backends.numpy_graph.serialize"}),
}


def _modules() -> dict:
    """``{dotted name: (path, is_package)}`` of every module under runtime/."""
    found = {}
    for directory, _, files in os.walk(os.path.join(ROOT, "runtime")):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(directory, name)
            parts = os.path.relpath(path, ROOT)[:-3].split(os.sep)
            package = parts[-1] == "__init__"
            dotted = ".".join(["autograph"] + (parts[:-1] if package else parts))
            found[dotted] = (path, package)
    return found


def _imports(path: str, package: str, known) -> set:
    """The modules of ``known`` that the file at ``path`` imports, anywhere in it."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                if node.level > 1:
                    parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join(parts) + ("." + node.module if node.module else "")
            else:
                base = node.module or ""
            for alias in node.names:
                sub = base + "." + alias.name
                out.add(sub if sub in known else base)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return {m for m in out if m in known}


def _graph() -> dict:
    modules = _modules()
    graph = {}
    for name, (path, is_package) in modules.items():
        package = name if is_package else name.rpartition(".")[0]
        graph[name] = _imports(path, package, modules) - {name}
    return graph


def _short(name: str) -> str:
    return name[len(RUNTIME) + 1:] if name.startswith(RUNTIME + ".") else "(top)"


def _room(name: str) -> str:
    short = _short(name)
    if short.startswith("operators"):
        return "operators"
    if short.startswith("staging"):
        return "staging"
    if short.startswith("backends."):
        return "backend " + short.split(".")[1]
    if short == "backends":
        return "backends"
    return "top"


def _allowed(source: str, target: str) -> bool:
    a, b = _room(source), _room(target)
    if a == b:
        return True
    if a == "top":
        return True  # the ag__ namespace gathers the operators and registers backends
    if a == "operators":
        return b == "staging"
    if a.startswith("backend "):
        return b == "staging"
    if a == "backends":
        return False
    return False  # staging imports nothing above it


def test_imports_run_one_way_between_the_rooms():
    graph = _graph()
    wrong = sorted(f"{_short(a)} -> {_short(b)}" for a, targets in graph.items()
                   for b in targets if not _allowed(a, b))
    assert wrong == []


def _circles(graph: dict) -> list:
    """The strongly connected components with more than one module (Tarjan's)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(_short(m) for m in component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle_but_the_listed_ones():
    circles = _circles(_graph())
    for circle in circles:
        assert len({_room(RUNTIME + "." + m) for m in circle}) == 1, f"a circle across rooms: {sorted(circle)}"
    assert set(circles) <= ALLOWED_CIRCLES, sorted(sorted(c) for c in set(circles) - ALLOWED_CIRCLES)


def test_converters_import_no_backend():
    for directory in ("converters", "autograph"):
        for name in os.listdir(os.path.join(ROOT, directory)):
            if not name.endswith(".py"):
                continue
            with open(os.path.join(ROOT, directory, name), encoding="utf-8") as f:
                text = f.read()
            if directory == "autograph" and name in ("__init__.py", "api.py"):
                continue  # the public API names the engine's functions (lazily) and converts modules
            assert "runtime.backends" not in text, f"{directory}/{name} imports a backend"
