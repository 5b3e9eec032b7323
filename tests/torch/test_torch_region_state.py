"""Python state a converted function changes while PyTorch traces it
(``backends/torch/region_state.py``): PyTorch runs a converted function's Python only
while it traces it, several times per compile, and never when the compiled code runs. A
global a helper rebinds, a list it appends to, an object's attribute changed that way
counted each trace (9 after one call where eagerly 3, and 9 again after two: fuzz seeds
23013 and 23000). Such a change is put back and refused, naming it."""

from __future__ import annotations

import pytest
import torch

import autograph as ag

COUNT = 0
HISTORY: list = []


def tick(n):
    global COUNT
    COUNT += n


def counted(v):
    tick(3)
    return v * 2


def remembered(v):
    HISTORY.append(1)
    return v + 1


class Box:
    def __init__(self):
        self.calls = 0


BOX = Box()


def on_an_object(v):
    BOX.calls += 1
    return v - 1


def pure(v):
    total = v.sum()
    return v / total if total > 0 else v


def _compiled(fn):
    torch._dynamo.reset()
    return torch.compile(ag.convert(fn), fullgraph=True, backend="aot_eager")


@pytest.mark.parametrize("fn,what", [
    (counted, "the global 'COUNT' is rebound by tick()"),
    (remembered, "'HISTORY[0]' is changed"),
    (on_an_object, "'BOX.calls' is changed"),
])
def test_a_change_to_python_state_is_put_back_and_refused(fn, what):
    before = (COUNT, list(HISTORY), BOX.calls)
    with pytest.raises(ag.StagingError) as raised:
        _compiled(fn)(torch.ones(2))
    message = str(raised.value)
    assert message.startswith(f"torch.compile and torch.export: {fn.__name__}() changes Python "
                              f"state outside it ({what}")
    assert message.endswith(
        "PyTorch runs a converted function's Python only while it traces it (several times "
        "per compile) and not when the compiled code runs, so the change would not happen "
        "once per call. Return the new value (a tensor output) and make the change outside "
        "the compiled function.")
    assert (COUNT, HISTORY, BOX.calls) == before  # put back


def test_a_function_that_changes_nothing_compiles():
    x = torch.tensor([1.0, 3.0])
    torch.testing.assert_close(_compiled(pure)(x), pure(x))
    torch.testing.assert_close(_compiled(pure)(-x), pure(-x))


def test_eager_calls_change_state_as_the_original():
    before = COUNT
    ag.convert(counted)(torch.ones(2))
    assert COUNT == before + 3
