"""Values that are ``None`` on some staged paths (issue 22.5), and strings chosen by a
staged condition (22.7), on the NumPy engine.

A graph holds arrays, never ``None``; but a function's boundary can rebuild it. When
a staged ``if`` gives a variable ``None`` in one branch and an array (or a number)
in the other, the variable becomes a ``MaybeNone``: a run-time flag (True where it
is ``None``) and a placeholder value of the other branch's type. Both are ordinary
graph values, carried and joined like any other pair of leaves. At the function's
boundary (``boundary``), an output that is a ``MaybeNone`` comes back as ``None``
exactly when its flag is set, so the caller sees what eager Python would return.

Inside the function ``x is None`` / ``x is not None`` on it is a staged test (the
converter routes these tests to ``ag__.is_none``); anything else done with it —
arithmetic, comparisons, indexing — is a StagingError naming the variable.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ...staging import errors
from . import trace
from .ir import Block, Op, source_line, source_text
from .raising import raise_copy
from .tensor import Tensor
from ...staging.accumulate import Collected
from ...staging.state import PY_NUMBERS, filler
from ...staging.undefined import Undefined


def is_arraylike(obj) -> bool:
    return (obj.__class__ is Tensor or isinstance(obj, (np.ndarray, np.generic))
            or obj.__class__ in PY_NUMBERS)


def zeros_like(obj):
    """The placeholder of the side that holds no value: never read (its flag guards it)."""
    from .backend import BACKEND

    return filler(obj, BACKEND)


def _here() -> str:
    """``at file.py:12 (`source line`): `` of the user's line being traced, or nothing."""
    where = trace.user_source()
    return f"at {source_text(where)} (`{source_line(where)}`): " if where else ""


def _refuse(self, *args, **kwargs):
    raise errors.StagingError(
        f"{_here()}"
        f"{errors.subject(self.name)} is None on some staged paths (of an if, a loop or a "
        f"return) and an array on others, so "
        f"inside the graph it may be None: it can be tested with 'is None' / 'is not "
        f"None', returned, and used in arithmetic and ordering comparisons (which raise "
        f"Python's TypeError when the graph runs and it is None), but not here. Test it "
        f"first and use it only where it is not None, or give it an array value (e.g. "
        f"np.nan) instead of None.")


class MaybeNone(NamedTuple):
    """``None`` when ``flag`` is true at run time, else ``value``."""

    flag: Any
    value: Any
    name: str

    def is_none(self):
        return self.flag

    def checked_value(self, error: Exception):
        """The value, where ``error`` (eager's, on None) is raised when the graph runs
        and it is None (``numpy_calls``: a NumPy function given it)."""
        _raise_if_none(self, error)
        return self.value


def _type_name(obj) -> str:
    """How Python's TypeError names the type of ``obj`` as eager code would hold it."""
    if obj.__class__ is Tensor:
        value = obj._value
        if value.weak:
            return {"b": "bool", "i": "int", "u": "int", "f": "float",
                    "c": "complex"}[value.dtype.kind]
        return "numpy.ndarray" if value.shape else f"numpy.{value.dtype.type.__name__}"
    cls = type(obj)
    if cls.__module__ == "builtins":
        return cls.__name__
    return f"{cls.__module__.split('.')[0]}.{cls.__name__}"


def _raise_if_none(maybe: MaybeNone, exc: Exception) -> None:
    """When the graph runs and ``maybe`` is None, raise ``exc`` (eager Python would)."""
    st = trace.current()
    flag = trace.to_value(maybe.flag, st)
    raising = Block()
    raising.ops.append(Op("call", raise_copy, (exc,), {}, [], None, source=trace.user_source(),
                          effect=True))
    st.append(Op("cond", None, (flag,), {}, [], None, {"true": raising, "false": Block()},
                 source=trace.user_source()))


