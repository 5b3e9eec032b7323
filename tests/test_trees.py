"""trees: the fast copy, comparison and gast -> ast translation match the slow generic ones."""

import ast
import copy
import inspect

import gast
import pytest

from autograph import trees

MODULES = ["argparse", "difflib", "textwrap", "dataclasses", "asyncio.tasks", "email.message"]


def _source_tree(name):
    module = __import__(name, fromlist=["_"])
    return gast.parse(inspect.getsource(module))


@pytest.mark.parametrize("name", MODULES)
def test_to_ast_matches_gast_to_ast_with_fixed_locations(name):
    tree = _source_tree(name)
    expected = ast.dump(ast.fix_missing_locations(gast.gast_to_ast(tree)), include_attributes=True)
    assert ast.dump(trees.to_ast(tree), include_attributes=True) == expected


def test_to_ast_fills_missing_locations_from_the_nearest_located_ancestor():
    tree = gast.parse("def f(x):\n    return x\n")
    ret = tree.body[0].body[0]
    ret.value = gast.Name(id="y", ctx=gast.Load(), annotation=None, type_comment=None)
    converted = trees.to_ast(tree)
    name = converted.body[0].body[0].value
    assert (name.lineno, name.col_offset) == (2, 4)
    compile(converted, "<test>", "exec")


@pytest.mark.parametrize("name", MODULES)
def test_copy_is_equal_and_independent(name):
    tree = _source_tree(name)
    copied = trees.copy(tree)
    assert gast.dump(copied) == gast.dump(tree)
    assert trees.equal(copied, tree)
    assert ast.dump(trees.to_ast(copied), include_attributes=True) == ast.dump(trees.to_ast(tree), include_attributes=True)
    copied.body[0] = gast.Pass()
    assert not trees.equal(copied, tree)


def test_copy_without_locations():
    tree = gast.parse("x = 1\n")
    bare = trees.copy(tree, locations=False)
    assert getattr(bare.body[0], "lineno", None) is None
    assert trees.equal(bare, tree)


def test_equal_tells_constants_of_different_types_apart():
    assert not trees.equal(gast.parse("x = 1"), gast.parse("x = True"))
    assert not trees.equal(gast.parse("x = 1"), gast.parse("x = 1.0"))
    assert trees.equal(gast.parse("x = (1, 'a')"), copy.deepcopy(gast.parse("x = (1, 'a')")))


def test_walk_and_children_see_every_node():
    tree = gast.parse(
        "def f(a, *b, c=1, **d):\n"
        "    for x in a:\n"
        "        if x and not x < 2 or -x + 1:\n"
        "            break\n"
        "        continue\n"
        "    pass\n"
        "    return [i for i in a if i]\n"
    )
    leaves = (gast.expr_context, gast.operator, gast.boolop, gast.unaryop, gast.cmpop)
    expected = sorted(type(n).__name__ for n in gast.walk(tree) if not isinstance(n, leaves))
    assert sorted(type(n).__name__ for n in trees.walk(tree)) == expected


@pytest.mark.parametrize("name", MODULES)
def test_from_ast_matches_ast_to_gast(name):
    module = __import__(name, fromlist=["_"])
    tree = ast.parse(inspect.getsource(module))
    expected = gast.dump(gast.ast_to_gast(tree), include_attributes=True)
    assert gast.dump(trees.from_ast(tree), include_attributes=True) == expected
