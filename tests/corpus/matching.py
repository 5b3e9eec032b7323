# ruff: noqa  (user code as people write it, lint findings included)
"""match statements (Python 3.10+). Those whose patterns only compare values
(literals, dotted names, None/True/False, |, as, captures, _, guards) become if
chains in the staged body; a match with a sequence, mapping or class pattern in any
case is kept whole."""

import enum
import math

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


# --- converted: value patterns -------------------------------------------------


@cases((0,), (1,), (-1,), (2.5,), (-1.5,), (1 + 2j,), ("s",), (b"b",), ("ab",), (None,), ([],))
def match_literals(x):
    match x:
        case 0:
            return "zero"
        case -1:
            return "minus one"
        case -1.5:
            return "minus one and a half"
        case 2.5 | 1 + 2j:
            return "float or complex"
        case "s":
            return "string"
        case "a" "b":
            return "joined string"
        case b"b":
            return "bytes"
    return "none of them"


@cases((None,), (True,), (False,), (1,), (0,), (1.0,), (0.0,), ("",))
def match_singletons(x):
    # None/True/False compare by identity; 1 == True and 0 == False by value
    match x:
        case None:
            return "None"
        case True:
            return "True"
        case False:
            return "False"
        case 1:
            return "one"
        case 0:
            return "zero"
        case _:
            return "other"


class Color(enum.Enum):
    RED = 1
    GREEN = 2
    BLUE = 3


class Limits:
    LOW = 0
    HIGH = 10


@cases((Color.RED,), (Color.GREEN,), (Color.BLUE,), (1,), (0,), (10,), (math.pi,), (5,))
def match_dotted_values(x):
    match x:
        case Color.RED:
            return "red"
        case Color.GREEN | Color.BLUE:
            return "green or blue"
        case Limits.LOW | Limits.HIGH:
            return "limit"
        case math.pi:
            return "pi"
    return None


@cases((1,), (2,), (3,), (4,), ("x",))
def match_or_as(x):
    match x:
        case (1 | 2) as small:
            return ("small", small)
        case (3 as n) | (4 as n):
            return ("three or four", n)
        case other:
            return ("other", other)


@cases((5,), (50,), (-3,), (0,))
def match_capture_and_guards(x):
    match x:
        case 0:
            kind = "zero"
        case n if n < 0:
            kind = "negative"
        case n if n > 10:
            kind = "big"
        case n:
            kind = "small"
    return kind, n if x != 0 else None


@cases((1,), (2,), (3,), (9,))
def match_failed_guard_keeps_binding(x):
    # Python binds the names of a pattern before its guard and keeps them bound
    # when the guard fails.
    match x:
        case (1 as n) | (2 as n) if n > 1:
            where = "guarded"
        case 3 as m if False:
            where = "never"
        case _:
            where = "wildcard"
    try:
        bound_n = n
    except UnboundLocalError:
        bound_n = "unbound"
    try:
        bound_m = m
    except UnboundLocalError:
        bound_m = "unbound"
    return where, bound_n, bound_m


@cases((1,), (2,), (3,))
def match_failed_guard_then_read(x):
    match x:
        case (1 as n) | (2 as n) if n > 1:
            return "guarded"
        case _:
            return n  # UnboundLocalError for 3: no pattern bound n


@cases((1,), (2,), (7,))
def match_guard_without_bindings(x):
    seen = []
    match x:
        case 1 if seen.append("guard 1") or True:
            seen.append("case 1")
        case 1 | 2 if seen.append("guard 2"):
            seen.append("case 2, never: the guard is None")
        case 2 | 7:
            seen.append("case 2 or 7")
    return seen


class Logged:
    """A subject whose comparisons and their truth print: the order of calls is
    part of what a match does."""

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        print("eq", self.value, other)
        return Truth(self.value == other)

    __hash__ = None


class Truth:
    def __init__(self, value):
        self.value = value

    def __bool__(self):
        print("bool", self.value)
        return self.value


