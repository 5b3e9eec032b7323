"""A staged loop carries the line of its ``for``/``while`` (issue 32, item 9): in the
graph's text, in tracebacks through the converted function, and in the errors that
name the op a tensor came from (not the line of the loop body's last statement)."""

from __future__ import annotations

import inspect
import traceback

import numpy as np
import pytest

import autograph as ag


def _line(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def loops(x, n):
    i = 0
    while i < n:
        x = x * 2.0
        i += 1
    for k in range(n):
        x = x + 1.0
        x = x - 0.5
    return x


def test_loop_ops_carry_the_loop_line_in_the_graph_text():
    graph = ag.function(loops).get_concrete_function(np.float64(1), np.int64(3)).graph
    text = str(graph)
    top = [line for line in text.splitlines() if line.startswith("  t")]
    assert top[0].split("=")[1].strip().startswith("while")
    assert top[0].endswith(f"# test_graph_loop_lines.py:{_line(loops, 'while i < n')}")
    assert top[1].split("=")[1].strip().startswith("for")
    assert top[1].endswith(f"# test_graph_loop_lines.py:{_line(loops, 'for k in range')}")
    assert f"t7 = t5 * 2.0" in text  # the body's ops keep their own lines
    assert f"# test_graph_loop_lines.py:{_line(loops, 'x = x - 0.5')}" in text


def unsupported_in_loop(x, n):
    i = 0
    while i < n:
        x = x + 1.0
        i += 1
    for k in range(n):
        x = np.fft.hfft(x)
        x = x + 1.0
    return x


def test_a_traceback_shows_the_loop_line_for_the_function_frame():
    with pytest.raises(TypeError) as caught:
        ag.function(unsupported_in_loop)(np.ones(2), np.int64(3))
    frames = [f for f in traceback.extract_tb(caught.value.__traceback__)
              if f.filename == __file__]
    assert [(f.name, f.lineno) for f in frames[-2:]] == [
        ("unsupported_in_loop", _line(unsupported_in_loop, "for k in range")),
        ("loop_body_2", _line(unsupported_in_loop, "np.fft.hfft"))]


COUNT = 0


def counts_globally(x, n):
    global COUNT
    for k in range(n):
        COUNT += x
        x = x + 1.0
    return x


def test_an_escaped_value_of_a_loop_names_the_line_that_computed_it():
    global COUNT
    with pytest.raises(ag.StagingError) as caught:
        ag.function(counts_globally)(np.float64(1), np.int64(3))
    assert COUNT == 0  # a failed trace puts the global back (issue 27.6)
    line = _line(counts_globally, "COUNT += x")
    assert f"made while tracing at test_graph_loop_lines.py:{line} (`COUNT += x`)" in \
        str(caught.value)
