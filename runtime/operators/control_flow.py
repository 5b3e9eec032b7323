"""Functional control flow: what the staged body of a converted function calls.

Each operator has one Python path and one dispatch point. The Python path is the
statement's reference semantics; e.g. ``while_stmt`` is::

    while test(*state):
        state = body(*state)
    return state

When a condition or iterable is a staged value of some backend (see
``backends``), the backend builds its graph op instead. Handing over works in
the middle of a loop: a ``while`` whose test turns staged after a few Python
iterations continues as a backend loop from the current state, and a Python
``for`` whose ``extra_test`` (the lowered ``break``/``return`` flag) turns staged
runs its remaining iterations each under a backend ``if``.

The generated code calls the branch and loop bodies itself (``branch`` returns
the branch to call, ``for_loop`` and ``while_loop`` give what to call the body on,
see ``Loop``): on Python values no frame of the runtime sits between the user's
function and its bodies, so code that looks at its caller sees the user's
function, and a recursive function spends one frame per body, not two. Under a
backend's op the backend calls the bodies (tracing them), as it must.
``if_stmt``, ``while_stmt`` and ``for_stmt`` are the same operators run to the
end, for callers that have the bodies but are not generated code.

Bodies receive the carried variables as arguments and return them as a tuple,
so no operator mutates enclosing variables. The exception is ``shared``: variables
that closures capture (or that are declared ``nonlocal``/``global``) are assigned
in place by the generated functions, so that every closure keeps seeing one
variable. Python runs them as they are; for a backend op, ``shared`` — a getter,
a setter and the names — carries them as extra state, the way a backend needs
every value a branch or loop body changes.
"""

from __future__ import annotations

import sys
from sys import _getframe  # the runtime's own: a user may take it off sys

import numpy as np

from ..staging import iterated, loop_options, raises as staged_raise
from ..staging.backend import backend_of, tracing_now
from ..staging.conditionals import stage_if
from ..staging.loops import StagedEnumerate, StagedZip, stage_while
from .builtins import ArrayEnumerate, ArrayZip


def branch(cond, body, orelse, names, shared=None, dead=(), leaves=((), ())):
    """What ``if cond:`` runs: the function the generated code then calls with the state::

        (y,) = ag__.branch(x > 0, if_body, else_body, ('y',))(y)

    A Python ``cond`` picks ``body`` or ``orelse`` (``None``: keep the state), and
    the generated code calls it itself, so nothing of the runtime sits between the
    user's function and the branch it runs (``sys._getframe(1)``,
    ``warnings.warn(stacklevel=2)`` inside it see the user's function). A staged
    ``cond`` gives a function that traces both branches into the backend's cond
    op; every name in ``names`` must then be defined by both, except those in ``dead``:
    variables that may be unassigned when the ``if`` starts and that nothing reads after
    it (the converter's liveness), which stay unassigned where one branch leaves them so;
    ``leaves[side]``: those a side that ends in a ``break`` may leave unassigned (nothing
    reads them after the loop).
    """
    if cond.__class__ is bool or backend_of(cond) is None:
        if cond:
            return body
        return _keep if orelse is None else orelse
    return lambda *state: if_stmt(cond, body, orelse, state, names, shared, dead, leaves)


def if_stmt(cond, body, orelse, state, names, shared=None, dead=(), leaves=((), ())):
    """``body(*state) if cond else orelse(*state)``; ``orelse`` None keeps ``state``.

    A staged ``cond`` traces both branches into the backend's cond op; every name
    in ``names`` must then be defined by both branches.
    """
    if cond.__class__ is bool or (backend := backend_of(cond)) is None:
        if cond:
            return body(*state)
        return state if orelse is None else orelse(*state)
    landing = shared[3] if shared is not None and len(shared) > 3 else ()
    branches = staged_raise.Branches(backend, names[:len(state)] + tuple(landing), dead, leaves)
    body = branches.catching(body, 0, len(state))
    orelse = branches.catching(orelse or _keep, 1, len(state))
    with branches:
        out = stage_if(backend, cond, body, orelse, state, names, shared)
    branches.check()
    return out


def _keep(*state):
    return state


