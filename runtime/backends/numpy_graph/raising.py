"""Raising when the graph runs: a ``raise`` in a staged branch (see ``raises``).

The branch's exception, made while tracing, is kept in the graph as the argument
of an op with effects; the compiled code raises a fresh copy of it, so each run
that takes the branch raises the same type with the same message, and a run
that does not take it never sees it.

A message that shows a staged value (``f"bad x={x}"``, ``"%s" % x``, ``str(x)``,
``ValueError("bad", x)``) is made at run time from the run-time values, as eager
Python makes it. While tracing, a tensor shown as text (``str``, ``repr``, ``format``)
is noted with the text it gave; ``record_raise`` finds those texts in the exception's
arguments and keeps a ``Message``: the arguments with a slot for each value shown,
filled when the graph raises.
"""

from __future__ import annotations

import copy
import re
import types

from ...staging import raises as staged_raise
from . import trace
from .ir import Block, Op


def shown(tensor, conversion: str) -> str:
    """The trace-time text of ``tensor`` shown by ``repr`` (``conversion`` ``"!r"``),
    ``str``, ``format`` (its format spec) or ``%`` (``"%.3f"``, see
    ``runtime.formatting``); noted so a raise can show its value."""
    value = tensor._value
    kind = "python scalar, " if value.weak else ""
    text = f"Tensor({value.name}, {kind}shape={value.shape}, dtype={value.dtype.name})"
    if conversion not in ("", "!r"):
        text = f"format({text}, {conversion!r})"
    state = trace.current()
    if state is not None and state.graph is tensor._graph:
        state.shown[text] = (value, conversion)  # the latest showing of this text wins
    return text


class Message:
    """An exception's arguments with slots for the values they show: ``fill`` makes
    the arguments from the run-time values."""

    def __init__(self, args: tuple) -> None:
        self.args = args  # per argument: ("const", x) | ("slot", i) | ("text", parts)
        self.slots: list = []  # per slot: (conversion, weak)

    def fill(self, values) -> tuple:
        shown = [_show(v, conversion, weak) for v, (conversion, weak) in zip(values, self.slots)]
        out = []
        for kind, item in self.args:
            if kind == "const":
                out.append(item)
            elif kind == "slot":
                out.append(_python(values[item], self.slots[item][1]))
            else:
                out.append("".join(p if p.__class__ is str else shown[p] for p in item))
        return tuple(out)


def _python(value, weak: bool):
    """A weak value stands for a Python scalar: show it as Python would."""
    return value.item() if weak and hasattr(value, "item") else value


def _show(value, conversion: str, weak: bool) -> str:
    value = _python(value, weak)
    if conversion == "!r":
        return repr(value)
    return conversion % value if conversion.startswith("%") else format(value, conversion)


def _message(args: tuple, state):
    """``(Message, values)`` for ``args`` if they show staged values, else None."""
    from .tensor import Tensor

    pattern = None
    if state.shown:
        texts = sorted((t for t in state.shown if any(t in a for a in args if a.__class__ is str)),
                       key=len, reverse=True)
        pattern = re.compile("|".join(map(re.escape, texts))) if texts else None
    message, values, found = Message(()), [], False

    def slot(value, conversion) -> int:
        values.append(value)
        message.slots.append((conversion, value.weak))
        return len(values) - 1

    out = []
    for arg in args:
        if arg.__class__ is Tensor and arg._graph is state.graph:
            out.append(("slot", slot(arg._value, "")))
            found = True
        elif arg.__class__ is str and pattern is not None and pattern.search(arg):
            parts, start = [], 0
            for match in pattern.finditer(arg):
                parts.append(arg[start:match.start()])
                parts.append(slot(*state.shown[match.group()]))
                start = match.end()
            parts.append(arg[start:])
            out.append(("text", parts))
            found = True
        else:
            out.append(("const", arg))
    if not found:
        return None
    message.args = tuple(out)
    return message, tuple(values)


def raise_copy(exc: BaseException, message: Message = None, values=()):
    """Raise a fresh copy of ``exc`` (the kept instance gathers no tracebacks), with
    its arguments made from ``values`` if ``message`` says they show them."""
    fresh = _copy(exc)
    if message is not None:
        fresh.args = message.fill(values)
    raise fresh.with_traceback(None)


raise_copy.__qualname__ = raise_copy.__name__ = "raise_"


def _copy(exc: BaseException) -> BaseException:
    """A copy of ``exc`` with its arguments and attributes. An exception class whose
    ``__init__`` is its own Python code (and ``__reduce__`` BaseException's) is copied
    without calling it again: ``copy.copy`` calls the class with the arguments that
    ``__init__`` already made, and an ``__init__`` that words its message (SciPy's
    ``FitSolverError(msg)``: ``"Solver ... failed to converge: " + msg``) would word it
    twice."""
    cls = type(exc)
    try:
        if not made_by_init(cls):
            return copy.copy(exc)
        fresh = rebuild_exception(cls, exc.args, dict(exc.__dict__))
        fresh.__cause__, fresh.__suppress_context__ = exc.__cause__, exc.__suppress_context__
        return fresh
    except Exception:
        return exc


def rebuild_exception(cls, args, state):
    """The exception ``copy`` would make from ``__reduce__``'s class, arguments, state;
    but where those arguments are the ``args`` an ``__init__`` of the class's own Python
    code made (``made_by_init``) the class is not called again (one that words its
    message, SciPy's ``FitSolverError``, would word it twice), as the graph raises its
    copies (``raising``). On load, ``cls`` is an exception class of a module already
    imported (``named_class``)."""
    if made_by_init(cls):
        exc = cls.__new__(cls, *args)
        exc.args = tuple(args)
    else:
        exc = cls(*args)
    if state:
        exc.__setstate__(state)
    return exc


def made_by_init(cls) -> bool:
    """``cls``'s ``__init__`` is Python code and ``__reduce__`` BaseException's: what it
    reduces to is the ``args`` that ``__init__`` made, not the arguments it takes."""
    return isinstance(cls.__init__, types.FunctionType) and \
        cls.__reduce__ is BaseException.__reduce__ and \
        cls.__reduce_ex__ is BaseException.__reduce_ex__


def record_raise(exc: BaseException) -> None:
    """Append the op raising ``exc`` to the block being traced."""
    source = staged_raise.origin(exc) or trace.user_source()
    exc.__traceback__ = None
    exc.__context__ = None
    state = trace.current()
    found = _message(exc.args, state)
    args = (exc,) if found is None else (exc,) + found
    state.append(Op("call", raise_copy, args, {}, [], None, source=source, effect=True))


def raise_where(flag, exc: BaseException) -> None:
    """Append an ``if flag: raise exc`` to the block being traced (``Backend.raise_where``:
    a value None or unassigned on some staged paths, used as eager Python would fail on)."""
    state = trace.current()
    source = trace.user_source()
    raising = Block()
    raising.ops.append(Op("call", raise_copy, (exc,), {}, [], None, source=source, effect=True))
    state.append(Op("cond", None, (trace.to_value(flag, state),), {}, [], None,
                    {"true": raising, "false": Block()}, source=source))
