"""A staged raise's message made when the graph runs, from the run-time values; and
TensorFlow's errors while it traces the user's code, said at the user's line
(``explained``).

Eager Python formats ``f"x={x:.3f}"`` from the number ``x`` holds; under
``tf.function`` ``x`` is a graph tensor while the message is made. Converted code asks
the backend to show a staged value (``str``, ``repr``, ``format``, an f-string's field,
``%``: ``Backend.show``); ``show`` gives a text naming the tensor and notes it. When a
traced branch raises, ``message`` finds those texts in the exception's arguments (and
graph tensors given as arguments themselves, ``ValueError("bad", x)``) and builds the
text with TensorFlow's string ops: the assertion that fails when the graph runs the
branch carries the values of that run, shown as Python shows them (a NumPy float64 as
``3.0``, its ``repr`` as ``np.float64(3.0)``, a Python number as Python shows it).

Done in the graph: scalars of bool, integer and float dtypes, shown by ``str``/``repr``
and by the format specs and ``%`` conversions of types ``d``/``i``/``u``, ``f``/``F``,
``e``/``E``, ``g``/``G`` with fill, alignment, sign, width and precision. A tensor of
more than one item, or another spec (``,``, ``x``, ``#``...), is a ``StagingError``
naming it: TensorFlow's string ops do not format it as Python does.
"""

from __future__ import annotations

import re

import numpy as np
import tensorflow as tf

from ...staging.errors import StagingError
from .tensors import SymbolicTensor
from .weak import Weak

# text ``show`` gave -> (value, conversion); the latest showing of a text wins
_shown: dict = {}
_SPEC = re.compile(r"^(?:(?P<fill>.)?(?P<align>[<>^=]))?(?P<sign>[-+ ])?(?P<zero>0)?"
                   r"(?P<width>\d+)?(?:\.(?P<precision>\d+))?(?P<type>[diufFeEgG]?)$")
_PERCENT = re.compile(r"^%(?P<flags>[-+ 0]*)(?P<width>\d+)?(?:\.(?P<precision>\d+))?"
                      r"[hlL]?(?P<type>[diufFeEgGsra])$")


def show(value, conversion: str) -> str:
    """The trace-time text of ``value`` (a graph tensor or ``Weak``) shown by ``str``
    (``conversion`` ""), ``repr`` ("!r"), a format spec or a ``%`` conversion, noted
    so that a raise's message shows its run-time value."""
    tensor = value.tensor if value.__class__ is Weak else value
    text = repr(tensor) if conversion == "!r" else str(tensor)
    if conversion not in ("", "!r"):
        text = f"format({text}, {conversion!r})"
    if len(_shown) > 10_000:
        _shown.clear()
    _shown[text] = (value, conversion)
    return text


def message(exc: BaseException, where: str):
    """``<class name>: <message>`` of ``exc`` (raised at ``where``) as a string tensor
    made when the graph runs (a Python str if it shows no staged value)."""
    try:
        return _message(exc)
    except _Unshowable as refused:
        raise StagingError(f"raise in a staged branch at {where}: {refused}") from None


def _message(exc: BaseException):
    args = exc.args
    if any(_staged(a) for a in args):
        if len(args) == 1:
            pieces = _pieces(args[0], "!r" if isinstance(exc, KeyError) else "")
        else:
            pieces = ["("]
            for i, arg in enumerate(args):
                pieces += (_pieces(arg, "!r") if _staged(arg) else _found(repr(arg)))
                pieces.append(", " if i < len(args) - 1 else ("," if len(args) == 1 else ""))
            pieces.append(")")
    else:
        pieces = _found(str(exc))
    pieces = [f"{type(exc).__name__}: "] + pieces
    if all(p.__class__ is str for p in pieces):
        return "".join(pieces)
    return tf.strings.join([tf.constant(p) if p.__class__ is str else p for p in pieces])


def _staged(value) -> bool:
    return value.__class__ is Weak or (isinstance(value, tf.Tensor) and not hasattr(value, "numpy"))


def _pieces(value, conversion: str) -> list:
    return [text(value, conversion)] if _staged(value) else _found(
        repr(value) if conversion == "!r" else str(value))


def _found(message: str) -> list:
    """``message`` split into its plain text and the run-time texts of what it shows."""
    texts = [t for t in _shown if t in message]
    if not texts:
        return [message]
    pattern = re.compile("|".join(map(re.escape, sorted(texts, key=len, reverse=True))))
    pieces, start = [], 0
    for match in pattern.finditer(message):
        pieces.append(message[start:match.start()])
        pieces.append(text(*_shown[match.group()]))
        start = match.end()
    pieces.append(message[start:])
    return pieces


