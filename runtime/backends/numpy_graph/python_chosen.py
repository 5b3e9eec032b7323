"""Values that are a Python number on some run-time paths and a NumPy scalar on others.

A staged choice between a Python number and a NumPy value keeps eagerly the one it
chose, with its type: ``u = 0 if n > 0 else n - n`` (``n = np.int64(4)``) is the Python
``0``, so that ``5 // u`` raises ZeroDivisionError, where NumPy's ``5 // np.int64(0)``
is 0 (with a warning); ``min(n, 0)`` likewise. A graph value has one dtype, so the
engine keeps, beside such a value, a run-time bool of the graph (its kind bit): the
path chose the Python number (``keep``, from a staged ``if``/ternary/``and``/``or``
(``staging.conditionals``) and ``min``/``max``). Then:

- a division (``/``, ``//``, ``%``) of a Python number by such a value raises Python's
  ZeroDivisionError when the graph runs where the bit is set and the divisor is zero
  (``raising.raise_where``);
- an operation of such a value with a Python number is such a value too (the same
  bit), as is ``-u``; one with a NumPy value is NumPy's on every path;
- an operation whose result type differs between the two kinds (``u + np.float32(1)``:
  float32 with the Python int, float64 with NumPy's int64; ``u + u`` of a bool: the
  int 2, or NumPy's True) is a StagingError naming the value and where it was chosen:
  a graph value has one dtype.
"""

from __future__ import annotations

import itertools

import numpy as np

from ...staging import errors, raises
from ...staging.arg_writes import user_line
from . import raising, trace
from .ir import Value

_DIVISIONS = frozenset({"/", "//", "%"})
_PYTHON = (bool, int, float, complex)
_ONE = {"b": True, "i": 1, "u": 1, "f": 1.0, "c": 1.0 + 0j}


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
        bits = state.python_bits = {}  # id(Value) -> (Value, bit, origin)
        state.after_binop = after_binop  # (the tensors' operators call them from now on)
        state.after_unop = after_unop
        state.before_ufunc = check_ufunc
    return bits


def _seen(x):
    """``(Value, bit, origin)`` of a value that is a Python number on some paths, or None."""
    value = _value(x)
    state = trace.current()
    bits = state.python_bits if state is not None and value is not None else None
    seen = bits.get(id(value)) if bits else None
    return seen if seen is not None and seen[0] is value else None


def python_bit(x):
    """True where ``x`` is a Python number on every path, False where NumPy's, else the
    graph's bool saying which."""
    if x.__class__ in _PYTHON:
        return True
    value = _value(x)
    if value is not None:
        if value.weak:
            return True
        seen = _seen(x)
        if seen is not None:
            return seen[1]
    return False


def keep(result, cond, if_true, if_false, origin: str) -> None:
    """``result`` is a Python number where ``cond`` holds and ``if_true`` does, or where
    it does not and ``if_false`` does (each True, False or a graph bool)."""
    value = _value(result)
    if value is None or value.weak or (if_true is False and if_false is False):
        return
    from .tensor import Tensor

    if cond.__class__ is Value:
        cond = Tensor(cond, trace.current().graph)
    bit = if_true if if_true is if_false else cond if if_true is True and if_false is False \
        else np.where(cond, if_true, if_false)
    _bits()[id(value)] = (value, bit, origin)


def after_binop(symbol: str, left, right, result) -> None:
    """After ``left symbol right`` was recorded as ``result``: a Python number divided by
    a value that is a Python zero on some paths raises there; the result is a Python
    number on the paths where both operands are."""
    a, b = python_bit(left), python_bit(right)
    if a.__class__ is bool and b.__class__ is bool:
        return  # each operand one kind on every path: as eagerly
    if symbol in trace.BINARY:
        _refuse_kind_dependent(f"'{symbol}'", trace.BINARY[symbol], (left, right), (a, b))
    if a is False or b is False:
        return
    if symbol in _DIVISIONS and b is not True:
        error = _zero_division(symbol, left, right)
        where = user_line()
        raises.check_not_handled(
            error, f"'{symbol}' at {errors.at_line(*where) if where else '?'}: the divisor, "
                   f"{_seen(right)[2]}, is a Python number on some staged paths",
            "Make the choice a NumPy value on every path (np.int64(0), np.float64(0.0)), "
            "or test the divisor before dividing.")
        zero = right == 0  # (a number broadcast on the paths that chose it: any is all)
        zero = np.any(zero) if np.ndim(zero) else zero
        raising.raise_where(np.logical_and(a if a is not True else True,
                                           np.logical_and(b, zero)), error)
    value = _value(result)
    if value is not None and not value.weak:
        bit = b if a is True else a if b is True else np.logical_and(a, b)
        origin = (_seen(left) or _seen(right))[2]
        _bits()[id(value)] = (value, bit, origin)


