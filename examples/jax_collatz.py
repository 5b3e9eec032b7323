"""Python control flow inside ``jax.jit``: the Collatz sequence, a data-dependent loop.

Without autograph, ``while n != 1`` on a traced ``n`` raises JAX's
``TracerBoolConversionError``; converted, it becomes one ``lax.while_loop``, and
``jax.vmap`` batches it. Run: ``python examples/jax_collatz.py``.
"""

import jax
import jax.numpy as jnp

import autograph as ag


@jax.jit
@ag.convert
def collatz(n):
    steps = 0
    while n != 1:
        n = jnp.where(n % 2 == 0, n // 2, 3 * n + 1)
        steps += 1
    return steps


@ag.convert
def longest_below(limit):
    best, best_n = 0, 1
    for n in range(1, limit):
        steps = collatz(n)
        if steps > best:
            best, best_n = steps, n
    return best_n, best


if __name__ == "__main__":
    print("collatz(27) =", collatz(27))
    print("batched:", jax.vmap(collatz)(jnp.arange(1, 11)))
    print(jax.make_jaxpr(collatz)(27))
    # ``limit`` is traced: the for loop is a lax.while_loop with a lax.cond inside.
    n, steps = jax.jit(longest_below)(10_000)
    print(f"longest below 10000: n={n} takes {steps} steps")
