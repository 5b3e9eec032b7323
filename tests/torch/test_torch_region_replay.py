"""What a converted function reads and changes of Python state under ``torch.compile``
(``backends/torch/region_reads.py``, ``region_replay.py``): the compiled code is
guarded on what it reads (a global flag, a module's attribute changed between calls
was read as it was when PyTorch traced: a silent wrong value), and the changes it
makes are replayed on every call, as plain dynamo does for the original (they were
refused). Differential: the same functions compiled unconverted and converted (no
tensor condition, so the original compiles), then with tensor conditions against
eager calls; the outputs and the Python state after every call."""

from __future__ import annotations

import pytest
import torch

import autograph as ag

COUNT = 0
CACHE: dict = {}
FLAG = True


def tick():
    global COUNT
    COUNT += 1


class Model(torch.nn.Module):
    def __init__(self, staged: bool):
        super().__init__()
        self.staged, self.calls, self.log, self.scale = staged, 0, [], 2.0

    def forward(self, x):
        tick()
        self.calls += 1
        self.log.append(x.shape[0])
        CACHE["n"] = x.shape[0] + self.calls
        if self.staged:
            if x.sum() > 0:  # a tensor condition: only the converted forward compiles
                return x * self.scale
            return x - self.scale
        return x * self.scale


def _state(m):
    return COUNT, m.calls, list(m.log), dict(CACHE)


def _reset():
    global COUNT
    COUNT = 0
    CACHE.clear()
    torch._dynamo.reset()


def _inputs():
    return [torch.ones(3) * (1 if i % 2 else -1) for i in range(5)]


def test_changes_are_replayed_per_call_as_by_the_original():
    results = []
    for convert in (False, True):
        _reset()
        m = Model(staged=False)
        compiled = torch.compile(ag.convert(m) if convert else m, fullgraph=True,
                                 backend="aot_eager")
        results.append([(compiled(x), _state(m)) for x in _inputs()])
    for (out, state), (converted_out, converted_state) in zip(*results):
        torch.testing.assert_close(converted_out, out)
        assert converted_state == state
    assert results[1][-1][1] == (5, 5, [3] * 5, {"n": 8})


@pytest.mark.parametrize("backend", ["aot_eager", "eager"])
def test_with_a_tensor_condition_the_state_is_the_eager_one_after_every_call(backend):
    _reset()
    eager = Model(staged=True)
    expected = [(eager(x), _state(eager)) for x in _inputs()]
    _reset()
    m = ag.convert(Model(staged=True))
    compiled = torch.compile(m, fullgraph=True, backend=backend)
    for x, (out, state) in zip(_inputs(), expected):
        torch.testing.assert_close(compiled(x), out)
        assert _state(m) == state


def test_what_a_converted_function_reads_is_guarded():
    global FLAG
    m = ag.convert(Reading())
    compiled = torch.compile(m, fullgraph=True, backend="aot_eager")
    x = torch.ones(2)
    try:
        for change in (None, "flag", "scale", "item"):
            if change == "flag":
                FLAG = False
            elif change == "scale":
                m.scale = 5.0
            elif change == "item":
                m.cfg["k"] = 10.0
            torch.testing.assert_close(compiled(x), Reading.forward(m, x))
            torch.testing.assert_close(compiled(-x), Reading.forward(m, -x))
    finally:
        FLAG = True


class Reading(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale, self.cfg, self.unread = 2.0, {"k": 1.0}, []

    def forward(self, x):
        if x.sum() > 0:
            y = x * self.scale + self.cfg["k"]
        else:
            y = x - 1
        return y * 2 if FLAG else y


def test_state_the_function_does_not_name_is_not_guarded():
    from torch._dynamo.utils import counters

    m = ag.convert(Reading())
    torch._dynamo.reset()
    counters.clear()
    compiled = torch.compile(m, fullgraph=True, backend="aot_eager")
    compiled(torch.ones(2))
    m.unread.append(1)  # a list of losses a training loop keeps: no compile again
    compiled(torch.ones(2))
    assert counters["stats"]["unique_graphs"] == 1


def counted(x):
    tick()
    return x * 2


@pytest.mark.parametrize("strict", [True, False])
def test_export_changes_state_as_the_original(strict):
    # strict export drops the side effects dynamo records (COUNT 0), non-strict export
    # runs the Python once (COUNT 1): the converted function's the same
    counts = []
    for fn in (counted, ag.convert(counted)):
        _reset()

        class Wrapper(torch.nn.Module):
            def forward(self, x, fn=fn):
                return fn(x)

        program = torch.export.export(Wrapper(), (torch.ones(2),), strict=strict)
        program.module()(torch.ones(2))
        counts.append(COUNT)
    assert counts == [0, 0] if strict else counts == [1, 1]


def _scaling(k):
    def scaled(x):
        return x * k

    return scaled


scaled = _scaling(3.0)


def through_a_helper(x):
    y = scaled(x) + 1
    return y if x.sum() > 0 else -y


def test_what_a_helper_closes_over_is_guarded():
    torch._dynamo.reset()
    compiled = torch.compile(ag.convert(through_a_helper), fullgraph=True,
                             backend="aot_eager")
    x = torch.ones(2)
    torch.testing.assert_close(compiled(x), through_a_helper(x))
    scaled.__closure__[0].cell_contents = 5.0
    try:
        torch.testing.assert_close(compiled(x), through_a_helper(x))
    finally:
        scaled.__closure__[0].cell_contents = 3.0
