"""The examples in cartoqa.visibility's docstrings, as tests mutmut can see.

tests/test_package_doctests.py runs them with ``doctest.testmod``, which finds none in
mutmut's mutated copy (see tests/helpers/doctests.py); these find them there too.
"""

from __future__ import annotations

import pytest
from helpers.doctests import examples, failures

MODULES = ["cartoqa.visibility.icons", "cartoqa.visibility.labels",
           "cartoqa.visibility.road_names", "cartoqa.visibility.screen",
           "cartoqa.visibility.written", "cartoqa.visibility.pixels",
           "cartoqa.visibility.geometry", "cartoqa.visibility.sightings",
           "cartoqa.visibility.oneway"]


@pytest.mark.parametrize("name", MODULES)
def test_visibility_examples(name: str) -> None:
    assert examples(name)
    assert failures(name) == 0


def test_the_examples_of_a_module_are_found() -> None:
    found = {t.name.rsplit(".", 1)[-1] for t in examples("cartoqa.visibility.written")}
    assert {"mark_mask", "label_instances", "written_names"} <= found
