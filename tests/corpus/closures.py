# ruff: noqa  (user code as people write it, lint findings included)
"""Nested functions, closures, nonlocal."""

from . import case, cases


@cases((3,), (0,))
def counter_with_nonlocal(n):
    count = 0

    def bump(by):
        nonlocal count
        if by > 0:
            count += by
        return count

    for i in range(n):
        bump(i)
    return count


@cases((2,), (-2,))
def reads_outer(x):
    scale = 10

    def scaled(v):
        return v * scale if v > 0 else v

    return scaled(x)


def make_multiplier(k):
    def multiply(x):
        if k == 0:
            return 0
        return x * k

    return multiply


case("closure_entity", inputs=[(3,), (-1,), ("ab",)], factory=lambda: make_multiplier(4))
case("closure_entity_zero", inputs=[(3,)], factory=lambda: make_multiplier(0))


@cases((3,),)
def late_binding(n):
    fns = []
    for i in range(n):
        def f():
            return i
        fns.append(f)
    return [f() for f in fns]


@cases((3,),)
def early_binding_default(n):
    fns = []
    for i in range(n):
        def f(i=i):
            return i * 2
        fns.append(f)
    return [f() for f in fns]


@cases((5,), (0,), (1,))
def nested_recursion(n):
    def fact(k):
        if k <= 1:
            return 1
        return k * fact(k - 1)

    return fact(n)


@cases(([1, -2, 3],), ([],))
def closure_mutates_list(xs):
    log = []

    def record(x):
        if x < 0:
            log.append("neg")
        else:
            log.append(x)

    for x in xs:
        record(x)
    return log


@cases((2,), (0,))
def three_levels_nonlocal(n):
    total = 0

    def outer():
        def inner(k):
            nonlocal total
            while k > 0:
                total += k
                k -= 1

        for j in range(n + 1):
            inner(j)

    outer()
    return total


@cases((True,), (False,))
def free_variable_unbound(flag):
    def read():
        return value

    if flag:
        value = 1
    return read()


def make_accumulator(start):
    total = start

    def add(x):
        nonlocal total
        if x is None:
            return total
        total += x
        return total

    return add


case("nonlocal_entity", inputs=[(5,), (None,), ("x",)], factory=lambda: make_accumulator(10))


_state = {}


def _make_shared():
    _state["add"] = make_accumulator(0)
    return _state["add"]


def _observe_shared():
    return _state["add"](None)


case("nonlocal_entity_observed", inputs=[(5,), (-1,)], factory=_make_shared,
     observe=_observe_shared)


@cases((4,), (0,))
def nonlocal_in_loop_with_break(n):
    found = None

    def search():
        nonlocal found
        for i in range(n):
            if i * i > 5:
                found = i
                break

    search()
    return found


@cases((3,),)
def closure_sees_later_assignment(n):
    def get():
        return x

    x = n
    first = get()
    x = n * 2
    return first, get()


@cases(([3, 1, 2],),)
def nested_function_with_sort_key(xs):
    def key(v):
        if v == 1:
            return 100
        return v

    return sorted(xs, key=key)


@cases((2,), (5,))
def generator_closure(n):
    def gen():
        i = 0
        while i < n:
            yield i * i
            i += 1

    return list(gen())


@cases((4,), (0,))
def closure_reads_during_loop(n):
    x = 0

    def get():
        return x

    seen = []
    for i in range(n):
        x += i
        seen.append(get())
    return seen, x


@cases((1,), (0,))
def closure_reads_inside_branch(flag):
    label = "start"

    def show():
        print("label is", label)

    if flag:
        label = "changed"
        show()
    show()
    return label


@cases((3,), (0,))
def nonlocal_and_loop_modify_same_variable(n):
    count = 0

    def bump():
        nonlocal count
        count += 100

    for i in range(n):
        count += 1
        if i == 1:
            bump()
    return count


@cases((3,),)
def closure_in_while_captures_cell(n):
    fns = []
    i = 0
    while i < n:
        fns.append(lambda: i)
        i += 1
    return [f() for f in fns]
