# ruff: noqa  (user code as people write it, lint findings included)
"""Lambdas as entities and inside converted functions."""

from . import case, cases

square = lambda x: x * x  # noqa: E731
sign = lambda x: 1 if x > 0 else (-1 if x < 0 else 0)  # noqa: E731
first_truthy = lambda a, b: a or b  # noqa: E731
scaled = lambda x, k=2: x * k  # noqa: E731
in_range = lambda x: 0 <= x < 10  # noqa: E731
variadic = lambda *args, **kwargs: (len(args), sorted(kwargs))  # noqa: E731
inc, dec = (lambda x: x + 1), (lambda x: x - 1)  # noqa: E731
multi_line = lambda x: (  # noqa: E731
    x * 2
    if x > 5
    else x
)
not_none = lambda x: x is not None and not x == 0  # noqa: E731

case("square", square, [(3,), (-2.5,), ("a",)])
case("sign", sign, [(4,), (-4,), (0,)])
case("first_truthy", first_truthy, [(0, 3), (2, 3), ("", None)])
case("default_arg", scaled, [(3,), (3, 5)])
case("chained_comparison", in_range, [(5,), (10,), (-1,)])
case("variadic", variadic, [(), (1, 2), (1,)])
case("two_on_one_line_inc", inc, [(1,)])
case("two_on_one_line_dec", dec, [(1,)])
case("multi_line", multi_line, [(1,), (9,)])
case("not_and", not_none, [(None,), (0,), (3,)])


def _make_adder(n):
    return lambda x: x + n if n else x


case("lambda_closure", inputs=[(1,), (-1,)], factory=lambda: _make_adder(10))


@cases(([3, -1, 2],), ([],))
def sort_with_lambda(xs):
    return sorted(xs, key=lambda v: (v < 0, -v if v > 0 else v))


@cases((3,), (0,))
def lambda_returned_and_called(n):
    f = (lambda k: lambda x: x * k)(n)
    return f(5)


@cases(("add", 2, 3), ("sub", 2, 3), ("mul", 2, 3))
def dispatch_table(op, a, b):
    table = {
        "add": lambda x, y: x + y,
        "sub": lambda x, y: x - y,
    }
    if op in table:
        return table[op](a, b)
    raise KeyError(op)


@cases(([1, 2, 3, 4],), ([],))
def lambda_with_filter_map(xs):
    evens = list(filter(lambda v: v % 2 == 0, xs))
    return list(map(lambda v: v if v > 2 else -v, evens))


def _helper(x):
    if x > 0:
        return "pos"
    return "non-pos"


@cases(([1, -1],),)
def lambda_calls_helper(xs):
    f = lambda v: _helper(v) + "!"  # noqa: E731
    return [f(x) for x in xs]


@cases((4,),)
def lambdas_in_loop(n):
    fs = []
    for i in range(n):
        fs.append(lambda x, i=i: x + i)
    total = 0
    for f in fs:
        total += f(10)
    return total


# Lambdas that do not start their statement: continuation lines, dict literals,
# several on one line (told apart by where their bodies are, or by their code).
def _pair(*fs):
    return fs


continued = _pair(lambda f: f,
                  lambda x: x + 1 if x > 0 else -x)
by_key = {
    "triple": lambda x: x * 3 if x else None,
    "neg": lambda x: -x,
}
same_params = (lambda x: x + 1, lambda x: x + 2 if x else 0)
identical = (lambda x: x or 1, lambda x: x or 1)
nested_lambda = lambda k: (lambda x: x * k if k else x)  # noqa: E731

case("continuation_first", continued[0], [(4,)])
case("continuation_second", continued[1], [(4,), (-2,)])
case("dict_value_triple", by_key["triple"], [(2,), (0,)])
case("dict_value_neg", by_key["neg"], [(2,)])
case("same_line_first", same_params[0], [(1,)])
case("same_line_second", same_params[1], [(1,), (0,)])
case("identical_text", identical[1], [(0,), (5,)])
case("inner_of_nested", nested_lambda(3), [(2,)])
