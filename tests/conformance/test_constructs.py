"""Every staged construct, on every backend, compared with the same function run
eagerly: if/elif/else, ternaries, and/or/not, early returns, while and for loops
with break/continue/return, traced ranges, enumerate and zip, Python numbers that
staged loops and branches widen into arrays."""

import numpy as np
import pytest

f32, i32 = np.float32, np.int32


def sign(x):
    if x > 0:
        s = 1.0
    elif x < 0:
        s = -1.0
    else:
        s = 0.0
    return s


def abs_twice(x):
    if x < 0:
        x = -x
    return x * 2


def ternary(x):
    return x * 2 if x > 0 else x - 1


def logic(x, y):
    return (x > 0 and y > 0) or not (x < -5)


def short_circuit(xs, i):
    # The right operand must not run when the left decides: here it would divide by 0.
    return i > 0 and 10 // i > 2


def early_return(x):
    if x > 0:
        return x
    x = x * 3
    return x - 1


def return_in_elif(x):
    if x > 10:
        return 2 * x
    elif x > 0:
        return x
    return -x


def python_cond_inside(x, flag):
    # ``flag`` is a Python bool: its if runs as Python, x's as lax.cond.
    if flag:
        y = x + 1
    else:
        y = x - 1
    if y > 0:
        y = y * 10
    return y


def int_float_branches(x):
    if x > 0:
        y = 1
    else:
        y = 0.5
    return y + x


def same_python_value(x):
    k = 3
    if x > 0:
        x = x + 1
    else:
        k = 3
    return x * k


def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def newton_sqrt(a):
    x = a
    i = 0
    while abs(x * x - a) > 1e-4 and i < 50:
        x = (x + a / x) / 2
        i += 1
    return x, i


def while_break(x):
    i = 0
    while i < 100:
        x = x * 1.5
        if x > 1000:
            break
        i += 1
    return x, i


def while_continue(n):
    i = 0
    total = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        total += i
    return total


def handed_over(x):
    # The test starts as a Python comparison; the traced break makes it traced.
    i = 0
    while i < 50:
        if x * i > 10:
            break
        i += 1
    return i


def early_return_in_while(n):
    i = 0
    while i < n:
        if i * i > n:
            return i
        i += 1
    return -1


def nested_loops(n):
    total = 0
    i = 0
    while i < n:
        j = 0
        while j < i:
            if (i + j) % 3 == 0:
                total += i * j
            j += 1
        i += 1
    return total


def weak_promotion(x):
    acc = 0  # a Python int, widened to float32 by the body like a JAX weak type
    while acc < 10:
        acc = acc + x
    return acc


def sum_squares(xs):
    s = 0.0
    for x in xs:
        s = s + x * x
    return s


def rows(m):
    total = m[0] * 0
    for row in m:
        total = total + row
    return total


def traced_range(a, b):
    s = 0
    for i in range(a, b, 2):
        s += i
    for i in range(b, a, -3):
        s += i
    for i in range(b):
        s -= 1
    return s


def for_break(xs):
    s = 0.0
    for x in xs:
        if x < 0:
            break
        s += x
    return s


def range_break(n):
    total = 0
    for i in range(n):
        if total > 20:
            break
        total += i
    return total


def static_range_traced_break(xs):
    s = 0.0
    for i in range(5):
        if xs[i] < 0:
            break
        s += xs[i]
    return s


def first_negative(xs):
    for i in range(xs.shape[0]):
        if xs[i] < 0:
            return i
    return -1


def return_in_scan(xs):
    for x in xs:
        if x > 2:
            return x * 10
    return 0.0


def enumerate_zip(xs, ys):
    t = 0.0
    for i, x in enumerate(xs):
        t += i * x
    for a, b in zip(xs, ys):
        t += a * b
    for i, (a, b) in enumerate(zip(xs, ys), 1):
        t -= i * a + b
    return t


def enumerate_traced_range(n):
    t = 0
    for k, i in enumerate(range(2, n), 10):
        t += k * i
    return t


def for_continue(xs):
    s = 0.0
    for x in xs:
        if x < 0:
            continue
        s += x
    return s