def _binary(symbol: str, reverse: bool, compare: bool):
    def error(left: str, right: str) -> TypeError:
        if compare:
            return TypeError(f"'{symbol}' not supported between instances of '{left}' and "
                             f"'{right}'")
        return TypeError(f"unsupported operand type(s) for {symbol}: '{left}' and '{right}'")

    def op(self, other):
        fn = trace.BINARY[symbol]
        if other.__class__ is MaybeNone:  # (only ever forward) either may be None at run time
            both = MaybeNone(self.flag & other.flag, None, self.name)
            _raise_if_none(both, error("NoneType", "NoneType"))
            _raise_if_none(self, error("NoneType", _type_name(other.value)))
            _raise_if_none(other, error(_type_name(self.value), "NoneType"))
            return fn(self.value, other.value)
        names = (_type_name(other), "NoneType") if reverse else ("NoneType", _type_name(other))
        _raise_if_none(self, error(*names))
        return fn(other, self.value) if reverse else fn(self.value, other)
    return op


def _unary(symbol: str):
    def op(self):
        text = ("bad operand type for abs(): 'NoneType'" if symbol == "abs"
                else f"bad operand type for unary {symbol}: 'NoneType'")
        _raise_if_none(self, TypeError(text))
        return trace.UNARY[symbol](self.value)
    return op


for _symbol, _name in [("+", "add"), ("-", "sub"), ("*", "mul"), ("/", "truediv"),
                       ("//", "floordiv"), ("%", "mod"), ("**", "pow"), ("@", "matmul")]:
    setattr(MaybeNone, f"__{_name}__", _binary(_symbol, False, False))
    setattr(MaybeNone, f"__r{_name}__", _binary(_symbol, True, False))
for _symbol, _name in [("<", "lt"), ("<=", "le"), (">", "gt"), (">=", "ge")]:
    setattr(MaybeNone, f"__{_name}__", _binary(_symbol, False, True))
for _symbol, _name in [("-", "neg"), ("+", "pos"), ("abs", "abs")]:
    setattr(MaybeNone, f"__{_name}__", _unary(_symbol))
for _name in ("and", "or", "xor", "lshift", "rshift", "invert", "bool", "float", "int", "index",
              "array", "array_ufunc", "array_function"):
    setattr(MaybeNone, f"__{_name}__", _refuse)
MaybeNone.__getattr__ = _refuse


def _from_left(self, symbol: str, left):
    """``left <symbol> self`` for a tensor ``left`` (its operators defer to this)."""
    if symbol in ("<", "<=", ">", ">="):
        return _binary(symbol, True, True)(self, left)
    if symbol in ("+", "-", "*", "/", "//", "%", "**", "@"):
        return _binary(symbol, True, False)(self, left)
    if symbol in ("==", "!="):  # symmetric
        return MaybeNone.__eq__(self, left) if symbol == "==" else MaybeNone.__ne__(self, left)
    return _refuse(self)


MaybeNone.binary_from_left = _from_left


def _unpack(self):
    """``a, b = value`` (a function that may fall off its end returned a tuple): raises
    Python's TypeError when the graph runs and it is None."""
    _raise_if_none(self, TypeError("cannot unpack non-iterable NoneType object"))
    return iter(self.value)


MaybeNone.__iter__ = _unpack


def _shape(obj) -> tuple:
    return tuple(getattr(obj, "shape", ()))


def _not(flag):
    """``not flag`` for a flag that is a Python bool or a (weak) staged bool, on which
    ``~`` would be Python's ``~True == -2``."""
    return flag ^ True


def _equality(equal: bool):
    """``maybe == other`` (``!=``). Eager Python compares None with a number or a 0-d
    array as unequal (no TypeError), so a scalar that may be None compares as its flag
    says: equal where both are None, or neither is and the values are. One that may be
    an array is refused: ``None == a`` is elementwise, with ``a``'s shape."""
    def op(self, other):
        both = other.__class__ is MaybeNone
        other_value = other.value if both else other
        if _shape(self.value) or _shape(other_value) or not is_arraylike(other_value):
            return _refuse(self)
        none, other_none = self.flag, (other.flag if both else False)
        same = (none & other_none) | (_not(none) & _not(other_none) & (self.value == other_value))
        return same if equal else _not(same)
    return op


