"""A function's return value when some staged paths have not returned (issue 9.3).

The return lowering keeps the return value in a variable that starts as
``NO_RETURN`` and is returned as ``None`` if no ``return`` ran. When a staged
``if`` joins a path that returned with one that did not, or a staged loop may end
without running its ``return``, the value becomes ``Pending``: a run-time flag
(true where no return ran) next to the returned value (a placeholder of its type
where none ran). Both are ordinary leaves, joined and carried like any other.

A path that the converter knows has returned (the ``else`` of its
``if not do_return:`` guard) takes the value back (``returned``), so a function
whose every path ends in a ``return`` never ends with a ``Pending``. One that
still does falls off its end on some staged paths: its backend decides at the
function's end (``Backend.maybe_no_return``) — the NumPy engine carries it on as a
value that is ``None`` exactly when the flag is set; a backend that cannot carry
``None`` raises the StagingError ``errors.falls_off_end``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from . import errors
from .state import filler
from .undefined import NO_RETURN


class Pending(NamedTuple):
    """The return value: ``value`` where a return ran, nothing where ``flag`` is set."""

    flag: Any
    value: Any
    where: str  # the path that returns nothing, for messages: "the for loop at ... may end ..."

    # how a message names a leaf inside it (``state.items``): as the value itself
    label_suffixes = (" (whether it returned)", "", "")


class _Unreached:
    """The return value on a path that returned (the converter's guard says so) where
    the trace saw no ``return`` run: one it never traced (in an ``except`` handler, say).
    No run takes that path; a branch join gives it the other side's value."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<unreached return>"

    def finish_return(self) -> None:
        return None


UNREACHED = _Unreached()


def involved(t, f) -> bool:
    """True if joining ``t`` and ``f`` needs ``pair`` (a side that did not return)."""
    return ((t is NO_RETURN) != (f is NO_RETURN) or t.__class__ is Pending
            or f.__class__ is Pending or t is UNREACHED or f is UNREACHED)


def pair(t, f, where_fn, backend):
    """``t`` and ``f``, the two branches' return values of a staged ``if`` (one of
    them ``NO_RETURN`` or a ``Pending``), as ``Pending`` values on both sides; an
    ``UNREACHED`` side takes the other side's placeholders."""
    if t is UNREACHED or f is UNREACHED:
        if t is f:
            return t, f
        other = f if t is UNREACHED else t
        fill = other if other is NO_RETURN else filler(other, backend)
        return (fill, f) if t is UNREACHED else (t, fill)
    where = next((x.where for x in (t, f) if x.__class__ is Pending), None)
    if where is None:
        side = "true" if t is NO_RETURN else "false"
        where = (f"the {side} branch of the if statement at {errors.where(where_fn)} ends "
                 f"without a return")
    model = next(x for x in (t, f) if x is not NO_RETURN)
    model = model.value if model.__class__ is Pending else model
    return _pending(t, model, where, backend), _pending(f, model, where, backend)


def loop_where(construct: str, where_fn) -> str:
    """``Pending.where`` of a staged loop whose body may return."""
    return f"the {construct} at {errors.where(where_fn)} may end without a return"


def _pending(x, model, where: str, backend) -> Pending:
    if x is NO_RETURN:
        return Pending(True, filler(model, backend), where)
    if x.__class__ is Pending:
        return x if x.where == where else Pending(x.flag, x.value, where)
    return Pending(False, x, where)


def returned(value):
    """The return value on a path where a ``return`` ran (the converter's guard says so)."""
    if value is NO_RETURN:
        return UNREACHED
    return value.value if value.__class__ is Pending else value


def finish(value: Pending):
    """What the function returns when its return value is still ``Pending``
    (``undefined.retval`` calls it, as ``Pending.finish_return``)."""
    from .arg_writes import function_name  # (these need the staging core, which needs us)
    from .backend import backend_of

    flag = value.flag
    if flag.__class__ is bool:
        return None if flag else value.value
    if value.value is None:
        return None
    backend = backend_of(flag)
    return backend.maybe_no_return(value, function_name())


Pending.finish_return = finish
