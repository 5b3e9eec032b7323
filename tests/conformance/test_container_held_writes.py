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


# --- an object's attribute holding the array (``h.arr = a``), as a list's item does ---

class Holder:
    pass


def attribute_holds_a_numpy_array(x):
    a = np.zeros(3, F)
    h = Holder()
    h.arr = a
    a[0] = x[0]
    return h.arr


def attribute_holds_a_staged_array(x):
    a = x * 1.0
    h = Holder()
    h.arr = a
    a[0] = x[2]
    return h.arr


def attribute_of_a_listed_object(x):
    a = x * 1.0
    hs = [Holder()]
    hs[0].arr = a
    a[1] = x[0]
    return hs[0].arr


def attribute_of_a_list_item_written(x):
    hs = [Holder(), Holder()]
    hs[0].arr = np.zeros(3, F)
    hs[0].arr[1] = x[0]
    hs[1].arr = x * 1.0
    i = 1
    hs[i].arr[2] += x[0]
    return hs[0].arr, hs[1].arr


def attribute_written_alias_read(x):
    a = np.zeros(3, F)
    h = Holder()
    h.arr = a
    h.arr[1] = x[0]
    return a


def test_an_objects_attribute_sees_the_write(backend):
    """``h.arr = a; a[0] = v; return h.arr``: eagerly ``h.arr`` shows the write (it kept the
    old contents: a silent wrong value on every backend); ``hs[0].arr[i] = v`` writes into
    the attribute of a listed object (was refused)."""
    for fn in (attribute_holds_a_numpy_array, attribute_holds_a_staged_array,
               attribute_of_a_listed_object, attribute_of_a_list_item_written):
        assert backend.numpy_oracle(fn, X) is None, fn.__name__


def test_a_name_the_attributes_write_cannot_reach_is_refused(backend):
    """``h.arr[1] = v`` then ``a`` read: a variable cannot take the new value: refused."""
    assert backend.staging_error(attribute_written_alias_read, X) == _refused(
        backend, attribute_written_alias_read, "h.arr[1] = x[0]", "a").replace(
            "(h = a.copy())", "(h.arr = a.copy())")


# --- a parameter the body rebinds is no longer the caller's (false refusals on JAX, TF) ---

def rebound_parameter(w, g):
    w = w * 1.0
    params = [w]
    for p in params:
        p[:] = p - 0.5 * g
    return params[0]


def rebound_list_parameter(params, g):
    params = [p * 1.0 for p in params]
    for p in params:
        p[:] = p - 0.5 * g
    return params[0]


def rebound_parameter_written(w, g):
    w = w * 1.0
    params = [w]
    w[0] = g[1]
    return params[0]


def parameter_written_through_an_alias(w, g):
    v = w
    w = w * 1.0
    v[0] = g[1]
    return w


def test_a_rebound_parameter_is_written_as_a_local(backend):
    """``w = w * 1.0`` makes ``w`` a local array: writing into it does not reach the
    caller, as eagerly (was "'w' is an argument" under jax.jit and tf.function)."""
    assert backend.numpy_oracle(rebound_parameter, X, G) is None
    assert backend.numpy_oracle(rebound_parameter_written, X, G) is None
    if getattr(backend, "mode", None) != "explained":  # (NumPy arrays there, and a tensor)
        assert backend.numpy_oracle(rebound_list_parameter, [X], G) is None
    if backend.engine in ("jax", "tensorflow"):  # the caller's array, through another name
        text = backend.staging_error(parameter_written_through_an_alias, X, G)
        assert "'w' is an argument of parameter_written_through_an_alias()" in text, text