def staged(value) -> bool:
    """Whether a condition is a staged value (of some backend), not a Python one.

    The Python path of a lowered ``if``/``while`` in compiled code asks this, and
    on ``False`` runs the construct's body inline, in the user's own frame
    (``converters.python_paths``)."""
    return value.__class__ is not bool and backend_of(value) is not None


class Loop:
    """A loop the generated code runs itself, so that each iteration's body is
    called by the user's function and not by the runtime::

        loop = ag__.for_loop(xs, loop_body, (acc,), ('acc',))
        for itr in loop:
            loop.state = loop_body(itr, *loop.state)
        (acc,) = loop.state

    Iterating gives what to run the body on (the items of a ``for``, the state of
    a ``while``); ``state`` holds the carried variables. A loop that a backend
    runs (a staged iterable or test) yields nothing: ``state`` is already its result.
    """

    __slots__ = ("state", "_items")

    def __init__(self, state) -> None:
        self.state = state
        self._items = iter(())

    def __iter__(self):
        return self._items


def while_loop(test, body, state, names, shared=None, options=None) -> Loop:
    """``while test(*state): state = body(*state)``, run by the generated code.

    ``options`` are the loop's ``set_loop_options`` (the converter passes them); a
    loop that runs as Python ignores them."""
    loop = Loop(state)
    loop._items = _while_items(loop, test, body, names, shared, options)
    return loop


def _while_items(loop, test, body, names, shared, options=None):
    while True:
        state = loop.state
        cond = test(*state)
        if cond.__class__ is not bool and (backend := backend_of(cond)) is not None:
            loop.state = _stage_while(backend, test, body, state, names, shared, options)
            return
        if not cond:
            return
        yield state


def while_from(cond, test, body, state, names, shared=None, options=None):
    """The rest of a ``while`` loop whose test ``cond`` (``test(*state)`` on the
    current ``state``) is staged, as its backend's loop; returns the final state."""
    return _stage_while(backend_of(cond), test, body, state, names, shared, options)


def _stage_while(backend, test, body, state, names, shared, options):
    """A staged ``while``, built with its ``options`` current; ``maximum_iterations``
    stops it there (a counter carried last)."""
    with loop_options.building(options):
        bound = (options or {}).get("maximum_iterations")
        if bound is None:
            return stage_while(backend, test, body, state, names, shared)
        counted_test = _counted(lambda *s: test(*s[:-1]), bound, backend, test)
        out = stage_while(backend, counted_test, _counting(body, False), tuple(state) + (0,),
                          _with_counter(names, state), shared)
        return out[:-1]


def _counted(test, bound, backend, wrapped):
    """``test(*state)`` and the iteration counter (carried last) below ``bound``."""
    def run(*state):
        go_on = test(*state)
        below = state[-1] < bound
        if go_on.__class__ is bool and below.__class__ is bool:
            return go_on and below
        return backend.numeric("where", (go_on, below, False), {})

    run.__wrapped__ = wrapped
    return run


def _counting(body, item: bool):
    """``body`` that also counts its iterations (the counter carried last)."""
    if item:
        def run(x, *state):
            return (*body(x, *state[:-1]), state[-1] + 1)
    else:
        def run(*state):
            return (*body(*state[:-1]), state[-1] + 1)
    run.__wrapped__ = body
    return run


def _with_counter(names, state) -> tuple:
    return tuple(names[:len(state)]) + ("the iteration count",)


def for_loop(iterable, body, state, names, extra_test=None, shared=None, options=None) -> Loop:
    """``for item in iterable: state = body(item, *state)``, run by the generated code.

    ``extra_test(*state)`` is checked after each iteration; a false value ends the
    loop (it carries the lowered ``break`` and ``return``). A staged iterable is
    handed to its backend; a staged ``extra_test`` result makes each remaining
    iteration of the Python loop run under a backend ``if``.
    """
    loop = Loop(state)
    backend = None if iterable.__class__ in _PYTHON_ITERABLES else backend_of(iterable)
    if backend is not None:
        loop.state = _stage_for(backend, iterable, body, state, names, extra_test, shared,
                                options)
        return loop
    if iterable.__class__ in _WATCHED and tracing_now() is not None:
        iterable = _watched(iterable, body, state, names)
    if extra_test is None:
        loop._items = iter(iterable)
    else:
        loop._items = _for_items(loop, iterable, body, names, extra_test, shared)
    return loop


