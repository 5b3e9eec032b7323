# ruff: noqa  (user code as people write it, lint findings included)
"""Observable effects: print order, evaluation counts, mutation of arguments,
globals and closures, iterator protocol calls, generator finalization."""

from . import cases


@cases((3,), (0,))
def print_order_in_loop(n):
    print("before")
    for i in range(n):
        if i % 2:
            print("odd", i)
        else:
            print("even", i, end=";")
    print("after")


@cases(([1, 2],), ([],))
def mutate_list_argument(xs):
    if xs:
        xs[0] = "first"
    xs.append("tail")
    xs.extend(range(2))


@cases(({"a": 1},), ({},))
def mutate_dict_argument(d):
    for k in list(d):
        d[k] += 1
    if "new" not in d:
        d["new"] = len(d)
    return d


EVENTS = []


def _reset_events():
    EVENTS.clear()


@cases((3,), (0,), reset=_reset_events, observe=lambda: list(EVENTS))
def mutate_global_list(n):
    while n > 0:
        EVENTS.append(n)
        n -= 1
    else:
        EVENTS.append("end")


def _noisy(label, value):
    print("eval", label)
    return value


@cases((3,), (0,))
def while_condition_evaluation_count(n):
    i = 0
    while _noisy("cond", i < n):
        i += 1
    return i


@cases((3,), (0,))
def iterable_evaluated_once(n):
    total = 0
    for i in range(_noisy("range", n)):
        total += i
    return total


@cases(([0, 0],),)
def augmented_subscript_index_once(xs):
    xs[_noisy("index", 1)] += _noisy("value", 5)
    return xs


@cases((1, 2),)
def argument_evaluation_order(a, b):
    return max(_noisy("first", a), _noisy("second", b), key=_noisy("key", abs))


class Noisy:
    """An iterable that reports every call of the iterator protocol."""

    def __init__(self, n):
        self.n = n

    def __repr__(self):
        return f"Noisy({self.n})"

    def __iter__(self):
        print("iter")
        return NoisyIterator(self.n)

    def __len__(self):
        print("len")
        return self.n


class NoisyIterator:
    def __init__(self, n):
        self.i = 0
        self.n = n

    def __iter__(self):
        return self

    def __next__(self):
        print("next", self.i)
        if self.i >= self.n:
            raise StopIteration
        self.i += 1
        return self.i


@cases((Noisy(3),), (Noisy(0),))
def iterator_protocol_calls(iterable):
    out = []
    for x in iterable:
        print("body", x)
        out.append(x)
    return out


@cases((Noisy(5),),)
def iterator_protocol_with_break(iterable):
    for x in iterable:
        if x == 2:
            break
        print("body", x)
    return x


def _lazy(n):
    for i in range(n):
        print("produce", i)
        yield i


@cases((3,),)
def lazy_generator_interleaving(n):
    for v in _lazy(n):
        print("consume", v)


def _finalized(n):
    try:
        for i in range(n):
            yield i
    finally:
        print("generator closed")


@cases((5,), (1,))
def generator_closed_on_break(n):
    for v in _finalized(n):
        if v == 2:
            break
    print("after loop")
    return v


@cases((2,),)
def closure_state_mutation(n):
    calls = []

    def note(tag):
        calls.append(tag)
        return len(calls)

    for i in range(n):
        if note(i) > 5:
            break
    note("end")
    return calls


@cases((5,),)
def exception_after_partial_effects(n):
    for i in range(n):
        print("step", i)
        if i == 2:
            raise RuntimeError("stopped at 2")


@cases(([3, 1, 2],),)
def sort_in_place_then_return(xs):
    xs.sort()
    if xs[0] == 1:
        xs.reverse()
    return None


class Config:
    def __init__(self):
        self.debug = False
        self.level = 0

    def __eq__(self, other):
        return type(other) is Config and vars(self) == vars(other)

    def __repr__(self):
        return "Config()"


@cases((Config(), 3), (Config(), 0))
def mutate_object_attributes(cfg, level):
    if level > 1:
        cfg.debug = True
    while cfg.level < level:
        cfg.level += 1
    return cfg.debug


COUNTS = {"calls": 0}


def _reset_counts():
    COUNTS["calls"] = 0


def _tick():
    COUNTS["calls"] += 1
    return COUNTS["calls"]


@cases((4,), (0,), reset=_reset_counts, observe=lambda: dict(COUNTS))
def global_counter_via_helper(n):
    last = 0
    for _ in range(n):
        last = _tick()
        if last == 3:
            break
    return last


@cases(("ab",), ("",))
def print_returns_none(s):
    r = print(s)
    if r is None:
        print("print returned None")
    return r
