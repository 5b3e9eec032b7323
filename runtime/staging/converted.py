"""What the staging core knows of conversion: which code objects conversion made, and
how to convert a function a backend is handed.

``codes`` holds the code objects conversion produced that run converted statements
(``autograph.conversion`` adds them; ``staged_codes`` those that only choose between a
function's two bodies), so that frames of converted code are told from the user's and
the library's (``arg_writes``) and converted functions are called as they are.
``convert(f)`` is what converted code calls in place of ``f``: the operators publish it
here (``operators.calls`` calls ``publish`` on import), so that a backend that traces a
function it was given (``autograph.function``, a function passed to a NumPy call
under ``jax.jit``) converts it without importing the operators.
"""

from __future__ import annotations

import weakref
from typing import Any, Callable, Optional

# Code objects produced by conversion that run converted statements: called as they
# are. Weak: a converted function's code goes when the last function made from it does.
codes: weakref.WeakSet = weakref.WeakSet()

# A converted function whose staged body differs from its Python path has that body
# compiled as a function of its own (``autograph.conversion``): its code -> the code of
# its staged body. Its own frame runs the user's statements or, when staging, calls the
# staged body: it is not in ``codes`` (the runtime looks at the staged body's frame).
staged_codes: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def made(code) -> bool:
    """Whether conversion produced ``code``."""
    return code in codes or code in staged_codes


def copied(code, copy) -> None:
    """Register ``copy``, a copy of ``code`` that conversion produced, as ``code`` is."""
    if code in staged_codes:
        staged_codes[copy] = staged_codes[code]
    else:
        codes.add(copy)

_convert: Optional[Callable[[Any], Any]] = None


def publish(convert_fn: Callable[[Any], Any]) -> None:
    """Make ``convert_fn`` what ``convert`` calls (the operators' ``converted``)."""
    global _convert
    _convert = convert_fn


def convert(f):
    """What converted code calls in place of ``f`` (``f`` itself before the operators load)."""
    return f if _convert is None else _convert(f)
