"""Builtins whose arguments may be staged values: ``range``, ``enumerate``, ``zip``, ``len``,
item assignment, and ``print_`` (``autograph.print``).

The staged body calls ``ag__.range_(n)`` where the user wrote ``range(n)``. With
Python arguments these are the builtins themselves; a staged argument lets its
backend return something its ``for_stmt`` can loop over without unrolling.
"""

from __future__ import annotations

import linecache
import operator
import os
import re
import sys
from sys import _getframe  # the runtime's own: a user may take it off sys
from typing import Any, Optional, TextIO

import numpy as np

from ..staging import RUNTIME_DIR, accumulate, backend as backends, errors, holders, iterated
from ..staging import converted as converted_codes
from ..staging.arrays import check_staged_write, is_array
from ..staging.backend import backend_of, first_backend
from ..staging.masked import MaskedItems
from ..staging.indexing import basic_index
from ..staging.arg_writes import user_line, user_location
from .choices import getitem as choices_getitem, read_item


def range_(*args):
    if all(a.__class__ is int for a in args):
        return range(*args)
    backend = first_backend(args)
    if backend is None:
        return range(*args)
    if len(args) == 1:
        return backend.range_(0, args[0], 1)
    if len(args) == 2:
        return backend.range_(args[0], args[1], 1)
    return backend.range_(*args)




def enumerate_(iterable, start=0):
    backend = backend_of(iterable)
    if backend is None:
        if _iterates_arrays(iterable) and backends.tracing_now():
            return ArrayEnumerate(iterable, start)
        return enumerate(iterable, start)
    return backend.enumerate_(iterable, start)


def _iterates_arrays(iterable) -> bool:
    """A NumPy array a Python loop iterates by index, or an ``enumerate``/``zip`` of one."""
    cls = iterable.__class__
    return (cls is np.ndarray and iterable.ndim > 0) or cls is ArrayEnumerate or cls is ArrayZip


class ArrayEnumerate(enumerate):
    """``enumerate`` of a NumPy array (or of a ``zip`` of one) while tracing: a Python loop
    over it reads each item when its iteration starts, from the array as the body's
    writes left it (``control_flow.for_loop``, ``staging.iterated``)."""

    def __new__(cls, iterable, start=0):
        self = super().__new__(cls, iterable, start)
        self.iterable, self.start = iterable, start
        return self


class ArrayZip(zip):
    """``zip`` of NumPy arrays (any of its iterables) while tracing: as ``ArrayEnumerate``."""

    def __new__(cls, iterables, strict=False):
        self = super().__new__(cls, *iterables, strict=strict) if strict \
            else super().__new__(cls, *iterables)
        self.iterables, self.strict = iterables, strict
        return self


def zip_(*iterables, strict=False):
    backend = first_backend(iterables)
    if backend is None:
        if any(_iterates_arrays(it) for it in iterables) and backends.tracing_now():
            return ArrayZip(iterables, strict)
        return zip(*iterables, strict=strict) if strict else zip(*iterables)
    return backend.zip_(iterables, strict)


def len_(value):
    if value.__class__ in accumulate.COLLECTED:  # a list a staged loop grows: staged
        return value.length()
    backend = backend_of(value)
    if backend is None:
        return len(value)
    return backend.len_(value)


def hasattr_(obj, name):
    """``hasattr(obj, name)``: an attribute a staged ``if`` assigned on one side only
    (carried with a flag, ``conditionals``) exists on some run-time paths only, which
    a Python bool cannot say: a StagingError."""
    try:
        value = getattr(obj, name)
    except AttributeError:
        return False
    if getattr(value.__class__, "checked_read", None) is not None:
        raise errors.StagingError(
            f"hasattr(..., {name!r}): the attribute is assigned on some staged paths only "
            f"(one branch of an if whose condition is a staged value), so whether it exists "
            f"is known only when the graph runs. Assign it before the if statement, or in "
            f"both branches.")
    return True


