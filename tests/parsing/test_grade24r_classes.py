"""Reader classes of issue 24 found by the independent sets ``fresh24r.yaml`` and
``fresh15.yaml`` (grade24r), each with near cases that must keep their reading:

1. a short answer saying the feature carries no name ("there is no name label next to
   it, so there are no names to give") is the empty name list;
2. a region after "is on" / "is in", with a clause after ", so ..." explaining it, is
   the answer ("The darkest shade is on Indiana, so that region has the highest value.");
3. "only"/"just" before the regions or zones named is no part of them ("Only South.").
"""

from __future__ import annotations

import pytest
from helpers.parsed import invalid, value

from cartoqa.parsing import Parsed
from cartoqa.parsing.lists import parse_names
from cartoqa.parsing.mapwise import parse_region

USA = {"provenance": {"country": "usa"}}
ZONES = {"task": "mapiq_rc", "request": "list",
         "provenance": {"classification": {"labels": ["17.9–20.3", "20.8–23.3"]}},
         "answer": {"text": "x"}}


@pytest.mark.parametrize("response", [
    "I see the coffee shop icon but there is no name label next to it, so there are no "
    "names to give.",
    "The cafe is unlabelled.",
    "The pharmacy has no visible name.",
])
def test_no_name_said_in_a_sentence_is_the_empty_list(response: str) -> None:
    got = parse_names(response)
    assert isinstance(got, Parsed) and got.value == {"names": []}, got


def test_a_hedged_no_name_stays_invalid_and_a_name_stays_a_name() -> None:
    assert not isinstance(parse_names("Maybe it has no name."), Parsed)
    assert parse_names("Café Engel").value == {"names": ["Café Engel"]}


@pytest.mark.parametrize(("response", "code"), [
    ("The darkest shade is on Indiana, so that region has the highest value.", "IN"),
    ("The darkest shade is on Indiana.", "IN"),
    ("The highest value is in Ohio, which is the darkest.", "OH"),
    ("The highest value is found in Texas.", "TX"),
])
def test_a_region_after_is_on_or_in(response: str, code: str) -> None:
    got = parse_region(USA, response)
    assert isinstance(got, Parsed) and got.value["regions"] == [code], got


@pytest.mark.parametrize(("response", "zones"), [
    ("Only South.", ["South"]),
    ("Only the South.", ["South"]),
    ("Just South and West", ["South", "West"]),
    ("South and West.", ["South", "West"]),
])
def test_only_before_zones(response: str, zones: list[str]) -> None:
    assert value(ZONES, response)["items"] == zones


def test_only_before_nothing_is_no_answer() -> None:
    assert invalid(ZONES, "Only.")


def test_a_name_with_no_name_in_it_is_a_name() -> None:
    assert parse_names("No Name Bar").value == {"names": ["No Name Bar"]}


def test_a_list_then_a_feature_without_a_name_keeps_the_list() -> None:
    text = ("I can read two labels:\n\n- Café Regatta\n- Kappeli\n\n"
            "A third café icon near the edge has no visible label.")
    assert parse_names(text).value == {"names": ["Café Regatta", "Kappeli"]}
