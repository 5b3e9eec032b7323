"""Lowerings: consumers of the NumPy engine's typed graph IR besides its code generator.

``codegen`` turns a graph into straight-line NumPy; a lowering turns the same graph
into another framework's program: ``xla`` (``autograph.function(jit_compile=True)``)
builds one JAX function and compiles it with ``jax.jit``. Every lowering keeps the
calling convention of ``codegen.compile_graph`` — a callable of the canonical
arguments that returns the graph's output structure as NumPy values — so the
engine's boundary (argument write-back, ``None`` and strings rebuilt, Variables) wraps
it unchanged. What a lowering shares with the next ones (ONNX export, a Numba path)
lives in ``common``: reading array leaves out of the arguments, walking the ops, and
the one refusal message for an op the target cannot run.
"""
