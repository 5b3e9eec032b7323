"""State that staged bodies change in place instead of returning it.

Two kinds, both carried through a backend's op after the returned state:

- ``Side``: the variables the converter names in ``shared=(get, put, names)``
  (captured by closures, ``nonlocal``/``global``, attributes ``self.total``); the
  generated functions assign them in place.
- ``InPlace``: dict items, list items and attributes of user objects reachable from
  the bodies' closures (and from the state, and the closures of user functions found
  there: state a called function keeps), updated in place by code such as
  ``x['a']['b'] = 1`` or ``tc.x['z'].x += 1``. Each traced body starts from the
  contents they had before the construct (``restore``); what a body changed
  (``changes``) is joined or carried like a variable, named by its path, and the
  result is written back in place after the op (``put``).

NumPy arrays reachable the same way are state too (``arrays``): an item that holds an
array a body wrote into counts as changed, with the array's new contents as its value.
Containers no op can carry (sets, deques, dict subclasses: ``uncarried``) are watched:
a body that changes one is a ``StagingError``.
"""

from __future__ import annotations

import dis
import types

from .arrays import Arrays, globals_read, is_array, nested_codes
from .uncarried import Uncarried, held_items, watched
from .user_state import NOT_USER as _NOT_USER, user_object as _user_object
from .undefined import Undefined

_MAX_NODES = 2000


class Side:
    """The ``shared`` variables of a construct (getter, setter, names)."""

    def __init__(self, shared) -> None:
        if shared is None:
            self.get, self.set, self.names = (lambda: ()), None, ()
        else:
            self.get, self.set, self.names = shared[0], shared[1], tuple(shared[2])
        self.before = tuple(self.get())

    @classmethod
    def of(cls, shared) -> Side:
        return cls(shared)

    def put(self, values) -> None:
        if self.set is not None:
            self.set(tuple(values))

    def restore(self) -> None:
        # not set again where a body left them as they were: a setter may refuse even
        # that (nn.Module's, of a buffer while torch.export traces)
        if self.set is not None and any(
                now is not before for now, before in zip(self.get(), self.before)):
            self.put(self.before)


class _Missing:
    """A dict key or attribute that does not exist (on one side, or yet)."""

    def __repr__(self) -> str:
        return "<missing>"


MISSING = _Missing()


def _layers(fn):
    """``fn`` and the functions it wraps (``__wrapped__``), down to the generated
    body: a runtime wrapper's closure may hold what the body runs on (the item a
    Python loop's iteration binds)."""
    while True:
        yield fn
        if not hasattr(fn, "__wrapped__"):
            return
        fn = fn.__wrapped__


_STORED: dict = {}  # id(code) -> (code, the global names it stores)


def _stored_globals(code) -> frozenset:
    """The global names ``code`` (and the code nested in it) assigns; read once per code
    object (every staged construct that reaches the function asks)."""
    cached = _STORED.get(id(code))
    if cached is not None and cached[0] is code:
        return cached[1]
    found = frozenset(ins.argval for c in nested_codes(code) for ins in dis.get_instructions(c)
                      if ins.opname in ("STORE_GLOBAL", "DELETE_GLOBAL"))
    if len(_STORED) > 4096:
        _STORED.clear()
    _STORED[id(code)] = (code, found)
    return found


