"""The operators: the functional forms converted code calls (``if_stmt``, ``while_stmt``,
``for_stmt``, ``and_``/``or_``, ``converted``, the builtins, NumPy-call routing,
generators, choices, patterns, formatting). Each runs plain Python when its condition or
iterable is a Python value, and hands a staged one to the staging core."""
