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
    """The ``Written`` argument ``target`` is, or None."""
    frames = list(user_frames(_getframe(depth)))
    for i, frame in enumerate(frames):
        code = frame.f_code
        n = code.co_argcount + code.co_kwonlyargcount
        for name in code.co_varnames[:n]:
            if frame.f_locals.get(name) is target:
                return Written(name, code.co_name, frame, i == len(frames) - 1)
    return None


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
