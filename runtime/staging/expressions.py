"""Staged conditional expressions and lazy ``and``/``or``: each is a staged ``if``
(``conditionals.stage_if``) with one output, whose branches are the thunks the
converter passes, so only the side a run takes is computed at run time."""

from __future__ import annotations

from typing import Any, Callable

from .conditionals import stage_if


def stage_if_exp(backend, cond, if_true: Callable[[], Any], if_false: Callable[[], Any]):
    """``if_true()`` if ``cond`` else ``if_false()``, both thunks, for a staged ``cond``."""
    (value,) = stage_if(backend, cond, _at(lambda: (if_true(),), if_true, "conditional expression"),
                        lambda: (if_false(),), (), ("the conditional expression",),
                        construct="conditional expression")
    return value


def stage_and(backend, value, rest: Callable[[], Any]):
    """``value and rest()`` for a staged ``value``; ``rest`` is a thunk."""
    (out,) = stage_if(backend, value, _at(lambda: (rest(),), rest, "'and' expression"), lambda: (value,),
                      (), ("the 'and' expression",), construct="'and' expression")
    return out


def stage_or(backend, value, rest: Callable[[], Any]):
    """``value or rest()`` for a staged ``value``; ``rest`` is a thunk."""
    (out,) = stage_if(backend, value, _at(lambda: (value,), rest, "'or' expression"), lambda: (rest(),),
                      (), ("the 'or' expression",), construct="'or' expression")
    return out


def _at(branch, user_fn, construct: str):
    """``branch`` of ``construct``, located (in error messages) at the user's code ``user_fn``."""
    branch.__wrapped__ = user_fn
    branch.staged_construct = construct
    return branch