def text(value, conversion: str):
    """The string tensor Python's ``str`` (``conversion`` ""), ``repr`` ("!r"), a format
    spec or a ``%`` conversion gives for the run-time ``value``."""
    weak = value.__class__ is Weak
    x = value.tensor if weak else value
    if x.shape.rank != 0:
        raise _refused(f"a tensor of shape {x.shape}", conversion)
    kind = "b" if x.dtype == tf.bool else "i" if x.dtype.is_integer else \
        "f" if x.dtype.is_floating else None
    if kind is None:
        raise _refused(f"a {x.dtype.name} tensor", conversion)
    if conversion in ("", "!r"):
        return _str_or_repr(x, kind, conversion == "!r" and not weak)
    spec = _spec(conversion)
    if spec is None:
        raise _refused(f"the format {conversion!r}", conversion, spec=True)
    kind_of_spec, precision = spec["type"], spec["precision"]
    if kind_of_spec in "sra":  # %s, %r, %a: str or repr, padded
        return _padded(_str_or_repr(x, kind, kind_of_spec != "s" and not weak),
                       tf.constant(False), dict(spec, sign="-"))
    if kind == "b":  # a bool formatted as a number: 0 or 1
        x, kind = tf.cast(x, tf.int64), "i"
    if kind_of_spec in "diu":
        body = tf.strings.as_string(tf.abs(_integer(x)))
        negative = _integer(x) < 0
    elif kind_of_spec == "":
        if precision is not None:
            raise _refused(f"the format {conversion!r}", conversion, spec=True)
        body = _python_text(tf.abs(x), kind)
        negative = _sign_bit(x) if kind == "f" else x < 0
    else:
        f = tf.cast(x, tf.float64)
        p = 6 if precision is None else int(precision)
        body = tf.strings.as_string(tf.abs(f), precision=p, scientific=kind_of_spec in "eE",
                                    shortest=kind_of_spec in "gG")
        if kind_of_spec in "EFG":
            body = tf.strings.upper(body)
        negative = _sign_bit(f)
    return _padded(body, negative, spec)


def _str_or_repr(x, kind: str, numpy_repr: bool):
    """``str`` of the scalar, or the ``repr`` of the NumPy scalar it stands for."""
    shown = _python_text(x, kind)
    if not numpy_repr:
        return shown
    if kind == "b":
        return tf.where(x, "np.True_", "np.False_")
    return tf.strings.join([f"np.{np.dtype(x.dtype.as_numpy_dtype).name}(", shown, ")"])


def _python_text(x, kind: str):
    """``str`` of a scalar as Python shows the number (a float: its shortest text that
    reads back as the same value, as ``repr(float)`` and NumPy's scalars show it)."""
    if kind == "b":
        return tf.where(x, "True", "False")
    if kind == "i":
        return tf.strings.as_string(x)
    return _shortest_float(x)


def _shortest_float(x):
    """``repr`` of a float scalar tensor: the fewest significant digits that read back
    as ``x`` (``%.{p}e`` for p = 0, 1, ..., the first that does), laid out as Python
    lays them out (``1e+16``, ``0.0001``, ``1e-05``)."""
    digits_max = {2: 5, 4: 9}.get(x.dtype.size, 17)
    ax = tf.where(tf.math.is_finite(x), tf.abs(x), tf.ones([], x.dtype))  # inf, nan: below
    candidates = tf.stack([tf.strings.as_string(ax, precision=p, scientific=True)
                           for p in range(digits_max)])
    back = tf.strings.to_number(candidates, x.dtype)
    first = tf.argmax(tf.cast(tf.equal(back, ax), tf.int32))
    best = tf.gather(candidates, first)
    digits = tf.strings.regex_replace(tf.strings.regex_replace(best, "e.*$", ""), r"\.", "")
    digits = tf.strings.regex_replace(digits, "(.)0+$", r"\1")
    n = tf.strings.length(digits)
    exp = tf.strings.to_number(tf.strings.regex_replace(best, "^.*e", ""), tf.int32)
    zeros = tf.constant("0" * 20)
    whole = tf.strings.substr(tf.strings.join([digits, zeros]), 0, tf.maximum(exp + 1, 1))
    rest = tf.strings.substr(digits, tf.minimum(tf.maximum(exp + 1, 0), n), n)
    positional = tf.strings.join([whole, ".", tf.where(tf.equal(rest, ""), "0", rest)])
    small = tf.strings.join(["0.", tf.strings.substr(zeros, 0, tf.maximum(-exp - 1, 0)), digits])
    scientific = tf.strings.join([
        tf.strings.substr(digits, 0, 1), tf.where(n > 1, ".", ""),
        tf.strings.substr(digits, tf.minimum(1, n), n), "e", tf.where(exp < 0, "-", "+"),
        tf.strings.as_string(tf.abs(exp), width=2, fill="0")])
    # positional from 1e-4 up to 1e16 (NumPy's float32: 1e6, float16: 1e3), as NumPy
    # and Python decide on the value
    wide = tf.cast(ax, tf.float64)
    cutoff = {2: 1e3, 4: 1e6}.get(x.dtype.size, 1e16)
    out = tf.where(tf.logical_or(tf.logical_and(wide < 1e-4, wide > 0), wide >= cutoff),
                   scientific, tf.where(exp >= 0, positional, small))
    out = tf.where(tf.math.is_nan(x), "nan", tf.where(tf.math.is_inf(x), "inf", out))
    return tf.strings.join([tf.where(_sign_bit(x) & ~tf.math.is_nan(x), "-", ""), out])


