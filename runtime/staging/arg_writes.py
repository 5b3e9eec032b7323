"""Which argument of a converted function an item assignment writes into.

NumPy code returns results by writing into arrays its caller passed in (SciPy's
``rk_step`` fills ``K[s] = dy``). A staged array is immutable, so a backend must
know when an update is one the caller would see: ``written_argument`` finds, in
the frames of converted user functions calling it (not the branch and loop bodies
the converter generates), the innermost parameter still bound to the very object
being written into.
"""

from __future__ import annotations

import linecache
import re
from sys import _getframe  # the runtime's own: a user may take it off sys

from . import converted, errors

GENERATED = re.compile(r"^(if_body|else_body|loop_body|loop_test|get_shared|set_shared)(_\d+)?$")


class Written:
    """``name``, a parameter of the converted function ``function``; ``outermost``
    if no converted user function calls that one (it is the one being traced)."""

    def __init__(self, name: str, function: str, frame, outermost: bool) -> None:
        self.name, self.function, self.outermost = name, function, outermost
        self.filename, self.lineno = frame.f_code.co_filename, frame.f_lineno


def user_frames(frame):
    """The frames of converted user functions from ``frame`` outwards."""
    while frame is not None:
        code = frame.f_code
        if code in converted.codes and not GENERATED.match(code.co_name) \
                and code.co_name != "<lambda>":
            yield frame
        frame = frame.f_back


def function_name() -> str:
    """The innermost converted user function running (e.g. the one whose branch is traced)."""
    frame = next(user_frames(_getframe(1)), None)
    return frame.f_code.co_name if frame is not None else "the function"


def written_argument(target, depth: int = 2):
    """The ``Written`` argument ``target`` is (the value a parameter was called with: one
    the body rebound, ``w = w * 1.0``, is no longer the caller's), or None."""
    frames = list(user_frames(_getframe(depth)))
    for i, frame in enumerate(frames):
        code = frame.f_code
        given = arguments(frame)
        for name in code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]:
            if given.get(name) is target:
                return Written(name, code.co_name, frame, i == len(frames) - 1)
    return None


_called_with: dict = {}  # id(frame) -> {parameter: value called with}, of the bodies running


class called_with:
    """``with called_with(frame, inner):`` around a converted function's staged body
    (``kept.keep_state``, before the body's first statement): the values its parameters
    were called with, for ``arguments``; ``inner`` is entered and exited inside."""

    __slots__ = ("inner", "key", "values")

    def __init__(self, frame, inner=None) -> None:
        # (no helper call or comprehension: a frame less where a deep recursion ends)
        self.key, self.inner, self.values = id(frame), inner, {}
        code, f_locals = frame.f_code, frame.f_locals
        for name in code.co_varnames[:_count(code)]:
            self.values[name] = f_locals.get(name)

    def __enter__(self):
        _called_with[self.key] = self.values
        return self if self.inner is None else self.inner.__enter__()

    def __exit__(self, kind, error, tb):
        _called_with.pop(self.key, None)
        return None if self.inner is None else self.inner.__exit__(kind, error, tb)


def arguments(frame) -> dict:
    """``{parameter: value}`` of the converted function ``frame`` runs, as it was called
    (its current values where that is not known)."""
    given = _called_with.get(id(frame))
    return given if given is not None else _parameters(frame)


def _parameters(frame) -> dict:
    f_locals = frame.f_locals
    return {name: f_locals.get(name) for name in frame.f_code.co_varnames[:_count(frame.f_code)]}


def _count(code) -> int:
    """How many of ``code``'s variables are its parameters (``*args`` and ``**kw`` too)."""
    return code.co_argcount + code.co_kwonlyargcount + bool(code.co_flags & 4) \
        + bool(code.co_flags & 8)


def user_line():
    """``(filename, lineno)`` of the innermost converted code running (the assignment)."""
    frame = _getframe(1)
    while frame is not None and frame.f_code not in converted.codes:
        frame = frame.f_back
    return (frame.f_code.co_filename, frame.f_lineno) if frame is not None else None


def location_in(tb) -> str:
    """``file:line (`source line`)`` of the innermost converted code in traceback ``tb``."""
    where = None
    while tb is not None:
        if tb.tb_frame.f_code in converted.codes:
            where = (tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    if where is None:
        return "?"
    text = linecache.getline(*where).strip()
    return f"{where[0]}:{where[1]}" + (f" (`{text}`)" if text else "")


def user_location() -> str:
    """``file:line (`source line`)`` of the innermost converted code running."""
    where = user_line()
    if where is None:
        return "?"
    text = linecache.getline(*where).strip()
    return f"{where[0]}:{where[1]}" + (f" (`{text}`)" if text else "")


def cannot_write(backend_name: str, written: Written, why: str,
                 what: str = "item assignment") -> errors.StagingError:
    return errors.StagingError(
        f"{what} at {user_location()}: '{written.name}' is an argument of "
        f"{written.function}(), and {why}, so under {backend_name} the write cannot reach the "
        f"caller's array. Return the updated array instead (and assign it in the caller).")
