"""The functions every contestant converts and runs, on plain Python values.

Real code of 5 to 60 lines with nested loops, ``break``, ``continue`` and early
``return``, kept to the subset of Python that TensorFlow's AutoGraph and malt also
convert (no ``for``/``else``, no ``match``, no ``try``). This module imports nothing
but the standard library, so a cold-start process can import it before the tool
it measures.
"""

from __future__ import annotations

import inspect


def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def sum_odd(n):
    total = 0
    for i in range(n):
        if i % 2 == 0:
            continue
        total += i
    return total


def sign(x):
    if x > 0:
        y = 1
    else:
        y = -1
    return y


def square(x):
    return x * x


def calls_helper(x):
    return square(x) + 1


def nested_loops(rows, limit):
    """Scan rows until a value exceeds the limit; nested loops with every jump."""
    found = []
    total = 0
    for r, row in enumerate(rows):
        if not row:
            continue
        broke = False
        for c, value in enumerate(row):
            if value < 0:
                broke = True
                break
            if value > limit:
                return r, c, total
            total += value
            if total % 7 == 0:
                found.append((r, c))
        if not broke:
            total -= 1
        k = 0
        while k < len(found) and total > 100:
            total -= found[k][0]
            k += 1
    if found:
        return found[-1][0], found[-1][1], total
    return -1, -1, total


def primes_below(n):
    """Trial division, with a ``break`` out of the inner loop."""
    primes = []
    candidate = 2
    while candidate < n:
        is_prime = True
        for p in primes:
            if p * p > candidate:
                break
            if candidate % p == 0:
                is_prime = False
                break
        if is_prime:
            primes.append(candidate)
        candidate += 1
    return primes


def tokenize(text):
    """A small lexer: numbers, names, operators and strings, skipping comments."""
    tokens = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == " " or ch == "\t" or ch == "\n":
            i += 1
            continue
        if ch == "#":
            while i < n and text[i] != "\n":
                i += 1
            continue
        if ch.isdigit():
            start = i
            seen_dot = False
            while i < n:
                if text[i] == ".":
                    if seen_dot:
                        break
                    seen_dot = True
                elif not text[i].isdigit():
                    break
                i += 1
            tokens.append(("number", text[start:i]))
            continue
        if ch.isalpha() or ch == "_":
            start = i
            while i < n and (text[i].isalnum() or text[i] == "_"):
                i += 1
            tokens.append(("name", text[start:i]))
            continue
        if ch == '"' or ch == "'":
            quote = ch
            start = i
            i += 1
            while i < n and text[i] != quote:
                if text[i] == "\\":
                    i += 1
                i += 1
            if i >= n:
                return tokens, "unterminated string at " + str(start)
            i += 1
            tokens.append(("string", text[start:i]))
            continue
        if text[i:i + 2] in ("==", "!=", "<=", ">=", "**", "//"):
            tokens.append(("op", text[i:i + 2]))
            i += 2
        elif ch in "+-*/%<>=()[]{},:.":
            tokens.append(("op", ch))
            i += 1
        else:
            return tokens, "unexpected " + repr(ch) + " at " + str(i)
    return tokens, None


ROWS = [[1, 2, 3], [], [4, -1, 5], [6, 7, 8, 9], [10, 11]]
SOURCE = 'x = 3.25 * (y + 42)  # scale\nif x >= 10: name_2 = "it\\"s" // 7\n' * 3

# (label, function, arguments) for the calls-per-second comparison.
CALLS = [
    ("collatz(27)", collatz, (27,)),
    ("sum_odd(100), for-range with continue", sum_odd, (100,)),
    ("sign(3), one if/else", sign, (3,)),
    ("calls_helper(3)", calls_helper, (3,)),
    ("nested_loops(5 rows)", nested_loops, (ROWS, 50)),
    ("tokenize(3 lines)", tokenize, (SOURCE,)),
]

# The functions whose conversion time is measured, smallest first.
CONVERT = [collatz, sum_odd, primes_below, nested_loops, tokenize]


def source_lines(fn) -> int:
    return len(inspect.getsource(fn).splitlines())
