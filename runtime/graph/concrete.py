"""One traced graph with its compiled code: ``ConcreteFunction``.

It remembers the signature it was traced for (``TensorSpec``s for arrays,
Variables' dtypes and shapes, Python values as they were) and, when called
directly, checks each argument against it: a wrong dtype is a ``TypeError``, a
wrong shape a ``ValueError``, a different Python value a ``TypeError``, each
naming the parameter, what was expected and what came.
"""

from __future__ import annotations

import inspect

import numpy as np

from . import messages
from .ir import Graph, Value, is_namedtuple, type_str


class ConcreteFunction:
    """A graph traced for one input signature, compiled to Python."""

    def __init__(self, graph: Graph, fn, specs, param_names, name: str, layout=()):
        self.graph = graph
        self.layout = list(layout)
        self.variables = list(graph.captured)
        self._fn = fn
        self.specs = list(specs)
        self.param_names = list(param_names)
        self.name = name
        graph.signature = self.specs

    def __call__(self, *args, **kwargs):
        if kwargs or len(args) != len(self.param_names):
            args = self._bind(args, kwargs)
        args = tuple(self._check(name, spec, a) for name, spec, a in
                     zip(self.param_names, self.specs, args))
        return self._fn(*args)

    def _bind(self, args, kwargs) -> tuple:
        params = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD)
                  for n in self.param_names]
        bound = inspect.Signature(params).bind(*args, **kwargs)
        return tuple(bound.arguments[n] for n in self.param_names)

    def _check(self, name, spec, a):
        from .polymorphic import TensorSpec
        from .variables import Variable

        if isinstance(spec, TensorSpec):
            if a.__class__ in (bool, int, float, complex):
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
            if a.__class__ is not spec.__class__ or len(a) != len(spec):
                raise TypeError(messages.wrong_python_value(self.name, name, spec, a))
            return spec.__class__(self._check(f"{name}[{i}]", s, x)
                                  for i, (s, x) in enumerate(zip(spec, a)))
        if spec.__class__ is dict:
            if a.__class__ is not dict or a.keys() != spec.keys():
                raise TypeError(messages.wrong_python_value(self.name, name, spec, a))
            return {k: self._check(f"{name}[{k!r}]", spec[k], a[k]) for k in spec}
        if a is not spec:
            try:
                same = type(a) is type(spec) and bool(a == spec)
            except Exception:
                same = False
            if not same:
                raise TypeError(messages.wrong_python_value(self.name, name, spec, a))
        return a

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
        return tuple(self.specs)

    @property
    def structured_outputs(self):
        return self.graph.outputs

    def pretty_signature(self) -> str:
        lines = [f"{self.name}({', '.join(self.param_names)})", "  Args:"]
        for name, spec in zip(self.param_names, self.specs):
            lines.append(f"    {name}: {describe_spec(spec)}")
        lines += ["  Returns:", f"    {describe_output(self.graph.outputs)}"]
        return "\n".join(lines)

    def save(self, path) -> None:
        """Write the graph, its constants and variable values to ``path`` (an .npz file)."""
        from .serialize import save

        save(self, path)

    def __repr__(self) -> str:
        return f"<ConcreteFunction {self.pretty_signature().splitlines()[0]}>"


def _is_array_spec(spec) -> bool:
    from .polymorphic import TensorSpec

    return isinstance(spec, TensorSpec)


def _shape_text(shape) -> str:
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
