"""FRIEDA name answers, the classes grade24m's independent set found (issue 24):
a legend name that holds "or", and a description after a name.

Left: a list that holds such a name beside others ("commercial land, industrial or works
land") is still read as alternatives by the list reader; builds since frieda27e name their
categories with "and" ("park and garden"), which the map-name rule keeps whole."""

from __future__ import annotations

import pytest

from cartoqa.parsing import Invalid, Parsed
from cartoqa.parsing.textual import parse_textual

LEGEND = frozenset({"park or garden", "industrial or works land", "commercial land",
                    "kaivokatu", "kompassitaso"})
QUESTION = "Which feature borders Kompassitaso?"


@pytest.mark.parametrize("text", ["Answer: park or garden", "park or garden.",
                                  "**park or garden**", 'Answer: "park or garden"',
                                  "Final answer: Park or Garden"])
def test_a_whole_answer_the_legend_writes_is_one_name(text):
    found = parse_textual(text, question="Which category lies within X?", map_names=LEGEND)
    assert isinstance(found, Parsed)
    assert [n.casefold() for n in found.value["names"]] == ["park or garden"]


@pytest.mark.parametrize("text", ["Answer: park or commercial land",
                                  "Answer: maybe park or garden",
                                  "Answer: garden or park"])
def test_alternatives_the_legend_does_not_write_stay_invalid(text):
    found = parse_textual(text, question="Which category lies within X?", map_names=LEGEND)
    assert isinstance(found, Invalid)


def test_without_the_legend_an_or_is_still_a_choice():
    assert isinstance(parse_textual("Answer: park or garden"), Invalid)


@pytest.mark.parametrize("text", [
    "Kompassitaso is bordered by Kaivokatu, the street running along its south side.",
    "Answer: Kaivokatu, the street along its south side",
    "Answer: Kaivokatu, which runs along the south edge",
    "Answer: Kaivokatu, a busy street",
])
def test_a_description_after_a_name_is_not_a_second_name(text):
    found = parse_textual(text, question=QUESTION, map_names=LEGEND)
    assert isinstance(found, Parsed)
    assert found.value["names"] == ["Kaivokatu"]


@pytest.mark.parametrize(("text", "names"), [
    ("Answer: Kaivokatu, Kompassitaso", ["Kaivokatu", "Kompassitaso"]),
    ("Answer: Kaivokatu, the Esplanade", ["Kaivokatu", "the Esplanade"]),
])
def test_names_after_a_comma_stay_names(text, names):
    found = parse_textual(text, question=QUESTION, map_names=LEGEND)
    assert isinstance(found, Parsed)
    assert found.value["names"] == names
