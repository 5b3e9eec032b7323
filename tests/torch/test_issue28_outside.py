"""Issue 28 as an outside tester reads it: every bullet of the issue written as a PyTorch user
would write it, each result compared with eager PyTorch running the unconverted code (and
with the unconverted code compiled, where dynamo compiles it). Modes: ``torch.compile(
fullgraph=True)`` (``backend="aot_eager"``; inductor costs 25-85 s per function here),
``torch.export.export`` non-strict and strict, each exported program run on inputs that
take every branch and trip count and after an ``export.save``/``export.load`` round trip."""

from __future__ import annotations

import copy
import inspect
import io

import pytest
import torch
from torch import nn

import autograph as ag

MODES = ("compile", "export", "export-strict")


def compiled(fn, backend="aot_eager"):
    return torch.compile(fn, fullgraph=True, backend=backend)


class Wrap(nn.Module):
    """How a user exports a function: a module whose forward calls it."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)


def round_trip(ep):
    buffer = io.BytesIO()
    torch.export.save(ep, buffer)
    buffer.seek(0)
    return torch.export.load(buffer)


def staged(target, mode, example):
    """``target`` (a converted function or module) compiled or exported in ``mode``: the
    callable(s) a user would run. Exported: the program and its saved-and-loaded copy."""
    if mode == "compile":
        return [compiled(target)]
    module = target if isinstance(target, nn.Module) else Wrap(target)
    ep = torch.export.export(module, example, strict=mode == "export-strict")
    return [ep.module(), round_trip(ep).module()]


def assert_same(got, expected):
    if isinstance(expected, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(expected), (got, expected)
        for g, e in zip(got, expected):
            assert_same(g, e)
    elif isinstance(expected, torch.Tensor):
        assert isinstance(got, torch.Tensor), (got, expected)
        assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
        torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-5)
    else:
        assert got == expected, (got, expected)


def check(original, mode, inputs, converted=None):
    """``original`` converted (or ``converted``), staged in ``mode`` on ``inputs[0]``, run on
    every input: equal to ``original`` run eagerly on it."""
    converted = converted if converted is not None else ag.convert(original)
    for run in staged(converted, mode, inputs[0]):
        for args in inputs:
            with torch.no_grad():
                expected = original(*args)
                assert_same(converted(*args), expected)  # eager converted: the original
                assert_same(run(*args), expected)


def higher_order_ops(ep):
    return {n.target.__name__ for n in ep.graph.nodes
            if n.op == "call_function" and isinstance(n.target, torch._ops.HigherOrderOperator)}


# -- the Gate module ------------------------------------------------------------------------


class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.register_buffer("seen", torch.zeros(()))

    def forward(self, x):
        if x.mean() > 0:              # a torch.cond
            return self.lin(x)
        return x // 2


X_POS, X_NEG = torch.tensor([1.0, 2.0, 3.0, 4.5]), torch.tensor([-1.0, -2.5, 3.0, -4.0])


def gate_pair():
    torch.manual_seed(0)
    original = Gate()
    return original, ag.convert(copy.deepcopy(original))


def test_gate_convert_leaves_the_module_as_it_was():
    torch.manual_seed(0)
    m = Gate()
    params = list(m.parameters())
    buffers = list(m.buffers())
    state = copy.deepcopy(m.state_dict())
    calls = []
    m.register_forward_pre_hook(lambda mod, args: calls.append("pre"))
    m.register_forward_hook(lambda mod, args, out: calls.append("post"))
    assert ag.convert(m) is m
    assert isinstance(m, Gate) and type(m) is Gate
    assert [id(p) for p in m.parameters()] == [id(p) for p in params]
    assert [id(b) for b in m.buffers()] == [id(b) for b in buffers]
    assert list(m.state_dict()) == list(state)
    assert all(torch.equal(m.state_dict()[k], v) for k, v in state.items())
    assert m.training
    assert m.eval() is m and not m.training and not m.lin.training
    assert m.train() is m and m.training and m.lin.training
    m(X_POS)
    assert calls == ["pre", "post"]
    compiled(m)(X_NEG)
    assert calls == ["pre", "post"] * 2
    # load_state_dict into the converted module works and is used by the converted forward
    other = Gate()
    m.load_state_dict(other.state_dict())
    torch.testing.assert_close(m(X_POS), other(X_POS))
    assert set(dict(m.named_modules())) == {"", "lin"}
    # the class is untouched: a fresh Gate is not converted
    assert Gate.forward is inspect.getattr_static(Gate, "forward")
    fresh = Gate()
    assert torch._dynamo.explain(fresh)(X_POS).graph_break_count >= 1


@pytest.mark.parametrize("mode", MODES)
def test_gate_each_mode_takes_each_branch(mode):
    original, m = gate_pair()
    check(original, mode, [(X_POS,), (X_NEG,), (X_POS * 0,)], converted=m)


@pytest.mark.parametrize("strict", [False, True])
def test_gate_exported_program_holds_the_cond(strict):
    _, m = gate_pair()
    ep = torch.export.export(m, (X_POS,), strict=strict)
    assert "cond" in higher_order_ops(ep)
    loaded = round_trip(ep)
    assert "cond" in higher_order_ops(loaded)
    torch.testing.assert_close(loaded.module()(X_NEG), X_NEG // 2)


def test_gate_explain_one_graph_no_break():
    _, m = gate_pair()
    report = torch._dynamo.explain(m)(X_POS)
    assert (report.graph_count, report.graph_break_count) == (1, 0), report.break_reasons


@pytest.mark.parametrize("grad", [False, True])
def test_gate_compiled_with_inductor(grad):
    original, m = gate_pair()
    c = compiled(m, backend="inductor")
    with torch.set_grad_enabled(grad):
        for x in (X_POS, X_NEG):
            torch.testing.assert_close(c(x), original(x))


# -- an RNN cell with an early-exit while ---------------------------------------------------


class EarlyExitRNN(nn.Module):
    """Runs the cell over the sequence until the state's norm falls below ``limit``."""

    def __init__(self):
        super().__init__()
        self.cell = nn.RNNCell(3, 5)

    def forward(self, xs, limit):
        h = torch.zeros(5)
        t = 0
        while t < xs.shape[0]:
            h = self.cell(xs[t][None], h[None])[0]
            t += 1
            if h.norm() < limit:
                break
        return h, t


