# ruff: noqa  (user code as people write it, lint findings included)
"""Constructs combined: nested loops with break and continue, returns from deep
inside loops, with and try/finally inside loops, loops in every branch."""

from . import cases
from .unconverted_constructs import Tracker


@cases(([[1, 2, -1, 3], [4, -5], [6]],), ([],), ([[]],))
def inner_break(rows):
    sums = []
    for row in rows:
        s = 0
        for x in row:
            if x < 0:
                break
            s += x
        sums.append(s)
    return sums


@cases(([[1, 2], [3, 99], [5]],), ([[1]],))
def early_return_nested(rows):
    for i, row in enumerate(rows):
        for j, x in enumerate(row):
            while x > 50:
                return ("big", i, j)
    return None


@cases((3,), (0,))
def return_inside_with_in_loop(n):
    for i in range(n):
        with Tracker(f"t{i}"):
            if i == 1:
                return i
            print("work", i)
    return -1


@cases((3,), (0,))
def return_inside_try_finally_in_loop(n):
    i = 0
    while i < n:
        try:
            if i == 1:
                return "returned at 1"
            print("body", i)
        finally:
            print("finally", i)
        i += 1
    return "finished"


@cases((4,), (1,))
def break_and_continue_in_try_finally(n):
    log = []
    for i in range(n):
        try:
            if i == 0:
                continue
            if i == 2:
                break
            log.append(i)
        finally:
            log.append(f"f{i}")
    return log


@cases((3, 4), (0, 2), (2, 0))
def continue_in_nested(n, m):
    pairs = []
    for i in range(n):
        if i == 1:
            continue
        for j in range(m):
            if j % 2:
                continue
            pairs.append((i, j))
    return pairs


@cases((10,), (3,))
def while_else_break_in_inner_for(n):
    i = 0
    while i < n:
        for j in range(i):
            if i * j == 12:
                break
        else:
            i += 1
            continue
        break
    else:
        return "exhausted", i
    return "found", i


@cases(([3, 4, 5],), ([1],))
def loops_in_both_branches(xs):
    total = 0
    if len(xs) > 1:
        for x in xs:
            total += x
    else:
        i = 0
        while i < 3:
            total -= 1
            i += 1
    return total


@cases((5,), (1,))
def nested_while_with_flags(n):
    i = 0
    found = False
    while i < n and not found:
        j = 0
        while j < n:
            if i + j == n + 1:
                found = True
                break
            j += 1
        i += 1
    return i, found


@cases(([[1, 2], [3], [4, 5, 6]],), ([],))
def triple_nested_return(groups):
    count = 0
    for g in groups:
        for x in g:
            for k in range(x):
                count += 1
                if count > 7:
                    return count, x, k
    return count


@cases((20,), (2,))
def primes_with_for_else_in_while(limit):
    primes = []
    n = 2
    while len(primes) < 5 and n < limit:
        for p in primes:
            if n % p == 0:
                break
        else:
            primes.append(n)
        n += 1
    return primes


@cases(([5, 0, -3, 8],), ([],))
def conditional_inside_loop_inside_conditional(xs):
    if xs:
        out = []
        for x in xs:
            out.append("pos" if x > 0 else "zero" if x == 0 else "neg")
            if x < 0 and len(out) > 2:
                break
        return out
    else:
        return None


@cases((6,), (0,))
def loop_with_try_except_and_else(n):
    log = []
    for i in range(n):
        try:
            if i == 3:
                raise ValueError(i)
        except ValueError:
            log.append("err")
            continue
        else:
            if i == 4:
                break
        log.append(i)
    else:
        log.append("no break")
    return log


@cases(([1, 2, 3, 4, 5, 6],), ([],))
def state_machine(xs):
    state = "start"
    out = []
    for x in xs:
        if state == "start":
            if x % 2 == 0:
                state = "even"
            continue
        elif state == "even":
            out.append(x)
            if x > 4:
                state = "done"
        if state == "done":
            break
    return state, out


@cases((3,), (0,))
def nested_functions_with_loops(n):
    def inner(k):
        acc = 0
        for i in range(k):
            if i == 2:
                continue
            acc += i
        return acc

    results = []
    for j in range(n + 2):
        r = inner(j)
        if r > 3:
            break
        results.append(r)
    return results