def _watched(iterable, body, state, names):
    """``iterable`` with each writable NumPy array it iterates (itself, or what an
    ``enumerate``/``zip`` of it takes) read through ``_watched_items``."""
    cls = iterable.__class__
    if cls is np.ndarray:
        if iterable.ndim and iterable.flags.writeable:
            return _watched_items(iterable, body, state, names)
        return iterable
    if cls is ArrayEnumerate:
        return enumerate(_watched(iterable.iterable, body, state, names), iterable.start)
    if cls is ArrayZip:
        inner = [_watched(it, body, state, names) for it in iterable.iterables]
        return zip(*inner, strict=True) if iterable.strict else zip(*inner)
    return iterable


def _watched_items(array, body, state, names):
    """The items of a NumPy array a Python loop iterates while tracing, each read when its
    iteration starts from the array as the body's writes left it (``staging.iterated``:
    a write under a staged condition gives the array's new contents to a staged value)."""
    label = next((n for n, s in zip(names, state) if s is array), "the iterated array")
    watch = iterated.start(array, label, body)
    try:
        for k in range(len(array)):
            yield watch.current[k]
    finally:
        iterated.stop(watch)


def _stage_for(backend, iterable, body, state, names, extra_test, shared, options):
    """A staged ``for``, built with its ``options`` current; ``maximum_iterations``
    below the iterable's static length stops it there (a counter carried last)."""
    carried = [] if backend.follows_iterated_writes else _carried_arrays(iterable, state)
    if carried:
        iterable, body = _over_indices(backend, iterable, body, state, carried, names)
    with loop_options.building(options):
        bound = (options or {}).get("maximum_iterations")
        shape = getattr(iterable, "shape", None)
        if bound is None or (shape and shape[0] is not None and shape[0] <= bound):
            return backend.for_stmt(iterable, body, state, names, extra_test, shared)
        test = extra_test or (lambda *s: True)
        counted_test = _counted(lambda *s: test(*s[:-1]), bound, backend, test)
        out = backend.for_stmt(iterable, _counting(body, True), tuple(state) + (0,),
                               _with_counter(names, state), counted_test, shared)
        return out[:-1]


def _carried_arrays(iterable, state) -> list:
    """The indices in ``state`` of the arrays a staged loop's items come from (the
    iterable, or what an ``enumerate``/``zip`` of it takes): names the body assigns."""
    if iterable.__class__ in (range, list, tuple):
        return []
    ids = {id(a) for a in _sources(iterable)}
    return [j for j, value in enumerate(state) if id(value) in ids]


def _sources(iterable) -> list:
    if isinstance(iterable, StagedEnumerate):
        return _sources(iterable.iterable)
    if isinstance(iterable, StagedZip):
        return [a for it in iterable.iterables for a in _sources(it)]
    return [iterable]


def _over_indices(backend, iterable, body, state, carried, names):
    """A staged ``for`` over arrays its body assigns (``carried``: their slots in the
    state), as a loop over indices whose items are read from the carried arrays: eagerly
    each iteration reads the array as the iterations before it left it. Writes into them
    are followed (``staging.iterated``); a body that gives the name another array, which
    eager iteration would not see, is refused."""
    sources = _sources(iterable)
    if any(getattr(backend.aval(a), "shape", None) in (None, ()) for a in sources):
        return iterable, _refusing_writes(body, carried, names, follow=False)
    slot_of = {id(state[j]): j for j in carried}

    def item(it, k, s):
        if isinstance(it, StagedEnumerate):
            return (it.start + k, item(it.iterable, k, s))
        if isinstance(it, StagedZip):
            return tuple(item(i, k, s) for i in it.iterables)
        j = slot_of.get(id(it))
        return backend.getitem(it if j is None else s[j], k)

    n = min(backend.len_(a) for a in sources)
    watched = _refusing_writes(body, carried, names, follow=True)

    def run(k, *s):
        return watched(item(iterable, k, s), *s)

    run.__wrapped__ = body
    return backend.range_(0, n, 1), run


