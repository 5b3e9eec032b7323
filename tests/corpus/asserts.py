# ruff: noqa  (user code as people write it, lint findings included)
"""assert, with and without a message."""

from . import cases


@cases((1,), (0,), (-2,))
def assert_positive(x):
    assert x > 0
    return x


@cases((3,), (-3,))
def assert_with_message(x):
    assert x >= 0, f"expected non-negative, got {x}"
    return x ** 0.5


def _expensive_message(x):
    print("building message")
    return "bad value " + str(x)


@cases((1,), (0,))
def message_only_on_failure(x):
    assert x, _expensive_message(x)
    return "ok"


@cases(([1, 2, 3],), ([1, -1, 2],), ([],))
def assert_in_loop(xs):
    total = 0
    for x in xs:
        assert x > 0, "negative item"
        total += x
    return total


@cases(([1],), ([],), ("x",))
def assert_truthy_object(v):
    assert v
    return len(v)


@cases((5,), (-5,))
def assert_non_string_message(x):
    assert x > 0, ["not positive", x]
    return x


@cases((1, 2), (0, 2), (1, 0))
def assert_compound_condition(a, b):
    assert a and b or a is None, "a and b must both be set"
    return a + b


@cases((5,), (50,))
def assert_chained(x):
    assert 0 < x < 10, "out of range"
    return x


@cases(({"a": 1},), ({},))
def assert_after_branch(d):
    if "a" in d:
        value = d["a"]
    else:
        value = None
    assert value is not None, "missing key a"
    return value
