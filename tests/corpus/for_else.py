# ruff: noqa  (user code as people write it, lint findings included)
"""for ... else and while ... else, with and without break."""

from . import cases


@cases(([1, 2, 3], 2), ([1, 2, 3], 7), ([], 0))
def find_with_else(xs, target):
    for i, x in enumerate(xs):
        if x == target:
            result = i
            break
    else:
        result = -1
    return result


@cases((2,), (9,), (17,), (1,), (25,))
def is_prime(n):
    if n < 2:
        return False
    for d in range(2, n):
        if d * d > n:
            break
        if n % d == 0:
            return False
    else:
        print("checked every divisor")
    return True


@cases((3,), (0,))
def while_else_no_break(n):
    while n > 0:
        n -= 1
    else:
        print("loop ended normally")
    return n


@cases((10,), (2,))
def while_else_with_break(n):
    i = 0
    while i < n:
        if i == 5:
            print("break")
            break
        i += 1
    else:
        print("else")
        i = -i
    return i


@cases(([],), ([1],))
def for_else_empty(xs):
    for x in xs:
        pass
    else:
        return "else ran"
    return "not reached"


@cases(([1, 2, 3],), ([],))
def for_else_with_continue(xs):
    kept = []
    for x in xs:
        if x == 2:
            continue
        kept.append(x)
    else:
        kept.append("end")
    return kept


@cases(([[1, 2], [3, 4]], 4), ([[1, 2], [3, 4]], 5))
def nested_for_else_break_outer(grid, target):
    # The classic idiom: else: continue + break leaves both loops.
    pos = None
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if v == target:
                pos = (r, c)
                break
        else:
            continue
        break
    return pos


@cases((3,), (7,), (0,))
def while_else_return_in_body(n):
    i = 0
    while i < n:
        if i == 4:
            return "returned"
        i += 1
    else:
        return "else"


@cases(([1, 2],), ([1, 3],))
def for_else_raises(xs):
    for x in xs:
        if x == 3:
            break
    else:
        raise LookupError("no 3 in " + repr(xs))
    return "found"


@cases(([1, 2, 3],), ([4, 5],), ([],))
def for_else_uses_loop_var(xs):
    for x in xs:
        if x > 3:
            break
    else:
        return "completed", x
    return "broke", x


@cases((5,), (0,))
def while_else_modifies(n):
    acc = []
    while n:
        acc.append(n)
        n -= 1
    else:
        acc.append("done")
        n = 100
    return acc, n


@cases(([[1, 2], [], [3]],), ([],))
def nested_else_both(groups):
    log = []
    for g in groups:
        for x in g:
            log.append(x)
        else:
            log.append("inner done")
    else:
        log.append("outer done")
    return log


@cases((12,), (13,))
def for_else_in_while(n):
    factors = []
    while n > 1:
        for d in range(2, n + 1):
            if n % d == 0:
                factors.append(d)
                n //= d
                break
        else:
            break
    return factors
