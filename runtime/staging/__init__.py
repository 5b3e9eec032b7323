"""The framework-neutral staging core: state flattening and abstract values
(``state``), staged ``if`` (``conditionals``), loops (``loops``), return (``returns``),
raise (``raises``), try (``catching``), in-place state (``inplace``), the ``Backend``
protocol and registry (``backend``), and every ``StagingError`` text (``errors``).
It imports nothing of the operators and nothing of any backend."""

import os as _os

# The directory of the runtime (operators, staging, backends): frames there are ours,
# not the user's, when messages look for the user's line.
RUNTIME_DIR = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