def isinstance_(obj, classinfo):
    """``isinstance(obj, classinfo)``; a staged array of one or more dimensions is an
    ``np.ndarray`` (what it stands for: NumPy code's arrays, ``np.broadcast_arrays``'
    results that numpy-financial's ``_convert_when`` tests for). A 0-d one is tested as
    it is: NumPy's 0-d results are as often scalars (``np.float64``) as arrays."""
    if isinstance(obj, classinfo):
        return True
    if classinfo is not np.ndarray and not (classinfo.__class__ is tuple and np.ndarray in classinfo):
        return False
    backend = backend_of(obj)
    aval = None if backend is None else backend.aval(obj)
    return aval is not None and len(aval.shape) >= 1


def setitem(target, index, value):
    """``target[index] = value``; returns the updated target.

    Python objects are updated in place and returned (the same object), so the
    converter's ``x = ag__.setitem(x, i, v)`` is exactly ``x[i] = v``; a staged
    array gets a functional update (JAX's ``x.at[i].set(v)``).
    """
    if target.__class__ in _CONTAINERS or target.__class__ is accumulate.Growing or (
            backend := first_backend((target, index, value))) is None:
        if target.__class__ is list and index.__class__ is not int and backend_of(index) is not None:
            return _select_into(backend_of(index), target, index, value)
        target[index] = value
        return target
    if target.__class__ is np.flatiter:  # a NumPy array's .flat: no name to rebind
        raise errors.flat_write(user_location())
    holders.refuse_numpy_view_write(target)
    stored = getattr(value.__class__, "stored_value", None)  # None on some staged paths
    if stored is not None:
        aval = None if target.__class__ is np.ndarray else backend.aval(target)
        if target.__class__ is np.ndarray or aval is not None:
            value = stored(value, target.dtype if aval is None else aval.dtype, backend)
    with holders.carrying(target):  # the lists and dicts holding it take the new value
        if is_array(target):
            check_staged_write(target)
        result = backend.setitem(target, index, value)
    if result is not target:
        holders.carry_into_slots(target, result)
    if iterated.watching():  # (the array a loop iterates, written: staging.iterated)
        iterated.wrote(target, result)
    return result


def setitem_attr(obj, name: str, target, index, value, op: Optional[str] = None):
    """``obj.name[index] = value`` (``op=`` with ``op``; ``target`` is ``obj.name``, read by
    converted code): Python writes into what ``obj.name`` holds. Where the write gives a
    new value instead (a staged write into an array), the attribute is rebound to it:
    eagerly it would show the write. That is exact where the attribute is the object's own
    (not a property, which may give a view each time) and, inside the body of a staged
    ``if`` or loop, where the construct carries the object's attributes
    (``holders.tracks``); elsewhere a ``StagingError``. Returns what ``obj.name`` holds
    after the write."""
    with holders.named(lambda: _indexed_text(name)):
        new = setitem(target, index, value) if op is None else augitem(target, index, op, value)
    if new is target:
        return new
    if name not in getattr(obj, "__dict__", ()) or not holders.tracks(obj):
        raise errors.unreachable_item_write(user_location(), f"'{name}' of {_a(obj)}")
    setattr(obj, name, new)
    return new


def setitem_into(target, index, value, op: Optional[str] = None):
    """``expr[index] = value`` (``op=`` with ``op``) of a target that is not a variable
    or an attribute (``a.reshape(2, 3)[i] = v``, ``f()[i] = v``, ``a.T[0] = v`` of an array
    ``a``), or is a global or closure variable (``G[i] = v``, which converted code does
    not rebind): Python writes into what ``expr`` gives. A write that gives a new value (a
    staged one) cannot reach it: a ``StagingError`` (the sharing checks of ``setitem`` name
    an array that shares its memory first). Returns ``target``."""
    with holders.named(_indexed_text):
        new = setitem(target, index, value) if op is None else augitem(target, index, op, value)
    if new is not target:
        name = _indexed_text("")
        if name.isidentifier():  # a global or closure variable (a local is rebound instead)
            raise errors.outer_item_write(user_location(), name)
        raise errors.unreachable_item_write(user_location(), "the value it indexes")
    return target


