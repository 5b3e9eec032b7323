"""The seeds' in-graph training loop: one ``tf.function(ag.convert(train),
autograph=False)`` loops over a dataset (a ``Dataset.reduce``), takes an optimizer step
per batch under a ``GradientTape`` and ``tf.print``s every 10 steps; on a small
synthetic data set the loss falls."""

import sys

import numpy as np
import tensorflow as tf

import autograph as ag


def synthetic_dataset():
    rng = np.random.RandomState(0)
    x = rng.randn(400, 8, 8).astype("float32")
    y = (x[:, 0, 0] > 0).astype("int64")
    return tf.data.Dataset.from_tensor_slices((x, y)).batch(20).repeat(3)


compute_loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


def train_one_step(model, optimizer, x, y, compute_accuracy):
    with tf.GradientTape() as tape:
        logits = model(x)
        loss = compute_loss(y, logits)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    compute_accuracy.update_state(y, logits)
    return loss


def train(model, optimizer, train_ds, compute_accuracy):
    step = 0
    loss = 0.0
    first = -1.0
    for x, y in train_ds:
        step += 1
        loss = train_one_step(model, optimizer, x, y, compute_accuracy)
        if step == 1:
            first = loss
        if step % 10 == 0:
            tf.print("Step", step, ": loss", loss, "; accuracy", compute_accuracy.result(),
                     output_stream=sys.stdout)
    return step, first, loss


def test_in_graph_training_loop_lowers_the_loss(capfd):
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential((
        tf.keras.Input((8, 8)),
        tf.keras.layers.Reshape(target_shape=(64,)),
        tf.keras.layers.Dense(32, activation="relu"),
        tf.keras.layers.Dense(2)))
    optimizer = tf.keras.optimizers.Adam(0.01)
    optimizer.build(model.trainable_variables)
    compute_accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
    graph_train = tf.function(ag.convert(train), autograph=False)
    step, first, loss = graph_train(model, optimizer, synthetic_dataset(), compute_accuracy)
    assert int(step) == 60
    assert float(loss) < 0.5 * float(first)
    lines = capfd.readouterr().out.splitlines()
    assert [line.split(" :")[0] for line in lines] == [f"Step {k}" for k in range(10, 61, 10)]
    assert all(": loss" in line and "; accuracy" in line for line in lines)


def first_big(ds, limit):
    total = 0
    for x in ds:
        if x > limit:
            return x, total
        total += x
    return -1, total


def until_big(ds, limit):
    total = 0
    for x in ds:
        if x > limit:
            break
        total += x
    return total


def test_break_and_return_in_a_dataset_loop_stop_reading_it():
    ds = tf.data.Dataset.range(1, 100)
    for fn in (first_big, until_big):
        graph = tf.function(ag.convert(fn), autograph=False)
        for limit in (5, 200):
            expected = fn(list(range(1, 100)), limit)
            got = graph(ds, tf.constant(limit, tf.int64))
            got = tuple(int(g) for g in got) if isinstance(got, tuple) else int(got)
            assert got == expected
