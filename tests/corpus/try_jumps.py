# ruff: noqa  (user code as people write it, lint findings included)
"""Jumps in and out of try/except/else/finally: a jump out of a ``try`` skips its
``else`` and runs its ``finally``; a jump in a ``finally`` replaces whatever was
pending (a return, a break, a continue, an exception)."""

from . import cases


@cases((5,), (2,), (0,))
def break_skips_try_else(n):
    out = []
    for i in range(n):
        try:
            if i == 2:
                break
        except ValueError:
            pass
        else:
            out.append(i)
    return out


@cases((5,), (0,))
def continue_skips_try_else(n):
    out = []
    for i in range(n):
        try:
            if i % 2:
                continue
        except ValueError:
            pass
        else:
            out.append(i)
        out.append(-i)
    return out


@cases((1,), (0,))
def return_skips_try_else(x):
    try:
        if x > 0:
            return "try"
    except ValueError:
        pass
    else:
        print("else ran")
    return "after"


@cases((1,), (0,))
def return_in_finally_wins(x):
    try:
        return 2
    finally:
        if x > 0:
            return 1
        else:
            return 0


@cases((1,), (-1,))
def return_in_finally_after_return_in_if(x):
    try:
        if x > 0:
            return "try"
    finally:
        if x > 0:
            return "finally"
    return "after"


@cases((1,), (-1,))
def finally_runs_after_return_keeps_value(x):
    y = x
    try:
        if x > 0:
            return y
    finally:
        y = 100
        print("finally", y)
    return -y


@cases((5,), (1,))
def continue_in_finally(n):
    out = []
    for i in range(n):
        try:
            out.append(i)
        finally:
            if i % 2:
                continue
        out.append(-i)
    return out


@cases((5,), (1,))
def break_in_finally(n):
    out = []
    for i in range(n):
        try:
            out.append(i)
        finally:
            if i == 2:
                break
        out.append(-i)
    return out


@cases((5,), (1,))
def return_in_finally_in_loop(n):
    for i in range(n):
        try:
            pass
        finally:
            if i == 2:
                return i
    return -1


@cases((4,), (1,))
def break_in_inner_finally(n):
    out = []
    for i in range(n):
        try:
            try:
                out.append(i)
            finally:
                if i == 1:
                    break
        finally:
            out.append(-i)
    return out


@cases((5,), (2,))
def continue_in_finally_discards_return(n):
    for i in range(n):
        try:
            if i == 1:
                return i
        finally:
            if i < 3:
                continue
    return -1


@cases((5,), (2,))
def break_in_finally_discards_return(n):
    for i in range(n):
        try:
            if i == 1:
                return i
        finally:
            if i == 1:
                break
    return -1


@cases((5,), (3,))
def return_in_finally_discards_break(n):
    for i in range(n):
        try:
            if i == 1:
                break
        finally:
            if i == 1:
                return "finally"
    return "after"


@cases((4,), (0,))
def continue_in_finally_discards_break(n):
    out = []
    for i in range(n):
        try:
            if i == 1:
                break
        finally:
            if i < 2:
                continue
        out.append(i)
    return out


@cases((4,), (1,))
def break_in_finally_discards_exception(n):
    i = -1
    for i in range(n):
        try:
            if i == 1:
                raise ValueError("lost")
        finally:
            if i == 1:
                break
    return i


@cases((4,), (1,))
def return_in_finally_discards_exception(n):
    try:
        if n > 2:
            raise ValueError("lost")
    finally:
        if n > 2:
            return "finally"
    return "after"


@cases((3,), (0,))
def return_in_handler_then_finally(n):
    out = []
    try:
        if n > 0:
            raise KeyError(n)
        out.append("body")
    except KeyError:
        if n > 1:
            return "handler"
        out.append("handled")
    else:
        out.append("else")
    finally:
        out.append("finally")
        print(out)
    return out


@cases((6,), (2,))
def break_in_while_try_else(n):
    i = 0
    seen = []
    while i < n:
        i += 1
        try:
            if i == 3:
                break
        finally:
            seen.append(i)
    else:
        seen.append("else")
    return seen


@cases((5,), (0,))
def jumps_everywhere_in_try(n):
    out = []
    for i in range(n):
        try:
            if i == 0:
                continue
            if i == 3:
                break
            out.append(i)
        except ZeroDivisionError:
            out.append("zde")
        else:
            if i == 2:
                continue
            out.append(("else", i))
        finally:
            out.append(("finally", i))
        out.append(("after", i))
    return out


@cases((6, -1), (3, 2), (4, 1), (1, 0))
def jumps_in_try_with_closure(a, b):
    c = a
    get_c = lambda: c
    for i in range(a % 4):
        try:
            if 0 < i:
                break
            else:
                a = b // i
                continue
        except ZeroDivisionError:
            return c, b, get_c()
        else:
            c = a + i
            break
    else:
        a = get_c() * 2
    a -= c
    return a, b, c
