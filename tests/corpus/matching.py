# ruff: noqa  (user code as people write it, lint findings included)
"""match statements (Python 3.10+), kept as they are by the converter."""

from . import cases


@cases((0,), (1,), (2,), (7,), ("x",))
def match_literal(x):
    match x:
        case 0:
            return "zero"
        case 1 | 2:
            return "small"
        case int():
            return "int"
        case _:
            return "other"


@cases(((1, 2),), ([1, 2, 3],), ({"kind": "pt", "x": 1},), ((),), (None,))
def match_structure(v):
    match v:
        case (a, b):
            result = a + b
        case [first, *rest]:
            result = first * len(rest)
        case {"kind": "pt", "x": x}:
            result = f"point {x}"
        case _:
            result = None
    return result


@cases(([1, -2, 3, 0],), ([],))
def match_in_loop(xs):
    out = []
    for x in xs:
        match x:
            case 0:
                break
            case n if n < 0:
                continue
            case n:
                out.append(n)
    return out
