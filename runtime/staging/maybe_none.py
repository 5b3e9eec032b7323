"""Values that differ by staged path, carried with a run-time flag, on a backend whose
compiled function's outputs are the framework's own (``jax.jit``, ``torch.compile`` /
``torch.export``, ``tf.function``: no boundary of ours rebuilds None or a string after
a run; the NumPy engine has one, ``backends/numpy_graph/maybe_none.py``).

``s = None`` before a loop whose staged branch assigns ``s = 0`` leaves ``s`` None on
some run-time paths and a value on others. Where a staged ``if`` (or loop) gives a
variable None on one side and an array or number on the other, it is carried as a
``NoneOnSomePaths``: a run-time flag (true where it is None) beside the value (zeros
where it is None). ``s is None`` / ``s is not None`` answer with the flag, and the
``if`` they test narrows ``s`` in each branch (``conditionals.narrowed``): None in the
branch that runs when it is None, the value in the other, as eager Python knows there
(``if s is None: s = 3``). Arithmetic and ordering comparisons on it raise Python's
TypeError when the program runs and it is None, where the framework can raise at run
time (``Backend.raise_where``: TensorFlow); any other use, and any use where it cannot
(JAX, PyTorch), is a StagingError naming the framework. Returned from the compiled
function it is a StagingError too (each backend hooks ``returned_error`` into its
framework's flattening of outputs): the framework returns arrays on every run.

A plain variable one branch assigns (``Undefined`` on the other side) is carried the
same way, as an ``UnboundOnSomePaths`` whose reads raise ``UnboundLocalError`` when the
program runs where it was not assigned; only where the framework can raise at run time
(elsewhere ``pair_unbound`` gives None: the StagingError naming the branch).
"""

from __future__ import annotations

import operator
from typing import Any, NamedTuple

from . import errors
from .backend import backend_of, tracing_now
from .conditionals import known_not_none
from .state import filler
from .undefined import Undefined, unbound_error


class NoneOnSomePaths(NamedTuple):
    """``None`` when ``flag`` is true at run time, else ``value``."""

    flag: Any
    value: Any
    name: str

    def is_none(self):
        return self.flag

    def checked_value(self, error: Exception):
        """The value, where ``error`` (eager's, on None) is raised when the program runs
        and it is None (``numpy_calls``: a NumPy function given it); a StagingError
        where the framework cannot raise at run time."""
        if known_not_none(self) or _checked(self, error):
            return self.value
        return _refuse(self)


class UnboundOnSomePaths(NamedTuple):
    """A variable a staged ``if`` or loop assigns on some paths only: unassigned when
    ``flag`` is true at run time. Reads (``ag__.ld``) raise ``UnboundLocalError`` then."""

    flag: Any
    value: Any
    name: str

    def checked_read(self, error=None):
        """The value; raises ``error`` (``UnboundLocalError``) where it is unassigned."""
        _backend(self).raise_where(self.flag, error or unbound_error(self.name))
        return self.value


def _backend(self):
    """The backend of the program ``self`` is a value of."""
    return backend_of(self.flag) or backend_of(self.value) or tracing_now()


def _framework(self) -> tuple:
    backend = _backend(self)
    return (backend.compiler, backend.framework) if backend is not None else (
        "the compiler", "compiled")


def _refuse(self, *args, **kwargs):
    compiler, framework = _framework(self)
    backend = _backend(self)
    if backend is not None and backend.raises_at_run_time:
        raise errors.StagingError(
            f"{errors.subject(self.name)} is None on some staged paths and a value on others, "
            f"and is used here as a value; under {compiler} it can be tested with 'is None' "
            f"or 'is not None' and used in arithmetic and ordering comparisons (which raise "
            f"Python's TypeError when the program runs and it is None), but not here. Test it "
            f"first and use it only where it is not None, or give it an array value (e.g. "
            f"np.nan) instead of None.")
    raise errors.StagingError(
        f"{errors.subject(self.name)} is None on some staged paths and a value on others, "
        f"and is used here as a value; under {compiler} it can only be tested with 'is None' "
        f"or 'is not None' (compiled {framework} code cannot raise the TypeError eager Python "
        f"raises where it is None). Test it first and use it only where it is not None, or "
        f"give it an array value (e.g. np.nan) instead of None.")


