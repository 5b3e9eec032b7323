"""Exceptions a staged branch raises: run-time checks instead of trace-time failures.

Python raises in a branch only when that branch is taken. Under a trace both
branches of a staged ``if`` run, so a branch that validates its input
(``if not xa < xb: raise ValueError(...)``) or reads a variable not assigned yet
raises while tracing, on valid input too. ``if_stmt`` therefore runs each traced
branch through ``catching``: an exception the user's own code raised (a ``raise``
statement, a builtin it called, the ``UnboundLocalError`` of an unassigned
variable) is handed to the backend's ``raise_``, which either records it as an op
that raises the same exception, with the same message, when the graph runs and
takes that branch (the NumPy graph engine), or refuses with a ``StagingError``
naming the raise and its line (a backend whose compiled code cannot raise, such as
JAX under ``jit``). The branch's state is then ``RAISED``: the staged ``if``
(``conditionals``) gives it the other branch's values. A branch whose both sides raise
raises ``AlwaysRaises`` to its own enclosing branch, which treats it like any other
raise.

A ``try`` around the ``if`` that would handle the exception (``handled_by``, which
the converter opens in each ``try`` body of the staged body) makes it a
``StagingError`` instead: the graph could raise it only when it runs, past the
handler. The same holds for a staged ``assert``.

Exceptions of autograph's own (``StagingError``, a symbolic tensor used as a
Python bool) and of the frameworks come from their files and are not caught: they
describe the trace, not the user's program.
"""

from __future__ import annotations

import linecache
import os
import sys
from sys import _getframe  # the runtime's own: a user may take it off sys
import threading

from . import RUNTIME_DIR as _RUNTIME_DIR, errors

_PACKAGE_DIRS = tuple(os.path.dirname(_RUNTIME_DIR) + os.sep + d + os.sep
                      for d in ("runtime", "autograph", "converters"))
_UNDEFINED_FILE = os.path.join(_RUNTIME_DIR, "staging", "undefined.py")


