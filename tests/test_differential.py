"""Differential tests: every corpus function, original vs converted.

Each case of ``tests/corpus`` runs on each of its inputs three times: the
original, the converted function on its default path (Python values, so the
user's own body), and the converted function under ``force_staged()`` (the
staged body: control flow through the functional operators, on Python values).
The converted runs must be observably identical to the original: the return
value (equal, and of the same type, recursively), the exception (type and
message), everything printed, the arguments afterwards (each run gets its own
deep copy of the inputs) and whatever global or closure state the case observes.

Test ids read ``module.function(inputs)``; run one with ``-k``.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import io
import os
import re
import sys
import types
from typing import Any

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus

CASES = corpus.all_cases()


@dataclasses.dataclass
class Outcome:
    result: Any  # ("return", normalized value) or ("raise", type, message)
    stdout: str
    args: Any  # the arguments after the call, normalized
    state: Any  # what the case's observe() saw after the call

    def describe(self) -> str:
        return (f"  result: {self.result!r}\n  stdout: {self.stdout!r}\n"
                f"  args after: {self.args!r}\n  observed state: {self.state!r}")


def normalized(value, depth: int = 0):
    """A structure that compares equal only when the values are equal and of the
    same types all the way down (``1 == 1.0 == True`` is not enough)."""
    if depth > 50:
        return ("...", repr(type(value)))
    kind = type(value)
    if kind in (list, tuple):
        return (kind.__name__, [normalized(v, depth + 1) for v in value])
    if kind is dict:
        return ("dict", [(normalized(k, depth + 1), normalized(v, depth + 1))
                         for k, v in value.items()])
    if kind.__module__ == "numpy" and kind.__name__ == "ndarray":
        return ("ndarray", str(value.dtype), value.shape, value.tolist())
    if kind in (set, frozenset):
        return (kind.__name__, value, sorted(type(v).__name__ for v in value))
    if kind.__eq__ is object.__eq__ and hasattr(value, "__dict__"):
        # Objects without their own equality: compare their type and attributes.
        return (kind.__qualname__, normalized(vars(value), depth + 1))
    return (kind.__qualname__, value)


def run(fn, case: corpus.Case, inputs: corpus.Call, staged: bool = False) -> Outcome:
    if case.reset is not None:
        case.reset()
    args = copy.deepcopy(inputs.args)
    kwargs = copy.deepcopy(inputs.kwargs)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            if staged:
                from autograph.runtime.staging.mode import force_staged

                with force_staged():
                    value = fn(*args, **kwargs)
            else:
                value = fn(*args, **kwargs)
            if isinstance(value, types.GeneratorType):
                # A generator is compared by what it yields (and prints meanwhile).
                value = ("generator yielded", list(value))
            result = ("return", normalized(value))
        except Exception as e:  # noqa: BLE001 - the exception is the outcome
            result = ("raise", type(e), str(e) if case.message else None)
    state = case.observe() if case.observe is not None else None
    return Outcome(result, out.getvalue(), normalized((args, kwargs)), normalized(state))


_converted: dict[str, Any] = {}


def converted(case: corpus.Case):
    """The converted entity of a case: cached, unless the case builds a fresh
    entity per run (then the original and the converted run get one each)."""
    ag = pytest.importorskip("autograph")
    if not hasattr(ag, "to_graph"):
        pytest.skip("autograph.to_graph is not available yet")
    if case.factory is not None:
        return ag.to_graph(case.make())
    if case.id not in _converted:
        _converted[case.id] = ag.to_graph(case.entity)
    return _converted[case.id]


def _case_id(case: corpus.Case, inputs: corpus.Call) -> str:
    return re.sub(r" at 0x[0-9a-fA-F]+", "", f"{case.id}{inputs!r}")


# Differences that are known converter bugs, by path and test id. Each is a
# strict xfail: when the converter is fixed the test XPASSes and fails, so the
# entry must be removed.
KNOWN_BUGS = {
    "staged": {
    },
    "default": {},
}


def _params(path: str) -> list:
    params = []
    for case in CASES:
        for inputs in case.inputs:
            test_id = _case_id(case, inputs)
            reason = KNOWN_BUGS[path].get(test_id)
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            params.append(pytest.param(case, inputs, id=test_id, marks=marks))
    return params


def assert_same(expected: Outcome, actual: Outcome, what: str) -> None:
    if expected != actual:
        pytest.fail(f"{what} differs from the original\noriginal:\n{expected.describe()}\n"
                    f"{what}:\n{actual.describe()}", pytrace=False)


@pytest.mark.parametrize("case, inputs", _params("default"))
def test_default_path(case, inputs):
    expected = run(case.make(), case, inputs)
    actual = run(converted(case), case, inputs)
    assert_same(expected, actual, "converted (default path)")


@pytest.mark.parametrize("case, inputs", _params("staged"))
def test_staged_path(case, inputs):
    expected = run(case.make(), case, inputs)
    actual = run(converted(case), case, inputs, staged=True)
    assert_same(expected, actual, "converted (forced staged)")


@pytest.mark.parametrize("case, inputs", _params("default"))
def test_corpus_is_deterministic(case, inputs):
    """The original run twice gives the same outcome, so differences are real."""
    assert_same(run(case.make(), case, inputs), run(case.make(), case, inputs), "second run")


def test_corpus_size():
    functions = {case.id for case in CASES}
    inputs = sum(len(case.inputs) for case in CASES)
    assert len(functions) >= 220, len(functions)
    assert all(len(case.inputs) >= 1 for case in CASES)
    assert inputs >= 2 * len(functions), inputs


def test_paths_are_distinct(monkeypatch):
    """The staged path really goes through the operators, the default path never:
    otherwise the two differential tests would prove the same thing twice."""
    rt = pytest.importorskip("autograph.runtime")
    # on Python values the staged body runs if/while bodies inline when their test
    # is a Python value (converters.python_paths); a for goes through for_loop, the
    # lowered jumps through not_
    counts = {"for_loop": 0, "not_": 0}

    def spy(name, real):
        def counting(*args, **kwargs):
            counts[name] += 1
            return real(*args, **kwargs)

        return counting

    for name in counts:
        monkeypatch.setattr(rt, name, spy(name, getattr(rt, name)))
    by_id = {case.id: case for case in CASES}
    probes = [(by_id["combinations.state_machine"], corpus.Call(([1, 2, 3, 4, 5, 6],))),
              (by_id["loops.collatz_steps"], corpus.Call((6,)))]
    for case, inputs in probes:
        run(converted(case), case, inputs)
    assert counts == {"for_loop": 0, "not_": 0}
    for case, inputs in probes:
        run(converted(case), case, inputs, staged=True)
    assert all(counts.values()), counts
