"""Item assignment in the NumPy engine, and writing the arguments back after a run.

``out[i] = v`` on a symbolic tensor records a ``setitem`` op (a functional update:
the compiled code copies, or updates a dying buffer in place). An array made
before the code (``out = np.zeros(3)``) becomes a constant input of that op.

NumPy's semantics for arguments are kept: after a call, every argument array the
function wrote into holds what the eager call would have left there. The graph
knows which values are states of an argument — the argument itself, ``setitem``
results of such a state, and ``cond``/loop results whose every side is one — so
the last state at the function's top level is returned as an extra output, and the
concrete function copies it into the caller's array (``with_writes``).
"""

from __future__ import annotations

import ast
from typing import Optional

import numpy as np

from ...staging import holders
from ...staging.arg_writes import cannot_write, written_argument
from . import maybe_none
from .ir import Value
from . import messages
from .messages import view_write
from .trace import to_value, user_source
from .raising import raise_copy
from .tensor import FlatItems, Tensor, check_writeable, refuse_layout_twins
from .tensor import setitem as functional_setitem


def setitem(target, index, value):
    """``target[index] = value`` for converted code's ``ag__.setitem``."""
    if target.__class__ is Tensor:
        check_writeable(target, "assignment destination")
        if target._updatable():
            target[index] = value
            return target
        if target._shares():
            raise view_write(user_source())
        refuse_layout_twins(target)
        _check_argument(target)
        if target._value.shape:
            holders.refuse_shared_write(lambda h: h is target, "autograph.function", "array")
        return functional_setitem(target, index, value)
    if isinstance(target, np.ndarray):
        _check_argument(target)
        return functional_setitem(target, index, value)
    if target.__class__ is FlatItems:  # t.flat[i] = v: a write into t
        target[index] = value
        return target
    from ...staging.accumulate import Collected
    from ...staging.state import describe

    if isinstance(target, Collected):  # a StagingError that names the list and the loop
        target._refuse("item assignment", "append the new value instead, or build the list "
                       "again after the loop")
    raise TypeError(f"autograph.function: cannot assign into {describe(target)} here")


def _check_argument(target) -> None:
    """A branch (or a helper) writing into an argument of a converted function that is
    not the traced one: the caller's variable could not see the new value."""
    written = written_argument(target, 3)
    if written is not None and not written.outermost:
        why = ("the assignment is in a staged branch or loop" if target.__class__ is Tensor
               else "its value there is a constant NumPy array")
        raise cannot_write("autograph.function", written, why)


# --- writing arguments back -------------------------------------------------------------

def argument_writes(graph) -> list:
    """``[(input Value, final Value)]`` for each array argument the graph writes into."""
    root: dict[int, Value] = {v.id: v for v in graph.inputs if v.__class__ is Value}
    latest: dict[int, Value] = {}

    def root_of(value):
        return root.get(value.id) if value.__class__ is Value else None

    def derive(out, sources, top):
        found = {id(r) for r in map(root_of, sources)}
        if len(found) == 1 and None not in {root_of(s) for s in sources}:
            r = root_of(sources[0])
            root[out.id] = r
            if top:
                latest[r.id] = out

    def visit(block, top):
        for op in block.ops:
            if op.kind == "setitem":
                derive(op.outputs[0], [op.args[0]], top)
            elif op.kind == "cond":
                for sub in op.blocks.values():
                    visit(sub, False)
                sides = [b for b in (op.blocks["true"], op.blocks["false"]) if not _raises(b)]
                for j, out in enumerate(op.outputs):
                    if sides:
                        derive(out, [b.results[j] for b in sides], top)
            elif op.kind in ("while", "for"):
                inits = op.args[-1]
                body = op.blocks["body"]
                params = body.params[len(body.params) - len(inits):]
                for p, init in zip(params, inits):
                    derive(p, [init], False)
                if "test" in op.blocks:
                    for p, init in zip(op.blocks["test"].params, inits):
                        derive(p, [init], False)
                for sub in op.blocks.values():
                    visit(sub, False)
                for j, out in enumerate(op.outputs):
                    derive(out, [inits[j], body.results[j]], top)
            else:
                for sub in op.blocks.values():
                    visit(sub, False)

    visit(graph.body, True)
    return [(root[vid], final) for vid, final in latest.items()]