def returned_error(self) -> errors.StagingError:
    """The StagingError of a NoneOnSomePaths returned from the compiled function (or
    given to the framework's function): each backend raises it where its framework
    flattens a structure of arrays (a JAX pytree, a PyTorch pytree, a TensorFlow nest)."""
    framework = _framework(self)[1]
    return errors.StagingError(
        f"{errors.subject(self.name)} is None on some staged paths and a value on others, "
        f"and is returned from the compiled function (or given to a {framework} function): a "
        f"graph's outputs are arrays. Return an array on every path (a NaN, or a success "
        f"flag next to the value).")


def _type_name(obj) -> str:
    """How Python's TypeError names the type of ``obj``."""
    cls = type(obj)
    if cls.__module__ == "builtins":
        return cls.__name__
    return f"{cls.__module__.split('.')[0]}.{cls.__name__}"


def _checked(self, error: TypeError) -> bool:
    """True if the program raises ``error`` where ``self`` is None when it runs (the
    backend can raise at run time); else False (the caller refuses)."""
    backend = _backend(self)
    if backend is None or not backend.raises_at_run_time:
        return False
    backend.raise_where(self.flag, error)
    return True


def _binary(name: str, symbol: str, reverse: bool, compare: bool):
    fn = getattr(operator, name)

    def op(self, other):
        if known_not_none(self):
            return fn(other, self.value) if reverse else fn(self.value, other)
        if other.__class__ is NoneOnSomePaths or symbol is None:
            return _refuse(self)
        left, right = ("NoneType", _type_name(other))[::-1 if reverse else 1]
        error = (TypeError(f"'{symbol}' not supported between instances of '{left}' and "
                           f"'{right}'") if compare else
                 TypeError(f"unsupported operand type(s) for {symbol}: '{left}' and '{right}'"))
        if not _checked(self, error):
            return _refuse(self)
        return fn(other, self.value) if reverse else fn(self.value, other)
    return op


def _unary(name: str, symbol):
    fn = getattr(operator, name)

    def op(self):
        if known_not_none(self):
            return fn(self.value)
        text = ("bad operand type for abs(): 'NoneType'" if symbol == "abs"
                else f"bad operand type for unary {symbol}: 'NoneType'")
        if symbol is None or not _checked(self, TypeError(text)):
            return _refuse(self)
        return fn(self.value)
    return op


def _known(name: str):
    """Any other use: the value's own where the branch traced knows it is not None."""
    def op(self, *args):
        if known_not_none(self):
            method = getattr(self.value, name, None)
            if method is not None:
                return method(*args)
            return getattr(operator, name.strip("_"))(self.value, *args)
        return _refuse(self)
    return op


for _symbol, _name in [("+", "add"), ("-", "sub"), ("*", "mul"), ("/", "truediv"),
                       ("//", "floordiv"), ("%", "mod"), ("**", "pow"), ("@", "matmul")]:
    setattr(NoneOnSomePaths, f"__{_name}__", _binary(_name, _symbol, False, False))
    setattr(NoneOnSomePaths, f"__r{_name}__", _binary(_name, _symbol, True, False))
for _symbol, _name in [("<", "lt"), ("<=", "le"), (">", "gt"), (">=", "ge")]:
    setattr(NoneOnSomePaths, f"__{_name}__", _binary(_name, _symbol, False, True))
def _not(backend, flag):
    return (not flag) if flag.__class__ is bool else backend.not_(flag)


def _equality(equal: bool):
    """``maybe == other`` (``!=``): eager Python compares None with a number or a 0-d array
    as unequal (no TypeError), so a scalar that may be None compares as its flag says
    (SciPy's DCSRCH tests ``self.stage == 1``). One that may be an array is refused
    (``None == a`` is elementwise, in ``a``'s shape)."""
    name = "eq" if equal else "ne"
    use = _binary(name, None, False, True)

    def op(self, other):
        both = other.__class__ is NoneOnSomePaths
        other_value = other.value if both else other
        backend = _backend(self)
        if backend is None or known_not_none(self) or getattr(self.value, "ndim", 0) or (
                other_value is None or getattr(other_value, "ndim", 0)) or (
                both and known_not_none(other)):
            return use(self, other)
        none, other_none = self.flag, (other.flag if both else False)
        values_equal = self.value == other_value
        same = (none & other_none) | (_not(backend, none) & _not(backend, other_none)
                                      & values_equal)
        return same if equal else _not(backend, same)
    return op


NoneOnSomePaths.__eq__ = _equality(True)
NoneOnSomePaths.__ne__ = _equality(False)
for _symbol, _name in [("-", "neg"), ("+", "pos"), ("abs", "abs"), (None, "invert")]:
    setattr(NoneOnSomePaths, f"__{_name}__", _unary(_name, _symbol))
