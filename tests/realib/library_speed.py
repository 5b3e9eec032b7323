"""Time a converted library's calls on the Python path against the original, in one
process: every function of the named modules is converted (``plugin.convert_module``),
and the original and converted code objects are swapped in and out between rounds
(interleaved, medians of three rounds, or ``ROUNDS``), so both sides see the same machine
load.

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


TOML = ('[tool.x]\nname = "a"  # c\nlist = [1, 2.5, "s", {k = true}]\n'
        '[[t]]\nd = 1979-05-27T07:32:00Z\n')


def tomlkit_calls():
    import tomlkit

    mods = [f"tomlkit.{m}" for m in ("api", "container", "items", "parser", "source",
                                     "toml_document", "toml_file", "_utils", "_compat")]
    doc = tomlkit.parse(TOML)
    return mods, {
        "parse": lambda: tomlkit.parse(TOML),
        "dumps": lambda: tomlkit.dumps(doc),
        "build table": lambda: tomlkit.dumps({"a": {"b": [1, 2], "c": "x"}}),
    }


def natsort_calls():
    import natsort

    items = [f"file{i}.v{i % 7}.txt" for i in range(200, 0, -1)]
    mods = ["natsort.natsort", "natsort.utils", "natsort.ns_enum"]
    return mods, {
        "natsorted": lambda: natsort.natsorted(items),
        "natsorted FLOAT": lambda: natsort.natsorted(items, alg=natsort.ns.FLOAT),
        "humansorted keygen": lambda: natsort.natsort_keygen(alg=natsort.ns.IGNORECASE),
    }


def arrow_calls():
    import arrow

    a = arrow.Arrow(2013, 5, 5, 12, 30, 45)
    mods = [f"arrow.{m}" for m in ("api", "arrow", "factory", "formatter", "locales", "parser",
                                   "util")]
    return mods, {
        "get iso": lambda: arrow.get("2013-05-05T12:30:45+00:00"),
        "get format": lambda: arrow.get("05/05/2013 12:30", "MM/DD/YYYY HH:mm"),
        "shift": lambda: a.shift(months=1, days=-3, hours=5),
        "format": lambda: a.format("YYYY-MM-DD HH:mm:ss ZZ dddd"),
        "humanize": lambda: a.humanize(a.shift(hours=-3), granularity=["hour", "minute"]),
        "span_range": lambda: list(arrow.Arrow.span_range("day", a, a.shift(days=10))),
    }


def marshmallow_calls():
    from marshmallow import Schema, fields, validate

    class Album(Schema):
        title = fields.Str(required=True, validate=validate.Length(min=1))
        year = fields.Int(validate=validate.Range(min=1900))
        tags = fields.List(fields.Str())
        released = fields.Date()

    schema = Album()
    data = {"title": "Hunky Dory", "year": 1971, "tags": ["a", "b"], "released": "1971-12-17"}
    loaded = schema.load(data)
    mods = [f"marshmallow.{m}" for m in ("schema", "fields", "validate", "utils", "decorators",
                                         "error_store", "class_registry")]
    return mods, {
        "load": lambda: schema.load(data),
        "dump": lambda: schema.dump(loaded),
        "validate errors": lambda: schema.validate({"title": "", "year": 12}),
    }


def inflect_calls():
    import inflect

    p = inflect.engine()
    return ["inflect"], {
        "plural": lambda: p.plural("cactus"),
        "number_to_words": lambda: p.number_to_words(1234567),
        "a": lambda: p.a("hour"),
        "ordinal": lambda: p.ordinal(103),
    }


def simplejson_calls():
    import simplejson

    doc = {"a": [1, 2.5, "x\u1234", None, True], "b": {"c": "d" * 20}, "e": list(range(30))}
    text = simplejson.dumps(doc)
    mods = ["simplejson", "simplejson.decoder", "simplejson.encoder", "simplejson.scanner"]
    return mods, {
        "dumps": lambda: simplejson.dumps(doc),
        "dumps indent": lambda: simplejson.dumps(doc, indent=2, sort_keys=True),
        "loads": lambda: simplejson.loads(text),
    }


def attrs_calls():
    import attr

    @attr.s
    class P:
        x = attr.ib(validator=attr.validators.instance_of(int))
        y = attr.ib(default=0, converter=int)

    return [f"attr.{m}" for m in ("_make", "_funcs", "validators", "converters", "_cmp")], {
        "make class": lambda: attr.make_class("C", ["a", "b"]),
        "instance": lambda: P(1, "2"),
        "asdict": lambda: attr.asdict(P(1, 2)),
        "evolve": lambda: attr.evolve(P(1, 2), y=3),
    }


LIBRARIES = {"dateutil": "dateutil_calls", "humanize": "humanize_calls",
             "tomlkit": "tomlkit_calls", "natsort": "natsort_calls", "arrow": "arrow_calls",
             "marshmallow": "marshmallow_calls", "inflect": "inflect_calls",
             "simplejson": "simplejson_calls", "attrs": "attrs_calls"}


def measure(calls: dict) -> dict:
    out = {}
    for name, call in calls.items():
        timer = timeit.Timer(call)
        n, _ = timer.autorange()
        out[name] = min(timer.repeat(3, n)) / n
    return out


def main() -> None:
    mods, calls = globals()[LIBRARIES[sys.argv[1]]]()
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
    for _ in range(int(os.environ.get("ROUNDS", "3"))):
        for side, codes in enumerate((original, converted)):
            for f, code in codes.items():
                f.__code__ = code
            for name, seconds in measure(calls).items():
                rounds[name][side].append(seconds)
    swapped = sum(original[f] is not converted[f] for f in functions)
    print(f"{swapped} of {len(functions)} functions converted in place")
    for name, (before, after) in rounds.items():
        b, a = sorted(before)[len(before) // 2], sorted(after)[len(after) // 2]
        print(f"{name:24s} {b * 1e6:9.1f} us {a * 1e6:9.1f} us  x{a / b:.2f}")


if __name__ == "__main__":
    main()
