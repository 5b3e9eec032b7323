"""The converter passes, one lowered construct per module; each exposes
``transform(node, ctx)`` on a function node. The order they run in is written
down once, in ``autograph.conversion.PASSES``.
"""