def rnn_inputs():
    torch.manual_seed(1)
    xs = torch.randn(6, 3)
    return [(xs, torch.tensor(0.9)), (xs, torch.tensor(0.1)), (xs, torch.tensor(2.0))]


@pytest.mark.parametrize("mode", MODES)
def test_rnn_cell_early_exit(mode):
    torch.manual_seed(0)
    original = EarlyExitRNN()
    inputs = rnn_inputs()
    trips = {original(*args)[1] for args in inputs}
    assert trips == {3, 6, 1}
    check(original, mode, inputs, converted=ag.convert(copy.deepcopy(original)))


# -- greedy decoding of a small transformer with an end-token stop --------------------------


class TinyDecoder(nn.Module):
    """A one-layer decoder-only transformer (``nn.TransformerDecoder`` over a memory of the
    prompt) and its greedy decoding loop, stopping at ``eos`` or when the buffer is full."""

    def __init__(self, vocab=11, dim=16, eos=3, capacity=7):
        super().__init__()
        self.eos, self.capacity = eos, capacity
        self.embed = nn.Embedding(vocab, dim)
        layer = nn.TransformerDecoderLayer(dim, 2, 32, dropout=0.0, batch_first=True)
        self.decoder = nn.TransformerDecoder(layer, 1)
        self.head = nn.Linear(dim, vocab)

    def forward(self, prompt):
        memory = self.embed(prompt)[None]
        tokens = torch.zeros(self.capacity, dtype=torch.long)
        tokens[: prompt.shape[0]] = prompt
        n = prompt.shape[0]
        done = False
        while not done:
            hidden = self.decoder(self.embed(tokens)[None], memory)
            next_id = self.head(hidden[0, n - 1]).argmax()
            tokens[n] = next_id
            n += 1
            if next_id == self.eos:
                break
            done = n >= self.capacity
        return tokens, n


def decoder_pair():
    torch.manual_seed(0)
    original = TinyDecoder().eval()
    return original, ag.convert(copy.deepcopy(original))


def decoder_prompts(original):
    """Prompts of the same length whose greedy decoding stops early and runs to the end."""
    prompts = [torch.tensor([a, b, c]) for a in range(1, 11, 3) for b in (2, 5) for c in (7, 9)]
    with torch.no_grad():
        stops = [original(p)[1] for p in prompts]
    early = [p for p, s in zip(prompts, stops) if s < original.capacity]
    late = [p for p, s in zip(prompts, stops) if s == original.capacity]
    assert early and late, stops
    return [(early[0],), (late[0],)]


@pytest.mark.parametrize("mode", MODES)
def test_greedy_decoding_stops_at_eos(mode):
    original, m = decoder_pair()
    check(original, mode, decoder_prompts(original), converted=m)


# -- self.training: a Python value, not staged ----------------------------------------------


