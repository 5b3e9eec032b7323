"""Error messages every backend shares, so a user gets the same words everywhere.

Each message starts with the construct and where it is in the user's source,
names the variable, says what differed and ends with what to do. The location
comes from the body function's code object: the converter compiles generated
code with the user's file name and line numbers, so ``body.__code__`` points at
the user's ``if``/``while``/``for`` line.
"""

from __future__ import annotations

import linecache


class ConversionError(Exception):
    """A function could not be converted.

    Raised by ``convert``, ``to_graph`` and ``to_code`` (and reported by the
    CLI) when the object is not a kind autograph converts (a builtin, a class),
    its source is not available (code made by ``exec``), the source found is
    not the code that runs (the file changed after its module was imported), or
    the source cannot be read or converted (a syntax error, nesting thousands of
    levels deep). The message names the function or file and line and says what
    to do. A function that converted code calls and that cannot be converted is
    called unconverted instead, with a log line naming it (``autograph`` logger).

    Example:
        >>> import autograph as ag
        >>> try:
        ...     ag.to_graph(len)
        ... except ag.ConversionError as e:
        ...     print(e)
        cannot convert <built-in function len>: autograph converts functions, methods, lambdas, functools.partial objects and callable objects
    """


class StagingError(Exception):
    """Control flow on staged values that cannot be built into a graph.

    Raised while tracing (``autograph.function``, ``jax.jit``, ``torch.export``,
    ``tf.function``) when a branch or loop on a staged value cannot become a graph
    op: a dict key or attribute (or, under JAX, PyTorch and TensorFlow, a variable)
    assigned in one branch only, a loop variable that changes dtype (or, except on
    the NumPy engine, shape), a list a staged loop grows that the backend cannot
    collect (under JAX, without a bound). Every backend gives the same text
    for the same mistake; the message names the construct, the variable and the
    file:line, and says what to do.

    Example:
        >>> import numpy as np
        >>> import autograph as ag
        >>> @ag.function
        ... def f(x):
        ...     d = {}
        ...     if x > 0:
        ...         d["y"] = x
        ...     return d
        >>> try:
        ...     f(np.array(1.0))
        ... except ag.StagingError as e:
        ...     print(str(e)[str(e).index("'d"):])
        'd["y"]' is defined in the true branch only, and the condition is a staged value, so
        both branches run in the graph. Define 'd["y"]' before the if statement, or in both
        branches.
    """


def code_of(fn):
    """The code object of generated function ``fn``, looking through the runtime's
    wrappers (they set ``__wrapped__``); None if it has none."""
    while hasattr(fn, "__wrapped__"):
        fn = fn.__wrapped__
    return getattr(fn, "__code__", None)


def where(fn) -> str:
    """``file:line (`source line`)`` of the construct a generated function came from."""
    code = code_of(fn)
    if code is None:
        return "<unknown location>"
    return at_line(code.co_filename, code.co_firstlineno)


def at_line(filename: str, lineno: int) -> str:
    """``file:line (`source line`)``."""
    text = linecache.getline(filename, lineno).strip()
    location = f"{filename}:{lineno}"
    return f"{location} (`{text}`)" if text else location


def subject(name: str) -> str:
    """A state label as messages name it: a variable in quotes; a description of a
    value the converter made (it has spaces, like 'the return value') as it is."""
    return name if " " in name else f"'{name}'"


class _IfParts:
    """How messages name a staged ``if`` and its parts: a converted ``match`` makes one
    ``if`` per case, located at the case (its line starts with ``case``)."""

    def __init__(self, fn) -> None:
        code = code_of(fn)
        line = linecache.getline(code.co_filename, code.co_firstlineno) if code is not None else ""
        construct = getattr(fn, "staged_construct", None)  # an expression's branch
        if line.lstrip().startswith("case ") and construct is None:
            self.construct = "match statement"
            self.true, self.false = "this case", "the cases after it"
            self.staged = "the case's test is a staged value, so it and the cases after it all run"
            self.define = "before the match statement, or in every case (and a `case _:`)"
        else:
            self.construct = construct or "if statement"
            self.true, self.false = "the true branch", "the false branch"
            self.staged = "the condition is a staged value, so both branches run"
            self.define = f"before the {self.construct}, or in both branches"


def defined_in_one_branch(name: str, defined_in: str, fn) -> StagingError:
    """``defined_in`` is 'true' or 'false': the only branch that defines ``name`` (a
    variable, or a path into one such as ``x["a"]["b"]``)."""
    parts = _IfParts(fn)
    side = parts.true if defined_in == "true" else parts.false
    return StagingError(
        f"{parts.construct} at {where(fn)}: {subject(name)} is defined in {side} only, and "
        f"{parts.staged} in the graph. Define {subject(name)} {parts.define}."
    )


