"""A parser's element-matching method, modelled on pyparsing's ``_parseNoCache``.

Real library code converted whole runs this kind of method on Python values most of
the time: a method with a ``try``/``except``, several ``if``s whose tests are ``and``/
``or`` of attributes, and a loop over the element's parse actions, each of which reads
several of the method's locals (``self``, ``instring``, ``tokens_start``,
``ret_tokens`` ...). Those reads are what the staged body's generated functions and
lambdas capture; compiled into the converted function's own code, they would make
each such variable a closure cell there, and its Python path would read them
through cells, making the cells on every call (pyparsing's suite ran 2-2.5x slower).
``Element.parse`` is the method measured; the other methods are called as they are
on the Python path (converted code converts a callee only while staging).
This module imports nothing but the standard library.
"""

from __future__ import annotations


class ParseError(Exception):
    def __init__(self, instring, loc, msg, element):
        super().__init__(msg)
        self.instring, self.loc, self.msg, self.element = instring, loc, msg, element


class Results(list):
    def __init__(self, tokens, name=None, as_list=False, modal=True):
        super().__init__(tokens)
        self.name, self.as_list, self.modal = name, as_list, modal


class Element:
    """Matches a literal word, skipping leading whitespace first."""

    def __init__(self, word, actions=(), debug=False, fail_action=None):
        self.word = word
        self.actions = list(actions)
        self.debug = debug
        self.fail_action = fail_action
        self.call_preparse = True
        self.may_index_error = False
        self.call_during_try = False
        self.results_name = None
        self.save_as_list = False
        self.modal_results = True
        self.errmsg = f"Expected {word!r}"

    def pre_parse(self, instring, loc):
        while loc < len(instring) and instring[loc] in " \t\n":
            loc += 1
        return loc

    def parse_impl(self, instring, loc, do_actions=True):
        if instring.startswith(self.word, loc):
            return loc + len(self.word), [self.word]
        raise ParseError(instring, loc, self.errmsg, self)

    def post_parse(self, instring, loc, tokens):
        return tokens

    def parse(self, instring, loc, do_actions=True, call_pre_parse=True):
        debugging = self.debug
        len_instring = len(instring)
        if debugging or self.fail_action:
            try:
                if call_pre_parse and self.call_preparse:
                    pre_loc = self.pre_parse(instring, loc)
                else:
                    pre_loc = loc
                tokens_start = pre_loc
                loc, tokens = self.parse_impl(instring, pre_loc, do_actions)
            except Exception as err:
                if self.fail_action:
                    self.fail_action(instring, tokens_start, self, err)
                raise
        else:
            if call_pre_parse and self.call_preparse:
                pre_loc = self.pre_parse(instring, loc)
            else:
                pre_loc = loc
            tokens_start = pre_loc
            if self.may_index_error or pre_loc >= len_instring:
                try:
                    loc, tokens = self.parse_impl(instring, pre_loc, do_actions)
                except IndexError:
                    raise ParseError(instring, len_instring, self.errmsg, self)
            else:
                loc, tokens = self.parse_impl(instring, pre_loc, do_actions)

        tokens = self.post_parse(instring, loc, tokens)
        ret_tokens = Results(tokens, self.results_name, as_list=self.save_as_list,
                             modal=self.modal_results)
        if self.actions and (do_actions or self.call_during_try):
            for fn in self.actions:
                tokens = fn(instring, tokens_start, ret_tokens)
                if tokens is not None and tokens is not ret_tokens:
                    ret_tokens = Results(tokens, self.results_name,
                                         as_list=self.save_as_list and isinstance(tokens, (Results, list)),
                                         modal=self.modal_results)
        return loc, ret_tokens


def upper(instring, loc, tokens):
    return [t.upper() for t in tokens]


def keep(instring, loc, tokens):
    return None


KEYWORD = Element("select", actions=[keep, upper])
TEXT = "   select name from t"

CALLS = [
    ("Element.parse, pyparsing's _parseNoCache shape", Element.parse, (KEYWORD, TEXT, 0)),
]
