# ruff: noqa  (user code as people write it, lint findings included)
"""Branches that always leave (return, raise, break, continue) followed by more
statements: the converter moves those statements into the other branch."""

from . import cases


@cases((5,), (-5,), (0,), (50,))
def else_branch_returns(x):
    if x >= 0:
        y = x * 2
    else:
        return "negative"
    if y > 20:
        return "big"
    y += 1
    return y


@cases((3,), (-3,), (0,))
def raise_then_rest(x):
    if x < 0:
        raise ValueError(f"negative: {x}")
    y = x + 1
    return y


@cases(([1, -2, 3, None, 5],), ([],), ([None],), ([-1, -2],))
def elif_chain_of_exits(xs):
    out = []
    for x in xs:
        if x is None:
            break
        elif x < 0:
            continue
        elif x > 4:
            out.append("big")
            continue
        out.append(x)
    else:
        out.append("done")
    return out


@cases(([1, 2, 3],), ([4, -1, 2],), ([],))
def continue_in_else_tail(xs):
    total = 0
    for x in xs:
        if x > 0:
            total += x
        else:
            total -= 100
            continue
    return total


@cases((0,), (1,), (2,), (3,))
def both_branches_leave_rest_unreachable(x):
    for i in range(3):
        if i == x:
            return "hit"
        else:
            continue
        print("never")
    return "miss"


@cases((1,), (-1,), (7,))
def exit_inside_try(x):
    log = []
    try:
        if x < 0:
            log.append("neg")
            return log
        log.append("pos")
        if x > 5:
            raise KeyError(x)
        log.append("small")
    except KeyError:
        log.append("caught")
    finally:
        log.append("finally")
    log.append("after")
    return log


@cases(([3, 0, 2],), ([0, 0],), ([],))
def while_with_tail_continue_and_else(xs):
    i = 0
    seen = []
    while i < len(xs):
        i += 1
        if xs[i - 1] == 0:
            seen.append("zero")
            continue
        seen.append(xs[i - 1])
        continue
    else:
        seen.append("end")
    return seen, i


@cases((2,), (15,), (-4,), (0,))
def nested_exits_in_both_levels(x):
    if x > 0:
        if x > 10:
            return "large"
        x = x * 3
        if x % 2:
            return "odd"
    elif x < 0:
        raise ArithmeticError("below zero")
    x = x - 1
    return x


@cases((5,), (0,))
def printing_around_exits(n):
    for i in range(n):
        print("top", i)
        if i % 2:
            print("odd, skipping")
            continue
        print("even", i)
        if i > 2:
            print("stop")
            break
        print("bottom", i)
    print("after", n)
    return n


@cases((4,), (-1,))
def not_test_swapped(n):
    count = 0
    for i in range(n):
        if not i % 2:
            continue
        count += i
    return count
