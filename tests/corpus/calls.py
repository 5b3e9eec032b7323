# ruff: noqa  (user code as people write it, lint findings included)
"""Calls: helpers (converted recursively), builtins, partials, callable objects,
decorated functions, every kind of argument passing."""

import functools
import sys

from . import case, call, cases


def _clip(x, limit):
    if x > limit:
        return limit
    if x < -limit:
        return -limit
    return x


@cases(([5, -9, 2], 3), ([], 1), ([1], None))
def clip_all(xs, limit):
    out = []
    for x in xs:
        out.append(_clip(x, limit))
    return out


def _count_steps(n):
    steps = 0
    while n > 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


@cases((5,), (1,))
def helper_with_loops(limit):
    best, arg = -1, None
    for k in range(1, limit + 1):
        s = _count_steps(k)
        if s > best:
            best, arg = s, k
    return arg, best


@cases((["bb", "a", "ccc"],), ([],))
def builtins_with_key(words):
    if not words:
        return None
    return sorted(words, key=len), max(words, key=lambda w: (len(w), w)), min(words)


def _describe(*args, sep="-", **kwargs):
    if kwargs:
        return sep.join(map(str, args)) + "|" + ",".join(f"{k}={v}" for k, v in sorted(kwargs.items()))
    return sep.join(map(str, args))


@cases(((1, 2), {}), ((), {"a": 1}), ((3,), {"sep": "+", "b": 2}))
def forward_star_args(args, kwargs):
    return _describe(*args, **kwargs), _describe(0, *args, sep="/")


def _power(base, exp):
    result = 1
    for _ in range(exp):
        result *= base
    return result


case("partial_entity", functools.partial(_power, exp=3), [(2,), (0,), (-1,), call(2, exp=2)])
case("partial_positional", functools.partial(_power, 10), [(0,), (3,), ("x",)])


@cases(([1, 2, 3],), ([],))
def calls_partial(xs):
    square = functools.partial(_power, exp=2)
    total = 0
    for x in xs:
        total += square(x)
    return total


class Polynomial:
    def __init__(self, *coeffs):
        self.coeffs = coeffs

    def __call__(self, x):
        total = 0
        for c in reversed(self.coeffs):
            total = total * x + c
        return total


case("callable_object", Polynomial(1, 0, 2), [(0,), (3,), (-1.5,), ("a",)])


@cases((2,), (0,))
def calls_callable_object(x):
    p = Polynomial(1, 1)
    q = Polynomial()
    return p(x), q(x)


@cases((lambda v: v * 2, [1, 2]), (abs, [-1, 2]), (str.upper, ["a"]), (len, [1]))
def higher_order(fn, xs):
    out = []
    for x in xs:
        out.append(fn(x))
    return out


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        print("calling", fn.__name__)
        result = fn(*args, **kwargs)
        print("returned", result)
        return result

    return wrapper


@logged
def _decorated_helper(n):
    if n < 0:
        return "negative"
    return "non-negative"


case("decorated_entity", _decorated_helper, [(1,), (-1,)])


@cases((2,), (-2,))
def calls_decorated(n):
    return _decorated_helper(n) + "!"


def _cache_key(n):
    return n % 3


@functools.lru_cache(maxsize=None)
def _cached_square(n):
    return n * n


@cases(([1, 2, 1],), ([],))
def calls_lru_cached(xs):
    return [_cached_square(x) for x in xs] + [_cached_square(_cache_key(len(xs)))]


_SHARED_DEFAULT = []


def _reset_shared_default():
    _SHARED_DEFAULT.clear()


@cases((1,), (2,), reset=_reset_shared_default, observe=lambda: list(_SHARED_DEFAULT))
def mutable_default(x, acc=_SHARED_DEFAULT):
    if x > 1:
        acc.append(x)
    acc.append(-x)
    return len(acc)


@cases(call(1, 2), call(1, 2, 3), call(1, b=5, scale=2), call(1), call(1, 2, scale="x"))
def keyword_only(a, b=0, *rest, scale=1):
    total = a + b
    for r in rest:
        total += r
    return total * scale


@cases((1, 2), call(1, y=2), call(x=1, y=2))
def positional_only(x, /, y):
    if x < y:
        return y - x
    return x - y


class Vector:
    def __init__(self, x, y):
        if not isinstance(x, (int, float)):
            raise TypeError("x must be a number")
        self.x, self.y = x, y

    def __eq__(self, other):
        return isinstance(other, Vector) and (self.x, self.y) == (other.x, other.y)

    def __repr__(self):
        return f"Vector({self.x}, {self.y})"


@cases((1, 2), ("a", 2))
def calls_constructor(x, y):
    v = Vector(x, y)
    return v, v.x + v.y


@cases((range(3),), ([],))
def star_generator_call(xs):
    return max(0, *(x * 2 for x in xs))


@cases(("a",), ("b",))
def print_keywords(x):
    print(x, "y", sep="|", end="!\n")
    print("to stdout", file=sys.stdout)
    return None


@cases(("a,b,,c",), ("",))
def method_calls_on_builtins(s):
    parts = s.split(",")
    kept = []
    for p in parts:
        if p.strip():
            kept.append(p.upper())
    return "+".join(kept), s.count(",")


def _returns_helper(flag):
    if flag:
        return _clip
    return _power


@cases((True,), (False,))
def call_returned_function(flag):
    fn = _returns_helper(flag)
    return fn(5, 2)


def _raiser(x):
    if x == 0:
        raise ValueError("zero is not allowed")
    return 1 / x


@cases((2,), (0,))
def exception_from_helper(x):
    return _raiser(x) * 2


@cases((3,), (0,))
def calls_in_arguments(n):
    return _power(_clip(n, 2), _clip(n + 1, 3))


def _gen_helper(n):
    for i in range(n):
        if i % 2:
            yield i


@cases((6,), (0,))
def calls_generator_function(n):
    return list(_gen_helper(n)), sum(_gen_helper(n))


@cases((3,), call(3, range=lambda k: ["custom", k]))
def parameter_shadows_range(n, range=range):
    out = []
    for i in range(n):
        out.append(i)
    return out


@cases(([1, 2],), ([],))
def local_shadows_len_and_print(xs):
    def len(seq):
        return "my len"

    def print(*args):
        return "my print"

    if xs:
        return len(xs), print("x")
    return len(xs)


def _squares(n):
    for i in range(n):
        if i % 2:
            continue
        yield i * i
    return "done"


case("generator_entity", _squares, [(5,), (0,)])


@cases(("x",),)
def enumerate_and_zip_builtins(s):
    out = []
    for i, (a, b) in enumerate(zip(s, reversed(s))):
        out.append((i, a, b))
    return out, isinstance(s, (str, bytes)), callable(s)


_builtin_range = range


def _count_down(*args):
    return list(reversed(_builtin_range(*args)))


def _install_shadows():
    globals()["range"] = _count_down
    globals()["len"] = lambda xs: 2


def _remove_shadows():
    globals().pop("range", None)
    globals().pop("len", None)


@cases(([5, 6, 7], False), ([5, 6, 7], True), ([], True))
def builtins_looked_up_at_call_time(xs, shadow):
    if shadow:
        _install_shadows()
    try:
        seen = []
        for i in range(len(xs)):
            if i > 0:
                seen.append(i)
        return seen
    finally:
        _remove_shadows()


@cases((4,), (0,))
def range_passed_as_a_value(n):
    fn, count, pair = range, enumerate, zip
    total = 0
    for k, (i, j) in count(pair(fn(n), fn(1, n + 1))):
        if i % 2:
            total += k * j
    return total