@cases((1,), (2,), (3,), (4,), (5,), (6,))
def match_call_order(x):
    match Logged(x):
        case 1 | 2:
            return "one or two"
        case (3 as n) | (6 as n) if print("guard", n.value) or n.value > 3:
            return "six: 3 fails its guard"
        case 4 | 5 | _:
            return "four, five or anything"


def _subject(value):
    print("subject evaluated")
    return value


@cases((1,), (2,), (3,))
def match_subject_evaluated_once(x):
    match _subject(x):
        case 1:
            return "one"
        case 2:
            return "two"
    return "none"


@cases((1,), (2,), (5,))
def match_guard_reassigns_subject_name(x):
    match x:
        case 1 if (x := 2) == 3:  # the subject stays what it was
            return "never"
        case 2:
            return ("two", x)
        case 1:
            return ("one", x)
    return ("none", x)


@cases(([0, 1, 2, 3, 4, 5, -1, 6],), ([],))
def match_jumps_in_loop(xs):
    out = []
    for x in xs:
        match x:
            case 0:
                continue
            case -1:
                break
            case n if n % 2 == 0:
                out.append(("even", n))
                continue
            case 5:
                return out, "five"
            case n:
                out.append(n)
        out.append("after")
    else:
        out.append("no break")
    return out, None


@cases((0,), (3,), (10,))
def match_in_while(n):
    steps = []
    while n < 6:
        match n % 3:
            case 0:
                n += 1
                steps.append("a")
            case 1 | 2 as r if r == 2:
                n += 2
                steps.append("b")
            case _:
                n += 3
                steps.append("c")
    return steps, n


@cases((1, "a"), (1, "b"), (2, "a"), (3, "z"))
def match_nested(x, y):
    match x:
        case 1:
            match y:
                case "a":
                    r = "1a"
                case _:
                    r = "1?"
        case 2:
            r = "2"
        case _:
            r = None
    return r


@cases((1,), (2,), (3,))
def match_no_case_taken(x):
    match x:
        case 1:
            y = "one"
        case 2:
            y = "two"
    return y  # UnboundLocalError for 3


@cases((1,), (2,))
def match_in_try_finally(x):
    log = []
    try:
        match x:
            case 1:
                return "one", log
            case _:
                log.append("other")
    finally:
        log.append("finally")
    return "end", log


@cases((1,), (2,), (3,))
def match_capture_in_closure(x):
    match x:
        case 1 | 2 as n:
            get = lambda: n * 10
        case n:
            get = lambda: -n
    return get()


_captured = None


def _reset_captured():
    global _captured
    _captured = None


@cases((1,), (2,), reset=_reset_captured, observe=lambda: _captured)
def match_binds_global(x):
    global _captured
    match x:
        case 1 as _captured:
            return "bound"
        case _:
            return "not bound"


# --- kept as they are: sequence, mapping and class patterns ------------------


class Point:
    __match_args__ = ("x", "y")

    def __init__(self, x, y):
        self.x, self.y = x, y


@cases((Point(0, 0),), (Point(0, 5),), (Point(1, 2),), ((0, 0),), (1,), ([1, 2, 3],), ({"x": 1},))
def match_class_patterns(p):
    match p:
        case 1:  # a value pattern beside class patterns: the whole match stays
            return "one"
        case Point(0, 0):
            return "origin"
        case Point(x=0, y=y):
            return f"on the y axis at {y}"
        case Point(x, y) if x == y:
            return "diagonal"
        case Point():
            return "somewhere"
        case [a, *rest] if rest:
            return ("sequence", a, rest)
        case {"x": x, **others}:
            return ("mapping", x, others)
        case (0, 0):
            return "tuple origin"
    return "nothing"


@cases(((1, 2),), ((1,),), ([3, 4],), ("ab",))
def match_sequence_failed_guard(v):
    match v:
        case (a, b) if a > b:
            return "descending"
        case _:
            return ("fell through with", a, b)  # bound by the failed guard's pattern


@cases((0,), (1,), (2.0,), ("s",), (True,))
def match_builtin_classes(x):
    match x:
        case bool():
            return "bool"
        case int(n) if n > 0:
            return ("positive int", n)
        case int() | float():
            return "number"
        case str(s):
            return ("str", s)
