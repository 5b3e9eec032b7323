"""Error and warning texts of the graph engine (shared control-flow ones live in
``autograph.runtime.staging.errors``). Each says what happened, where, and what to do."""

from __future__ import annotations

from ...staging.errors import StagingError, iterated_array_unfollowed, subject
from .ir import source_line, source_text


def iterated_array_rebound(name: str, body) -> StagingError:
    """A ``for`` over an array its body writes into, where the graph cannot follow the
    writes (the body also rebinds the array, or holds it as a nonlocal in a staged try)."""
    return iterated_array_unfollowed(
        "for loop", body, f"the body writes into {subject(name)}, the array the loop iterates "
        f"over, in a way the graph cannot follow (it also gives {subject(name)} a new array, "
        f"or the loop is inside a staged try)")


class SymbolicValueError(TypeError):
    """A symbolic tensor was asked for what only a run of the graph knows (its value as a
    bool, an index, a NumPy array) or for a NumPy function the engine has not: the trace
    fails here, where eager code would go on. A converted ``try``'s handlers pass it on
    (``trace_failure``): running them would take a path eager code does not take."""


class SymbolicAttributeError(AttributeError):
    """A symbolic tensor has no such attribute or method (yet): as ``SymbolicValueError``."""


def _at(source) -> str:
    if not source:
        return ""
    text = source_line(source)
    return f" at {source_text(source)}" + (f" (`{text}`)" if text else "")


def located(source) -> str:
    """`` at file:line (`text`)`` of ``source``, or nothing."""
    return _at(source)


def unsupported_function(name: str, source) -> str:
    return (f"autograph.function: {name} is not supported on symbolic tensors yet{_at(source)}. "
            f"Compute it outside the function and pass the result in, or run the function "
            f"eagerly with autograph.run_functions_eagerly(True).")


def unsupported_attribute(name: str, source) -> str:
    return (f"autograph.function: symbolic tensors have no attribute or method '{name}' "
            f"(yet){_at(source)}. Use the NumPy function of the same name if there is one.")


def out_argument(name: str) -> str:
    return (f"autograph.function: {name}(..., out=...) writes into an array in place, which a "
            f"graph cannot do with a symbolic tensor. Assign the result instead: y = {name}(...).")


def in_place(name: str) -> str:
    return (f"autograph.function: {name} updates an array in place, which a graph cannot do "
            f"with a symbolic tensor. Use x[idx] = ... (or np.add.at on a concrete array).")


def concrete_value(what: str, tensor, source) -> str:
    value = tensor._value
    return (f"autograph.function: a symbolic tensor ({value.name}: {value.type_str()}) cannot be "
            f"{what} while tracing{_at(source)}: its value is only known when the graph runs. "
            f"Use it in NumPy operations, or in an if/while/for of a function converted by "
            f"autograph (the default), which become graph ops.")


def created_variable_on_later_trace(function_name: str) -> str:
    return (f"autograph.function '{function_name}' tried to create a Variable on a trace other "
            f"than its first; it may only create variables the first time it is traced. Create "
            f"the Variable outside the function (or once, guarded by a check) and use it there.")


def wrong_dtype(function_name: str, param: str, expected: str, actual: str) -> str:
    return f"{function_name}(): argument '{param}' must have dtype {expected}, got {actual}."


def wrong_shape(function_name: str, param: str, expected: str, actual: str) -> str:
    return (f"{function_name}(): argument '{param}' must have shape {expected}, got shape "
            f"{actual}.")


def wrong_python_value(function_name: str, param: str, expected, actual) -> str:
    return (f"{function_name}(): argument '{param}' was traced with the Python value "
            f"{expected!r}, got {actual!r}. Call the autograph.function itself (which retraces "
            f"for new Python values), or pass an array.")


def retracing(function_name: str, count: int, param: str, before: str, after: str) -> str:
    return (f"autograph.function '{function_name}' has been traced {count} times; the last "
            f"retrace was caused by argument '{param}', which changed from {before} to {after}. "
            f"Tracing is slow: pass values that change as NumPy arrays, give an input_signature, "
            f"or use reduce_retracing=True for changing shapes.")


def framework_tensor(function_name: str, param: str, framework: str, type_name: str) -> str:
    compiler = {"PyTorch": "torch.compile", "TensorFlow": "tf.function"}[framework]
    return (f"autograph.function '{function_name}': argument '{param}' is a {framework} tensor "
            f"({type_name}); autograph.function builds NumPy graphs and would treat it as a "
            f"constant. For {framework}, use {compiler}(autograph.convert({function_name})) "
            f"(the converted function stages its control flow on {framework} tensors); or "
            f"pass NumPy arrays ({param}.numpy()).")


SAVE_FIX = ("Keep only NumPy arrays, Python literals and autograph.Variables in the graph "
            "(compute anything else outside the function and pass it in).")


def cannot_save(function_name: str, place: str, source, what: str, fix: str = SAVE_FIX) -> str:
    return (f"autograph.function '{function_name}': cannot save the graph: {place}{_at(source)} "
            f"{what}. {fix}")


def escaped_value(reader_source, value) -> StagingError:
    """A value computed in a branch or loop body was used outside it."""
    made = value.op.source if value.op is not None else None
    used = _at(reader_source) or " (in the function's result)"
    return StagingError(
        f"autograph.function: {value.name} ({value.type_str()}), computed inside a branch or "
        f"loop body{_at(made)}, is used after it{used}. A value that leaves a staged "
        f"if/while/for must be assigned there to a variable or an attribute, not stored in a "
        f"container or by a method call.")


