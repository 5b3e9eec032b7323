"""Symbolic tensors: what a traced function sees in place of its array arguments.

A ``Tensor`` is a handle on one graph ``Value``. It speaks NumPy's dispatch
protocols: ufuncs (``np.add(t, 1)``, ``np.add.reduce``) arrive in
``__array_ufunc__``, other NumPy functions (``np.sum``, ``np.where`` ...) in
``__array_function__``, and operators, comparisons, indexing, attributes and
methods are defined here. Each of them records an op (see ``trace.record``) and
returns new Tensors with the dtype and shape NumPy would have given.

Properties that are known while tracing are plain Python values: ``shape`` (with
``None`` for unknown dims), ``ndim``, ``dtype``. Asking for a Python value that is
only known at run time (``bool(t)``, ``int(t)``, ``np.asarray(t)``) raises an error
that says what to do instead.

Item assignment ``t[i] = v`` records an update and points this handle at the new
value, so every Python reference to the handle sees it, as with a NumPy array. A
handle made by basic indexing (``t[1:-1]``) is a view: a write into it is passed on
to the handle it views, as NumPy's views share their base's memory.
Converted code's ``ag__.setitem`` does the same where the handle was made in the
block being traced, and otherwise (a branch writing into an array from outside it)
returns a new handle that the branch carries out (see ``graph.writes``).
"""

from __future__ import annotations

import weakref

import numpy as np

from ...staging import arrays, holders
from ...staging.indexing import basic_index
from . import messages, numpy_api, raising
from .ir import Op, Value, map_values
from .trace import current, record, stand_in, to_value, user_source


