"""The names that would keep an array's old contents after a staged write.

A staged write into an array (``e[0] = x`` under ``jax.jit``, a staged value written
into a NumPy array) gives the written name a new value; the converter rebinds that one
name (``e = ag__.setitem(e, 0, x)``). Eagerly the write changes memory, so every other
name holding the same array (an alias, ``e = d``) or an array sharing its memory (a
view, ``inner = d[1:]``, or the array a view views) sees it too. ``stale`` finds such
a name in the frames of converted code (the function writing, its generated branch
and loop bodies, the functions calling it) that the code may still read: a name read
after the frame's current instruction, a name a nested function reads (a cell), or one
read inside a loop of that code. A name never read again keeps the old contents
harmlessly (``row = A[i]; A[i] = row / 2`` in a loop body).
"""

from __future__ import annotations

import dis
import sys
import weakref
from typing import Callable, Optional

from . import converted, errors
from .arg_writes import GENERATED, user_location

_LOADS = frozenset({"LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_AND_CLEAR", "LOAD_DEREF",
                    "LOAD_CLOSURE", "LOAD_NAME", "LOAD_FAST_LOAD_FAST", "LOAD_FAST_BORROW",
                    "LOAD_FAST_BORROW_LOAD_FAST_BORROW", "DELETE_FAST"})
_STORES = frozenset({"STORE_FAST", "STORE_DEREF", "STORE_NAME", "STORE_GLOBAL"})
_code_info: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # code -> (instructions, loops)


def stale(shares: Callable[[object], bool], skip=frozenset()) -> Optional[tuple]:
    """``(name, function, own)`` of a name that holds a value ``shares(value)`` says
    shares memory with the array being written, and may be read after the write;
    ``function`` is the user function whose frame holds it, ``own`` for the function
    doing the write and its generated bodies. The name the write rebinds, and the names
    in ``skip`` (a construct's own carried names), are skipped there. None if there is
    none."""
    frame = _innermost()
    if frame is None:
        return None
    shares = _with_arrays_entered(shares)
    rebound = _rebound(frame)
    own, function = True, None
    while frame is not None:
        code = frame.f_code
        if code in converted.codes:
            user = not GENERATED.match(code.co_name) and code.co_name != "<lambda>"
            for name, value in frame.f_locals.items():
                if own and (name == rebound or name in skip):
                    continue
                for held in held_in(value, name):
                    if shares(held[1]) and _may_read(frame, name):
                        return held[0], (code.co_name if user else function), own
            if user:
                function = function or code.co_name
                own = False
        frame = frame.f_back
    return None


_HELD_DEPTH = 3  # how far into the lists, tuples and dicts a name holds


def held_in(value, label: str, depth: int = _HELD_DEPTH):
    """``(label, item)`` for ``value`` and the items of the lists, tuples and dicts it
    holds (``l[0]``, ``d['k']``), a few levels down: a container holding an array keeps
    it as an alias does (``l = [a]; a[0] = x`` changes ``l[0]`` eagerly)."""
    yield label, value
    if depth and value.__class__ in (list, tuple, dict):
        pairs = value.items() if value.__class__ is dict else enumerate(value)
        for key, item in pairs:
            yield from held_in(item, f"{label}[{key!r}]", depth - 1)


def refuse_shared_write(shares: Callable[[object], bool], under: str, new: str) -> None:
    """A ``StagingError`` if a write that gives only the written name a new value (a
    ``new`` one, ``under`` a framework's trace) leaves another name that is read later
    holding the old contents (``stale``), where NumPy changes them."""
    held = stale(shares)
    if held is not None:
        raise errors.StagingError(
            f"item assignment at {user_location()}: under {under} the write gives "
            f"'{rebound_name()}' a new {new}, but "
            f"'{held[0]}' holds the same array or one sharing its memory (an alias, a view "
            f"of it, or the array it views) and is read later, so it would keep the old "
            f"contents where NumPy changes them. Write through one name only (a[1:][0] = v "
            f"-> a[1] = v), or copy the array (v = a[1:].copy()) if the two should not share.")


def refuse_shared_in_place(shares: Callable[[object], bool], under: str, why: str) -> None:
    """A ``StagingError`` if ``name op= value``, which eager code runs in place, would
    leave another name that is read later holding the old contents under ``under``'s
    trace (``why``: how the two come apart there); ``shares`` as for ``stale``."""
    held = stale(shares)
    if held is not None:
        name = rebound_name()
        raise errors.StagingError(
            f"in-place operator at {user_location()}: eagerly it changes the array '{name}' "
            f"holds, and {_named(held[0])} holds the same array or one sharing its memory "
            f"(an alias, a view of it, or the array it views) and is read later; under "
            f"{under} {why}, so {_named(held[0])} would keep the old contents. Write the "
            f"operator out ({name} += v -> {name} = {name} + v: a new array) if "
            f"{_named(held[0])} should keep them, or change the array through one name only.")


