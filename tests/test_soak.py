"""The small version of the soak test (``python -m benchmarks.soak`` runs the full one):
converted calls, autograph.function calls over many signatures and discarded
Functions leave memory flat after the warm-up round."""

from benchmarks import soak


def test_memory_is_flat_after_warm_up():
    rows = soak.soak(scale=0.005, rounds=6, signatures=40)
    warm, last = rows[1], rows[-1]
    assert last[1] - warm[1] < 64  # KB allocated by Python, tracemalloc
    print(soak.report(rows))
