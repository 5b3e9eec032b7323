# ruff: noqa  (user code as people write it, lint findings included)
"""return anywhere: in loops, in nested branches, without a value, not at all."""

from . import cases


@cases(([1, 5, 9], 5), ([1, 5, 9], 4), ([], 0))
def index_of(xs, target):
    for i, x in enumerate(xs):
        if x == target:
            return i
    return -1


@cases((1, 1), (1, 0), (0, 1), (0, 0))
def nested_returns(a, b):
    if a:
        if b:
            return "both"
        return "a only"
    if b:
        return "b only"
    return "neither"


@cases((1,), (0,))
def no_return(x):
    y = x + 1
    y *= 2


@cases((5,), (-5,))
def bare_return(x):
    if x < 0:
        return
    return x


@cases((3,), (-1,), (0,))
def implicit_none_on_some_paths(x):
    if x > 0:
        return x * 10
    elif x == 0:
        print("zero")


@cases((10,), (0,), (3,))
def return_in_while(n):
    i = 0
    while i < n:
        if i * 2 > 5:
            return i
        i += 1
    return None


@cases((0,), (1,), (2,), (3,))
def mixed_return_types(k):
    if k == 0:
        return 0
    if k == 1:
        return "one"
    if k == 2:
        return [2.0]
    return None


@cases(([3, 1, 2],), ([],), ([7],))
def min_max(xs):
    if not xs:
        return None, None
    lo = hi = xs[0]
    for x in xs[1:]:
        if x < lo:
            lo = x
        if x > hi:
            hi = x
    return lo, hi


@cases((4,), (-4,))
def return_before_print(x):
    if x > 0:
        return "positive"
    print("not reached for positives")
    return "other"


@cases(([[1, 2], [3, 4]], 3), ([[1, 2], [3, 4]], 9), ([], 1))
def find_in_grid(grid, target):
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if v == target:
                return r, c
    return None


@cases((5,), (50,))
def return_in_while_true(limit):
    n = 1
    while True:
        n *= 3
        if n > limit:
            return n


@cases(([1, 2, 3],), ([],))
def return_the_argument(xs):
    if xs:
        xs.append(0)
        return xs
    return xs


@cases((0,), (1,), (2,))
def return_from_else(x):
    if x == 0:
        pass
    else:
        return x
    return "zero"


@cases(([1, 2, 3, 4],), ([1, 3],))
def return_in_continue_loop(xs):
    for x in xs:
        if x % 2:
            continue
        return x
    return None


@cases((3,), (0,))
def return_expression_with_calls(n):
    return sum(range(n)) + len(str(n))


@cases((1,), (2,))
def return_in_both_branches(x):
    if x == 1:
        return "one"
    else:
        return "other"
    print("unreachable")  # noqa
