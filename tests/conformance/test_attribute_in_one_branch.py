"""An attribute one branch of a staged ``if`` assigns and the other leaves absent
(issue 32.5: SciPy's DCSRCH sets ``self.brackt`` after an early return taken on a
staged status). The ``if`` is staged; the attribute holds a value carried with a
flag (where the other side left it absent): a program that does not read it on the
staged paths after the ``if`` runs as eagerly; one that reads it is a StagingError
naming it, where eager Python would raise AttributeError on some paths.
"""

import numpy as np
import pytest


class Search:
    def step(self, x):
        if x < 0:
            return x
        self.width = x * 2
        return x + self.width


def search(x):
    s = Search()
    return s.step(x)


def reads_it_after(x):
    s = Search()
    y = s.step(x)
    return y + s.width


@pytest.mark.parametrize("x", [3.0, -3.0])
def test_an_attribute_set_after_an_early_return(backend, x):
    backend.check(search, np.float64(x))


def test_reading_it_where_it_may_be_absent_is_refused(backend):
    with pytest.raises(AttributeError):
        backend.eager(reads_it_after, np.float64(-3.0))
    text = backend.staging_error(reads_it_after, np.float64(3.0))
    assert "'self.width' is assigned on some staged paths only (one branch of an if" in text
    assert "Assign 'self.width' before the if statement" in text


def asks_hasattr(x):
    s = Search()
    s.step(x)
    return hasattr(s, "width")


def test_hasattr_of_it_is_refused(backend):
    assert backend.eager(asks_hasattr, np.float64(-3.0)) is False
    assert backend.staging_error(asks_hasattr, np.float64(3.0)) == (
        "hasattr(..., 'width'): the attribute is assigned on some staged paths only (one "
        "branch of an if whose condition is a staged value), so whether it exists is known "
        "only when the graph runs. Assign it before the if statement, or in both branches.")


class Stepper:
    """SciPy's DCSRCH in small: the first call sets ``self.scale`` after an early return
    taken on a staged status; a later call of the same method reads it (in a test, and
    in arithmetic). Eager Python raises AttributeError there where it was never set."""

    def step(self, x, first):
        if first:
            if x < 0:
                return x
            self.scale = x * 2
            return x
        if self.scale > 1.0:
            return x * self.scale
        return x


def two_steps(x):
    s = Stepper()
    y = s.step(x, True)
    return s.step(y + 1.0, False)


def test_a_later_call_reads_it_where_it_was_set(backend):
    if backend.raises_at_run_time:  # the read raises eager's AttributeError when it runs
        backend.check(two_steps, np.float64(3.0))
        backend.check_raises(two_steps, AttributeError,
                             "^'Stepper' object has no attribute 'scale'$", np.float64(-3.0))
        return
    text = backend.staging_error(two_steps, np.float64(3.0))
    assert text.startswith("'self.scale' is assigned on some staged paths only (one branch "
                           "of an if whose condition is a staged value) and is used here; the "
                           "compiled code cannot raise the AttributeError"), text
