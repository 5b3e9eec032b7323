# ruff: noqa  (user code as people write it, lint findings included)
"""break and continue in for and while loops."""

from . import cases


@cases(([3, -1, 4, -5],), ([1, 2],), ([],), ([-7],))
def first_negative(xs):
    found = None
    for x in xs:
        if x < 0:
            found = x
            break
    return found


@cases(([1, 2, 3, 4, 5],), ([],), ([1, 3],))
def sum_evens(xs):
    total = 0
    for x in xs:
        if x % 2:
            continue
        total += x
    return total


@cases((10,), (0,), (100,))
def while_break(n):
    i = 0
    while i < n:
        if i * i > 20:
            break
        i += 1
    return i


@cases((10,), (0,), (3,))
def while_continue(n):
    i = 0
    odds = []
    while i < n:
        i += 1
        if i % 2 == 0:
            continue
        odds.append(i)
    return odds


@cases(([1, 2, 3, 10, 4],), ([5, 5],), ([],))
def break_in_nested_if(xs):
    acc = 0
    for x in xs:
        if x > 2:
            if x > 5:
                break
            acc += 10
        acc += x
    return acc


@cases(([1, 0, 2, -1, 3],), ([0, 0],), ([-1],))
def continue_then_break(xs):
    out = []
    for x in xs:
        if x == 0:
            continue
        if x < 0:
            break
        out.append(x)
    return out


@cases((7,), (1,), (30,))
def while_true_break(n):
    k = 0
    while True:
        k += 1
        if k * 3 >= n:
            break
    return k


@cases(([1, 2, 0, 4],), ([],), ([5],))
def loop_var_after_break(xs):
    i = -1
    for i, x in enumerate(xs):
        if x == 0:
            break
    return i


@cases(([1, 2, 3],), ([],))
def continue_at_end(xs):
    out = []
    for x in xs:
        out.append(x)
        continue
    return out


@cases(([4, 5, 6],), ([],))
def break_at_start(xs):
    n = 0
    for x in xs:
        break
    else:
        n = -1
    return n


@cases(("a1b2c3",), ("abc",), ("",), ("12x",))
def digits_until_letter(s):
    digits = ""
    for ch in s:
        if ch.isalpha():
            if digits:
                break
            continue
        digits += ch
    return digits


@cases(([1, 2, 3, 4, 5, 6],), ([1],))
def several_continues(xs):
    kept = []
    for x in xs:
        if x == 2:
            continue
        elif x == 4:
            continue
        if x > 5:
            continue
        kept.append(x)
    return kept


@cases((20,), (5,), (1,))
def while_with_break_and_continue(limit):
    n = 0
    seen = []
    while n < limit:
        n += 1
        if n % 3 == 0:
            continue
        if n > 10:
            break
        seen.append(n)
    return seen, n


@cases(([1, 2, 3],), ([],))
def break_in_else_branch(xs):
    count = 0
    for x in xs:
        if x < 2:
            count += 1
        else:
            break
    return count


@cases(([1, "a", 2],), ([],))
def break_after_exception_caught(xs):
    total = 0
    for x in xs:
        try:
            total += x
        except TypeError:
            break
    return total
