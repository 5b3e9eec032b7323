"""One traced graph with its compiled code: ``ConcreteFunction``.

It remembers the signature it was traced for (``TensorSpec``s for arrays,
Variables' dtypes and shapes, Python values as they were) and, when called
directly, checks each argument against it: a wrong dtype is a ``TypeError``, a
wrong shape a ``ValueError``, a different Python value a ``TypeError``, each
naming the parameter, what was expected and what came.

Python arguments are part of the graph they were traced with: a call passes the
array arguments (positionally, in order, or by name) and may repeat the Python
ones, which must then equal the traced values.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from . import messages
from .ir import Graph, Value, is_namedtuple, type_str


class ConcreteFunction:
    """A graph traced for one input signature, compiled to Python.

    Made by ``Function.get_concrete_function`` (or ``autograph.load``). Calling
    it runs the graph; the arguments must fit the signature it was traced for.
    ``graph`` is the graph as data (``str(graph)`` is its text form), ``save``
    writes it to a file.

    Example:
        >>> import numpy as np
        >>> import autograph as ag
        >>> @ag.function
        ... def double(x):
        ...     return x * 2
        >>> concrete = double.get_concrete_function(ag.TensorSpec([None], np.float64))
        >>> print(concrete.pretty_signature())
        double(x)
          Args:
            x: float64 array, shape=(None,)
          Returns:
            float64 array, shape=(None,)
        >>> concrete(np.arange(3.0))
        array([0., 2., 4.])
        >>> concrete(np.arange(3))
        Traceback (most recent call last):
        ...
        TypeError: double(): argument 'x' must have dtype float64, got dtype int64.
    """

    def __init__(self, graph: Graph, fn, specs, param_names, name: str, layout=(),
                 boundary=None):
        from .boundary import Boundary

        self.graph = graph
        self.boundary = boundary if boundary is not None else Boundary()
        self.layout = list(layout)
        self.variables = list(graph.captured)
        self._fn = fn
        self.specs = list(specs)
        self.param_names = list(param_names)
        self.name = name
        self._array_names = [n for n, spec in zip(self.param_names, self.specs) if _has_arrays(spec)]
        graph.signature = self.specs

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if kwargs or len(args) != len(self.param_names):
            args = self._bind(args, kwargs)
        args = tuple(self._check(name, spec, a) for name, spec, a in
                     zip(self.param_names, self.specs, args))
        return self._fn(*args)

    def _bind(self, args, kwargs) -> tuple:
        """One argument per parameter. Positional arguments fill the array parameters
        (all parameters, if there are more of them); a Python parameter not given
        takes the value it was traced with."""
        names = self.param_names
        positional = names if len(args) > len(self._array_names) else self._array_names
        if len(args) > len(names):
            raise TypeError(f"{self.name}() takes {len(names)} arguments, got {len(args)}.")
        given = dict(zip(positional, args))
        for key, value in kwargs.items():
            if key not in names:
                raise TypeError(f"{self.name}() got an unexpected keyword argument '{key}'.")
            if key in given:
                raise TypeError(f"{self.name}() got multiple values for argument '{key}'.")
            given[key] = value
        missing = [n for n in self._array_names if n not in given]
        if missing:
            listed = ", ".join(f"'{n}'" for n in missing)
            fixed = ", ".join(f"{n}={spec!r}" for n, spec in zip(names, self.specs)
                              if n not in self._array_names)
            raise TypeError(f"{self.name}() missing array argument {listed}; this concrete "
                            f"function is called with ({', '.join(self._array_names)})"
                            + (f" (its Python arguments are fixed: {fixed})." if fixed else "."))
        return tuple(given.get(n, spec) for n, spec in zip(names, self.specs))

    def _check(self, name, spec, a):
        from .polymorphic import TensorSpec
        from .variables import Variable

        if isinstance(spec, TensorSpec):
            if a.__class__ in (list, tuple):  # nested lists of numbers, as np.asarray takes them
                converted = np.asarray(a)
                if converted.dtype == object or not np.can_cast(converted.dtype, spec.dtype,
                                                                "same_kind"):
                    raise TypeError(messages.wrong_dtype(self.name, name, spec.dtype.name,
                                                         f"a {type(a).__name__} of "
                                                         f"{converted.dtype.name}"))
                a = converted.astype(spec.dtype)
            elif a.__class__ in (bool, int, float, complex):
                converted = np.asarray(a)
                try:
                    ok = np.result_type(spec.dtype, a) == spec.dtype
                except (TypeError, OverflowError):
                    ok = False
                if not ok:
                    raise TypeError(messages.wrong_dtype(self.name, name, spec.dtype.name,
                                                         f"python {type(a).__name__} {a!r}"))
                a = converted.astype(spec.dtype)
            elif not isinstance(a, (np.ndarray, np.generic)):
                raise TypeError(messages.wrong_dtype(self.name, name, spec.dtype.name,
                                                     f"a {type(a).__name__}"))
            if a.dtype != spec.dtype:
                raise TypeError(messages.wrong_dtype(self.name, name, spec.dtype.name,
                                                     f"dtype {a.dtype.name}"))
            if not spec.fits(np.shape(a)):
                raise ValueError(messages.wrong_shape(self.name, name, _shape_text(spec.shape),
                                                      _shape_text(np.shape(a))))
            return a
        if isinstance(spec, Variable):
            if not isinstance(a, Variable) or (a.dtype, a.shape) != (spec.dtype, spec.shape):
                raise TypeError(f"{self.name}(): argument '{name}' must be an autograph.Variable "
                                f"of {type_str(spec.dtype, spec.shape)}, got {a!r}.")
            return a
        if spec.__class__ in (tuple, list):
            # With arrays inside, a list and a tuple are the same structure (as in
            # TensorFlow's input signatures); Python values must match exactly.
            same_kind = a.__class__ is spec.__class__ or (
                a.__class__ in (tuple, list) and _has_arrays(spec))
            if not same_kind or len(a) != len(spec):
                raise TypeError(self._wrong_structure(name, spec, a))
            items = [self._check(f"{name}[{i}]", s, x) for i, (s, x) in enumerate(zip(spec, a))]
            if a.__class__ is spec.__class__ and all(map(operator.is_, items, a)):
                return a  # the caller's own list: the graph may write into it
            return spec.__class__(items)
        if spec.__class__ is dict:
            if a.__class__ is not dict or a.keys() != spec.keys():
                raise TypeError(self._wrong_structure(name, spec, a))
            items = {k: self._check(f"{name}[{k!r}]", spec[k], a[k]) for k in spec}
            return a if all(items[k] is a[k] for k in spec) else items
        if a is not spec:
            try:
                same = type(a) is type(spec) and bool(a == spec)
            except Exception:
                same = False
            if not same:
                raise TypeError(messages.wrong_python_value(self.name, name, spec, a))
        return a

    def _wrong_structure(self, name: str, spec, a) -> str:
        if not _has_arrays(spec):
            return messages.wrong_python_value(self.name, name, spec, a)
        text = repr(a)
        text = text if len(text) < 60 else text[:57] + "..."
        return (f"{self.name}(): argument '{name}' must be {describe_spec(spec)}, got "
                f"{type(a).__name__} {text}.")

    def _accepts(self, args) -> bool:
        if len(args) != len(self.specs):
            return False
        try:
            for name, spec, a in zip(self.param_names, self.specs, args):
                if isinstance(a, (np.ndarray, np.generic)) != _is_array_spec(spec):
                    return False
                self._check(name, spec, a)
        except (TypeError, ValueError):
            return False
        return True

    # --- introspection --------------------------------------------------------------------
    @property
    def structured_input_signature(self):
        """The ``TensorSpec`` of each array argument, and each Python argument's value,
        in the order of the parameters."""
        return tuple(self.specs)

    @property
    def structured_outputs(self):
        """What the function returns, as graph values in the same nesting."""
        return self.graph.outputs

    def pretty_signature(self) -> str:
        """The parameters with their specs, and what it returns, as text."""
        lines = [f"{self.name}({', '.join(self.param_names)})", "  Args:"]
        for name, spec in zip(self.param_names, self.specs):
            lines.append(f"    {name}: {describe_spec(spec)}")
        lines += ["  Returns:", f"    {describe_output(self.graph.outputs)}"]
        return "\n".join(lines)

    def save(self, path: Any) -> None:
        """Write the graph, its constants and variable values to ``path`` (an .npz file).

        Nothing is pickled; ``autograph.load(path)`` compiles it again without
        the Python source.

        Raises:
            ValueError: The graph holds something with no saved form (a function
                that is not NumPy's, ``math``'s or a builtin; an exception class or
                named tuple defined inside a function); the message names the op
                and its line.
        """
        from .serialize import save

        save(self, path)

    def __repr__(self) -> str:
        return f"<ConcreteFunction {self.pretty_signature().splitlines()[0]}>"


def _is_array_spec(spec) -> bool:
    from .polymorphic import TensorSpec

    return isinstance(spec, TensorSpec)


def _has_arrays(spec) -> bool:
    """Whether a parameter's spec has array or Variable leaves (else it is a Python value)."""
    from .polymorphic import TensorSpec
    from .variables import Variable

    if isinstance(spec, (TensorSpec, Variable)):
        return True
    if spec.__class__ in (tuple, list):
        return any(_has_arrays(s) for s in spec)
    if spec.__class__ is dict:
        return any(_has_arrays(s) for s in spec.values())
    return False


