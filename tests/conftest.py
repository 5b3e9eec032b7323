"""Settings for the whole test run."""

from __future__ import annotations

import gc


def pytest_sessionfinish(session):
    """Freeze the heap once the tests have run. While it shuts down, pytest collects
    garbage several times (to report unraisable exceptions); with TensorFlow, PyTorch
    and JAX loaded that can take seconds, and pytest-xdist's worker gateway sends a
    worker still busy 5 s after the run ended a SIGINT: a stray KeyboardInterrupt,
    reported from whatever garbage-collection callback it interrupted. Frozen, the
    heap is not scanned again."""
    gc.freeze()
