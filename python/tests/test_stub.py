"""The stub (ropescope/__init__.pyi) that editors complete keywords from, against the option
table the functions pass keywords to: every option a function accepts is in its stub, and the
stub names no keyword the function would refuse. The docstrings carry the table's ranges."""

import ast
import inspect
import os

import pytest

import ropescope
from ropescope import _help
from ropescope import _ropescope as core

STUB = os.path.join(os.path.dirname(ropescope.__file__), "__init__.pyi")
# function -> (command whose options it takes, options it refuses)
COMMANDS = {"ids": ("ids", ()), "ptd": ("ptd", ()), "bias_spread": ("bias", ()),
            "decay": ("decay", ()), "decay_axes": ("decay", ("axis", "direction")),
            "freqs": ("freqs", ()), "grid": ("grid", ()), "attention": ("attention", ("readouts",)),
            "attention_readouts": ("attention", ("readouts", "rows", "pool", "causal", "softmax",
                                                 "backend")),
            "rotary": ("rotary", ()), "budget": ("budget", ()),
            "principles": ("principles", ()),
            "pixel_map": ("pixels", ()), "qk_usage": ("qk-usage", ()),
            "scene": ("ids", ()), "compare": ("ptd", ("from", "to")),
            "profile": ("bias", ("from", "to"))}


def stub_functions():
    with open(STUB, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}, \
        {n.name for n in tree.body if isinstance(n, ast.ClassDef)}


def keywords(fn):
    a = fn.args
    return {x.arg for x in a.args + a.kwonlyargs}


def test_the_package_ships_its_stub_and_py_typed():
    assert os.path.isfile(STUB)
    assert os.path.isfile(os.path.join(os.path.dirname(STUB), "py.typed"))


def test_every_public_name_is_in_the_stub():
    functions, classes = stub_functions()
    assert set(ropescope.__all__) <= set(functions) | classes


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_stub_names_every_option_and_no_other_keyword(name):
    functions, _ = stub_functions()
    command, refused = COMMANDS[name]
    table = {_help.keyword(row[0]) for row in core.option_help()[command]
             if row[0] not in _help.COMMAND_LINE_ONLY and row[0] != "param"
             and row[0] not in refused}
    own = set(inspect.signature(getattr(ropescope, name)).parameters) - {"params", "options",
                                                                           "pictures"}
    stub = keywords(functions[name])
    assert table <= stub, f"{name}: missing {sorted(table - stub)}"
    assert stub <= table | own, f"{name}: not accepted {sorted(stub - table - own)}"


def test_docstrings_carry_the_option_table_ranges():
    rows = {row[0]: row for row in core.option_help()["decay"]}
    assert rows["max-distance"][2] in ropescope.decay.__doc__
    assert "max_distance=N" in ropescope.decay.__doc__
    assert "\n    axis=" not in ropescope.decay_axes.__doc__
    # The design parameters with their ranges, for the functions that compute ids.
    circle = next(d for d in ropescope.designs() if d["name"] == "circle")
    alpha = next(p for p in circle["parameters"] if p["key"] == "alpha")
    assert f"alpha  {alpha['range']}, default" in ropescope.ids.__doc__
    assert "\n    out=" not in ropescope.ptd.__doc__ and "\n    format=" not in ropescope.ptd.__doc__
    assert "\n    threads=N" in ropescope.ptd.__doc__
