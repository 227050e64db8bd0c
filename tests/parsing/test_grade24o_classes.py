"""Reader classes of issue 24 found by the independent set ``fresh12.yaml`` (grade24o),
each with near cases that must keep their reading:

1. a legend category written with its last word in the English plural ("commercial
   buildings") is the legend's name ("commercial building") when exactly one name fits;
2. an answer stated in a sentence led by "only"/"just" ("..., only Maine has a value
   above 1.25k.") names its subject, for lists and single regions alike.
"""

from __future__ import annotations

import pytest
from helpers.parsed import value

from cartoqa.parsing import Invalid, Parsed
from cartoqa.parsing.map_names import snap_to_map
from cartoqa.parsing.mapwise import parse_region, parse_region_list

LEGEND = ["Forum", "commercial building", "public building", "residential building",
          "cemetery", "church", "grass"]
CATEGORY_Q = ("Map 1 outlines Forum in red. Map 2 shades buildings by use: its legend box "
              "names each fill. Which category does the legend give that area? Answer with "
              "the category's name as the legend writes it.")


def _frieda(answer_legend: list[str]) -> dict:
    return {"task": "frieda_equal", "request": "textual", "question": CATEGORY_Q,
            "provenance": {"maps": [{"features": [{"label": answer_legend[0]}],
                                     "legend_categories": answer_legend[1:]}]}}


@pytest.mark.parametrize(("response", "names"), [
    ("Answer: commercial buildings", ["commercial building"]),
    ("Final answer: Public Buildings", ["public building"]),
    ("Answer: cemeteries", ["cemetery"]),
    ("Answer: churches", ["church"]),
    # near cases: the singular as written, and a plural no single legend name fits
    ("Answer: commercial building", ["commercial building"]),
    ("Answer: grass", ["grass"]),
])
def test_plural_legend_names_read_as_the_legend_writes_them(response: str,
                                                            names: list[str]) -> None:
    assert value(_frieda(LEGEND), response)["names"] == names


def test_a_plural_that_fits_two_legend_names_is_left_as_written() -> None:
    # "buses" is the plural of both "bus" and "buse": no one name, left as written
    assert snap_to_map("buses", {"bus", "buse"}) == "buses"
    assert snap_to_map("buses", {"bus", "park"}) == "bus"
    assert snap_to_map("buildings", {"building", "buildings"}) == "buildings"  # written as is


def test_a_plural_needs_the_other_words_equal() -> None:
    known = {"commercial building", "public building"}
    assert snap_to_map("commercial buildings", known) == "commercial building"
    assert snap_to_map("private buildings", known) == "private buildings"
    assert snap_to_map("commercial lands", known) == "commercial lands"


USA = {"provenance": {"country": "usa"}}


@pytest.mark.parametrize(("response", "items"), [
    ("Among the states bordering Canada, only Maine has a value above 1.25k.", ["ME"]),
    ("Only Maine and Vermont have values above 1.25k.", ["ME", "VT"]),
    ("Looking at the legend, just Texas shows the darkest shade.", ["TX"]),
    # near case without "only": read as before
    ("Maine has a value above 1.25k.", ["ME"]),
])
def test_only_before_the_subject_is_no_part_of_the_list(response: str,
                                                        items: list[str]) -> None:
    got = parse_region_list(USA, response)
    assert isinstance(got, Parsed) and got.value["items"] == items, got


def test_only_with_no_region_after_it_is_still_no_answer() -> None:
    got = parse_region_list(USA, "Only a few states have data.")
    assert isinstance(got, Invalid) and got.reason == "no list", got
    one = parse_region(USA, "Of the four, only Ohio has the darker shade.")
    assert isinstance(one, Parsed) and one.value["regions"] == ["OH"], one
