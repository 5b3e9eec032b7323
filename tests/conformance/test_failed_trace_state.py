"""A trace that fails leaves the user's containers as it found them (issue 27): a
staged value written into a global list or dict, or into one a closure holds, before
the construct that refuses is taken out again, so after the StagingError the
container holds exactly what it held before, and a later call runs on it."""

import numpy as np

F = np.float32

HISTORY = [None, "kept"]
SETTINGS = {"scale": 1.0, "nested": {"last": None}}


def writes_globals_then_refused(x):
    HISTORY[0] = x * 0
    SETTINGS["nested"]["last"] = x
    SETTINGS["extra"] = x
    if x > 0:
        HISTORY[0] = x + 1  # refused: a global's item changed in a staged if
    return x


def _closure_writer():
    seen = [0.0]

    def writes_closure_then_refused(x):
        seen.append(x)
        seen[0] = x * 2
        if x > 0:
            HISTORY[0] = x + 1  # refused: a global's item changed in a staged if
        return x

    return seen, writes_closure_then_refused


def _reset():
    HISTORY[:] = [None, "kept"]
    SETTINGS.clear()
    SETTINGS.update({"scale": 1.0, "nested": {"last": None}})


def test_a_failed_trace_puts_back_global_containers(backend):
    _reset()
    before_history, before_nested = list(HISTORY), SETTINGS["nested"]
    before_settings = dict(SETTINGS)
    text = backend.staging_error(writes_globals_then_refused, F(1.0))
    assert "(reached through the global 'HISTORY')" in text
    assert HISTORY == before_history and all(a is b for a, b in zip(HISTORY, before_history))
    assert SETTINGS == before_settings and SETTINGS["nested"] is before_nested
    assert before_nested == {"last": None}


def test_a_failed_trace_puts_back_closure_containers(backend):
    _reset()
    seen, fn = _closure_writer()
    before_history = list(HISTORY)
    backend.staging_error(fn, F(1.0))
    assert seen == [0.0] and HISTORY == before_history


# --- a trace that ends well but left a staged value where it outlives the trace ---

COUNT = 0


def counts_in_a_global(x):
    global COUNT
    while x > 0:
        COUNT += 1
        x = x - 1
    return x


def _rebinds_its_closure():
    last = 0.0

    def keeps_the_last(x):
        nonlocal last
        last = x * 2
        if x > 0:
            x = x + 1
        return x

    return (lambda: last), keeps_the_last


def _escaped(backend, fn, where: str, what: str) -> str:
    """The StagingError text for a staged value left in ``where`` (but the NumPy
    engine's, which names the line that made the value)."""
    return (f"{fn.__name__}(): its {backend.name} trace stored a staged value ({what}) in "
            f"{where}, which outlives the trace; the value means nothing outside the graph. "
            f"Return it from the function, and store what the call returns.")


def test_a_staged_value_left_in_a_global_is_refused_and_taken_out(backend):
    """Issue 27.6: ``COUNT += 1`` in a staged loop makes COUNT a staged value; the trace
    is refused (the NumPy engine names the line), and COUNT holds what it held."""
    global COUNT
    COUNT = 0
    text = backend.staging_error(counts_in_a_global, F(3.0))
    assert COUNT == 0 and type(COUNT) is int
    if backend.engine == "numpy":
        assert ("(`COUNT += 1`) was stored in the global 'COUNT', which outlives the trace"
                in text), text
    else:
        what = {"jax": "int32[]", "tensorflow": "int64[]", "torch": "int64[]"}[backend.name]
        assert text == _escaped(backend, counts_in_a_global, "the global 'COUNT'", what)
    assert counts_in_a_global(3.0) == 0.0 and COUNT == 3  # eager: the global counts


def test_a_staged_value_left_in_a_closure_variable_is_refused_and_taken_out(backend):
    last, fn = _rebinds_its_closure()
    text = backend.staging_error(fn, F(3.0))
    assert last() == 0.0
    if backend.engine == "numpy":
        assert "was stored in the closure variable 'last', which outlives the trace" in text
    else:
        assert text == _escaped(backend, fn, "the closure variable 'last'", "float32[]")