def _sign_bit(x):
    """True where the float ``x`` is negative, -0.0 too (its sign bit, read as an integer)."""
    bits = {2: tf.int16, 4: tf.int32, 8: tf.int64}[x.dtype.size]
    return tf.bitcast(x, bits) < 0


def _integer(x):
    """``%d`` of a number: its integer part (a bool as 0 or 1)."""
    if x.dtype == tf.bool:
        return tf.cast(x, tf.int64)
    return tf.cast(x, tf.int64) if x.dtype.is_floating else x


def _spec(conversion: str):
    """A format spec or ``%`` conversion as fill, align, sign, zero, width, precision and
    type; None where it is none the graph does."""
    if conversion.startswith("%"):
        found = _PERCENT.match(conversion)
        if found is None:
            return None
        flags = found["flags"]
        return {"fill": " ", "align": "<" if "-" in flags else ">",
                "sign": "+" if "+" in flags else " " if " " in flags else "-",
                "zero": "0" in flags and "-" not in flags, "width": found["width"],
                "precision": found["precision"],
                "type": "d" if found["type"] in "iu" else found["type"]}
    found = _SPEC.match(conversion)
    if found is None:
        return None
    zero = found["zero"] is not None and found["align"] is None
    return {"fill": found["fill"] or " ", "align": found["align"] or (
        "=" if zero else ">"), "sign": found["sign"] or "-", "zero": zero,
        "width": found["width"], "precision": found["precision"], "type": found["type"]}


