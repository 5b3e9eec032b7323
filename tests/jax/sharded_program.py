"""Converted code on 8 devices, run by test_jax_sharding.py in a subprocess (the device
count of the CPU platform is fixed when JAX starts): under ``jax.jit`` with inputs
sharded over the devices, and inside ``jax.shard_map`` with a ``psum`` in a staged
``while`` whose test is the same on every device. Both must equal the unsharded run."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

import autograph as ag


def damped(x, limit):
    steps = 0
    while jnp.max(jnp.abs(x)) > limit:
        if jnp.sum(x) > 0:
            x = x * 0.5
        else:
            x = x * 0.25
        steps += 1
    for row in x:
        limit = limit + jnp.sum(row)
    return x, steps, limit


def normalize(x):
    s = lax.psum(jnp.sum(x * x), "d")
    steps = 0
    while s > 1.0:
        x = x / 2
        s = lax.psum(jnp.sum(x * x), "d")
        steps += 1
    return x, steps


assert len(jax.devices()) == 8, jax.devices()
x = jnp.arange(32.0).reshape(8, 4) - 10.0
mesh = Mesh(np.array(jax.devices()), ("d",))
sharded = jax.device_put(x, NamedSharding(mesh, P("d")))
f = jax.jit(ag.convert(damped))
ref, got = f(x, 3.0), f(sharded, 3.0)
assert len(got[0].sharding.device_set) == 8, got[0].sharding
for a, b in zip(ref, got):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6)


def per_device(mesh):
    return jax.jit(jax.shard_map(ag.convert(normalize), mesh=mesh, in_specs=P("d"),
                                 out_specs=(P("d"), P())))


one = Mesh(np.array(jax.devices()[:1]), ("d",))
ref, got = per_device(one)(x), per_device(mesh)(sharded)
for a, b in zip(ref, got):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6)
assert int(got[1]) > 0
print("ok", int(got[1]))
