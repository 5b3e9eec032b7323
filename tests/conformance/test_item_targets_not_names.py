"""An item write whose target is not a variable: ``obj.arr[i] = v``, ``a.T[0] = v``,
``a.reshape(2, 3)[i] = v``. Python writes into what the expression gives. A staged value
written there gives a new value instead (NumPy's own "setting an array element with a
sequence" ValueError, before the converter routed these through the runtime): an
attribute the object holds is rebound to it, as eagerly it shows the write; a view of an
array another name holds, a property's value, or a temporary is refused, naming the line.
Eager NumPy is the oracle."""

import numpy as np

F = np.float32
X = np.array([1.0, 2.0, 3.0, 4.0], F)


class Holder:
    def __init__(self):
        self.arr = np.zeros(3, F)


class Transposed:
    def __init__(self):
        self.data = np.zeros((3, 2), F)

    @property
    def columns(self):
        return self.data.T


def attribute_written(x):
    h = Holder()
    h.arr[1] = x[0]
    return h.arr


def attribute_in_place(x):
    h = Holder()
    h.arr[1:] += x[:2]
    return h.arr


def attribute_in_a_staged_if(x):
    h = Holder()
    if x[0] > 0:
        h.arr[1] = x[1]
    return h.arr


def attribute_holding_a_staged_array(x):
    h = Holder()
    h.arr = x[:3] * 2.0
    h.arr[0] = x[3]
    return h.arr


def python_values_only(x):
    h = Holder()
    h.arr[1] = 5.0
    h.arr[2] += 1.0
    return x[:3] + h.arr


def test_an_attribute_takes_the_write(backend):
    for fn in (attribute_written, attribute_in_place, attribute_holding_a_staged_array,
               python_values_only):
        assert backend.numpy_oracle(fn, X) is None, fn.__name__
    assert backend.numpy_oracle(attribute_in_a_staged_if, X) is None
    assert backend.numpy_oracle(attribute_in_a_staged_if, -X) is None


def transposed_written(x):
    a = np.zeros((3, 2), F)
    a.T[0] = x[:3]
    return a


def reshaped_written(x):
    a = np.zeros(6, F)
    a.reshape(2, 3)[1] += x[:3]
    return a


def property_written(x):
    t = Transposed()
    t.columns[0] = x[:3]
    return t.data


def temporary_written(x):
    np.zeros(3, F).reshape(3)[0] = x[0]
    return x


def _unreachable(backend, fn, line, holder):
    return (
        f"item assignment at {backend.at(fn, line)}: the write gives a new value (a staged "
        f"value written into an array), and {holder} cannot take it in place of the array "
        f"eager code writes into. Write into the array through a variable that holds it "
        f"(a[:, 0] = v for a.T[0] = v; arr = obj.arr; arr[i] = v; obj.arr = arr).")


def _shared(backend, fn, line, name="a"):
    return (
        f"item assignment at {backend.at(fn, line)}: a staged value is written into a NumPy "
        f"array, which becomes a staged value; but '{name}' shares its memory (a view of it, or "
        f"the array it views) and would keep the old contents. Write through one of them "
        f"only, or copy the view (v = a[1:].copy()) if the two should not share.")


def test_a_view_a_property_or_a_temporary_is_refused(backend):
    assert backend.staging_error(transposed_written, X) == _shared(
        backend, transposed_written, "a.T[0] = x[:3]")
    assert backend.staging_error(reshaped_written, X) == _shared(
        backend, reshaped_written, "a.reshape(2, 3)[1] += x[:3]")
    # (the object's attribute the property's view shares memory with is named first)
    assert backend.staging_error(property_written, X) == _shared(
        backend, property_written, "t.columns[0] = x[:3]", "t.data")
    assert backend.staging_error(temporary_written, X) == _unreachable(
        backend, temporary_written, "np.zeros(3, F).reshape(3)[0] = x[0]", "the value it indexes")


def slice_updated_in_place(x):
    a = np.zeros(3, F)
    a[1:] += x[:2]
    return a


def test_an_in_place_update_of_a_numpy_slice(backend):
    """``a[1:] += v`` with a staged ``v``: the item the converted code reads first (a view
    of ``a``) is not a name that keeps the old contents (was a false refusal)."""
    assert backend.numpy_oracle(slice_updated_in_place, X) is None


# --- views a method makes (the NumPy engine passed writes through slices only) ---

def transposed_view_written(x):
    a = x.reshape(2, 3) * 1.0
    b = a.T
    b[0] = -1.0
    return a


def reshaped_view_written(x):
    a = x * 1.0
    b = a.reshape(2, 3)
    b[1, 1] = -1.0
    return a


def base_written_transposed_view_read(x):
    a = x.reshape(2, 3) * 1.0
    b = a.transpose(1, 0)
    a[0, 2] = -1.0
    return b


def transpose_written_through(x):
    a = x.reshape(2, 3) * 1.0
    a.T[0] = x[4]
    return a


