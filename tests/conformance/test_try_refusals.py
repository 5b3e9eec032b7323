"""A refusal to stage is not the user's exception: a ``StagingError`` raised inside a
``try`` passes through the user's handlers and through a ``finally`` that jumps, as
an error raised outside the ``try`` would. (Found by the random programs: a
``return`` in ``finally`` swallowed the refusal and returned a wrong value.)

And a staged branch's raise that a ``try`` around the ``if`` would handle (an
``except`` that matches, a ``finally`` that jumps) cannot be a check the graph makes
when it runs — it would raise past the handler — so it is a ``StagingError`` naming
the raise and the ``try`` (found by the random programs: the NumPy engine raised
where eager code returned). So is a staged ``assert`` in a ``try`` that handles
``AssertionError``."""

import numpy as np
import pytest

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


def raise_handled(a, b):
    try:
        for i in range(2):  # not the end of the body: it cannot be a flag (test_handled_raise)
            if a > i:
                raise ValueError("no")
            b = b + 1
    except ValueError:
        b = b - 1
    return a, b


def unbound_swallowed_by_finally(a):
    try:
        if a > 0:
            a = u + 0
    finally:
        return a
    u = 0


def raise_not_handled(a, b):
    try:
        if a > 0:
            raise ValueError("no")
        b = b + 1
    except ZeroDivisionError:
        b = b - 1
    return a, b


def raise_handled_inside_the_branch(a, b):
    if a > 0:
        try:
            raise ValueError("no")
        except ValueError:
            b = b - 1
    return a, b


def test_a_raise_the_try_around_the_if_handles_is_refused(backend):
    assert backend.eager(raise_handled, np.int32(1), np.int32(0)) == (1, -1)
    where = backend.at(raise_handled, "if a > i:")
    raise_at = backend.at(raise_handled, 'raise ValueError("no")')
    try_at = backend.at(raise_handled, "try:")
    assert backend.staging_error(raise_handled, np.int32(1), np.int32(0)) == (
        f"raise in a staged branch at {raise_at}: the branch of the if statement at {where} "
        f"raises ValueError('no'), the try statement at {try_at} handles it, and the "
        f"condition is a staged value: the graph could raise it only when it runs, past the "
        f"try. Check the condition on Python values, or move the raise out of the try.")


def test_an_unbound_read_a_finally_swallows_is_refused(backend):
    assert backend.eager(unbound_swallowed_by_finally, np.int32(1)) == 1
    where = backend.at(unbound_swallowed_by_finally, "if a > 0:")
    try_at = backend.at(unbound_swallowed_by_finally, "try:")
    assert backend.staging_error(unbound_swallowed_by_finally, np.int32(-1)) == (
        f"if statement at {where}: 'u' is read in a branch before it is assigned, the try "
        f"statement at {try_at} handles the UnboundLocalError, and the condition is a staged "
        f"value: the graph could raise it only when it runs, past the try. Assign 'u' before "
        f"the if statement.")


def test_raises_the_try_does_not_handle_stay_run_time_checks(backend):
    if not backend.raises_at_run_time:  # jax.jit, torch.compile: their own refusal
        assert "cannot raise an exception" in backend.staging_error(
            raise_not_handled, np.int32(1), np.int32(0))
        return
    backend.check(raise_not_handled, np.int32(-1), np.int32(0))
    backend.check_raises(raise_not_handled, ValueError, "^no$", np.int32(1), np.int32(0))


@pytest.mark.parametrize("a", [-1, 1])
def test_a_try_inside_the_branch_handles_its_raise(backend, a):
    backend.check(raise_handled_inside_the_branch, np.int32(a), np.int32(0))


def assert_handled(a, b):
    try:
        assert a > 0, "neg"
    except AssertionError:
        b = b - 1
    return a, b


def assert_not_handled(a, b):
    try:
        assert a > 0, "neg"
    except ValueError:
        b = b - 1
    return a, b


def test_an_assert_the_try_handles_is_refused(backend):
    assert backend.eager(assert_handled, np.int32(-1), np.int32(0)) == (-1, -1)
    where = backend.at(assert_handled, 'assert a > 0, "neg"')
    try_at = backend.at(assert_handled, "try:")
    assert backend.staging_error(assert_handled, np.int32(1), np.int32(0)) == (
        f"assert statement at {where}: the try statement at {try_at} handles its "
        f"AssertionError, and the condition is a staged value: the graph could raise it only "
        f"when it runs, past the try. Check the condition on Python values, or move the "
        f"assert out of the try.")


def test_an_assert_the_try_does_not_handle_still_checks(backend):
    backend.check(assert_not_handled, np.int32(1), np.int32(0))
