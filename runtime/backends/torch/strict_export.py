"""Strict ``torch.export`` of a converted function: a repair of PyTorch 2.13's own path.

A converted function is a non-strict region for dynamo (``backend.entry_point``). Dynamo
records a call of such a region as ``flat_apply(callable, input_spec, *tensors)``, the
callable and the input spec (a pytree ``TreeSpec``) stored as attributes of its graph
(``get_attr`` nodes that carry an ``example_value`` but no ``val``). Strict export then
(``torch/export/_trace.py``, ``_strict_export``) gives every ``get_attr`` node without a
``val`` one by making a fake tensor of the attribute unless its type is an opaque type:
the callable is one, the ``TreeSpec`` is not, and ``FakeTensorMode.from_tensor`` fails
on it ("cannot create weak reference to 'TreeSpec' object"). So in 2.13 strict export
fails for every ``torch._dynamo.nonstrict_trace`` function, ours or not.

``repair`` wraps the step of strict export that runs dynamo
(``torch.export._trace._export_to_torch_ir``) so that such a spec node gets its
``val`` (the spec itself, what dynamo recorded as its example value) before that
loop reads it; nothing else changes, and the rest of strict export (AOTAutograd
tracing the region in plain Python, where our staging runs) needs no help.
"""

from __future__ import annotations

from .patches import wrap_once


def repair() -> None:
    """Install the wrapper once (a no-op where PyTorch's export lacks that step)."""
    try:
        from torch.export import _trace
        from torch.utils._pytree import TreeSpec
    except ImportError:
        return

    def wrap(capture):
        def export_to_torch_ir(*args, **kwargs):
            graph_module = capture(*args, **kwargs)
            for node in graph_module.graph.nodes:
                if node.op == "get_attr" and "val" not in node.meta:
                    attr = getattr(graph_module, node.target, None)
                    if isinstance(attr, TreeSpec):
                        node.meta["val"] = attr
            return graph_module

        return export_to_torch_ir

    wrap_once(_trace, "_export_to_torch_ir", wrap)
