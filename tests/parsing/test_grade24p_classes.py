"""Reader classes of issue 24 found by the independent sets ``fresh13.yaml`` and
``fresh24p.yaml`` (grade24p), each with near cases that must keep their reading:

1. a count stated before the things it counts, listed after a colon ("The legend shows
   4 classes: 8.5–10.8, 11–12.9, 13.3–15.2 and 16.2–21.9.") is that count, when exactly
   that many are listed; the listed numbers are no counts;
2. a sentence led by "only" names the answer before its verb, whatever the verb ("Only
   Maharashtra is in a higher class than Gujarat.");
3. a route step that names a marker and the way it faces ("Start at blue, facing north")
   is the marker;
4. words that take an answer back include re-measuring and under-/over-estimating
   ("Hmm, re-measuring the second leg, it is longer than I thought.").
"""

from __future__ import annotations

import pytest
from helpers.parsed import invalid, value

from cartoqa.parsing import Parsed
from cartoqa.parsing.mapwise import parse_region_list
from cartoqa.parsing.numbers import parse_count

COUNT = {"task": "mapwise_count", "request": "count", "provenance": {"country": "usa"}}
RLE = {"task": "rle", "request": "length", "answer": {"value": 1.0, "unit": "m"}}
SRN = {"task": "srn", "request": "route"}


@pytest.mark.parametrize(("response", "count"), [
    ("The legend shows 4 classes: 8.5–10.8, 11–12.9, 13.3–15.2 and 16.2–21.9.", 4),
    ("There are 3 classes: 0–10, 10–20, 20–30.", 3),
    ("I see two classes: 1k-2k and 2k-5k", 2),
    ("There are 3 states: Texas, Ohio and Iowa.", 3),
])
def test_a_count_then_what_it_counts(response: str, count: int) -> None:
    assert value(COUNT, response)["count"] == count


@pytest.mark.parametrize("response", [
    "4 classes: 1-2, 3-4",            # four announced, two listed: no count stated
    "Either 3 or 4.",                 # alternatives stay invalid
    "The legend shows classes 8.5–10.8 and 11–12.9.",  # no count stated, two ranges
])
def test_no_count_when_the_list_does_not_match(response: str) -> None:
    assert invalid(COUNT, response)


def test_a_plain_count_sentence_is_unchanged() -> None:
    assert parse_count("The legend shows 4 classes.").value == {"count": 4}


@pytest.mark.parametrize(("response", "items"), [
    ("Only Maharashtra is in a higher class than Gujarat.", ["MH"]),
    ("Only Goa and Kerala lie above it.", ["GA", "KL"]),
    ("Looking at it, only Goa is darker.", ["GA"]),
])
def test_only_then_any_verb(response: str, items: list[str]) -> None:
    got = parse_region_list({"provenance": {"country": "india"}}, response)
    assert isinstance(got, Parsed) and got.value["items"] == items, got


def test_only_with_no_region_names_no_list() -> None:
    got = parse_region_list({"provenance": {"country": "india"}}, "Only a few are darker.")
    assert not isinstance(got, Parsed)


@pytest.mark.parametrize("first", ["Start at blue, facing north.", "Start at the blue marker "
                                   "heading south-east.", "Begin at blue facing due west."])
def test_a_marker_step_with_its_facing(first: str) -> None:
    response = f"1. {first}\n2. Turn left onto Lönnrotinkatu.\n3. Arrive at red."
    assert value(SRN, response)["steps"] == ["blue", "turn left", "Lönnrotinkatu", "red"]


def test_facing_alone_is_no_marker() -> None:
    steps = value(SRN, "blue, turn left onto Mikonkatu, red")["steps"]
    assert steps == ["blue", "turn left", "Mikonkatu", "red"]
    assert "facing" not in " ".join(value(SRN, "1. blue\n2. turn left onto A\n3. red")["steps"])


@pytest.mark.parametrize("between", [
    "Hmm, re-measuring the second leg, it is longer than I thought.",
    "I underestimated the curve near the park.",
    "Let me recalculate: the first leg is longer.",
    "I miscounted the segments.",
])
def test_a_retraction_between_two_answers_takes_the_second(between: str) -> None:
    assert value(RLE, f"Answer: 250 m\n\n{between}\nAnswer: 300 m")["value"] == 300.0


def test_two_answers_with_plain_words_between_stay_invalid() -> None:
    assert invalid(RLE, "Answer: 250 m\n\nThe second leg is longer than the first.\n"
                        "Answer: 300 m")
