"""Values that differ by staged path, carried with a run-time flag: one implementation for
every backend, what a backend lets users do with them set by its capabilities
(``Backend.raises_at_run_time``, ``Backend.returns_none_at_run_time``).

``s = None`` before a loop whose staged branch assigns ``s = 0`` leaves ``s`` None on
some run-time paths and a value on others. Where a staged ``if`` (or loop) gives a
variable None on one side and an array or number on the other, it is carried as a
``NoneOnSomePaths``: a run-time flag (true where it is None) beside the value (zeros
where it is None). ``s is None`` / ``s is not None`` answer with the flag, and the
``if`` they test narrows ``s`` in each branch (``conditionals.narrowed``): None in the
branch that runs when it is None, the value in the other, as eager Python knows there
(``if s is None: s = 3``).

Where the compiled program can raise when it runs (``raises_at_run_time``: the NumPy
engine, TensorFlow), what eager Python does with None raises there: arithmetic and
ordering comparisons (also of two such values), a NumPy function given it, unpacking
it — Python's TypeError with eager's text, on the paths where it is None. Any other use
(an attribute, ``bool()``, NumPy's ufunc protocol), and any use where the program cannot
raise (JAX, PyTorch), is a StagingError. Where the function's boundary rebuilds None
after a run (``returns_none_at_run_time``: the NumPy engine, whose outputs
``numpy_graph.maybe_none.boundary`` rebuilds) it may be returned, also from a function
that returns nothing on some staged paths; elsewhere returning it is a StagingError
(each backend hooks ``returned_error`` into its framework's flattening of outputs): the
framework returns arrays on every run.

A plain variable one branch assigns (``Undefined`` on the other side) is carried the
same way, as an ``UnboundOnSomePaths`` whose reads raise ``UnboundLocalError`` when the
program runs where it was not assigned; only where the framework can raise at run time
(elsewhere ``pair_unbound`` gives None: the StagingError naming the branch).
"""

from __future__ import annotations

import linecache
import operator
import os
from typing import Any, NamedTuple

import numpy as np

from . import errors
from .arg_writes import user_line
from .backend import ITEM_TYPES, backend_of, tracing_now
from .conditionals import known_not_none
from .state import PY_NUMBERS, filler, kind_of
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

    def in_place_operand(self, op: str, target):
        """What ``target op= self`` (``op`` "+=" ...) uses: the value where the branch
        traced knows it is not None; where ``target`` is a number (rebound, as by
        ``target + self``), the value with Python's TypeError raised when the program
        runs and it is None; else (an array, written in place) a StagingError."""
        if known_not_none(self):
            return self.value
        symbol = op[:-1]
        if symbol in _REFLECTED and symbol not in _SWAPPED and _is_number(target):
            # a Python number names the augmented operator; NumPy's scalars the operator
            shown = op if target.__class__ in PY_NUMBERS or _weak(target) else symbol
            shown = "**= or pow()" if shown == "**=" else "** or pow()" if shown == "**" else shown
            if _checked(self, TypeError(f"unsupported operand type(s) for {shown}: "
                                        f"'{_type_name(target)}' and 'NoneType'")):
                return self.value
        return _refuse(self)

    def stored_value(self, dtype, backend):
        """What ``a[i] = self`` stores in an array of ``dtype``: NumPy stores None as NaN
        in a float or complex array and as False in a bool one, and raises its TypeError
        for an int array (when the program runs, where it is None); the value where the
        branch traced knows it is not None; else a StagingError."""
        if known_not_none(self):
            return self.value
        kind = np.dtype(dtype).kind
        if kind in "iu" and _checked(self, TypeError(
                "int() argument must be a string, a bytes-like object or a real number, not "
                "'NoneType'")):
            return self.value
        if kind not in "fcb":
            return _refuse(self)
        # (NaN in the value's own dtype: a Python NaN is float32 to TensorFlow)
        fill = False if kind == "b" else self.value * np.nan
        if self.flag.__class__ is bool:
            return fill if self.flag else self.value
        return backend.numeric("where", (self.flag, fill, self.value), {})

    def binary_from_left(self, symbol: str, left):
        """``left <symbol> self`` for a staged ``left`` whose operators defer to this
        (the NumPy engine's tensors): as Python's reflected operator would."""
        if symbol in ("==", "!="):  # symmetric
            return _EQUALITY[symbol](self, left)
        reflected = _REFLECTED.get(symbol)
        return _refuse(self) if reflected is None else reflected(self, left)


