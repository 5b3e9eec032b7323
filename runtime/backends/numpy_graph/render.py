"""Writing ops as Python expressions, shared by the printer and the compiler.

Every simple op kind has one spelling: a NumPy call ``np.sum(t1, axis=0)``, an
operator ``t1 + 1``, a method ``t1.astype(float32)``, an index ``t1[1:, None]``.
The compiler and the printer differ only in how they name things (a ``Namer``):
the compiler binds constants and functions to names in the generated module's
namespace, the printer shows them readably.
"""

from __future__ import annotations

import math

import numpy as np

from .ir import Op, Value

BINOPS = {"+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^", "<<", ">>",
          "==", "!=", "<", "<=", ">", ">="}
UNOPS = {"-", "+", "~"}


def qualname(fn) -> str:
    """``numpy.add``, ``numpy.linalg.norm``, ``numpy.add.reduce``: how ops name functions."""
    owner = getattr(fn, "__self__", None)
    if isinstance(owner, np.ufunc):  # a ufunc method such as np.add.reduce
        return f"numpy.{owner.__name__}.{fn.__name__}"
    if isinstance(fn, np.ufunc):
        return f"numpy.{fn.__name__}"
    module = getattr(fn, "__module__", None) or "numpy"
    if module.startswith("numpy."):
        public = module.split("._")[0]  # numpy.linalg._linalg -> numpy.linalg
        module = public
    return f"{module}.{fn.__name__}"


class Namer:
    """How names are spelled; the printer's default shows constants inline."""

    def value(self, value: Value) -> str:
        if value.const is not None:
            return self.const(value)
        return value.name

    def const(self, value: Value) -> str:
        array = value.const
        if isinstance(array, (np.ndarray, np.generic)) and array.size <= 6:
            text = np.array2string(np.asarray(array), separator=", ")
            return f"{text}:{array.dtype.name}"
        return f"<{value.type_str()}>"

    def func(self, fn) -> str:
        return qualname(fn).replace("numpy.", "np.", 1)

    def static(self, obj) -> str:
        if isinstance(obj, type) and issubclass(obj, np.generic):
            return f"np.{obj.__name__}"
        if isinstance(obj, np.dtype):
            return f"np.dtype({obj.name!r})"
        return literal(obj) or repr(obj)


def literal(obj):
    """Python source for a value that is its own literal, else None."""
    cls = obj.__class__
    if obj is None or cls in (bool, int, str, bytes):
        return repr(obj)
    if cls is float:
        return repr(obj) if math.isfinite(obj) else None
    if obj is Ellipsis:
        return "..."
    return None


def expr(op: Op, namer: Namer) -> str:
    """The right-hand side of a simple op."""
    kind, target, args = op.kind, op.target, op.args
    arg = lambda a: render(a, namer)
    if kind == "binop":
        return f"{arg(args[0])} {target} {arg(args[1])}"
    if kind == "unop":
        if target == "not":
            return f"not {arg(args[0])}"
        if target == "abs":
            return f"abs({arg(args[0])})"
        return f"{target}{arg(args[0])}"
    if kind == "getitem":
        return f"{arg(args[0])}[{subscript(args[1], namer)}]"
    if kind == "attr":
        return f"{arg(args[0])}.{target}"
    if kind == "read":
        return f"{target.name}.value"
    parts = [arg(a) for a in (args[1:] if kind == "method" else args)]
    parts += [f"{key}={arg(v)}" for key, v in op.kwargs.items()]
    if kind == "method":
        return f"{arg(args[0])}.{target}({', '.join(parts)})"
    if kind == "call":
        return f"{namer.func(target)}({', '.join(parts)})"
    if kind == "pycast":
        return f"{target}({parts[0]})"
    raise ValueError(f"no expression for op kind {kind!r}")


def render(obj, namer: Namer) -> str:
    """A nested argument structure as Python source."""
    cls = obj.__class__
    if cls is Value:
        return namer.value(obj)
    if cls is tuple:
        inner = ", ".join(render(x, namer) for x in obj)
        return f"({inner},)" if len(obj) == 1 else f"({inner})"
    if cls is list:
        return "[" + ", ".join(render(x, namer) for x in obj) + "]"
    if cls is dict and all(k.__class__ is str for k in obj):
        return "{" + ", ".join(f"{k!r}: {render(v, namer)}" for k, v in obj.items()) + "}"
    if cls is slice:
        return "slice(" + ", ".join(render(x, namer) for x in (obj.start, obj.stop, obj.step)) + ")"
    return namer.static(obj)


def subscript(index, namer: Namer) -> str:
    """An index as it is written between brackets: ``1:, None, t3``."""
    items = index if index.__class__ is tuple else (index,)
    parts = []
    for item in items:
        if item.__class__ is slice:
            bounds = ["" if b is None else render(b, namer) for b in (item.start, item.stop, item.step)]
            text = f"{bounds[0]}:{bounds[1]}" + (f":{bounds[2]}" if bounds[2] else "")
            parts.append(text)
        else:
            parts.append(render(item, namer))
    if index.__class__ is tuple:
        if not parts:
            return "()"
        return ", ".join(parts) + ("," if len(parts) == 1 else "")
    return parts[0]


def target_pattern(tree, namer: Namer) -> str:
    """The left-hand side unpacking an op's result structure into its outputs."""
    cls = tree.__class__
    if cls is Value:
        return namer.value(tree)
    if isinstance(tree, (tuple, list)):
        inner = ", ".join(target_pattern(x, namer) for x in tree)
        if cls is list:
            return f"[{inner}]"
        return f"({inner},)" if len(tree) == 1 else f"({inner})"
    return "_"