def _refusing_writes(body, carried, names, follow: bool):
    """``body`` with each carried iterated array watched (``staging.iterated``). With
    ``follow`` (the items are read from the carried array) a write it cannot follow, or
    another array given to the name, is a ``StagingError``; without, any write is."""
    def run(item, *s):
        watches = [iterated.start(s[j], names[j], body) for j in carried]
        try:
            out = body(item, *s)
        finally:
            for w in watches:
                iterated.stop(w)
        for w, j in zip(watches, carried):
            if out[j] is s[j] and not w.written:
                continue
            if follow and out[j] is w.current:
                continue
            raise w.refusal(
                "the body gives {name}, the array the loop iterates over, a value that is "
                "not that array as written (another array, or one a staged loop or try in "
                "the body made)" if follow else "the body writes into {name}, the array the "
                "loop iterates over, and the loop cannot read its items from the written "
                "array")
        return out

    run.__wrapped__ = body
    return run


def _for_items(loop, iterable, body, names, extra_test, shared):
    iterator = iter(iterable)
    for done, item in enumerate(iterator, 1):
        yield item
        go_on = extra_test(*loop.state)
        if go_on.__class__ is not bool and (backend := backend_of(go_on)) is not None:
            rest = iterable[done:] if iterable.__class__ is range else None
            if rest is not None and len(rest) > 1 and backend.stages_range_rest:
                staged = _staged_rest(backend, rest, body, loop.state, names, extra_test, shared)
                if staged is not None:
                    loop.state = staged
                    return
            loop.state = _guarded_rest(go_on, iterator, body, loop.state, names, extra_test, shared)
            return
        if not go_on:
            return


def _staged_rest(backend, rest, body, state, names, extra_test, shared):
    """The rest of a loop over a Python ``range`` whose exit flag became staged (``for i
    in range(maxiter): ... if converged: break``), as the backend's while loop over the
    remaining items (a counter carried last), so that its graph does not grow with
    ``maxiter``; None where that loop cannot be staged (the body needs its item as a
    Python int, say): the caller then runs each remaining iteration under a backend ``if``."""
    def run(*s):
        k = s[-1]
        return (*body(rest.start + k * rest.step, *s[:-1]), k + 1)

    run.__wrapped__ = body
    test = _counted(lambda *s: extra_test(*s[:-1]), len(rest), backend, body)
    try:
        out = stage_while(backend, test, run, tuple(state) + (0,), _with_counter(names, state),
                          shared)
    except Exception:  # noqa: BLE001 - unrolled instead, as before: it raises what is real
        return None
    return out[:-1]


def while_stmt(test, body, state, names, shared=None):
    """``while test(*state): state = body(*state)``, returning the final state."""
    loop = while_loop(test, body, state, names, shared)
    for current in loop:
        loop.state = body(*current)
    return loop.state


def for_stmt(iterable, body, state, names, extra_test=None, shared=None):
    """``for item in iterable: state = body(item, *state)``; see ``for_loop``."""
    loop = for_loop(iterable, body, state, names, extra_test, shared)
    for item in loop:
        loop.state = body(item, *loop.state)
    return loop.state


def _guarded_rest(go_on, iterator, body, state, names, extra_test, shared):
    """Unroll the rest of a Python loop whose exit flag became staged."""
    for item in iterator:
        state = if_stmt(go_on, _with_item(body, item), None, state, names, shared)
        go_on = extra_test(*state)
    return state


def _with_item(body, item):
    """``body`` called on ``item``: a wrapper that names ``body`` as what it wraps, so
    that the staged ``if`` sees what the loop body closes over (the containers it
    may change in place) and messages point at the user's loop."""
    def run(*state):
        return body(item, *state)

    run.__wrapped__ = body
    return run


_WATCHED = frozenset({np.ndarray, ArrayEnumerate, ArrayZip})
_PYTHON_ITERABLES = frozenset({range, list, tuple, dict, str, set, frozenset, bytes, enumerate, zip})


def assert_stmt(cond, message=None):
    """``assert cond, message()``; ``message`` is a thunk, evaluated only on failure."""
    if cond.__class__ is bool or (backend := backend_of(cond)) is None:
        if not cond:
            if message is None:
                raise AssertionError
            raise AssertionError(message())
        return None
    staged_raise.check_assert_not_handled(_getframe(1))
    return backend.assert_stmt(cond, message)


# A failed ``assert`` on Python values is the user's own raise: in a staged branch it
# becomes the graph's run-time raise there, as a ``raise`` statement does.
staged_raise.USER_STATEMENTS.add(assert_stmt.__code__)