def refuse_copied(target, under: str, kind: type = object) -> None:
    """``name op= value`` on ``target`` where a staged ``if`` or loop gave another name the
    same object (``r = i`` in a branch; or gave ``target`` itself as a copy of another's,
    ``a = b`` in a loop's body): eagerly both names hold the very object and see the
    change; under ``under``'s trace one holds the construct's copy. A ``StagingError`` if
    that name (a ``kind``) is read later (``kept.note_copies`` keeps what the trace's
    constructs copied)."""
    from .kept import copied_from
    from .returns import Pending

    origins, made_by = copied_from(target)
    constructs = {made_by}

    def shares(held) -> bool:  # a value, or one in a pending return value
        for v in (held, *(held if held.__class__ is Pending else ())):
            if v is target or not isinstance(v, kind):
                continue
            copies, construct = copied_from(v)
            if any(o is target for o in copies):
                constructs.add(construct)
                return True
            if any(v is o for o in origins):
                return True
        return False

    if stale(shares) is not None:  # which construct copied: for the message
        word = "loop" if "loop" in constructs else "if"
        refuse_shared_in_place(shares, under, f"a staged {word} gave it a copy")


# id(staged item) -> (a weak reference to it, the NumPy array it is NumPy's view of)
_numpy_views: dict = {}


def note_numpy_view(item, array) -> None:
    """``item = array[i]`` with a staged ``i``: NumPy gives a view of the concrete
    ``array``, so a write through ``item`` changes ``array`` eagerly; under a trace it
    gives ``item`` alone a new value (``refuse_numpy_view_write``)."""
    key = id(item)
    _numpy_views[key] = (weakref.ref(item, lambda _, key=key: _numpy_views.pop(key, None)), array)


def refuse_numpy_view_write(target) -> None:
    """A ``StagingError`` if ``target`` is a view ``note_numpy_view`` saw and a name that
    holds its NumPy array may be read after the write (it would keep the old contents)."""
    entry = _numpy_views.get(id(target))
    if entry is None or entry[0]() is not target:
        return
    array = entry[1]
    if stale(lambda v: v is array) is not None:
        raise numpy_view_write(user_location())


def numpy_view_write(location: str) -> errors.StagingError:
    return errors.StagingError(
        f"the write at {location} goes into a view of a NumPy array taken with a staged "
        f"index (row = a[i]; row += v): NumPy writes into the array, but under a trace the "
        f"array's name cannot see a write made through another name. Write through the "
        f"array itself (a[i] += v), or copy the view (row = a[i].copy()) if the two should "
        f"not share.")


def rebinds(value) -> bool:
    """True if the converted statement running assigns a name that holds ``value`` now
    (``x = np.add(a, b, out=x)``): the new value it computes reaches that name."""
    frame = _innermost()
    name = _rebound(frame) if frame is not None else None
    return name is not None and frame.f_locals.get(name) is value


def _named(name: str) -> str:
    """How a message names a variable: the converter's return value by what it is."""
    return "the return value" if name.startswith("retval_") else f"'{name}'"


def _innermost():
    frame = sys._getframe(2)
    while frame is not None and frame.f_code not in converted.codes:
        frame = frame.f_back
    return frame


def rebound_name() -> str:
    """The name the converted statement running assigns (``e`` of ``e[0] = x``)."""
    frame = _innermost()
    return (_rebound(frame) if frame is not None else None) or "a"


def _rebound(frame) -> Optional[str]:
    """The name the statement running in ``frame`` assigns next (``e`` of
    ``e = ag__.setitem(e, 0, x)``)."""
    instructions, _ = _info(frame.f_code)
    for ins in instructions:
        if ins.offset > frame.f_lasti and ins.opname in _STORES:
            return ins.argval
    return None


def _may_read(frame, name: str) -> bool:
    code = frame.f_code
    if name in code.co_cellvars or name in code.co_freevars:
        return True  # a nested function (a generated body) may read it
    instructions, loops = _info(code)
    here = frame.f_lasti
    start = min([target for target, end in loops if target <= here < end] + [here + 1])
    return any(ins.offset >= start and ins.opname in _LOADS and _names(ins.argval, name)
               for ins in instructions)


def _names(argval, name: str) -> bool:
    return argval == name or (argval.__class__ is tuple and name in argval)


def _info(code):
    info = _code_info.get(code)
    if info is None:
        instructions = list(dis.get_instructions(code))
        loops = [(ins.argval, ins.offset) for ins in instructions
                 if ins.opname.startswith("JUMP") and isinstance(ins.argval, int)
                 and ins.argval <= ins.offset]
        info = _code_info[code] = (instructions, loops)
    return info


# A staged loop's body runs on values that stand for the NumPy arrays made before the loop
# (the loop carries them): a write into one is a write into that array, which other names
# (an alias ``q = p``, a list item) hold too (fuzz seed 20062: 0.0 where eagerly 4.0).
ENTERED: list = []  # (entered value, the NumPy array it stands for), while a body traces


def _with_arrays_entered(shares: Callable[[object], bool]) -> Callable[[object], bool]:
    arrays = [array for value, array in ENTERED if shares(value)]
    if not arrays:
        return shares
    return lambda h: shares(h) or any(h is a for a in arrays)
