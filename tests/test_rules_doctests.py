"""The examples in the docstrings of the rules (position, plies, bitboards), records, rendering and
benchmark modules run."""

import doctest

import pytest

from firmware_py import bitboards, ply, records, render, rules
from firmware_py.tools import bench_rules


@pytest.mark.parametrize("module", [rules, ply, bitboards, records, render, bench_rules])
def test_docstring_examples(module):
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failed == 0
