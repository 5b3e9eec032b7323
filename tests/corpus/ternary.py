# ruff: noqa  (user code as people write it, lint findings included)
"""Conditional expressions."""

from . import cases


@cases((3,), (-3,), (0,))
def abs_ternary(x):
    return x if x >= 0 else -x


@cases((5,), (-5,), (0,), (0.0,))
def nested_ternary(x):
    return "pos" if x > 0 else "neg" if x < 0 else "zero"


def _say(word):
    print(word)
    return word


@cases((True,), (False,), ([],))
def only_one_branch_runs(flag):
    return _say("yes") if flag else _say("no")


@cases((4,), (0,))
def ternary_in_loop(n):
    out = []
    for i in range(n):
        out.append("even" if i % 2 == 0 else "odd")
    return out


@cases((0,), (2,))
def raising_branch_not_taken(d):
    return 10 // d if d else None


@cases(([3, 1, 2],), ([],))
def ternary_as_argument(xs):
    return max(xs if xs else [0], key=lambda v: -v if v > 1 else v)


@cases((5,), (15,), (150,))
def chained_in_ternary(x):
    size = "small" if 0 <= x < 10 else "medium" if 10 <= x < 100 else "big"
    return size


@cases((1,), (0,))
def ternary_on_both_sides(x):
    a = (x if x else 7) + (2 if not x else 3)
    return a


@cases(([1, 2, 3, 4],), ([],))
def ternary_in_comprehension(xs):
    return [x * 2 if x % 2 else -x for x in xs]


@cases((True, [1]), (False, [1]), (True, []))
def ternary_with_and(flag, xs):
    return xs[0] if flag and xs else "empty"


@cases((2,), (-2,))
def ternary_assigns_tuple(x):
    a, b = (x, -x) if x > 0 else (-x, x)
    return a, b
