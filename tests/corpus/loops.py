# ruff: noqa  (user code as people write it, lint findings included)
"""for and while loops over every kind of iterable, with every kind of target."""

from . import cases


@cases((0,), (1,), (10,), (-3,), (2.0,))
def sum_range(n):
    total = 0
    for i in range(n):
        total += i
    return total


@cases((3,), (0,), (-1,))
def countdown(n):
    while n > 0:
        print(n)
        n -= 1
    print("liftoff")
    return n


@cases(([1, 2, 3, 4],), ([],), ([2.5, 2],), (["a", 3],), (None,))
def product(xs):
    p = 1
    for x in xs:
        p = p * x
    return p


@cases(("hello world",), ("",), ("AEIOU aeiou",), (42,))
def count_vowels(s):
    count = 0
    for ch in s.lower():
        if ch in "aeiou":
            count += 1
    return count


@cases(({"a": 1, "b": 2},), ({},), ({"x": -1, "y": 5, "z": 0},))
def dict_loops(d):
    keys = []
    for k in d:
        keys.append(k)
    total = 0
    for k, v in d.items():
        if v > 0:
            total += v
    return keys, total


@cases(([(1, 2), (3, 4)],), ([],), ([(1, 2, 3)],), ([(5, 6)],))
def tuple_targets(pairs):
    out = []
    for a, b in pairs:
        out.append(a * b)
    return out


@cases(([[1, 2, 3], [4], [5, 6]],), ([[]],), ([],))
def star_targets(rows):
    firsts, rests = [], []
    for first, *rest in rows:
        firsts.append(first)
        rests.append(rest)
    return firsts, rests


@cases(([[1, 2, 3, 4], [5, 6]],), ([[1]],))
def star_middle_target(rows):
    out = []
    for head, *middle, tail in rows:
        out.append((head, middle, tail))
    return out


@cases(([(1, 2), (3, 4)],), ([],), ([(1,)],))
def nested_targets(pairs):
    acc = []
    for i, (a, b) in enumerate(pairs, start=1):
        acc.append(i * (a + b))
    return acc


@cases((5,), (0,))
def over_generator_expression(n):
    total = 0
    for sq in (i * i for i in range(n)):
        total += sq
    return total


@cases((48,), (7,), (0,), (1024,))
def strip_twos(n):
    count = 0
    while n > 1 and n % 2 == 0:
        n //= 2
        count += 1
    return n, count


@cases((1,), (6,), (27,), (97,))
def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@cases((10,), (9,), (0,), (-4,))
def range_with_step(n):
    seen = []
    for i in range(n, 0, -2):
        seen.append(i)
    return seen


@cases(([1, 2, 3],), ([],), ([1, "a"],))
def double_in_place(xs):
    for i in range(len(xs)):
        xs[i] *= 2
    return None


@cases(([1, 2, 3], [4, 5, 6]), ([1], [2, 3]), ([], [1]))
def dot(a, b):
    s = 0
    for x, y in zip(a, b):
        s += x * y
    return s


@cases((5,), (0,))
def while_true_with_return(n):
    i = 0
    while True:
        if i * i >= n:
            return i
        i += 1


@cases(({3, 1, 2},), (set(),), (frozenset({5, 2}),))
def sorted_set(s):
    out = []
    for x in sorted(s):
        out.append(x)
    return out


@cases(([3, 1, -1, 5],), ([1, 2],), ([],))
def rest_of_iterator(xs):
    it = iter(xs)
    for x in it:
        if x < 0:
            break
    return list(it)


@cases(([1, 2, 3],), ([],))
def pop_until_empty(xs):
    popped = []
    while xs:
        popped.append(xs.pop())
    return popped


@cases(([1, -2, 3],), ([],), ([-1],))
def iterate_growing_list(xs):
    # Appending to the list being iterated: the loop sees the new items.
    for x in xs:
        if x > 0:
            xs.append(-x)
    return xs


@cases(({"a": 1},), ({},))
def mutate_dict_while_iterating(d):
    for k in d:
        d[k + k] = 0
    return d


@cases((3,), (2.5,), ("3",))
def range_of_non_int(n):
    out = []
    for i in range(n):
        out.append(i)
    return out


@cases((5,), (None,))
def iterate_non_iterable(x):
    total = 0
    for item in x:
        total += item
    return total


@cases((3, 4), (0, 2), (2, 0))
def matrix(rows, cols):
    m = []
    for r in range(rows):
        row = []
        for c in range(cols):
            row.append(r * cols + c)
        m.append(row)
    return m


@cases(("abc",), ("",))
def reversed_enumerate(s):
    out = []
    for i, ch in reversed(list(enumerate(s))):
        out.append(f"{i}{ch}")
    return "".join(out)


@cases(([5, 3, 8, 1],), ([],), ([2, 2],))
def bubble_sort(xs):
    xs = list(xs)
    n = len(xs)
    swapped = True
    while swapped:
        swapped = False
        for i in range(n - 1):
            if xs[i] > xs[i + 1]:
                xs[i], xs[i + 1] = xs[i + 1], xs[i]
                swapped = True
    return xs


@cases((10,), (1,), (0,))
def fib_iterative(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


@cases(([1, 2, 3],), ([],))
def subscript_target(xs):
    box = [None]
    seen = []
    for box[0] in xs:
        seen.append(box[0] * 10)
    return box, seen


class Holder:
    def __init__(self):
        self.current = None

    def __eq__(self, other):
        return type(other) is Holder and other.current == self.current


@cases(([1, 2],), ([],))
def attribute_target(xs):
    h = Holder()
    total = 0
    for h.current in xs:
        total += h.current
    return h.current, total
