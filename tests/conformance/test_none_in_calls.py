"""A value None on some staged paths given to a NumPy function or to ``min``/``max``
(SciPy's DCSRCH: ``self.stmin`` is None until the first call sets it, and ``dcstep``
clips with it and takes ``min`` of it). Eager Python raises on None there, or, where
NumPy accepts None (``np.clip``'s bounds), computes without it: the staged call does
the same on each run (the error raised when the program runs, or the result on None
selected), where the framework can raise at run time; elsewhere a raise is refused.
"""

import numpy as np
import pytest


def clip_to_lower(x, y):
    lo = None
    if x > 0:
        lo = x * 2
    return np.clip(y, lo, 1.0)


@pytest.mark.parametrize("x,y", [(0.3, 0.5), (0.3, 0.7), (-0.3, 0.5), (-0.3, -4.0)])
def test_a_bound_that_may_be_none_is_no_bound_there(backend, x, y):
    backend.check(clip_to_lower, np.float64(x), np.float64(y))


def clipped(x):
    s = None
    if x > 0:
        s = x * 2
    return np.clip(s, 0.0, 1.0)


def smallest(x, y):
    s = None
    if x > 0:
        s = x
    return min(s, y)


@pytest.mark.parametrize("fn,text", [
    (clipped, "'>=' not supported between instances of 'NoneType' and 'float'"),
    (smallest, "'<' not supported between instances of 'float' and 'NoneType'"),
])
def test_a_value_that_may_be_none_raises_where_it_is(backend, fn, text):
    args = (np.float64(0.3), np.float64(0.1))[:fn.__code__.co_argcount]
    if not backend.raises_at_run_time:
        assert "is None on some staged paths" in backend.staging_error(fn, *args)
        return
    backend.check(fn, *args)
    with pytest.raises(TypeError, match=f"^{text}$"):  # eager NumPy's error
        fn(*(-a for a in args))
    staged = backend.function(fn)
    with pytest.raises(Exception) as info:  # TensorFlow: its assertion, holding the error
        staged(*backend.split(tuple(-a for a in args)))
    message = str(info.value).replace("\\'", "'")
    assert (info.type is TypeError and message == text) or f"[TypeError: {text}]" in message