class Tensor:
    """A symbolic array of a graph being traced."""

    __slots__ = ("__weakref__", "_block", "_graph", "_readonly", "_value", "_view", "_views")
    __array_priority__ = 1000

    def __init__(self, value: Value, graph):
        self._value = value
        self._graph = graph
        self._view = None  # (base handle, index) when basic indexing made it: a NumPy view
        self._views = None  # weak references to the views of this handle
        self._readonly = False  # NumPy's read-only view (np.diagonal(a), np.broadcast_to)
        state = current()
        # The block this handle was made in: item assignment may update it in place there.
        self._block = state.blocks[-1] if state is not None and state.graph is graph else None

    # --- static properties ----------------------------------------------------------
    @property
    def shape(self) -> tuple:
        return self._value.shape

    @property
    def ndim(self) -> int:
        return len(self._value.shape)

    @property
    def dtype(self) -> np.dtype:
        return self._value.dtype

    @property
    def size(self):
        shape = self._value.shape
        if None in shape:
            return record("attr", "size", (self,), weak_result=True)
        return int(np.prod(shape, dtype=np.int64))

    @property
    def itemsize(self) -> int:
        return self._value.dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self.itemsize

    @property
    def flat(self):
        """``ndarray.flat``: the items in C order, to read (``x.flat[i]``, ``for v in x.flat``)."""
        return FlatItems(self)

    @property
    def T(self):
        return _viewing(self, record("attr", "T", (self,)), lambda p: p.T)

    @property
    def mT(self):
        return _viewing(self, record("attr", "mT", (self,)), lambda p: p.mT)

    @property
    def real(self):
        return _part(self, "real")

    @property
    def imag(self):
        return _part(self, "imag")

    # Shown as text while tracing: a raise's message shows the run-time value (raising).
    def __repr__(self) -> str:
        return raising.shown(self, "!r")

    def __str__(self) -> str:
        return raising.shown(self, "")

    def __format__(self, spec: str) -> str:
        return raising.shown(self, spec)

    def __hash__(self) -> int:
        # A set item or dict key: eager NumPy hashes a scalar by its value (an array is
        # unhashable); the value is only known when the graph runs (by identity, {x[0],
        # x[1]} had two items where eager has one).
        if self._value.shape:
            raise TypeError("unhashable type: 'numpy.ndarray'")
        raise messages.SymbolicValueError(messages.concrete_value(
            "hashed (a set item or a dict key)", self, user_source()))

    # --- NumPy's dispatch protocols -------------------------------------------------
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        out = _out_handle(kwargs, f"numpy.{ufunc.__name__}")
        if method == "__call__":
            hook = getattr(current(), "before_ufunc", None)  # (python_chosen)
            if hook is not None:
                hook(ufunc, inputs)
            return _into(out, record("call", ufunc, inputs, kwargs))
        if method == "at":
            raise messages.SymbolicValueError(messages.in_place(f"numpy.{ufunc.__name__}.at"))
        return _into(out, record("call", getattr(ufunc, method), inputs, kwargs))

    def __array_function__(self, func, types, args, kwargs):
        static = _STATIC.get(func)
        if static is not None:
            return static(*args, **kwargs)
        if numpy_api.lookup(func) is None:
            raise messages.SymbolicValueError(messages.unsupported_function(_public(func), user_source()))
        kwargs = dict(kwargs)
        out = _out_handle(kwargs, _public(func))
        if func in _PARTS and args and args[0].__class__ is Tensor and out is None:
            return _part(args[0], _PARTS[func])  # np.real(a) is a.real: a view
        # np.where(cond) with no choices is np.nonzero(cond)
        dependent = func in numpy_api.DATA_DEPENDENT or (func is np.where and len(args) == 1)
        result = _into(out, record("call", func, args, kwargs, data_dependent=dependent))
        if func in _VIEW_FUNCTIONS and out is None and args and args[0].__class__ is Tensor \
                and not _staged_in((args[1:], kwargs)):
            return _viewing(args[0], result, lambda p: func(p, *args[1:], **kwargs),
                            layout=func in (np.reshape, np.ravel))
        return result

    def __array__(self, dtype=None, copy=None):
        raise messages.SymbolicValueError(messages.concrete_value("converted to a NumPy array", self, user_source()))

    # --- Python conversions that need a run-time value -------------------------------
    def __bool__(self):
        raise messages.SymbolicValueError(messages.concrete_value("used as a Python bool", self, user_source()))

    def __index__(self):
        raise messages.SymbolicValueError(messages.concrete_value("used as a Python index", self, user_source()))

    def __int__(self):
        raise messages.SymbolicValueError(messages.concrete_value("converted with int()", self, user_source()))

    def __float__(self):
        raise messages.SymbolicValueError(messages.concrete_value("converted with float()", self, user_source()))

    def __complex__(self):
        raise messages.SymbolicValueError(messages.concrete_value("converted with complex()", self, user_source()))

    def __len__(self) -> int:
        if not self._value.shape:
            raise TypeError("len() of unsized object")
        n = self._value.shape[0]
        if n is None:
            raise messages.SymbolicValueError(messages.concrete_value(
                "given to len() (its first dimension is unknown)", self, user_source()))
        return n

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    # --- indexing ---------------------------------------------------------------------
    def __getitem__(self, index):
        result = record("getitem", None, (self, index), data_dependent=has_mask(index))
        if result.__class__ is Tensor and is_view(index, result):
            result._view = (self, index)
            self._views = [r for r in self._views or () if r() is not None]
            self._views.append(weakref.ref(result))
        return result

    def __setitem__(self, index, value):
        check_writeable(self, "assignment destination")
        self._assign(setitem(self, index, value)._value)

    def _assign(self, value: Value) -> None:
        """Point this handle at ``value``, as a write into the array does; a view passes
        the write on to the array it views (NumPy's views share memory with their base)."""
        refuse_layout_twins(self)
        self._value = value
        if self._view is not None:
            base, index = self._view
            if base.__class__ is not Tensor:  # a NumPy array: its name cannot be rebound here
                raise messages.numpy_view_write(user_source())
            if not base._updatable():
                raise messages.view_write(user_source())
            base._value = _written_through(base, index, self)._value
            base._refresh_views(skip=self)
            if base._view is not None:
                base._assign(base._value)
        self._refresh_views()

    def _shares(self) -> bool:
        """This handle is a view, or has views still referenced: a write must reach both."""
        return self._view is not None or any(r() is not None for r in self._views or ())

    def _refresh_views(self, skip=None) -> None:
        """The views of this handle read it again (after a write into it)."""
        for ref in self._views or ():
            view = ref()
            if view is None or view is skip:
                continue
            if not view._updatable():
                raise messages.view_write(user_source())
            view._value = _read_through(self, view._view[1])._value
            view._refresh_views()

    def _updatable(self) -> bool:
        """True if item assignment may update this handle in place, as NumPy updates
        an array: it was made in the block being traced (the function's body for its
        arguments; a loop's body for its loop variables), so every Python reference to
        it is in that block's code too."""
        state = current()
        block = state.blocks[-1]
        return (self._block or state.graph.body) is block or any(
            p is self._value for p in block.params)  # a loop variable, in its loop's body

    # --- methods ----------------------------------------------------------------------
    def __getattr__(self, name):
        if name in numpy_api.METHODS:
            def method(*args, **kwargs):
                if kwargs.get("out") is not None:
                    raise messages.SymbolicValueError(messages.out_argument(f"ndarray.{name}"))
                result = record("method", name, (self,) + args, kwargs,
                                weak_result=name in ("item", "tolist"),
                                data_dependent=name == "nonzero")
                if name not in _VIEWS or _staged_in((args, kwargs)):
                    return result
                return _viewing(self, result, lambda p: getattr(p, name)(*args, **kwargs),
                                layout=name in _LAYOUT)
            method.__name__ = name
            return method
        if name.startswith("__"):
            raise AttributeError(name)
        raise messages.SymbolicAttributeError(messages.unsupported_attribute(name, user_source()))

    def view(self, dtype=None, type=None):
        """``ndarray.view()``: the same items, a view (``self[...]``); another dtype or
        array type (a reinterpretation of the bytes) is not supported."""
        try:
            same = type is None and (dtype is None or np.dtype(dtype) == self.dtype)
        except TypeError:  # (an array type given as the first argument)
            same = False
        if not same:
            raise messages.SymbolicAttributeError(messages.unsupported_attribute(
                "view", user_source()))
        return self[...]

    def sort(self, axis=-1, kind=None, order=None) -> None:
        """In place, as ``ndarray.sort``: the handle now holds the sorted values."""
        self[...] = np.sort(self, axis=axis, kind=kind, order=order)

    def fill(self, value) -> None:
        """In place, as ``ndarray.fill``."""
        self[...] = value

    def __round__(self, ndigits=None):
        return record("call", round, (self,) if ndigits is None else (self, ndigits))


