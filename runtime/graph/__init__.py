"""The built-in NumPy graph engine (``autograph.function``). Work in progress."""
