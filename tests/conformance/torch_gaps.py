"""Conformance cases the torch backend cannot pass, each with why: the conftest marks
them ``xfail(strict=True)`` on torch only (keys: ``file::test`` for every case of a test,
``file::test[torch-...]`` for one; PyTorch's other modes look up their cases under the
traced mode's id), so a case that starts passing fails the suite until it is taken off
this list. ``TORCH_MODE_XFAIL`` adds what fails in one of the other modes only."""

_WEAK = ("PyTorch has no weak types: a Python float carried through a staged construct is a "
         "float32 tensor, which does not take a float64 array's dtype as a Python float does "
         "(backends/torch/tensors.py MARK_PYTHON_NUMBERS: the mark is written, switched off)")
_DTYPE_JOIN = ("a Python number joined with a tensor of another width (a Python int with an "
               "int32 tensor, a Python float with a float64 one) is carried as PyTorch's dtype of "
               "the number (int64, float32) and refused as a different type: the weak-type join "
               "(backends/torch/tensors.py MARK_PYTHON_NUMBERS) is switched off")
_ARRAY_OP_NUMBER = ("np.zeros(3, np.int32) + i with i a range loop's counter: eagerly a Python "
                    "int (NumPy keeps int32), traced a 0-d int64 tensor that could as well stand "
                    "for a NumPy int64 scalar (int64): refused (numpy_operands) while Python "
                    "numbers are not marked (MARK_PYTHON_NUMBERS)")
_RETURNED_LIST = ("a list a staged loop collected, of a run-time length, returned as it is: "
                  "make_fx (the traced mode) and dynamo (torch.compile) take no output of a "
                  "type of ours; torch.export returns it as a list (tests/torch). Return "
                  "np.stack(lst) or torch.stack(lst)")
_TORCH_SIZE = ("np.shape of a tensor is its torch.Size, which a traced graph returns as a plain "
               "tuple (make_fx flattens its outputs)")

_MASK_COUNT = ("a masked write whose count does not match (y[x > 0] = x[x > 1]): PyTorch's "
               "RuntimeError (shape mismatch) where NumPy raises ValueError ('cannot assign 2 input "
               "values to the 3 output values where the mask is true')")
_NUMPY_READS_VALUES = ("NumPy meets a traced tensor outside a NumPy call autograph routes (a NumPy "
                       "operator or scalar type, a list or array indexed by a tensor, a NumPy "
                       "array's item set to a tensor): NumPy asks for the tensor's values, which "
                       "a PyTorch trace does not have: the StagingError naming the line "
                       "(TorchBackend.explain_error) where the test expects eager's value")
_NUMPY_VALUE_WRITTEN = ("a NumPy array written into a tensor under a staged mask (out[~m] = "
                        "np.array([5.0, 6.0])): PyTorch's TypeError (can't assign a numpy.ndarray "
                        "to a torch.FloatTensor); the torch backend does not make it a tensor first")
_OUT = ("np.add(z, y, out=z): the torch backend refuses out= (a StagingError naming the call), "
        "although the conversion rebinds the name (z = np.add(z, y, out=z)) and NumPy's result "
        "reaches it")
_TENSOR_RESULTS = ("NumPy code calling an ndarray method on what a NumPy call returned "
                   "(np.clip(x[m], 0.5, 1.5).astype(np.float32)): a NumPy call on a traced tensor "
                   "returns a torch.Tensor, which has no .astype (an AttributeError while tracing)")
_VIEW_WRITES = ("a write through a view of a tensor (inner = dk[1:-1]; inner[0] = 5.0), even "
                "outside any staged construct: the torch backend refuses it (an item write gives "
                "the name a new tensor) where NumPy and eager PyTorch write the base too")
_ZERO_D_INDEX = ("a tensor indexed by a 0-d tensor outside a loop body (tokens[t][beam] after the "
                 "loop; ab[idx], a Python list with a staged index, is its items stacked and "
                 "indexed so): make_fx cannot guard on the data-dependent index "
                 "(GuardOnDataDependentSymNode) where eager PyTorch indexes; the torch backend "
                 "reads rows with index_select in loop bodies only")

TORCH_XFAIL = {
    'test_array_state.py::test_writes_nothing_else_reads_are_staged[torch]':
        "copy_written calls .copy() on a tensor (NumPy's method, which eager PyTorch lacks too: the NumPy-oracle test's own); rows_updated_in_a_loop passes",
    'test_array_state.py::test_writes_through_views[torch]':
        _VIEW_WRITES,
    'test_array_writes.py::test_in_place_operator_on_an_array_made_in_the_function[torch]':
        _NUMPY_READS_VALUES,
    'test_array_writes.py::test_item_writes_after_an_in_place_add_leave_the_sum_alone[torch]':
        _NUMPY_READS_VALUES,
    'test_array_writes.py::test_out_argument_in_a_staged_loop[torch]':
        _OUT,
    'test_array_writes.py::test_out_argument_updates_the_array[torch]':
        _OUT,
    'test_closures.py::test_closure_of_a_closure_assigns_in_a_staged_loop':
        _WEAK,
    'test_fall_off_end.py::test_the_path_after_the_loop_is_named[torch]':
        _DTYPE_JOIN,
    'test_guarded_iterations.py::test_nested_dict_item_after_a_staged_break':
        _DTYPE_JOIN,
    'test_loop_accumulation.py::test_a_list_of_run_time_length_is_returned[torch]':
        _RETURNED_LIST,
    'test_loop_accumulation.py::test_beam_search_bookkeeping[torch]':
        _ZERO_D_INDEX,
    'test_loop_accumulation.py::test_van_der_corput_verbatim[torch]':
        _WEAK,
    'test_mask_writes.py::test_a_count_that_does_not_match[torch]':
        _MASK_COUNT,
    'test_mask_writes.py::test_a_mask_over_rows[torch]':
        _NUMPY_VALUE_WRITTEN,
    'test_mask_writes.py::test_ufuncs_clip_and_astype_on_a_selection[torch]':
        _TENSOR_RESULTS,
    'test_numeric_methods.py::test_divmod_in_a_staged_loop[torch]':
        _WEAK,
    'test_numpy_calls.py::test_numpy_predicates_keep_numpy_answers[torch]':
        _TORCH_SIZE,
    'test_staged_semantics.py::test_dead_branch_locals_are_not_carried[torch]':
        _ARRAY_OP_NUMBER,
    'test_staged_semantics.py::test_jumps_in_try_with_closure_in_staged_loop[torch]':
        "refused where eager PyTorch computes: 'a = b' in a staged loop's body, then 'a -= c' after it: eagerly a and b are one tensor, which the in-place operator changes for both; the loop's output is a copy, so the operator is the StagingError of an in-place operator on a copy another name reads later (holders.refuse_copied)",
    'test_try_handler_state.py::test_variable_a_handler_reads[torch]':
        _DTYPE_JOIN,
}

TORCH_MODE_XFAIL: dict = {}  # mode -> {case prefix: reason}: none left
