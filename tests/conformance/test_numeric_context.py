"""``np.errstate`` in a staged function, a message string chosen by a staged
condition, and ``dict.get`` with a staged key (issue 22.7)."""

import os
import warnings

import numpy as np


def quiet_divide(x, y):
    with np.errstate(divide="ignore", invalid="ignore"):
        r = x / y
    return r


def strict_divide(x, y):
    with np.errstate(divide="raise"):
        r = x / y
    return r


def test_errstate_applies_when_the_graph_runs(backend):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        backend.check(quiet_divide, np.ones(2, np.float32), np.zeros(2, np.float32))
    if backend.engine == "numpy":
        backend.check_raises(strict_divide, FloatingPointError, "divide by zero",
                             np.ones(2), np.zeros(2))
        assert np.geterr()["divide"] == "warn"  # restored although the graph raised


def halve_until_small(x):
    it = 0
    while x > 1 and it < 5:
        x = x / 2
        it += 1
    flag = "converged" if x <= 1 else "maxiter"
    return x, flag


def grade(x):
    msg = "low"
    if x > 1:
        msg = "mid"
    if x > 10:
        msg = "high"
    return msg, x


def compares_message(x):
    msg = "a" if x > 0 else "b"
    return msg == "a"


def test_string_chosen_by_a_staged_condition_is_returned(backend):
    if not backend.returns_strings_at_run_time:
        text = backend.staging_error(halve_until_small, np.float32(3.0))
        assert "a different Python str in each branch" in text
        return
    backend.check(halve_until_small, np.float64(3.0))
    backend.check(halve_until_small, np.float64(300.0))
    for v in (0.0, 5.0, 50.0):
        backend.check(grade, np.float64(v))


def lookup(k):
    table = {1: 2.0, 2: 3.0}
    return table.get(k, 0.0)


def test_dict_get_with_a_staged_key_is_refused(backend):
    text = backend.staging_error(lookup, np.int32(1))
    assert text.startswith("dict.get with a staged key at ")
    assert text.endswith("the key is only known when the graph runs, and a graph cannot look "
                         "it up in a Python dict. Use a Python key, or keep the values in an "
                         "array and index it with the staged value.")


def status(x):
    task = b"START"
    if x < 0:
        task = b"ERROR: X .LT. ZERO"
    elif x > 10:
        task = b"WARNING: X .GT. TEN"
    if task[:5] == b"ERROR" or task.startswith(b"WARN"):
        y = -x
    else:
        y = x
    return y, task, task[:4] != b"WARN", task.endswith(b"ZERO")


def concatenates(x):
    msg = b"a" if x > 0 else b"b"
    return msg + b"!"


def test_bytes_status_chosen_by_a_staged_condition(backend):
    if not backend.returns_strings_at_run_time:
        text = backend.staging_error(status, np.float64(3.0))
        assert "a different Python bytes in each branch" in text, text
        return
    for v in (-1.0, 3.0, 30.0):
        backend.check(status, np.float64(v))


def test_chosen_string_compared_sliced_tested(backend):
    if backend.engine == "numpy":
        backend.check(compares_message, np.float32(1.0))
        backend.check(compares_message, np.float32(-1.0))


def test_chosen_bytes_concatenated_is_refused(backend):
    text = backend.staging_error(concatenates, np.float32(1.0))
    if backend.engine == "numpy":
        where = os.path.basename(backend.at(concatenates, 'return msg + b"!"'))
        assert text == (
            f"at {where}: the conditional expression "
            "is a string chosen by a staged condition (one of b'a', b'b'); a graph holds "
            "arrays, not strings, so inside the function it can only be returned, sliced with "
            "a Python index, compared with == or != to a string, or tested with "
            "startswith/endswith. Test the condition itself instead (or keep a boolean array "
            "next to the string).")


def loop_status(x):
    task = b"START"
    it = 0
    while x > 1:
        x = x / 2
        it += 1
        if x < 3:
            task = b"SMALL"
        if it > 4:
            task = b"MAXITER"
            break
    return x, task, task[:3] == b"MAX"


def for_status(x):
    msg = "none"
    for v in x:
        if v > 2:
            msg = "big"
        elif v < 0:
            msg = "negative"
    return msg


def test_status_chosen_in_a_staged_loop(backend):
    if not backend.returns_strings_at_run_time:
        text = backend.staging_error(loop_status, np.float64(10.0))
        assert "'task' is a different Python bytes in each branch" in text, text
        return
    for v in (10.0, 0.5, 1000.0):
        backend.check(loop_status, np.float64(v))
    for a in ([1.0, 3.0, 1.0], [3.0, -1.0, 1.0], [0.5, 0.5, 0.5]):
        backend.check(for_status, np.array(a))
