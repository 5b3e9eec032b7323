# ruff: noqa  (user code as people write it, lint findings included)
"""and / or / not: non-bool results, short circuits, side effects, __bool__ calls."""

from . import cases


@cases((0, 5), (3, 5), ("", "x"), ([], [1]), (None, 1), ([0], 0), (2.5, None))
def and_value(a, b):
    return a and b


@cases((0,), ("",), ("given",), (None,), ([],), ([0],))
def or_default(x):
    return x or "default"


def _log(name, value):
    print("evaluated", name)
    return value


@cases((0, 1), (1, 0), (1, 1), (0, 0))
def short_circuit_prints(x, y):
    first = _log("a", x) and _log("b", y)
    second = _log("c", x) or _log("d", y)
    return first, second


@cases((0,), (1,), ("",), ("s",), (None,))
def not_value(x):
    return not x, not not x


@cases((1, 0, 3), (0, 0, 0), (0, 2, 0), (None, [], "z"))
def mixed_and_or(a, b, c):
    return a and b or c, a or b and c, (a or b) and c


@cases((1, 1, 0), (0, 1, 1), (0, 0, 0), (1, 0, 0))
def and_or_in_if(a, b, c):
    if a and b or c:
        return "yes"
    return "no"


class Item:
    def __init__(self, size):
        self.size = size


@cases((None,), (Item(3),), (Item(-1),), (5,))
def guard_attribute(x):
    return x is not None and x.size > 0


@cases(({"k": 2}, "k"), ({"k": 0}, "k"), ({}, "k"))
def or_with_raising_right(d, key):
    return d.get(key) or 1 / 0


@cases((True,), (False,), (0,))
def nested_not(x):
    if not (not x):
        return "truthy"
    return "falsy"


class Counted:
    """Prints every truth test, to count them."""

    def __init__(self, name, value):
        self.name, self.value = name, value

    def __bool__(self):
        print("bool", self.name)
        return self.value

    def __repr__(self):
        return f"Counted({self.name!r}, {self.value!r})"

    def __eq__(self, other):
        return isinstance(other, Counted) and (self.name, self.value) == (other.name, other.value)


@cases((Counted("a", True), Counted("b", True)),
       (Counted("a", False), Counted("b", True)),
       (Counted("a", True), Counted("b", False)))
def truth_tests_in_if(a, b):
    if a and b:
        print("then")
    else:
        print("else")


@cases((Counted("a", True), Counted("b", False)),
       (Counted("a", False), Counted("b", True)))
def truth_tests_in_value(a, b):
    x = a and b
    y = a or b
    z = not a
    return x, y, z


@cases((Counted("a", True),), (Counted("a", False),))
def truth_tests_in_while(a):
    n = 0
    while a and n < 2:
        n += 1
    return n


@cases(([3, 0, 4],), ([1, 2],), ([],))
def and_or_in_loop(xs):
    out = []
    for x in xs:
        out.append(x and 10 // x or "zero")
    return out


@cases((None, "a"), ("b", None), (None, None), (1, 1))
def identity_tests(a, b):
    return a is None, a is not None and b is None, a is b


@cases(([1, 2, 3],), ([1, -2],), ([],))
def any_all(xs):
    return all(x > 0 for x in xs), any(x > 2 for x in xs)


@cases((1, 1, 1), (1, 1, 2), (2, 1, 1))
def chained_equality(x, y, z):
    return x == y == z, x != y != z


@cases((1, 2, 3), (3, 2, 1), (1, 1, 1))
def chained_middle_once(a, b, c):
    return _log("a", a) < _log("b", b) < _log("c", c)


@cases((0,), (1,), (5,))
def and_in_while_condition(n):
    xs = [1, 2, 3, 0, 5]
    i = 0
    while i < len(xs) and xs[i] and i < n:
        i += 1
    return i


@cases(([],), ([1],))
def or_in_return_creates_new(xs):
    ys = xs or []
    ys.append(9)
    return xs, ys


@cases((1, 2), (0, 2), ("", "y"))
def and_assign_then_use(a, b):
    c = a and b
    if c:
        return c * 2
    return c


@cases((1, 2, 3), (3, 2, 1), (1, 1, 1), (0, 5, 2))
def chained_calls_in_if(a, b, c):
    if _log("a", a) < _log("b", b) <= _log("c", c) != _log("d", 9):
        return "in"
    return "out"


@cases((1, 2, 3), (3, 2, 1))
def chained_calls_in_while_and_ternary(a, b, c):
    n = 0
    while n < 3 and -1 < _log("n", n) * b <= _log("c", c) + n:
        n += 1
    return ("low" if 0 <= _log("a", a) < 2 else "high"), n


@cases(([1, 2], 2), ([3], 1), ([], 0))
def chained_membership_and_identity(xs, k):
    return k in xs is not None, None is not k in xs, len(xs) == k >= 1
