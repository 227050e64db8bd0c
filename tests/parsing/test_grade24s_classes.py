"""Reader classes of issue 24 found by the independent sets ``fresh24s.yaml`` and
``fresh16.yaml`` (grade24s), each with near cases that must keep their reading:

1. ``There are none.`` is a count of 0;
2. a route in prose that ends "... and drive to the red marker" ends at red;
3. a range answer without a cue that is one sentence with one number is that one value
   (``The darkest shade stands for 100.``: a one-value legend class).
"""

from __future__ import annotations

import pytest
from helpers.parsed import invalid, value

STMF_COUNT = {"task": "stmf", "request": "count", "strata": {"feature_type": "bank"}}
SRN = {"task": "srn", "request": "route"}
RANGE = {"task": "mapwise_range", "request": "range", "provenance": {"country": "usa"}}


@pytest.mark.parametrize("response", ["There are none.", "there is none here"])
def test_there_are_none_is_zero(response: str) -> None:
    assert value(STMF_COUNT, response)["count"] == 0


def test_none_of_a_kind_beside_a_count_is_still_the_count() -> None:
    assert value(STMF_COUNT, "There are 2 banks; there are none elsewhere.")["count"] == 2


@pytest.mark.parametrize("verb", ["drive", "go", "continue", "head"])
def test_a_prose_route_that_drives_to_the_red_marker(verb: str) -> None:
    text = (f"From the blue marker, turn left onto Kalevankatu, then turn right onto "
            f"Annankatu and {verb} to the red marker.")
    assert value(SRN, text)["steps"] == ["blue", "turn left", "Kalevankatu", "turn right",
                                         "Annankatu", "red"]


@pytest.mark.parametrize(("response", "got"), [
    ("The darkest shade stands for 100.", [100.0, 100.0]),
    ("The darkest shade stands for 100 to 200.", [100.0, 200.0]),
    ("My answer is [1.5k - 2k]", [1500.0, 2000.0]),
])
def test_a_range_or_one_value_in_a_sentence(response: str, got: list[float]) -> None:
    assert value(RANGE, response)["range"] == got


@pytest.mark.parametrize("response", [
    "It is 100 or 200.",                              # alternatives
    "Of its 5 classes, the darkest stands for 100.",  # two numbers: which is meant?
    "Probably 100.",                                  # a hedge
])
def test_no_one_value_read_from_these(response: str) -> None:
    assert invalid(RANGE, response)
