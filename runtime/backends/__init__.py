"""One package per framework: ``numpy_graph`` (the embedded NumPy graph engine) and
``jax``. Each answers the staging core's ``Backend`` questions for its framework and
imports the staging core, never another backend."""
