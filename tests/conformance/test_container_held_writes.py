"""A staged write into an array that a list or dict also holds (``params = [w, b]``,
then ``p[:] = p - lr * g`` for each ``p``): eagerly the write changes the array the
list holds, so ``params[0]`` shows it. Under a trace the write gives the written name a
new value (a staged array's functional update, a NumPy array given a staged value); the
list and dict items holding the very array written then get that value too: anywhere in
straight-line code, inside a staged ``if`` or loop where the construct carries the
container (its body reads it). Where that cannot be exact it stays refused, named: a
tuple holding the array, a list the construct does not carry, a list an argument of the
traced function holds (the caller's). Eager NumPy is the oracle."""

import numpy as np

F = np.float32
X = np.array([1.0, 2.0, 3.0], F)
G = np.array([0.5, 1.0, -1.0], F)
N = np.int32(3)


# --- the optimizer idiom: a Python loop over zip(params, grads) ---

def optimizer_step(gw, gb):
    w = np.ones(3, F)
    b = np.zeros(3, F)
    params = [w, b]
    for p, g in zip(params, [gw, gb]):
        p[:] = p - 0.5 * g
    return params[0], params[1]


def optimizer_step_on_staged_params(x, gw, gb):
    params = [x * 1.0, x * 2.0]
    for p, g in zip(params, [gw, gb]):
        p[:] = p - 0.5 * g
    return params


def optimizer_in_place(gw, gb):
    params = [np.ones(3, F), np.zeros(3, F)]
    for p, g in zip(params, [gw, gb]):
        p -= 0.5 * g
    return params


def training_loop(gw, gb, n):
    params = [np.ones(3, F), np.zeros(3, F)]
    grads = [gw, gb]
    i = 0
    while i < n:
        for p, g in zip(params, grads):
            p[:] = p - 0.5 * g
        i += 1
    return params[0], params[1]


def training_loop_on_staged_params(x, gw, gb, n):
    params = [x * 1.0, x * 2.0]
    grads = [gw, gb]
    i = 0
    while i < n:
        for p, g in zip(params, grads):
            p[:] = p - 0.5 * g
        i += 1
    return params[0], params[1]


def test_the_optimizer_step_reaches_the_list(backend):
    assert backend.numpy_oracle(optimizer_step, G, G) is None


def test_the_optimizer_step_on_staged_params_reaches_the_list(backend):
    assert backend.numpy_oracle(optimizer_step_on_staged_params, X, G, G) is None
    assert backend.numpy_oracle(training_loop_on_staged_params, X, G, G, N) is None


def test_the_training_loop_carries_the_list(backend):
    """A staged loop around the step: its body reads ``params``, so the loop carries the
    list's items and the step's writes reach them on every iteration."""
    assert backend.numpy_oracle(training_loop, G, G, N) is None


def test_the_optimizer_step_with_an_in_place_operator(backend):
    """``p -= lr * g`` on a NumPy array and a staged ``g``: the NumPy engine writes it into
    the array as NumPy does (the list sees it); JAX's and TensorFlow's arrays take over
    NumPy's operator, eagerly too, and give ``p`` their new array (the list keeps the old
    one, as eagerly); PyTorch's tensor refuses the mixed operator, eagerly too."""
    if backend.engine == "torch":
        backend.check_raises(optimizer_in_place, TypeError, "unsupported operand", G, G)
    else:
        backend.check(optimizer_in_place, G, G)
    if backend.engine == "numpy":
        assert backend.numpy_oracle(optimizer_in_place, G, G) is None


# --- lists and dicts holding the array written ---

def list_holds_a_numpy_array(x):
    c = np.zeros(3, F)
    held = [c]
    c[1] = x[0]
    return held[0], c


def list_holds_a_staged_array(x):
    c = x * 1.0
    held = [c]
    c[1] = x[0]
    return held[0]


def nested_containers(x):
    c = np.zeros(3, F)
    held = [[c], {"k": [c, c]}]
    c[1] = x[0]
    return held


def deeply_nested(x):
    c = x * 1.0
    held = [[[[{"k": [c]}]]]]
    c[1] = x[0]
    return held[0][0][0][0]["k"][0]


def dict_holds_it(x):
    c = x * 1.0
    held = {"a": c, "b": 2.0}
    c[0] = x[2]
    return held["a"] * held["b"]


def list_held_by_two_names(x):
    c = np.zeros(3, F)
    held = [c]
    other = held
    c[1] = x[0]
    return other[0] + held[0]


def _scale_all(arrays, factor):
    for a in arrays:
        a[:] = a * factor


def written_by_a_helper(x):
    params = [np.ones(3, F), np.ones(2, F)]
    _scale_all(params, x[0])
    return params


def staged_if_reads_the_list(x):
    c = np.zeros(3, F)
    held = [c]
    if x[0] > 0:
        for p in held:
            p[1] = x[1]
    return held[0]


def test_the_containers_holding_a_numpy_array_see_the_write(backend):
    for fn in (list_holds_a_numpy_array, nested_containers, list_held_by_two_names,
               written_by_a_helper, staged_if_reads_the_list):
        assert backend.numpy_oracle(fn, X) is None, fn.__name__
    assert backend.numpy_oracle(staged_if_reads_the_list, -X) is None


def test_the_containers_holding_a_staged_array_see_the_write(backend):
    for fn in (list_holds_a_staged_array, dict_holds_it, deeply_nested):
        assert backend.numpy_oracle(fn, X) is None, fn.__name__


# --- what stays refused ---

def tuple_holds_it(x):
    c = np.zeros(3, F)
    held = (c, 1)
    c[1] = x[0]
    return held[0]


def staged_if_does_not_read_the_list(x):
    c = np.zeros(3, F)
    held = [c]
    if x[0] > 0:
        c[1] = x[1]
    return held[0]


def argument_holds_it(x, held):
    c = held[0]
    c[1] = x[0]
    return held[0]


def _refused(backend, fn, line, holder):
    name = line.split("[")[0]
    return (
        f"item assignment at {backend.at(fn, line)}: a staged value is written into a NumPy "
        f"array, which becomes a staged value; but '{holder}' holds the same array and is "
        f"read later, so it would keep the old contents. Write through one name only, or "
        f"copy the array ({name} = {holder}.copy()) if the two should not share.")


def test_holders_that_cannot_take_the_write_are_refused(backend):
    """A tuple cannot be updated; a list a staged ``if`` does not carry (its branches do
    not read it) would take the write whatever the condition; a list the caller passed
    in is the caller's, which the trace cannot change."""
    assert backend.staging_error(tuple_holds_it, X) == _refused(
        backend, tuple_holds_it, "c[1] = x[0]", "held[0]")
    assert backend.staging_error(staged_if_does_not_read_the_list, X) == _refused(
        backend, staged_if_does_not_read_the_list, "c[1] = x[1]", "held[0]")
    if backend.engine != "numpy":  # (ag.function traces the arrays a list argument holds)
        assert backend.staging_error(argument_holds_it, X, [np.zeros(3, F)]) == _refused(
            backend, argument_holds_it, "c[1] = x[0]", "held[0]")
