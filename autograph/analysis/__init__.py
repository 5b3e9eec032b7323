"""Static analyses over one function scope, on structured statements (no CFG needed).

- ``activity``: which names a piece of code reads and assigns (locals only, nested
  scopes contribute only the names they read from outside);
- ``liveness``: backward; which variables are read later, annotated per construct;
- ``definedness``: forward; which variables are certainly assigned at each point.
Results live in side tables keyed by node (``Annotations``), never on the nodes.
"""
