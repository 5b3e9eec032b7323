"""A first look at autograph: convert a function and print what it became.

Run:  autograph examples/collatz.py       (prints the converted source)
      python examples/collatz.py          (runs it, then shows to_code)
"""

import autograph as ag


@ag.convert
def collatz_steps(n):
    """How many Collatz steps take n to 1."""
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def first_negative(xs):
    for i, x in enumerate(xs):
        if x < 0:
            return i
    else:
        return -1


if __name__ == "__main__":
    print(collatz_steps(27))  # 111, exactly as the original function
    print(ag.to_graph(first_negative)([3, 1, -4, 1]))  # 2
    print(ag.to_code(first_negative))