def _indexed_text(otherwise: str = "a") -> str:
    """The expression the user's line indexes and writes into (``a.T`` of ``a.T[0] = v``),
    for messages; ``otherwise`` where the line does not show it."""
    where = user_line()
    text = linecache.getline(*where).strip() if where is not None else ""
    target = text.split("=", 1)[0].rstrip(" +-*/%@&|^<>")
    depth = 0
    for i in range(len(target) - 1, -1, -1):  # the bracket that opens the last index
        depth += {"]": 1, "[": -1}.get(target[i], 0)
        if depth == 0 and target[i] == "[":
            return target[:i].strip()
    return otherwise


def _a(obj) -> str:
    return f"a {type(obj).__name__} object"


def _select_into(backend, items: list, index, value) -> list:
    """``items[index] = value`` with a staged ``index``: each item becomes the value where
    the index points at it (a select in the graph); the list is updated in place."""
    n = len(items)
    for i in range(n):
        hit = backend.numeric("logical_or", (index == i, index == i - n), {})
        items[i] = backend.numeric("where", (hit, value, items[i]), {})
    return items


_CONTAINERS = frozenset({list, dict})  # updated in place whatever they hold


_IN_PLACE = {
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv,
    "//=": operator.ifloordiv, "%=": operator.imod, "**=": operator.ipow, "@=": operator.imatmul,
    "&=": operator.iand, "|=": operator.ior, "^=": operator.ixor, "<<=": operator.ilshift,
    ">>=": operator.irshift,
}
_PURE = {
    "+=": operator.add, "-=": operator.sub, "*=": operator.mul, "/=": operator.truediv,
    "//=": operator.floordiv, "%=": operator.mod, "**=": operator.pow, "@=": operator.matmul,
    "&=": operator.and_, "|=": operator.or_, "^=": operator.xor, "<<=": operator.lshift,
    ">>=": operator.rshift,
}


_UFUNC_NAMES = {"+=": "add", "-=": "subtract", "*=": "multiply", "/=": "divide",
                "//=": "floor_divide", "%=": "remainder", "**=": "power", "@=": "matmul",
                "&=": "bitwise_and", "|=": "bitwise_or", "^=": "bitwise_xor",
                "<<=": "left_shift", ">>=": "right_shift"}


def augitem(target, index, op: str, value):
    """``target[index] op= value``; returns the updated target (see ``setitem``)."""
    if target.__class__ in _CONTAINERS or (backend := first_backend((target, index, value))) is None:
        item = target[index]
        if item.__class__ is np.ndarray:  # checked as a name's is
            target[index] = augassign(item, op, value)
            return target
        if holders.ENTERED and (staged := backend_of(item)) is not None \
                and not staged.writes_into_numpy:
            holders.refuse_entered_in_place(item, staged.compiler)
        target[index] = _IN_PLACE[op](item, value)
        return target
    item = read_item(target, index)
    try:
        result = _PURE[op](item, value)
    except TypeError:  # a framework that refuses the mixed dtypes (TensorFlow): NumPy's rule
        if not getattr(item, "ndim", 0):
            raise
        got = np.result_type(_numpy_dtype(backend, item), value if value.__class__ in (
            bool, int, float, complex) else _numpy_dtype(backend, value))
        if np.can_cast(got, _numpy_dtype(backend, item), "same_kind"):
            raise
        result = None
    if getattr(item, "ndim", 0):
        # NumPy updates an array item in place (``item op= value``), keeping its dtype
        was = _numpy_dtype(backend, item)
        _check_same_kind(op, got if result is None else _numpy_dtype(backend, result), was)
    return setitem(target, index, result)  # a concrete NumPy array target: staged state


def _check_same_kind(op: str, got: np.dtype, was: np.dtype) -> None:
    """NumPy's in-place operator casts its result back to the array's dtype ``was``:
    its TypeError where the ``same_kind`` rule does not allow it."""
    if not np.can_cast(got, was, "same_kind"):
        raise TypeError(f"Cannot cast ufunc {_UFUNC_NAMES[op]!r} output from {got!r} to "
                        f"{was!r} with casting rule 'same_kind'")


