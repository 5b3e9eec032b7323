"""Leftovers of the last round's real-code table (issue 32.5): a Python number in one
branch and an array in the other (``d = 0`` / ``d = dy``, SciPy's BDF solver), and a
message a staged ``if`` chose, passed to ``warnings.warn`` inside the function (SciPy's
``scalar_search_wolfe2``)."""

import sys
import warnings

import numpy as np


def correction(x, dy):
    d = 0
    for k in range(2):
        if x > 1 - k:
            break
        d += dy
    return d + x


def test_a_number_joined_with_an_array_takes_the_array_type(backend):
    dy = np.array([1.0, 2.0], np.float32)
    backend.check(correction, np.float32(-1.0), dy)  # both iterations add dy
    backend.check(correction, np.float32(0.5), dy)  # the first does
    # NumPy's promotion: where eager keeps the Python 0 (x > 0 breaks at once), the staged
    # value is that number broadcast to the array's shape and type.
    np.testing.assert_array_equal(backend.to_numpy(backend.staged(correction, np.float32(3.0), dy)),
                                  np.full(2, 3.0, np.float32))


def line_search_message(alpha1, amax):
    if alpha1 == 0:
        msg = 'Rounding errors prevent the line search from converging'
    else:
        msg = "The line search algorithm could not find a solution " + \
              f"less than or equal to amax: {amax}"
    warnings.warn(msg, RuntimeWarning, stacklevel=2)
    return alpha1 * 2


def test_warn_with_a_message_a_staged_if_chose(backend):
    if not backend.returns_strings_at_run_time:  # no string out of a staged branch
        text = backend.staging_error(line_search_message, np.float32(0.0), 50)
        assert text.startswith(f"if statement at {backend.at(line_search_message, 'if alpha1 == 0:')}"
                               f": 'msg' is a different Python str in each branch")
        return
    staged = backend.function(line_search_message)
    for alpha1, text in ((0.0, "Rounding errors prevent the line search from converging"),
                         (0.5, "The line search algorithm could not find a solution less than "
                               "or equal to amax: 50")):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            staged(np.float32(alpha1), 50); line = sys._getframe().f_lineno  # warns here
        assert [(str(w.message), w.category, w.lineno) for w in caught] == [
            (text, RuntimeWarning, line)]
