"""Milliseconds per parse of pyparsing's JSON example, pyparsing unconverted or
converted whole (``plugin.convert_module`` on every module of the package), on the
Python path or with the staged bodies forced. CPU time (``time.process_time``), the
best of five batches: the machine these run on is shared. Not part of the test suite.

    PYTHONPATH=. VENV/bin/python tests/realib/pyparsing_speed.py SRC/pyparsing-3.3.3 python

Modes: ``original``, ``python``, ``staged``. Run each in its own process, alternating.
"""

from __future__ import annotations

import contextlib
import os
import pkgutil
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))


def main(source: str, mode: str) -> None:
    sys.path.insert(0, os.path.join(source, "examples"))
    sys.path.insert(0, HERE)
    import pyparsing

    if mode != "original":
        import plugin

        names = ["pyparsing"] + [f"pyparsing.{m.name}" for m in pkgutil.iter_modules(pyparsing.__path__)
                                 if m.name != "diagram"]  # needs the railroad package
        plugin._modules.update(names)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for name in names:
                plugin.convert_module(name)
    import jsonParser

    with open(os.path.join(source, "examples", "jsonParser.py"), encoding="utf-8") as f:
        example = f.read()
    start = example.index('testdata = """') + len('testdata = """')
    text = example[start:example.index('"""', start)]
    from autograph.runtime.staging.mode import force_staged

    with force_staged() if mode == "staged" else contextlib.nullcontext():
        jsonParser.jsonObject.parse_string(text)
        n = 3 if mode == "staged" else 30
        best = float("inf")
        for _ in range(5):
            began = time.process_time()
            for _ in range(n):
                jsonParser.jsonObject.parse_string(text)
            best = min(best, (time.process_time() - began) / n)
    print(f"{mode}: {best * 1e3:.2f} ms per parse")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