def _shape_text(shape) -> str:
    if shape is None:
        return "any rank"
    return "(" + ", ".join("None" if d is None else str(d) for d in shape) + \
        ("," if len(shape) == 1 else "") + ")"


def describe_spec(spec) -> str:
    from .polymorphic import TensorSpec
    from .variables import Variable

    if isinstance(spec, TensorSpec):
        return f"{spec.dtype.name} array, shape={_shape_text(spec.shape)}"
    if isinstance(spec, Variable):
        return f"Variable {spec.dtype.name}, shape={_shape_text(spec.shape)}"
    if spec.__class__ in (tuple, list):
        inner = ", ".join(describe_spec(s) for s in spec)
        return f"[{inner}]" if spec.__class__ is list else f"({inner})"
    if spec.__class__ is dict:
        return "{" + ", ".join(f"{k!r}: {describe_spec(v)}" for k, v in spec.items()) + "}"
    return f"python {type(spec).__name__} {spec!r}"


def describe_output(out) -> str:
    if out.__class__ is Value:
        if out.weak:
            return f"{out.dtype.name} array, shape=()"
        return f"{out.dtype.name} array, shape={_shape_text(out.shape)}"
    if out.__class__ in (tuple, list):
        inner = ", ".join(describe_output(s) for s in out)
        return f"[{inner}]" if out.__class__ is list else f"({inner})"
    if out.__class__ is dict:
        return "{" + ", ".join(f"{k!r}: {describe_output(v)}" for k, v in out.items()) + "}"
    if is_namedtuple(out):
        inner = ", ".join(f"{k}={describe_output(v)}" for k, v in zip(out._fields, out))
        return f"{type(out).__name__}({inner})"
    return f"python {type(out).__name__} {out!r}"
