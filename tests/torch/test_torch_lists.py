"""Lists a staged loop appends to, on PyTorch: greedy decoding that collects its ids and
stops at an end token, an RNN that collects its states, a ``range`` with a tensor bound,
each compiled (``fullgraph=True``) and exported, run on inputs of every length against
eager PyTorch. The list is carried in a buffer of the loop's bound and cut to its length
after the loop: the exported program returns as many ids as the run generated."""

from __future__ import annotations

import pytest
import torch

import autograph as ag

V, EOS, MAX_LEN = 6, 3, 7


class Greedy(torch.nn.Module):
    """A tiny recurrent language model decoded greedily. Its weights are set by hand so
    that decoding is a walk on a permutation of the vocabulary: from tokens 0-2 it
    reaches the end token (3) within three steps, from 4 and 5 it never does."""

    def __init__(self) -> None:
        super().__init__()
        self.embed = torch.nn.Embedding(V, V)
        self.mix = torch.nn.Linear(V, V, bias=False)
        self.head = torch.nn.Linear(V, V)
        successor = [1, 2, 3, 0, 5, 4]
        with torch.no_grad():
            self.embed.weight.copy_(torch.eye(V))
            self.mix.weight.copy_(0.1 * torch.ones(V, V))
            self.head.weight.copy_(4.0 * torch.eye(V)[successor].T)  # argmax: successor
            self.head.bias.zero_()

    def step(self, token, h):
        return torch.tanh(self.embed(token) + self.mix(h))

    def forward(self, prompt):
        h = torch.zeros(V)
        for token in prompt:
            h = self.step(token, h)
        ids = []
        next_id = torch.argmax(self.head(h))
        done = False
        while not done:
            ag.set_loop_options(maximum_iterations=MAX_LEN)
            ids.append(next_id)
            if next_id == EOS:
                break
            h = self.step(next_id, h)
            next_id = torch.argmax(self.head(h))
            done = len(ids) >= MAX_LEN
        return torch.stack(ids)


PROMPTS = {"stops early": [4, 0], "stops at once": [5, 2], "stops late": [1, 5, 3],
           "never stops": [2, 4]}


def _decoder():
    return ag.convert(Greedy())


def test_greedy_decoding_eager_stops_as_expected():
    model = Greedy()
    lengths = {name: len(model(torch.tensor(p))) for name, p in PROMPTS.items()}
    assert lengths == {"stops early": 3, "stops at once": 1, "stops late": 4,
                       "never stops": MAX_LEN}


def test_greedy_decoding_compiled():
    model = _decoder()
    compiled = torch.compile(model, fullgraph=True, backend="aot_eager")
    for prompt in PROMPTS.values():
        x = torch.tensor(prompt)
        assert torch.equal(compiled(x), Greedy()(x)), prompt


def test_greedy_decoding_exported():
    model = _decoder()
    programs = {}
    for name, prompt in PROMPTS.items():
        x = torch.tensor(prompt)
        if len(prompt) not in programs:
            programs[len(prompt)] = torch.export.export(model, (x,)).module()
        out = programs[len(prompt)](x)
        assert out.dtype == torch.int64 and torch.equal(out, Greedy()(x)), name
    # the program holds the loop: one export runs prompts that stop early and never
    two = programs[2]
    assert [len(two(torch.tensor(p))) for p in ([4, 0], [5, 2], [2, 4])] == [3, 1, MAX_LEN]


