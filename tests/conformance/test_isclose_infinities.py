"""``np.isclose``/``np.allclose``/``np.array_equal`` as NumPy computes them: an infinite
value is close only to itself (the formula ``|a - b| <= atol + rtol * |b|`` alone says
``isclose(1.0, inf)``: ``inf <= inf``), NaN to nothing unless ``equal_nan``; and
``allclose``'s Python bool depends on the values. (Found by the third real-code round:
tf.experimental.numpy's isclose answered True, and the NumPy engine's ``allclose`` and
``array_equal`` of traced arrays were the answer on its stand-in values, always True.)"""

import numpy as np

PAIRS = ((1.0, np.inf), (-np.inf, np.inf), (np.inf, np.inf), (np.nan, np.nan),
         (1.0, 1.0 + 1e-9), (1.0, 1.1))


def closeness(a, b):
    return np.isclose(a, b), np.isclose(b, a), np.isclose(a, b, equal_nan=True)


def all_close(a, b):
    return np.allclose(a, b), np.array_equal(a, b)


def test_isclose_of_infinities_and_nan(backend):
    for a, b in PAIRS:
        backend.check(closeness, np.float64(a), np.float64(b))


def test_allclose_depends_on_the_values(backend):
    if backend.name == "torch":  # torch.allclose is a Python bool of the data: refused
        text = backend.staging_error(all_close, np.float64(1.0), np.float64(1.1))
        assert text.startswith(f"PyTorch could not trace the line at "
                               f"{backend.at(all_close, 'return np.allclose(a, b), np.array_equal(a, b)')}")
        return
    for a, b in PAIRS:
        backend.check(all_close, np.float64(a), np.float64(b))
