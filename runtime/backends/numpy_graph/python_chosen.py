"""Values that are a Python number on some run-time paths and a NumPy scalar on others.

``min(n, t)`` returns one of its arguments, with its type: with ``n = np.int64(4)`` and
``t = 0`` eagerly the Python ``0``, so that ``5 // min(n, t)`` raises ZeroDivisionError,
where NumPy's ``5 // np.int64(0)`` is 0 (with a warning). A graph value has one dtype,
so the engine keeps, beside such a value, a run-time bool of the graph (``bit``): the
path chose the Python number. A division of a Python number by such a value raises
Python's ZeroDivisionError when the graph runs where the bit is set and the divisor is
zero (``raising.raise_where``); an operation of such a value with a Python number is
such a value too (the same bit), one with a NumPy value is NumPy's on every path.
"""

from __future__ import annotations

import numpy as np

from . import raising, trace
from .ir import Value

_DIVISIONS = frozenset({"/", "//", "%"})
_PYTHON = (bool, int, float, complex)


def _value(x):
    """The Value a tensor (``tensor.Tensor``) stands for, else None."""
    value = getattr(x, "_value", None)
    return value if value.__class__ is Value else None


def _bits() -> dict:
    state = trace.current()
    if state is None:
        return {}
    bits = state.python_bits
    if bits is None:
        bits = state.python_bits = {}  # id(Value) -> (Value, bit)
        state.after_binop = after_binop  # (the tensors' operators call it from now on)
    return bits


def python_bit(x):
    """True where ``x`` is a Python number on every path, False where NumPy's, else the
    graph's bool saying which."""
    if x.__class__ in _PYTHON:
        return True
    value = _value(x)
    if value is not None:
        if value.weak:
            return True
        seen = _bits().get(id(value))
        if seen is not None and seen[0] is value:
            return seen[1]
    return False


def chosen(result, first, second, took_second) -> None:
    """``result`` is ``second`` where ``took_second`` (a graph bool), else ``first``:
    note which paths made it a Python number."""
    a, b = python_bit(first), python_bit(second)
    value = _value(result)
    if a is b or value is None or value.weak:
        return
    _bits()[id(value)] = (value, np.where(took_second, b, a))


def after_binop(symbol: str, left, right, result) -> None:
    """After ``left symbol right`` was recorded as ``result``: a Python number divided by
    a value that is a Python zero on some paths raises there; the result is a Python
    number on the paths where both operands are."""
    a, b = python_bit(left), python_bit(right)
    if a is False or b is False or (a is True and b is True):
        return
    if symbol in _DIVISIONS and b is not True:
        raising.raise_where(np.logical_and(a if a is not True else True,
                                           np.logical_and(b, right == 0)),
                            _zero_division(symbol, left, right))
    value = _value(result)
    if value is not None and not value.weak:
        bit = b if a is True else a if b is True else np.logical_and(a, b)
        _bits()[id(value)] = (value, bit)


def _zero_division(symbol: str, left, right) -> ZeroDivisionError:
    """The ZeroDivisionError Python raises for ``left symbol 0`` (its message depends on
    the operator and on the numbers' kinds)."""
    def python_one(x):
        kind = _value(x).dtype.kind if _value(x) is not None else None
        return 1.0 if x.__class__ is float or kind in ("f", "c") else 1

    try:
        trace.BINARY[symbol](python_one(left), python_one(right) * 0)
    except ZeroDivisionError as error:
        return error
    return ZeroDivisionError("division by zero")
