"""A tracing framework's refusal of a staged value is not the program's exception.

Eagerly, ``try: ... except Exception: ...`` around code that asks an array for its value
(Python's ``bool``, ``int``, ``float`` of it, NumPy's ``np.asarray`` in code autograph
does not convert) runs the body to its end and never the handler. While tracing, that
request fails — the value is only known when the graph runs — and the framework raises
(the NumPy engine's TypeError naming the line, JAX's ConcretizationTypeError,
TensorFlow's OperatorNotAllowedInGraphError). A handler that caught it would run where
eager code does not: a silent wrong value (found by the third real-code round: NumPy's
``as_series`` catches ``np.common_type``'s failure with ``except Exception`` and goes on
another path). The converted ``try`` passes such errors on, as it passes on a
``StagingError``; handlers still catch what the program raises itself.
"""

import numpy as np
import pytest

import autograph as ag


@ag.do_not_convert
def positive(x):
    """Library code autograph does not convert: Python's ``if`` asks ``x`` for its value."""
    if x > 0:
        return 1.0
    return -1.0


def sign_or_fallback(x):
    try:
        s = positive(x)
        y = x * s
    except Exception:  # noqa: BLE001 - what is tested
        y = x * 0.0 - 7.0
    return y


def handles_its_own_error(x, n):
    try:
        y = x * 2.0
        if n < 0:
            raise ValueError("negative")
    except ValueError:
        y = x * 3.0
    return y


def test_a_handler_does_not_catch_the_traces_refusal(backend):
    assert float(backend.eager(sign_or_fallback, np.float64(2.0))) == 2.0
    staged = backend.function(sign_or_fallback)
    with pytest.raises(Exception) as refused:  # noqa: B017 - each framework's own error
        out = staged(*backend.split((np.float64(2.0),)))
        pytest.fail(f"the handler ran: {out!r}")  # eagerly it does not
    assert "the handler ran" not in str(refused.value)


def test_a_handler_still_catches_what_the_program_raises(backend):
    backend.check(handles_its_own_error, np.float64(2.0), -1)
    backend.check(handles_its_own_error, np.float64(2.0), 1)
