"""grade24g's smaller classes (issue 24, grade24h): a later ``the answer is N`` after
correction words (E), a dash after ``%`` in a range (H), ``[T]``/``[F]`` (I), a FRIEDA bare
number in the unit the question asks (M), ``north-up`` describing the map (N).
Hand-written expectations, with the near cases that must stay invalid."""

from __future__ import annotations

from typing import Any

import pytest

from cartoqa.declarations.dispatch import parse_response
from cartoqa.parsing.cardinal import parse_cardinal
from cartoqa.parsing.kinds import parse_yes_no_value
from cartoqa.parsing.numbers import METRES_PER_UNIT

COUNT = {"task": "stmf", "request": "count", "strata": {"feature_type": "parking"}}


@pytest.mark.parametrize(("text", "expected"), [
    ("Answer: 2\n\nOn closer inspection the second P is a bicycle parking. So the answer is 1.", 1),
    ("Answer: 3\nWait, I counted one twice, so the answer is 2.", 2),
    # no correction words between: the cued answer stands
    ("Answer: 2\nThe answer is 2 because both icons are parking.", 2),
])
def test_later_answer_phrase_after_a_correction(text: str, expected: int) -> None:
    assert parse_response(COUNT, text).value == {"count": expected}


def test_a_hedged_correction_is_a_hedge() -> None:
    text = "Answer: 2\nOn closer inspection, maybe the answer is 1."
    assert not parse_response(COUNT, text).valid


MAPIQ_SINGLE = {"task": "mapiq_rv", "request": "single", "options": None,
                "provenance": {"classification": {"labels": ["17.9–20.3", "20.8–23.3"]}},
                "answer": {"text": "17.9–20.3"}}


@pytest.mark.parametrize(("text", "numbers"), [
    ("My answer is [17.9%–20.3%]", [17.9, 20.3]),
    ("My answer is [17.9% - 20.3%]", [17.9, 20.3]),
])
def test_dash_after_a_unit_is_a_range_dash(text: str, numbers: list[float]) -> None:
    got = parse_response(MAPIQ_SINGLE, text)
    assert got.valid and [float(x) for x in got.value["numbers"]] == numbers, got


def test_negative_numbers_stay_negative() -> None:
    got = parse_response(MAPIQ_SINGLE, "My answer is [-3.2 - -1.0]")
    assert got.valid and [float(x) for x in got.value["numbers"]] == [-3.2, -1.0]


@pytest.mark.parametrize(("text", "value"), [
    ("My answer is [T]", True), ("My answer is [F]", False), ("[t]", True),
])
def test_true_false_letters_in_brackets(text: str, value: bool) -> None:
    assert parse_yes_no_value(text).value == {"value": value}


@pytest.mark.parametrize("text", ["[T] or [F]", "maybe [T]", "My answer is [T]? Not sure."])
def test_true_false_letters_keep_hedges(text: str) -> None:
    assert not parse_yes_no_value(text).valid


def frieda_distance(question: str, answer: dict[str, Any] | None = None) -> dict[str, Any]:
    item: dict[str, Any] = {"task": "frieda_distance", "request": "distance",
                            "question": question}
    if answer is not None:
        item["answer"] = answer
    return item


def test_bare_distance_in_the_unit_asked() -> None:
    miles = frieda_distance("How far apart are A and B? Answer in miles, the scale bar's unit.")
    got = parse_response(miles, "Answer: 0.3")
    assert got.value["value"] == pytest.approx(0.3) and got.value["unit"] == "mi"
    # a unit written wins over the unit asked
    got = parse_response(miles, "Answer: 480 m")
    assert got.value["value"] * METRES_PER_UNIT[got.value["unit"]] == pytest.approx(480)
    feet = frieda_distance("How far apart are A and B?", {"type": "distance", "unit": "ft"})
    assert parse_response(feet, "Answer: 1300").value["unit"] == "ft"
    assert parse_response(frieda_distance("How far?"), "Answer: 40").value["unit"] == "m"
    # still a range is no distance
    assert not parse_response(miles, "Answer: 0.2-0.3").valid


@pytest.mark.parametrize(("text", "direction"), [
    ("The place is south-west of the shop, i.e. down and left once the map is turned "
     "north-up.", "south-west"),
    ("With the north arrow pointing up, the dot lies to the east.", "east"),
    ("The compass rose points north; the dot is west of the park.", "west"),
])
def test_directions_that_describe_the_map_are_no_answer(text: str, direction: str) -> None:
    assert parse_cardinal(text).value == {"direction": direction}


def test_two_answer_directions_stay_invalid() -> None:
    assert not parse_cardinal("It is north or north-east of the park.").valid
    assert not parse_cardinal("The dot is north of the park and east of the school.").valid