def _padded(body, negative, spec):
    """``body`` (the digits) with its sign, padded to the spec's width."""
    sign = tf.where(negative, "-", {"+": "+", " ": " "}.get(spec["sign"], ""))
    if spec["width"] is None:
        return tf.strings.join([sign, body])
    width = int(spec["width"])
    fill = "0" if spec["zero"] else spec["fill"]
    align = "=" if spec["zero"] else spec["align"]
    short = tf.maximum(width - tf.strings.length(sign) - tf.strings.length(body), 0)
    pad = tf.strings.substr(tf.constant(fill * width), 0, short)
    if align == "=":
        return tf.strings.join([sign, pad, body])
    if align == "<":
        return tf.strings.join([sign, body, pad])
    if align == "^":
        left = tf.strings.substr(pad, 0, short // 2)
        return tf.strings.join([left, sign, body, tf.strings.substr(pad, 0, short - short // 2)])
    return tf.strings.join([pad, sign, body])


class _Unshowable(Exception):
    """A value the graph cannot show as Python does: ``message`` says where."""


def _refused(what: str, conversion: str, spec: bool = False) -> _Unshowable:
    how = {"": "str()", "!r": "repr()"}.get(conversion, f"the format {conversion!r}")
    return _Unshowable(
        f"its message shows {what} with {how}, and under tf.function the message is made "
        f"when the graph runs, with TensorFlow's string ops, which show only single numbers "
        f"(str, repr, and the formats d, f, e, g with a width and precision) as Python does. "
        + ("Use one of those formats" if spec else "Show single items (x[0]) or a summary "
           "(x.max())") + " in the message, or check the condition outside tf.function.")


_MATMUL_RANK = re.compile(r"Shape must be rank 2 but is rank (\d+) for '\{\{node [^}]*\}\} = "
                          r"(?:Batch)?MatMul")


def needs_values(location: str) -> StagingError:
    """NumPy asked a graph tensor for its values (``__array__``) at ``location``."""
    return StagingError(
        f"NumPy needs the values of a graph tensor at {location}: a NumPy array is indexed by "
        f"it or has an item set to it, or code autograph does not convert called a NumPy "
        f"function on it; under tf.function a graph tensor has values only when the graph "
        f"runs. Index a tensor instead (tnp.asarray(a)[i], tf.gather(a, i)), write into a "
        f"local array (w = W.copy(), then w[0] = x: staged constructs carry it), or call the "
        f"NumPy function in converted code (np.f(t) runs tf.experimental.numpy's twin).")


def asked_for_values(error: BaseException) -> bool:
    """``error`` (or an error it was raised from) is NumPy asking a graph tensor for its
    values: TensorFlow's NotImplementedError, or the TypeError of ``float()`` that NumPy's
    ValueError "setting an array element with a sequence" is raised from."""
    for _ in range(4):
        if error is None:
            return False
        text = str(error)
        if isinstance(error, NotImplementedError) and text.startswith("Cannot convert a symbolic"):
            return True
        if isinstance(error, TypeError) and text.endswith("not 'SymbolicTensor'"):
            return True
        error = error.__cause__ or error.__context__
    return False


STAGED_ONLY = frozenset({"truth value", "values", "attribute"})
"""The kinds of ``tracing_error`` raised only because a value is a graph tensor: eagerly
the same line goes on (``TfBackend.trace_failure``)."""


def tracing_error(error: BaseException):
    """Which of TensorFlow's refusals while it traces ``error`` is, or None:
    "truth value" (``bool()`` of a graph tensor: ``OperatorNotAllowedInGraphError``),
    "values" (NumPy asked a graph tensor for its values, ``asked_for_values``),
    "attribute" (an attribute a graph tensor lacks, as ``.numpy`` or ndarray's
    ``.copy``), "matmul" (TensorFlow's MatMul given an operand not a matrix: eagerly an
    error too). The one classifier behind ``trace_failure`` and ``explained``."""
    if isinstance(error, tf.errors.OperatorNotAllowedInGraphError):
        return "truth value"
    if asked_for_values(error):
        return "values"
    if isinstance(error, AttributeError) and isinstance(getattr(error, "obj", None),
                                                         SymbolicTensor):
        return "attribute"
    if isinstance(error, ValueError) and _MATMUL_RANK.search(str(error)):
        return "matmul"
    return None


def explained(error: BaseException, location: str):
    """The StagingError for TensorFlow's ``error`` raised while tracing the user's line
    at ``location``, where NumPy code meets a graph tensor; None for another error."""
    kind = tracing_error(error)
    if kind == "values":
        return needs_values(location)
    if kind == "truth value":  # converted code stages its own tests: this one is not its
        what = "iterated over" if str(error).startswith("Iterating over") else \
            "used as a Python bool"
        return StagingError(
            f"a graph tensor is {what} at {location}, by code autograph does not convert "
            f"(TensorFlow's or NumPy's own: np.arange given a graph tensor as a bound, a "
            f"builtin such as all() over a tensor); under tf.function a graph tensor has a "
            f"value only when the graph runs. Pass a Python value there (computed outside "
            f"tf.function), or write the test in converted code, whose if, while and for "
            f"of a graph tensor are graph ops.")
    if kind == "matmul":
        return StagingError(
            f"matrix product at {location}: TensorFlow's MatMul (tf.matmul, and @ outside code "
            f"autograph converts) takes matrices, and an operand has rank "
            f"{_MATMUL_RANK.search(str(error)).group(1)}. Write np.matmul(a, b) or a @ b in "
            f"converted code (a vector operand is NumPy's there), or tf.linalg.matvec(m, v) / "
            f"tf.tensordot(u, v, 1).")
    if kind == "attribute" and hasattr(np.ndarray, error.name):
        name = error.name
        return StagingError(
            f".{name} of a graph tensor at {location}: under tf.function a NumPy array a "
            f"staged construct wrote, or what a NumPy call on a graph tensor returned, is a "
            f"tf.Tensor, which has no ndarray attribute '{name}'; converted code is given "
            f"ndarray's, but code autograph does not convert asked for it here. Call the NumPy "
            f"function on it (np.{name}(t)) in converted code, or use TensorFlow's op.")
    return None
