"""Long work says what it is doing (issue 32, item 10): a trace or conversion still
running after ``progress.LONG`` seconds logs one INFO line on the ``autograph``
logger, while it runs; ``ag.set_verbosity`` as TensorFlow's."""

from __future__ import annotations

import inspect
import logging
import time

import numpy as np
import pytest

import autograph as ag
from autograph.runtime.staging import progress


@pytest.fixture
def quick_long(monkeypatch):
    monkeypatch.setattr(progress, "LONG", 0.05)


@pytest.fixture
def verbosity():
    yield
    ag.set_verbosity(0)


def slow_trace(x):
    time.sleep(0.5)  # runs while tracing only
    return x * 2


def fast_trace(x):
    return x + 1


def _line(fn) -> int:
    return inspect.getsourcelines(fn)[1]


def test_a_long_trace_says_what_it_is_once_while_it_runs(quick_long, caplog):
    caplog.set_level(logging.INFO, logger="autograph")
    progress.LONG = 60.0
    ag.to_graph(slow_trace)  # converted first (cached): a busy machine may take 0.05 s
    progress.LONG = 0.05
    graph_fn = ag.function(slow_trace)
    graph_fn(np.ones(2))
    lines = [r.getMessage() for r in caplog.records if r.name == "autograph"]
    assert lines == [f"tracing 'slow_trace' (test_progress.py:{_line(slow_trace)}) has taken "
                     f"0.05 s so far"]
    assert all(r.levelno == logging.INFO for r in caplog.records if r.name == "autograph")
    graph_fn(np.ones(2))  # no trace: nothing more
    assert len([r for r in caplog.records if r.name == "autograph"]) == 1


def test_short_work_says_nothing_at_level_0(caplog):
    caplog.set_level(logging.INFO, logger="autograph")
    ag.function(fast_trace)(np.ones(2))
    time.sleep(0.1)
    assert [r for r in caplog.records if r.name == "autograph"] == []


def verbose_fn(x):
    if x > 0:
        return x
    return -x


def test_level_1_logs_every_conversion_and_trace_with_its_time(verbosity, capsys, caplog):
    caplog.set_level(logging.INFO, logger="autograph")
    ag.set_verbosity(1, alsologtostdout=True)
    ag.function(verbose_fn)(np.float64(2.0))
    out = capsys.readouterr().out.splitlines()
    line = _line(verbose_fn)
    assert [o.rsplit(" in ", 1)[0] for o in out] == [
        f"autograph: converted verbose_fn (test_progress.py:{line})",
        f"autograph: traced 'verbose_fn' (test_progress.py:{line})"]
    assert all(o.endswith(" s") for o in out)
    assert [r.getMessage() for r in caplog.records] == [o[len("autograph: "):] for o in out]
    assert progress.get_verbosity() == 1


@pytest.mark.parametrize("level", [-1, 1.5, "2"])
def test_set_verbosity_takes_a_level_of_0_or_more(level):
    with pytest.raises(ValueError, match="level must be an int of 0 or more"):
        ag.set_verbosity(level)
