"""``ag.print`` in staged code prints at every execution, in program order, with the
values of staged arguments; Python-only arguments are no exception (issue 9 item 5)."""

import re

import numpy as np
import pytest

import autograph as ag


def prints_in_order(x):
    ag.print("start")
    if x > 0:
        ag.print("positive", x)
    else:
        ag.print("not positive")
    ag.print("middle", 1, 2.5)
    n = 0
    while n < 2:
        ag.print("step", n)
        n += 1
    ag.print("end")
    return x


def refused(backend, fn, *args, line: int, code: str) -> None:
    """A backend that cannot print at run time (``backend.prints`` False) refuses the
    first ``ag.print`` while it traces, naming the user's line and what it prints (here
    Python values only); eager code still prints."""
    expected = (f"autograph.print at {__file__}:{line} (`{code}`) prints Python values only "
                f"while PyTorch traces (torch.compile or torch.export): printed now, they "
                f"would appear once, when PyTorch traces, not at every run of the traced "
                f"program, which cannot print everywhere (not inside cond or while_loop). "
                f"Print them outside the compiled function.")
    with pytest.raises(ag.StagingError, match=f"^{re.escape(expected)}$"):
        backend.staged(fn, *args)


def test_prints_come_in_program_order(backend):
    if not backend.prints:
        return refused(backend, prints_in_order, np.int32(3),
                       line=prints_in_order.__code__.co_firstlineno + 1, code='ag.print("start")')
    backend.check(prints_in_order, np.int32(3))
    backend.check(prints_in_order, np.int32(-1))


def test_python_only_prints_run_at_every_execution(backend, capsys):
    def f(x):
        ag.print("hello")
        return x + 1

    if not backend.prints:
        return refused(backend, f, np.float32(1.0), line=f.__code__.co_firstlineno + 1,
                       code='ag.print("hello")')
    staged = backend.stage(f, backend.split((np.float32(1.0),)), {})
    capsys.readouterr()
    staged()
    staged()
    assert capsys.readouterr().out == "hello\nhello\n"