class FlatItems:
    """``t.flat`` of a symbolic tensor: reads are of ``t.ravel()``; a write goes through a
    view of ``t``'s items in C order (whatever the memory layout), so it reaches ``t``."""

    __slots__ = ("base",)

    def __init__(self, base: Tensor) -> None:
        self.base = base

    def __len__(self):
        return self.base.size

    def __iter__(self):
        return iter(self.base.ravel())

    def __getitem__(self, index):
        return self.base.ravel()[index]

    def __setitem__(self, index, value):
        base = self.base
        flat = _viewing(base, record("method", "reshape", (base, -1)), lambda p: p.reshape(-1))
        if flat._view is None:  # (a dimension unknown while tracing)
            raise messages.SymbolicValueError(messages.in_place("ndarray.flat[...] = ..."))
        flat[index] = value

    def copy(self):
        return self.base.ravel().copy()

    def __array__(self, dtype=None, copy=None):
        return self.base.__array__()


def _out_handle(kwargs: dict, name: str):
    """The tensor an ``out=`` argument names (removed from ``kwargs``), or None. Writing
    into it updates the handle, as item assignment does where that is NumPy's meaning
    (``Tensor._updatable``); elsewhere it is refused."""
    out = kwargs.pop("out", None)
    if out is None:
        return None
    if out.__class__ is tuple and len(out) == 1:
        out = out[0]
    if out.__class__ is Tensor:
        check_writeable(out, "output array")
    if out.__class__ is Tensor and out._updatable():
        return out
    if out.__class__ is np.ndarray and holders.rebinds(out):
        # an array made before the code: the statement rebinds its name to the result
        # (``x = np.add(x, t, out=x)``); an array sharing its memory would be left behind
        arrays.check_staged_write(out, f"{name}(..., out=...)")
        return out
    raise messages.SymbolicValueError(messages.out_argument(name))


