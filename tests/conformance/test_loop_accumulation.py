"""Staged loops that collect outputs (issue 29): ``lst.append(v)`` in a staged ``for`` or
``while``, differential against eager on every backend. A static trip count gives a
Python list; a run-time one gives ``np.stack(lst)`` with a run-time dimension (the
NumPy engine) or, with ``set_loop_options(maximum_iterations=N)``, padded to N rows
(``backend.pads_lists``: JAX)."""

import numpy as np
import pytest

import autograph as ag


def rnn(xs, h, W, U):
    outs = []
    for x in xs:
        h = np.tanh(x @ W + h @ U)
        outs.append(h)
    return np.stack(outs), h


def _rnn_args(T=5, B=2, D=3, H=4):
    rng = np.random.default_rng(0)
    return (rng.standard_normal((T, B, D)).astype(np.float32), np.zeros((B, H), np.float32),
            rng.standard_normal((D, H)).astype(np.float32) * 0.5,
            rng.standard_normal((H, H)).astype(np.float32) * 0.5)


def test_an_rnn_collects_its_states(backend):
    args = _rnn_args()
    (e_outs, e_h), (s_outs, s_h) = backend.eager(rnn, *args), backend.staged(rnn, *args)
    for e, s in ((e_outs, s_outs), (e_h, s_h)):  # float32 through XLA's fused tanh: 1e-5
        e, s = backend.to_numpy(e), backend.to_numpy(s)
        assert s.shape == e.shape == ((5, 2, 4) if e.ndim == 3 else (2, 4)) and s.dtype == e.dtype
        np.testing.assert_allclose(s, e, rtol=1e-5, atol=1e-6)


def collect_list(xs, scale):
    outs = [scale]  # appended before the loop: stays in front
    for x in xs:
        outs.append(x * scale)
    return outs


def test_a_static_trip_count_gives_a_python_list(backend):
    out = backend.check(collect_list, np.arange(4.0, dtype=np.float32), np.float32(2.0))
    assert type(out) is list and len(out) == 5


def test_zero_iterations(backend):
    backend.check(collect_list, np.zeros((0,), np.float32), np.float32(2.0))


def halvings(x, limit):
    seen = [x]
    while x > limit:
        ag.set_loop_options(maximum_iterations=8)
        x = x / 2
        seen.append(x)
    return np.stack(seen), len(seen)


def _check_collected(backend, fn, n_max, *args):
    """Staged ``(np.stack(lst), len(lst))`` against eager: the first len(lst) rows agree;
    padded (``backend.pads_lists``) to ``n_max`` rows of zeros, else exactly len(lst)."""
    (e_rows, e_len) = backend.eager(fn, *args)
    s_rows, s_len = backend.staged(fn, *args)
    s_rows, e_rows = backend.to_numpy(s_rows), backend.to_numpy(e_rows)
    assert int(backend.to_numpy(s_len)) == e_len
    assert s_rows.dtype == e_rows.dtype
    assert s_rows.shape[0] == (n_max if backend.pads_lists else e_len)
    np.testing.assert_allclose(s_rows[:e_len], e_rows, rtol=1e-6)
    assert not s_rows[e_len:].any()


def test_a_while_with_a_data_dependent_stop(backend):
    _check_collected(backend, halvings, 9, np.float32(10.0), np.float32(1.0))
    _check_collected(backend, halvings, 9, np.float32(0.5), np.float32(1.0))  # zero iterations


def both_branches(xs):
    outs = []
    for x in xs:
        if x > 0:
            outs.append(x * 2)
        else:
            outs.append(-x)
    return outs


def test_appends_in_both_branches_of_a_staged_if(backend):
    backend.check(both_branches, np.array([1.0, -2.0, 3.0], np.float32))


def two_lists(xs):
    highs, lows = [], []
    total = np.float32(0.0)
    for x in xs:
        total = total + x
        highs.append(np.maximum(x, total))
        lows.append(np.minimum(x, total))
    return np.stack(highs), np.stack(lows), total


