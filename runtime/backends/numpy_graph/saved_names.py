"""What a saved graph may name, and how: the one place that decides what loading may
make again.

A saved file names functions (NumPy's, ``math``'s, a few builtins, and autograph's
own run-time helpers that graph ops call), and by import path the exception classes
a graph raises, the named tuples it returns and modules passed as Python arguments.
Loading looks each name up here and accepts only what the name must be. The
compiler writes op targets, keyword names and value names into Python source, so
``well_formed`` checks a loaded op is one tracing makes before it is compiled.
"""

from __future__ import annotations

import builtins
import importlib
import keyword
import math

import numpy as np

from ...staging.numeric import MATH
from .ir import Op, VarRef
from .numeric import catch_enter, catch_exit, errstate_enter, errstate_exit
from .raising import raise_copy
from .render import BINOPS, UNOPS, qualname
from .rows import write_row

BUILTINS = {"len", "round", "abs", "float", "int", "bool", "complex", "min", "max", "sum"}
# autograph's run-time helpers that graph ops call; a helper saves only if it is here.
RUNTIME = {"autograph.raise": raise_copy, "autograph.errstate_enter": errstate_enter,
           "autograph.errstate_exit": errstate_exit, "autograph.catch_enter": catch_enter,
           "autograph.catch_exit": catch_exit, "autograph.write_row": write_row}
RUNTIME_NAMES = {id(fn): name for name, fn in RUNTIME.items()}
STREAMS = ("stdout", "stderr")


def same_function(a, b) -> bool:
    """``a is b``, or the same method of the same object (``np.add.reduce`` is made anew
    on each access)."""
    return a is b or (getattr(b, "__self__", None) is not None and a == b)


def callable_name(fn) -> str:
    name = qualname(fn)
    if isinstance(fn, np.ufunc) and not same_function(resolve(name), fn):  # SciPy's ...
        return f"the ufunc {fn.__name__!r}"
    return name


def rebuild_exception(cls, args, state):
    """The exception ``copy`` would make from ``__reduce__``'s class, arguments, state."""
    exc = cls(*args)
    if state:
        exc.__setstate__(state)
    return exc


def same_exception(a: BaseException, b: BaseException) -> bool:
    return type(a) is type(b) and a.args == b.args and str(a) == str(b)


def resolve(name: str):
    """The function a saved graph names: NumPy's, ``math``'s, a builtin or autograph's."""
    if name in RUNTIME:
        return RUNTIME[name]
    parts = name.split(".")
    if parts[0] == "builtins" and len(parts) == 2 and parts[1] in BUILTINS:
        return getattr(builtins, parts[1])
    if parts[0] == "math" and len(parts) == 2:
        fn = getattr(math, parts[1], None)
        return fn if fn in MATH else None
    if parts[0] != "numpy":
        return None
    obj = np
    for part in parts[1:]:
        if part.startswith("_"):
            return None
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def import_path(module: str, qualname: str):
    """What importing ``module`` and reading ``qualname`` there finds, or None."""
    if "<" in qualname:  # a class defined inside a function
        return None
    try:
        obj = importlib.import_module(module)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError, ValueError):
        return None
    return obj


def named_class(module: str, qualname: str, kind: str) -> type:
    """The exception class or named tuple a saved graph names by import path."""
    obj = import_path(module, qualname)
    ok = isinstance(obj, type) and (issubclass(obj, BaseException) if kind == "exception" else
                                    issubclass(obj, tuple) and hasattr(obj, "_fields"))
    if not ok:
        article = "an" if kind == "exception" else "a"
        why = "" if obj is None else f" (what is there is not {article} {kind})"
        raise ValueError(f"autograph.load: the graph uses the {kind} class {module}.{qualname}, "
                         f"which cannot be imported here{why}. Make {module} importable (on "
                         f"sys.path) before loading.")
    return obj


TARGETS = {"binop": BINOPS, "unop": UNOPS | {"not", "abs"},
           "pycast": {"int", "float", "bool", "complex"}}
NO_TARGET = {"getitem", "setitem", "print", "assert", "cond", "while", "for"}


def well_formed(op: Op) -> bool:
    """Whether ``op`` is what tracing makes: the compiler writes targets, keyword names
    and value names into Python source, so a file must not choose them freely."""
    kind, target = op.kind, op.target
    if kind in TARGETS:
        ok = target in TARGETS[kind]
    elif kind in ("method", "attr"):
        ok = target.__class__ is str and is_identifier(target)
    elif kind == "call":
        ok = callable(target) and target.__class__ is not str
    elif kind in ("read", "assign"):
        ok = target.__class__ is VarRef
    else:
        ok = kind in NO_TARGET and target is None
    return ok and all(is_identifier(k) for k in op.kwargs)


def is_identifier(name) -> bool:
    return name.__class__ is str and name.isidentifier() and not keyword.iskeyword(name)


def identifier(name):
    if not is_identifier(name):
        raise ValueError(f"autograph.load: {name!r} in the graph file is not a value name.")
    return name
