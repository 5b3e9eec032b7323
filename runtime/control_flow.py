"""Functional control flow: what the staged body of a converted function calls.

Each operator has one Python path and one dispatch point. The Python path is the
statement's reference semantics; e.g. ``while_stmt`` is::

    while test(*state):
        state = body(*state)
    return state

When a condition or iterable is a staged value of some backend (see
``backends``), the backend builds its graph op instead. Handing over works in
the middle of a loop: a ``while`` whose test turns staged after a few Python
iterations continues as a backend loop from the current state, and a Python
``for`` whose ``extra_test`` (the lowered ``break``/``return`` flag) turns staged
runs its remaining iterations each under a backend ``if``.

Bodies receive the carried variables as arguments and return them as a tuple,
so no operator mutates enclosing variables. The exception is ``shared``: variables
that closures capture (or that are declared ``nonlocal``/``global``) are assigned
in place by the generated functions, so that every closure keeps seeing one
variable. Python runs them as they are; for a backend op, ``shared`` — a getter,
a setter and the names — carries them as extra state, the way a backend needs
every value a branch or loop body changes.
"""

from __future__ import annotations

from . import staged_raise
from .backends import backend_of


def if_stmt(cond, body, orelse, state, names, shared=None):
    """``body(*state) if cond else orelse(*state)``; ``orelse`` None keeps ``state``.

    A staged ``cond`` traces both branches into the backend's cond op; every name
    in ``names`` must then be defined by both branches.
    """
    if cond.__class__ is bool or (backend := backend_of(cond)) is None:
        if cond:
            return body(*state)
        return state if orelse is None else orelse(*state)
    branches = staged_raise.Branches(backend, names[:len(state)])
    body = branches.catching(body, 0, len(state))
    orelse = branches.catching(orelse or _keep, 1, len(state))
    with branches:
        out = backend.if_stmt(cond, body, orelse, state, names, shared)
    branches.check()
    return out


def _keep(*state):
    return state


def while_stmt(test, body, state, names, shared=None):
    """``while test(*state): state = body(*state)``, returning the final state."""
    while True:
        cond = test(*state)
        if cond.__class__ is not bool and (backend := backend_of(cond)) is not None:
            return backend.while_stmt(test, body, state, names, cond, shared)
        if not cond:
            return state
        state = body(*state)


def for_stmt(iterable, body, state, names, extra_test=None, shared=None):
    """``for item in iterable: state = body(item, *state)``.

    ``extra_test(*state)`` is checked after each iteration; a false value ends the
    loop (it carries the lowered ``break`` and ``return``). A staged iterable is
    handed to its backend; a staged ``extra_test`` result makes each remaining
    iteration of the Python loop run under a backend ``if``.
    """
    backend = None if iterable.__class__ in _PYTHON_ITERABLES else backend_of(iterable)
    if backend is not None:
        return backend.for_stmt(iterable, body, state, names, extra_test, shared)
    if extra_test is None:
        for item in iterable:
            state = body(item, *state)
        return state
    iterator = iter(iterable)
    for item in iterator:
        state = body(item, *state)
        go_on = extra_test(*state)
        if go_on.__class__ is not bool and backend_of(go_on) is not None:
            return _guarded_rest(go_on, iterator, body, state, names, extra_test, shared)
        if not go_on:
            break
    return state


def _guarded_rest(go_on, iterator, body, state, names, extra_test, shared):
    """Unroll the rest of a Python loop whose exit flag became staged."""
    for item in iterator:
        state = if_stmt(go_on, lambda *s, item=item: body(item, *s), None, state, names, shared)
        go_on = extra_test(*state)
    return state


_PYTHON_ITERABLES = frozenset({range, list, tuple, dict, str, set, frozenset, bytes, enumerate, zip})


def assert_stmt(cond, message=None):
    """``assert cond, message()``; ``message`` is a thunk, evaluated only on failure."""
    if cond.__class__ is bool or (backend := backend_of(cond)) is None:
        if not cond:
            if message is None:
                raise AssertionError
            raise AssertionError(message())
        return None
    return backend.assert_stmt(cond, message)
