"""The examples in the acceptance rules' docstrings, as tests mutmut can see.

tests/test_package_doctests.py runs them with ``doctest.testmod``, which finds none in
mutmut's mutated copy (see tests/helpers/doctests.py); these find them there too.
"""

from __future__ import annotations

import pytest
from helpers.doctests import examples, failures

MODULES = ["cartoqa.tasks.common.rules", "cartoqa.tasks.cartomapqa.mml_rules",
           "cartoqa.tasks.cartomapqa.rle_rules", "cartoqa.tasks.cartomapqa.srn_rules"]


@pytest.mark.parametrize("name", MODULES)
def test_rule_examples(name: str) -> None:
    assert examples(name)
    assert failures(name) == 0
