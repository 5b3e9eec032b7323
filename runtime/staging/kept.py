"""Lists and dicts a staged construct updates in place keep their identity.

A staged ``if`` or loop rebuilds its carried state from the op's outputs, so a list it
carries comes out as a new list. When every traced body returned the very list (or
dict) it was given — it wrote into it, as ``cur_nn[0] = cur_nn[0] + 1`` does, and did
not rebind the name to a new one — the caller's list must see the writes, as it does
eagerly (statsmodels' ``_lowess_update_nn`` updates the list its caller passed):
``refill`` writes the rebuilt items into the original object and returns it.

The user's state a trace can change is kept the same way, once for every backend:
converted code runs its staged body in ``with ag__.keep_state():``, and the outermost
such body of a thread (the function a trace starts in: under ``jax.jit``,
``torch.compile``/``torch.export``, ``tf.function`` or ``autograph.function``) saves
the globals its code can reach, its closure variables and the lists and dicts they
hold (``Kept``). A failed trace puts them back; a trace that ends well may not leave a
value of the trace in them (``Backend.leaked``). A staged ``if`` whose both branches
raise (``raises.AlwaysRaises``) ends the trace of that function there, on a backend
whose graph raises at run time: the function returns None to the framework tracing it,
whose graph raises the branch's exception on every run. ``note_copies``/``copied_from`` keep,
for the trace running, which outputs of a staged ``if`` stand for an object a branch
returned as it was: eagerly one object, which an in-place operator changes for both.
"""

from __future__ import annotations

import ctypes
import sys
from sys import _getframe  # the runtime's own: a user may take it off sys
import threading
import types
import weakref

import numpy as np

from . import errors
from .arg_writes import called_with
from .backend import backend_of, tracing_now
from .raises import AlwaysRaises, raised_by_user
from .returns import Pending
from .user_state import user_class, user_object


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


def _items(value):
    """The items of a list or dict, or the attributes of a user's object or class."""
    cls = value.__class__
    if cls is dict:
        return value.items()
    if cls is list:
        return enumerate(value)
    return vars(value).items()


def _has_attributes(value) -> bool:
    """A user's object or class, whose attributes a trace can set (``Box.count += 1``)."""
    return user_class(value) or user_object(value)


class Contents:
    """The items of the lists and dicts reachable from ``roots`` (two levels down), and
    the attributes of the user's objects and classes among them, as they were:
    ``restore`` puts back those into which a failed trace put a staged value (``H[0] =
    x * 0`` into a global list would leave a symbolic value there), in place, so every
    name holding the container sees its old items again."""

    def __init__(self, roots, labels=None) -> None:
        self.saved: list = []  # (container, shallow copy of it)
        self.labels: list = []  # how an error names each: `H[0]` (reached from the global 'H')
        seen: set = set()
        labels = labels or [("", "")] * len(roots)
        stack = [(value, _DEPTH, label, "") for value, label in zip(roots, labels)]
        stack.reverse()
        while stack:
            value, depth, root, path = stack.pop()
            cls = value.__class__
            if id(value) in seen:
                continue
            if cls is list or cls is dict:
                if len(value) > _MAX_ITEMS:
                    continue
                copy = value.copy()
            elif _has_attributes(value):
                copy = dict(vars(value))
            else:
                continue
            seen.add(id(value))
            self.saved.append((value, copy))
            self.labels.append((root, path))
            if depth > 1:
                items = copy.items() if copy.__class__ is dict else enumerate(copy)
                stack.extend((v, depth - 1, root, _key(value, path, k)) for k, v in items)

    def restore(self) -> None:
        """Put back each container that now holds a staged value it did not hold before
        (Python values the trace put there stay, as they would eagerly up to the error)."""
        for container, before in self.saved:
            had = {id(v) for v in (before.values() if before.__class__ is dict else before)}
            if not any(id(v) not in had and _holds_staged(v, _DEPTH)
                       for _, v in _items(container)):
                continue
            if container.__class__ is list:
                container[:] = before
            elif container.__class__ is dict:
                container.clear()
                container.update(before)
            else:
                now = dict(_items(container))
                for name in [n for n in now if n not in before]:
                    delattr(container, name)
                for name, v in before.items():
                    if now.get(name, Contents) is not v:
                        setattr(container, name, v)

    def added(self, test):
        """``(where, value)`` of the first item ``test`` accepts that a container holds
        now and did not hold before, or None."""
        for (container, before), (root, path) in zip(self.saved, self.labels):
            had = {id(v) for v in (before.values() if before.__class__ is dict else before)}
            for key, value in list(_items(container)):
                found = None if id(value) in had else \
                    _first(value, test, _DEPTH, _key(container, path, key))
                if found is not None:
                    name, kind = root
                    return f"`{name}{found[0]}` (reached from {kind} '{name}')", found[1]
        return None


