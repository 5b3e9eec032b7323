"""Conformance cases the TensorFlow backend cannot pass yet, each with why: the
conftest marks them ``xfail(strict=True)`` on TensorFlow only, so a case that starts
passing fails the suite until it is taken off this list."""

KNOWN_GAPS = {
    "test_failed_trace_state.py::test_a_failed_trace_puts_back_global_containers[tensorflow]":
        "a failed trace: the TF backend does not put back the items of global and closure lists and dicts the trace changed (the JAX backend saves them when a trace begins and restores them when it fails: backends/jax/tracing.py)",
    "test_failed_trace_state.py::test_a_failed_trace_puts_back_closure_containers[tensorflow]":
        "a failed trace: the TF backend does not put back the items of global and closure lists and dicts the trace changed (the JAX backend saves them when a trace begins and restores them when it fails: backends/jax/tracing.py)",
    "test_array_writes.py::test_helper_writes_into_its_callers_array[tensorflow]":
        "item writes: eager tf.Tensor has no item assignment, and the TF backend's setitem covers an integer index and a boolean mask only (no slices, out= arguments, writes a caller sees)",
    "test_array_writes.py::test_list_items_written_with_a_staged_index[tensorflow]":
        "item writes: eager tf.Tensor has no item assignment, and the TF backend's setitem covers an integer index and a boolean mask only (no slices, out= arguments, writes a caller sees)",
    "test_array_writes.py::test_out_argument_in_a_staged_loop[tensorflow]":
        "item writes: eager tf.Tensor has no item assignment, and the TF backend's setitem covers an integer index and a boolean mask only (no slices, out= arguments, writes a caller sees)",
    "test_array_writes.py::test_out_argument_updates_the_array[tensorflow]":
        "item writes: eager tf.Tensor has no item assignment, and the TF backend's setitem covers an integer index and a boolean mask only (no slices, out= arguments, writes a caller sees)",
    "test_array_writes.py::test_slice_writes[tensorflow]":
        "item writes: eager tf.Tensor has no item assignment, and the TF backend's setitem covers an integer index and a boolean mask only (no slices, out= arguments, writes a caller sees)",
    "test_array_writes.py::test_writes_into_arrays_made_in_the_function[tensorflow]":
        "item writes: eager tf.Tensor has no item assignment, and the TF backend's setitem covers an integer index and a boolean mask only (no slices, out= arguments, writes a caller sees)",
    "test_constructs.py::test_for_loops[tensorflow-enumerate_zip-args14]":
        "a Python int loop counter meets a float tensor (x * i): TensorFlow has no weak types and int32 * float32 is a TypeError, as under TensorFlow's own AutoGraph",
    "test_constructs.py::test_while_loops[tensorflow-handed_over-arg4]":
        "a Python int loop counter meets a float tensor (x * i): TensorFlow has no weak types and int32 * float32 is a TypeError, as under TensorFlow's own AutoGraph",
    "test_constructs.py::test_while_loops[tensorflow-handed_over-arg5]":
        "a Python int loop counter meets a float tensor (x * i): TensorFlow has no weak types and int32 * float32 is a TypeError, as under TensorFlow's own AutoGraph",
    "test_fall_off_end.py::test_a_loop_only_a_return_leaves[tensorflow]":
        "None on some staged paths: the TF backend has no run-time None flag (Backend.maybe_no_return) yet",
    "test_fall_off_end.py::test_a_tuple_holding_none_or_nothing[tensorflow]":
        "None on some staged paths: the TF backend has no run-time None flag (Backend.maybe_no_return) yet",
    "test_fall_off_end.py::test_a_tuple_or_nothing[tensorflow]":
        "None on some staged paths: the TF backend has no run-time None flag (Backend.maybe_no_return) yet",
    "test_fall_off_end.py::test_the_path_after_the_loop_is_named[tensorflow]":
        "None on some staged paths: the TF backend has no run-time None flag (Backend.maybe_no_return) yet",
    "test_fall_off_end.py::test_the_result_in_a_converted_caller[tensorflow]":
        "None on some staged paths: the TF backend has no run-time None flag (Backend.maybe_no_return) yet",
    "test_fall_off_end.py::test_through_a_staged_loop[tensorflow-countdown-while x > 0:]":
        "None on some staged paths: the TF backend has no run-time None flag (Backend.maybe_no_return) yet",
    "test_fall_off_end.py::test_through_a_staged_loop[tensorflow-first_above_or_nothing-for x in xs:]":
        "None on some staged paths: the TF backend has no run-time None flag (Backend.maybe_no_return) yet",
    "test_fall_off_end.py::test_under_a_staged_if[tensorflow]":
        "None on some staged paths: the TF backend has no run-time None flag (Backend.maybe_no_return) yet",
    "test_generator_reductions.py::test_any_all_sum[tensorflow]":
        "next()/any()/all()/sum() of generator expressions over graph tensors: not yet on the TF backend",
    "test_generator_reductions.py::test_next_first_match[tensorflow]":
        "next()/any()/all()/sum() of generator expressions over graph tensors: not yet on the TF backend",
    "test_generator_reductions.py::test_next_inside_a_try_that_handles_stop_iteration_is_refused[tensorflow]":
        "next()/any()/all()/sum() of generator expressions over graph tensors: not yet on the TF backend",
    "test_generator_reductions.py::test_next_without_match_raises_stop_iteration[tensorflow]":
        "next()/any()/all()/sum() of generator expressions over graph tensors: not yet on the TF backend",
    "test_generator_reductions.py::test_tuple_targets[tensorflow]":
        "next()/any()/all()/sum() of generator expressions over graph tensors: not yet on the TF backend",
    "test_inplace_state.py::test_branch_and_while_state[tensorflow-captured_in_branch--3.0]":
        "a Python int carried in place meets a float tensor: TensorFlow has no weak types",
    "test_inplace_state.py::test_branch_and_while_state[tensorflow-captured_in_branch-3.0]":
        "a Python int carried in place meets a float tensor: TensorFlow has no weak types",
    "test_inplace_state.py::test_branch_and_while_state[tensorflow-captured_in_while--3.0]":
        "a Python int carried in place meets a float tensor: TensorFlow has no weak types",
    "test_inplace_state.py::test_branch_and_while_state[tensorflow-captured_in_while-3.0]":
        "a Python int carried in place meets a float tensor: TensorFlow has no weak types",
    "test_loop_maybe_none.py::test_a_value_before_the_loop_that_may_become_none[tensorflow]":
        "None before or after a staged loop: the TF backend has no run-time flag (Backend.pair_values) yet",
    "test_loop_maybe_none.py::test_first_assigned_in_the_loop[tensorflow]":
        "None before or after a staged loop: the TF backend has no run-time flag (Backend.pair_values) yet",
    "test_loop_maybe_none.py::test_none_before_the_loop[tensorflow]":
        "None before or after a staged loop: the TF backend has no run-time flag (Backend.pair_values) yet",
    "test_maybe_none.py::test_arithmetic_on_a_maybe_none_value_raises_when_it_is_none[tensorflow]":
        "None or a Python value on one side of a staged if: the TF backend has no run-time flag (Backend.pair_values) yet",
    "test_maybe_none.py::test_is_none_is_a_staged_test[tensorflow]":
        "None or a Python value on one side of a staged if: the TF backend has no run-time flag (Backend.pair_values) yet",
    "test_maybe_none.py::test_none_comes_back_exactly_when_eager_returns_it[tensorflow]":
        "None or a Python value on one side of a staged if: the TF backend has no run-time flag (Backend.pair_values) yet",
    "test_maybe_none.py::test_staged_index_into_a_list[tensorflow]":
        "None or a Python value on one side of a staged if: the TF backend has no run-time flag (Backend.pair_values) yet",
    "test_maybe_none.py::test_staged_index_into_a_list_of_mixed_items[tensorflow]":
        "None or a Python value on one side of a staged if: the TF backend has no run-time flag (Backend.pair_values) yet",
    "test_maybe_none.py::test_staged_index_into_a_list_of_python_numbers[tensorflow--1]":
        "None or a Python value on one side of a staged if: the TF backend has no run-time flag (Backend.pair_values) yet",
    "test_maybe_none.py::test_staged_index_into_a_list_of_python_numbers[tensorflow-1]":
        "None or a Python value on one side of a staged if: the TF backend has no run-time flag (Backend.pair_values) yet",
    "test_numeric_builtins.py::test_asarray_copy_is_a_copy[tensorflow]":
        "numeric builtins on graph tensors follow TensorFlow's dtypes (float32 for Python floats), not NumPy's",
    "test_numeric_builtins.py::test_asarray_of_a_list_of_staged_values_is_a_stack[tensorflow]":
        "numeric builtins on graph tensors follow TensorFlow's dtypes (float32 for Python floats), not NumPy's",
    "test_numeric_builtins.py::test_int_float_bool_are_casts[tensorflow]":
        "numeric builtins on graph tensors follow TensorFlow's dtypes (float32 for Python floats), not NumPy's",
    "test_numeric_builtins.py::test_math_functions[tensorflow]":
        "numeric builtins on graph tensors follow TensorFlow's dtypes (float32 for Python floats), not NumPy's",
    "test_numeric_builtins.py::test_math_in_staged_branches[tensorflow]":
        "numeric builtins on graph tensors follow TensorFlow's dtypes (float32 for Python floats), not NumPy's",
    "test_numeric_builtins.py::test_round[tensorflow]":
        "numeric builtins on graph tensors follow TensorFlow's dtypes (float32 for Python floats), not NumPy's",
    "test_numeric_context.py::test_bytes_status_chosen_by_a_staged_condition[tensorflow]":
        "a string chosen by a staged condition: the TF backend carries no run-time choice among Python strings",
    "test_numeric_context.py::test_status_chosen_in_a_staged_loop[tensorflow]":
        "a string chosen by a staged condition: the TF backend carries no run-time choice among Python strings",
    "test_numeric_context.py::test_string_chosen_by_a_staged_condition_is_returned[tensorflow]":
        "a string chosen by a staged condition: the TF backend carries no run-time choice among Python strings",
    "test_numeric_methods.py::test_array_methods_on_staged_arrays[tensorflow]":
        "the case calls NumPy array methods, divmod or math.modf, which tf.Tensor (eager or graph) lacks",
    "test_numeric_methods.py::test_divmod_in_a_staged_loop[tensorflow]":
        "the case calls NumPy array methods, divmod or math.modf, which tf.Tensor (eager or graph) lacks",
    "test_numeric_methods.py::test_divmod_values_and_dtypes[tensorflow]":
        "the case calls NumPy array methods, divmod or math.modf, which tf.Tensor (eager or graph) lacks",
    "test_numeric_methods.py::test_math_modf[tensorflow]":
        "the case calls NumPy array methods, divmod or math.modf, which tf.Tensor (eager or graph) lacks",
    "test_numeric_methods.py::test_numpy_array_method_with_a_staged_argument[tensorflow]":
        "the case calls NumPy array methods, divmod or math.modf, which tf.Tensor (eager or graph) lacks",
    "test_numpy_calls.py::test_helpers_full_of_numpy_in_a_staged_loop[tensorflow]":
        "NumPy calls on graph tensors run as tf.experimental.numpy, whose coverage and dtypes differ",
    "test_numpy_calls.py::test_keywords_and_submodules[tensorflow]":
        "NumPy calls on graph tensors run as tf.experimental.numpy, whose coverage and dtypes differ",
    "test_numpy_calls.py::test_numpy_predicates_keep_numpy_answers[tensorflow]":
        "NumPy calls on graph tensors run as tf.experimental.numpy, whose coverage and dtypes differ",
    "test_numpy_calls.py::test_ufunc_methods[tensorflow]":
        "NumPy calls on graph tensors run as tf.experimental.numpy, whose coverage and dtypes differ",
    "test_printing.py::test_prints_come_in_program_order[tensorflow]":
        "ag.print of an eager tensor prints tf.Tensor(...) (Python's print) while tf.print shows the value",
    "test_raise_messages.py::test_f_string_with_format_specs_and_repr[tensorflow]":
        "a staged raise's message shows graph tensors symbolically (formatted at trace time), not their run-time values",
    "test_raise_messages.py::test_percent_conversions_of_numbers[tensorflow]":
        "a staged raise's message shows graph tensors symbolically (formatted at trace time), not their run-time values",
    "test_raise_messages.py::test_percent_formatting_and_str[tensorflow]":
        "a staged raise's message shows graph tensors symbolically (formatted at trace time), not their run-time values",
    "test_raise_messages.py::test_python_int_counter_shown_as_python_shows_it[tensorflow]":
        "a staged raise's message shows graph tensors symbolically (formatted at trace time), not their run-time values",
    "test_raise_messages.py::test_str_format_method[tensorflow]":
        "a staged raise's message shows graph tensors symbolically (formatted at trace time), not their run-time values",
    "test_raise_messages.py::test_value_as_the_exception_argument[tensorflow]":
        "a staged raise's message shows graph tensors symbolically (formatted at trace time), not their run-time values",
    "test_staged_raise.py::test_both_branches_raise[tensorflow]":
        "a variable assigned in one branch only / both branches raising: the TF backend turns the raise into an assertion but has no run-time flag for the unassigned variable",
    "test_staged_raise.py::test_unassigned_variable_raises_only_when_read[tensorflow]":
        "a variable assigned in one branch only / both branches raising: the TF backend turns the raise into an assertion but has no run-time flag for the unassigned variable",
    "test_staged_raise.py::test_variable_assigned_in_one_branch_only[tensorflow]":
        "a variable assigned in one branch only / both branches raising: the TF backend turns the raise into an assertion but has no run-time flag for the unassigned variable",
    "test_staged_semantics.py::test_chained_comparisons_of_staged_values[tensorflow]":
        "mixed int/float and Python-int arithmetic with graph tensors: TensorFlow has no weak types",
    "test_staged_semantics.py::test_range_enumerate_zip_reached_through_a_variable[tensorflow]":
        "mixed int/float and Python-int arithmetic with graph tensors: TensorFlow has no weak types",
    "test_staging_errors.py::test_a_dict_leaf_that_changes_is_named[tensorflow]":
        "TensorFlow's op errors (dtype mismatch) come before the staging core's pinned message",
    "test_staging_errors.py::test_a_loop_variable_that_changes_dtype_names_the_leaf[tensorflow]":
        "TensorFlow's op errors (dtype mismatch) come before the staging core's pinned message",
    "test_staging_errors.py::test_branches_that_differ[tensorflow]":
        "TensorFlow's op errors (dtype mismatch) come before the staging core's pinned message",
    "test_try_arithmetic.py::test_handler_runs_when_the_graph_raises[tensorflow]":
        "try/except around graph arithmetic: TensorFlow ops do not raise FloatingPointError",
    "test_try_arithmetic.py::test_named_handler_is_refused[tensorflow]":
        "try/except around graph arithmetic: TensorFlow ops do not raise FloatingPointError",
    "test_staging_errors.py::test_a_list_grown_in_a_staged_loop_is_named[tensorflow]":
        "list accumulation landed beside the TF backend: TensorFlow does not collect lists yet (its own ValueError, not the StagingError naming the list)",
    "test_staging_errors.py::test_a_loop_variable_that_changes_shape_or_structure[tensorflow]":
        "shape_invariants is not wired to TensorFlow yet: a shape change is TensorFlow's own ValueError",
}