def _into(out, result, write_back=True):
    """``result`` written into the handle ``out`` (cast and broadcast to it), if any;
    ``write_back``: as an item assignment where ``out`` may be an argument's array."""
    if out is None:
        return result
    if result.__class__ is not Tensor:
        result = np.asarray(result)
    if result.dtype != out.dtype:
        if not np.can_cast(result.dtype, out.dtype, "same_kind"):
            raise TypeError(f"Cannot cast ufunc output from dtype('{result.dtype}') to "
                            f"dtype('{out.dtype}') with casting rule 'same_kind'")
        result = result.astype(out.dtype)
    if tuple(result.shape) != tuple(out.shape):
        result = np.broadcast_to(result, out.shape).copy()
    if out.__class__ is not Tensor:
        return result
    value = out._value
    if write_back and (value.op is None or value.op.kind in ("setitem", "cond", "while", "for")):
        # maybe an argument's array: an item assignment, which is written back (as the
        # in-place operators' ``v += x``; a plain handle update was lost to the caller)
        result = setitem(out, Ellipsis, result)
    out._assign(result._value if result.__class__ is Tensor else to_value(result, current()))
    return out


def _public(func) -> str:
    return numpy_api.SUPPORTED.get(func) or _qual(func)


def _qual(func) -> str:
    from .render import qualname

    try:
        return qualname(func)
    except Exception:
        return repr(func)


def is_view(index, result: "Tensor") -> bool:
    """Whether ``array[index]``, giving ``result``, is NumPy's view of the array: basic
    indexing, unless integers pick one element (a scalar, a copy). With a symbolic
    integer ``row = a[i]; row += 1`` writes into ``a`` as eagerly; with a 0-d integer
    *array* argument (an integer array index, as eagerly) ``a[i]`` is a copy."""
    return basic_index(index) and not _array_argument_key(index) and bool(
        result.ndim or _has_ellipsis(index))


def _array_argument_key(index) -> bool:
    zero_d = current().graph.zero_d_arrays
    return bool(zero_d) and any(key.__class__ is Tensor and key._value.id in zero_d
                                for key in (index if index.__class__ is tuple else (index,)))


def _has_ellipsis(index) -> bool:
    return index is Ellipsis or (index.__class__ is tuple and any(i is Ellipsis for i in index))


def has_mask(index) -> bool:
    items = index if isinstance(index, tuple) else (index,)
    for item in items:
        if item.__class__ is Tensor and item._value.dtype == np.bool_ and item.ndim > 0:
            return True
    return False


# --- views a method makes (``a.T``, ``a.transpose(1, 0)``, ``a.reshape(2, 3)``) ----------

class Positions:
    """The index of a view a method made: for each of its items, the flat position of the
    item of the base it shares (``np.arange(n).reshape(shape).T`` for ``.T``)."""

    __slots__ = ("array",)

    def __init__(self, array: np.ndarray) -> None:
        self.array = array


# the methods whose result NumPy gives as a view of any array; reshape and ravel give one
# of a C-contiguous array only, which a handle that is no view and has one axis is
_VIEWS = frozenset({"T", "mT", "transpose", "swapaxes", "squeeze", "reshape", "ravel",
                    "diagonal"})
_LAYOUT = frozenset({"reshape", "ravel"})
# NumPy's functions whose result is a view of their first argument, as the methods'
_VIEW_FUNCTIONS = frozenset({
    np.transpose, np.reshape, np.squeeze, np.swapaxes, np.ravel, np.moveaxis, np.rollaxis,
    np.expand_dims, np.atleast_1d, np.atleast_2d, np.atleast_3d, np.diagonal,
    np.broadcast_to, np.flip, np.fliplr, np.flipud, np.rot90, np.asarray, np.asanyarray,
    np.matrix_transpose, np.permute_dims})