for _name in ("and", "or", "xor", "bool", "float", "int", "index", "iter", "getitem", "len",
              "array"):
    setattr(NoneOnSomePaths, f"__{_name}__", _known(f"__{_name}__"))


def _getattr(self, name: str):
    if known_not_none(self):
        return getattr(self.value, name)
    return _refuse(self)


NoneOnSomePaths.__getattr__ = _getattr
NoneOnSomePaths.__hash__ = object.__hash__


def _refuse_unbound(self, *args, **kwargs):
    raise errors.StagingError(
        f"'{self.name}' is assigned on some staged paths only (one branch of an if, or in a "
        f"loop), and is used here without being read as a variable. Assign '{self.name}' "
        f"before the if statement or loop, or on every path.")


for _name in ("add", "sub", "mul", "truediv", "lt", "gt", "le", "ge", "eq", "ne", "bool",
              "float", "int", "index", "array", "iter", "getitem", "len"):
    setattr(UnboundOnSomePaths, f"__{_name}__", _refuse_unbound)
UnboundOnSomePaths.__getattr__ = _refuse_unbound
UnboundOnSomePaths.__hash__ = object.__hash__


# --- pairing the two sides of a staged if, or a loop variable before and after ---------

def _valued(obj, backend) -> bool:
    return obj.__class__ is NoneOnSomePaths or (obj is not None and backend.aval(obj) is not None)


def pair_values(label: str, t, f, backend):
    """``Backend.pair_values``: ``t`` and ``f`` with every leaf that is None on one side
    and an array or number on the other (or a NoneOnSomePaths on either) as
    NoneOnSomePaths on both sides. A function's return value is left as it is (refused
    at the join): the compiled function's outputs are arrays."""
    if label.startswith("the return value"):
        return t, f
    return _pair(label, t, f, backend)


def _pair(name: str, t, f, backend):
    if (t.__class__ is UnboundOnSomePaths) != (f.__class__ is UnboundOnSomePaths):
        paired = pair_unbound(name, t, f, backend)  # unassigned on the paths one side took
        if paired is not None:
            return paired
    maybe = NoneOnSomePaths
    if (t is None and _valued(f, backend)) or (f is None and _valued(t, backend)) or (
            t.__class__ is maybe and (f is None or _valued(f, backend))) or (
            f.__class__ is maybe and (t is None or _valued(t, backend))):
        return _as_maybe(t, f, name, backend), _as_maybe(f, t, name, backend)
    if t.__class__ is f.__class__ and t.__class__ in (tuple, list) and len(t) == len(f):
        pairs = [_pair(f"{name}[{i}]", a, b, backend) for i, (a, b) in enumerate(zip(t, f))]
        return t.__class__(p[0] for p in pairs), f.__class__(p[1] for p in pairs)
    if t.__class__ is dict and f.__class__ is dict and t.keys() == f.keys():
        pairs = {k: _pair(f"{name}[{k!r}]", t[k], f[k], backend) for k in t}
        return {k: p[0] for k, p in pairs.items()}, {k: p[1] for k, p in pairs.items()}
    return t, f


def _as_maybe(side, other, name, backend) -> NoneOnSomePaths:
    if side.__class__ is NoneOnSomePaths:
        return NoneOnSomePaths(side.flag, side.value, name)
    if side is None:
        model = other.value if other.__class__ is NoneOnSomePaths else other
        return NoneOnSomePaths(True, filler(model, backend), name)
    return NoneOnSomePaths(False, side, name)


def pair_unbound(label: str, t, f, backend):
    """``Backend.pair_unbound``: ``t`` and ``f``, one of them ``Undefined`` (or an
    UnboundOnSomePaths), as UnboundOnSomePaths on both sides, where the backend raises
    at run time and an assigned side is an array or number; else None (the
    StagingError)."""
    if not backend.raises_at_run_time:
        return None
    for other in (t, f):
        if other.__class__ not in (Undefined, UnboundOnSomePaths) and (
                other.__class__ is NoneOnSomePaths or backend.aval(other) is None):
            return None

    def side(x, other):
        if x.__class__ is UnboundOnSomePaths:
            return UnboundOnSomePaths(x.flag, x.value, label)
        if x.__class__ is Undefined:
            model = other.value if other.__class__ is UnboundOnSomePaths else other
            return UnboundOnSomePaths(True, filler(model, backend), label)
        return UnboundOnSomePaths(False, x, label)
    return side(t, f), side(f, t)