class UnboundOnSomePaths(NamedTuple):
    """A variable a staged ``if`` or loop assigns on some paths only: unassigned when
    ``flag`` is true at run time. Reads (``ag__.ld``) raise ``UnboundLocalError`` then."""

    flag: Any
    value: Any
    name: str

    def checked_read(self, error=None):
        """The value; raises ``error`` (``UnboundLocalError``) where it is unassigned."""
        _raise_where(_backend(self), self.flag, error or unbound_error(self.name))
        return self.value


def _backend(self):
    """The backend of the program ``self`` is a value of."""
    return backend_of(self.flag) or backend_of(self.value) or tracing_now()


def _framework(self) -> tuple:
    backend = _backend(self)
    return (backend.compiler, backend.framework) if backend is not None else (
        "the compiler", "compiled")


def _here(backend) -> str:
    """``at file.py:12 (`source line`): `` of the user's line being staged, on a backend
    whose boundary is ours (the NumPy engine's refusals start with it); else nothing."""
    if backend is None or not backend.returns_none_at_run_time:
        return ""
    where = user_line()
    if where is None:
        return ""
    return f"at {os.path.basename(where[0])}:{where[1]} " \
           f"(`{linecache.getline(*where).strip()}`): "


def _refuse(self, *args, **kwargs):
    compiler, framework = _framework(self)
    backend = _backend(self)
    if backend is not None and backend.returns_none_at_run_time:
        raise errors.StagingError(
            f"{_here(backend)}"
            f"{errors.subject(self.name)} is None on some staged paths (of an if, a loop or a "
            f"return) and an array on others, so inside the graph it may be None: it can be "
            f"tested with 'is None' / 'is not None', returned, and used in arithmetic and "
            f"ordering comparisons (which raise Python's TypeError when the graph runs and it "
            f"is None), but not here. Test it first and use it only where it is not None, or "
            f"give it an array value (e.g. np.nan) instead of None.")
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
    """How Python's TypeError names the type of ``obj`` as eager code would hold it (a
    staged value as its backend says: ``Backend.eager_type_name``). NumPy meets None
    elementwise, as objects: a NumPy array or scalar names its items' Python type."""
    backend = backend_of(obj)
    if backend is not None:
        return backend.eager_type_name(obj)
    if isinstance(obj, (np.ndarray, np.generic)):
        return ITEM_TYPES.get(kind_of(obj.dtype), "object")
    cls = type(obj)
    if cls.__module__ == "builtins":
        return cls.__name__
    return f"{cls.__module__.split('.')[0]}.{cls.__name__}"


def _raise_where(backend, flag, error: BaseException) -> None:
    if flag is not False:  # (a Python False: never)
        backend.raise_where(flag, error)


def _checked(self, error: TypeError) -> bool:
    """True if the program raises ``error`` where ``self`` is None when it runs (the
    backend can raise at run time); else False (the caller refuses)."""
    backend = _backend(self)
    if backend is None or not backend.raises_at_run_time:
        return False
    _raise_where(backend, self.flag, error)
    return True


def _not(backend, flag):
    return (not flag) if flag.__class__ is bool else backend.not_(flag)


def _binary(name: str, symbol: str, reverse: bool, compare: bool):
    fn = getattr(operator, name)

    def error(left: str, right: str) -> TypeError:
        if compare:
            return _compare_error(symbol, left, right)
        shown = "** or pow()" if symbol == "**" else symbol  # (Python's own words)
        return TypeError(f"unsupported operand type(s) for {shown}: '{left}' and '{right}'")

    def op(self, other):
        if known_not_none(self):
            return fn(other, self.value) if reverse else fn(self.value, other)
        if other.__class__ is NoneOnSomePaths and known_not_none(other):
            other = other.value
        backend = _backend(self)
        if symbol is None or backend is None or not backend.raises_at_run_time:
            return _refuse(self)
        if other.__class__ is NoneOnSomePaths:  # either may be None at run time
            none, other_none = self.flag, other.flag
            _raise_where(backend, none & other_none, error("NoneType", "NoneType"))
            _raise_where(backend, none & _not(backend, other_none),
                         error("NoneType", _type_name(other.value)))
            _raise_where(backend, _not(backend, none) & other_none,
                         error(_type_name(self.value), "NoneType"))
            return fn(self.value, other.value)
        names = (_type_name(other), "NoneType") if reverse else ("NoneType", _type_name(other))
        failure = error(*names)
        if compare and not reverse and _numpy_value(other):
            # ``None < a``: Python asks ``a > None``, which NumPy answers item by item
            failure = _compare_error(_SWAPPED[symbol], names[1], names[0])
        _raise_where(backend, self.flag, failure)
        return fn(other, self.value) if reverse else fn(self.value, other)
    return op


_SWAPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _compare_error(symbol: str, left: str, right: str) -> TypeError:
    return TypeError(f"'{symbol}' not supported between instances of '{left}' and '{right}'")


def _is_number(obj) -> bool:
    """A Python number, a NumPy scalar or a staged value of no dimensions."""
    if obj.__class__ in PY_NUMBERS or isinstance(obj, np.generic):
        return True
    backend = backend_of(obj)
    aval = backend.aval(obj) if backend is not None else None
    return aval is not None and not aval.shape


def _weak(obj) -> bool:
    """A staged value standing for a Python number."""
    backend = backend_of(obj)
    aval = backend.aval(obj) if backend is not None else None
    return aval is not None and bool(aval.weak)


def _numpy_value(obj) -> bool:
    """A NumPy array or scalar, or a staged value standing for one (not a Python
    number's weak type): one whose reflected comparison NumPy answers."""
    if isinstance(obj, (np.ndarray, np.generic)):
        return True
    backend = backend_of(obj)
    if backend is None or not backend.writes_into_numpy:
        return False
    aval = backend.aval(obj)
    return aval is not None and not aval.weak


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


def _unpack(self):
    """``a, b = value`` (a function that may fall off its end returned a tuple): Python's
    TypeError when the program runs and it is None."""
    if known_not_none(self) or _checked(
            self, TypeError("cannot unpack non-iterable NoneType object")):
        return iter(self.value)
    return _refuse(self)


_REFLECTED: dict = {}
for _symbol, _name in [("+", "add"), ("-", "sub"), ("*", "mul"), ("/", "truediv"),
                       ("//", "floordiv"), ("%", "mod"), ("**", "pow"), ("@", "matmul")]:
    setattr(NoneOnSomePaths, f"__{_name}__", _binary(_name, _symbol, False, False))
    _REFLECTED[_symbol] = _binary(_name, _symbol, True, False)
    setattr(NoneOnSomePaths, f"__r{_name}__", _REFLECTED[_symbol])
for _symbol, _name in [("<", "lt"), ("<=", "le"), (">", "gt"), (">=", "ge")]:
    setattr(NoneOnSomePaths, f"__{_name}__", _binary(_name, _symbol, False, True))
    _REFLECTED[_symbol] = _binary(_name, _symbol, True, True)  # ``left < self``


def _equality(equal: bool):
    """``maybe == other`` (``!=``): eager Python compares None with a number or a 0-d array
    as unequal (no TypeError), so a scalar that may be None compares as its flag says
    (SciPy's DCSRCH tests ``self.stage == 1``). One that may be an array is refused
    (``None == a`` is elementwise, in ``a``'s shape), and so is a comparison with
    anything but an array or a number."""
    name = "eq" if equal else "ne"
    use = _binary(name, None, False, True)

    def op(self, other):
        both = other.__class__ is NoneOnSomePaths
        other_value = other.value if both else other
        backend = _backend(self)
        if backend is None or known_not_none(self) or getattr(self.value, "ndim", 0) or (
                other_value is None or getattr(other_value, "ndim", 0)) or (
                both and known_not_none(other)) or not (
                other_value.__class__ in PY_NUMBERS or backend.aval(other_value) is not None):
            return use(self, other)
        none, other_none = self.flag, (other.flag if both else False)
        values_equal = self.value == other_value
        same = (none & other_none) | (_not(backend, none) & _not(backend, other_none)
                                      & values_equal)
        return same if equal else _not(backend, same)
    return op


_EQUALITY = {"==": _equality(True), "!=": _equality(False)}
NoneOnSomePaths.__eq__, NoneOnSomePaths.__ne__ = _EQUALITY["=="], _EQUALITY["!="]
for _symbol, _name in [("-", "neg"), ("+", "pos"), ("abs", "abs"), (None, "invert")]:
    setattr(NoneOnSomePaths, f"__{_name}__", _unary(_name, _symbol))
