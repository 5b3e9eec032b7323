"""Python state a converted function reads under ``torch.compile``: guarded.

Dynamo calls a converted function as a non-strict region (``backend.entry_point``) and
guards nothing the region reads: a global flag (``if FLAG:``), an attribute of the module
whose ``forward`` it is (``x * self.scale``), a dict's item (``self.cfg["k"]``) changed
between two calls would leave the compiled code computing with the value PyTorch traced,
where plain dynamo guards on them and compiles again. ``guard`` installs those guards
while dynamo traces the call (``region_boundary``): on the globals the region's code
reads (and the code of the user functions it reaches through them), on what its
arguments (the module ``self``) and closures hold (those of the functions it reaches
where dynamo has a source for them), following only the attributes and
names the code mentions (``co_names``; a dict's keys its constants), so that state the
region never names (a list of losses the training loop appends to) is not guarded:

- a Python number, string, ``None`` or bool by value;
- a list or tuple by its length and items, a dict by its keys and items;
- an object of the user's class by identity and the attributes the code names;
- anything else (a function, a module of PyTorch's, a class) by identity; tensors not
  (dynamo passes them in or holds them as constants, as for a non-strict region).
"""

from __future__ import annotations

import types

from ...staging.arrays import globals_read, nested_codes
from ...staging.user_state import NOT_USER, user_class, user_object

_MAX_GUARDS = 1000
_SCALARS = (bool, int, float, complex, str, bytes, type(None))


def guard(tx, variable, fn, args):
    """Install dynamo guards on what the region ``fn`` (called through ``variable`` with
    the dynamo variables ``args``) reads; what was guarded, with the sources
    (``region_replay``)."""
    guards = _Guards(tx, fn)
    for arg in args:
        value = _module_of(arg)
        if value is not None and arg.source is not None:
            guards.walk(value, arg.source)
    for layer in _layers(fn):
        guards.walk_globals(layer)
        guards.walk_closure(layer, variable.source if layer is fn else None)
    return guards


def _module_of(arg):
    """The ``nn.Module`` a dynamo variable stands for, or None."""
    import torch

    try:
        if not issubclass(arg.python_type(), torch.nn.Module):
            return None
        return getattr(arg.realize(), "value", None)
    except Exception:  # noqa: BLE001 - a variable that cannot say: not a module
        return None


def _layers(fn):
    while True:
        yield fn
        if not hasattr(fn, "__wrapped__"):
            return
        fn = fn.__wrapped__