def escaped_tensor(function_name: str, tensor, where: str) -> StagingError:
    """A symbolic tensor was stored where it outlives its trace."""
    value = tensor._value
    made = _computed_at(value)
    return StagingError(
        f"autograph.function '{function_name}': the symbolic tensor {value.name} "
        f"({value.type_str()}) made while tracing{_at(made)} was stored in {where}, which "
        f"outlives the trace; it has no value outside the graph. Return it from the function, "
        f"or keep the state in an autograph.Variable and assign to it (v.assign(x), v += x).")


def _computed_at(value):
    """The source of the op that computed ``value``: for the output of a loop or a
    branch, the op in its body that gave it (a loop op itself has no line of its own
    that the user wrote the value on)."""
    op = value.op
    while op is not None and op.kind in ("while", "for", "cond"):
        j = op.outputs.index(value)
        blocks = [op.blocks["body"]] if "body" in op.blocks else [op.blocks["true"],
                                                                   op.blocks["false"]]
        inner = [b.results[j] for b in blocks if j < len(b.results or ())]
        inner = [v for v in inner if v.op is not None]
        if not inner:
            break
        value, op = inner[0], inner[0].op
    return op.source if op is not None else None


def zero_d_argument_chosen(name: str, argument: str) -> StagingError:
    """An in-place operator on a value a staged condition chose, that is a 0-d argument
    array on some paths (``t = n or 4; t += t``)."""
    from ...staging.arg_writes import user_location

    return StagingError(
        f"in-place operator at {user_location()}: '{name}' is the 0-d array argument "
        f"'{argument}' on the paths where a staged condition chose it, and eagerly the "
        f"operator changes that array for the caller there; a graph cannot tell which array "
        f"the operator changes. Write the operator out ({name} = {name} + v: a new array), "
        f"or pass a NumPy scalar (np.float64, np.int64) if the argument is not to change.")


def view_write(source) -> StagingError:
    """A write into an array or a view of it (``inner = a[1:-1]``) inside a staged branch
    or loop, where the other was made outside it: NumPy's view and base share memory,
    but the branch or loop cannot carry the other one's new value out."""
    return StagingError(
        f"autograph.function: the write{_at(source)} goes into an array that shares memory "
        f"with a view or base made before a staged if/while/for, inside that branch or loop; "
        f"the other array cannot see the write there. Write through the array that is used "
        f"after the branch or loop (a[1:-1][0] = v -> a[1] = v), or copy the view "
        f"(inner = a[1:-1].copy()) if the two should not share.")


def layout_view_write(source, name: str) -> StagingError:
    """A write into an array that NumPy may give as a view of another one or as a copy
    (``a.reshape(...)`` of an array of several axes: C-contiguous memory gives a view), where
    the other one is read later: which one eager code has depends on a memory layout the
    graph does not keep."""
    return StagingError(
        f"autograph.function: the write{_at(source)} goes into an array that NumPy gives as "
        f"a view of '{name}' or as a copy of it (a reshape or ravel of an array of several "
        f"axes: a view where its memory is contiguous), and '{name}' is read later, so "
        f"whether it sees the write depends on a memory layout the graph does not keep. "
        f"Write into '{name}' itself, or copy (b = a.reshape(n).copy()) if the two should "
        f"not share.")


def numpy_view_write(source) -> StagingError:
    """A write through ``row = a[i]`` (``i`` a symbolic tensor) of a NumPy array ``a``
    (the staging core's text, ``holders.numpy_view_write``)."""
    from ...staging.holders import numpy_view_write as core

    return core(_at(source)[len(" at "):] or "?")


def argument_resized(function_name: str, name: str, kind: str, before: int, after: int) -> StagingError:
    """A trace changed the length (or keys) of a list or dict the caller passed."""
    what = "keys" if kind == "dict" else "length"
    return StagingError(
        f"autograph.function '{function_name}': the trace changed the {what} of the {kind} "
        f"argument '{name}' ({before} items before, {after} after: an append, pop, insert or "
        f"new key); a graph cannot change the caller's {kind} on every call as eager code "
        f"does. Work on a copy ({name} = {kind}({name})) and return it.")


def argument_item_object(function_name: str, name: str, value) -> StagingError:
    """A trace put a Python object other than a number into a caller's list or dict."""
    return StagingError(
        f"autograph.function '{function_name}': the trace put {type(value).__name__} into "
        f"'{name}', an item of an argument the caller holds; a graph writes numbers and "
        f"arrays into its arguments, nothing else. Return the value instead.")


def loop_write_shared(construct: str, body, name: str, other: str,
                      function: str = None) -> StagingError:
    """A staged loop writes in place into an array another name read later shares
    (``function``: the calling function whose variable ``other`` is, if not the loop's)."""
    from ...staging.errors import where

    held = f"'{other}' of {function}()" if function else f"'{other}'"
    return StagingError(
        f"{construct} at {where(body)}: the body writes into '{name}' in place, and "
        f"{held} holds the same array or one sharing its memory (an alias, a view of "
        f"it, or the array it views) and is read later; the staged loop gives only "
        f"'{name}' the new contents, so {held} would keep the old ones. Write through "
        f"one name only, or make one of them a copy (.copy()) if the two should not "
        f"share.")
