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