def setitem_path(target, keys, value):
    """``target[k1]...[kn] = value`` (``keys`` outermost first); returns the updated target.

    Python writes into what ``target[k1]...[kn-1]`` gives: the object itself for a list
    or dict item, a view for an array read with a basic index (integers, slices), a copy
    for an advanced one (a mask, an integer array), where the write is lost. Every level
    is read, the last written with ``setitem``; where that gave a new value (a staged
    array's functional update) it goes back up level by level as long as eager code
    would have written through a view, and stops where eager code wrote into a copy.
    """
    holders = _holders(target, keys)
    return _write_back(target, holders, keys, setitem(holders[-1], keys[-1], value))


def augitem_path(target, keys, op: str, value):
    """``target[k1]...[kn] op= value``; returns the updated target (``setitem_path``)."""
    holders = _holders(target, keys)
    return _write_back(target, holders, keys, augitem(holders[-1], keys[-1], op, value))


def _holders(target, keys) -> list:
    """``[target, target[k1], target[k1][k2], ...]``, up to the item the last key indexes.
    A view (of a NumPy array, or of a staged one) is read as a copy, which
    ``_write_back`` writes back: a staged write into the view itself would be refused
    where the array it views is read later."""
    holders = [target]
    for key in keys[:-1]:
        holder = holders[-1]
        item = choices_getitem(holder, key)
        if holder.__class__ is np.ndarray and item.__class__ is np.ndarray and item.base is not None:
            item = item.copy()
        elif holder.__class__ not in (list, dict) and (backend := backend_of(item)) is not None \
                and basic_index(key):  # (a list's or dict's item is no view: written as is)
            item = backend.numpy_call(np.copy, (item,), {})  # (not a view a backend tracks)
        holders.append(item)
    return holders


def _write_back(target, holders, keys, new):
    for level in range(len(keys) - 2, -1, -1):
        holder, item = holders[level], holders[level + 1]
        if new is item and backend_of(new) is None and holder.__class__ is not np.ndarray:
            return target  # a Python container's item, updated in place: Python's own
        if not _through_a_view(holder, keys[level]):
            return target  # eager code wrote into a copy, and lost the write
        new = setitem(holder, keys[level], new)
    return new


def _through_a_view(holder, key) -> bool:
    """Whether ``holder[key]`` gives what ``holder`` holds (a Python container's item) or a
    view of it (an array read with a basic index), rather than a copy."""
    return (not is_array(holder) and backend_of(holder) is None) or basic_index(key)


def _numpy_dtype(backend, value) -> np.dtype:
    """The NumPy dtype of ``value``: a NumPy array, a staged array of ``backend`` (a
    framework's dtype, torch.float32), or a masked selection of one."""
    return backend.aval(value.full if value.__class__ is MaskedItems else value).dtype


def augassign(target, op: str, value):
    """``name op= value`` of a local name in a staged body: Python's in-place operator,
    as the user wrote it, after the backend of a staged target checked it
    (``check_in_place``: where the operator gives the name alone a new value and another
    name still read shares what eager code changes in place, a ``StagingError``). A
    NumPy array given a staged value that eagerly is a NumPy array too (the NumPy
    engine's) is written like ``a[...] op= value`` (``augitem``: staged state, its views
    and aliases checked), where NumPy's operator would give the name alone a new value."""
    operand = getattr(value.__class__, "in_place_operand", None)  # None on some staged paths
    if operand is not None:
        value = operand(value, op, target)
    if target.__class__ in _SCALARS:
        return _IN_PLACE[op](target, value)
    backend = backend_of(target)
    if backend is not None:
        aval = backend.aval(target)
        if aval is not None and aval.weak:  # it stands for a Python number, which no
            return _PURE[op](target, value)  # operator changes in place (j = i; i += 1)
        holders.refuse_numpy_view_write(target)
        backend.check_in_place(target)
        if iterated.watching():  # (the array a loop iterates: staging.iterated)
            result = _IN_PLACE[op](target, value)
            iterated.wrote(target, result, in_place=not backend.writes_into_numpy)
            return result
    elif target.__class__ is np.ndarray and (backend := backend_of(value)) is not None \
            and backend.writes_into_numpy:
        return augitem(target, Ellipsis, op, value)
    elif target.__class__ is np.ndarray and (backend := backends.tracing_now()) is not None:
        holders.refuse_copied(target, backend.compiler)
        if backend.numpy_in_place_keeps_dtype and backend_of(value) is backend:
            # the framework's operator gives the name its array, in the NumPy array's dtype
            result = _IN_PLACE[op](target, value)
            aval = backend.aval(result)
            if aval is None or aval.dtype == target.dtype:
                return result
            _check_same_kind(op, aval.dtype, target.dtype)
            return backend.cast(result, aval._replace(dtype=target.dtype))
    return _IN_PLACE[op](target, value)


