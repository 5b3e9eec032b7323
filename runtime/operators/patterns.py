"""What a ``match`` that stays a ``match`` in the staged body checks at run time.

A ``match`` with a sequence, mapping or class pattern is not converted: it runs as
Python on its subject. A class pattern (``case float():``, ``case np.ndarray():``)
tests the subject's Python type, and under a trace a staged subject is a stand-in
for an array, whose type may not be the array's: on the NumPy engine a symbolic
tensor is neither an ``np.ndarray`` nor an ``np.float64``, so the match would
silently take another case than eager code takes. Such a subject is a
``StagingError`` instead. A backend whose staged values answer ``isinstance`` as its
arrays do (JAX: a tracer is a ``jax.Array``) says so with
``Backend.isinstance_as_concrete``, and its subjects run as Python.
"""

from __future__ import annotations

from sys import _getframe  # the runtime's own: a user may take it off sys

from ..staging import errors
from ..staging.backend import backend_of
from ..staging.state import describe


def class_pattern_subject(value):
    """``value``, the subject of a ``match`` with class patterns; a staged value
    whose type is not its array's raises ``StagingError`` naming the ``match``."""
    backend = backend_of(value)
    if backend is None or backend.isinstance_as_concrete:
        return value
    caller = _getframe(1)
    location = errors.at_line(caller.f_code.co_filename, caller.f_lineno)
    raise errors.class_pattern_on_staged(location, describe(value, backend))
