"""Time a converted library's calls on the Python path against the original, in one
process: every function of the named modules is converted (``plugin.convert_module``),
and the original and converted code objects are swapped in and out between rounds
(interleaved, medians of three rounds), so both sides see the same machine load.

    PYTHONPATH=.:SRC VENV/bin/python tests/realib/library_speed.py dateutil
    PYTHONPATH=.:SRC VENV/bin/python tests/realib/library_speed.py humanize

Each library's calls are the ones its README shows. Not part of the test suite.
"""

from __future__ import annotations

import datetime as dt
import gc
import os
import sys
import timeit
import types
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def dateutil_calls():
    from dateutil import easter, parser, relativedelta, rrule, tz

    d = dt.datetime(2003, 9, 17, 10, 30)
    mods = ["dateutil._common", "dateutil.easter", "dateutil.relativedelta", "dateutil.rrule",
            "dateutil.utils", "dateutil.parser._parser", "dateutil.parser.isoparser",
            "dateutil.tz._common", "dateutil.tz.tz"]
    return mods, {
        "parser.parse": lambda: parser.parse("Thu Sep 25 10:36:28 BRST 2003", ignoretz=True),
        "parser.parse fuzzy": lambda: parser.parse(
            "Today is 25 of September of 2003, exactly at 10:49:41", fuzzy=True),
        "isoparse": lambda: parser.isoparse("2003-09-25T10:49:41.5-03:00"),
        "rrule WEEKLY list": lambda: list(rrule.rrule(rrule.WEEKLY, count=20, dtstart=d)),
        "rrule MONTHLY bysetpos": lambda: list(rrule.rrule(
            rrule.MONTHLY, count=12, byweekday=(rrule.MO, rrule.TU), bysetpos=(-1, 1), dtstart=d)),
        "relativedelta +": lambda: d + relativedelta.relativedelta(
            months=+1, weekday=relativedelta.FR(-1)),
        "relativedelta(dt, dt)": lambda: relativedelta.relativedelta(d, dt.datetime(2000, 1, 31)),
        "easter": lambda: easter.easter(2024),
        "tzoffset astimezone": lambda: d.replace(tzinfo=tz.tzutc()).astimezone(
            tz.tzoffset("B", -10800)),
    }


def humanize_calls():
    import humanize

    now = dt.datetime.now()
    mods = ["humanize.filesize", "humanize.i18n", "humanize.lists", "humanize.number",
            "humanize.time"]
    return mods, {
        "naturalsize": lambda: humanize.naturalsize(3000000, binary=True),
        "intcomma": lambda: humanize.intcomma(1234567.25, 2),
        "intword": lambda: humanize.intword(1234567890),
        "ordinal": lambda: humanize.ordinal(103),
        "naturaldelta": lambda: humanize.naturaldelta(dt.timedelta(days=400, seconds=30)),
        "precisedelta": lambda: humanize.precisedelta(
            dt.timedelta(days=2, seconds=3633, microseconds=123000), minimum_unit="microseconds"),
        "naturaltime": lambda: humanize.naturaltime(now - dt.timedelta(hours=3)),
        "scientific": lambda: humanize.scientific(0.000032312),
        "fractional": lambda: humanize.fractional(1.3333),
        "natural_list": lambda: humanize.natural_list(["a", "b", "c"]),
        "apnumber": lambda: humanize.apnumber(7),
    }


def measure(calls: dict) -> dict:
    out = {}
    for name, call in calls.items():
        timer = timeit.Timer(call)
        n, _ = timer.autorange()
        out[name] = min(timer.repeat(3, n)) / n
    return out


def main() -> None:
    mods, calls = {"dateutil": dateutil_calls, "humanize": humanize_calls}[sys.argv[1]]()
    functions = [o for o in gc.get_objects()
                 if isinstance(o, types.FunctionType) and (o.__module__ or "") in mods]
    original = {f: f.__code__ for f in functions}
    import plugin

    plugin._modules.update(mods)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in mods:
            plugin.convert_module(name)
    converted = {f: f.__code__ for f in functions}
    rounds: dict = {name: ([], []) for name in calls}
    for _ in range(3):
        for side, codes in enumerate((original, converted)):
            for f, code in codes.items():
                f.__code__ = code
            for name, seconds in measure(calls).items():
                rounds[name][side].append(seconds)
    swapped = sum(original[f] is not converted[f] for f in functions)
    print(f"{swapped} of {len(functions)} functions converted in place")
    for name, (before, after) in rounds.items():
        b, a = sorted(before)[1], sorted(after)[1]
        print(f"{name:24s} {b * 1e6:9.1f} us {a * 1e6:9.1f} us  x{a / b:.2f}")


if __name__ == "__main__":
    main()
