"""The fixture itself: a staged loop and branch agree with eager on every backend."""

import numpy as np
import pytest

import autograph as ag


def collatz(n):
    steps = n * 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def clipped_sum(x, limit):
    total = x[0] * 0
    for v in x:
        if total > limit:
            break
        total = total + v
    return total, limit


def test_collatz(backend):
    backend.check(collatz, np.int32(27))


def test_break_with_python_argument(backend):
    backend.check(clipped_sum, np.arange(6.0), 4)


def test_assert_message(backend):
    def positive(x):
        assert x > 0, "x must be positive"
        return x

    backend.check(positive, np.int32(3))


def test_staging_error_names_variable(backend):
    def in_loop_only(x):
        for v in x:
            y = v
        return y

    if backend.raises_at_run_time:  # carried with a run-time flag: unbound when no trip ran
        backend.check(in_loop_only, np.arange(3))
        backend.check_raises(in_loop_only, UnboundLocalError, "'y'", np.arange(0))
        return
    backend.check(in_loop_only, np.arange(3))  # a static length: the first trip assigns y
    # no trip: refused, naming y (or eager's own error where the trace runs no loop)
    with pytest.raises((ag.StagingError, UnboundLocalError), match="'y'"):
        backend.staged(in_loop_only, np.arange(0))
    assert isinstance(ag.StagingError, type)