def key_read_in_one_branch(name: str, fn) -> StagingError:
    """A branch read a dict key that only the other branch creates."""
    parts = _IfParts(fn)
    return StagingError(
        f"{parts.construct} at {where(fn)}: a branch reads {subject(name)}, which only the other "
        f"branch defines; the condition is a staged value, so both branches run in the graph. "
        f"Define {subject(name)} before the {parts.construct}."
    )


def undefined_loop_variable(name: str, construct: str, fn) -> StagingError:
    return StagingError(
        f"{construct} at {where(fn)}: {subject(name)} is first assigned inside the loop and used "
        f"after it, but the loop runs in the graph, where it may run zero times. Assign "
        f"{subject(name)} before the loop."
    )


def list_length_changed(name: str, construct: str, fn, before: int, after: int) -> StagingError:
    """A staged loop's body changed the length of a list it carries (``out.append``)."""
    return StagingError(
        f"{construct} at {where(fn)}: {subject(name)} is a list of {before} items before the "
        f"loop but {after} after one iteration; a staged loop cannot change a list's length "
        f"(it runs as one graph op). Write into an array made before the loop instead "
        f"(out = np.zeros(n); out[i] = v), or loop over a Python range so the loop unrolls."
    )


def needs_maximum_iterations(name: str, construct: str, fn, backend: str,
                             cut: bool = False) -> StagingError:
    """A staged loop appends to ``name`` a number of items known only at run time, on a
    backend whose arrays need static shapes (padded to the bound), or whose loop
    carries do (``cut``: the buffer of the bound is cut to the list's length after the
    loop, and only a ``while`` has no bound of its own)."""
    if cut:
        return StagingError(
            f"{construct} at {where(fn)}: the loop appends to {subject(name)}, and how many "
            f"times it runs is known only while it runs; {backend} carries what a loop "
            f"collects in a buffer of a size known when the loop starts. Write "
            f"ag.set_loop_options(maximum_iterations=N) as the first statement of the loop "
            f"(it then stops after N iterations): {subject(name)} then holds at most N items "
            f"per append.")
    return StagingError(
        f"{construct} at {where(fn)}: the loop appends to {subject(name)}, and how many times "
        f"it runs is known only at run time (a while loop, a break, a range with staged "
        f"bounds); {backend} needs static shapes. Write ag.set_loop_options("
        f"maximum_iterations=N) as the first statement of the loop: {subject(name)} then "
        f"holds N items per append, those past len({name}) zeros."
    )


def loop_variable_changed(name: str, construct: str, fn, before: str, after: str) -> StagingError:
    return StagingError(
        f"{construct} at {where(fn)}: {subject(name)} is {before} before the loop but {after} "
        f"after one iteration; a staged loop must keep each variable's type and shape. "
        f"Give {subject(name)} its final dtype and shape before the loop (e.g. with astype)."
    )


def loop_shape_changed(name: str, construct: str, fn, before: str, after: str,
                       backend: str) -> StagingError:
    """A loop variable whose shape (not dtype) changes, on a backend with static shapes."""
    return StagingError(
        f"{construct} at {where(fn)}: {subject(name)} is {before} before the loop but {after} "
        f"after one iteration; {backend} needs a loop variable to keep its shape. Append the "
        f"pieces to a list (parts.append(x)) and concatenate them after the loop, or write "
        f"into an array of the final shape made before the loop."
    )


def loop_shape_needs_invariant(name: str, construct: str, fn, before: str, after: str,
                               shape: tuple, backend: str) -> StagingError:
    """A loop variable whose shape changes, on a backend that takes a shape invariant."""
    dims = ", ".join("None" if d is None else str(d) for d in shape)
    dims = f"({dims},)" if len(shape) == 1 else f"({dims})"
    return StagingError(
        f"{construct} at {where(fn)}: {subject(name)} is {before} before the loop but {after} "
        f"after one iteration; {backend} keeps a loop variable's shape unless the loop is given "
        f"one that may change. Write ag.set_loop_options(shape_invariants=[({name}, "
        f"{dims})]) as the first statement of the loop (None: a dimension that changes), or "
        f"append the pieces to a list (parts.append(x)) and concatenate them after the loop."
    )


def branch_mismatch(name: str, fn, true_desc: str, false_desc: str) -> StagingError:
    parts = _IfParts(fn)
    return StagingError(
        f"{parts.construct} at {where(fn)}: {subject(name)} is {true_desc} in {parts.true} but "
        f"{false_desc} in {parts.false}; a staged condition needs the same type and "
        f"structure on both sides. Convert one side so they match."
    )


def python_values_differ(name: str, fn, value) -> StagingError:
    """Both branches give ``name`` a Python object (not an array) of one type, unequal."""
    return StagingError(
        f"{_IfParts(fn).construct} at {where(fn)}: {subject(name)} is a different Python "
        f"{type(value).__name__} in each branch, and the condition is a staged value: a graph "
        f"chooses between arrays, not between Python objects. Make that choice with a Python "
        f"condition, or compute an array in both branches."
    )