def after_unop(operand, result) -> None:
    """``-u``, ``+u``, ``~u`` of a value that is a Python number on some paths is one there."""
    seen = _seen(operand)
    value = _value(result)
    if seen is not None and value is not None and not value.weak:
        _bits()[id(value)] = (value, seen[1], seen[2])


def _sample(x, python: bool):
    """A value of ``x``'s type as eager code holds it: the Python number of its kind, or
    NumPy's array or scalar of its dtype."""
    value = _value(x)
    if value is None:
        return x
    if python:
        return _ONE[value.dtype.kind]
    return np.ones(value.shape, value.dtype)[()] if not value.shape else np.ones(1, value.dtype)


def _type_of(x):
    """``type`` for a Python number, else the NumPy dtype."""
    return type(x) if x.__class__ in _PYTHON else np.asarray(x).dtype


def _refuse_kind_dependent(name: str, fn, operands, bits) -> None:
    """A StagingError where the type of ``fn(*operands)`` depends on which kind an operand
    is on the path (``bits``: each operand's ``python_bit``): NumPy's dtype against the
    Python number's, path by path."""
    mixed = next(k for k, bit in enumerate(bits) if bit.__class__ is not bool)
    results = ({}, {})  # (where the mixed operand is NumPy's, Python's): type -> its name
    for kinds in itertools.product(*[(bit,) if bit.__class__ is bool else (True, False)
                                     for bit in bits]):
        with np.errstate(all="ignore"):
            try:
                out = fn(*(_sample(x, python) for x, python in zip(operands, kinds)))
            except Exception:  # noqa: BLE001 - an error eager code raises too
                continue
        if out.__class__ in _PYTHON:
            kind = np.asarray(out).dtype.kind
            results[kinds[mixed]][kind] = f"a Python {_KINDS[kind]}"
        else:
            dtype = np.asarray(out).dtype
            results[kinds[mixed]][dtype] = f"NumPy's {dtype}"
    found = results[0].keys() | results[1].keys()
    kinds = {k if k.__class__ is str else k.kind for k in found}
    if len({_KINDS.get(k, k) for k in kinds}) < 2 and \
            len([k for k in found if k.__class__ is not str]) < 2:
        return
    where = user_line()
    at = f" at {errors.at_line(*where)}" if where else ""
    raise errors.StagingError(
        f"{name}{at}: {_seen(operands[mixed])[2]} is a Python number on some staged paths and "
        f"a NumPy {_value(operands[mixed]).dtype} on others, and the result's type differs "
        f"between them (eagerly {' or '.join(sorted(results[1].values()))} where it is the "
        f"Python number, {' or '.join(sorted(results[0].values()))} where it is NumPy's); a "
        f"graph value has one dtype. Make every path choose the same kind: write the Python "
        f"number as a NumPy scalar (np.int64(0), np.float64(0.0)), or convert the choice "
        f"with int()/float().")


def check_ufunc(ufunc, inputs) -> None:
    """``ufunc(*inputs)`` (``np.float32(1.5) + u`` dispatches here): NumPy's result on every
    path, whose type may depend on which kind an operand is."""
    bits = [python_bit(x) for x in inputs]
    if any(bit.__class__ is not bool for bit in bits):
        _refuse_kind_dependent(f"numpy.{ufunc.__name__}", ufunc, inputs, bits)


_KINDS = {"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}


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
