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
import weakref

from ...staging import errors
from ...staging.inplace import MISSING, InPlace

# fn -> the changes of its trace runs that dynamo replays per call (``region_replay``):
# a later trace run (AOTAutograd's) that makes the same ones is put back, not refused
_replayed: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_recording: dict = {}  # id(fn) -> the list the next trace run's changes go in


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
        found = changes(watch) if changed is not None else None
        if changed is not None:
            watch.restore()
    if changed is not None and found is not None:
        recorder = _recording.pop(id(func), None)
        if recorder is not None:  # dynamo's run: region_replay decides
            recorder.append((found, changed))
            return
        if any(_same(found, done) for done in _replayed.get(func, ())):
            return
    if changed is not None:
        raise refusal(func, changed)


def refusal(func, changed: str):
    """The ``StagingError`` of ``func`` changing ``changed`` (a label) while traced."""
    name = _name(func)
    what = changed if " " in changed else errors.subject(changed) + " is changed"
    return errors.StagingError(
            f"torch.compile and torch.export: {name}() changes Python state outside it "
            f"({what}). PyTorch runs a converted function's Python only while "
            f"it traces it (several times per compile) and not when the compiled code runs, "
            f"so the change would not happen once per call. Return the new value (a tensor "
            f"output) and make the change outside the compiled function.")


@contextlib.contextmanager
def recording(func):
    """Hand the changes of ``func``'s next trace run to the block (a list, empty if it
    changed nothing), put back, instead of refusing them."""
    found: list = []
    _recording[id(func)] = found
    try:
        yield found
    finally:
        _recording.pop(id(func), None)


def accept(func, found) -> None:
    """Later trace runs of ``func`` that make the changes ``found`` are put back."""
    done = _replayed.setdefault(func, [])
    done.append(found)
    del done[:-16]  # (a compile per call: the last ones)


def changes(watch):
    """``[(holder, key, old, new)]``: what changed since the watch started (``holder``
    a dict, a list, a user object, or a module's namespace for a global it rebinds);
    None if something else changed (a set, a NumPy array's contents)."""
    found = watch.uncarried.rebound(MISSING)
    if found is None or watch.arrays.changed():
        return None
    for (node, _), before in zip(watch.nodes, watch.snapshots):
        now = watch._contents(node)
        for key in before.keys() | now.keys():
            old, new = before.get(key, MISSING), now.get(key, MISSING)
            if old is not new:
                found.append((node, key, old, new))
    return found


def _same(a, b) -> bool:
    return len(a) == len(b) and all(
        x[0] is y[0] and x[1] == y[1] and (x[2] is y[2] or x[2] == y[2])
        and (x[3] is y[3] or x[3] == y[3]) for x, y in zip(a, b))


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
