"""Section 5: data-dependent control flow under PyTorch: converted + compile vs hand-written
``torch.cond`` / ``torch.while_loop`` + compile vs eager.

Each workload is written once as plain Python (``while``/``if`` on tensors) and run
three ways, interleaved:

* ``autograph + compile``: ``torch.compile(ag.convert(f), fullgraph=True)``;
* ``hand-written + compile``: the same algorithm written with ``torch.while_loop`` /
  ``torch.cond`` (what a PyTorch user writes today), under the same ``torch.compile``;
* ``eager``: the plain function, op by op (``bool(tensor)`` decides each step);
* ``autograph eager``: ``ag.convert(f)`` called without compiling (the issue's "~1x the
  original in eager PyTorch": its tensor conditions decide as ``bool(tensor)`` does).

Compiles use ``backend="aot_eager"``: an inductor compile costs 25-85 s per function on
a 2-core machine. The compile time of both compiled contestants (first call, including
dynamo and AOTAutograd) is a second table. Every result is checked against eager first.
Target: autograph within 1.1x of hand-written per call.
"""

from __future__ import annotations

import functools
import time

import numpy as np

import autograph as ag

from . import contestants
from .timing import Stats, Table, interleave, per_call

try:
    import torch
except ImportError:  # reported as missing by run()
    torch = None

COLUMNS = ["autograph + compile", "hand-written + compile", "eager", "autograph eager"]

# ------------------------------------------------------------ workloads (plain Python)


def newton_sqrt(a):
    """Square roots by Newton's method, until the worst residual is small."""
    x = torch.clamp(a, min=1.0)
    i = 0
    while torch.max(torch.abs(x * x - a)) > 1e-3 and i < 100:
        x = 0.5 * (x + a / x)
        i += 1
    return x


def bisect_cube_root(a):
    """A cube root by bisection, with a data-dependent ``if`` per step."""
    lo = torch.zeros(())
    hi = torch.clamp(a, min=1.0)
    while hi - lo > 1e-4:
        mid = (lo + hi) / 2
        if mid * mid * mid > a:
            hi = mid
        else:
            lo = mid
    return lo


# ------------------------------------------------------------ the same, by hand


def newton_sqrt_by_hand(a):
    def cond(x, i):
        return (torch.max(torch.abs(x * x - a)) > 1e-3) & (i < 100)

    def body(x, i):
        return 0.5 * (x + a / x), i + 1

    return torch.while_loop(cond, body, (torch.clamp(a, min=1.0), torch.tensor(0)))[0]


def bisect_cube_root_by_hand(a):
    def cond(lo, hi):
        return hi - lo > 1e-4

    def body(lo, hi):
        mid = (lo + hi) / 2
        return torch.cond(mid * mid * mid > a, lambda: (lo.clone(), mid.clone()), lambda: (mid.clone(), hi.clone()))

    return torch.while_loop(cond, body, (torch.zeros(()), torch.clamp(a, min=1.0)))[0]


def workloads() -> list:
    """(label, plain function, hand-written function, argument)."""
    return [
        ("bisection cube root (scalar)", bisect_cube_root, bisect_cube_root_by_hand,
         torch.tensor(12345.678)),
        ("newton sqrt (65536 values)", newton_sqrt, newton_sqrt_by_hand,
         torch.linspace(0.5, 1e4, 65536)),
    ]


def _warm_up(x):
    if x > 0:
        x = x + 1
    return x


def _compile(fn):
    return torch.compile(fn, fullgraph=True, backend="aot_eager")


def _first_call(fn, arg) -> float:
    start = time.perf_counter()
    fn(arg)
    return time.perf_counter() - start


def run(quick: bool = False, skip=()) -> Table:
    table = Table(
        "7. PyTorch: data-dependent control flow",
        "Seconds per call: median [25th, 75th percentile] over interleaved repeats; "
        "compile rows: the first call (dynamo, AOTAutograd with backend=\"aot_eager\"), "
        "one sample. Ratios above 1: the contestant is slower than autograph + compile.",
        COLUMNS, [("hand-written + compile", "autograph + compile"),
                  ("eager", "autograph + compile"), ("autograph eager", "eager")],
    )
    missing = contestants.status("PyTorch", skip)
    if missing:
        table.add("every workload", dict.fromkeys(COLUMNS, missing))
        return table
    budget, repeats = (0.002, 3) if quick else (0.02, 15)
    # one-time costs (dynamo's first compile, autograph's framework probes, which load
    # the TensorFlow backend when dynamo looks for TensorFlow) stay out of the compile rows
    if not quick:
        _first_call(_compile(ag.convert(_warm_up)), torch.ones(()))
    for label, plain, by_hand, arg in workloads()[:1] if quick else workloads():
        converted, written = _compile(ag.convert(plain)), _compile(by_hand)
        compile_times = {"autograph + compile": Stats((_first_call(converted, arg),)),
                         "hand-written + compile": Stats((_first_call(written, arg),)),
                         "eager": "n/a", "autograph eager": "n/a"}
        expected = plain(arg).numpy()
        for fn in (converted, written):
            np.testing.assert_allclose(fn(arg).numpy(), expected, rtol=1e-5)
        calls = {"autograph + compile": converted, "hand-written + compile": written,
                 "eager": plain, "autograph eager": ag.convert(plain)}
        samplers = {name: per_call(functools.partial(fn, arg), budget)
                    for name, fn in calls.items()}
        table.add(label, interleave(samplers, repeats))
        table.add(f"{label}: compile", compile_times)
        table.check(f"autograph within 1.1x of hand-written on {label}",
                    table.ratio(label, "autograph + compile", "hand-written + compile"),
                    lambda r: r <= 1.1)
        table.check(f"converted code in eager PyTorch within 1.1x of the original on {label}",
                    table.ratio(label, "autograph eager", "eager"), lambda r: r <= 1.1)
    return table
