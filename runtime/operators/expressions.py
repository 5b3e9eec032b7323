"""Functional forms of Python's lazy expressions: ternaries, ``and``, ``or``, ``not``.

Python semantics first: ``and_(a, f)`` is ``a and f()`` — the right operand is a
thunk, evaluated only when Python would evaluate it, and the value (not a bool)
is returned. A staged left operand is staged (``staging.expressions``): a cond that
keeps the laziness where the framework needs it.
"""

from __future__ import annotations

import itertools
import operator

from ..staging import errors
from ..staging.arg_writes import user_location
from ..staging.backend import backend_of
from ..staging.expressions import stage_and, stage_if_exp, stage_or


def if_exp(cond, if_true, if_false):
    """``if_true() if cond else if_false()``."""
    return choose(cond, if_true, if_false)()


def choose(cond, if_true, if_false):
    """What ``... if cond else ...`` evaluates: the thunk the generated code then
    calls, ``ag__.choose(c, lambda: a, lambda: b)()``, so that no frame of the
    runtime sits between the user's function and the chosen operand. A staged
    ``cond`` gives a thunk that builds the backend's select/cond of both."""
    if cond.__class__ is bool or (backend := backend_of(cond)) is None:
        return if_true if cond else if_false
    return lambda: stage_if_exp(backend, cond, if_true, if_false)


def and_(value, rest):
    """What ``value and rest()`` evaluates, for the generated code to call::

        ag__.and_(a, lambda: b)()                     # a and b
        ag__.and_(a, lambda: ag__.and_(b, lambda: c)())()   # a and b and c

    On a Python ``value``: ``rest`` itself when ``value`` is truthy, so that the
    user's function evaluates the operand (nothing of the runtime sits between
    them), else something that gives ``value`` back. A staged ``value`` gives a
    thunk that builds the backend's cond, which evaluates ``rest`` when tracing.
    Longer chains nest to the right (``a and (b and c)``: the same values, each
    operand's truth asked once, as in Python)."""
    if value.__class__ is bool or (backend := backend_of(value)) is None:
        return rest if value else _constant(value)
    return lambda: stage_and(backend, value, rest)


def or_(value, rest):
    """What ``value or rest()`` evaluates, for the generated code to call (see ``and_``)."""
    if value.__class__ is bool or (backend := backend_of(value)) is None:
        return _constant(value) if value else rest
    return lambda: stage_or(backend, value, rest)


def and_cond(value, rest):
    """``and_`` where only the truth of the result is used (an ``if``/``while``
    test, an operand of ``not``): a falsy Python ``value`` gives ``False``, so its
    ``__bool__`` runs once, as in Python. Under a staged ``value`` both sides of
    the backend's choice are truths, of one type."""
    if value.__class__ is bool or (backend := backend_of(value)) is None:
        return rest if value else _FALSE
    return lambda: stage_and(backend, _truth(backend, value), lambda: _as_truth(rest()))


def or_cond(value, rest):
    """``or_`` where only the truth of the result is used (see ``and_cond``)."""
    if value.__class__ is bool or (backend := backend_of(value)) is None:
        return _TRUE if value else rest
    return lambda: stage_or(backend, _truth(backend, value), lambda: _as_truth(rest()))


def not_(value):
    """``not value``."""
    if value.__class__ is bool or (backend := backend_of(value)) is None:
        return not value
    return backend.not_(value)


def comprehension_test(value, kind: str):
    """The ``if`` test of a comprehension (``kind``: "list comprehension", ...): the
    value itself, whose truth Python asks next, as the original does; a staged value
    has no truth while tracing (the comprehension's length would be known only when the
    graph runs), a StagingError."""
    if value.__class__ is bool or backend_of(value) is None:
        return value
    raise errors.staged_comprehension_filter(kind, user_location())


def compare_sequences(op: str, left, right):
    """``left OP right`` of two tuple (or list) displays (``(y.sigma, y.mu) < (x.sigma,
    x.mu)``), element by element as Python compares sequences: the first pair that is
    not equal decides with ``OP`` itself, else the lengths do; ``==`` and ``!=`` ask
    every pair for equality. Python asks each pair's ``==`` for a bool, which a staged
    element has only when the graph runs: with one, each pair's test is staged (a
    select of the pair's comparison or the rest's), in Python's order. A pair that is
    one object is equal without a comparison, as in Python (a NaN equals itself there)."""
    if all(backend_of(v) is None for v in itertools.chain(left, right)):
        return _SEQUENCE_OPS[op](left, right)
    if op in ("==", "!="):
        if len(left) != len(right):
            return op == "!="
        equal = _all_equal(left, right, 0)
        return equal if op == "==" else not_(equal)
    return _first_difference(_SEQUENCE_OPS[op], left, right, 0)


_SEQUENCE_OPS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
                 "==": operator.eq, "!=": operator.ne}


def _all_equal(left, right, i):
    while i < len(left) and left[i] is right[i]:
        i += 1
    if i == len(left):
        return True
    return and_cond(left[i] == right[i], lambda: _all_equal(left, right, i + 1))()


def _first_difference(compare, left, right, i):
    while i < len(left) and i < len(right) and left[i] is right[i]:
        i += 1
    if i == len(left) or i == len(right):
        return compare(len(left), len(right))
    a, b = left[i], right[i]
    return if_exp(a == b, lambda: _first_difference(compare, left, right, i + 1),
                  lambda: compare(a, b))


# Callables, implemented in C, that give a Python operand back: calling them
# runs no Python frame (``False.__bool__()`` is ``False``).
_FALSE, _TRUE = False.__bool__, True.__bool__


def _constant(value):
    if value is False:
        return _FALSE
    if value is True:
        return _TRUE
    return itertools.repeat(value).__next__


def _as_truth(value):
    if value.__class__ is bool:
        return value
    backend = backend_of(value)
    return bool(value) if backend is None else _truth(backend, value)


def _truth(backend, value):
    """A staged value's truth, as the backend's bool (a bool array is its own)."""
    if getattr(value, "dtype", None) == bool:
        return value
    aval = backend.aval(value)  # a framework's own bool dtype (torch.bool) is not bool
    if aval is not None and aval.dtype == bool:
        return value
    return backend.not_(backend.not_(value))
