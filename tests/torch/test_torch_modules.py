"""PyTorch: what users write (issue 28). Modules and functions with Python control flow on
tensors, converted, under ``torch.compile(fullgraph=True)`` and ``torch.export`` (non-strict
and strict), compared with eager PyTorch on inputs that take every branch and trip count.
Compiled cases use ``backend="aot_eager"`` (inductor costs 25-85 s per function here);
one case runs inductor."""

from __future__ import annotations

import inspect
import types

import pytest
import torch

import autograph as ag


def compiled(fn, backend="aot_eager"):
    return torch.compile(fn, fullgraph=True, backend=backend)


class Gate(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        if x.mean() > 0:              # a torch.cond
            return self.lin(x)
        return x // 2


X_POS, X_NEG = torch.arange(4.0) + 1, -torch.arange(4.0) - 1


def test_convert_module_is_the_same_module_with_forward_converted():
    torch.manual_seed(0)
    m = Gate()
    state = {k: v.clone() for k, v in m.state_dict().items()}
    assert ag.convert(m) is m
    assert all(torch.equal(v, state[k]) for k, v in m.state_dict().items())
    assert m.eval() is m and not m.training
    assert "ag__.branch" in ag.to_code(Gate.forward)
    for x in (X_POS, X_NEG):  # eager: the original
        assert torch.equal(m(x), Gate.forward(m, x))


def test_gate_compiled_fullgraph_both_branches():
    torch.manual_seed(0)
    m = ag.convert(Gate())
    c = compiled(m)
    for x in (X_POS, X_NEG):
        torch.testing.assert_close(c(x), Gate.forward(m, x))


def test_hooks_of_a_converted_module_run_compiled():
    """A forward hook registered before or after ``ag.convert`` sees the converted
    forward's output, eagerly and compiled."""
    torch.manual_seed(0)
    m = Gate()
    seen = []
    m.register_forward_hook(lambda module, args, out: seen.append(out.sum().item()))
    ag.convert(m)
    m.register_forward_pre_hook(lambda module, args: (args[0] * 2,))
    c = compiled(m)
    for x in (X_POS, X_NEG):
        expected = Gate.forward(m, x * 2)
        torch.testing.assert_close(c(x), expected)
        torch.testing.assert_close(m(x), expected)
    assert len(seen) == 4 and seen[0] == pytest.approx(seen[1])


class Checked(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 100:
            x = x / 2
        assert x.min() > 0, "x must stay positive"
        return x + 1


@pytest.mark.parametrize("strict", [False, True], ids=["nonstrict", "strict"])
def test_a_staged_assert_is_checked_when_the_exported_program_runs(strict):
    """A staged assert is ``torch._assert_async``: the exported program checks it on each
    run (PyTorch's RuntimeError carrying the message; eagerly Python's AssertionError)."""
    m = ag.convert(Checked())
    program = torch.export.export(m, (X_POS,), strict=strict).module()
    torch.testing.assert_close(program(X_POS * 50), Checked.forward(m, X_POS * 50))
    with pytest.raises(AssertionError, match="x must stay positive"):
        m(X_NEG)
    with pytest.raises(RuntimeError, match="x must stay positive"):
        program(X_NEG)


@pytest.mark.parametrize("strict", [False, True], ids=["nonstrict", "strict"])
def test_gate_exported_holds_the_cond(strict, tmp_path):
    torch.manual_seed(0)
    m = ag.convert(Gate())
    ep = torch.export.export(m, (X_POS,), strict=strict)
    assert "torch.ops.higher_order.cond" in ep.graph_module.code
    path = tmp_path / "gate.pt2"
    torch.export.save(ep, path)
    loaded = torch.export.load(path)
    for x in (X_POS, X_NEG):  # the control flow is in the graph, not specialised to X_POS
        torch.testing.assert_close(ep.module()(x), Gate.forward(m, x))
        torch.testing.assert_close(loaded.module()(x), Gate.forward(m, x))


class RNNCell(torch.nn.Module):
    """An RNN that stops early once its state's norm passes a threshold."""

    def __init__(self):
        super().__init__()
        self.cell = torch.nn.RNNCell(3, 3)

    def forward(self, xs, limit):
        h = torch.zeros(3)
        steps = torch.zeros((), dtype=torch.int64)
        while steps < xs.shape[0] and h.norm() < limit:
            h = self.cell(xs[0], h)
            steps += 1
        return h, steps


def test_rnn_cell_early_exit_while():
    torch.manual_seed(0)
    m = RNNCell()
    expected = {lim: RNNCell.forward(m, torch.ones(6, 3), torch.tensor(lim)) for lim in (0.1, 100.0)}
    assert expected[0.1][1] == 1 and expected[100.0][1] == 6  # stops early / runs to the end
    c = compiled(ag.convert(m))
    ep = torch.export.export(m, (torch.ones(6, 3), torch.tensor(0.1)))
    assert "while_loop" in ep.graph_module.code
    for lim, (h, steps) in expected.items():
        for run in (c, ep.module()):
            got_h, got_steps = run(torch.ones(6, 3), torch.tensor(lim))
            torch.testing.assert_close(got_h, h)
            assert int(got_steps) == int(steps)


class Decoder(torch.nn.Module):
    """Greedy decoding with a tiny transformer layer and an end token."""

    def __init__(self, vocab=7, dim=8, eos=0):
        super().__init__()
        self.eos = eos
        self.embed = torch.nn.Embedding(vocab, dim)
        self.layer = torch.nn.TransformerEncoderLayer(dim, 2, 16, dropout=0.0, batch_first=True)
        self.out = torch.nn.Linear(dim, vocab)

    def forward(self, prompt, max_new: int = 6):
        tokens = torch.zeros(max_new, dtype=torch.int64)
        last = prompt[-1]
        n = torch.zeros((), dtype=torch.int64)
        for i in range(max_new):
            h = self.layer(self.embed(last).reshape(1, 1, -1))
            next_id = self.out(h[0, 0]).argmax()
            if next_id == self.eos:
                break
            tokens = tokens + torch.nn.functional.one_hot(torch.tensor(i), max_new) * next_id
            n = n + 1
            last = next_id
        return tokens, n


def test_greedy_decoding_stops_at_eos():
    torch.manual_seed(3)
    m = Decoder().eval()
    prompts = [torch.tensor([t]) for t in range(7)]
    eager = [Decoder.forward(m, p) for p in prompts]
    stops = {int(n) for _, n in eager}
    assert len(stops) > 1  # prompts that stop early and late
    c = compiled(ag.convert(m))
    ep = torch.export.export(m, (prompts[0],))
    for p, (tokens, n) in zip(prompts, eager):
        for run in (c, ep.module()):
            got_tokens, got_n = run(p)
            assert torch.equal(got_tokens, tokens) and int(got_n) == int(n)


class Dropper(torch.nn.Module):
    def forward(self, x):
        if self.training:  # a Python bool: stays Python
            x = x * 2
        if x.sum() > 0:
            x = x + 1
        return x


def test_training_branch_stays_python():
    m = ag.convert(Dropper())
    c = compiled(m)
    for training in (True, False):
        m.train(training)
        for x in (X_POS, X_NEG):
            torch.testing.assert_close(c(x), Dropper.forward(m, x))
    m.eval()
    ep = torch.export.export(m, (X_POS,))
    assert ep.graph_module.code.count("higher_order.cond") == 1  # only the tensor test
    assert "mul" not in ep.graph_module.code  # eval: the training branch is not in the graph


def test_gradients_through_cond_and_while_loop_equal_eager():
    def f(w, x):
        if (w * x).sum() > 0:
            y = w * x
        else:
            y = w - x
        k = 0
        while y.abs().sum() < 50:
            y = y * 2 + w
            k += 1
        return y.sum()

    c = compiled(ag.convert(f))
    for x in (X_POS, X_NEG):
        w1 = torch.full((4,), 0.5, requires_grad=True)
        w2 = torch.full((4,), 0.5, requires_grad=True)
        f(w1, x).backward()
        c(w2, x).backward()
        torch.testing.assert_close(w2.grad, w1.grad)


def test_gradients_through_loops_whose_carry_starts_constant_equal_eager():
    """A carry that starts as a constant (``h = zeros``) and comes to depend on a
    tensor that requires grad: PyTorch 2.13's while_loop backward alone would give
    ``w`` the gradient of the last iteration only."""
    def rnn(xs, w):
        h = torch.zeros(xs.shape[1])
        for x in xs:
            h = torch.tanh(h * w + x)
        return h.sum()

    def grow(x, w):
        y = torch.zeros(4)
        while y.abs().sum() < 50:
            y = y * w + x
        return y.sum()

    torch.manual_seed(0)
    for fn, first in ((rnn, torch.randn(5, 3)), (grow, X_POS)):
        c = compiled(ag.convert(fn))
        for w in (1.5, 2.0):
            got_w, want_w = (torch.tensor(w, requires_grad=True) for _ in range(2))
            got_x, want_x = (first.clone().requires_grad_() for _ in range(2))
            c(got_x, got_w).backward()
            fn(want_x, want_w).backward()
            torch.testing.assert_close(got_w.grad, want_w.grad)
            torch.testing.assert_close(got_x.grad, want_x.grad)


def test_explain_reports_one_graph_and_no_break():
    def f(x):
        total = torch.zeros(())
        for i in range(3):  # Python loop, Python conditions: unrolled
            if i % 2 == 0:
                total = total + x[i]
        if x.sum() > 0:      # a tensor condition: a cond
            total = total * 2
        return total

    explained = torch._dynamo.explain(ag.convert(f))(X_POS)
    assert (explained.graph_count, explained.graph_break_count) == (1, 0)
    for x in (X_POS, X_NEG):
        torch.testing.assert_close(compiled(ag.convert(f))(x), f(x))


def test_inductor_one_case():
    def f(x, n):
        i = 0
        while i < n:
            x = x * 2 if x.sum() < 100 else x - 1
            i += 1
        return x

    c = compiled(ag.convert(f), backend="inductor")
    for x in (X_POS, X_NEG):
        torch.testing.assert_close(c(x, torch.tensor(5)), f(x, torch.tensor(5)))


def test_print_of_a_tensor_while_tracing_is_refused():
    """The decision on ``ag.print`` (docs/backends.rst): refused while PyTorch traces,
    since 2.13's print operator prints nothing (or fails) inside cond/while_loop."""
    def f(x):
        ag.print("x is", x)
        return x + 1

    converted = ag.convert(f)

    class Program(torch.nn.Module):
        def forward(self, x):
            return converted(x)

    with pytest.raises(ag.StagingError) as info:
        torch.export.export(Program(), (X_POS,))
    line = f.__code__.co_firstlineno + 1
    assert str(info.value) == (
        f"autograph.print at {__file__}:{line} (`ag.print(\"x is\", x)`) prints a tensor "
        f"while PyTorch traces (torch.compile or torch.export), and a traced PyTorch program "
        f"cannot print at run time everywhere (not inside cond or while_loop). Return the "
        f"value and print it outside the compiled function.")
    torch.testing.assert_close(converted(X_POS), X_POS + 1)  # eager: prints, as print does


def first_two_or_all(x):
    if x.sum() > 0:  # outputs that differ in size only: PyTorch 2.13's cond takes them
        y = x[:2] * 2
    else:
        y = x + 1
    return y.sum(), y


@pytest.mark.parametrize("how", ["compiled", "exported"])
def test_branches_whose_outputs_differ_only_in_size(how):
    converted = ag.convert(first_two_or_all)
    if how == "compiled":
        run = compiled(converted)
    else:
        class Program(torch.nn.Module):
            def forward(self, x):
                return converted(x)

        ep = torch.export.export(Program(), (X_POS,))
        assert "higher_order.cond" in ep.graph_module.code
        run = ep.module()
    for x in (X_POS, X_NEG):  # the sizes of both sides, from one program
        for got, expected in zip(run(x), first_two_or_all(x)):
            torch.testing.assert_close(got, expected)


class Hits(torch.nn.Module):
    """Counts the calls whose input sums to more than 0, in a buffer, three ways."""

    def __init__(self, how: str):
        super().__init__()
        self.register_buffer("hits", torch.zeros(()))
        self.how = how

    def forward(self, x):
        if x.sum() > 0:
            if self.how == "operator":
                self.hits += 1
            elif self.how == "method":
                self.hits.add_(1)
            else:
                self.hits[()] = self.hits + 1
        return x * 2


@pytest.mark.parametrize("how,code", [("operator", "self.hits += 1"),
                                      ("method", "self.hits.add_(1)"),
                                      ("item", "self.hits[()] = self.hits + 1")])
@pytest.mark.parametrize("mode", ["compiled", "exported"])
def test_a_buffer_written_in_a_staged_branch_is_refused_naming_it(how, code, mode):
    """The branch's operator writes into a copy of the buffer: the module would keep its
    old count (it did, silently, for the method and the item), so a StagingError names
    the buffer and what to do instead."""
    module = ag.convert(Hits(how))
    with pytest.raises(ag.StagingError) as info:
        if mode == "compiled":
            compiled(module)(X_POS)
        else:
            torch.export.export(module, (X_POS,))
    lines, first = inspect.getsourcelines(Hits.forward)
    line = first + next(i for i, text in enumerate(lines) if text.strip() == code)
    assert str(info.value) == (
        f"in-place write at {__file__}:{line} (`{code}`): 'hits', a buffer of Hits, is "
        f"changed inside a staged if or loop, and under torch.compile and torch.export that "
        f"construct changes a copy of it: the module's buffer would keep its old value. "
        f"Compute the new value in the construct (a variable it assigns) and copy it into "
        f"the buffer after it (.copy_(new)), or write it with no staged construct around the "
        f"write (torch.where(cond, new, old)).")
    assert float(module.hits) == 0.0
    module(X_POS)  # eagerly: counted, as the original counts
    assert float(module.hits) == 1.0


def test_a_deep_copy_of_a_converted_module_runs_its_own_parameters():
    """``copy.deepcopy`` (an EMA or teacher copy): the copy's forward is converted and runs
    the copy's parameters, eagerly and compiled; the original is untouched."""
    import copy

    torch.manual_seed(0)
    m = ag.convert(Gate())
    twin = copy.deepcopy(m)
    with torch.no_grad():
        twin.lin.weight.zero_()
        twin.lin.bias.fill_(1.0)
    assert torch.equal(twin(X_POS), torch.ones(4))
    assert torch.equal(compiled(twin)(X_POS), torch.ones(4))
    assert torch.equal(m(X_POS), Gate.forward(m, X_POS))
    assert not torch.equal(m(X_POS), torch.ones(4))
    assert torch.equal(twin(X_NEG), X_NEG // 2)


def test_a_converted_module_saved_whole_loads_with_its_class_forward(tmp_path):
    """``torch.save(model)`` / ``pickle`` store the bound forward by its name: the loaded
    module has the class's forward (the original), and converts again."""
    import pickle

    torch.manual_seed(0)
    m = ag.convert(Gate())
    torch.save(m, tmp_path / "m.pt")
    for loaded in (torch.load(tmp_path / "m.pt", weights_only=False),
                   pickle.loads(pickle.dumps(m))):
        assert loaded is not m and type(loaded) is Gate
        for x in (X_POS, X_NEG):
            assert torch.equal(loaded(x), Gate.forward(m, x))
        assert ag.convert(loaded) is loaded
        for x in (X_POS, X_NEG):
            torch.testing.assert_close(compiled(loaded)(x), Gate.forward(m, x))


def test_a_converted_forward_looks_like_the_method():
    m = Gate()
    ag.convert(m)
    assert inspect.signature(m.forward) == inspect.signature(Gate().forward)
    assert m.forward.__name__ == "forward" and m.forward.__qualname__ == "Gate.forward"
    assert m.forward.__self__ is m
    assert ag.convert(m) is m and ag.convert(m).forward.__func__ is m.forward.__func__


def test_many_converted_modules_compile_in_one_process():
    """Dynamo counts recompiles per module of a forward's frame: with the module held by
    a closure (or an object), every converted module shared one count and the ninth one
    compiled was "recompile limit exceeded" (fullgraph=True)."""
    torch._dynamo.reset()
    for _ in range(12):
        m = ag.convert(Gate())
        assert torch.equal(compiled(m, backend="eager")(X_NEG), Gate.forward(m, X_NEG))


class Flagged(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale, self.causal, self.k = 2.0, True, 2
        self.config = types.SimpleNamespace(mode="a")

    def forward(self, x):
        if self.causal:
            x = x * self.scale
        x = x * self.k
        if self.config.mode == "b":
            x = x - 100
        if x.sum() > 0:               # a staged if beside them
            x = x + 1
        return x


@pytest.mark.parametrize("fullgraph", [True, False])
def test_module_attributes_changed_after_a_compile_are_read_again(fullgraph):
    """PyTorch does not guard what a non-strict region reads: a converted forward kept the
    values of ``self.scale``/``self.causal``/``self.config.mode`` its first compile saw,
    silently. Dynamo now reads them where the region is called (and guards on them), as it
    does for the unconverted forward."""
    torch.manual_seed(0)
    torch._dynamo.reset()
    m = ag.convert(Flagged())
    run = torch.compile(m, fullgraph=fullgraph, backend="aot_eager")
    x = torch.ones(2)
    changes = [("scale", 5.0), ("causal", False), ("k", 3), ("k", 4)]
    assert torch.equal(run(x), Flagged.forward(m, x))
    for name, value in changes:
        setattr(m, name, value)
        assert torch.equal(run(x), Flagged.forward(m, x)), name
    m.config.mode = "b"
    assert torch.equal(run(x), Flagged.forward(m, x))
