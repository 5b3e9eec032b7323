# ruff: noqa  (user code as people write it, lint findings included)
"""Variables that may be unassigned: Python raises UnboundLocalError or NameError,
and the converted function must raise the same."""

from . import cases

LIMIT = 100


@cases((1,), (0,))
def defined_in_if_only(x):
    if x:
        y = 1
    return y


@cases((3,), (0,))
def loop_var_after_loop(n):
    for i in range(n):
        pass
    return i


@cases(([1, 2],), ([],))
def body_var_after_loop(xs):
    for x in xs:
        last = x * 2
    return last


@cases((3,), (0,))
def defined_in_while_body(n):
    while n > 0:
        seen = n
        n -= 1
    return seen


@cases((1,), (0,))
def defined_in_else_only(x):
    if x:
        pass
    else:
        z = "else"
    return z


@cases((1,), (0,))
def undefined_read_in_later_condition(x):
    if x:
        flag = True
    if flag:
        return "flag set"
    return "flag clear"


@cases((1,), (0,))
def same_condition_twice(x):
    if x:
        y = 10
    z = 0
    if x:
        z = y + 1
    return z


@cases((1,), (0,))
def reads_undefined_global(x):
    if x:
        return "fine"
    return undefined_global_name_xyz  # noqa: F821


@cases((1,), (0,))
def local_shadows_global(x):
    if x:
        LIMIT = 5
    return LIMIT


@cases(("1",), ("x",))
def defined_in_try_only(s):
    try:
        value = int(s)
    except ValueError:
        pass
    return value


@cases((1,), (0,))
def augmented_undefined(x):
    if x:
        total = 0
    total += 1
    return total


@cases(([1, 2],), ([],), ([9],))
def defined_in_for_else(xs):
    for x in xs:
        if x > 5:
            break
    else:
        done = True
    return done


@cases((2, 3), (0, 3), (2, 0))
def nested_loop_vars_after(n, m):
    for i in range(n):
        for j in range(m):
            pass
    return i, j


@cases(([1, 2, 3],), ([5],), ([],))
def defined_after_conditional_break(xs):
    for x in xs:
        if x > 2:
            break
        small = x
    return small


@cases((1,), (0,))
def closure_over_maybe_undefined(x):
    if x:
        captured = "value"

    def read():
        return captured

    return read()


@cases((1,), (0,))
def catches_unbound(x):
    if x:
        y = "set"
    try:
        return y
    except UnboundLocalError:
        return "unbound"


@cases((1,), (0,))
def undefined_in_loop_condition(x):
    if x:
        k = 3
    while k > 0:
        k -= 1
    return k


@cases((1,), (0,))
def undefined_used_as_iterable(x):
    if x:
        items = [1, 2]
    out = []
    for it in items:
        out.append(it)
    return out


@cases((0,), (1,))
def conditionally_deleted(x):
    v = "here"
    if x:
        del v
    if not x:
        return v
    return "deleted"


@cases((3,), (0,))
def defined_in_loop_read_in_loop(n):
    out = []
    for i in range(n):
        if i > 0:
            out.append(prev)
        prev = i
    return out


@cases((1,), (0,))
def undefined_in_ternary_untaken(x):
    if x:
        a = 1
    return a if x else "no a"


@cases((1,), (0,))
def undefined_in_and_short_circuit(x):
    if x:
        a = 7
    return x and a


@cases((0,), (2,))
def read_in_while_test_assigned_after_loop(n):
    i = 0
    while i < n and limit > 0:
        i += 1
    limit = 3
    return i, limit


@cases((0,), (2,))
def read_in_if_test_assigned_after(n):
    if n and threshold:
        n = -n
    threshold = 1
    return n


@cases((0,), (9,))
def defined_in_except_read_after_guarded_return(x):
    try:
        if x > 5:
            return "early"
    except ZeroDivisionError:
        d = 0
    return d


@cases((2,), (1,), (0,))
def except_name_deleted_after_handler(n):
    try:
        if n > 0:
            raise ValueError("x")
    except ValueError as e:
        print("handled", e)
    if n > 1:
        return e
    return n


@cases((1,), (0,))
def except_name_assigned_again_after_handler(n):
    try:
        if n:
            raise KeyError(n)
    except KeyError as e:
        pass
    e = "again"
    return e


@cases((1,), (0,))
def bare_annotation_then_branch(n):
    y: int
    if n:
        y = 1
    return y


@cases((3,), (0,))
def bare_annotation_then_loop(n):
    y: int
    for i in range(n):
        y = i
    return y