def test_two_lists_in_one_loop(backend):
    backend.check(two_lists, np.array([1.0, -2.0, 3.0, 0.5], np.float32))


def pairs(xs):
    out = []
    for x in xs:
        out.append((x, x * x))
        out.append((x + 1, -x))
    last = out[-1]
    return out, last


def test_several_appends_of_tuples_per_iteration(backend):
    backend.check(pairs, np.array([1.0, 2.0], np.float32))


def beam_bookkeeping(step_scores, k, xp=np):
    """Keep the k best partial sequences per step (a beam), record each step's parents
    and tokens, and backtrack the best sequence after the loop."""
    n_tokens = step_scores.shape[1]
    totals = xp.zeros(k, dtype=step_scores.dtype)
    parents, tokens = [], []
    for scores in step_scores:
        candidates = xp.reshape(totals[:, None] + scores[None, :], (-1,))
        best = xp.argsort(-candidates)[:k]
        parents.append(best // n_tokens)
        tokens.append(best % n_tokens)
        totals = xp.take(candidates, best)
    beam = 0
    sequence = []
    for t in range(len(tokens) - 1, -1, -1):
        sequence.append(tokens[t][beam])
        beam = parents[t][beam]
    return sequence[::-1], totals


def test_beam_search_bookkeeping(backend):
    scores = np.random.default_rng(1).standard_normal((4, 5)).astype(np.float32)
    backend.check(beam_bookkeeping, scores, 3, xp=backend.xp)


def last_appended(xs):
    outs = []
    for x in xs:
        outs.append(x)
        outs[-1] = outs[-1] * 10
        outs.append(x + 1)
        y = outs.pop()
        outs[0 if False else -1] = outs[-1] + y
    return outs, len(outs)


def test_items_this_iteration_appended(backend):
    out, n = backend.staged(last_appended, np.array([1.0, 2.0], np.float32))
    e_out, e_n = backend.eager(last_appended, np.array([1.0, 2.0], np.float32))
    backend.assert_same(e_out, out)
    assert int(backend.to_numpy(n)) == e_n


# statsmodels 0.15.0, statsmodels/tools/sequences.py, van_der_corput (BSD-3-Clause,
# Copyright (C) 2006 Jonathan E. Taylor, 2009-2019 statsmodels Developers); edits: none
def van_der_corput(n_sample, base=2, start_index=0):
    """
    Van der Corput sequence

    Pseudo-random number generator based on a b-adic expansion.

    Parameters
    ----------
    n_sample : int
        Number of element of the sequence.
    base : int, optional
        Base of the sequence.
    start_index : int, optional
        Index to start the sequence from.

    Returns
    -------
    sequence : list (n_samples,)
        Sequence of Van der Corput.

    """
    sequence = []
    for i in range(start_index, start_index + n_sample):
        n_th_number, denom = 0., 1.
        quotient = i
        while quotient > 0:
            quotient, remainder = divmod(quotient, base)
            denom *= base
            n_th_number += remainder / denom
        sequence.append(n_th_number)

    return sequence


def test_van_der_corput_verbatim(backend):
    backend = backend.numpy_code()  # NumPy code: divmod of NumPy integers
    if backend.engine == "torch":  # remainder / denom: PyTorch's int-by-float division
        backend.check_in_default_float(van_der_corput, 5, np.int64(3))
    else:
        backend.check(van_der_corput, 5, np.int64(3))  # staged base: the inner while is staged
    if backend.pads_lists:  # a staged sample count: the list's length is known at run time
        text = backend.staging_error(van_der_corput, np.int64(5), 3)
        assert text == (
            f"for loop at {backend.at(van_der_corput, 'for i in range(start_index, start_index + n_sample):')}"
            f": the loop appends to 'sequence', and how many times it runs is known only at run "
            f"time (a while loop, a break, a range with staged bounds); {backend.name} needs "
            f"static shapes. Write ag.set_loop_options(maximum_iterations=N) as the first "
            f"statement of the loop: 'sequence' then holds N items per append, those past "
            f"len(sequence) zeros.")
    elif backend.name == "numpy-xla":  # a buffer XLA compiles needs a bound
        assert backend.staging_error(van_der_corput, np.int64(5), 3) == backend.unbounded_list(
            van_der_corput, "sequence.append(n_th_number)",
            "for i in range(start_index, start_index + n_sample):")
    elif backend.returned_list(van_der_corput, "sequence", _VDC_LOOP) is not None:
        assert backend.staging_error(van_der_corput, np.int64(5), 3) == backend.returned_list(
            van_der_corput, "sequence", _VDC_LOOP)
    else:
        backend.check(van_der_corput, np.int64(6), 3)
        backend.check(van_der_corput, np.int64(0), 3)


_VDC_LOOP = "for i in range(start_index, start_index + n_sample):"


# -- what stays an error, and says what to do


def one_branch(xs):
    outs = []
    for x in xs:
        if x > 0:
            outs.append(x)
    return outs


def reads_an_earlier_item(xs):
    outs = [xs[0]]
    for x in xs:
        outs.append(outs[-1] + x)
    return outs


def test_an_append_in_one_branch_is_refused(backend):
    text = backend.staging_error(one_branch, np.array([1.0, -2.0], np.float32))
    assert text == (
        f"if statement at {backend.at(one_branch, 'if x > 0:')}: 'outs' is a list of 1 item in "
        f"the true branch but a list of 0 items in the false branch; a staged condition needs "
        f"the same type and structure on both sides. Convert one side so they match.")


def test_reading_an_item_an_earlier_iteration_appended_is_refused(backend):
    text = backend.staging_error(reads_an_earlier_item, np.array([1.0, 2.0], np.float32))
    assert text.startswith("'outs'[-1] at ")
    assert (f": the staged for loop at {backend.at(reads_an_earlier_item, 'for x in xs:')} "
            f"appends to 'outs', so inside the loop the graph holds its items in buffers and its "
            f"length is known only at run time. Here: index items from before the loop, or items "
            f"this iteration appended (lst[-1]); read the others after the loop.") in text


def unused_option(xs):
    total = 0.0
    for x in xs:
        ag.set_loop_options(shape_invariants=[(total, ())])
        total = total + x
    return total


def test_an_option_the_backend_does_not_use_is_refused(backend):
    if backend.name == "tensorflow":  # TensorFlow's own option: used (tests/tf)
        backend.check(unused_option, np.array([1.0], np.float32))
        return
    text = backend.staging_error(unused_option, np.array([1.0], np.float32))
    assert text.startswith(f"for loop at {backend.at(unused_option, 'for x in xs:')}: "
                           f"set_loop_options(shape_invariants=...) is not used by ")
    assert text.endswith("(the options it uses: maximum_iterations). Remove it.")


def capped(x):
    i = 0
    while x > 0:
        ag.set_loop_options(maximum_iterations=3)
        x = x - 1
        i += 1
    return x, i


def test_maximum_iterations_stops_a_staged_loop(backend):
    x, i = backend.staged(capped, np.int32(10))
    assert int(backend.to_numpy(x)) == 7 and int(backend.to_numpy(i)) == 3
    backend.check(capped, np.int32(2))  # stops by its test first: as eager


def test_set_loop_options_runs_as_python():
    assert ag.set_loop_options(maximum_iterations=3) is None
    assert capped(2) == (0, 2)
    with pytest.raises(TypeError):
        ag.set_loop_options(maximum_iteration=3)


def misplaced_option(x):
    i = 0
    while x > 0:
        x = x - 1
        ag.set_loop_options(maximum_iterations=3)
        i += 1
    return x, i


def test_set_loop_options_not_first_is_refused_when_staged(backend):
    """Not a loop's first statement, no loop takes the options: a staged loop would
    silently run past the maximum_iterations asked for."""
    assert misplaced_option(5) == (0, 5)  # plain Python: does nothing, as the original
    assert ag.convert(misplaced_option)(5) == (0, 5)
    assert backend.staging_error(misplaced_option, np.int32(5)) == (
        f"set_loop_options at {backend.at(misplaced_option, 'ag.set_loop_options(maximum_iterations=3)')}: "
        f"it is not the first statement of a for or while loop, so no loop takes its options. "
        f"Make it the loop's first statement.")


def grow_by_concatenate(xs, v):
    for x in xs:
        v = np.concatenate([v, x * v[-1:]])
    return v


def test_a_growing_concatenate_accumulator(backend):
    """The NumPy engine makes the dimensions that change run-time ones; a backend with
    static shapes names what works for it (a dtype change stays an error everywhere)."""
    args = (np.array([1.0, 2.0, 3.0], np.float32), np.array([1.0], np.float32))
    if backend.name == "tensorflow":  # only with shape_invariants (tests/tf)
        assert "set_loop_options(shape_invariants=[(v, (None,))])" in backend.staging_error(
            grow_by_concatenate, *args)
        return
    if not backend.pads_lists and backend.name != "torch":  # torch: a carry keeps its shape
        backend.check(grow_by_concatenate, *args)
        backend.check(grow_by_concatenate, np.zeros((0,), np.float32), args[1])
        return
    assert backend.staging_error(grow_by_concatenate, *args) == (
        f"for loop at {backend.at(grow_by_concatenate, 'for x in xs:')}: 'v' is float32[1] "
        f"before the loop but float32[2] after one iteration; {backend.name} needs a loop "
        f"variable to keep its shape. Append the pieces to a list (parts.append(x)) and "
        f"concatenate them after the loop, or write into an array of the final shape made "
        f"before the loop.")


def nested_lists(xs):
    outs = []
    for x in xs:
        inner = []
        for y in x:
            inner.append(y * 2)
        outs.append(np.stack(inner))
    return np.stack(outs)


def nested_appends(xs):
    outs = []
    for x in xs:
        for y in x:
            outs.append(y)
    return outs


def test_nested_loops_collect_their_own_lists(backend):
    backend.check(nested_lists, np.arange(6.0, dtype=np.float32).reshape(2, 3))
    text = backend.staging_error(nested_appends, np.ones((2, 3), np.float32))
    assert text == (
        f"for loop at {backend.at(nested_appends, 'for y in x:')}: this staged loop changes "
        f"'outs', which the staged for loop around it at {backend.at(nested_appends, 'for x in xs:')} "
        f"appends to; a list is collected by one staged loop only. Collect the inner loop's "
        f"items in a list of its own and append np.stack(inner) (or its items) after the inner "
        f"loop.")


def doublings(x, n):
    seen = [x]
    i = 0
    while i < n:
        ag.set_loop_options(maximum_iterations=6)
        x = x * 2
        seen.append(x)
        i += 1
    return seen


def test_a_list_of_run_time_length_is_returned(backend):
    if backend.pads_lists:  # N + 1 items, those past len(seen) zeros
        out = backend.staged(doublings, np.float32(1.5), np.int32(3))
        assert len(out) == 7 and int(backend.to_numpy(out.count)) == 4
        assert [float(v) for v in out] == [1.5, 3.0, 6.0, 12.0, 0.0, 0.0, 0.0]
        return
    refusal = backend.returned_list(doublings, "seen", "while i < n:")
    if refusal is not None:  # the framework's function returns arrays only
        assert backend.staging_error(doublings, np.float32(1.5), np.int32(3)) == refusal
        return
    backend.check(doublings, np.float32(1.5), np.int32(3))
    backend.check(doublings, np.float32(1.5), np.int32(0))
