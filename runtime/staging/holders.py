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
from sys import _getframe  # the runtime's own: a user may take it off sys
import threading
import weakref
from typing import Callable, Optional

from . import converted, errors
from .arg_writes import GENERATED, arguments, user_location
from .user_state import user_object

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
    rebound, variable = _rebound(frame), _named_variable()
    carried, slots = getattr(_local, "carrying", None), None
    own, function = True, None
    while frame is not None:
        code = frame.f_code
        if code in converted.codes:
            user = not GENERATED.match(code.co_name) and code.co_name != "<lambda>"
            for name, value in frame.f_locals.items():
                if own and (name == rebound or name == variable or name in skip):
                    continue
                for label, item, holder, _ in _held(value, name):
                    if not shares(item) or not _may_read(frame, name):
                        continue
                    if item is carried and holder is not None:
                        slots = slots or _Slots(frame)
                        if slots.takes(holder, frame):  # gets the new value: carry_into_slots
                            continue
                    return label, (code.co_name if user else function), own
            if user:
                function = function or code.co_name
                own = False
        frame = frame.f_back
    return None


def held_in(value, label: str):
    """``(label, item)`` for ``value`` and the items of the lists, tuples and dicts it
    holds (``l[0]``, ``d['k']``) and the attributes of the user's objects (``h.arr``), at
    any depth: a container holding an array keeps it as an alias does (``l = [a]; a[0] = x``
    changes ``l[0]`` eagerly)."""
    for label, item, _, _ in _held(value, label):
        yield label, item


_PLAIN = frozenset({int, float, bool, complex, str, bytes, type(None)})  # hold no array


def _held(value, label: str):
    """``held_in``'s items as ``(label, item, holder, key)``: ``holder[key]`` is the item
    (``holder`` None for ``value`` itself); each container once (a cycle ends)."""
    stack, seen = [(label, value, None, None)], set()
    while stack:
        entry = stack.pop()
        yield entry
        item = entry[1]
        cls = item.__class__
        if cls in _PLAIN or id(item) in seen:
            continue
        if cls is list or cls is tuple or cls is dict:
            seen.add(id(item))
            pairs = item.items() if cls is dict else enumerate(item)
            stack.extend(reversed([(f"{entry[0]}[{k!r}]", v, item, k) for k, v in pairs
                                   if v.__class__ not in _PLAIN]))
        elif user_object(item) and not getattr(cls, "restorable", False):
            seen.add(id(item))  # (a user's object, not the runtime's own growing list)
            stack.extend(reversed([(f"{entry[0]}.{k}", v, item, k) for k, v in
                                   list(vars(item).items()) if v.__class__ not in _PLAIN]))


# --- a staged write carried into the list and dict items that hold the array written ---
#
# ``params = [w, b]; for p, g in zip(params, grads): p[:] = p - lr * g``: eagerly the write
# changes the array that ``params[0]`` holds too. Where the write gives the name a new
# value instead (a staged array's functional update, a NumPy array given a staged value),
# the items holding the very array written get the new value after the write, as they
# would see it eagerly: at the top level of a trace (straight-line code, which runs once
# as Python does) any list or dict item; inside the body of a staged if or loop only an
# item of a container every running construct tracks (``tracks``: its op carries
# the change, so it happens only on the paths that make it). A tuple cannot take it, nor
# a container an argument of the traced function holds (the caller's, which the trace
# cannot change): those stay refused where they are read later, as does any name.

_local = threading.local()  # .carrying: the array a staged write is writing; .running:
# the InPlace of each staged construct whose body is being traced (``running``); .label
# (``named``)


class _Bound:
    """``with _Bound(name, value):`` this thread's ``_local.<name>`` is ``value`` inside the
    block, and what it was outside it (blocks nest)."""

    __slots__ = ("name", "value", "outer")

    def __init__(self, name: str, value) -> None:
        self.name, self.value = name, value

    def __enter__(self):
        self.outer = getattr(_local, self.name, None)
        setattr(_local, self.name, self.value)

    def __exit__(self, *exc) -> None:
        setattr(_local, self.name, self.outer)


def carrying(target) -> _Bound:
    """``with carrying(target):`` around a staged write into ``target``: the sharing
    checks (``stale``) pass over the list and dict items that hold ``target`` itself and
    can take the new value (``carry_into_slots`` gives it to them after the write)."""
    return _Bound("carrying", target)


class running:
    """``with running(inplace):`` around the trace of a staged construct's body."""

    def __init__(self, inplace) -> None:
        self.inplace = inplace

    def __enter__(self):
        stack = getattr(_local, "running", None)
        if stack is None:
            stack = _local.running = []
        stack.append(self.inplace)

    def __exit__(self, *exc) -> None:
        _local.running.pop()


def tracks(container) -> bool:
    """Whether a change to ``container`` made now is exact: no staged construct's body
    is being traced (straight-line code runs once, as Python runs it), or every one
    being traced carries ``container``'s items (it was reachable when it started)."""
    return all(id(container) in inplace.node_ids for inplace in getattr(_local, "running", ()))