class _Guards:
    def __init__(self, tx, fn) -> None:
        self.tx = tx
        self.count = 0
        self.seen: set = set()  # (id of a container or object, its source's name)
        self.functions: set = set()
        self.sources: dict = {}  # id of a container, object or namespace -> its source
        self.guarded: set = set()  # (id of a holder, key): an item or attribute guarded
        self.spaces: dict = {}  # id of a module's globals -> its source ("frame": the frame's)
        self.names: set = set()  # the attribute names and constants the code mentions
        self._mention(fn)

    def _mention(self, fn) -> None:
        for layer in _layers(fn):
            code = getattr(layer, "__code__", None)
            if code is not None:
                for c in nested_codes(code):
                    self.names.update(c.co_names)
                    self.names.update(k for k in c.co_consts if isinstance(k, (str, int)))

    def install(self, source, kind) -> None:
        from torch._dynamo.guards import install_guard

        self.count += 1
        install_guard(source.make_guard(kind))

    def walk(self, value, source) -> None:
        from torch._dynamo.guards import GuardBuilder

        if self.count >= _MAX_GUARDS:
            return
        cls = value.__class__
        if cls in _SCALARS:
            self.install(source, GuardBuilder.CONSTANT_MATCH)
            return
        import torch

        if isinstance(value, torch.Tensor):
            return
        key = (id(value), source.name)
        if key in self.seen:
            return
        self.seen.add(key)
        self.sources.setdefault(id(value), source)
        if cls is list or cls is tuple:
            self.install(source, GuardBuilder.SEQUENCE_LENGTH)
            from torch._dynamo.source import GetItemSource

            for i, item in enumerate(value):
                self.guarded.add((id(value), i))
                self.walk(item, GetItemSource(source, i))
        elif cls is dict:
            self._walk_dict(value, source)
        elif user_object(value) and not isinstance(value, type):
            self.install(source, GuardBuilder.ID_MATCH)
            self._walk_object(value, source)
        elif cls is types.FunctionType:
            self.install(source, GuardBuilder.ID_MATCH)
            self.walk_function(value, source)
        elif cls is types.ModuleType and _is_users_module(value):  # import helpers
            from torch._dynamo.source import AttrSource

            for name, item in vars(value).items():
                if name in self.names and not isinstance(item, (types.ModuleType, type)):
                    self.walk(item, AttrSource(source, name))
        elif not isinstance(value, torch.nn.Module) or _is_users(value):
            self.install(source, GuardBuilder.ID_MATCH)

    def _walk_dict(self, value, source) -> None:
        from torch._dynamo.guards import GuardBuilder
        from torch._dynamo.source import DictGetItemSource

        if not all(k.__class__ in (str, int) for k in value):
            self.install(source, GuardBuilder.ID_MATCH)
            return
        self.install(source, GuardBuilder.DICT_KEYS_MATCH)
        for k, item in value.items():
            self.guarded.add((id(value), k))
            self.walk(item, DictGetItemSource(source, k))

    def _walk_object(self, value, source) -> None:
        """The attributes of a user's object that the code names (a module's ``forward``
        and the methods of its class but ``__init__`` name theirs: ``self.scale``)."""
        from torch._dynamo.source import AttrSource

        for klass in type(value).__mro__:
            if _is_users_class(klass):
                for name, attr in vars(klass).items():
                    function = getattr(attr, "__func__", attr)
                    if isinstance(function, types.FunctionType) and name != "__init__":
                        self._mention(function)
        import torch

        for name, item in vars(value).items():
            if name in self.names and name not in ("_parameters", "_buffers"):
                self.guarded.add((id(value), name))
                self.walk(item, AttrSource(source, name))
            elif name == "_modules" and isinstance(value, torch.nn.Module):
                for sub, module in item.items():  # self.block: a submodule is an attribute
                    if sub in self.names and module is not None:
                        self.walk(module, AttrSource(source, sub))

    def walk_function(self, fn, source=None) -> None:
        """A user function the region reaches: the globals its code reads, what it names,
        what its closure holds (where dynamo has a ``source`` for the function)."""
        module = (getattr(fn, "__module__", None) or "").partition(".")[0]
        if id(fn) in self.functions or module in NOT_USER:
            return
        self.functions.add(id(fn))
        self._mention(fn)
        self.walk_globals(fn)
        self.walk_closure(fn, source)

    def walk_closure(self, fn, source) -> None:
        from torch._dynamo.source import AttrSource, GetItemSource

        for i, cell in enumerate(getattr(fn, "__closure__", None) or ()):
            try:
                contents = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if source is not None:
                cells = AttrSource(source, "__closure__")
                self.walk(contents, AttrSource(GetItemSource(cells, i), "cell_contents"))
            elif isinstance(contents, types.FunctionType):
                self.walk_function(contents)

    def walk_globals(self, fn) -> None:
        source = self._globals_source(fn)
        if source is None:
            return
        from torch._dynamo.source import AttrSource, GlobalSource

        self.spaces[id(fn.__globals__)] = source
        for name, value in globals_read(fn):
            if isinstance(value, (type, types.BuiltinFunctionType)) or \
                    isinstance(value, types.ModuleType) and not _is_users_module(value) or \
                    (type(value).__module__ or "").partition(".")[0] in NOT_USER \
                    and callable(value) and value.__class__ is not types.FunctionType:
                continue  # an import, a class, a library's function: not the program's state
            self.guarded.add((id(fn.__globals__), name))
            self.walk(value, GlobalSource(name) if source == "frame"
                      else AttrSource(source, name))

    def _globals_source(self, fn):
        """How dynamo reaches ``fn``'s globals: those of the frame it traces, or its module
        imported by name; None if neither (code run with a namespace of its own)."""
        import sys

        space = getattr(fn, "__globals__", None)
        if space is None:
            return None
        if space is self.tx.output.global_scope:
            return "frame"
        name = space.get("__name__")
        module = sys.modules.get(name) if isinstance(name, str) else None
        if module is None or vars(module) is not space:
            return None
        return self.tx.import_source(name)


def _is_users(module) -> bool:
    return _is_users_class(type(module))


def _is_users_module(module) -> bool:
    """A module of the user's (not installed, not a library's)."""
    name = getattr(module, "__name__", "") or ""
    path = getattr(module, "__file__", None) or ""
    return name.partition(".")[0] not in NOT_USER and bool(path) and "site-packages" not in path


def _is_users_class(klass) -> bool:
    return user_class(klass)
