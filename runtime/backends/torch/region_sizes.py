"""Sizes a converted function makes that only it uses, under ``torch.compile``.

Dynamo runs a converted function (a non-strict region, ``backend.entry_point``) on
fake tensors through ``flat_apply``, then asks every unbacked size made meanwhile
(``x[x > 1]``'s length, a ``nonzero``, an ``.item()``) to be a size of one of the
region's outputs, so that its graph can bind it: a size that only the region's own
computation uses (``x[x > 1].sum()``) fails the compile with PyTorch 2.13's
``PendingUnbackedSymbolNotFound``. ``install`` wraps ``flat_apply``'s implementation:
after one of our regions runs, the sizes it made that none of its outputs carries are
its own, and dynamo no longer waits for them (those an output carries it still binds).

The region runs as under ``fullgraph=True`` whatever the compile asked: an operation whose
output's size depends on the values (``x[x > 1]``, a ``nonzero``) and an ``.item()`` make
an unbacked size or number, where without ``fullgraph=True`` PyTorch would refuse them
(dynamo breaks the graph there in code it reads): a region goes into the graph whole,
in dynamo's run of it and in AOTAutograd's trace.
"""

from __future__ import annotations

import dataclasses
import weakref

from . import region_state
from .patches import wrap_once

# the functions autograph marks as non-strict regions, held weakly (not by id: an id is
# reused once its function dies)
regions: weakref.WeakSet = weakref.WeakSet()
REGION = "_autograph_region"  # set on a callable standing for one of them (region_boundary)


def install() -> None:
    """Wrap ``flat_apply``'s implementation once (a no-op where PyTorch lacks it)."""
    import importlib

    try:  # the module (the package's attribute of that name is the operator)
        module = importlib.import_module("torch._higher_order_ops.flat_apply")
    except ImportError:
        return

    def wrap(impl):
        def wrapper(func, in_spec, flat_args, checked_output):
            fn = region_function(func)
            env = _shape_env(flat_args) if fn is not None else None
            if env is None:
                return impl(func, in_spec, flat_args, checked_output)
            pending = env.pending_fresh_unbacked_symbols
            before = len(pending)
            settings = env.settings  # as under fullgraph=True, whatever the compile asked
            env.settings = dataclasses.replace(settings, allow_scalar_outputs=True,
                                               allow_dynamic_output_shape_ops=True)
            call = _callable(func)

            def watched(*args, **kwargs):  # the arguments as the region gets them
                with region_state.unchanged(fn, args, kwargs):
                    return call(*args, **kwargs)

            try:
                out = impl(watched, in_spec, flat_args, checked_output)
            finally:
                env.settings = settings
            if len(pending) > before:
                from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols
                from torch.utils import _pytree

                carried = free_unbacked_symbols(_pytree.tree_leaves(out))
                pending[before:] = [s for s in pending[before:] if s in carried]
            return out

        return wrapper

    wrap_once(module, "impl", wrap)


def region_function(func):
    """The converted function PyTorch's callable ``func`` runs as one of our regions, or
    None (not ours)."""
    from torch.utils import _pytree

    if isinstance(func, _pytree.TreeSpec):
        try:
            func = _pytree._retrieve_constant(func)
        except Exception:  # noqa: BLE001 - not a constant holder: not ours
            return None
    func = getattr(func, "func", func)  # a _ConstantFunction holds it,
    func = getattr(func, "_fn", func)  # a _LeafCallable too, and dynamo's patched_fn
    candidates = [func, *map(_contents, getattr(func, "__closure__", None) or ())]
    for candidate in candidates:  # region_boundary's callable, over ``fn``, first
        if getattr(candidate, REGION, False):
            code = candidate.__code__
            free = dict(zip(code.co_freevars, map(_contents, candidate.__closure__ or ())))
            return free.get("fn", candidate)
    return next((c for c in candidates if is_region(c)), None)


def is_region(func) -> bool:
    """Is ``func`` one of the functions autograph marks as non-strict regions?"""
    try:
        return func in regions
    except TypeError:  # not hashable
        return False



def _callable(func):
    """What ``flat_apply`` calls for ``func`` (a constant held by a spec, or itself)."""
    from torch.utils import _pytree

    return _pytree._retrieve_constant(func) if isinstance(func, _pytree.TreeSpec) else func


def _contents(cell):
    try:
        return cell.cell_contents
    except ValueError:  # an empty cell
        return None


def _shape_env(flat_args):
    from torch._guards import detect_fake_mode

    mode = detect_fake_mode(tuple(flat_args))
    return None if mode is None else mode.shape_env
