"""Python state a converted function changes while PyTorch traces it: refused.

Under ``torch.compile`` and ``torch.export`` a converted function is a non-strict region:
PyTorch runs its Python to trace it, several times per compile (dynamo's run on fake
tensors, AOTAutograd's trace), and none of it when the compiled graph runs. A global it
rebinds (``global COUNT; COUNT += 3`` in a helper), a list it appends to, an attribute of
a user object it sets (``self.calls += 1`` in a module's ``forward``) would change at each
of those traces and never per call (plain dynamo replays such changes on every call), and
may keep a fake tensor (``self._mask = torch.ones(n)``). ``unchanged`` watches what the
function reaches: its closure, the globals it and the user functions it reaches read or
rebind, and its arguments (the module ``self`` of a converted ``forward``, a container,
a user object): ``staging.inplace.InPlace``, built at trace time only. A change is put
back and is a ``StagingError`` naming it.

What PyTorch itself changes on a module while it traces it happens outside the watch:
``flat_apply`` puts the traced parameters and buffers in before the function runs and
the module's own afterwards, and ``torch.compile(module)`` sets its attributes before.
Modules of PyTorch's own classes (``nn.Linear``, ``nn.BatchNorm1d``) are not the user's
state: their attributes are not watched (``staging.user_state``).
"""

from __future__ import annotations

import contextlib
import inspect

from ...staging import errors
from ...staging.inplace import InPlace


@contextlib.contextmanager
def unchanged(func, args=(), kwargs=None):
    """Run the block (PyTorch tracing the converted function ``func``, a region, called
    with ``args`` and ``kwargs``); a ``StagingError`` if it changed Python state ``func``
    reaches, which is put back."""
    names, values = arguments(func, args, kwargs or {})
    watch = InPlace([func], values, names, "torch.compile", func)
    try:
        yield
    finally:
        changed = watch.first_change()
        if changed is not None:
            watch.restore()
    if changed is not None:
        name = _name(func)
        what = changed if " " in changed else errors.subject(changed) + " is changed"
        raise errors.StagingError(
            f"torch.compile and torch.export: {name}() changes Python state outside it "
            f"({what}). PyTorch runs a converted function's Python only while "
            f"it traces it (several times per compile) and not when the compiled code runs, "
            f"so the change would not happen once per call. Return the new value (a tensor "
            f"output) and make the change outside the compiled function.")


def arguments(func, args, kwargs) -> tuple[list, list]:
    """``(names, values)`` of what ``func`` is called with, named by its parameters
    (``self`` for a module's ``forward``)."""
    try:
        bound = inspect.signature(func).bind(*args, **kwargs)
    except (TypeError, ValueError):  # no signature to read: by position
        return ([f"argument {i + 1}" for i in range(len(args))] + list(kwargs),
                [*args, *kwargs.values()])
    return list(bound.arguments), list(bound.arguments.values())


def _name(func) -> str:
    return getattr(func, "__qualname__", "the function")