def non_scalar_condition(construct: str, fn, value_desc: str) -> StagingError:
    return StagingError(
        f"{construct} at {where(fn)}: the condition is a {value_desc} array, but a staged "
        f"condition must be a single value (the truth value of an array with several "
        f"elements is ambiguous). Reduce it with .any() or .all()."
    )


def falls_off_end(function: str, path: str, backend: str) -> StagingError:
    """Some staged paths of ``function`` return a value and others none (``path`` says
    which), on a backend whose graph cannot give None on some runs only."""
    return StagingError(
        f"{function}() returns a value on some staged paths and nothing (None) on others: "
        f"{path}. A {backend} graph returns arrays on every run, never None "
        f"on some runs only. Return a value on every path of {function}() (a NaN, or a flag "
        f"next to the value, where it now returns nothing)."
    )


def escaped_value(function: str, where: str, what: str, backend: str) -> StagingError:
    """A trace of ``function`` ended with a value that exists only in it (a tracer) stored
    in a global, a closure variable or a container reachable from them."""
    return StagingError(
        f"{function}(): its {backend} trace stored a staged value ({what}) in {where}, which "
        f"outlives the trace; the value means nothing outside the graph. Return it from "
        f"the function, and store what the call returns.")


def class_pattern_on_staged(location: str, value_desc: str) -> StagingError:
    """A ``match`` with class patterns on a staged subject whose type is not the array's."""
    return StagingError(
        f"match statement at {location}: the subject is a staged value ({value_desc}), and a "
        f"class pattern (`case float():`, `case np.ndarray():`) tests its Python type, which "
        f"under a trace is the traced stand-in's, not the array's: the match could take "
        f"another case than it takes on arrays. Test the dtype or shape instead "
        f"(np.issubdtype(x.dtype, np.floating), x.ndim == 0), or match outside the staged function."
    )


def staged_comprehension_filter(kind: str, location: str) -> StagingError:
    """A comprehension's ``if`` test is staged: how many items it keeps is a run-time value."""
    return StagingError(
        f"{kind} at {location}: its 'if' tests a staged value, known only when the graph "
        f"runs, so how many items the {kind} keeps would be too. Keep every item and "
        f"choose with the test instead (np.where(test, item, fill), np.sum(test) to count "
        f"them), or give the items to sum/any/all/next as a generator expression, which "
        f"autograph stages (sum(e for e in v if e > x)).")


def iterated_array_unfollowed(construct: str, fn, what: str) -> StagingError:
    """A loop over an array its body writes into (or rebinds), where the staged code cannot
    say which items the later iterations read (``staging.iterated``); ``what`` the body did."""
    return StagingError(
        f"{construct} at {where(fn)}: {what}; eagerly each iteration reads that array as the "
        f"iterations before it left it, and here the loop cannot tell which array it reads. "
        f"Iterate over the indices (for i in range(len(v)): e = v[i]), or over a copy "
        f"(for e in v.copy():).")


def flat_write(location: str) -> StagingError:
    """``a.flat[i] = x`` of a NumPy array ``a`` with a staged ``x`` (or ``i``): the array
    would become a staged value, which the write through ``.flat`` cannot rebind ``a`` to."""
    return StagingError(
        f"item assignment at {location}: a staged value is written through '.flat' of a "
        f"NumPy array, which would become a staged value there, but the write cannot give "
        f"the array's variable the new value. Write into the array itself: "
        f"a[np.unravel_index(i, a.shape)] = v.")


def outer_item_write(location: str, name: str) -> StagingError:
    """``G[i] = x`` of a global or closure variable ``G`` holding a NumPy array, where the
    write gives a new value (a staged one) that converted code cannot rebind ``G`` to."""
    return StagingError(
        f"item assignment at {location}: a staged value is written into the NumPy array "
        f"'{name}' holds, which becomes a staged value; but '{name}' is a global or a "
        f"variable of an enclosing function, which the converted function does not rebind, "
        f"so it would keep the old contents. Write into a local copy and return it "
        f"(a = {name}.copy(); a[i] = v; return a), or pass the array in as an argument.")


def unreachable_item_write(location: str, holder: str) -> StagingError:
    """An item write whose target is not a variable (``a.T[0] = x``, ``obj.arr[i] = x``)
    that gives a new value (a staged write into an array) which cannot be put where
    eager code writes."""
    return StagingError(
        f"item assignment at {location}: the write gives a new value (a staged value "
        f"written into an array), and {holder} cannot take it in place of the array eager "
        f"code writes into. Write into the array through a variable that holds it "
        f"(a[:, 0] = v for a.T[0] = v; arr = obj.arr; arr[i] = v; obj.arr = arr).")
