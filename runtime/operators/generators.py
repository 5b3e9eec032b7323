"""``any``/``all``/``sum``/``next`` of a generator expression whose test is staged.

``next(col for col in y.T if np.any(np.abs(col) > eps))`` (scikit-learn's PLS) asks
each item's test for a Python bool, which a staged test cannot give. The converter
calls these four builtins on a generator expression with one ``for`` as
``ag__.generator_call(fn, iterable, test, element, star, *args)``: ``test`` and
``element`` are the expression's parts as functions of the item (``star``: the
target is a tuple of names).

Python semantics first: while the tests are Python values, the items are pulled
one by one through a plain generator, exactly as the original would, and a
decided ``any``/``all``/``next`` stops early. From the first staged test (or, for
``any``/``all``, staged element) on, every remaining item is traced and the result
is combined with the backend's ops: ``any`` as an or of ``test and bool(element)``,
``all`` as an and of ``not test or bool(element)``, ``sum`` adds each element where
its test holds, ``next`` selects the first element whose test holds (its default,
or a ``StopIteration`` raised when the graph runs and no test held: the NumPy
engine; a backend that cannot raise refuses). Unlike Python, staged items after the
deciding one are traced too.
"""

from __future__ import annotations

from ..staging import errors
from ..staging.backend import backend_of
from .control_flow import if_stmt
from .expressions import and_cond, not_, or_cond
from . import numeric_builtins
from .numeric_builtins import bool_
from ..staging.raises import check_not_handled

_NO_DEFAULT = object()


def _staged(value) -> bool:
    return value.__class__ is not bool and backend_of(value) is not None


def generator_call(fn, iterable, test, element, star, *args, **kwargs):
    """``fn(element(x) for x in iterable if test(x), *args, **kwargs)``."""
    if star:
        test_of, element_of = (lambda x: test(*x)), (lambda x: element(*x))
    else:
        test_of, element_of = test, element
    backend = backend_of(iterable)
    items = iter(iterable if backend is None else backend.unrolled(iterable))
    kind = {any: "any", all: "all", sum: "sum", next: "next"}.get(fn)
    if kind is None:
        return fn((element_of(x) for x in items if test_of(x)), *args, **kwargs)
    pending: list = []  # the first item whose test (or truth) is staged: (test, item, element)

    def python_items():
        for x in items:
            t = test_of(x)
            if _staged(t):
                pending.append((t, x, None))
                return
            if t:
                v = element_of(x)
                if kind in ("any", "all") and _staged(v):
                    pending.append((True, x, v))
                    return
                yield v

    if kind == "any":
        if any(python_items()):
            return True
        if not pending:
            return False
        return _fold(kind, False, pending[0], items, test_of, element_of)
    if kind == "all":
        if not all(python_items()):
            return False
        if not pending:
            return True
        return _fold(kind, True, pending[0], items, test_of, element_of)
    if kind == "sum":
        total = sum(python_items(), *args, **kwargs)
        if not pending:
            return total
        return _fold(kind, total, pending[0], items, test_of, element_of)
    default = args[0] if args else kwargs.get("default", _NO_DEFAULT)
    try:
        return next(python_items())
    except StopIteration:
        if not pending:
            if default is _NO_DEFAULT:
                raise
            return default
    return _first(pending[0], items, test_of, element_of, default)


def _pairs(first, items, test_of, element_of):
    """``(test, element)`` of the first staged item and every later one (a Python-false
    test drops its item, as the generator would)."""
    t, x, v = first
    yield t, (element_of(x) if v is None else v)
    for x in items:
        t = test_of(x)
        if t.__class__ is bool or not _staged(t):
            if not t:
                continue
            t = True
        yield t, element_of(x)


def _fold(kind, acc, first, items, test_of, element_of):
    for t, v in _pairs(first, items, test_of, element_of):
        if kind == "any":
            acc = or_cond(acc, lambda t=t, v=v: and_cond(t, lambda: bool_(v))())()
        elif kind == "all":
            acc = and_cond(acc, lambda t=t, v=v: or_cond(not_(t), lambda: bool_(v))())()
        else:
            acc = acc + _select(t, v, v * 0)
    return acc


def _select(t, a, b):
    if not _staged(t):
        return a if t else b
    return backend_of(t).numeric("where", (t, a, b), {})


def _first(first, items, test_of, element_of, default):
    pairs = list(_pairs(first, items, test_of, element_of))
    found = False
    for t, _ in pairs:
        found = or_cond(found, lambda t=t: t)()
    result = pairs[-1][1] * 0 if default is _NO_DEFAULT else default
    for t, v in reversed(pairs):
        result = _select(t, v, result)
    if default is _NO_DEFAULT and _staged(found):
        _raise_unless(found)
    return result


def _raise_unless(found) -> None:
    """When the graph runs and no test held, raise ``StopIteration`` (as ``next``)."""
    backend = backend_of(found)

    def none_found():
        check_not_handled(StopIteration(), "next() of a generator expression whose test is "
                                           "staged")
        try:
            backend.raise_(StopIteration(), none_found)
        except errors.StagingError:
            raise errors.StagingError(
                f"next() of a generator expression whose test is staged: when no item "
                f"passes, next() raises StopIteration, which {backend.name} cannot raise when "
                f"the compiled function runs. Give next() a default "
                f"(next((... for ...), default)).") from None
        return ()

    if_stmt(not_(found), none_found, None, (), ())


def _truth_of_items(fn):
    """``any(items)``/``all(items)`` of a list, tuple or array that may hold staged
    items (SciPy's ``all(fs) and all(np.isfinite(fs))``): Python's short-circuit over the
    Python items, then the backend's or/and of the staged ones (``generators``). A
    Python item of a list of scalars that decides the result decides it wherever it
    stands (``all([fa, fb, None])`` is False): the truth of the others changes nothing."""
    decided = fn is any  # the result one item's truth decides

    def staged(iterable):
        if iterable.__class__ in (list, tuple) and all(
                getattr(item, "ndim", 0) == 0 for item in iterable):
            for item in iterable:  # a Python item that decides it, wherever it stands
                if backend_of(item) is None and bool(item) is decided:
                    return decided
        return generator_call(fn, iterable, _always, _itself, False)

    staged.__name__ = staged.__qualname__ = f"{fn.__name__}_"
    staged.__wrapped__ = fn
    return staged


def _always(item) -> bool:
    return True


def _itself(item):
    return item


# What converted code calls for ``any``/``all`` (``call_trees`` routes them through
# ``ag__.converted``): registered here, where the generator machinery lives.
numeric_builtins._STAGED[any] = _truth_of_items(any)
numeric_builtins._STAGED[all] = _truth_of_items(all)