class Rnn(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.inp, self.rec = torch.nn.Linear(3, 4), torch.nn.Linear(4, 4)

    def forward(self, xs, h):
        states = []
        for x in xs:
            h = torch.tanh(self.inp(x) + self.rec(h))
            states.append(h)
        return torch.stack(states), h


@pytest.mark.parametrize("mode", ["compiled", "exported"])
def test_an_rnn_collects_its_states(mode):
    model, eager = ag.convert(Rnn()), Rnn()
    xs, h = torch.randn(5, 2, 3), torch.zeros(2, 4)
    if mode == "compiled":
        run = torch.compile(model, fullgraph=True, backend="aot_eager")
    else:
        run = torch.export.export(model, (xs, h)).module()
    (states, last), (e_states, e_last) = run(xs, h), eager(xs, h)
    assert states.shape == (5, 2, 4)
    torch.testing.assert_close(states, e_states)
    torch.testing.assert_close(last, e_last)


def multiples(x, n):
    out = []
    for i in range(n):
        out.append(x * i)
    return torch.cat(out), len(out)


@pytest.mark.parametrize("mode", ["compiled", "exported"])
def test_a_range_with_a_tensor_bound_collects_its_run_time_count(mode):
    """The buffer has the range's length, read when the loop starts: no bound needed."""
    converted = ag.convert(multiples)
    x = torch.tensor([1.0, 2.0])
    if mode == "compiled":
        run = torch.compile(converted, fullgraph=True, backend="aot_eager")
    else:
        class Program(torch.nn.Module):
            def forward(self, x, n):
                return converted(x, n)
        run = torch.export.export(Program(), (x, torch.tensor(3))).module()
    for n in (3, 1, 5):
        rows, count = run(x, torch.tensor(n))
        e_rows, e_count = multiples(x, n)
        assert int(count) == e_count
        torch.testing.assert_close(rows, e_rows)
    with pytest.raises(ValueError, match="non-empty"):
        multiples(x, 0)
    with pytest.raises(RuntimeError, match=r"torch.cat\(\) of an empty list"):
        run(x, torch.tensor(0))  # not an empty tensor: an error too, raised when it runs


def unbounded(x):
    seen = []
    while x > 1:
        x = x / 2
        seen.append(x)
    return torch.stack(seen)


def test_a_while_without_a_bound_is_refused():
    import inspect

    lines, first = inspect.getsourcelines(unbounded)
    line = first + [s.strip() for s in lines].index("while x > 1:")
    with pytest.raises(ag.StagingError) as info:
        torch.export.export(_Program(ag.convert(unbounded)), (torch.tensor(10.0),))
    assert str(info.value) == (
        f"while loop at {inspect.getsourcefile(unbounded)}:{line} (`while x > 1:`): the loop "
        f"appends to 'seen', and how many times it runs is known only while it runs; torch "
        f"carries what a loop collects in a buffer of a size known when the loop starts. "
        f"Write ag.set_loop_options(maximum_iterations=N) as the first statement of the loop "
        f"(it then stops after N iterations): 'seen' then holds at most N items per append.")


class _Program(torch.nn.Module):
    def __init__(self, fn) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)


def test_a_returned_list_comes_back_as_a_list_from_export():
    def countdown(x, n):
        seen = []
        while n > 0:
            ag.set_loop_options(maximum_iterations=5)
            seen.append((x, n))
            x = x + 1.5
            n = n - 1
        return seen

    program = torch.export.export(_Program(ag.convert(countdown)),
                                  (torch.tensor(1.5), torch.tensor(3))).module()
    for n in (3, 0, 5):
        out, eager = program(torch.tensor(1.5), torch.tensor(n)), countdown(torch.tensor(1.5), n)
        assert type(out) is list and len(out) == len(eager)
        for (x, k), (e_x, e_k) in zip(out, eager):
            assert float(x) == float(e_x) and int(k) == e_k


def collects(x, n):
    seen = []
    while n > 0:
        ag.set_loop_options(maximum_iterations=5)
        seen.append(x)
        x = x + 1.5
        n = n - 1
    return seen


@pytest.mark.parametrize("how", ["compile", "strict export"])
def test_a_returned_list_is_refused_where_dynamo_compiles(how):
    """Dynamo's graph returns a fixed number of tensors: a list of a run-time length
    returned from it is the StagingError (not dynamo's "Unsupported"), naming the loop."""
    import inspect

    converted = ag.convert(collects)
    args = (torch.tensor(1.5), torch.tensor(3))
    with pytest.raises(ag.StagingError) as info:
        if how == "compile":
            torch.compile(converted, fullgraph=True, backend="aot_eager")(*args)
        else:
            torch.export.export(_Program(converted), args, strict=True)
    lines, first = inspect.getsourcelines(collects)
    line = first + [s.strip() for s in lines].index("while n > 0:")
    assert str(info.value) == (
        f"'seen', a list the staged loop at {inspect.getsourcefile(collects)}:{line} "
        f"(`while n > 0:`) appended to a number of items known only at run time, is returned "
        f"from the function torch.compile (or strict torch.export) compiles, whose graph "
        f"returns a fixed number of tensors, not a list of a run-time length. Return "
        f"torch.stack(lst) (np.stack(lst): its items as one tensor) instead; non-strict "
        f"torch.export returns the list.")
