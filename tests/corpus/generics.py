# ruff: noqa  (user code as people write it; PEP 695 syntax needs Python 3.12+)
"""Generic functions and classes (``def f[T](...)``): their code lives inside the
scope Python makes for the type parameters."""

from . import cases


@cases(([-1, 2, 3],), ([-1, -2],), ([],))
def first_positive[T](xs: list[T]) -> T | None:
    for x in xs:
        if x > 0:
            return x
    return None


class Box[T]:
    def __init__(self, items: list[T]) -> None:
        self.items = items

    def largest(self) -> T | None:
        best = None
        for item in self.items:
            if best is None or item > best:
                best = item
        return best


@cases(([3, 9, 2],), ([],))
def box_largest(items):
    return Box(items).largest()