_PARTS = {np.real: "real", np.imag: "imag"}


def _viewing(base: "Tensor", result, move, layout: bool = False):
    """``result``, which ``move`` (what the method or function did, on a NumPy array) made
    of ``base``, made NumPy's view of ``base`` where NumPy gives one (a write through either
    reaches the other, as ``Tensor._assign`` passes writes on; a read-only one refuses
    writes as NumPy does): ``move`` of the positions of ``base``'s items tells where each of
    ``result``'s items lives. Left alone where that is unknown while tracing (an unknown
    dimension) or NumPy's answer depends on memory layout the graph does not keep
    (``layout``: ``reshape`` of an array of several axes)."""
    shape = base._value.shape
    if result.__class__ is not Tensor or None in shape:
        return result
    positions = np.arange(int(np.prod(shape, dtype=np.int64)), dtype=np.intp).reshape(shape)
    try:
        moved = move(positions)
    except Exception:  # (NumPy's own error was raised by the recorded op already)
        return result
    if not isinstance(moved, np.ndarray) or not np.shares_memory(moved, positions):
        return result
    if result is base:  # (np.asarray(a) of a handle is the handle)
        return result
    if layout and (len(shape) != 1 or base._view is not None):
        _note_twins(base, result)  # a view or a copy, by a layout the graph does not keep
        return result
    result._view = (base, Positions(np.array(moved)))
    result._readonly = base._readonly or not moved.flags.writeable
    base._views = [r for r in base._views or () if r() is not None]
    base._views.append(weakref.ref(result))
    return result


def _part(base: "Tensor", name: str):
    """``base.real`` or ``base.imag``: of a real array, ``real`` is a view of it and ``imag``
    read-only zeros; of a complex one, a view of its real or imaginary parts (``Part``)."""
    result = record("attr", name, (base,))
    if base.dtype.kind != "c":
        if name == "imag" and result.__class__ is Tensor:
            result._readonly = True
            return result
        return _viewing(base, result, lambda p: p.real)
    if result.__class__ is Tensor:
        result._view = (base, Part(name))
        result._readonly = base._readonly
        base._views = [r for r in base._views or () if r() is not None]
        base._views.append(weakref.ref(result))
    return result


class Part:
    """The index of ``a.real`` or ``a.imag`` of a complex ``a``: its items are a part of
    each of ``a``'s (a write changes that part, and leaves the other)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


def check_writeable(t: "Tensor", what: str) -> None:
    """NumPy's ValueError for a write into a read-only view (``np.diagonal(a)[0] = v``):
    ``what`` is NumPy's word for the array written ("assignment destination", "output
    array")."""
    if t._readonly:
        raise ValueError(f"{what} is read-only")


# id(handle) -> (a weak reference to it, weak references to the handles that NumPy may
# give as a view of it or it as a view of, by a memory layout the graph does not keep)
_twins: dict = {}


def _note_twins(a: "Tensor", b: "Tensor") -> None:
    for x, y in ((a, b), (b, a)):
        key = id(x)
        entry = _twins.get(key)
        if entry is None or entry[0]() is not x:
            entry = _twins[key] = (weakref.ref(x, lambda _, key=key: _twins.pop(key, None)), [])
        entry[1].append(weakref.ref(y))


def _layout_twins(t: "Tensor") -> list:
    """The live handles NumPy may give as a view of ``t`` or ``t`` as a view of (``_twins``):
    a write into ``t`` may or may not reach them, so one that is read later is refused."""
    entry = _twins.get(id(t))
    if entry is None or entry[0]() is not t:
        return []
    return [twin for twin in (r() for r in entry[1]) if twin is not None]