class _Raised:
    """The state of a branch that raised: it has no values, the other side's stand."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<raised>"


RAISED = _Raised()


class RaisedState(tuple):
    """What a branch that raised returns: ``RAISED`` for each state variable. The
    staged ``if`` (``conditionals``) gives that side the other side's values. ``exc`` is
    what the branch raised; ``refused`` the backend's StagingError for a ``KeyError``,
    raised only once the other branch is traced (it may define the key: then the
    error is the staged if's own, naming the key)."""

    exc: BaseException
    refused = None


class AlwaysRaises(errors.StagingError):
    """Both branches of a staged ``if`` raise: whatever encloses it raises too. The
    enclosing branch (or the traced function) takes it as its own raise; a staged
    loop cannot (it may run zero times), so there it stays this StagingError."""

    def __init__(self, branch) -> None:
        super().__init__(
            f"if statement at {errors.where(branch)}: both branches raise, and the if is in "
            f"the body of a staged loop, which may run zero times. Check the condition "
            f"before the loop, or raise after it.")


_LOOP_OPERATORS = frozenset({"stage_while", "for_stmt", "_guarded_rest"})


def _through_loop(exc: BaseException) -> bool:
    """True if ``exc`` came out of the body of a loop operator."""
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_name in _LOOP_OPERATORS and code.co_filename.startswith(_RUNTIME_DIR):
            return True
        tb = tb.tb_next
    return False


def _framework_dirs() -> tuple:
    import numpy

    dirs = [os.path.dirname(numpy.__file__) + os.sep]
    for name in ("jax", "jaxlib", "tensorflow", "keras", "torch"):
        module = sys.modules.get(name)
        if module is not None and getattr(module, "__file__", None):
            dirs.append(os.path.dirname(module.__file__) + os.sep)
    return tuple(dirs)


def _innermost_code(exc: BaseException):
    tb = exc.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_code


def origin(exc: BaseException):
    """``(filename, lineno)`` of the innermost frame that raised ``exc``."""
    tb = exc.__traceback__
    if tb is None:
        return None
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_code.co_filename, tb.tb_lineno


# The code of operators whose raise is the user's statement itself: ``assert_stmt``
# raises the AssertionError of an ``assert`` on Python values (the operators add it).
USER_STATEMENTS: set = set()


def raised_by_user(exc: BaseException) -> bool:
    """True if the user's program raised ``exc`` (eagerly it would raise too, when
    the branch is taken), False if the trace itself failed."""
    if isinstance(exc, AlwaysRaises):
        return not _through_loop(exc)
    if not isinstance(exc, Exception) or isinstance(exc, errors.StagingError):
        return False
    where = origin(exc)
    if where is None:
        return False
    if _innermost_code(exc) in USER_STATEMENTS:
        return True
    filename = where[0]
    if filename == _UNDEFINED_FILE:
        return isinstance(exc, UnboundLocalError)
    return not filename.startswith(_PACKAGE_DIRS + _framework_dirs())


_open_trys = threading.local()  # .stack: the user's trys open around the trace point


class handled_by:
    """``with ag__.handled_by(types):`` around the body of a user's ``try`` in the
    staged body: its handlers (and a ``finally`` that jumps: ``BaseException``)
    would handle ``types``. A staged branch inside it that raises one of them cannot
    become a run-time check (the graph would raise past the handler): that is a
    ``StagingError`` naming the raise and the ``try``."""

    def __init__(self, types, line: int) -> None:
        self.types, self.line = types, line
        self.filename = _getframe(1).f_code.co_filename  # the user's function's file

    def where(self) -> str:
        text = linecache.getline(self.filename, self.line).strip()
        where = f"{self.filename}:{self.line}" + (f" (`{text}`)" if text else "")
        return f"the try statement at {where}"

    def __enter__(self):
        self.depth = len(Branches._open)  # staged ifs opened after this: in the body
        _trys().append(self)
        return self

    def __exit__(self, *exc) -> None:
        _trys().remove(self)


def staged_handler(exc, types, stageable, safe, line: int):
    """A ``raise exc`` that ends the body of a ``try`` at ``line`` through ``if``
    statements only (``converters.try_statements``): the index of the handler (of
    ``types``) that catches it when its branch is staged, else ``exc`` (Python raises it).

    Nothing of the body runs after such a raise, so the branch need not raise: it
    gives the index as a flag (the try's ``caught`` variable), and the ``else`` clause
    runs that handler, staged, on the flag, with the values the branch had at the
    raise, as eager Python runs it. Variables the handler assigns before reading
    (``safe[i]``) may stay unassigned on that side (``filled_names``).
    """
    trys = _trys()
    entry = trys[-1] if trys else None
    if entry is None or len(Branches._open) <= getattr(entry, "depth", len(Branches._open)):
        return exc  # no staged if between the try and the raise: Python raises it
    kind = exc if isinstance(exc, type) else type(exc)
    i = next((k for k, t in enumerate(types) if _catches(t, kind)), None)
    if i is None:
        return exc  # not this try's: a run-time check of the branch, as before
    if not stageable[i]:
        raise errors.StagingError(
            f"raise in a staged branch at {_line_of(_getframe(1))}: {entry.where()} "
            f"handles its {kind.__name__} with a handler that reads the exception or "
            f"raises it again, and the condition is a staged value: the graph can run a "
            f"handler on a flag, but cannot give it the exception. Drop the 'as' name, "
            f"or check the condition on Python values.")
    Branches._open[-1].caught(safe[i])
    return i


def _catches(handler_types, kind) -> bool:
    if handler_types is None:
        return True
    try:
        return issubclass(kind, handler_types)
    except TypeError:
        return False


def _line_of(frame) -> str:
    text = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
    return f"{frame.f_code.co_filename}:{frame.f_lineno}" + (f" (`{text}`)" if text else "")


def _trys() -> list:
    stack = getattr(_open_trys, "stack", None)
    if stack is None:
        stack = _open_trys.stack = []
    return stack


def _handling_try(exc: BaseException):
    for entry in reversed(_trys()):
        if isinstance(exc, entry.types):
            return entry
    return None


def _raised_at(exc: BaseException) -> str:
    """``file:line (`source line`)`` of the user's line that raised ``exc``."""
    where = origin(exc)
    return errors.at_line(*where) if where else "?"


def handled_raise(exc: BaseException, branch, entry) -> errors.StagingError:
    """The StagingError of a staged branch's raise that a ``try`` around it handles."""
    at_try = entry.where()
    name = unbound_name(exc)
    if name is not None:
        return errors.StagingError(
            f"if statement at {errors.where(branch)}: '{name}' is read in a branch before it "
            f"is assigned, {at_try} handles the UnboundLocalError, and the condition is a "
            f"staged value: the graph could raise it only when it runs, past the try. "
            f"Assign '{name}' before the if statement.")
    return errors.StagingError(
        f"raise in a staged branch at {_raised_at(exc)}: the branch of the if statement at "
        f"{errors.where(branch)} raises {type(exc).__name__}({str(exc)!r}), {at_try} "
        f"handles it, and the condition is a staged value: the graph could raise it only "
        f"when it runs, past the try. Check the condition on Python values, or move the "
        f"raise out of the try.")


def check_not_handled(exc: BaseException, what: str,
                      advice: str = "Give the call a default, or test the condition on "
                                    "Python values.") -> None:
    """A run-time raise of ``exc`` that the runtime stages for ``what`` (``next()`` of a
    generator expression, a division by a Python zero a staged choice made): refused
    inside a ``try`` that would handle it, whose handler the graph could not run."""
    entry = _handling_try(exc)
    if entry is not None:
        raise errors.StagingError(
            f"{what}: when the graph runs it may raise {type(exc).__name__}, which "
            f"{entry.where()} handles, and a graph cannot run the handler then. {advice}")


def check_assert_not_handled(frame) -> None:
    """A staged ``assert`` (``frame``: the user's code that runs it) inside a ``try``
    that handles ``AssertionError``: the graph's check would raise past the handler."""
    entry = _handling_try(AssertionError())
    if entry is None:
        return
    filename, line = frame.f_code.co_filename, frame.f_lineno
    text = linecache.getline(filename, line).strip()
    raise errors.StagingError(
        f"assert statement at {filename}:{line}" + (f" (`{text}`)" if text else "") +
        f": {entry.where()} handles its AssertionError, and the condition is a staged value: "
        "the graph could raise it only when it runs, past the try. Check the condition on "
        "Python values, or move the assert out of the try.")


class Branches:
    """Wraps the two branch functions of one staged ``if`` for ``backend``. While the
    backend builds the ``if`` (``with``), ``local_names()`` are its plain variables (not
    shared with closures): the only ones a backend may leave unassigned on one side;
    ``dead_names()`` those nothing reads after it, which may stay unassigned."""

    _open: list = []

    def __init__(self, backend, local_names=(), dead=(), leaves=((), ())) -> None:
        self.backend = backend
        self.raised = [False, False]
        self.branch = None
        self.local_names = frozenset(local_names)
        self.dead = frozenset(dead)
        self.running = 0
        self.filled: list = [frozenset(side) for side in leaves]  # see ``filled_names``

    def __enter__(self):
        Branches._open.append(self)
        return self

    def __exit__(self, *exc) -> None:
        Branches._open.pop()


    def catching(self, fn, side: int, n_state: int):
        self.branch = self.branch or fn

        def run(*args):
            self.running = side
            try:
                return fn(*args)
            except Exception as exc:
                if not raised_by_user(exc):
                    raise
                handling = _handling_try(exc)
                if handling is not None and not isinstance(exc, AlwaysRaises):
                    raise handled_raise(exc, fn, handling) from exc
                state = RaisedState((RAISED,) * n_state)
                state.exc = exc
                if not isinstance(exc, AlwaysRaises):
                    try:
                        self.backend.raise_(exc, fn)
                    except errors.StagingError as refused:
                        if not isinstance(exc, KeyError):
                            raise
                        state.refused = refused
                self.raised[side] = True
                return state
        run.__wrapped__ = fn
        return run

    def caught(self, names) -> None:
        """The side running ended in a raise its ``try`` handles (``staged_handler``)."""
        self.filled[self.running] = self.filled[self.running] | frozenset(names)

    def check(self) -> None:
        """After the backend built the op: both sides raised -> so does the ``if``."""
        if all(self.raised):
            raise AlwaysRaises(self.branch)


def local_names() -> frozenset:
    """The plain variables of the staged ``if`` being built (see ``Branches``)."""
    return Branches._open[-1].local_names if Branches._open else frozenset()


def filled_names(side: int) -> frozenset:
    """The variables side ``side`` (0: true) of the staged ``if`` being built may leave
    unassigned: it ends in a raise whose handler assigns them before reading them
    (``staged_handler``), or in a ``break`` and nothing reads them after the loop
    (``leaves``). The other side's values stand in (never read)."""
    return Branches._open[-1].filled[side] if Branches._open else frozenset()


def dead_names() -> frozenset:
    """The variables of the staged ``if`` being built that nothing reads after it."""
    return Branches._open[-1].dead if Branches._open else frozenset()


def unbound_name(exc: BaseException):
    """The variable an ``UnboundLocalError`` of an unassigned variable names, or None."""
    if not isinstance(exc, UnboundLocalError) or origin(exc)[0] != _UNDEFINED_FILE:
        return None
    text = str(exc)
    start = text.find("'")
    return text[start + 1:text.find("'", start + 1)] if start >= 0 else None


_CHECK_OUTSIDE = ("Check the inputs before the compiled function (outside jax.jit), or use "
                  "jax.experimental.checkify.")


def cannot_raise(backend_name: str, exc: BaseException, branch,
                 remedy: str = _CHECK_OUTSIDE) -> errors.StagingError:
    """The StagingError of a backend that cannot raise while its compiled code runs
    (``remedy``: what to do instead, in that framework's words)."""
    name = unbound_name(exc)
    if name is not None:
        return errors.StagingError(
            f"if statement at {errors.where(branch)}: '{name}' is read in a branch before it "
            f"is assigned, and the condition is a staged value, so the branch is traced "
            f"although it may never run; {backend_name} cannot raise the UnboundLocalError "
            f"when the compiled function runs. Assign '{name}' before the if statement.")
    return errors.StagingError(
        f"raise in a staged branch at {_raised_at(exc)}: the branch of the if statement at "
        f"{errors.where(branch)} raises {type(exc).__name__}({str(exc)!r}), and the condition "
        f"is a staged value; {backend_name} cannot raise an exception when the compiled "
        f"function runs. {remedy}")
