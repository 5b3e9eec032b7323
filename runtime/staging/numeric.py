"""Python's numeric builtins and ``math`` as every backend stages them: which ``math``
functions there are and the Python type each returns, the builtins by name, how
``min``/``max`` arguments become candidates, and how the user wrote a NumPy callable
(for messages). The operators (``operators.numeric_builtins``) and each backend's
numeric module share these.
"""

from __future__ import annotations

import math

import numpy as np

# math function -> the Python type of its result
MATH = {}
for _name, _kind in [
    ("sqrt", float), ("exp", float), ("expm1", float), ("log", float), ("log2", float),
    ("log10", float), ("log1p", float), ("fabs", float), ("floor", int), ("ceil", int),
    ("trunc", int), ("hypot", float), ("copysign", float), ("isnan", bool), ("isinf", bool),
    ("isfinite", bool), ("sin", float), ("cos", float), ("tan", float), ("asin", float),
    ("acos", float), ("atan", float), ("atan2", float), ("sinh", float), ("cosh", float),
    ("tanh", float), ("pow", float), ("fmod", float), ("erf", float), ("erfc", float),
    ("degrees", float), ("radians", float), ("modf", tuple),
]:
    MATH[getattr(math, _name)] = (_name, _kind)

BUILTINS = {"min": min, "max": max, "abs": abs, "round": round, "int": int, "float": float,
            "bool": bool, "divmod": divmod}

def python_min_max(name: str, args, kwargs):
    """``min``/``max`` arguments as a list of candidates (one iterable is its items)."""
    if kwargs:
        raise TypeError(f"{name}() with {', '.join(kwargs)}= on staged values is not supported "
                        f"in a graph; compare the values with np.minimum/np.maximum instead.")
    if len(args) == 1:
        only = args[0]
        if only.__class__ in (list, tuple):
            items = list(only)
            if not items:
                raise ValueError(f"{name}() iterable argument is empty")
            return items
        return None  # one array: its reduction
    if not args:
        raise TypeError(f"{name} expected at least 1 argument, got 0")
    return list(args)


def result_kind(name: str):
    """The Python type ``math.<name>`` returns."""
    return {n: k for n, k in MATH.values()}[name]




def name_of(fn) -> str:
    """How the user wrote ``fn``: ``np.linalg.norm``, ``np.add.reduce``, ``np.random.normal``
    (``ndarray.dot`` for a method of an array)."""
    owner = getattr(fn, "__self__", None)
    if isinstance(owner, np.ufunc):
        return f"np.{owner.__name__}.{fn.__name__}"
    if isinstance(owner, np.ndarray) or getattr(fn, "__objclass__", None) is np.ndarray:
        return f"ndarray.{fn.__name__}"
    module = getattr(fn, "__module__", None) or "numpy"
    return "np" + module[len("numpy"):] + "." + getattr(fn, "__name__", "?")

