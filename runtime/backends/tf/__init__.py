"""The TensorFlow backend: ``backend`` (cond/while/for under ``tf.function``), ``loops``
(the iterables a staged ``for`` runs over: ranges, tensors, datasets), ``numeric`` (the
builtins and NumPy calls on graph tensors), ``tensors`` (what they share: avals, dtypes,
the is-tracing test), ``weak`` (a Python number the graph computes). Imported lazily, the first time a TensorFlow value is seen."""
