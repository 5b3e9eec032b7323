"""Lists and dicts a staged construct updates in place keep their identity.

A staged ``if`` or loop rebuilds its carried state from the op's outputs, so a list it
carries comes out as a new list. When every traced body returned the very list (or
dict) it was given — it wrote into it, as ``cur_nn[0] = cur_nn[0] + 1`` does, and did
not rebind the name to a new one — the caller's list must see the writes, as it does
eagerly (statsmodels' ``_lowess_update_nn`` updates the list its caller passed):
``refill`` writes the rebuilt items into the original object and returns it.
"""

from __future__ import annotations


def same_objects(out, given) -> list:
    """For each carried value: the body returned the object it was given."""
    return [o is g for o, g in zip(out, given)]


def refill(original, rebuilt):
    """``original`` (a list or dict) holding ``rebuilt``'s items, nested lists and dicts
    refilled the same way; anything else is ``rebuilt``."""
    cls = original.__class__
    if cls is not rebuilt.__class__ or cls not in (list, dict) or len(original) != len(rebuilt):
        return rebuilt
    if cls is list:
        original[:] = [refill(o, r) for o, r in zip(original, rebuilt)]
    elif original.keys() == rebuilt.keys():
        for key in original:
            original[key] = refill(original[key], rebuilt[key])
    else:
        return rebuilt
    return original
