"""The examples in the metrics' docstrings, as tests mutmut can see (issue 33).

tests/test_package_doctests.py runs them with ``doctest.testmod``, which finds none in
mutmut's mutated copy (see tests/helpers/doctests.py); these find them there too.
"""

from __future__ import annotations

import pytest
from helpers.doctests import examples, failures

MODULES = ["cartoqa.metrics.classification", "cartoqa.metrics.frieda",
           "cartoqa.metrics.mapwise",
           "cartoqa.metrics.regression", "cartoqa.metrics.routes", "cartoqa.metrics.sets"]


@pytest.mark.parametrize("name", MODULES)
def test_metric_examples(name: str) -> None:
    assert examples(name)
    assert failures(name) == 0
