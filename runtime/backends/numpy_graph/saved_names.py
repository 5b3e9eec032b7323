"""What a saved graph may name, and how: the one place that decides what loading may
make again.

A saved file names functions from a closed list: the NumPy functions tracing records
(``numpy_api.SUPPORTED``), NumPy's ufuncs and their ``reduce``/``accumulate``/
``reduceat``/``outer`` methods, ``math``'s functions the engine stages, a few builtins
and autograph's own run-time helpers. Op kinds, operators, ndarray methods and
attributes come from closed lists too. By import path it names the exception classes
a graph raises, the named tuples it returns and modules passed as Python arguments;
loading finds those only among the modules already imported (it imports nothing);
it makes a named tuple without running its class's code, and an exception by
calling its class, as ``copy`` and ``pickle`` do.
The compiler writes op targets, keyword names and value names into Python source,
so ``well_formed`` checks a loaded op is one tracing makes before it is compiled.
"""

from __future__ import annotations

import builtins
import importlib
import keyword
import math
import sys

import numpy as np

from ...staging.numeric import MATH
from . import numpy_api
from .ir import Op, VarRef
from .maybe_none import warn_chosen
from .numeric import catch_enter, catch_exit, errstate_enter, errstate_exit
from .raising import raise_copy
from .render import BINOPS, UNOPS, qualname
from .rows import write_row

BUILTINS = {"len", "round", "abs", "float", "int", "bool", "complex", "min", "max", "sum"}
# autograph's run-time helpers that graph ops call; a helper saves only if it is here.
RUNTIME = {"autograph.raise": raise_copy, "autograph.errstate_enter": errstate_enter,
           "autograph.errstate_exit": errstate_exit, "autograph.catch_enter": catch_enter,
           "autograph.catch_exit": catch_exit, "autograph.warn_chosen": warn_chosen,
           "autograph.write_row": write_row}
RUNTIME_NAMES = {id(fn): name for name, fn in RUNTIME.items()}
STREAMS = ("stdout", "stderr")
UFUNC_METHODS = {"reduce", "accumulate", "reduceat", "outer"}  # as Tensor.__array_ufunc__


def _numpy_functions() -> dict:
    """``qualname -> function`` of every NumPy function a graph may call."""
    functions = {qualname(fn): fn for fn in numpy_api.SUPPORTED}
    functions["numpy.asarray"] = np.asarray  # the cast of a staged value to its dtype
    for name, obj in vars(np).items():
        if isinstance(obj, np.ufunc) and not name.startswith("_"):
            functions[qualname(obj)] = obj
    return functions


NUMPY_FUNCTIONS = _numpy_functions()
MATH_FUNCTIONS = {f"math.{fn.__name__}": fn for fn in MATH}


def same_function(a, b) -> bool:
    """``a is b``, or the same method of the same object (``np.add.reduce`` is made anew
    on each access)."""
    return a is b or (getattr(b, "__self__", None) is not None and a == b)


def callable_name(fn) -> str:
    name = qualname(fn)
    if isinstance(fn, np.ufunc) and not same_function(resolve(name), fn):  # SciPy's ...
        return f"the ufunc {fn.__name__!r}"
    return name


def make_named_tuple(cls, items):
    """A named tuple of ``cls`` without running the class's own code."""
    items = tuple(items)
    if len(items) != len(cls._fields):
        raise ValueError(f"autograph.load: the named tuple {cls.__qualname__} has "
                         f"{len(cls._fields)} fields, the file gives {len(items)} items.")
    return tuple.__new__(cls, items)


def same_exception(a: BaseException, b: BaseException) -> bool:
    return type(a) is type(b) and a.args == b.args and str(a) == str(b)


def resolve(name: str):
    """The function a saved graph names, from the closed list above, or None."""
    if name.__class__ is not str:
        return None
    if name in RUNTIME:
        return RUNTIME[name]
    found = NUMPY_FUNCTIONS.get(name) or MATH_FUNCTIONS.get(name)
    if found is not None:
        return found
    owner, _, method = name.rpartition(".")
    ufunc = NUMPY_FUNCTIONS.get(owner)
    if isinstance(ufunc, np.ufunc) and method in UFUNC_METHODS:
        return getattr(ufunc, method)
    parts = name.split(".")
    if parts[0] == "builtins" and len(parts) == 2 and parts[1] in BUILTINS:
        return getattr(builtins, parts[1])
    return None


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


def imported_path(module, qualname):
    """What ``module.qualname`` is in the modules already imported, read from their
    dictionaries (no import, no attribute hook runs), or None."""
    if module.__class__ is not str or qualname.__class__ is not str:
        return None
    obj = sys.modules.get(module)
    for part in qualname.split("."):
        try:
            obj = vars(obj).get(part)
        except TypeError:
            return None
    return obj


def named_class(module: str, qualname: str, kind: str) -> type:
    """The exception class or named tuple a saved graph names by import path, found
    among the modules already imported."""
    obj = imported_path(module, qualname)
    ok = isinstance(obj, type) and (issubclass(obj, BaseException) if kind == "exception" else
                                    issubclass(obj, tuple) and hasattr(obj, "_fields"))
    if not ok:
        article = "an" if kind == "exception" else "a"
        if obj is not None:
            why = f"what is there is not {article} {kind}"
        elif sys.modules.get(module) is None:
            why = f"{module} is not imported; loading imports nothing a file names"
        else:
            why = f"{module} has no {qualname}"
        raise ValueError(f"autograph.load: the graph uses the {kind} class {module}.{qualname}, "
                         f"which is not found here ({why}). Import {module} before loading.")
    return obj


def imported_module(name):
    """A module a saved graph was traced with as a Python argument: only one already
    imported (loading imports nothing a file names)."""
    module = sys.modules.get(name) if name.__class__ is str else None
    if module is None:
        raise ValueError(f"autograph.load: the graph was traced with the module {name} as an "
                         f"argument, which is not imported here; loading imports nothing a "
                         f"file names. Import {name} before loading.")
    return module


TARGETS = {"binop": BINOPS, "unop": UNOPS | {"not", "abs"},
           "pycast": {"int", "float", "bool", "complex"}}
ATTRIBUTES = numpy_api.ATTRIBUTES | {"size"}  # as Tensor's properties record them
NO_TARGET = {"getitem", "setitem", "print", "assert", "cond", "while", "for"}


def well_formed(op: Op) -> bool:
    """Whether ``op`` is what tracing makes: the compiler writes targets, keyword names
    and value names into Python source, so a file must not choose them freely."""
    kind, target = op.kind, op.target
    if kind in TARGETS:
        ok = target in TARGETS[kind]
    elif kind == "method":
        ok = target.__class__ is str and target in numpy_api.METHODS
    elif kind == "attr":
        ok = target.__class__ is str and target in ATTRIBUTES
    elif kind == "call":
        ok = target is not None and target.__class__ is not str and \
            same_function(resolve(qualname_or_none(target)), target)
    elif kind in ("read", "assign"):
        ok = target.__class__ is VarRef
    else:
        ok = kind in NO_TARGET and target is None
    return ok and all(is_identifier(k) for k in op.kwargs)


def qualname_or_none(fn):
    name = RUNTIME_NAMES.get(id(fn))
    if name is None:
        try:
            name = qualname(fn)
        except Exception:
            return None
    return name


def is_identifier(name) -> bool:
    return name.__class__ is str and name.isidentifier() and not keyword.iskeyword(name)


def identifier(name):
    if not is_identifier(name):
        raise ValueError(f"autograph.load: {name!r} in the graph file is not a value name.")
    return name
