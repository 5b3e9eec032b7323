"""Functional forms of Python's lazy expressions: ternaries, ``and``, ``or``, ``not``.

Python semantics first: ``and_(a, f)`` is ``a and f()`` — the right operand is a
thunk, evaluated only when Python would evaluate it, and the value (not a bool)
is returned. A staged left operand goes to its backend, which keeps the laziness
with a cond where the framework needs it.
"""

from __future__ import annotations

import operator

from .backends import backend_of


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
    return lambda: backend.if_exp(cond, if_true, if_false)


def and_(value, *rest):
    """``value and rest[0]() and rest[1]() ...``."""
    return _chain(value, rest, True, False)


def or_(value, *rest):
    """``value or rest[0]() or rest[1]() ...``."""
    return _chain(value, rest, False, False)


def not_(value):
    """``not value``."""
    if value.__class__ is bool or (backend := backend_of(value)) is None:
        return not value
    return backend.not_(value)


_COMPARISONS = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "==": operator.eq, "!=": operator.ne, "is": operator.is_, "is not": operator.is_not,
    "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
}


def compare(left, *links):
    """``left op1 right1() op2 right2() ...``, a chained comparison: ``links`` are
    pairs of an operator's symbol and a thunk of its right operand. Each operand
    is evaluated once, and only if Python would; the links are combined as a lazy
    ``and_``, so a staged link stages the rest of the chain."""
    op, right = links[0], links[1]()
    result = _COMPARISONS[op](left, right)
    if len(links) == 2:
        return result
    return and_(result, lambda: compare(right, *links[2:]))


def and_cond(value, *rest):
    """``value and rest[0]() ...`` where only its truth is used (an ``if``/``while``
    test, ``not``): a falsy Python operand gives ``False``, so the operand's
    ``__bool__`` runs once, as in Python."""
    return _chain(value, rest, True, True)


def or_cond(value, *rest):
    """``value or rest[0]() ...`` where only its truth is used (see ``and_cond``)."""
    return _chain(value, rest, False, True)


def _chain(value, rest, is_and: bool, as_condition: bool):
    """Evaluate an ``and`` (``is_and``) or ``or`` chain left to right, stopping at
    the first operand that decides it; that operand is the result, or its truth
    when the chain is a condition."""
    for i, thunk in enumerate(rest):
        if value.__class__ is not bool and (backend := backend_of(value)) is not None:
            combine = backend.and_ if is_and else backend.or_
            if as_condition:  # both sides of the backend's choice are truths, of one type
                value = _truth(backend, value)
            return combine(value, lambda: _chain(thunk(), rest[i + 1:], is_and, as_condition))
        if bool(value) != is_and:
            return (not is_and) if as_condition else value
        value = thunk()
    if as_condition and value.__class__ is not bool:
        backend = backend_of(value)
        return bool(value) if backend is None else _truth(backend, value)
    return value


def _truth(backend, value):
    """A staged value's truth, as the backend's bool (a bool array is its own)."""
    if getattr(value, "dtype", None) == bool:
        return value
    return backend.not_(backend.not_(value))
