"""Staged conditional expressions and lazy ``and``/``or``: each is a staged ``if``
(``conditionals.stage_if``) with one output, whose branches are the thunks the
converter passes, so only the side a run takes is computed at run time."""

from __future__ import annotations

import dis
import functools
import types
from typing import Any, Callable

from .arrays import nested_codes
from .conditionals import stage_if


def stage_if_exp(backend, cond, if_true: Callable[[], Any], if_false: Callable[[], Any]):
    """``if_true()`` if ``cond`` else ``if_false()``, both thunks, for a staged ``cond``."""
    (value,) = stage_if(backend, cond, _at(lambda: (if_true(),), if_true, "conditional expression"),
                        lambda: (if_false(),), (), ("the conditional expression",),
                        shared=rebound_cells(if_true, if_false), construct="conditional expression")
    return value


def stage_and(backend, value, rest: Callable[[], Any]):
    """``value and rest()`` for a staged ``value``; ``rest`` is a thunk."""
    (out,) = stage_if(backend, value, _at(lambda: (rest(),), rest, "'and' expression"), lambda: (value,),
                      (), ("the 'and' expression",), shared=rebound_cells(rest),
                      construct="'and' expression")
    return out


def stage_or(backend, value, rest: Callable[[], Any]):
    """``value or rest()`` for a staged ``value``; ``rest`` is a thunk."""
    (out,) = stage_if(backend, value, _at(lambda: (value,), rest, "'or' expression"), lambda: (rest(),),
                      (), ("the 'or' expression",), shared=rebound_cells(rest),
                      construct="'or' expression")
    return out


def rebound_cells(*thunks):
    """The ``shared`` (getter, setter, names) of the variables that functions the
    operands call rebind by ``nonlocal`` (``tick()`` counting in ``k``), or None: an
    expression has no statement to carry them as an ``if`` does (the converter's
    ``get_shared``/``set_shared``), so the staged choice carries their cells, and the
    side a run does not take leaves them as they were (it counted on both before)."""
    cells, seen, todo = {}, set(), list(thunks)
    while todo:
        fn = todo.pop()
        if fn.__class__ is not types.FunctionType or id(fn) in seen:
            continue
        seen.add(id(fn))
        stored = _stored_free(fn.__code__)
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
            try:
                content = cell.cell_contents
            except ValueError:  # not assigned yet
                continue
            if name in stored:
                cells.setdefault(id(cell), (name, cell))
            if content.__class__ is types.FunctionType:
                todo.append(content)
    if not cells:
        return None
    held = list(cells.values())

    def put(values):
        for (_, cell), value in zip(held, values):
            cell.cell_contents = value

    return (lambda: tuple(cell.cell_contents for _, cell in held), put, tuple(n for n, _ in held))


@functools.lru_cache(maxsize=1024)
def _stored_free(code) -> frozenset:
    """The free variables ``code`` (or a function nested in it) assigns."""
    return frozenset(i.argval for c in nested_codes(code) for i in dis.get_instructions(c)
                     if i.opname in ("STORE_DEREF", "DELETE_DEREF")) & frozenset(code.co_freevars)


def _at(branch, user_fn, construct: str):
    """``branch`` of ``construct``, located (in error messages) at the user's code ``user_fn``."""
    branch.__wrapped__ = user_fn
    branch.staged_construct = construct
    return branch
