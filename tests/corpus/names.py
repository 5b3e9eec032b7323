# ruff: noqa  (user code as people write it, lint findings included)
"""User names that are also names the converter generates (``ag__``, ``loop_body``,
``do_return``, ...): the user's own variables, parameters, functions and imports
keep working, because generated names are picked fresh per function and the
runtime is reached without a name."""

import math as loop_test

from . import cases


@cases((3,), (0,))
def parameter_named_ag(ag__):
    total = 0
    for i in range(ag__):
        if i % 2:
            total += i
    return total, ag__


@cases((4,), (-1,))
def generated_names_as_variables(n):
    do_return = n > 0
    retval_ = 0
    break_ = None
    loop_body = [n]
    if_body = else_body = 1
    for itr in range(3):
        if do_return:
            retval_ += itr
        else:
            break_ = itr
            break
    loop = state = "x"
    while len(loop) < 3:
        loop += state
    return do_return, retval_, break_, loop_body, if_body, else_body, loop


@cases((2,), (5,))
def generated_names_as_functions(n):
    def loop_body(k):
        return k * 2

    def if_body(k):
        return -k

    out = []
    for i in range(n):
        if i % 2:
            out.append(loop_body(i))
        else:
            out.append(if_body(i))
    return out


@cases((1.0,), (4.0,))
def generated_name_as_import(x):
    if x > 2:
        x = loop_test.sqrt(x)
    return x


@cases((3,), (0,))
def runtime_name_as_local(n):
    ag__ = []
    while n > 0:
        ag__.append(n)
        n -= 1
    return ag__ if ag__ else None


@cases((2,),)
def runtime_name_captured(n):
    ag__ = n

    def add(k):
        nonlocal ag__
        if k:
            ag__ += k
        return ag__

    for i in range(3):
        add(i)
    return ag__


@cases((3,), (0,))
def shared_values_name(n):
    ag__values = 0

    def get():
        return ag__values

    for i in range(n):
        if i:
            ag__values += i
    return get()
