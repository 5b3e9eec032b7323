"""``autograph.Variable``: an array that keeps its value across calls of a graph.

Outside a trace a Variable is a small mutable box around a NumPy array, usable
wherever an array is (ufuncs, NumPy functions, operators). Inside a trace every
use reads it with a ``read`` op and every ``assign`` records an ``assign`` op, so
the compiled graph reads and updates the real Variable each time it runs, in
program order. The graph refers to a variable it captured (from a closure, a
global, ``self``) by a name bound to the object, and to a variable passed as an
argument by that parameter, so each call updates the variable it was given.

The stored array is never modified in place: ``assign`` replaces it with a new
array of the variable's dtype. Values read earlier stay valid. The in-place
operators (``v += x``, ``self.w -= lr * g``) are assignments: ``v.assign(v + x)``.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from . import messages, trace
from .ir import Op, VarRef


class Variable:
    """An array whose value persists across calls of graph functions.

    Outside a trace it behaves like the array it holds (operators, ufuncs,
    NumPy functions). In a graph, reads and ``assign``/``assign_add``/
    ``assign_sub`` become graph ops, so each call sees and updates the current
    value. Create variables outside the function, or on its first trace only.

    Args:
        initial_value: Anything ``np.array`` accepts.
        dtype: The dtype (default: that of ``initial_value``).
        name: An optional label, shown in its repr.

    Raises:
        ValueError: Created while tracing a graph other than the first one, or
            from a symbolic array.

    Example:
        >>> import numpy as np
        >>> import autograph as ag
        >>> counter = ag.Variable(0)
        >>> @ag.function
        ... def tick(step):
        ...     counter.assign_add(step)
        ...     return counter.read_value()
        >>> _ = tick(np.array(2)); tick(np.array(3))
        array(5)
    """

    __array_priority__ = 1001

    def __init__(self, initial_value: Any, dtype: Any = None, name: Optional[str] = None) -> None:
        from .tensor import Tensor

        state = trace.current()
        if state is not None:
            if not state.first_trace:
                raise ValueError(messages.created_variable_on_later_trace(state.graph.name))
            if isinstance(initial_value, Tensor):
                raise ValueError("autograph.Variable: the initial value must be a concrete value, "
                                 "not a symbolic tensor; compute it outside the function.")
            state.created_variables.append(self)
        self.value = np.array(initial_value, dtype=dtype)
        self.name = name

    @property
    def dtype(self) -> np.dtype:
        """The NumPy dtype, fixed when the variable is created."""
        return self.value.dtype

    @property
    def shape(self) -> tuple:
        """The shape, fixed when the variable is created."""
        return self.value.shape

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return self.value.ndim

    def __repr__(self) -> str:
        label = f" '{self.name}'" if self.name else ""
        return f"<autograph.Variable{label} shape={self.shape} dtype={self.dtype.name}, " \
               f"numpy={self.value!r}>"

    # --- reading ------------------------------------------------------------------------
    def _ref_in(self, state) -> VarRef:
        ref = state.var_refs.get(id(self))
        if ref is None:
            captured = state.graph.captured
            ref = VarRef(f"v{len(captured)}", self.dtype, self.shape)
            captured.append(self)
            state.var_refs[id(self)] = ref
        return ref

    def _read_in(self, state):
        """Record a read of this variable in the trace; returns the graph Value."""
        ref = self._ref_in(state)
        out = state.graph.new_value(self.dtype, self.shape)
        state.append(Op("read", ref, (), {}, [out], out, source=trace.user_source()))
        return out

    def _current(self):
        """The value user code sees now: the array, or a symbolic read while tracing."""
        state = trace.current()
        if state is None:
            return self.value
        return trace.wrap(self._read_in(state), state)

    def read_value(self):
        """The current value: the array outside a trace, a read op (a symbolic array)
        in a graph, which gives the value the variable has when the graph runs."""
        return self._current()

    def numpy(self) -> np.ndarray:
        """A copy of the current value as a NumPy array (in a graph: as ``read_value``)."""
        state = trace.current()
        if state is not None:
            return self._current()
        return self.value.copy()

    # --- writing ------------------------------------------------------------------------
    def _assign(self, value) -> None:
        """What the compiled graph calls: store a copy of ``value`` in this dtype."""
        new = np.array(value, dtype=self.value.dtype)
        if new.shape != self.value.shape:
            raise ValueError(f"autograph.Variable.assign: the variable has shape "
                             f"{self.value.shape}, the new value has shape {new.shape}.")
        self.value = new

    def assign(self, value):
        """Store ``value``: now outside a trace, each time the graph runs inside one.

        Returns the variable. Raises ``TypeError`` for an array whose dtype is of
        another kind than the variable's (a float array into an int variable; a
        Python number is cast), ``ValueError`` for another shape."""
        state = trace.current()
        if state is None:
            self._check(np.asarray(value).dtype, np.shape(value), value)
            self._assign(value)
            return self
        ref = self._ref_in(state)
        new = trace.to_value(value, state)
        dtype = getattr(new, "dtype", None) or np.asarray(new).dtype
        self._check(dtype, getattr(new, "shape", np.shape(new)), new)
        state.append(Op("assign", ref, (new,), {}, [], None, source=trace.user_source(),
                        effect=True))
        return self

    def _check(self, dtype, shape, value) -> None:
        weak = value.__class__ in (bool, int, float, complex) or getattr(value, "weak", False)
        if not weak and not np.can_cast(dtype, self.dtype, "same_kind"):
            raise TypeError(f"autograph.Variable.assign: cannot store a {np.dtype(dtype).name} "
                            f"value in a {self.dtype.name} variable; cast it with astype first.")
        if tuple(shape) != self.shape and None not in tuple(shape):
            raise ValueError(f"autograph.Variable.assign: the variable has shape {self.shape}, "
                             f"the new value has shape {tuple(shape)}.")

    def assign_add(self, delta):
        """``assign(value + delta)``; in a traced function ``self.v += delta`` (or
        ``v += delta`` on a ``global v``) does the same."""
        return self.assign(self._current() + delta)

    def assign_sub(self, delta):
        """``assign(value - delta)``, as ``assign_add`` (``self.v -= delta``)."""
        return self.assign(self._current() - delta)

    # --- acting as an array -------------------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        if trace.current() is not None:
            from .tensor import Tensor

            return Tensor.__array__(self._current(), dtype)
        return self.value if dtype is None else self.value.astype(dtype)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        inputs = tuple(x._current() if isinstance(x, Variable) else x for x in inputs)
        return getattr(ufunc, method)(*inputs, **kwargs)

    def __array_function__(self, func, types, args, kwargs):
        args = _unwrap(args)
        kwargs = _unwrap(kwargs)
        return func(*args, **kwargs)

    def __getitem__(self, index):
        return self._current()[index]

    def __len__(self) -> int:
        return len(self.value)

    def __bool__(self) -> bool:
        return bool(self._current())

    def __float__(self) -> float:
        return float(self.value)

    def __int__(self) -> int:
        return int(self.value)

    def __index__(self) -> int:
        return self.value.__index__()

    def __getattr__(self, name):
        if name.startswith("_") or name in ("value", "name"):
            raise AttributeError(name)
        return getattr(self._current(), name)


def _unwrap(obj):
    if isinstance(obj, Variable):
        return obj._current()
    if obj.__class__ in (tuple, list):
        return obj.__class__(_unwrap(x) for x in obj)
    if obj.__class__ is dict:
        return {k: _unwrap(v) for k, v in obj.items()}
    return obj


def _operator(symbol):
    import operator

    fn = {"add": operator.add, "sub": operator.sub, "mul": operator.mul,
          "truediv": operator.truediv, "floordiv": operator.floordiv, "mod": operator.mod,
          "pow": operator.pow, "matmul": operator.matmul, "and": operator.and_,
          "or": operator.or_, "xor": operator.xor, "lt": operator.lt, "le": operator.le,
          "gt": operator.gt, "ge": operator.ge, "eq": operator.eq, "ne": operator.ne}[symbol]

    def forward(self, other):
        return fn(self._current(), _unwrap(other))

    def reverse(self, other):
        return fn(_unwrap(other), self._current())

    return forward, reverse


for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or",
              "xor"):
    _f, _r = _operator(_name)
    setattr(Variable, f"__{_name}__", _f)
    setattr(Variable, f"__r{_name}__", _r)
def _in_place(symbol):
    """``v op= x`` on a Variable assigns ``v op x`` to it and keeps the Variable (eager
    and inside a trace alike), as ``assign_add`` does for ``+=``."""
    forward = _operator(symbol)[0]

    def update(self, other):
        self.assign(forward(self, other))
        return self

    return update


for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or",
              "xor"):
    setattr(Variable, f"__i{_name}__", _in_place(_name))
for _name in ("lt", "le", "gt", "ge", "eq", "ne"):
    setattr(Variable, f"__{_name}__", _operator(_name)[0])
Variable.__hash__ = object.__hash__
Variable.__neg__ = lambda self: -self._current()
Variable.__pos__ = lambda self: +self._current()
Variable.__abs__ = lambda self: abs(self._current())