for _name in ("and", "or", "xor", "lshift", "rshift", "bool", "float", "int", "index",
              "getitem", "len", "array"):
    setattr(NoneOnSomePaths, f"__{_name}__", _known(f"__{_name}__"))
# NumPy's protocols: a NumPy function called on it outside converted code (converted
# code's calls check it: ``checked_value``) would take the named tuple for a sequence
NoneOnSomePaths.__array_ufunc__ = NoneOnSomePaths.__array_function__ = _refuse
NoneOnSomePaths.__iter__ = _unpack


def _getattr(self, name: str):
    if known_not_none(self):
        return getattr(self.value, name)
    return _refuse(self)


NoneOnSomePaths.__getattr__ = _getattr
NoneOnSomePaths.__hash__ = object.__hash__


def _refuse_unbound(self, *args, **kwargs):
    raise errors.StagingError(
        f"{_here(_backend(self))}"
        f"'{self.name}' is assigned on some staged paths only (one branch of an if, or in a "
        f"loop), and is used here without being read as a variable. Assign '{self.name}' "
        f"before the if statement or loop, or on every path.")


for _name in ("add", "sub", "mul", "truediv", "lt", "gt", "le", "ge", "eq", "ne", "bool",
              "float", "int", "index", "array", "iter", "getitem", "len", "array_ufunc",
              "array_function"):
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
    at the join) unless the backend's boundary rebuilds None (``returns_none_at_run_time``):
    elsewhere the compiled function's outputs are arrays. Containers are paired item by
    item through ``backend.pair_values`` (a backend pairs what it carries more of: the
    NumPy engine's strings)."""
    if label.startswith("the return value") and not backend.returns_none_at_run_time:
        return t, f
    if (t.__class__ is UnboundOnSomePaths) != (f.__class__ is UnboundOnSomePaths):
        paired = pair_unbound(label, t, f, backend, True)  # unassigned where one side was
        if paired is not None:
            return paired
    maybe = NoneOnSomePaths
    if (t is None and _valued(f, backend)) or (f is None and _valued(t, backend)) or (
            t.__class__ is maybe and (f is None or _valued(f, backend))) or (
            f.__class__ is maybe and (t is None or _valued(t, backend))):
        return _as_maybe(t, f, label, backend), _as_maybe(f, t, label, backend)
    if t.__class__ is f.__class__ and t.__class__ in (tuple, list) and len(t) == len(f):
        pairs = [backend.pair_values(f"{label}[{i}]", a, b) for i, (a, b) in enumerate(zip(t, f))]
        return t.__class__(p[0] for p in pairs), f.__class__(p[1] for p in pairs)
    if t.__class__ is dict and f.__class__ is dict and t.keys() == f.keys():
        pairs = {k: backend.pair_values(f"{label}[{k!r}]", t[k], f[k]) for k in t}
        return {k: p[0] for k, p in pairs.items()}, {k: p[1] for k, p in pairs.items()}
    return t, f


def _as_maybe(side, other, name, backend) -> NoneOnSomePaths:
    if side.__class__ is NoneOnSomePaths:
        return NoneOnSomePaths(side.flag, side.value, name)
    if side is None:
        model = other.value if other.__class__ is NoneOnSomePaths else other
        return NoneOnSomePaths(True, filler(model, backend), name)
    return NoneOnSomePaths(False, side, name)


def pair_unbound(label: str, t, f, backend, none_ok: bool = False):
    """``Backend.pair_unbound``: ``t`` and ``f``, one of them ``Undefined`` (or an
    UnboundOnSomePaths), as UnboundOnSomePaths on both sides, where the backend raises
    at run time and an assigned side is an array, a number or a value None on some
    paths (or None, ``none_ok``: beside an UnboundOnSomePaths, whose values the join
    pairs in turn); else None (the StagingError)."""
    if not backend.raises_at_run_time:
        return None
    for other in (t, f):
        if other.__class__ not in (Undefined, UnboundOnSomePaths) and not _valued(
                other, backend) and not (none_ok and other is None):
            return None

    def side(x, other):
        if x.__class__ is UnboundOnSomePaths:
            return UnboundOnSomePaths(x.flag, x.value, label)
        if x.__class__ is Undefined:
            model = other.value if other.__class__ is UnboundOnSomePaths else other
            return UnboundOnSomePaths(True, filler(model, backend), label)
        return UnboundOnSomePaths(False, x, label)
    return side(t, f), side(f, t)
