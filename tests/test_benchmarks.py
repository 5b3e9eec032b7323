"""Smoke test of the benchmark suite: every section runs and returns sane numbers.

Performance targets are checked by the suite itself (``python -m benchmarks --check``),
never here: timings in a busy test run prove nothing. TensorFlow and malt are
always skipped, so the benchmarks never import them, even where they are installed
(other tests of the same process may: the TensorFlow backend's).
"""

from __future__ import annotations

import math
import os
import sys

import pytest

# The suite is run from the repository root and is not installed; import it from there.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks import __main__ as suite
from benchmarks import contestants, python_values
from benchmarks.timing import Stats, Table, interleave

SKIP = {"TensorFlow", "malt", "PyTorch"}  # torch.compile imports TensorFlow where installed


_IMPORTED_BEFORE: set = set()  # of the skipped tools, what other tests had imported


@pytest.fixture(scope="module")
def tables():
    _IMPORTED_BEFORE.update({"tensorflow", "malt"} & set(sys.modules))
    return suite.run_suite(quick=True, skip=SKIP)


def test_every_section_runs_and_returns_sane_numbers(tables):
    assert [t.title.split(".")[0] for t in tables] == ["1", "2", "3", "4", "5", "6", "7", "8"]
    for table in tables:
        assert table.rows, table.title
        numbers = [cell for _, cells in table.rows for cell in cells.values()
                   if isinstance(cell, Stats)]
        texts = [cell for _, cells in table.rows for cell in cells.values() if isinstance(cell, str)]
        assert numbers or (texts and all(t.startswith(("missing", "skipped")) for t in texts)), table.title
        for stats in numbers:
            assert stats.samples and all(math.isfinite(s) and s > 0 for s in stats.samples)
        for _, cells in table.rows:
            for column, cell in cells.items():
                assert isinstance(cell, Stats) or cell == "n/a" or cell.startswith(
                    ("skipped", "missing")), (table.title, column, cell)
        assert "### " + table.title in table.markdown()


_TF_BEFORE = "tensorflow" in sys.modules


def _tf_tests_ran() -> bool:
    return any(name.startswith("autograph.runtime.backends.tf") for name in sys.modules)


def test_skipped_contestants_are_reported_and_never_imported(tables):
    conversion = tables[0]
    for _, cells in conversion.rows:
        assert cells["TensorFlow"] == cells["malt"] == "skipped (--skip)"
    assert not ({"tensorflow", "malt"} & set(sys.modules)) - _IMPORTED_BEFORE


def test_a_missing_tool_is_reported_as_missing(monkeypatch):
    monkeypatch.setitem(contestants.TOOLS, "TensorFlow", ("no_such_module_for_ag_tests", "bench"))
    assert contestants.status("TensorFlow") == "missing (pip install '.[bench]')"
    table = python_values.run(quick=True, skip={"malt"})
    for _, cells in table.rows:
        assert cells["TensorFlow"] == "missing (pip install '.[bench]')"
        assert "–" in table.markdown()


def test_a_failing_contestant_is_a_result_not_a_crash():
    cells = interleave({"ok": lambda: 1e-6, "broken": lambda: 1 / 0}, repeats=3)
    assert cells["ok"].samples == (1e-6,) * 3
    assert cells["broken"] == "fails: ZeroDivisionError: division by zero"


def test_ratios_and_checks():
    table = Table("t", "note", ["a", "b"], [("b", "a")])
    table.add("row", {"a": Stats((1.0, 2.0, 3.0)), "b": Stats((4.0,))})
    table.add("half", {"a": Stats((1.0,))})
    assert table.ratio("row", "b", "a") == 2.0
    assert table.ratio("half", "b", "a") is None
    table.check("b at most twice a", table.ratio("row", "b", "a"), lambda r: r <= 2)
    table.check("unmeasured", table.ratio("half", "b", "a"), lambda r: r <= 2)
    text = table.markdown()
    assert "| row | 2 s [1.5, 2.5] | 4 s [4, 4] | 2x |" in text
    assert "| half | 1 s [1, 1] | n/a | – |" in text
    assert "- met: b at most twice a (measured 2)" in text
    assert "- not measured: unmeasured" in text


def test_command_line_writes_the_report(tmp_path, capsys):
    out = tmp_path / "results.md"
    argv = ["--quick", "--only", "python", "--skip", "TensorFlow", "--skip", "malt",
            "--output", str(out)]
    assert suite.main(argv) == 0
    text = out.read_text()
    assert text.startswith("# Benchmark results") and "Python " in text and "CPUs" in text
    assert "### 2. Converted code on plain Python values" in text
    assert text in capsys.readouterr().out
