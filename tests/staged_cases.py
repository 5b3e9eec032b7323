"""User functions both staged backends run (tests/graph and tests/jax), each compared
with the same function run eagerly: variables and attributes assigned in place by
the generated functions (closures, ``nonlocal``, ``self.total``) and containers
updated in place, inside staged branches and loops. Each backend's test passes
its own arrays."""


# Variables that closures capture are assigned in place by the generated functions;
# a staged branch or loop must still carry them (the ``shared=`` argument).
def captured_in_branch(x):
    y = x * 0
    if x.sum() > 0:
        y = x + 1
    g = lambda: y * 2
    return g()


def captured_in_while(x):
    y = x
    while y.sum() < 10:
        y = y + 3
    return (lambda: y)()


def captured_in_tensor_for(x):
    total = x[0] * 0
    for v in x:
        total = total + v
    get = lambda: total
    return get()


def captured_with_tensor_break(x):
    s = x[0] * 0
    for i in range(4):
        if s > 3:
            break
        s = s + x[i]
    return (lambda: s)()


def nonlocal_counter_in_branch(x):
    count = 0

    def bump(v):
        nonlocal count
        if v > 0:
            count += 1
        return v * 2

    y = bump(x)
    y = bump(y - 5)
    return y, count


class Acc:
    def __init__(self):
        self.total = 0.0
        self.steps = 0

    def update(self, x):
        if x > 0:
            self.total = self.total + x
        else:
            self.steps += 1
        return self.total


def attributes_in_branches(x):
    a = Acc()
    a.update(x)
    a.update(x - 10)
    for i in range(3):
        a.update(x * i)
    return a.total, a.steps


def attributes_in_while(x):
    a = Acc()
    while a.total < 10:
        a.total = a.total + x
        a.steps += 1
    return a.total, a.steps


# Containers updated in place: each traced branch works on its own copy.
def dict_updated_in_while(x):
    d = {"n": 0, "v": x}
    while d["v"] < 100:
        d["v"] = d["v"] * 2
        d["n"] += 1
    return d


def list_item_set_in_branch(x):
    pair = [x, x * 0]
    if x > 1:
        pair[1] = x * 3
    return pair