class InPlace:
    """Containers reachable from ``fns``' closures and from ``state``, with the
    contents they had when the construct started."""

    def __init__(self, fns, state, names, construct: str, where_fn) -> None:
        self.nodes: list = []  # (container, label)
        self.node_ids: set = set()  # their ids (``tracks``)
        self.snapshots: list = []
        self.arrays = Arrays()  # the NumPy arrays reachable, with their contents before
        self.uncarried = Uncarried()
        self.construct, self.where_fn = construct, where_fn
        self.through_global: dict = {}  # node index -> the global it was reached through
        self._global = None  # the global being walked
        self._seen: set = set()
        roots = []
        for fn in fns:
            for layer in _layers(fn):
                cells = getattr(layer, "__closure__", None) or ()
                for name, cell in zip(layer.__code__.co_freevars if cells else (), cells):
                    try:
                        roots.append((name, cell.cell_contents))
                    except ValueError:  # an empty cell
                        continue
        roots.extend(zip(names, state))
        for name, value in roots:
            self._walk(value, name)
        for fn in fns:
            for layer in _layers(fn):
                self._walk_globals(layer)
        self._remembered: dict = {}

    def _walk(self, value, label: str) -> None:
        if len(self.nodes) >= _MAX_NODES:
            return
        if is_array(value):
            self.arrays.add(value)
            return
        cls = value.__class__
        if cls is types.FunctionType or cls is types.MethodType:
            self._walk_function(value, label)
            return
        if watched(value):
            self.watch(value, label)
            return
        if cls is dict or cls is list or _user_object(value):
            if id(value) in self._seen:
                return
            self._seen.add(id(value))
            if self._global is not None:
                self.through_global[len(self.nodes)] = self._global
            self.nodes.append((value, label))
            self.node_ids.add(id(value))
            contents = self._contents(value)
            self.snapshots.append(contents)
            for key, item in contents.items():
                self._walk(item, label + self._suffix(value, key))
        elif isinstance(value, tuple):
            for i, item in enumerate(tuple.__iter__(value)):  # (its own __iter__ may differ)
                fields = getattr(value, "_fields", None)
                self._walk(item, label + (f".{fields[i]}" if fields else f"[{i}]"))

    def watch(self, value, label: str) -> None:
        """A container no op can carry (``uncarried``), and what it holds."""
        if id(value) in self._seen:
            return
        self._seen.add(id(value))
        self.uncarried.add(value, label)
        for suffix, item in held_items(value):
            self._walk(item, label + suffix)

    def _walk_function(self, fn, label: str) -> None:
        """The closure of a user function the bodies can call (a call counter that
        SciPy's ``_wrap_function`` keeps in ``ncalls = [0]``), and a bound method's object."""
        if fn.__class__ is types.MethodType:
            self._walk(fn.__self__, label)
            fn = fn.__func__
        module = getattr(fn, "__module__", None) or ""
        if id(fn) in self._seen or module.partition(".")[0] in _NOT_USER:
            return
        self._seen.add(id(fn))
        for name in _stored_globals(fn.__code__):
            self.uncarried.add_global(fn.__globals__, name,
                                      f"the global '{name}' is rebound by {fn.__name__}()")
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
            try:
                contents = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            self._walk(contents, name)
        self._walk_globals(fn)

    def _walk_globals(self, fn) -> None:
        """The globals ``fn``'s code reads that hold containers, user objects or user
        functions (a global call counter ``CALLS[0] += 1``)."""
        for name, value in globals_read(fn):
            cls = value.__class__
            if cls is list or cls is dict or cls is types.FunctionType or watched(value) \
                    or _user_object(value):
                outer, self._global = self._global, name
                try:
                    self._walk(value, name)
                finally:
                    self._global = outer

    @staticmethod
    def _contents(node) -> dict:
        cls = node.__class__
        if cls is dict:
            return dict(node)
        if cls is list:
            return dict(enumerate(node))
        return dict(vars(node))

    @staticmethod
    def _suffix(node, key) -> str:
        if node.__class__ is dict or node.__class__ is list:
            from .state import key_label

            return key_label(key)
        return f".{key}"

    def first_change(self):
        """The label of the first thing changed since the start (a container, a global, a
        container's item or an object's attribute, a NumPy array's contents), or None."""
        label = self.uncarried.first_change()
        if label is not None:
            return label
        if self.arrays.changed():
            return "a NumPy array it reaches"
        for i, ((node, _), before) in enumerate(zip(self.nodes, self.snapshots)):
            now = self._contents(node)
            for key in before.keys() | now.keys():
                if before.get(key, MISSING) is not now.get(key, MISSING):
                    return self.label((i, key))
        return None

    def changes(self, skip=()) -> dict:
        """{(node index, key): new value} for every item changed since the start;
        a removed item is MISSING. Attributes holding a value of ``skip`` (the
        shared variables, carried by name) are left out."""
        self.uncarried.check(self.construct, self.where_fn)
        skip_ids = {id(x) for x in skip}
        arrays = self.arrays
        written = arrays.changed()
        found = {}
        for i, ((node, _), before) in enumerate(zip(self.nodes, self.snapshots)):
            now = self._contents(node)
            is_object = node.__class__ is not dict and node.__class__ is not list
            for key in before.keys() | now.keys():
                old, new = before.get(key, MISSING), now.get(key, MISSING)
                if is_object and id(new) in skip_ids:
                    continue
                if old is new and not (written and arrays.touches(new, written)):
                    continue
                found[(i, key)] = arrays.now(new, written)
        return found

    def refuse_globals(self, entries, construct: str, where_fn) -> None:
        """A ``StagingError`` for an item changed in a container reached only through a
        global: the construct's result would be a staged value stored in a global, which
        outlives the trace (and the global would be left holding it)."""
        from . import errors

        for entry in entries:
            if entry[0] in self.through_global:
                label = self.label(entry)
                raise errors.StagingError(
                    f"{construct} at {errors.where(where_fn)}: {errors.subject(label)} (reached "
                    f"through the global '{self.through_global[entry[0]]}') "
                    f"is changed inside it and the condition is a staged value, so it would "
                    f"hold a staged value that outlives the trace. Keep the state in a local "
                    f"variable (or an argument) and return it, or in an autograph.Variable.")

    def restore(self) -> None:
        """Every container as it was at the start (same objects, old contents)."""
        self.arrays.restore()
        self.uncarried.restore()
        for (node, _), before in zip(self.nodes, self.snapshots):
            cls = node.__class__
            if cls is dict:
                node.clear()
                node.update(before)
            elif cls is list:
                node[:] = [before[i] for i in range(len(before))]
            else:
                contents = vars(node)
                contents.clear()
                contents.update(before)

    def before(self, entry):
        return self.snapshots[entry[0]].get(entry[1], MISSING)

    def label(self, entry) -> str:
        node, label = self.nodes[entry[0]]
        return label + self._suffix(node, entry[1])

    def put(self, entries, values) -> None:
        """Write ``values`` into the items ``entries`` name (in place)."""
        for (i, key), value in zip(entries, values):
            node = self.nodes[i][0]
            if value is MISSING or value.__class__ is Undefined:
                continue
            if node.__class__ is list and key >= len(node):  # an item both branches appended
                node.extend([None] * (key + 1 - len(node)))
                node[key] = value
            elif node.__class__ is dict or node.__class__ is list:
                node[key] = value
            else:
                setattr(node, key, value)
