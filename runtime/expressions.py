"""Functional forms of Python's lazy expressions: ternaries, ``and``, ``or``, ``not``.

Python semantics first: ``and_(a, f)`` is ``a and f()`` — the right operand is a
thunk, evaluated only when Python would evaluate it, and the value (not a bool)
is returned. A staged left operand goes to its backend, which keeps the laziness
with a cond where the framework needs it.
"""

from __future__ import annotations

from .backends import backend_of


def if_exp(cond, if_true, if_false):
    """``if_true() if cond else if_false()``."""
    if cond.__class__ is bool or (backend := backend_of(cond)) is None:
        return if_true() if cond else if_false()
    return backend.if_exp(cond, if_true, if_false)


def and_(value, *rest):
    """``value and rest[0]() and rest[1]() ...``."""
    for i, thunk in enumerate(rest):
        if value.__class__ is not bool and (backend := backend_of(value)) is not None:
            return backend.and_(value, lambda: and_(thunk(), *rest[i + 1:]))
        if not value:
            return value
        value = thunk()
    return value


def or_(value, *rest):
    """``value or rest[0]() or rest[1]() ...``."""
    for i, thunk in enumerate(rest):
        if value.__class__ is not bool and (backend := backend_of(value)) is not None:
            return backend.or_(value, lambda: or_(thunk(), *rest[i + 1:]))
        if value:
            return value
        value = thunk()
    return value


def not_(value):
    """``not value``."""
    if value.__class__ is bool or (backend := backend_of(value)) is None:
        return not value
    return backend.not_(value)


def and_cond(value, *rest):
    """``value and rest[0]() ...`` where only its truth is used (an ``if``/``while``
    test, ``not``): a falsy Python operand gives ``False``, so the operand's
    ``__bool__`` runs once, as in Python."""
    for i, thunk in enumerate(rest):
        if value.__class__ is not bool and (backend := backend_of(value)) is not None:
            return backend.and_(value, lambda: and_cond(thunk(), *rest[i + 1:]))
        if not value:
            return False
        value = thunk()
    return value


def or_cond(value, *rest):
    """``value or rest[0]() ...`` where only its truth is used (see ``and_cond``)."""
    for i, thunk in enumerate(rest):
        if value.__class__ is not bool and (backend := backend_of(value)) is not None:
            return backend.or_(value, lambda: or_cond(thunk(), *rest[i + 1:]))
        if value:
            return True
        value = thunk()
    return value
