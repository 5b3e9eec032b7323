"""What converted code calls at run time; converted code refers to this module as ``ag__``.

Nothing here knows about ASTs. Backends (the graph engine, JAX, ...) plug in
through ``backends``; see its docstring for the interface.
"""

from .staging.backend import Backend, backend_of, register, register_lazy
from .operators.builtins import (augassign, augitem, augitem_path, enumerate_, len_, print_, range_,
                                 setitem, setitem_attr, setitem_into, setitem_path, zip_)
from .operators.calls import converted, do_not_convert
from .operators.choices import getitem, is_none, is_not_none
from .staging.errors import StagingError
from .staging.kept import keep_state
from .staging.raises import handled_by, staged_handler
from .operators.control_flow import (
    Loop, assert_stmt, branch, for_loop, for_stmt, if_stmt, staged, while_from, while_loop,
    while_stmt,
)
from .operators.expressions import (
    and_, and_cond, choose, compare_sequences, comprehension_test, if_exp, not_, or_,
    or_cond,
)
from .operators import calls
from .operators.formatting import format_value, percent_format
from .operators.generators import generator_call
from .staging.loop_options import loop_options
from .staging.mode import mode, staging
from .operators.numeric_builtins import abs_, bool_, divmod_, float_, int_, max_, min_, round_
from .operators.patterns import class_pattern_subject
from .staging.returns import returned
from .staging.catching import catching
from .staging.undefined import (
    NO_RETURN, Undefined, ld, ld_attribute, ldattr, ldu, retval, stattr,
)

__all__ = [
    "Backend", "backend_of", "register", "register_lazy",
    "augassign", "augitem", "augitem_path", "enumerate_", "len_", "print_", "range_", "setitem",
    "setitem_attr", "setitem_into", "setitem_path", "zip_",
    "converted", "do_not_convert",
    "getitem", "is_none", "is_not_none",
    "StagingError", "keep_state", "handled_by", "staged_handler",
    "Loop", "assert_stmt", "branch", "for_loop", "for_stmt", "if_stmt", "staged", "while_from", "while_loop",
    "while_stmt",
    "and_", "and_cond", "choose", "compare_sequences", "comprehension_test", "if_exp", "not_",
    "or_", "or_cond",
    "loop_options", "mode", "staging", "catching", "generator_call", "percent_format",
    "format_value",
    "abs_", "bool_", "divmod_", "float_", "int_", "max_", "min_", "round_", "returned",
    "class_pattern_subject",
    "NO_RETURN", "Undefined", "ld", "ld_attribute", "ldattr", "ldu", "retval", "stattr",
]


def _jax_is_tracing_test():
    from .backends.jax import backend as jax_backend, tracing

    return tracing.install(jax_backend.is_tracing)


register_lazy("jax", "autograph.runtime.backends.jax.backend", _jax_is_tracing_test)


def _torch_is_tracing_test():
    from .backends.torch import backend as torch_backend, tracing

    return tracing.install(torch_backend.is_tracing)


register_lazy("torch", "autograph.runtime.backends.torch.backend", _torch_is_tracing_test)


def _tf_is_tracing_test():
    from .backends.tf import backend as tf_backend, tracing

    return tracing.install(tf_backend.is_tracing)


register_lazy("tensorflow", "autograph.runtime.backends.tf.backend", _tf_is_tracing_test)
