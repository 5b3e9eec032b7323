# ruff: noqa  (user code as people write it, lint findings included)
"""Code the converter keeps as it is: try/except, with, comprehensions,
generators, global, del, walrus, f-strings, nonlocal, async, class bodies."""

import contextlib

from . import cases


@cases((2,), (0,), ("x",))
def try_except(x):
    try:
        result = 10 / x
    except ZeroDivisionError:
        result = None
    except TypeError as e:
        result = "type error: " + str(e)
    return result


@cases((1,), (0,), (-1,))
def try_except_else_finally(x):
    log = []
    try:
        if x < 0:
            raise ValueError("negative")
        log.append(1 // x)
    except ZeroDivisionError:
        log.append("zero")
    else:
        log.append("else")
    finally:
        log.append("finally")
    return log


@cases(([1, 0, 2, "a", 3],), ([],))
def try_in_loop(xs):
    out = []
    for x in xs:
        try:
            if x == 3:
                break
            out.append(6 // x)
        except ZeroDivisionError:
            continue
        except TypeError:
            out.append("bad")
    return out


@cases((0,), (1,))
def raise_from(x):
    try:
        return [1][x]
    except IndexError as e:
        raise KeyError("wrapped") from e


@cases((0,), (1,))
def exception_variable_cleared(x):
    try:
        if x:
            raise ValueError("boom")
    except ValueError as e:
        print("caught", e)
    return e


class Tracker:
    def __init__(self, name, suppress=False):
        self.name = name
        self.suppress = suppress

    def __enter__(self):
        print("enter", self.name)
        return self

    def __exit__(self, exc_type, exc, tb):
        print("exit", self.name, exc_type.__name__ if exc_type else None)
        return self.suppress


@cases((1,), (0,))
def with_statement(x):
    with Tracker("a") as t, Tracker("b"):
        if x:
            print("body", t.name)
        else:
            print("body else")
    return t.name


@cases((1,), (0,))
def with_suppresses(x):
    with Tracker("s", suppress=True):
        if not x:
            raise RuntimeError("swallowed")
        print("after raise")
    return "done"


@cases((3,), (0,))
def contextlib_usage(n):
    @contextlib.contextmanager
    def section(name):
        print("begin", name)
        yield name.upper()
        print("end", name)

    out = []
    for i in range(n):
        with section(f"s{i}") as s:
            if i == 1:
                continue
            out.append(s)
    return out


@cases(([1, 2, 3, 4],), ([],))
def comprehensions(xs):
    evens = [x for x in xs if x % 2 == 0]
    squares = {x: x * x for x in xs if x > 1}
    unique = {x % 3 for x in xs}
    nested = [(a, b) for a in xs for b in xs if a < b]
    total = sum(x for x in xs if x != 2)
    return evens, squares, unique, nested, total


@cases((3,), (0,))
def comprehension_with_ternary_and_walrus(n):
    values = [y for x in range(n) if (y := x * 3) % 2 == 0]
    return values, [("big" if v > 3 else "small") for v in values]


def _countdown(n):
    print("start")
    while n > 0:
        yield n
        n -= 1
    print("stop")


@cases((3,), (0,))
def consume_generator(n):
    out = []
    for v in _countdown(n):
        print("got", v)
        out.append(v)
    return out


def _delegating(n):
    yield "first"
    yield from _countdown(n)
    return "result"


@cases((2,),)
def yield_from_generator(n):
    gen = _delegating(n)
    items = []
    while True:
        try:
            items.append(next(gen))
        except StopIteration as stop:
            items.append(stop.value)
            break
    return items


def _echo():
    received = []
    while True:
        value = yield len(received)
        if value is None:
            return received
        received.append(value)


@cases((["a", "b"],), ([],))
def generator_send(values):
    g = _echo()
    next(g)
    for v in values:
        g.send(v)
    try:
        g.send(None)
    except StopIteration as e:
        return e.value


TOTAL = 0


def _reset_total():
    global TOTAL
    TOTAL = 0


@cases((3,), (0,), (-1,), reset=_reset_total, observe=lambda: TOTAL)
def global_statement(n):
    global TOTAL
    for i in range(n):
        if i % 2 == 0:
            TOTAL += i
    if n < 0:
        TOTAL = -100
    return TOTAL


@cases(([1, 2, 3, 4],), ([],))
def del_statement(xs):
    ys = list(xs)
    if ys:
        del ys[0]
    tmp = len(ys)
    del tmp
    d = {"a": 1, "b": 2}
    del d["a"]
    return ys, d


@cases((1,), (0,))
def del_then_read(x):
    y = 5
    if x:
        del y
    return y


@cases(([1, 5, 12, 3],), ([],))
def walrus_in_while(xs):
    it = iter(xs)
    seen = []
    while (x := next(it, None)) is not None:
        if (big := x > 4):
            seen.append((x, big))
    return seen


@cases((3.14159, "pi"), (2, "two"), (-1.5, "n"))
def fstrings(value, name):
    width = 10
    return f"{name!r:>{width}}|{value:.2f}|{value * 2=}|{'neg' if value < 0 else 'pos'}|{{literal}}"


@cases((3,),)
def nonlocal_in_nested(n):
    hits = 0

    def hit():
        nonlocal hits
        hits += 1

    for _ in range(n):
        hit()
    return hits


@cases(([1, 2, 3],), ([],))
def star_expressions(xs):
    first, *rest = xs or [None]
    merged = [*xs, *rest]
    d = {**{"a": 1}, **{"b": len(xs)}}
    return first, rest, merged, d


@cases(([1, 2, 3, 4, 5],),)
def slicing_and_augmented(xs):
    xs[1:3] = [0]
    xs[-1] += 100
    obj = type("Obj", (), {})()
    obj.count = 1
    obj.count *= 7
    return xs, xs[::-1], obj.count


@cases((2,),)
def chained_assignment(n):
    a = b = []
    a.append(n)
    x, y = y, x = 1, 2
    return a is b, b, x, y


@cases((3,), (-1,))
def class_in_function(n):
    class Local:
        size = n if n > 0 else 0

        def grow(self):
            for _ in range(2):
                self.size += 1
            return self.size

    return Local().grow()


@cases((3,), (0,))
def async_coroutine(n):
    async def add_up(k):
        total = 0
        for i in range(k):
            total += i
        return total

    coro = add_up(n)
    try:
        coro.send(None)
    except StopIteration as e:
        return e.value


@cases((1,), (0,))
def lambda_and_default_in_body(x):
    def inner(a, b=x or 5):
        return a + b

    return inner(1)


@cases(([3, 1, 2],), ([],))
def try_finally_return_override(xs):
    try:
        return sorted(xs)
    finally:
        if not xs:
            print("empty input")


@cases((2,), (0,))
def type_annotations(n: int) -> list:
    out: list[int] = []
    count: int
    for i in range(n):
        out.append(i)
    return out


@cases(([1, 2, 0, 5],), ([1, 2],), ([0],))
def exception_midway_keeps_partial_loop_state(xs):
    total = 0
    count = 0
    try:
        for x in xs:
            count += 1
            total += 10 // x
    except ZeroDivisionError:
        pass
    return total, count


@cases((5,), (0,))
def exception_midway_in_while(n):
    i = 0
    acc = []
    try:
        while i < n:
            acc.append(i)
            i += 1
            if i == 3:
                raise RuntimeError("stop")
    except RuntimeError as e:
        acc.append(str(e))
    return i, acc


@cases((1,), (0,))
def exception_after_branch_assignment(x):
    result = "initial"
    try:
        if x:
            result = "assigned"
            raise ValueError("after assignment")
    except ValueError:
        pass
    return result


def _checked(v):
    if v < 0:
        raise ValueError("negative")
    return v


@cases(([1, 2, -1, 4],), ([3],))
def exception_from_helper_in_loop(xs):
    seen = []
    last = None
    try:
        for x in xs:
            last = _checked(x)
            seen.append(last)
    except ValueError:
        seen.append("error")
    return seen, last
