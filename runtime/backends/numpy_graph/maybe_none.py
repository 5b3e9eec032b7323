"""What the NumPy engine adds to values that differ by staged path: strings chosen by a
staged condition (issue 22.7), and the boundary that gives back None and strings after
a run.

A value ``None`` on some staged paths (issue 22.5) is ``staging.maybe_none``'s
``NoneOnSomePaths`` here as on every backend: a run-time flag (True where it is
``None``) and a placeholder value of the other branch's type, both ordinary graph
values, carried and joined like any other pair of leaves. The engine raises at run
time and owns its boundary, so arithmetic on it raises Python's TypeError when the
graph runs and it is None, and at the function's boundary (``boundary``) an output
that is one comes back as ``None`` exactly when its flag is set, so the caller sees
what eager Python would return. A string chosen by a staged condition is a
``Choice``: an index into the trace's texts, given back as the string.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ...staging import errors
from ...staging.accumulate import Collected
from ...staging.maybe_none import NoneOnSomePaths, pair_values
from . import trace
from .ir import Op, source_line, source_text
from .tensor import Tensor


def eager_type_name(obj) -> str:
    """``GraphBackend.eager_type_name``: how Python's TypeError names what a staged
    value stands for in eager NumPy code. A Python number names its type; NumPy
    scalars and arrays meet None elementwise, as objects, so eager's message names the
    Python type of their items too (``None + np.float64(1)``: 'NoneType' and 'float')."""
    return {"b": "bool", "i": "int", "u": "int", "f": "float",
            "c": "complex"}.get(obj._value.dtype.kind, "object")


def _here() -> str:
    """``at file.py:12 (`source line`): `` of the user's line being traced, or nothing."""
    where = trace.user_source()
    return f"at {source_text(where)} (`{source_line(where)}`): " if where else ""


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
    import warnings
    from sys import _getframe

    from .captures import LIBRARY_DIRS

    frame = _getframe(1)
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
    from .backend import BACKEND

    new_before, new_after = pair(name, before, after, BACKEND)
    changed = before.__class__ is not Choice or before.options != new_before.options
    return new_before, new_after, changed


def pair(name: str, t, f, backend):
    """``GraphBackend.pair_values``: two strings (or choices) as choices among the
    options of both; anything else as ``staging.maybe_none.pair_values`` pairs it
    (None on one side and an array on the other: a NoneOnSomePaths), item by item."""
    if _text(t) and _text(f) and t is not f and not (
            t.__class__ in (str, bytes) and t.__class__ is f.__class__ and t == f):
        options = tuple(dict.fromkeys([*(t.options if t.__class__ is Choice else (t,)),
                                       *(f.options if f.__class__ is Choice else (f,))]))
        texts = next((x.texts for x in (t, f) if x.__class__ is Choice), None)
        if texts is None:
            state = trace.current()
            texts = state.texts = state.texts or Texts()
        return _as_choice(t, options, name, texts), _as_choice(f, options, name, texts)
    return pair_values(name, t, f, backend)


# --- the boundary ---------------------------------------------------------------------

def boundary(result):
    """``(result without NoneOnSomePaths and Choices, [(path, how, value)])``: each
    replaced (a NoneOnSomePaths by its value, a Choice by None), and where it was, with
    the graph value that rebuilds it after a run: a NoneOnSomePaths' flag (``how`` None), a Choice's index
    (``how``: its options). A list a staged loop appended to a run-time number of items
    (``accumulate.Collected``) is rebuilt from its stacked items (``how``: "rows")."""
    found: list = []

    def strip(obj, path):
        if obj.__class__ is Collected:
            found.append((path, "rows", obj.stacked()))
            return None
        if obj.__class__ is NoneOnSomePaths:
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
    """The run's outputs with None where a NoneOnSomePaths' flag was set, and each Choice's
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
