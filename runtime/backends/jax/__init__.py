"""The JAX backend: ``backend`` (cond/while/for under ``jax.jit``), ``numeric`` (the
builtins and ``math`` on tracers), ``numpy_twins`` (NumPy calls run as ``jax.numpy``).
Imported lazily, the first time a JAX value is seen."""
