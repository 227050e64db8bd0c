"""SRN connectivity in a real road graph (the hand-made grid.osm) through groundtruth."""

from __future__ import annotations

from typing import Any

import pytest
from scoring_data import GRID, make_items

from cartoqa.scoring import RoadGraphChecker, groundtruth_checker, marker_nodes


@pytest.fixture(scope="module")
def checker() -> RoadGraphChecker:
    return RoadGraphChecker(extracts={"grid.osm": str(GRID)})


@pytest.fixture
def item_11_33() -> dict[str, Any]:
    return next(it for it in make_items() if it["id"] == "srn-0001")


def test_marker_nodes(item_11_33: dict[str, Any]) -> None:
    assert marker_nodes(item_11_33) == (11, 33)
    assert marker_nodes({"provenance": {"route_nodes": [5, 6, 7]}}) == (5, 7)
    assert marker_nodes({"provenance": {}}) is None


@pytest.mark.parametrize(
    ("steps", "connected"),
    [
        # the true route: north on West Avenue, right onto North Street
        (["blue", "continue straight", "West Avenue", "turn right", "North Street", "red"], True),
        # names written differently still name the graph's roads
        (["blue", "continue straight", "west ave", "turn right", "NORTH ST", "red"], True),
        # another connected route: east on South Street, left up East Avenue
        (["blue", "turn right", "South Street", "turn left", "East Avenue", "red"], True),
        # South Street does not leave 11 to the left
        (["blue", "turn left", "South Street", "red"], False),
        # truncated: West Avenue alone never reaches 33
        (["blue", "continue straight", "West Avenue", "red"], False),
        (["blue", "continue straight", "Nowhere Road", "red"], False),
    ],
)
def test_real_graph(checker: RoadGraphChecker, item_11_33: dict[str, Any],
                    steps: list[str], connected: bool) -> None:
    assert checker(item_11_33, steps) is connected


def test_checksum_mismatch_or_missing_extract_is_unchecked(item_11_33: dict[str, Any]) -> None:
    item = {**item_11_33, "provenance": {**item_11_33["provenance"], "extract_sha256": "0" * 64}}
    checker = RoadGraphChecker(extracts={"grid.osm": str(GRID)})
    assert checker(item, item["answer"]["steps"]) is None
    assert any("sha256" in p for p in checker.problems.values())
    lost = {**item_11_33, "provenance": {**item_11_33["provenance"], "extract": "lost.osm",
                                         "extract_sha256": ""}}
    assert checker(lost, lost["answer"]["steps"]) is None
    assert any("cannot load" in p for p in checker.problems.values())


def test_groundtruth_checker_is_available() -> None:
    found, note = groundtruth_checker()
    assert found is not None and note is None
