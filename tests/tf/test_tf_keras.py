"""``ag.convert`` of a Keras model (Keras 3, which TensorFlow's AutoGraph does not
convert): its ``call`` branches on a tensor in ``tf.function``, ``fit`` and ``predict``;
gradients flow through the converted control flow; weights, ``model.save``/``load_model``
and ``model.export`` (a SavedModel) stay Keras's."""

import numpy as np
import tensorflow as tf

import autograph as ag


class CustomModel(tf.keras.models.Model):
    """The seeds' model: its call branches on a tensor."""

    @tf.function
    def call(self, input_data):
        if tf.reduce_mean(input_data) > 0:
            return input_data
        else:
            return input_data // 2


class Branchy(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(1)

    def call(self, x):
        y = self.dense(x)
        if tf.reduce_mean(y) > 0:
            y = y * 2.0
        else:
            y = -y
        return y


def test_the_seeds_custom_model_in_tf_function_and_predict():
    model = ag.convert(CustomModel())
    for x in ([-2, -4], [2, 4]):
        expected = np.array(x) if np.mean(x) > 0 else np.array(x) // 2
        np.testing.assert_array_equal(model(tf.constant(x)).numpy(), expected)
        got = tf.function(model, autograph=False)(tf.constant(x))
        np.testing.assert_array_equal(got.numpy(), expected)
    predicted = model.predict(np.array([[-2.0, -4.0], [2.0, 4.0]]), batch_size=1, verbose=0)
    np.testing.assert_array_equal(predicted, [[-1.0, -2.0], [2.0, 4.0]])


def _data():
    rng = np.random.RandomState(0)
    x = rng.randn(64, 3).astype("float32")
    return x, x @ np.array([[1.0], [2.0], [-1.0]], "float32")


def test_fit_through_a_converted_branch_lowers_the_loss():
    x, y = _data()
    tf.keras.utils.set_random_seed(0)
    model = ag.convert(Branchy())
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
    losses = model.fit(x, y, epochs=5, batch_size=16, verbose=0).history["loss"]
    assert losses[-1] < losses[0]
    eager = Branchy.call(model, tf.constant(x[:8])).numpy()  # the original call, eagerly
    np.testing.assert_allclose(model.predict(x[:8], verbose=0), eager, rtol=1e-5)


def test_gradients_through_the_converted_branch_equal_eager():
    x, _ = _data()
    model = ag.convert(Branchy())
    model(x)
    graph = tf.function(lambda x: tf.reduce_sum(model(x)), autograph=False)
    for sign in (1.0, -1.0):
        with tf.GradientTape() as tape:
            loss = graph(sign * x)
        grads = tape.gradient(loss, model.trainable_variables)
        with tf.GradientTape() as tape:
            loss_eager = tf.reduce_sum(Branchy.call(model, sign * x))
        expected = tape.gradient(loss_eager, model.trainable_variables)
        for g, e in zip(grads, expected):
            np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-5)


def test_weights_and_keras_save_are_untouched(tmp_path):
    x, _ = _data()
    model = ag.convert(Branchy())
    before = model(x).numpy()
    model.save_weights(tmp_path / "w.weights.h5")
    other = Branchy()
    other(x)
    other.load_weights(tmp_path / "w.weights.h5")
    np.testing.assert_allclose(Branchy.call(other, tf.constant(x)).numpy(), before, rtol=1e-6)


class Block(tf.keras.layers.Layer):
    def call(self, x):
        while tf.reduce_max(x) < 10.0:
            x = x * 2.0
        return x


class Outer(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def call(self, x):
        return self.block(x) + 1.0


def test_nested_user_layers_are_converted_too():
    model = ag.convert(Outer())
    got = tf.function(model, autograph=False)(tf.constant([1.0, 3.0]))
    np.testing.assert_array_equal(got.numpy(), [5.0, 13.0])


@tf.keras.utils.register_keras_serializable(package="autograph_tests")
class Saveable(tf.keras.Model):
    """``Branchy`` with the constructor Keras needs to rebuild it from its config."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = tf.keras.layers.Dense(1)

    def call(self, x):
        y = self.dense(x)
        if tf.reduce_mean(y) > 0:
            y = y * 2.0
        else:
            y = -y
        return y


def test_model_save_load_and_export_keep_both_branches(tmp_path):
    x, _ = _data()
    inputs = [x, -x]  # the branch each takes depends on the weights: one each way
    model = ag.convert(Saveable())
    config = tf.keras.utils.serialize_keras_object(model)  # Keras's own, as unconverted
    assert config == tf.keras.utils.serialize_keras_object(Saveable(name=model.name))
    before = [model(v).numpy() for v in inputs]
    model.save(tmp_path / "m.keras")
    loaded = ag.convert(tf.keras.models.load_model(tmp_path / "m.keras"))
    model.export(str(tmp_path / "exported"), verbose=False)
    served = tf.saved_model.load(str(tmp_path / "exported"))
    for v, want in zip(inputs, before):
        np.testing.assert_allclose(loaded(v).numpy(), want, rtol=1e-6)
        np.testing.assert_allclose(served.serve(tf.constant(v)).numpy(), want, rtol=1e-6)
