"""A refusal to stage is not the user's exception: a ``StagingError`` raised inside a
``try`` passes through the user's handlers and through a ``finally`` that jumps, as
an error raised outside the ``try`` would. (Found by the random programs: a
``return`` in ``finally`` swallowed the refusal and returned a wrong value.)"""

import numpy as np

KEEP = ("'z' is a Python float (2.5) before the loop but int32[] after one iteration; "
        "a staged loop must keep each variable's type and shape.")


def return_in_finally(a):
    c = a
    z = 2.5
    try:
        while a < 0:
            z = a
    except ZeroDivisionError:
        pass
    else:
        c = a + 1
    finally:
        return c, z


def broad_handler(a):
    z = 2.5
    try:
        while a < 0:
            z = a
    except Exception:
        z = -1.0
    return z


def bare_handler(a):
    z = 2.5
    try:
        for _ in range(a):
            z = a
    except:  # noqa: E722 - what is tested
        z = -1.0
    return z


def narrow_handler(a, zero):
    try:
        c = a + 1 // zero
    except (ValueError, ZeroDivisionError):
        c = a
    if a > 0:
        c = c + 1
    return c


def test_return_in_finally_does_not_swallow_a_refusal(backend):
    assert backend.eager(return_in_finally, np.int32(1)) == (2, 2.5)
    where = backend.at(return_in_finally, "while a < 0:")
    assert backend.staging_error(return_in_finally, np.int32(1)) == (
        f"while loop at {where}: {KEEP} Give 'z' its final dtype and shape before the loop "
        f"(e.g. with astype).")


def test_broad_handlers_do_not_catch_a_refusal(backend):
    assert backend.eager(broad_handler, np.int32(1)) == 2.5
    assert KEEP in backend.staging_error(broad_handler, np.int32(1))
    assert backend.eager(bare_handler, np.int32(0)) == 2.5
    assert KEEP in backend.staging_error(bare_handler, np.int32(0))


def test_handlers_still_catch_the_users_exceptions(backend):
    backend.check(narrow_handler, np.int32(3), 0)
    backend.check(narrow_handler, np.int32(-3), 0)
    backend.check(narrow_handler, np.int32(-3), 1)