class _Slots:
    """Which containers can take a carried write, seen from ``frame`` (converted code):
    those in the frames of the trace (up to the function it started in: an eager caller's
    list must not get a staged value), not held by that function's arguments."""

    def __init__(self, frame) -> None:
        from .kept import traced_frame

        outermost, self.inside = traced_frame(), set()
        while frame is not None:
            if frame.f_code in converted.codes:
                self.inside.add(id(frame))
                if frame is outermost:
                    break
            frame = frame.f_back
        self.arguments = _argument_containers(outermost)

    def takes(self, holder, frame) -> bool:
        return (holder.__class__ in (list, dict) or user_object(holder)) \
            and id(frame) in self.inside and id(holder) not in self.arguments \
            and tracks(holder)


def _argument_containers(frame) -> set:
    """The ids of the lists, tuples, dicts and user objects the arguments of the function
    ``frame`` runs (the one traced) hold, as it was called, at any depth; all of them
    where it is not known (None)."""
    if frame is None:
        return _EVERY
    return {id(item) for name, value in arguments(frame).items()
            for _, item, _, _ in _held(value, name)
            if item.__class__ in (list, tuple, dict) or user_object(item)}


class _Every:
    def __contains__(self, item) -> bool:
        return True


_EVERY = _Every()


def carry_into_slots(target, new) -> None:
    """After a staged write gave ``new`` for ``target``: every list or dict item in the
    frames of converted code that holds ``target`` itself and can take it gets ``new``."""
    frame = _innermost()
    if frame is None:
        return
    slots, done = _Slots(frame), set()
    while frame is not None:
        if frame.f_code in converted.codes:
            for name, value in list(frame.f_locals.items()):
                for _, item, holder, key in _held(value, name):
                    if item is target and holder is not None and (id(holder), key) not in done \
                            and slots.takes(holder, frame):
                        done.add((id(holder), key))
                        if holder.__class__ in (list, dict):
                            holder[key] = new
                        else:  # a user object's attribute
                            setattr(holder, key, new)
        frame = frame.f_back


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
    frame = _getframe(2)
    while frame is not None and frame.f_code not in converted.codes:
        frame = frame.f_back
    return frame


def rebound_name() -> str:
    """The name the converted statement running assigns (``e`` of ``e[0] = x``); what
    ``named`` says for a write into an attribute or an expression."""
    label = getattr(_local, "label", None)
    if label is not None:
        return label()
    frame = _innermost()
    return (_rebound(frame) if frame is not None else None) or "a"


def named(label: Callable[[], str]) -> _Bound:
    """``with named(label):`` around a write whose target is not a variable
    (``obj.arr[i] = v``): messages call what it writes into ``label()`` (``obj.arr``)."""
    return _Bound("label", label)


def _named_variable() -> Optional[str]:
    """The variable a write ``named`` around it goes into (``G`` of ``G[i] = v``, a global or
    closure variable: its own name is no other name holding the array), or None."""
    label = getattr(_local, "label", None)
    text = label() if label is not None else None
    return text if text and text.isidentifier() else None


def _rebound(frame) -> Optional[str]:
    """The name the statement running in ``frame`` assigns next (``e`` of
    ``e = ag__.setitem(e, 0, x)``)."""
    instructions, _ = _info(frame.f_code)
    for ins in instructions:
        if ins.offset > frame.f_lasti and ins.opname in _STORES:
            return ins.argval
        if ins.offset > frame.f_lasti and ins.opname == "POP_TOP":
            return None  # a statement that assigns nothing (``ag__.setitem_attr(...)``)
    return None


def _may_read(frame, name: str) -> bool:
    code = frame.f_code
    if name in code.co_cellvars or name in code.co_freevars:
        return True  # a nested function (a generated body) may read it
    instructions, loops = _info(code)
    here = frame.f_lasti
    start = min([target for target, end in loops if target <= here < end
                 and not _renewed(instructions, target, name)] + [here + 1])
    return any(ins.offset >= start and ins.opname in _LOADS and _names(ins.argval, name)
               for ins in instructions)


def _renewed(instructions, target: int, name: str) -> bool:
    """The loop starting at offset ``target`` is a ``for`` whose target is ``name``: each
    iteration gives it a new value before reading it (the item of the loop driving a
    converted loop's body), so its reads in the loop before the current instruction
    read the next item, not this one."""
    for i, ins in enumerate(instructions[:-1]):
        if ins.offset == target:
            after = instructions[i + 1]
            return ins.opname == "FOR_ITER" and after.opname in _STORES and after.argval == name
    return False


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


def refuse_entered_in_place(value, under: str) -> None:
    """``c[k] op= v`` in a staged loop's body on a container item ``value`` that stands for
    a NumPy array made before the loop (``ENTERED``): eagerly the operator changes that
    array, which other names hold too (``opt = {'q': q}; opt['q'] += 0.5``, ``q`` read
    later: fuzz seed 28000); under ``under`` it gives the item alone a new value."""
    arrays = [array for entered, array in ENTERED if entered is value]
    if arrays:
        refuse_shared_in_place(lambda held: any(held is a for a in arrays), under,
                               "the staged loop gives the item alone a new value")


def _with_arrays_entered(shares: Callable[[object], bool]) -> Callable[[object], bool]:
    arrays = [array for value, array in ENTERED if shares(value)]
    if not arrays:
        return shares
    return lambda h: shares(h) or any(h is a for a in arrays)
