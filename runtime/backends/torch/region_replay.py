"""Python state a converted function changes under ``torch.compile``: replayed per call.

PyTorch runs a converted function (a non-strict region) only while it traces it; plain
dynamo, tracing the original, records the Python state it changes (a global a helper
rebinds, ``self.calls += 1``, ``CACHE["k"] = n``, ``self.log.append(n)``) as side
effects that the compiled code makes on every call, guarded on the values it read.
``replay`` does the same for a region: the changes its run during dynamo's trace made
(``region_state.recording``, put back) become dynamo side effects, each a constant
stored in a place whose value before was guarded (``region_reads``), so that a call
where it differs compiles again, as the original's does (plain dynamo guards
``COUNT == 7`` and compiles per call as well). What it cannot make so (a new value
that is not a Python number, string, bool or ``None``, such as a tensor to cache; an
attribute the object did not have; a place not guarded) stays the ``StagingError`` of
``region_state``.
"""

from __future__ import annotations

from ...staging.inplace import MISSING

_SCALARS = (bool, int, float, complex, str, bytes, type(None))


def replay(tx, guards, found) -> bool:
    """Make ``found`` (``region_state.changes``) dynamo side effects of the call being
    traced; False (and nothing made) where one of them cannot be."""
    lists: dict = {}
    plan = []
    for holder, key, old, new in found:
        if not _constant(new):
            return False
        if id(holder) in guards.spaces:  # a module's globals: a global rebound
            if old is MISSING or new is MISSING or (id(holder), key) not in guards.guarded:
                return False
            plan.append((_global, guards.spaces[id(holder)], holder, key, new))
            continue
        source = guards.sources.get(id(holder))
        if source is None:
            return False
        if holder.__class__ is list:  # its length and items guarded
            lists.setdefault(id(holder), (source, holder, {}))[2][key] = new
        elif holder.__class__ is dict:  # its keys and items guarded (str or int keys)
            if not all(k.__class__ in (str, int) for k in (key, *holder)):
                return False
            plan.append((_item, source, holder, key, new))
        elif old is MISSING or new is MISSING or (id(holder), key) not in guards.guarded:
            return False  # an attribute added or deleted, or one not guarded
        else:
            plan.append((_attribute, source, holder, key, new))
    plan.extend((_list, source, holder, None, items) for source, holder, items in lists.values())
    for apply, source, holder, key, new in plan:
        apply(tx, source, holder, key, new)
    return True


def _constant(value) -> bool:
    if value is MISSING or value.__class__ in _SCALARS:
        return True
    return value.__class__ is tuple and all(v.__class__ in _SCALARS for v in value)


def _value(tx, value):
    from torch._dynamo.variables import VariableTracker

    return VariableTracker.build(tx, value)


def _built(tx, source, value):
    from torch._dynamo.variables.builder import VariableBuilder

    return VariableBuilder(tx, source)(value)


def _attribute(tx, source, holder, name, new) -> None:
    from torch._dynamo.variables.builder import SourcelessBuilder

    SourcelessBuilder.create(tx, setattr).call_function(
        tx, [_built(tx, source, holder), _value(tx, name), _value(tx, new)], {})


def _item(tx, source, holder, key, new) -> None:
    variable = _built(tx, source, holder)
    if new is MISSING:
        variable.call_method(tx, "__delitem__", [_value(tx, key)], {})
    else:
        variable.call_method(tx, "__setitem__", [_value(tx, key), _value(tx, new)], {})


def _list(tx, source, holder, _, items) -> None:
    """A list's items set, appended (indexes past its end) or popped (MISSING)."""
    variable = _built(tx, source, holder)
    size = len(holder)
    for i in sorted(k for k in items if k < size and items[k] is not MISSING):
        variable.call_method(tx, "__setitem__", [_value(tx, i), _value(tx, items[i])], {})
    for i in sorted(k for k in items if k >= size):
        variable.call_method(tx, "append", [_value(tx, items[i])], {})
    for _ in (k for k in items if k < size and items[k] is MISSING):
        variable.call_method(tx, "pop", [], {})


def _global(tx, source, namespace, name, new) -> None:
    """A module global rebound (``global COUNT; COUNT += 1`` in a helper)."""
    value = _value(tx, new)
    side_effects = tx.output.side_effects
    if source == "frame":  # the globals of the frame dynamo traces: as its STORE_GLOBAL
        from torch._dynamo.source import GlobalSource

        root = tx.output.root_tx
        marker = root.symbolic_globals.setdefault(name, object())
        variable = side_effects.track_global_existing(GlobalSource(name), marker)
        side_effects.store_global(variable, name, value)
    else:
        import sys

        module = sys.modules[namespace["__name__"]]
        side_effects.store_attr(_built(tx, source, module), name, value)
