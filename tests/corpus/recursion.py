# ruff: noqa  (user code as people write it, lint findings included)
"""Recursive functions: direct, mutual, through helpers, with accumulators."""

from . import cases


@cases((0,), (1,), (10,), (-1,))
def factorial(n):
    if n < 0:
        raise ValueError("negative factorial")
    if n <= 1:
        return 1
    return n * factorial(n - 1)


@cases((0,), (1,), (12,))
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@cases((0,), (7,), (10,))
def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


@cases((0, 0), (1, 2), (2, 3))
def ackermann(m, n):
    while m > 0:
        if n == 0:
            n = 1
        else:
            n = ackermann(m, n - 1)
        m -= 1
    return n + 1


@cases(([1, [2, [3, [4]], 5]],), ([],), ([[[]]],))
def flatten(xs):
    out = []
    for x in xs:
        if isinstance(x, list):
            out.extend(flatten(x))
        else:
            out.append(x)
    return out


@cases((48, 18), (7, 0), (0, 0))
def gcd(a, b):
    return a if b == 0 else gcd(b, a % b)


@cases(([1, 3, 5, 7, 9], 7, 0, 4), ([1, 3, 5], 4, 0, 2), ([], 1, 0, -1))
def binary_search(xs, target, lo, hi):
    if lo > hi:
        return -1
    mid = (lo + hi) // 2
    if xs[mid] == target:
        return mid
    elif xs[mid] < target:
        return binary_search(xs, target, mid + 1, hi)
    else:
        return binary_search(xs, target, lo, mid - 1)


@cases((2, "A", "C", "B"), (0, "A", "C", "B"))
def hanoi(n, src, dst, via):
    if n == 0:
        return 0
    moves = hanoi(n - 1, src, via, dst)
    print(f"move {n} {src}->{dst}")
    return moves + 1 + hanoi(n - 1, via, dst, src)


@cases((30, {}), (5, {1: 1}))
def memo_fib(n, memo):
    if n in memo:
        return memo[n]
    if n < 2:
        result = n
    else:
        result = memo_fib(n - 1, memo) + memo_fib(n - 2, memo)
    memo[n] = result
    return result


@cases(([1, 2, 3],), ([],))
def permutations(xs):
    if len(xs) <= 1:
        return [list(xs)]
    result = []
    for i, x in enumerate(xs):
        for rest in permutations(xs[:i] + xs[i + 1:]):
            result.append([x] + rest)
    return result


@cases((100,), (200,))
def moderate_depth(n):
    if n == 0:
        return 0
    return 1 + moderate_depth(n - 1)


@cases((1,), message=False)
def unbounded_recursion(n):
    return unbounded_recursion(n + 1) + 1


@cases((3,), (0,))
def count_down_print(n):
    if n <= 0:
        print("done")
        return
    print(n)
    count_down_print(n - 1)
    print("back", n)


@cases(({"a": {"b": {}, "c": {"d": {}}}},), ({},))
def tree_depth(tree):
    best = 0
    for child in tree.values():
        d = tree_depth(child)
        if d > best:
            best = d
    return best + 1