MaybeNone.__eq__ = _equality(True)
MaybeNone.__ne__ = _equality(False)
MaybeNone.__hash__ = object.__hash__


class Choice(NamedTuple):
    """A string (``str`` or ``bytes``) chosen by a staged condition: ``texts[index]`` at
    run time. ``texts`` is the trace's list of every text a choice may hold (shared, only
    grows), so two choices meet without renumbering; ``options`` are the ones this
    choice may hold. Slicing it with a Python index, comparing it with ``==``/``!=`` and
    ``startswith``/``endswith`` are staged: a table of each text's answer, indexed by
    ``index`` (``task[:5] == b"ERROR"``, as SciPy's DCSRCH tests its status)."""

    index: Any
    options: tuple
    name: str
    texts: "Texts"


class Texts:
    """The trace's texts, shared by its choices (a leaf of any state: never copied)."""

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list = []

    def __len__(self) -> int:
        return len(self.items)


def _code(text, texts: Texts) -> int:
    """``text``'s index in ``texts`` (appended if new); a str never equals a bytes."""
    for i, t in enumerate(texts.items):
        if t.__class__ is text.__class__ and t == text:
            return i
    texts.items.append(text)
    return len(texts.items) - 1


def _lookup(table: np.ndarray, index):
    """``table[index]``: in the graph if the index is staged."""
    if index.__class__ is not Tensor:
        return table[index].item()
    return Tensor(trace.to_value(table, trace.current()), index._graph)[index]


def _refuse_choice(self, *args, **kwargs):
    raise errors.StagingError(
        f"{_here()}"
        f"{errors.subject(self.name)} is a string chosen by a staged condition (one of "
        f"{', '.join(map(repr, self.options))}); a graph holds arrays, not strings, so inside "
        f"the function it can only be returned, sliced with a Python index, compared with == or "
        f"!= to a string, or tested with startswith/endswith. Test the condition itself "
        f"instead (or keep a boolean array next to the string).")


def _choice_item(self, index):
    """``task[:5]``: the same choice among each option's item (a static index only)."""
    if index.__class__ is not slice and index.__class__ is not int:
        _refuse_choice(self)
    codes = {_code(o, self.texts): _code(o[index], self.texts) for o in self.options}
    table = np.arange(len(self.texts))
    table[list(codes)] = list(codes.values())
    options = tuple(dict.fromkeys(o[index] for o in self.options))
    return Choice(_lookup(table, self.index), options, self.name, self.texts)


def _choice_test(test):
    """A staged bool: ``test(option)`` of the option chosen at run time."""
    def run(self, *args):
        if any(a.__class__ is Choice for a in args):
            _refuse_choice(self)
        answers = {_code(o, self.texts): bool(test(o, *args)) for o in self.options}
        table = np.zeros(len(self.texts), bool)
        table[list(answers)] = list(answers.values())
        return _lookup(table, self.index)
    return run


for _name in ("add", "radd", "mod", "mul", "rmul", "lt", "le", "gt", "ge", "bool",
              "hash", "contains", "format", "str"):
    setattr(Choice, f"__{_name}__", _refuse_choice)
def warn_chosen(index, texts: tuple, category, stacklevel: int) -> None:
    """Run-time: ``warnings.warn`` of the text a staged condition chose. The graph's code
    runs at the user's lines (``codegen``), so ``stacklevel`` counts from it, past
    autograph's own frames."""
    import sys
    import warnings

    from .captures import LIBRARY_DIRS

    frame = sys._getframe(1)
    for _ in range(stacklevel - 1):
        frame = frame.f_back
        while frame is not None and frame.f_code.co_filename.startswith(LIBRARY_DIRS):
            frame = frame.f_back
        if frame is None:
            break
    if frame is None:
        warnings.warn(texts[int(index)], category, stacklevel=1)
        return
    registry = frame.f_globals.setdefault("__warningregistry__", {})
    warnings.warn_explicit(texts[int(index)], category, frame.f_code.co_filename, frame.f_lineno,
                           frame.f_globals.get("__name__"), registry)


