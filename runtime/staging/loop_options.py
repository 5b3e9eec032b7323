"""``set_loop_options``: what a staged loop may be told that its code does not say.

The user writes ``ag.set_loop_options(maximum_iterations=N)`` as the first statement
of a loop (TensorFlow's name and signature). The converter takes that statement out
of the loop body and passes its options to the loop (``ag__.for_loop(...,
options=ag__.loop_options(maximum_iterations=N))``), evaluated before the loop, as
TensorFlow's converter does. Called anywhere else it does nothing when the function
runs as plain Python (as in the unconverted original), and is a ``StagingError`` while
a trace runs: a staged loop would silently ignore options that change what it
computes (``maximum_iterations`` stops it), so the call must move to the loop's first
line.

A loop that runs as Python ignores its options. A staged loop makes them
``current()`` while its backend builds it (``operators.control_flow``); what they mean:

- ``maximum_iterations``: the loop stops after at most N iterations, as TensorFlow's
  loops do; it bounds the lists the loop appends to (``accumulate``) and lets JAX run a
  ``while`` as a bounded scan that ``jax.grad`` can reverse;
- ``shape_invariants``: ``[(variable, shape), ...]``, TensorFlow's: the variable (the
  same object before the loop) is carried with that shape, None where a dimension
  may change from one iteration to the next (a backend whose loop variables keep
  their shapes otherwise: ``Backend.needs_shape_invariants``);
- ``parallel_iterations``, ``swap_memory``: TensorFlow's; a backend that does not use
  an option given refuses it (``Backend.loop_options``).
"""

from __future__ import annotations

import contextlib
import contextvars
import inspect
from sys import _getframe  # the runtime's own: a user may take it off sys
from typing import Optional

from . import errors
from .mode import mode

_current: contextvars.ContextVar[dict] = contextvars.ContextVar("autograph_loop_options",
                                                                 default={})


def set_loop_options(*, parallel_iterations: Optional[int] = None,
                     swap_memory: Optional[bool] = None,
                     maximum_iterations: Optional[int] = None,
                     shape_invariants: Optional[list] = None) -> None:
    """Options of the staged loop whose first statement this call is.

    The converter moves the call out of the loop and hands its options to the loop;
    anywhere else it does nothing when the function runs as plain Python, and a loop
    that runs as Python ignores them.

    Args:
        parallel_iterations: TensorFlow's; refused by backends that do not use it.
        swap_memory: TensorFlow's; refused by backends that do not use it.
        maximum_iterations: A Python int: the staged loop runs at most this many
            iterations (it stops there, as TensorFlow's loops do). JAX needs it to
            collect what a loop with a run-time trip count appends to a list
            (``jnp.stack(lst)`` then has ``maximum_iterations`` rows per append: the
            first ``len(lst)`` appended, the rest zeros), and to differentiate a
            ``while`` in reverse mode (``jax.grad``).
        shape_invariants: TensorFlow's ``[(variable, shape), ...]``; refused by
            backends that do not use it.

    Returns:
        None.

    Raises:
        StagingError: when the loop is staged, an option its backend does not use;
            called while a trace runs anywhere but as a loop's first statement.

    Example:
        >>> import numpy as np
        >>> import autograph as ag
        >>> @ag.function
        ... def halvings(x):
        ...     seen = []
        ...     while x > 1:
        ...         ag.set_loop_options(maximum_iterations=64)
        ...         x = x / 2
        ...         seen.append(x)
        ...     return np.stack(seen)
        >>> halvings(np.array(10.0))
        array([5.   , 2.5  , 1.25 , 0.625])
    """
    if not mode.python and mode.staging():
        caller = _getframe(1)
        raise errors.StagingError(
            f"set_loop_options at {errors.at_line(caller.f_code.co_filename, caller.f_lineno)}: "
            "it is not the first statement of a for or while loop, so no loop takes its "
            "options. Make it the loop's first statement.")
    return None


def loop_options(**options) -> dict:
    """The options the converter took from a loop's ``set_loop_options`` statement
    (its keywords: the ``TypeError`` a call of it gives for an unknown one)."""
    try:
        _KEYWORDS.bind(**options)
    except TypeError as e:
        raise TypeError(f"set_loop_options() {e}") from None
    return {k: v for k, v in options.items() if v is not None}


_KEYWORDS = inspect.signature(set_loop_options)


def current() -> dict:
    """The options of the staged loop being built (innermost), ``{}`` if none."""
    return _current.get()


@contextlib.contextmanager
def building(options):
    """Make ``options`` (or none) ``current()`` while a staged loop is built."""
    token = _current.set(options or {})
    try:
        yield
    finally:
        _current.reset(token)


def invariant_shape(options: dict, value, construct: str, where_fn):
    """The shape ``shape_invariants`` gives the loop variable whose value before the loop
    is ``value`` (the same object), as a tuple with None for a dimension that may
    change, or None if it gives none."""
    for pair in options.get("shape_invariants") or ():
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
            raise errors.StagingError(
                f"{construct} at {errors.where(where_fn)}: set_loop_options(shape_invariants="
                f"...) takes a list of (variable, shape) pairs, not {pair!r}.")
        if pair[0] is value:
            shape = pair[1]
            dims = shape.as_list() if hasattr(shape, "as_list") else shape
            return tuple(None if d is None else int(d) for d in dims)
    return None


def check(options: dict, backend, construct: str, where_fn) -> None:
    """Refuse an option ``backend`` does not use (``Backend.loop_options``)."""
    for name in options:
        if name not in backend.loop_options:
            used = ", ".join(sorted(backend.loop_options)) or "none"
            raise errors.StagingError(
                f"{construct} at {errors.where(where_fn)}: set_loop_options({name}=...) is not "
                f"used by {backend.name} (the options it uses: {used}). Remove it.")
    bound = options.get("maximum_iterations")
    if bound is not None and (bound.__class__ is not int or bound < 0):
        raise errors.StagingError(
            f"{construct} at {errors.where(where_fn)}: set_loop_options(maximum_iterations="
            f"{bound!r}): give a Python int, 0 or more.")