class TrainEval(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        if self.training:
            x = x * 0.5
        y = self.lin(x)
        if y.sum() > 0 and self.training:
            y = y - 1
        elif not self.training:
            y = y.abs()
        return y


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("training", [True, False])
def test_training_dependent_branches(mode, training):
    torch.manual_seed(0)
    original = TrainEval().train(training)
    m = ag.convert(copy.deepcopy(original))
    if mode == "compile":
        c = compiled(m)
        for x in (X_POS, X_NEG):
            assert_same(c(x), original(x))
        m.train(not training)  # the mode switch is seen by the compiled module
        original.train(not training)
        for x in (X_POS, X_NEG):
            assert_same(c(x), original(x))
    else:
        check(original, mode, [(X_POS,), (X_NEG,)], converted=m)
    code = ag.to_code(TrainEval.forward)
    assert "self.training" in code


# -- gradients through cond and while_loop under compile ------------------------------------


def grad_cond(x, w):
    if (x * w).sum() > 0:
        y = torch.sin(x * w) * w
    else:
        y = x.exp() - w
    return y.sum()


def grad_while(x, w):
    h = x
    while h.norm() < 20:
        h = h * w + torch.tanh(h)
    return h.sum()


def grad_range(x, n):
    h = x * 2
    for i in range(n):
        h = h * x + i
    return h.sum()


def grad_for(xs, w):
    h = torch.zeros(3)
    for row in xs:
        h = torch.tanh(h * w + row)
    return (h * h).sum()


@pytest.mark.parametrize("fn, args", [
    (grad_cond, (torch.tensor([0.5, 1.0, 2.0]), torch.tensor([1.5, -0.5, 0.25]))),
    (grad_cond, (torch.tensor([-0.5, -1.0, -2.0]), torch.tensor([1.5, -0.5, 0.25]))),
    (grad_while, (torch.tensor([0.5, 1.0, 2.0]), torch.tensor([1.5, 1.2, 1.1]))),
    (grad_while, (torch.tensor([5.0, 10.0, 2.0]), torch.tensor([1.5, 1.2, 1.1]))),
    (grad_while, (torch.tensor([15.0, 20.0, 2.0]), torch.tensor([1.5, 1.2, 1.1]))),  # no trip
    (grad_range, (torch.tensor([0.5, 1.0, 2.0]), torch.tensor(3))),
    (grad_range, (torch.tensor([0.5, 1.0, 2.0]), torch.tensor(0))),  # no trip
    (grad_for, (torch.randn(4, 3, generator=torch.Generator().manual_seed(0)),
                torch.tensor([0.5, -1.0, 2.0]))),
])
def test_gradients_under_compile_equal_eager_autograd(fn, args):
    eager_args = [a.clone().requires_grad_(a.is_floating_point()) for a in args]
    staged_args = [a.clone().requires_grad_(a.is_floating_point()) for a in args]
    expected = fn(*eager_args)
    expected.backward()
    got = compiled(ag.convert(fn))(*staged_args)
    got.backward()
    torch.testing.assert_close(got, expected)
    for e, s in zip(eager_args, staged_args):
        if e.is_floating_point():  # eager leaves an unused input's grad None; compiled: zeros
            expected_grad = torch.zeros_like(e) if e.grad is None else e.grad
            torch.testing.assert_close(s.grad, expected_grad)


def test_module_parameter_gradients_through_a_cond_and_a_loop():
    torch.manual_seed(0)
    original = EarlyExitRNN()
    m = ag.convert(copy.deepcopy(original))
    c = compiled(m)
    for xs, limit in rnn_inputs():  # the loop after the first step runs 2, 5 and 0 times
        original.zero_grad()
        m.zero_grad()
        h, _ = original(xs, limit)
        h.sum().backward()
        h2, _ = c(xs, limit)
        h2.sum().backward()
        for (name, p), q in zip(original.named_parameters(), m.parameters()):
            torch.testing.assert_close(q.grad, p.grad, msg=name)


# -- explain: one graph, no break -----------------------------------------------------------


def python_conditions(x, n: int, flag: bool):
    total = x
    for i in range(n):
        if flag and i % 2 == 0:
            total = total + i
        else:
            total = total * 2
    while n > 0:
        n -= 1
        total = total - 1
    return total


def tensor_conditions(x):
    while x.sum() < 100:
        x = x * 2 + 1
    if x.max() > 200:
        x = x - 200
    return x


@pytest.mark.parametrize("fn, args", [
    (python_conditions, (X_POS, 3, True)),
    (tensor_conditions, (X_POS,)),
])
def test_explain_one_graph_no_break(fn, args):
    report = torch._dynamo.explain(ag.convert(fn))(*args)
    assert (report.graph_count, report.graph_break_count) == (1, 0), report.break_reasons
    assert_same(compiled(ag.convert(fn))(*args), fn(*args))


def test_python_conditions_equal_the_unconverted_original_compiled():
    args = (X_POS, 4, False)
    assert_same(compiled(ag.convert(python_conditions))(*args), compiled(python_conditions)(*args))
