"""autograph.function on NumPy code with data-dependent control flow.

    python examples/graph_collatz.py

The while loop and the if inside it depend on the value of an array, so they
become one while op and one cond op of a graph; the graph is traced once for
int64 scalars, printed, compiled, saved and loaded again without this source.
"""

import os
import tempfile

import numpy as np

import autograph as ag


@ag.function
def collatz_steps(n):
    steps = np.array(0, np.int64)
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def main():
    print("steps for 27:", collatz_steps(np.array(27)))
    print("steps for 97:", collatz_steps(np.array(97)))
    print("traces:", collatz_steps.experimental_get_tracing_count())
    concrete = collatz_steps.get_concrete_function(np.array(27))
    print(concrete.graph)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "collatz.npz")
        concrete.save(path)
        loaded = ag.load(path)
        print("loaded graph, steps for 871:", loaded(np.array(871)))


if __name__ == "__main__":
    main()