def refuse_layout_twins(t: "Tensor") -> None:
    """Before a write into ``t``: a ``StagingError`` if a handle NumPy may give as a view of
    it (or it of) is read later (``_twins``)."""
    for twin in _layout_twins(t):
        held = holders.stale(lambda h, twin=twin: h is twin)
        if held is not None:
            raise messages.layout_view_write(user_source(), held[0])


def _staged_in(structure) -> bool:
    cls = structure.__class__
    if cls is tuple or cls is list:
        return any(_staged_in(item) for item in structure)
    if cls is dict:
        return any(_staged_in(item) for item in structure.values())
    return cls is Tensor or cls is Value


def _read_through(base: "Tensor", index) -> "Tensor":
    """The view ``base[index]`` (or the method's view, ``Positions``; a part, ``Part``)
    read again."""
    if index.__class__ is Part:
        return record("attr", index.name, (base,))
    if index.__class__ is Positions:
        flat = record("method", "reshape", (base, -1))
        return record("getitem", None, (flat, index.array))
    return record("getitem", None, (base, index))


def _written_through(base: "Tensor", index, view: "Tensor") -> "Tensor":
    """``base`` with the view's items written where they live in it."""
    if index.__class__ is Part:
        other = record("attr", "imag" if index.name == "real" else "real", (base,))
        real, imag = (view, other) if index.name == "real" else (other, view)
        return (real + imag * 1j).astype(base.dtype)
    if index.__class__ is Positions:
        flat = record("method", "reshape", (base, -1))
        items = record("method", "reshape", (view, -1))
        written = setitem(flat, index.array.reshape(-1), items)
        return record("method", "reshape", (written, base._value.shape))
    return setitem(base, index, view)


def setitem(target: Tensor, index, value) -> Tensor:
    """A new tensor equal to ``target`` with ``target[index] = value`` applied."""
    state = current()
    args = to_value((target, index, value), state)
    tv = args[0]
    # NumPy decides whether the assignment is valid (shapes, casting) on stand-ins.
    with np.errstate(all="ignore"):
        buf = np.array(stand_in(tv, 5, 0))
        idx = map_values(args[1], lambda v: stand_in(v, 5, 0))
        try:
            buf[idx] = map_values(args[2], lambda v: stand_in(v, 5, 0))
        except ValueError:
            # How many items a staged mask selects is known only at run time, where
            # NumPy checks the value against it (``y[m] = f(x[m])``); stand-ins cannot.
            if not has_mask(index):
                raise
    out = state.graph.new_value(tv.dtype, tv.shape)
    state.append(Op("setitem", None, args, {}, [out], out, source=user_source()))
    return Tensor(out, state.graph)


def _binary(symbol):
    def forward(self, other):
        deferred = getattr(other.__class__, "binary_from_left", None)  # staging.maybe_none.NoneOnSomePaths
        if deferred is not None:
            return deferred(other, symbol, self)
        result = record("binop", symbol, (self, other))
        hook = getattr(current(), "after_binop", None)  # (python_chosen: a Python number
        if hook is not None:                             # on some paths)
            hook(symbol, self, other, result)
        return result

    def reverse(self, other):
        result = record("binop", symbol, (other, self))
        hook = getattr(current(), "after_binop", None)
        if hook is not None:
            hook(symbol, other, self, result)
        return result

    return forward, reverse


for _symbol, _name in [("+", "add"), ("-", "sub"), ("*", "mul"), ("/", "truediv"),
                       ("//", "floordiv"), ("%", "mod"), ("**", "pow"), ("@", "matmul"),
                       ("&", "and"), ("|", "or"), ("^", "xor"), ("<<", "lshift"), (">>", "rshift")]:
    _fwd, _rev = _binary(_symbol)
    setattr(Tensor, f"__{_name}__", _fwd)
    setattr(Tensor, f"__r{_name}__", _rev)