def _warn_when_run(self, category, stacklevel: int) -> None:
    """``warnings.warn(choice, category, stacklevel)``: warns when the graph runs (on the
    path it takes), with the text chosen there."""
    st = trace.current()
    args = (trace.to_value(self.index, st), tuple(self.texts.items), category, stacklevel)
    st.append(Op("call", warn_chosen, args, {}, [], None, source=trace.user_source(),
                 effect=True))


Choice.warn_when_run = _warn_when_run
Choice.__getitem__ = _choice_item
Choice.__eq__ = _choice_test(lambda o, other: o == other)
Choice.__ne__ = _choice_test(lambda o, other: o != other)
Choice.startswith = _choice_test(lambda o, *a: o.startswith(*a))
Choice.endswith = _choice_test(lambda o, *a: o.endswith(*a))
Choice.__getattr__ = _refuse_choice


class MaybeUnbound(NamedTuple):
    """A variable a staged ``if`` assigns in one branch only: unassigned when ``flag``
    is true at run time. Reads (``ag__.ld``) raise Python's ``UnboundLocalError`` then."""

    flag: Any
    value: Any
    name: str

    def checked_read(self, error=None):
        """The value; raises ``error`` (``UnboundLocalError``) where it is unassigned."""
        from ...staging.undefined import unbound_error

        _raise_if_none(self, error or unbound_error(self.name))
        return self.value


def _refuse_unbound(self, *args, **kwargs):
    raise errors.StagingError(
        f"{_here()}"
        f"'{self.name}' is assigned on some staged paths only (one branch of an if, or in a "
        f"loop), and is used here "
        f"without being read as a variable. Assign '{self.name}' before the if statement or "
        f"loop, or on every path.")


for _name in ("add", "sub", "mul", "truediv", "lt", "gt", "le", "ge", "eq", "ne", "bool",
              "float", "int", "index", "array", "array_ufunc", "array_function"):
    setattr(MaybeUnbound, f"__{_name}__", _refuse_unbound)
MaybeUnbound.__getattr__ = _refuse_unbound
MaybeUnbound.__hash__ = object.__hash__


def assignable(t, f) -> bool:
    """True if the side of ``t``/``f`` that is assigned holds an array (or a number)."""
    other = f if t.__class__ is Undefined else t
    return is_arraylike(other) or other.__class__ in (MaybeUnbound, MaybeNone)


def pair_unbound(name: str, t, f):
    """``t`` and ``f``, one of them ``Undefined``, as MaybeUnbounds on both sides."""
    def side(x, other):
        if x.__class__ is MaybeUnbound:
            return MaybeUnbound(x.flag, x.value, name)
        if x.__class__ is Undefined:
            model = other.value if other.__class__ is MaybeUnbound else other
            return MaybeUnbound(True, zeros_like(model), name)
        return MaybeUnbound(False, x, name)
    return side(t, f), side(f, t)


def _maybe(obj) -> bool:
    return obj.__class__ is MaybeNone


def _text(obj) -> bool:
    return obj.__class__ in (str, bytes) or obj.__class__ is Choice


def _as_choice(side, options, name, texts):
    if side.__class__ in (str, bytes):
        return Choice(_code(side, texts), options, name, texts)
    return Choice(side.index, options, name, texts)


def settle(name: str, before, after):
    """A loop variable that is a string before the loop and a choice after an iteration
    (or a choice among more options): ``(before, after, changed)`` as choices among the
    same options, ``changed`` if ``before`` must be carried anew; None otherwise."""
    if not (_text(before) and _text(after)) or not (
            before.__class__ is Choice or after.__class__ is Choice):
        return None
    new_before, new_after = pair(name, before, after)
    changed = before.__class__ is not Choice or before.options != new_before.options
    return new_before, new_after, changed


def _valued(obj) -> bool:
    return is_arraylike(obj) or _maybe(obj)