def written_in_block(block, param, result) -> bool:
    """``result`` (a block's result) is ``param`` (one of its parameters) written into:
    a state of it made by item assignments (in place: ``v[2] = x``, ``v -= 1``), in the
    block itself or in the ifs and loops inside it, with at least one write."""
    state = {param.id: False}  # value id -> whether a write made it

    def derive(out, sources):
        known = [state.get(s.id) if s.__class__ is Value else None for s in sources]
        if known and None not in known:
            state[out.id] = any(known)

    def visit(b):
        for op in b.ops:
            if op.kind == "setitem":
                if op.args[0].__class__ is Value and op.args[0].id in state:
                    state[op.outputs[0].id] = True
            elif op.kind == "cond":
                for sub in op.blocks.values():
                    visit(sub)
                sides = [s for s in (op.blocks["true"], op.blocks["false"]) if not _raises(s)]
                for j, out in enumerate(op.outputs):
                    if sides:
                        derive(out, [s.results[j] for s in sides])
            elif op.kind in ("while", "for"):
                inits = op.args[-1]
                body = op.blocks["body"]
                params = body.params[len(body.params) - len(inits):]
                for p, init in zip(params, inits):
                    if init.__class__ is Value and init.id in state:
                        state[p.id] = False
                visit(body)
                for j, out in enumerate(op.outputs):
                    derive(out, [inits[j], body.results[j]])

    visit(block)
    return result.__class__ is Value and state.get(result.id) is True


def _raises(block) -> bool:
    return any(op.kind == "call" and op.target is raise_copy for op in block.ops)


def item_writes(traced, layout, state) -> list:
    """``[(writer, final Value)]`` for the array leaves of list and dict arguments that
    the function replaced or updated (``ab[idx] = c`` on a list ``ab``): each writer
    puts the final value where eager code would have left it in the caller's container."""
    found = []
    for i, leaves in enumerate(layout):
        for access, leaf in leaves:
            if not access or leaf.__class__ is not Value:
                continue
            path = access_path(access)
            try:
                now = _get(traced[i], path)
            except (LookupError, TypeError):
                continue
            if now.__class__ is Tensor and now._value is leaf:
                continue
            if now.__class__ is not Tensor and not isinstance(now, (np.ndarray, np.generic)):
                continue
            found.append((ArgumentWrite(i, path, item=True), to_value(now, state)))
    return found


def python_item_writes(traced, specs, names, function_name, state) -> list:
    """``[(writer, final Value)]`` for the Python items (numbers) of list and dict
    arguments that the function replaced (``lst[0] = n + 1``, ``d['k'] = 3``): eager code
    leaves the new value in the caller's container, so the graph does too, on every run.
    A list or dict argument whose length or keys the trace changed (``lst.append(v)``),
    or whose Python item became something other than a number or an array, is a
    StagingError: the graph could not leave in it what eager code leaves."""
    found = []

    def walk(i, now, spec, path):
        cls = spec.__class__
        if cls in (list, dict, tuple):
            if now.__class__ is not cls:
                return
            if len(now) != len(spec) or (cls is dict and now.keys() != spec.keys()):
                raise messages.argument_resized(function_name, names[i] + _path_text(path),
                                                cls.__name__, len(spec), len(now))
            for key in (spec if cls is dict else range(len(spec))):
                walk(i, now[key], spec[key], path + (key,))
            return
        if not path or now is spec or spec.__class__.__name__ in ("TensorSpec", "Variable") \
                or isinstance(spec, (np.ndarray, np.generic)):
            return
        if now.__class__ is Tensor or isinstance(now, (np.ndarray, np.generic)):
            found.append((ArgumentWrite(i, path, item=True), to_value(now, state)))
        elif now.__class__ in (bool, int, float):
            if now.__class__ is spec.__class__ and now == spec:
                return
            found.append((ArgumentWrite(i, path, item=True, cast=now.__class__.__name__),
                          to_value(now, state)))
        else:
            raise messages.argument_item_object(function_name, names[i] + _path_text(path), now)

    for i, (now, spec) in enumerate(zip(traced, specs)):
        walk(i, now, spec, ())
    return found


