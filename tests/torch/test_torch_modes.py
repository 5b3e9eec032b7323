"""Representative cases of the conformance suite in PyTorch's other modes.

The conformance suite runs on torch in its "traced" mode (``make_fx`` in a compile
session: the tracer AOTAutograd and non-strict export run a converted function under).
Here a few of its functions, each on inputs that take every branch and trip count, run
through ``torch.compile(fullgraph=True, backend="aot_eager")``, non-strict
``torch.export`` and strict ``torch.export``: each costs seconds a case on two cores.
"""

from __future__ import annotations

import importlib.util
import pathlib
import sys

import numpy as np
import pytest

CONFORMANCE = pathlib.Path(__file__).resolve().parent.parent / "conformance"


def _load(name: str):
    if str(CONFORMANCE) not in sys.path:  # its conftest imports torch_gaps beside it
        sys.path.append(str(CONFORMANCE))
    spec = importlib.util.spec_from_file_location(f"torch_modes_{name}", CONFORMANCE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


conftest = _load("conftest")
constructs = _load("test_constructs")
f32, i32 = np.float32, np.int32

CASES = {
    "if": (constructs.sign, [(f32(-2.0),), (f32(0.0),), (f32(3.5),)]),
    "early return": (constructs.early_return, [(f32(-2.0),), (f32(3.5),)]),
    "while break": (constructs.while_break, [(f32(0.5),), (f32(2000.0),)]),
    "for break": (constructs.for_break, [(np.array([1.0, 2.0, -1.0, 5.0], f32),),
                                         (np.array([1.0, 2.0], f32),)]),
    "tensor range": (constructs.traced_range, [(i32(3), i32(20)), (i32(20), i32(3))]),
    "and/or/not": (constructs.logic, [(f32(1.0), f32(2.0)), (f32(-7.0), f32(-1.0))]),
}
MODES = {
    "compiled": list(CASES),
    "exported": ["if", "while break", "for break", "tensor range"],
    "exported-strict": ["if", "while break"],
}


def _backend(mode: str):
    backend = conftest.Torch()
    backend.mode = mode
    return backend


@pytest.mark.parametrize("mode, case", [(m, c) for m, cases in MODES.items() for c in cases])
def test_case_in_mode(mode, case):
    fn, inputs = CASES[case]
    backend = _backend(mode)
    for args in inputs:
        backend.check(fn, *args)


def test_exported_program_runs_every_branch_and_round_trips(tmp_path):
    """One export, run on inputs that take each side and each trip count (a break on
    the first trip, on a later one, none: all 100 trips), and after
    ``torch.export.save``/``load``: the control flow is in the program."""
    import torch

    import autograph as ag

    converted = ag.convert(constructs.while_break)

    class Program(torch.nn.Module):
        def forward(self, x):
            return converted(x)

    ep = torch.export.export(Program(), (torch.tensor(0.5),))
    assert "while_loop" in ep.graph_module.code
    torch.export.save(ep, tmp_path / "p.pt2")
    loaded = torch.export.load(tmp_path / "p.pt2")
    trips = set()
    for x in (0.5, 2000.0, 7.0, 1e-30, -3.0):
        expected_x, expected_i = constructs.while_break(torch.tensor(x))
        trips.add(expected_i)
        for program in (ep.module(), loaded.module()):
            got_x, got_i = program(torch.tensor(x))
            torch.testing.assert_close(got_x, expected_x)
            assert got_i.dtype == torch.int64 and int(got_i) == expected_i
    assert {0, 100} < trips and len(trips) >= 4