_SCALARS = frozenset({int, float, bool, complex, str})


def print_(*args: Any, sep: str = " ", end: str = "\n", file: Optional[TextIO] = None,
           flush: bool = False) -> None:
    """``print`` that prints every time a graph runs, with the arrays' values.

    The builtin ``print`` in a traced function runs once, while tracing, and
    shows symbolic arrays. ``autograph.print`` becomes a graph op instead.
    Outside any trace it is the builtin ``print``. Inside a trace, the backend
    of the first staged argument (or the tracing graph engine) stages it: the
    NumPy engine prints each time the graph runs, JAX through an ordered
    ``jax.debug.callback``, TensorFlow with ``tf.print`` (standard output, or
    ``sys.stderr`` if ``file`` is it); under ``torch.compile`` and
    ``torch.export`` printing a tensor is a ``StagingError`` (PyTorch's traced
    programs cannot print inside ``cond`` and ``while_loop``).

    Args:
        *args: What to print, as for ``print``.
        sep: Separator, as for ``print``.
        end: Ending, as for ``print``.
        file: Stream to print to (standard output by default).
        flush: Flush the stream after printing.

    Example:
        >>> import numpy as np
        >>> import autograph as ag
        >>> @ag.function
        ... def f(x):
        ...     ag.print("x is", x)
        ...     return x + 1
        >>> _ = f(np.array(1)); _ = f(np.array(2))
        x is 1
        x is 2
    """
    backend = first_backend(args) or backends.tracing_now()
    if backend is None:
        # an eager TensorFlow tensor shows its value, as tf.print (its staged form) shows it
        args = [a.numpy() if a.__class__.__name__ == "EagerTensor" else a for a in args]
        print(*args, sep=sep, end=end, file=file if file is not None else sys.stdout, flush=flush)
        return None
    return backend.print_(args, sep, end, file, flush)


_GENERATED_FUNCTION = re.compile(r"^(if_body|else_body|loop_body|loop_test|get_shared|set_shared|"
                                 r"try_region)(_\d+)?$")
_OWN_DIRS = tuple(os.path.dirname(RUNTIME_DIR) + os.sep + d + os.sep
                  for d in ("runtime", "autograph", "converters"))


def getframe_(depth: int = 0):
    """``sys._getframe(depth)`` in converted code: the frame eager code would get. The
    staged body of a function runs in a function of its own (called by the function's
    frame), its branches and loop bodies in generated functions called by autograph's
    operators (through the framework's tracing, under a trace); those frames are not
    counted, so ``sys._getframe(1)`` is the caller, as boltons' ``namedtuple`` and
    ``make_sentinel`` read their caller's module name."""
    frame, generated = _getframe(1), False
    while True:
        code = frame.f_code
        made = converted_codes.made(code)
        if made and _GENERATED_FUNCTION.match(code.co_name):
            generated = True  # up to the converted code that called it, through anything
        elif not code.co_filename.startswith(_OWN_DIRS) and (made or not generated):
            generated = False
            back = frame.f_back
            if back is not None and converted_codes.staged_codes.get(back.f_code) is code:
                frame = back  # the function's own frame, which called its staged body
            if depth == 0:
                return frame
            depth -= 1
        frame = frame.f_back
        if frame is None:
            raise ValueError("call stack is not deep enough")
