"""Fixtures of the task tests that several modules read."""

from __future__ import annotations

from typing import Any

import pytest

from groundtruth.named_features import NamedFeature, load_named_features
from groundtruth.relation_pairs import topological_pairs


# Read once per module that asks (a pure function of the bundled extract; no test
# changes them).
@pytest.fixture(scope="module")
def feats() -> list[NamedFeature]:
    """Helsinki's named features (FRIEDA's subjects)."""
    return load_named_features("helsinki")


@pytest.fixture(scope="module")
def pairs(feats: list[NamedFeature]) -> list[Any]:
    """Helsinki's topological pairs, disjoint ones included."""
    return topological_pairs(feats, include_disjoint=True)
