"""Two mechanisms real code needed (statistics.NormalDist, the fourth real-code round).

(a) A user's class constructed in a staged function runs its converted ``__init__``:
validation and branches on staged arguments stage as a method's do (they ran as
plain Python before, and asked a symbolic value for a bool). A subclass's
``super().__init__``, ``__slots__`` and a dataclass's generated ``__init__`` (no
source: called as it is) keep working.
(b) A comparison of two tuple displays, ``(y.sigma, y.mu) < (x.sigma, x.mu)``: Python
compares the items pair by pair, asking each ``==`` for a bool; with staged items the
first pair that differs decides (with the operator itself), else the lengths do.
"""

import dataclasses

import numpy as np


class Clamped:
    __slots__ = ("value", "clipped")

    def __init__(self, value, low=0.0):
        if value < low:
            value = low
            self.clipped = True
        else:
            self.clipped = False
        self.value = value * 1.0


class Doubled(Clamped):
    def __init__(self, value):
        super().__init__(value * 2)


@dataclasses.dataclass
class Pair:
    a: object
    b: object


def construct(x):
    c, d = Clamped(x), Doubled(x - 1)
    p = Pair(c.value, d.value)
    return p.a, p.b, c.clipped, d.clipped


def test_a_constructor_stages_its_branches(backend):
    for x in (np.float64(2.0), np.float64(-1.0), np.float64(0.75)):
        backend.check(construct, x)


def compare_pairs(a, b, c, d):
    if (a, b) < (c, d):
        first = a - c
    else:
        first = b - d
    return (first, (a, b) <= (c, d), (a, b) > (c, d), (a, b) >= (c, d), (a, b) == (c, d),
            (a, b) != (c, d), (a, b, 1.0) < (c, d), [a] >= [c])


def test_tuple_displays_compare_item_by_item(backend):
    for values in ((1.0, 2.0, 1.0, 3.0), (1.0, 3.0, 1.0, 2.0), (1.0, 2.0, 1.0, 2.0),
                   (0.0, 5.0, 1.0, 0.0), (np.nan, 1.0, np.nan, 2.0), (2.0, np.nan, 2.0, np.nan)):
        backend.check(compare_pairs, *(np.float64(v) for v in values))


def same_object(a, b):
    return (a, b) < (a, b + 1.0), (a, b) == (a, b)


def test_an_item_that_is_one_object_is_equal_as_in_python(backend):
    backend.check(same_object, np.float64(np.nan), np.float64(1.0))