@pytest.mark.parametrize("x", [-2.0, 0.0, 3.5])
@pytest.mark.parametrize("f", [sign, abs_twice, ternary, early_return, return_in_elif,
                               int_float_branches, same_python_value])
def test_conditionals(backend, f, x):
    backend.check(f, f32(x))


@pytest.mark.parametrize("x, y", [(1.0, 2.0), (-1.0, 2.0), (-7.0, -1.0), (2.0, -3.0)])
def test_and_or_not(backend, x, y):
    backend.check(logic, f32(x), f32(y))


@pytest.mark.parametrize("i", [0, 1, 5])
def test_short_circuit_keeps_right_operand_lazy(backend, i):
    backend.check(short_circuit, np.zeros(3, f32), i32(i))


@pytest.mark.parametrize("flag", [True, False])
@pytest.mark.parametrize("x", [-3.0, 0.5, 4.0])
def test_python_and_staged_conditions_mix(backend, flag, x):
    backend.check(python_cond_inside, f32(x), flag)


@pytest.mark.parametrize("n", [1, 6, 27])
def test_collatz(backend, n):
    backend.check(collatz, i32(n))


@pytest.mark.parametrize("a", [2.0, 9.0, 0.25])
def test_while_with_and(backend, a):
    backend.check(newton_sqrt, f32(a))


@pytest.mark.parametrize("f, arg", [
    (while_break, f32(0.5)), (while_break, f32(2000.0)), (while_continue, i32(10)),
    (while_continue, i32(0)), (handed_over, f32(0.5)), (handed_over, f32(0.0)),
    (early_return_in_while, i32(20)), (early_return_in_while, i32(0)), (nested_loops, i32(9)),
    (weak_promotion, f32(0.75)),
])
def test_while_loops(backend, f, arg):
    backend.check(f, arg)


@pytest.mark.parametrize("f, args", [
    (sum_squares, [np.arange(5.0, dtype=f32)]),
    (rows, [np.arange(12.0, dtype=f32).reshape(4, 3)]),
    (traced_range, [i32(3), i32(20)]),
    (traced_range, [i32(20), i32(3)]),
    (for_break, [np.array([1.0, 2.0, -1.0, 5.0], f32)]),
    (for_break, [np.array([1.0, 2.0], f32)]),
    (range_break, [i32(100)]),
    (range_break, [i32(3)]),
    (static_range_traced_break, [np.array([1.0, 2.0, -1.0, 5.0, 3.0], f32)]),
    (static_range_traced_break, [np.array([1.0, 2.0, 1.0, 5.0, 3.0], f32)]),
    (first_negative, [np.array([1.0, 2.0, -3.0, 4.0], f32)]),
    (first_negative, [np.array([1.0, 2.0], f32)]),
    (return_in_scan, [np.array([1.0, 3.0, 5.0], f32)]),
    (return_in_scan, [np.array([1.0, 0.0], f32)]),
    (enumerate_zip, [np.arange(4.0, dtype=f32), np.ones(4, f32)]),
    (enumerate_traced_range, [i32(7)]),
    (for_continue, [np.array([1.0, -2.0, 3.0], f32)]),
])
def test_for_loops(backend, f, args):
    backend.check(f, *args)


def reversed_range(start, stop, step):
    out = 0
    for i in reversed(range(start, stop, step)):
        out = out * 3 + i  # order matters
    return out


@pytest.mark.parametrize("start, stop, step", [
    (0, 5, 1), (2, 11, 3), (2, 12, 3), (5, 5, 1), (7, 2, 1), (9, -3, -4), (3, 8, -2),
])
def test_reversed_traced_range(backend, start, stop, step):
    # Python's rule: reversed(range(a, b, s)) runs over the same items, last first,
    # and is empty where the range is; the bounds are staged, the step a Python int.
    backend.check(reversed_range, i32(start), i32(stop), step)


def test_reversed_range_with_staged_step_is_refused(backend):
    with pytest.raises(TypeError, match=r"reversed\(\) of a range with a staged step is not "
                                        r"supported: give the step as a Python int"):
        backend.staged(reversed_range, i32(0), i32(5), i32(1))
