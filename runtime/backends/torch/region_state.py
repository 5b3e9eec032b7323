"""Python state a converted function changes while PyTorch traces it: refused.

Under ``torch.compile`` and ``torch.export`` a converted function is a non-strict region:
PyTorch runs its Python to trace it, several times per compile (dynamo's run on fake
tensors, AOTAutograd's trace), and none of it when the compiled graph runs. A global it
rebinds (``global COUNT; COUNT += 3`` in a helper), a list it appends to, an attribute of
a user object it sets would change at each of those traces and never per call (plain
dynamo replays such changes on every call), and may keep a fake tensor. ``unchanged``
watches what the function reaches (its closure, the globals it and the user functions it
reaches read or rebind: ``staging.inplace.InPlace``); a change is put back and is a
``StagingError`` naming it.
"""

from __future__ import annotations

import contextlib

from ...staging import errors
from ...staging.inplace import InPlace


@contextlib.contextmanager
def unchanged(func):
    """Run the block (PyTorch tracing the converted function ``func``, a region); a
    ``StagingError`` if it changed Python state ``func`` reaches, which is put back."""
    watch = InPlace([func], (), (), "torch.compile", func)
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


def _name(func) -> str:
    return getattr(func, "__qualname__", "the function")