def _in_place(symbol):
    """``t op= v`` on an array: NumPy keeps ``t``'s dtype (casting as ``out=`` does) and
    updates the array every reference sees; here the handle, where that is safe
    (``_updatable``). Scalars (NumPy's and Python's) are rebound to a new value; a 0-d
    state of an argument that keeps its dtype is updated as an array (one graph serves
    a 0-d argument array, which is written back, and a NumPy scalar, which the
    write-back leaves alone)."""
    def inplace(self, other):
        result = update(self, other)
        hook = getattr(current(), "after_binop", None)  # (python_chosen)
        if hook is not None:
            hook(symbol, self, other, result)
        return result

    def update(self, other):
        check_writeable(self, "output array")
        value = self._value
        result = record("binop", symbol, (self, other))
        if value.id in self._graph.zero_d_arrays and result.__class__ is Tensor and \
                value.op is not None and value.op.kind not in ("setitem", "cond", "while", "for"):
            return _zero_d_update(self, result)
        maybe_argument = value.op is None or value.op.kind in ("setitem", "cond", "while", "for")
        if value.weak or (not value.shape and (not maybe_argument or result.__class__ is not Tensor
                                               or result.dtype != value.dtype)):
            return result  # a scalar: Python rebinds it to a new one
        result = _into(Tensor(value, self._graph), result, write_back=False)
        if maybe_argument:
            # maybe an argument's array: an item assignment, which is written back
            result = setitem(self, Ellipsis, result)
        if not value.shape:
            return result  # the name is rebound, as for a NumPy scalar (one graph serves both)
        if self._updatable():
            self._assign(result._value)
            return self
        if self._shares():
            raise messages.view_write(user_source())
        refuse_layout_twins(self)
        return result

    return inplace


def _zero_d_update(target: Tensor, result: Tensor):
    """``a op= x`` of a 0-d array the function made (``graph.zero_d_arrays``: ``np.where``
    of scalars): NumPy writes the result into the array, in its dtype, so every name
    holding it sees it; the handle is updated where that is safe (``_updatable``), else
    the name alone gets the new value, as for any array (``check_in_place`` refused where
    another name read later holds it)."""
    result = _into(Tensor(target._value, target._graph), result, write_back=False)
    target._graph.zero_d_arrays.add(result._value.id)
    if target._updatable():
        target._assign(result._value)
        return target
    return result


for _symbol, _name in [("+", "add"), ("-", "sub"), ("*", "mul"), ("/", "truediv"),
                       ("//", "floordiv"), ("%", "mod"), ("**", "pow"), ("&", "and"),
                       ("|", "or"), ("^", "xor"), ("<<", "lshift"), (">>", "rshift")]:
    setattr(Tensor, f"__i{_name}__", _in_place(_symbol))

for _symbol, _name in [("==", "eq"), ("!=", "ne"), ("<", "lt"), ("<=", "le"), (">", "gt"),
                       (">=", "ge")]:
    setattr(Tensor, f"__{_name}__", _binary(_symbol)[0])

def _unary(symbol):
    def unary(self):
        result = record("unop", symbol, (self,))
        hook = getattr(current(), "after_unop", None)  # (python_chosen)
        if hook is not None:
            hook(self, result)
        return result

    return unary


for _symbol, _name in [("-", "neg"), ("+", "pos"), ("~", "invert"), ("abs", "abs")]:
    setattr(Tensor, f"__{_name}__", _unary(_symbol))


def _static_shape(a):
    return a.shape if a.__class__ is Tensor else np.shape(a)


def _static_ndim(a):
    return len(_static_shape(a))


def _static_size(a):
    return a.size if a.__class__ is Tensor else np.size(a)


def _static_via_stand_ins(func):
    """Functions of dtypes and shapes only: answered at trace time."""
    def run(*args, **kwargs):
        state = current()
        args = map_values(to_value(args, state), lambda v: stand_in(v, 1, 0))
        kwargs = map_values(to_value(kwargs, state), lambda v: stand_in(v, 1, 0))
        return func(*args, **kwargs)

    return run


_STATIC = {np.shape: _static_shape, np.ndim: _static_ndim, np.size: _static_size}
for _f in (np.result_type, np.iscomplexobj, np.isrealobj, np.can_cast, np.min_scalar_type):
    _STATIC[_f] = _static_via_stand_ins(_f)
