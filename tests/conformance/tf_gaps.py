"""Conformance cases the TensorFlow backend cannot pass yet, each with why: the
conftest marks them ``xfail(strict=True)`` on TensorFlow only, so a case that starts
passing fails the suite until it is taken off this list."""

_EAGER_METHODS = ("the case calls NumPy ndarray methods or divmod on the arrays (.reshape, .sum, "
                  ".astype, divmod), which an eager tf.Tensor lacks: the eager oracle itself fails")

_NUMPY_ARRAY_BECOMES_TENSOR = (
    "a NumPy array written under a staged construct becomes a graph tensor, which has no "
    "ndarray methods: the NumPy code after it (d.sum(), e = d[1:].copy() as the refusals "
    "advise) is an AttributeError while tracing")
_TF_WEAK = ("a Python float carried by a staged loop (out, scale = 0.0, 1.0) meets the int64 "
            "values of divmod: the weak float's conversion gives float64 where TensorFlow asks "
            "for int64 (a RuntimeError or TypeError while tracing), where NumPy gives float64")
_GRAPH_METHODS = ("the case calls NumPy ndarray methods (.sum, .astype) on a graph tensor, which "
                  "tf.Tensor lacks (an AttributeError while tracing, never a value)")

KNOWN_GAPS = {
    'test_array_state.py::test_a_concrete_array_is_read_by_value[tensorflow]':
        "a NumPy array operated with a graph tensor (x @ w with a NumPy w): NumPy asks for the graph tensor's values (TensorFlow's NotImplementedError while tracing)",
    'test_array_state.py::test_writes_nothing_else_reads_are_staged[tensorflow]':
        _NUMPY_ARRAY_BECOMES_TENSOR,
    'test_array_state.py::test_writes_under_a_staged_if[tensorflow-x0]':
        _NUMPY_ARRAY_BECOMES_TENSOR,
    'test_array_state.py::test_writes_under_a_staged_if[tensorflow-x1]':
        _NUMPY_ARRAY_BECOMES_TENSOR,
    'test_array_writes.py::test_out_argument_in_a_staged_loop[tensorflow]':
        'the eager oracle fails: b.copy() and r @ r (a vector) on eager tf.Tensors (no .copy; MatMul refuses vectors); staged, out= is a new tensor the statement assigns',
    'test_loop_accumulation.py::test_a_list_of_run_time_length_is_returned[tensorflow]':
        'a list a staged loop appended a run-time number of items to, returned from the tf.function: a StagingError (a tf.function returns tensors, not a list of run-time length; test_staging_errors pins it)',
    'test_loop_accumulation.py::test_van_der_corput_verbatim[tensorflow]':
        _TF_WEAK,
    'test_mask_writes.py::test_the_target_keeps_its_dtype[tensorflow]':
        "once a staged write made the NumPy array a tf.Tensor, its operators are TensorFlow's: an int32 tensor + 1.7 is TensorFlow's TypeError while tracing (NumPy computes float64)",
    'test_mask_writes.py::test_ufuncs_clip_and_astype_on_a_selection[tensorflow]':
        _GRAPH_METHODS,
    'test_mask_writes.py::test_what_needs_the_count[tensorflow]':
        _EAGER_METHODS,
    'test_numeric_builtins.py::test_round[tensorflow]':
        'round(x, 2) of a graph tensor: tf.experimental.numpy.round calls .astype, which a tf.Tensor has only under experimental_enable_numpy_behavior (an AttributeError while tracing)',
    'test_numeric_methods.py::test_divmod_in_a_staged_loop[tensorflow]':
        _TF_WEAK,
    'test_numeric_methods.py::test_numpy_array_method_with_a_staged_argument[tensorflow]':
        "a NumPy array's method given a graph tensor (TABLE.dot(w)): the TF backend runs no tf.experimental.numpy twin for ndarray methods (a StagingError naming ndarray.dot)",
    'test_numpy_calls.py::test_keywords_and_submodules[tensorflow]':
        "np.fft.fft(c).real: .real of a graph tensor, which tf.Tensor lacks (an AttributeError while tracing; np.linalg.norm and np.fft.fft themselves run as TensorFlow's)",
    'test_raise_messages.py::test_f_string_with_format_specs_and_repr[tensorflow]':
        "the eager oracle fails: str and repr of an eager tf.Tensor are TensorFlow's texts, not NumPy's (staged, the message shows the run-time values as NumPy does)",
    'test_raise_messages.py::test_percent_formatting_and_str[tensorflow]':
        "str() of an array in a staged raise's message: TensorFlow's string ops do not lay out an array as NumPy does (a StagingError naming it)",
    'test_raise_messages.py::test_str_format_method[tensorflow]':
        "the eager oracle fails: str and repr of an eager tf.Tensor are TensorFlow's texts, not NumPy's (staged, the message shows the run-time values as NumPy does)",
    'test_raise_messages.py::test_value_as_the_exception_argument[tensorflow]':
        "the eager oracle fails: str and repr of an eager tf.Tensor are TensorFlow's texts, not NumPy's (staged, the message shows the run-time values as NumPy does)",
}
