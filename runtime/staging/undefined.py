"""Variables that may not be assigned yet.

The staged body passes loop and branch state explicitly, so a variable that is
assigned only inside an ``if`` or a loop must still have *some* value when it is
passed in. The converter gives it an ``Undefined`` placeholder, and wraps every
read of a variable that may be unassigned in ``ld``, which raises exactly what
Python would have raised: ``UnboundLocalError`` for a local.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import sys


class Undefined:
    """Placeholder value of a local variable that has not been assigned."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<undefined {self.name}>"

    def __bool__(self):
        raise unbound_error(self.name)

    def __getattr__(self, attr):
        raise unbound_error(self.name)


def unbound_error(name: str) -> UnboundLocalError:
    if sys.version_info >= (3, 11):
        message = f"cannot access local variable '{name}' where it is not associated with a value"
    else:
        message = f"local variable '{name}' referenced before assignment"
    return UnboundLocalError(message)


def ld(value):
    """A read of a variable that may hold an ``Undefined`` placeholder."""
    if value.__class__ is Undefined:
        raise unbound_error(value.name)
    read = getattr(value.__class__, "checked_read", None)  # a backend's maybe-unbound value
    return value if read is None else read(value)


def ld_attribute(value, obj, name: str):
    """A read of ``obj.<name>`` (``value``) in a function that also assigns it: where a
    staged ``if`` or loop left it absent on some paths it holds a backend's flagged value,
    and the read raises the ``AttributeError`` eager Python raises there when the program
    runs (or is a StagingError where the framework cannot raise at run time)."""
    read = getattr(value.__class__, "checked_read", None)
    if read is None:
        return value
    return read(value, AttributeError(f"'{type(obj).__name__}' object has no attribute '{name}'"))


def ldu(read, name: str):
    """The value of a variable that may be unassigned, or an ``Undefined``.

    ``read`` is ``lambda: name``; it raises ``NameError`` when the variable is
    unassigned, which is turned into the placeholder.
    """
    try:
        return read()
    except NameError:
        return Undefined(name)


def ldattr(obj, name: str):
    """``obj.<name>``, or an ``Undefined`` placeholder if ``obj`` has no such attribute."""
    try:
        return getattr(obj, name)
    except AttributeError:
        return Undefined(name)


def stattr(obj, name: str, value) -> None:
    """``obj.<name> = value``, unless ``value`` is a placeholder (nothing was assigned)."""
    if value.__class__ is not Undefined:
        setattr(obj, name, value)


class ReturnValue:
    """Placeholder of a function's return value before any ``return`` ran."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<no return value>"


NO_RETURN = ReturnValue()


def retval(value):
    """What a converted function returns: ``None`` when no ``return`` ran (a value
    that staged paths may not have returned: ``returns``)."""
    if value is NO_RETURN:
        return None
    finish = getattr(value.__class__, "finish_return", None)  # staged_return.Pending
    return value if finish is None else finish(value)


class MissingOnSomePaths(NamedTuple):
    """An attribute or item one branch of a staged ``if`` assigns and the other leaves
    absent (``self.width`` set after an early return), on a backend that carries no
    run-time "unassigned" flag it could raise from: ``flag`` is true where it is absent.
    Nothing may use it (a StagingError naming it); a program that never reads it on
    the staged paths after the ``if`` runs as eagerly."""

    flag: Any
    value: Any
    name: str


def _refuse_missing(self, *args, **kwargs):
    from .errors import StagingError

    raise StagingError(
        f"'{self.name}' is assigned on some staged paths only (one branch of an if whose "
        f"condition is a staged value) and is used here; the compiled code cannot raise the "
        f"AttributeError eager Python raises on the other paths. Assign '{self.name}' before "
        f"the if statement, or in both branches.")


for _name in ("add", "radd", "sub", "rsub", "mul", "rmul", "truediv", "rtruediv", "floordiv",
              "mod", "pow", "matmul", "neg", "pos", "abs", "lt", "le", "gt", "ge", "eq", "ne",
              "and", "or", "invert", "bool", "float", "int", "index", "iter", "getitem", "len",
              "array", "array_ufunc", "array_function", "jax_array"):
    setattr(MissingOnSomePaths, f"__{_name}__", _refuse_missing)
MissingOnSomePaths.__getattr__ = _refuse_missing
MissingOnSomePaths.__hash__ = object.__hash__
MissingOnSomePaths.checked_read = _refuse_missing


def pair_missing(label: str, t, f, absent):
    """Both sides of an attribute one side leaves ``absent``, as MissingOnSomePaths."""
    def side(x, other):
        if x.__class__ is MissingOnSomePaths:
            return MissingOnSomePaths(x.flag, x.value, label)
        if x is absent:
            return MissingOnSomePaths(True, other.value if other.__class__ is
                                      MissingOnSomePaths else other, label)
        return MissingOnSomePaths(False, x, label)
    return side(t, f), side(f, t)
