"""Lists and dicts a staged construct updates in place keep their identity.

A staged ``if`` or loop rebuilds its carried state from the op's outputs, so a list it
carries comes out as a new list. When every traced body returned the very list (or
dict) it was given — it wrote into it, as ``cur_nn[0] = cur_nn[0] + 1`` does, and did
not rebind the name to a new one — the caller's list must see the writes, as it does
eagerly (statsmodels' ``_lowess_update_nn`` updates the list its caller passed):
``refill`` writes the rebuilt items into the original object and returns it.
"""

from __future__ import annotations

import types
import weakref

from .backend import backend_of


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


_DEPTH = 2  # levels of lists and dicts under a global or closure variable
_MAX_ITEMS = 10_000  # a larger container is not copied (nor put back)


class Contents:
    """The items of the lists and dicts reachable from ``roots`` (two levels down), as
    they were: ``restore`` puts back those into which a failed trace put a staged value
    (``H[0] = x * 0`` into a global list would leave a symbolic value there), in place,
    so every name holding the container sees its old items again."""

    def __init__(self, roots) -> None:
        self.saved: list = []  # (container, shallow copy of it)
        seen: set = set()
        stack = [(value, _DEPTH) for value in roots]
        while stack:
            value, depth = stack.pop()
            cls = value.__class__
            if (cls is not list and cls is not dict) or id(value) in seen \
                    or len(value) > _MAX_ITEMS:
                continue
            seen.add(id(value))
            copy = value.copy()
            self.saved.append((value, copy))
            if depth > 1:
                stack.extend((v, depth - 1) for v in (copy.values() if cls is dict else copy))

    def restore(self) -> None:
        """Put back each container that now holds a staged value it did not hold before
        (Python values the trace put there stay, as they would eagerly up to the error)."""
        for container, before in self.saved:
            now = container.values() if container.__class__ is dict else container
            had = {id(v) for v in (before.values() if before.__class__ is dict else before)}
            if not any(id(v) not in had and backend_of(v) is not None for v in now):
                continue
            if container.__class__ is list:
                container[:] = before
            else:
                container.clear()
                container.update(before)


def touched_globals(code, namespace: dict) -> list:
    """``(name, value)`` of the globals ``code`` (and the code nested in it) names."""
    stack, names = [code], set()
    while stack:
        c = stack.pop()
        names.update(c.co_names)
        stack.extend(k for k in c.co_consts if k.__class__ is code.__class__)
    return [(n, namespace[n]) for n in sorted(names) if n in namespace]


class Saved:
    """What a trace of the converted function running in ``frame`` can change in place
    and a failed trace must put back: the globals its code names (one rebound to a
    staged value is rebound again), and the lists and dicts held by them and by its
    closure variables (``Contents``)."""

    def __init__(self, frame) -> None:
        self.frame_id = id(frame)  # the function's frame, while it runs
        self.namespace = frame.f_globals
        self.globals = touched_globals(frame.f_code, self.namespace)
        free = [frame.f_locals.get(n) for n in frame.f_code.co_freevars]
        self.contents = Contents([v for _, v in self.globals] + free)

    def restore(self) -> None:
        for name, value in self.globals:
            now = self.namespace.get(name, Saved)
            if now is not value and backend_of(now) is not None:
                self.namespace[name] = value
        self.contents.restore()


_TOUCHABLE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def touchable(fn) -> tuple:
    """The global names ``fn`` can reach: the names its code (and its nested code)
    uses, and, for each that is a function or class of the same module, the names
    that one's code uses, and so on. Cached per function and code object."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return tuple(getattr(fn, "__globals__", {}))
    try:
        cached = _TOUCHABLE.get(fn)
    except TypeError:
        cached = None
    if cached is not None and cached[0] is code:
        return cached[1]
    namespace = fn.__globals__
    names: dict = {}  # ordered: the search reports the first tensor found
    seen: set = set()
    stack = [code]
    for cell in getattr(fn, "__closure__", None) or ():  # a decorator's wrapped function
        try:
            stack.extend(_module_code(cell.cell_contents, namespace))
        except ValueError:  # an empty cell
            pass
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        stack.extend(c for c in current.co_consts if c.__class__ is types.CodeType)
        for name in current.co_names:
            if name in names:
                continue
            names[name] = None
            stack.extend(_module_code(namespace.get(name), namespace))
    found = tuple(names)
    try:
        _TOUCHABLE[fn] = (code, found)
    except TypeError:
        pass
    return found


def _module_code(value, namespace) -> list:
    """The code of ``value`` if it is a function of the module ``namespace`` belongs to
    (for a class of that module, its functions' code)."""
    if isinstance(value, types.FunctionType):
        return [value.__code__] if value.__globals__ is namespace else []
    if isinstance(value, type) and value.__module__ == namespace.get("__name__"):
        found = []
        for attr in vars(value).values():
            attr = getattr(attr, "__func__", attr)  # staticmethod, classmethod
            if isinstance(attr, types.FunctionType) and attr.__globals__ is namespace:
                found.append(attr.__code__)
            elif isinstance(attr, property):
                found += [f.__code__ for f in (attr.fget, attr.fset, attr.fdel)
                          if isinstance(f, types.FunctionType)]
        return found
    return []
