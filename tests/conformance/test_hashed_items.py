"""Staged values as set items: a set tells equal items apart by their hashes, which a
traced value does not have (PyTorch hashes a traced tensor by identity: ``set(x)`` of
equal items kept them all, a silent wrong value; NumPy's scalars hash by value). Found in
properscoring's ``brier_score`` (``set(np.unique(valid_obs)) <= {0, 1}``)."""

import numpy as np


def distinct_count(x):
    return len(set([x[0], x[1], x[2]]))


def distinct_frozen(x):
    return len(frozenset([x[0], x[1]]))


def test_a_set_of_staged_items_is_refused(backend):
    assert distinct_count(np.array([1.0, 1.0, 2.0])) == 2
    for fn, line, kind in ((distinct_count, "return len(set([x[0], x[1], x[2]]))", "set"),
                           (distinct_frozen, "return len(frozenset([x[0], x[1]]))", "frozenset")):
        text = backend.staging_error(fn, np.array([1.0, 1.0, 2.0]))
        assert text == (
            f"{kind}() at {backend.at(fn, line)}: its items are staged values, known only when "
            f"the program runs, so which of them are equal is not known while it is traced. "
            f"Compare them with array operations (np.unique, ==), or make the {kind} outside "
            f"the staged function."), text


def test_a_set_of_python_values_in_a_staged_function_is_a_set(backend):
    def tags(x, names):
        if x[0] > 0:
            x = x * 2
        return x, len(set(names)), len(frozenset(names))

    backend.check(tags, np.array([1.0, -1.0]), ["a", "b", "a"])