def _path_text(path: tuple) -> str:
    return "".join(f"[{k!r}]" for k in path)


def access_path(access: str) -> tuple:
    """The keys of a layout accessor (``"[0]['k']"`` -> ``(0, 'k')``), read as literals:
    ValueError if ``access`` is anything else."""
    try:
        node = ast.parse(f"a{access}", mode="eval").body
        keys = []
        while node.__class__ is ast.Subscript:
            keys.append(ast.literal_eval(node.slice))
            node = node.value
    except (SyntaxError, ValueError):
        raise ValueError(f"not an argument accessor: {access!r}") from None
    path = tuple(reversed(keys))
    if node.__class__ is not ast.Name or "".join(f"[{k!r}]" for k in path) != access:
        raise ValueError(f"not an argument accessor: {access!r}")
    return path


def _get(obj, path: tuple):
    for key in path:
        obj = obj[key]
    return obj


class ArgumentWrite:
    """Puts a final value where the caller holds it, at ``path`` in argument ``index``:
    into the array there, or, for an ``item`` write, as that item of its list or dict
    (an array of the same shape is written into instead). Plain data, so a saved
    function keeps its writes."""

    __slots__ = ("index", "item", "path", "cast")

    def __init__(self, index: int, path: tuple, item: bool = False,
                 cast: Optional[str] = None) -> None:
        # ``cast``: the Python type ("int", "float", "bool") an item write leaves, where
        # eager code left a Python number (the graph carries it as a 0-d array).
        self.index, self.path, self.item, self.cast = index, tuple(path), item, cast

    def __call__(self, args, final) -> None:
        if not self.item:
            dest = _get(args[self.index], self.path)
            if isinstance(dest, np.ndarray):
                np.copyto(dest, final, casting="unsafe")
            return
        container, key = _get(args[self.index], self.path[:-1]), self.path[-1]
        old = container[key]
        if isinstance(old, np.ndarray) and old.shape == np.shape(final):
            np.copyto(old, final, casting="unsafe")
        elif container.__class__ in (list, dict):
            scalar = isinstance(final, np.ndarray) and not final.ndim
            if self.cast is not None:
                container[key] = _PYTHON_TYPES[self.cast](final)
            else:
                container[key] = final[()] if scalar else final


_PYTHON_TYPES = {"bool": bool, "int": int, "float": float}


def argument_writers(layout, written: list) -> list:
    """Writers for ``argument_writes``: copy the final value into the caller's array."""
    return [next(ArgumentWrite(i, access_path(access)) for i, leaves in enumerate(layout)
                 for access, leaf in leaves if leaf is value) for value, _ in written]


def with_extras(fn, writers: list, places: list):
    """``fn`` (the compiled graph, returning ``(outputs, None flags, final argument
    values)``) that writes each final value back where the caller holds it
    (``writers``), and rebuilds each ``None`` and chosen string at its ``(path, how)``
    (``places``, see ``maybe_none.boundary``)."""

    def run(*args):
        out, flags, finals = fn(*args)
        for write, final in zip(writers, finals):
            write(args, final)
        return maybe_none.rebuild(out, places, flags) if places else out

    run.__autograph_source__ = getattr(fn, "__autograph_source__", None)
    return run
