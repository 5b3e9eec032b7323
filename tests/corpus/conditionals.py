# ruff: noqa  (user code as people write it, lint findings included)
"""if / elif / else, chained comparisons, truthiness of every kind of value."""

from . import cases


@cases((5,), (-3,), (0,), (2.5,), (-0.0,), (None,))
def sign(x):
    if x > 0:
        return 1
    elif x < 0:
        return -1
    else:
        return 0


@cases((0,), (7,), (15,), (42,), (99,), (100,), ("a",))
def classify(n):
    if n < 10:
        label = "small"
    elif n < 50:
        label = "medium"
    elif n < 100:
        label = "large"
    else:
        label = "huge"
    return label


@cases((3, 8), (8, 3), (4, 4), (1.5, -2), ("a", 1))
def abs_diff(a, b):
    if a > b:
        d = a - b
    else:
        d = b - a
    return d


@cases((1, 1), (1, -1), (-1, 1), (-1, -1), (0, 5), (5, 0))
def quadrant(x, y):
    if x > 0:
        if y > 0:
            q = 1
        else:
            q = 4
    else:
        if y > 0:
            q = 2
        elif y < 0:
            q = 3
        else:
            q = 0
    return q


@cases((0,), (4,), (-2,), ("ab",), ([],), ([1],))
def double_if_truthy(x):
    y = 0
    if x:
        y = x * 2
    return y


@cases(([],), ([0],), ("",), ("a",), (0,), (0.0,), (None,), ({},), ({1: 2},), ((),), (set(),))
def truthiness(v):
    if v:
        return "truthy"
    return "falsy"


@cases((5, 0, 10), (-5, 0, 10), (15, 0, 10), (3, 3, 3), (1.5, 1, 2), (1, 2, "x"))
def clamp(x, lo, hi):
    if x < lo:
        x = lo
    if x > hi:
        x = hi
    return x


@cases((6,), (7,), (0,), (-3,), (1.0,))
def collatz_step(a):
    if a % 2 == 0:
        b = a // 2
        parity = "even"
    else:
        b = 3 * a + 1
        parity = "odd"
    return b, parity


@cases(([],), ([1, 2],), ([None],))
def append_length(xs):
    if xs:
        xs.append(len(xs))
    else:
        xs.append(0)
    return xs


@cases((-1,), (0,), (1,), (10,), (11,), (99,), (100,), (1000,))
def chained_ranges(x):
    if 0 < x <= 10:
        return "one digit"
    elif 10 < x < 100:
        return "two digits"
    elif x >= 100 != x:
        return "never"
    elif 100 <= x:
        return "many digits"
    return "not positive"


def _noisy(v):
    print("eval", v)
    return v


@cases((0,), (5,), (10,), (20,))
def chained_calls_evaluated_once(x):
    if _noisy(1) < _noisy(x) < _noisy(10):
        print("inside")
        return True
    print("outside")
    return False


@cases((1,), (2,), (3,), (4,), (5,), (6,), (7,))
def weekday_name(n):
    if n == 1:
        return "mon"
    elif n == 2:
        return "tue"
    elif n == 3:
        return "wed"
    elif n == 4:
        return "thu"
    elif n == 5:
        return "fri"
    elif n == 6:
        return "sat"
    return "sun"


@cases((0,), (1,))
def only_pass(x):
    if x:
        pass
    else:
        pass
    return x


@cases((2, [1, 2, 3]), (5, [1, 2, 3]), (None, [None]), (None, []), ("a", "abc"), (1, 5))
def membership(x, xs):
    if x is None:
        kind = "none"
    elif x in xs:
        kind = "in"
    elif x not in xs:
        kind = "out"
    return kind


@cases((1,), (3,), (5,), (15,), (30,), (7,))
def fizzbuzz_one(n):
    if n % 15 == 0:
        return "FizzBuzz"
    if n % 3 == 0:
        return "Fizz"
    if n % 5 == 0:
        return "Buzz"
    return str(n)


@cases((-4,), (4,), (0,), (-2.5,))
def absolute(x):
    if x < 0:
        x = -x
    return x


@cases((95,), (85,), (75,), (65,), (10,), (101,), (-1,))
def grade(score):
    if score < 0 or score > 100:
        raise ValueError(f"score out of range: {score}")
    if score >= 90:
        return "A"
    if score >= 80:
        return "B"
    if score >= 70:
        return "C"
    return "F"


@cases((True, 1, 2), (False, 1, 2), (1, "a", "b"))
def maybe_swap(flag, a, b):
    if flag:
        a, b = b, a
    return a, b


class Flag:
    """A value whose truth is observable: it prints each time it is tested."""

    def __init__(self, value):
        self.value = value

    def __bool__(self):
        print("bool", self.value)
        return self.value


class Sized:
    def __init__(self, n):
        self.n = n

    def __len__(self):
        print("len", self.n)
        return self.n


class Broken:
    def __bool__(self):
        raise RuntimeError("no truth value")


@cases((Flag(True),), (Flag(False),), (Sized(0),), (Sized(3),), (Broken(),))
def custom_truth(v):
    if v:
        result = "yes"
    else:
        result = "no"
    return result


@cases(([],), ([3],), ([1, 2, 3],))
def condition_with_side_effect(log):
    if log.append("tested") or len(log) > 2:
        log.append("big")
    else:
        log.append("small")
    return len(log)


@cases((0, 0), (1, 0), (0, 1), (3, 3), (2, 9))
def compare_pairs(a, b):
    if a == b:
        result = "equal"
        if a == 0:
            result += " zero"
    elif a < b:
        result = "less"
    else:
        result = "greater"
    return result


@cases((1,), (0,), (-1,))
def if_in_else_if(x):
    if x > 0:
        out = "pos"
    else:
        if x == 0:
            out = "zero"
        else:
            out = "neg"
    return out.upper()


@cases((-3,), (0,), (-7,), (-1,))
def negative_chained_bounds(x):
    if -5 < x <= -1:
        return "small negative"
    return "other"


@cases(([0, 2, 1], 0), ([5, 1], 0), ([1, 2], 1))
def chained_subscript_middle(xs, i):
    if 0 <= xs[i] < len(xs):
        return xs[xs[i]]
    return None


@cases((1,), (0,))
def def_in_branch(x):
    if x:
        def g():
            return "first"
    else:
        def g():
            return "second"
    return g()


@cases((1,), (0,))
def conditional_import(x):
    if x:
        import json
        text = json.dumps([x])
    else:
        import math as json
        text = str(json.floor(2.5))
    return text, json.__name__
