"""What the staging core knows of conversion: which code objects conversion made, and
how to convert a function a backend is handed.

``codes`` holds the code objects conversion produced (``autograph.conversion`` adds
them), so that frames of converted code are told from the user's and the library's
(``arg_writes``) and converted functions are called as they are. ``convert(f)`` is
what converted code calls in place of ``f``: the operators publish it here
(``operators.calls`` calls ``publish`` on import), so that a backend that traces a
function it was given (``autograph.function``, a function passed to a NumPy call
under ``jax.jit``) converts it without importing the operators.
"""

from __future__ import annotations

import weakref
from typing import Any, Callable, Optional

# Code objects produced by conversion: called as they are. Weak: a converted
# function's code goes when the last function made from it does.
codes: weakref.WeakSet = weakref.WeakSet()

_convert: Optional[Callable[[Any], Any]] = None


def publish(convert_fn: Callable[[Any], Any]) -> None:
    """Make ``convert_fn`` what ``convert`` calls (the operators' ``converted``)."""
    global _convert
    _convert = convert_fn


def convert(f):
    """What converted code calls in place of ``f`` (``f`` itself before the operators load)."""
    return f if _convert is None else _convert(f)