def _first(value, test, depth: int, path: str):
    """``(path, item)`` of ``value`` or the first item of the lists and dicts it holds
    (a few levels down) that ``test`` accepts, or None."""
    if test(value):
        return path, value
    if depth and value.__class__ in (list, dict) and len(value) <= _MAX_ITEMS:
        for key, item in list(_items(value)):
            found = _first(item, test, depth - 1, f"{path}[{key!r}]")
            if found is not None:
                return found
    return None


def _holds_staged(value, depth: int) -> bool:
    """``value`` is a staged value, or a list or dict holding one (a few levels down):
    a new item the trace put there (``CACHE.setdefault('seen', []).append(x)``: fuzz
    seed 30045 left the symbolic tensor in the user's dict after the refusal)."""
    if backend_of(value) is not None:
        return True
    if depth and value.__class__ in (list, dict) and len(value) <= _MAX_ITEMS:
        items = value.values() if value.__class__ is dict else value
        return any(_holds_staged(v, depth - 1) for v in items)
    return False


def _key(container, path: str, key) -> str:
    """``path[key]`` for a list or dict item, ``path.key`` for an attribute."""
    cls = container.__class__
    return f"{path}[{key!r}]" if cls is list or cls is dict else f"{path}.{key}"


class Kept:
    """What the trace of a converted function can change in place, kept while its
    staged body runs (``keep_state``): the globals it can reach (``touchable``), its
    closure variables, and the lists and dicts they hold (``Contents``).

    Leaving with an exception (a failed trace) puts back each global and closure
    variable the trace rebound to a staged value, and each container it put a staged
    value into. Leaving normally, a value that exists only inside the trace (a JAX
    tracer, a tracing tensor: the backend's ``leaked``) newly held by one of them is a
    ``StagingError`` naming where it went (after the same put-back): it would outlive
    the trace as an object with no value, and a later use would fail far from here."""

    __slots__ = ("frame", "namespace", "globals", "cells", "contents", "copies")

    def __init__(self, frame) -> None:
        self.frame = frame
        self.copies: dict = {}  # ``note_copies``: id of an output -> (output, what it
        # copies, the construct)
        code = frame.f_code
        self.namespace = namespace = frame.f_globals
        free = code.co_freevars
        values = frame.f_locals if free else {}
        self.cells = [(n, values[n]) for n in free if n in values]
        reachable = _reachable_from(code, namespace, [v for _, v in self.cells])
        self.globals = [(n, namespace[n]) for n in reachable if n in namespace]
        self.contents = Contents([v for _, v in self.globals] + [v for _, v in self.cells],
                                 [(n, "the global") for n, _ in self.globals]
                                 + [(n, "the closure variable") for n, _ in self.cells])

    def __enter__(self):
        _local.kept = self
        return self

    def __exit__(self, kind, error, tb) -> None:
        _local.kept = None
        frame, self.frame = self.frame, None
        if kind is not None:
            if kind is AlwaysRaises and raised_by_user(error) and \
                    getattr(tracing_now(), "raises_at_run_time", False):
                return True  # the trace ends here: the graph raises on every run
            self.restore(frame)
            if issubclass(kind, Exception) and not issubclass(kind, errors.StagingError):
                backend = tracing_now()
                if backend is not None:
                    from .arg_writes import location_in

                    explained = backend.explain_error(error, location_in(tb))
                    if explained is not None:
                        raise explained from error
            return
        leak = self.leaked(frame)
        if leak is not None:
            self.restore(frame)
            where, value, backend = leak
            raise errors.escaped_value(frame.f_code.co_name, where, _shown(value, backend),
                                       backend.name)

    def restore(self, frame) -> None:
        for name, value in self.globals:
            now = self.namespace.get(name, Kept)
            if now is not value and backend_of(now) is not None:
                self.namespace[name] = value
        if self.cells:
            now = frame.f_locals
            changed = [(n, v) for n, v in self.cells
                       if now.get(n) is not v and backend_of(now.get(n)) is not None]
            if changed:
                _set_free_variables(frame, changed)
        self.contents.restore()

    def leaked(self, frame):
        """``(where, value, backend)`` of the first value the trace left in a global, a
        closure variable or a container it can reach that lives only in the trace."""
        roots = [(f"the global '{n}'", v, self.namespace.get(n, v)) for n, v in self.globals]
        if self.cells:
            now = frame.f_locals
            roots += [(f"the closure variable '{n}'", v, now.get(n, v)) for n, v in self.cells]
        for where, before, now in roots:
            if now is not before and _leaks(now):
                return where, now, backend_of(now)
        found = self.contents.added(_leaks)
        if found is not None:
            return found + (backend_of(found[1]),)
        return None


def _shown(value, backend) -> str:
    """``float32[3]``: a staged value's dtype and shape (a weak one's too)."""
    aval = backend.aval(value)
    if aval is None:
        return type(value).__name__
    dims = ",".join("?" if d is None else str(d) for d in aval.shape)
    return f"{aval.dtype.name}[{dims}]"


def _leaks(value) -> bool:
    backend = backend_of(value)
    return backend is not None and backend.leaked(value)


_local = threading.local()


