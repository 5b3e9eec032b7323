"""``match`` on staged values, on every backend, compared with the same function run
eagerly: literal, dotted-name and singleton patterns, ``|``, ``as``, captures, ``_``,
guards (a failed guard's bindings stay bound), jumps out of cases, and a Python
subject whose guards are staged. (Python 3.10+: the conftest skips this file before.)"""

import numpy as np
import pytest

i64, f64 = np.int64, np.float64


def literal_cases(x):
    match x:
        case 1:
            return 10
        case 2 | 3:
            return 20
        case _:
            return 30


@pytest.mark.parametrize("x", [1, 2, 3, 4, -1])
def test_literal_and_or_patterns(backend, x):
    backend.check(literal_cases, i64(x))


def float_and_negative(x):
    match x:
        case -1.5:
            y = x * 2
        case 0.0 | 2.5:
            y = x + 1
        case _:
            y = -x
    return y


@pytest.mark.parametrize("x", [-1.5, 0.0, 2.5, 7.0])
def test_float_literals_assign_in_every_case(backend, x):
    backend.check(float_and_negative, f64(x))


class Level:
    LOW = 0
    HIGH = 9


def dotted_values(x):
    match x:
        case Level.LOW:
            return x - 1
        case Level.HIGH:
            return x + 1
    return x * 10


@pytest.mark.parametrize("x", [0, 9, 4])
def test_dotted_value_patterns(backend, x):
    backend.check(dotted_values, i64(x))


def capture_guards(x):
    match x:
        case 0:
            kind = 0
        case n if n < 0:
            kind = -n
        case big if big > 100:
            kind = big // 100
        case n:
            kind = n * 2
    return kind


@pytest.mark.parametrize("x", [0, -4, 500, 7])
def test_captures_and_staged_guards(backend, x):
    backend.check(capture_guards, i64(x))


def as_pattern_failed_guard(x, y):
    # `n` is bound to the subject when 1 | 2 matches, before the guard; a failed
    # guard leaves it bound and the next case runs.
    n = y
    match x:
        case (1 | 2) as n if y > 0:
            out = n * 100
        case 3:
            out = x + 0
        case _:
            out = -x
    return out, n


@pytest.mark.parametrize("x, y", [(1, 5), (2, -5), (3, 5), (8, 5)])
def test_as_pattern_and_failed_guard(backend, x, y):
    backend.check(as_pattern_failed_guard, i64(x), i64(y))


def singletons(x):
    match x:
        case None:
            return x
        case True | False:
            return x
        case _:
            return x + 1


def test_singletons_never_match_an_array(backend):
    backend.check(singletons, f64(2.0))


def python_subject_staged_guard(mode, x):
    match mode:
        case "double" if x > 0:
            return x * 2
        case "double" | "negate":
            return -x
        case _:
            return x


@pytest.mark.parametrize("mode", ["double", "negate", "other"])
@pytest.mark.parametrize("x", [3.0, -3.0])
def test_python_subject_with_a_staged_guard(backend, mode, x):
    backend.check(python_subject_staged_guard, mode, f64(x))


def jumps_in_loop(xs, stop):
    total = xs[0] * 0
    for i in range(xs.shape[0]):
        match xs[i]:
            case 0:
                continue
            case v if v == stop:
                break
            case v:
                total = total + v
    return total


@pytest.mark.parametrize("stop", [5, 100])
def test_continue_and_break_in_cases(backend, stop):
    backend.check(jumps_in_loop, np.array([1, 0, 2, 5, 3], np.int64), i64(stop))


def in_staged_while(n):
    steps = n * 0
    while n > 0:
        match n % 3:
            case 0:
                n = n - 3
            case 1 | 2 as r:
                n = n - r
        steps = steps + 1
    return steps


def test_match_in_a_staged_while(backend):
    backend.check(in_staged_while, i64(10))


def no_wildcard(x):
    match x:
        case 1:
            y = x * 10
        case 2:
            y = x * 20
    return y


def test_a_variable_some_cases_leave_unassigned(backend):
    if backend.raises_at_run_time:  # the graph carries whether y was assigned, as for an if
        backend.check(no_wildcard, i64(2))
        backend.check_raises(no_wildcard, UnboundLocalError, "'y'", i64(3))
        return
    assert backend.staging_error(no_wildcard, i64(3)) == (
        f"match statement at {backend.at(no_wildcard, 'case 2:')}: 'y' is defined in this case "
        "only, and the case's test is a staged value, so it and the cases after it all run in the "
        "graph. Define 'y' before the match statement, or in every case (and a `case _:`)."
    )


def mixed_types(x):
    match x:
        case 1:
            y = 10
        case _:
            y = "ten"
    return y


def test_cases_that_give_a_variable_different_types(backend):
    assert backend.staging_error(mixed_types, i64(1)) == (
        f"match statement at {backend.at(mixed_types, 'case 1:')}: 'y' is a Python int (10) in "
        "this case but str 'ten' in the cases after it; a staged condition needs the same type "
        "and structure on both sides. Convert one side so they match."
    )


# --- kept as a match: sequence, mapping and class patterns ---------------------


def sequence_or_mapping(x):
    match x:
        case [a, b]:
            return a + b
        case {"k": v}:
            return v
        case _:
            return x * 2


def test_sequence_and_mapping_patterns_never_match_an_array(backend):
    backend.check(sequence_or_mapping, f64(1.5))


def python_subject_class_patterns(pair, x):
    match pair:
        case (int(), int()):
            return x + 1
        case _:
            return x - 1


@pytest.mark.parametrize("pair", [(1, 2), (1, "b")])
def test_class_patterns_on_a_python_subject(backend, pair):
    backend.check(python_subject_class_patterns, pair, f64(1.0))


def class_patterns(x):
    match x:
        case float() | int():
            return x + 1
        case _:
            return x - 1


def test_class_pattern_on_a_staged_subject(backend):
    if backend.engine != "numpy":
        backend.check(class_patterns, f64(2.0))  # a tracer is a jax.Array, as eager values are
        return
    # A symbolic tensor is not a float, an np.float64 is: refused, not silently different.
    assert backend.staging_error(class_patterns, f64(2.0)) == (
        f"match statement at {backend.at(class_patterns, 'match x:')}: the subject is a staged "
        "value (float64[]), and a class pattern (`case float():`, `case np.ndarray():`) tests its "
        "Python type, which under a trace is the traced stand-in's, not the array's: the match "
        "could take another case than it takes on arrays. Test the dtype or shape instead "
        "(np.issubdtype(x.dtype, np.floating), x.ndim == 0), or match outside the staged function."
    )