def test_a_view_a_method_made_shares_the_write(backend):
    """``b = a.T; b[0] = v`` changes ``a`` eagerly (was the old ``a`` on the NumPy engine:
    a silent wrong value); JAX's and TensorFlow's arrays are immutable: refused."""
    x = np.arange(6.0, dtype=F)
    fns = (transposed_view_written, reshaped_view_written, base_written_transposed_view_read,
           transpose_written_through)
    refused = [backend.numpy_oracle(fn, x) for fn in fns]
    if backend.engine in ("numpy", "torch"):
        assert refused == [None] * 4
        return
    under, new = {"jax": ("jax.jit", "array (JAX arrays are immutable)"),
                  "tensorflow": ("tf.function", "tensor (TensorFlow tensors are immutable)")
                  }[backend.engine]
    assert refused[3] == (
        f"item assignment at {backend.at(transpose_written_through, 'a.T[0] = x[4]')}: under "
        f"{under} the write gives 'a.T' a new {new}, but 'a' holds the same array or one "
        f"sharing its memory (an alias, a view of it, or the array it views) and is read "
        f"later, so it would keep the old contents where NumPy changes them. Write through "
        f"one name only (a[1:][0] = v -> a[1] = v), or copy the array (v = a[1:].copy()) if "
        f"the two should not share.")
    assert all(text.startswith("item assignment at ") for text in refused[:3])


def flattened_written(x):
    a = x.reshape(2, 3) * 1.0
    flat = a.reshape(6)
    flat[1] = -1.0
    return a


def flattened_written_base_unread(x):
    a = x.reshape(2, 3) * 1.0
    flat = a.reshape(6)
    flat[1] = -1.0
    return flat


def test_a_reshape_of_several_axes(backend):
    """NumPy gives a view of contiguous memory and a copy otherwise, a layout the NumPy
    engine's graph does not keep: a write through one that the other sees later is
    refused there (a write nobody else reads is staged)."""
    x = np.arange(6.0, dtype=F)
    assert backend.numpy_oracle(flattened_written_base_unread, x) is None
    refused = backend.numpy_oracle(flattened_written, x)
    if backend.engine == "torch":
        assert refused is None
    elif backend.engine == "numpy":
        at = backend.at(flattened_written, 'flat[1] = -1.0').rsplit("/", 1)[-1]  # (its file name)
        assert refused == (
            f"autograph.function: the write at {at} "
            f"goes into an array that NumPy gives as a view of 'a' or as a copy of it (a "
            f"reshape or ravel of an array of several axes: a view where its memory is "
            f"contiguous), and 'a' is read later, so whether it sees the write depends on a "
            f"memory layout the graph does not keep. Write into 'a' itself, or copy "
            f"(b = a.reshape(n).copy()) if the two should not share.")
    else:
        assert refused.startswith("item assignment at ")


# --- an item of a global or closure variable (was NumPy's "setting an array element with a
# sequence" ValueError: converted code left ``G[i] = v`` as written) ---

TABLE = np.zeros(3, F)
ONES = np.zeros(3, F)


def global_written(x):
    TABLE[1] = x[0]
    return TABLE * 1.0


def global_updated_in_place(x):
    TABLE[1] += x[0]
    return x


def global_written_at_a_staged_index(x):
    TABLE[x.shape[0] - 4 + np.argmax(x)] = 1.0
    return x


def closure_writer():
    buf = np.zeros(3, F)

    def closure_written(x):
        buf[1] = x[0]
        return buf * 1.0
    return closure_written


def global_written_with_python_values(x):
    ONES[:] = 1.0  # (at trace time, as eagerly: the graph reads it by value)
    return x[:3] + ONES


def _outer(backend, fn, line, name):
    return (
        f"item assignment at {backend.at(fn, line)}: a staged value is written into the "
        f"NumPy array '{name}' holds, which becomes a staged value; but '{name}' is a global "
        f"or a variable of an enclosing function, which the converted function does not "
        f"rebind, so it would keep the old contents. Write into a local copy and return it "
        f"(a = {name}.copy(); a[i] = v; return a), or pass the array in as an argument.")


def test_an_item_of_a_global_or_closure_array(backend):
    """A staged value written into a global's or a closure's NumPy array: refused, naming
    the line and the variable (the function cannot rebind it); Python values are written
    as eagerly."""
    closure_written = closure_writer()
    TABLE[:] = 0.0
    for fn, line, name in ((global_written, "TABLE[1] = x[0]", "TABLE"),
                           (global_updated_in_place, "TABLE[1] += x[0]", "TABLE"),
                           (global_written_at_a_staged_index,
                            "TABLE[x.shape[0] - 4 + np.argmax(x)] = 1.0", "TABLE"),
                           (closure_written, "buf[1] = x[0]", "buf")):
        assert backend.staging_error(fn, X) == _outer(backend, fn, line, name), fn.__name__
    if getattr(backend, "mode", None) != "explained":  # (which runs it eagerly too)
        assert not TABLE.any()  # left as it was
    assert backend.numpy_oracle(global_written_with_python_values, X) is None
