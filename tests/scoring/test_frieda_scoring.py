"""FRIEDA's scoring rules with hand-computed cases: distance, cardinal, textual, strata."""

from __future__ import annotations

import pytest

from cartoqa.metrics.frieda import (
    accuracy_by_stratum,
    cardinal_correct,
    distance_correct,
    frieda_correct,
    parse_frieda,
    textual_correct,
)
from cartoqa.parsing.cardinal import canonical_direction, parse_cardinal


@pytest.mark.parametrize(
    ("truth", "pred", "ok"),
    [
        (500.0, 400.0, True),  # -20%: the edge is correct
        (500.0, 600.0, True),  # +20%
        (500.0, 399.9, False),
        (500.0, 600.1, False),
        (500.0, 500.0, True),
    ],
)
def test_distance_tolerance(truth: float, pred: float, ok: bool) -> None:
    assert distance_correct(truth, pred) is ok


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("Answer: 0.5 km", True),  # 500 m
        ("about 1,640 ft", True),  # 1640 * 0.3048 = 499.87 m
        ("Answer: 0.31 mi", True),  # 0.31 * 1609.344 = 498.9 m
        ("0.25 miles", True),  # 0.25 * 1609.344 = 402.336 m: -19.5%
        ("Answer: 1312 ft", False),  # 1312 * 0.3048 = 399.898 m: -20.02%
        ("650 m", False),  # +30%
        ("I cannot tell", False),  # nothing parsed: wrong, never guessed
    ],
)
def test_distance_answers_with_units(text: str, ok: bool) -> None:
    answer = {"type": "distance", "meters": 500.0}
    assert frieda_correct(answer, parse_frieda(answer, text)) is ok


@pytest.mark.parametrize(
    ("truth", "pred", "ok"),
    [
        ("north", "north", True),
        ("north", "north-east", True),
        ("north", "north-west", True),  # the neighbour across 0 degrees
        ("north", "east", False),
        ("north", "south", False),
        ("south-west", "west", True),
        ("south-west", "south", True),
        ("south-west", "north-west", False),
    ],
)
def test_cardinal_neighbours(truth: str, pred: str, ok: bool) -> None:
    assert cardinal_correct(truth, pred) is ok


@pytest.mark.parametrize(
    ("text", "direction"),
    [
        ("NE", "north-east"),
        ("The cafe lies north east of the town hall.", "north-east"),
        ("Northwest.", "north-west"),
        ("It is to the south-western side", "south-west"),
        ("Using the compass (N points left), the answer is: E", "east"),
        ("Answer: S.W.", "south-west"),
    ],
)
def test_parse_cardinal(text: str, direction: str) -> None:
    result = parse_cardinal(text)
    assert result.valid and result.value == {"direction": direction}


@pytest.mark.parametrize("text", ["", "somewhere near", "north or south", "up and to the left"])
def test_parse_cardinal_invalid(text: str) -> None:
    assert not parse_cardinal(text).valid


def test_canonical_direction() -> None:
    assert canonical_direction("north-east") == canonical_direction("NE") == "north-east"
    assert canonical_direction("Southeast") == "south-east"
    assert canonical_direction("nowhere") is None


def test_cardinal_answers() -> None:
    answer = {"type": "cardinal", "direction": "east"}
    assert frieda_correct(answer, parse_frieda(answer, "Answer: north-east"))
    assert not frieda_correct(answer, parse_frieda(answer, "Answer: north"))


def test_textual_answers() -> None:
    answer = {"type": "textual", "names": ["Esplanadinpuisto", "Kasarmitori"]}
    assert frieda_correct(answer, parse_frieda(answer, "Answer: kasarmitori; ESPLANADINPUISTO"))
    assert not frieda_correct(answer, parse_frieda(answer, "Answer: Kasarmitori"))
    assert textual_correct(["Lönnrotinkatu"], ["Lonnrotinkatu"])
    yes = {"type": "textual", "yes": True}
    assert frieda_correct(yes, parse_frieda(yes, "Yes, they share a boundary."))
    assert not frieda_correct(yes, parse_frieda(yes, "No."))


def test_accuracy_by_stratum_hand_counted() -> None:
    rows = [
        ("border", "single", "direct", "textual", True),
        ("border", "multi", "contextual", "textual", False),
        ("distance", "single", "direct", "distance", True),
        ("orientation", "multi", "contextual", "cardinal", True),
    ]
    acc = accuracy_by_stratum(
        {"relation": r, "maps": m, "setting": s, "type": t, "correct": c}
        for r, m, s, t, c in rows
    )
    assert acc["overall"] == {"all": 0.75}
    assert acc["relation"] == {"border": 0.5, "distance": 1.0, "orientation": 1.0}
    assert acc["maps"] == {"multi": 0.5, "single": 1.0}
    assert acc["setting"] == {"contextual": 0.5, "direct": 1.0}
    assert acc["type"] == {"cardinal": 1.0, "distance": 1.0, "textual": 0.5}


def test_distance_in_the_map_unit() -> None:
    """A distance asked in the scale bar's unit: a bare number is read in it, a number
    with a unit is converted; the truth stays in metres (issue 27)."""
    from cartoqa.metrics.frieda import frieda_correct, parse_frieda

    for unit, bare, wrong in (("ft", "1300", "400"), ("mi", "0.25", "400"),
                              ("km", "0.4", "400"), ("m", "400", "0.4")):
        a = {"type": "distance", "meters": 400.0, "unit": unit}
        assert frieda_correct(a, parse_frieda(a, f"Answer: {bare}")), unit
        assert not frieda_correct(a, parse_frieda(a, f"Answer: {wrong}")), unit
        assert frieda_correct(a, parse_frieda(a, "Answer: 0.4 km"))
        assert frieda_correct(a, parse_frieda(a, "Answer: 1312 ft"))
