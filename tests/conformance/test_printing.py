"""``ag.print`` in staged code prints at every execution, in program order, with the
values of staged arguments; Python-only arguments are no exception (issue 9 item 5)."""

import numpy as np

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


def test_prints_come_in_program_order(backend):
    backend.check(prints_in_order, np.int32(3))
    backend.check(prints_in_order, np.int32(-1))


def test_python_only_prints_run_at_every_execution(backend, capsys):
    def f(x):
        ag.print("hello")
        return x + 1

    staged = backend.stage(f, backend.split((np.float32(1.0),)), {})
    capsys.readouterr()
    staged()
    staged()
    assert capsys.readouterr().out == "hello\nhello\n"
