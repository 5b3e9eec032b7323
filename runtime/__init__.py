"""What converted code calls at run time; converted code refers to this module as ``ag__``.

Nothing here knows about ASTs. Backends (the graph engine, JAX, ...) plug in
through ``backends``; see its docstring for the interface.
"""

from .backends import Backend, backend_of, register, register_lazy
from .builtins import augitem, enumerate_, len_, print_, range_, setitem, zip_
from .calls import converted, do_not_convert
from .choices import getitem, is_none, is_not_none
from .errors import StagingError
from .staged_raise import handled_by
from .control_flow import Loop, assert_stmt, branch, for_loop, for_stmt, if_stmt, staged, while_from, while_loop, while_stmt
from .expressions import and_, and_cond, choose, if_exp, not_, or_, or_cond
from . import calls
from .formatting import percent_format
from .generators import generator_call
from .mode import mode, staging
from .numeric_builtins import abs_, bool_, divmod_, float_, int_, max_, min_, round_
from .patterns import class_pattern_subject
from .staged_return import returned
from .staged_try import catching
from .undefined import NO_RETURN, Undefined, ld, ldattr, ldu, retval, stattr

__all__ = [
    "Backend", "backend_of", "register", "register_lazy",
    "augitem", "enumerate_", "len_", "print_", "range_", "setitem", "zip_",
    "converted", "do_not_convert",
    "getitem", "is_none", "is_not_none",
    "StagingError", "handled_by",
    "Loop", "assert_stmt", "branch", "for_loop", "for_stmt", "if_stmt", "staged", "while_from", "while_loop",
    "while_stmt",
    "and_", "and_cond", "choose", "if_exp", "not_", "or_", "or_cond",
    "mode", "staging", "catching", "generator_call", "percent_format",
    "abs_", "bool_", "divmod_", "float_", "int_", "max_", "min_", "round_", "returned",
    "class_pattern_subject",
    "NO_RETURN", "Undefined", "ld", "ldattr", "ldu", "retval", "stattr",
]


def _jax_is_tracing_test():
    from . import jax_backend

    return jax_backend.is_tracing


register_lazy("jax", "autograph.runtime.jax_backend", _jax_is_tracing_test)