def pair(name: str, t, f):
    """``t`` and ``f`` with every leaf that is None on one side and an array on the
    other (or a MaybeNone on either) turned into MaybeNones on both sides."""
    if _text(t) and _text(f) and t is not f and not (
            t.__class__ in (str, bytes) and t.__class__ is f.__class__ and t == f):
        options = tuple(dict.fromkeys([*(t.options if t.__class__ is Choice else (t,)),
                                       *(f.options if f.__class__ is Choice else (f,))]))
        texts = next((x.texts for x in (t, f) if x.__class__ is Choice), None)
        if texts is None:
            state = trace.current()
            texts = state.texts = state.texts or Texts()
        return _as_choice(t, options, name, texts), _as_choice(f, options, name, texts)
    if (t.__class__ is MaybeUnbound) != (f.__class__ is MaybeUnbound) and (
            _valued(t) or _valued(f) or t is None or f is None):  # values paired inside
        return pair_unbound(name, t, f)
    if (t is None and _valued(f)) or (f is None and _valued(t)) or (
            _maybe(t) and (_valued(f) or f is None)) or (_maybe(f) and (_valued(t) or t is None)):
        return _as_maybe(t, f, name), _as_maybe(f, t, name)
    if t.__class__ is f.__class__ and t.__class__ in (tuple, list) and len(t) == len(f):
        pairs = [pair(f"{name}[{i}]", a, b) for i, (a, b) in enumerate(zip(t, f))]
        return t.__class__(p[0] for p in pairs), f.__class__(p[1] for p in pairs)
    if t.__class__ is dict and f.__class__ is dict and t.keys() == f.keys():
        pairs = {k: pair(f"{name}[{k!r}]", t[k], f[k]) for k in t}
        return {k: p[0] for k, p in pairs.items()}, {k: p[1] for k, p in pairs.items()}
    return t, f


def _as_maybe(side, other, name) -> MaybeNone:
    if _maybe(side):
        return MaybeNone(side.flag, side.value, name)
    if side is None:
        model = other.value if _maybe(other) else other
        return MaybeNone(True, zeros_like(model), name)
    return MaybeNone(False, side, name)


# --- the boundary ---------------------------------------------------------------------

def boundary(result):
    """``(result without MaybeNones and Choices, [(path, how, value)])``: each replaced
    (a MaybeNone by its value, a Choice by None), and where it was, with the graph value
    that rebuilds it after a run: a MaybeNone's flag (``how`` None), a Choice's index
    (``how``: its options). A list a staged loop appended to a run-time number of items
    (``accumulate.Collected``) is rebuilt from its stacked items (``how``: "rows")."""
    found: list = []

    def strip(obj, path):
        if obj.__class__ is Collected:
            found.append((path, "rows", obj.stacked()))
            return None
        if _maybe(obj):
            found.append((path, None, obj.flag))
            return strip(obj.value, path)  # (a tuple returned on some paths may hold more)
        if obj.__class__ is Choice:
            found.append((path, tuple(obj.texts.items), obj.index))
            return None
        if obj.__class__ in (tuple, list):
            return obj.__class__(strip(x, path + (i,)) for i, x in enumerate(obj))
        if obj.__class__ is dict:
            return {k: strip(v, path + (k,)) for k, v in obj.items()}
        return obj

    return strip(result, ()), found


def rebuild(out, places, values):
    """The run's outputs with None where a MaybeNone's flag was set, and each Choice's
    string; ``places`` are the ``(path, how)`` of ``boundary``."""
    for (path, how), value in reversed(list(zip(places, values))):  # the innermost first
        if how == "rows":
            out = _put(out, path, list(value))
        elif how is not None:
            out = _put(out, path, how[int(value)])
        elif value:
            out = _put(out, path, None)
    return out


def _put(obj, path, value):
    if not path:
        return value
    head, rest = path[0], path[1:]
    if obj.__class__ is dict:
        return {**obj, head: _put(obj[head], rest, value)}
    items = list(obj)
    items[head] = _put(items[head], rest, value)
    return obj.__class__(items)