@cases((4,), (0,))
def return_in_else_of_nested_loop(n):
    for i in range(n):
        for j in range(n):
            if j > i:
                break
        else:
            if i == 2:
                return "else return", i
    return "end"


@cases(([1, 2, 3],), ([],))
def assert_and_logical_in_loop(xs):
    total = 0
    for x in xs:
        assert x > 0 and isinstance(x, int), f"bad item {x!r}"
        total += x if x % 2 else 0
    return total


@cases(([[1, 2], [3, 4]], 3), ([[1, 2]], 9))
def search_with_while_and_for(grid, target):
    r = 0
    while r < len(grid):
        for v in grid[r]:
            if v == target:
                break
        else:
            r += 1
            continue
        return r
    return None


@cases((3,), (5,))
def print_order_nested(n):
    for i in range(n):
        j = 0
        while j < i:
            print(i, j)
            if j == 2:
                break
            j += 1
        else:
            print("inner done", i)
            continue
        print("inner broke", i)


@cases(([1, -1, 2],), ([],))
def break_continue_return_all(xs):
    result = []
    for x in xs:
        if x == 2:
            return result
        if x < 0:
            continue
        result.append(x)
        if len(result) > 10:
            break
    result.append("end")
    return result


@cases((3,), (0,))
def generator_in_nested_loops(n):
    def pairs():
        for i in range(n):
            for j in range(i):
                yield i, j

    total = 0
    for a, b in pairs():
        if a == b:
            continue
        total += a * b
    return total


@cases(([3, 8, 1],), ([],))
def counter_and_max(xs):
    best = None
    count = 0
    for x in xs:
        count += 1
        if best is None or x > best:
            best = x
    return best, count


@cases((4,), (0,))
def loop_var_reused_across_loops(n):
    for i in range(n):
        pass
    for i in range(i if n else 0, n + 2):
        if i > n:
            break
    return i


@cases(([1, 2, 3],), ([0],))
def walrus_in_loop_condition(xs):
    total = 0
    for x in xs:
        if (half := x / 2) > 1:
            total += half
        elif not half:
            break
    return total


@cases((3,), (0,))
def user_names_like_generated_ones(n):
    loop_body = []
    if_body = 0
    do_return = "user"
    retval_ = None
    for loop_test in range(n):
        if loop_test % 2:
            if_body += 1
            continue
        loop_body.append(loop_test)
    else_body = if_body * 2
    return loop_body, if_body, do_return, retval_, else_body


@cases(([3, 1, 2],), ([],))
def def_and_class_inside_loop(xs):
    out = []
    for x in xs:
        def double(v=x):
            return v * 2

        class Box:
            value = double()

        if Box.value > 2:
            out.append(Box.value)
    return out


@cases((3,), (0,), reset=lambda: _reset_loop_target(), observe=lambda: LOOP_TARGET)
def global_loop_target(n):
    global LOOP_TARGET
    for LOOP_TARGET in range(n):
        if LOOP_TARGET > 5:
            break
    return LOOP_TARGET


LOOP_TARGET = "initial"


def _reset_loop_target():
    global LOOP_TARGET
    LOOP_TARGET = "initial"


@cases((0, 0), (1, 5), (2, 0), (3, -1))
def returns_on_every_branch_then_dead_code(a, b):
    # Found by the random programs: the guard around the unreachable tail is a generated
    # function that assigns the return flag, which the inner if carries: it needs a placeholder.
    c = a
    if (c and 4) < b:
        for x1, y1 in ((c, 1), (2, b)):
            b *= -1
            a -= 1
            return b, b, c
        else:
            a -= c
        c -= (c or 5)
    if 4 == 1:
        return c * a // 3, b, c
    elif 2 == a:
        return (a if 3 > a else b) or -b, b, c
    else:
        return -3, b, c
    a = a % 3
    return a, b, c


@cases((1,), (5,))
def reassigned_in_loop_before_branch(x):
    y = 0
    out = []
    for i in range(3):
        y = i
        if x > i:
            y = y + 10
        out.append(y)
    return out