def keep_state():
    """What a converted function's staged body runs in (``with ag__.keep_state():``):
    the outermost one of a thread keeps the state its trace can change (``Kept``);
    converted functions it calls, and the bodies it traces, run in it. Each notes the
    values its function's parameters were called with (``arg_writes.called_with``)."""
    frame = _getframe(1)
    return called_with(frame, None if getattr(_local, "kept", None) is not None
                       else Kept(frame))


def traced_frame():
    """The frame of the converted function whose staged body the running trace started
    in (the outermost ``keep_state`` of this thread), or None."""
    kept = getattr(_local, "kept", None)
    return None if kept is None else kept.frame


def note_copies(results, branch_values, branch_given=()) -> None:
    """After a staged ``if``: output ``results[k]`` (or the value of a pending return
    value there) copies what a branch gave for it, ``branch_values[b][k]``, eagerly the
    very object (a concrete NumPy array: the array the branch gave, ``branch_given``,
    and the constant standing for it). Kept for the trace running (``copied_from``)."""
    for k, result in enumerate(results):
        result = result.value if result.__class__ is Pending else result
        for b, values in enumerate(branch_values):
            given = branch_given[b] if b < len(branch_given) else ()
            for origin in (given[k] if k < len(given) else None,
                           values[k] if k < len(values) else None):
                if origin.__class__ is np.ndarray or backend_of(origin) is not None:
                    _note(result, origin, "if")


def note_loop_copies(results, before, last) -> None:
    """After a staged loop: output ``results[k]`` is eagerly the very object it held
    before the loop (``before[k]``: no iteration assigned it) or the one the last
    iteration gave (``last[k]``, and what that copies: ``a = b`` in the body), whichever
    the run takes; noted as copying each (``copied_from``)."""
    for k, result in enumerate(results):
        for origin in (before[k] if k < len(before) else None,
                       last[k] if k < len(last) else None):
            if backend_of(origin) is not None:
                _note(result, origin, "loop")


def _note(result, origin, construct: str) -> None:
    """``result`` copies ``origin``, and what ``origin`` copies (a copy of a copy)."""
    kept = getattr(_local, "kept", None)
    if kept is None:
        return
    found, seen, todo = [], set(), [origin]  # ids of objects ``found`` keeps alive
    while todo:
        o = todo.pop()
        if o is not result and id(o) not in seen:
            seen.add(id(o))
            found.append(o)
            todo.extend(copied_from(o)[0])
    entry = kept.copies.get(id(result))
    origins = entry[1] if entry is not None and entry[0] is result else ()
    known = {id(p) for p in origins}  # by id: a copy chain of a long unrolled loop is long
    new = tuple(o for o in found if id(o) not in known)
    if new or not origins:
        kept.copies[id(result)] = (result, origins + new,
                                   entry[2] if origins else construct)


def copied_from(value):
    """What ``value``, an output of a staged ``if`` or loop in the trace running, copies
    (the objects a branch or iteration gave for it), and which construct: ``((), None)``
    for none."""
    kept = getattr(_local, "kept", None)
    entry = kept.copies.get(id(value)) if kept is not None else None
    return entry[1:] if entry is not None and entry[0] is value else ((), None)


def _set_free_variables(frame, changed) -> None:
    """Rebind closure variables of the function running in ``frame`` (its cells)."""
    if sys.version_info >= (3, 13):  # frame.f_locals writes through (PEP 667)
        for name, value in changed:
            frame.f_locals[name] = value
        return
    values = frame.f_locals  # a snapshot, written back to the frame's cells below
    for name, value in changed:
        values[name] = value
    ctypes.pythonapi.PyFrame_LocalsToFast(ctypes.py_object(frame), ctypes.c_int(0))


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
    closure = []
    for cell in getattr(fn, "__closure__", None) or ():
        try:
            closure.append(cell.cell_contents)
        except ValueError:  # an empty cell
            pass
    found = _reachable(code, fn.__globals__, closure)
    try:
        _TOUCHABLE[fn] = (code, found)
    except TypeError:
        pass
    return found


_BY_CODE: dict = {}  # id(code) -> (code, namespace, found): functions without a closure


def _reachable_from(code, namespace, closure) -> tuple:
    """``_reachable``, cached for code without closure variables (whose own functions,
    reached through the closure, are part of the answer)."""
    if closure:
        return _reachable(code, namespace, closure)
    cached = _BY_CODE.get(id(code))
    if cached is not None and cached[0] is code and cached[1] is namespace:
        return cached[2]
    found = _reachable(code, namespace, ())
    if len(_BY_CODE) > 4096:
        _BY_CODE.clear()
    _BY_CODE[id(code)] = (code, namespace, found)
    return found


def _reachable(code, namespace, closure) -> tuple:
    """``touchable`` of the function with ``code``, globals ``namespace`` and closure
    variables holding ``closure`` (a decorator's wrapped function among them)."""
    names: dict = {}  # ordered: the search reports the first tensor found
    seen: set = set()
    stack = [code]
    for value in closure:
        stack.extend(_module_code(value, namespace))
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
    return tuple(names)


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
