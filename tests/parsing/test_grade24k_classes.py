"""The classes behind grade24k's FRIEDA disagreements (issue 24, session grade24l), each
with hand-written expectations and near cases that must stay as they were (no correction
words, hedges, alternatives, two categories, a colour the question does not key)."""

from __future__ import annotations

from typing import Any

import pytest
from helpers.parsed import invalid, value

from cartoqa.declarations.dispatch import parse_response
from cartoqa.parsing.map_names import category_short_form
from cartoqa.parsing.result import Invalid
from cartoqa.parsing.text import retracts
from cartoqa.parsing.textual import colour_key_name

EQUAL_Q = ("Map 1 outlines Rautatientori in red. Map 2 outlines two areas, A and B, on a turned "
           "map, perhaps at another scale. Which of them covers exactly the same ground as "
           "Rautatientori? Answer A or B.")
EQUAL = {"task": "frieda_equal", "request": "textual", "question": EQUAL_Q}
MFS = {"task": "mfs", "request": "choice", "options": {"A": "cinema", "B": "palace", "C": "castle",
                                  "D": "waste disposal", "E": "fortress"}}
BINARY = {"task": "mapiq_se", "request": "binary"}


def frieda(task: str, question: str, legend: list[str]) -> dict[str, Any]:
    return {"task": task, "request": "textual", "question": question,
            "provenance": {"maps": [{"features": [{"label": n} for n in legend]}]}}


LAND_Q = ("One map outlines Pääskynen alone in red; another shows the same place shaded by land "
          "use, with a legend box naming each fill. Which category does the legend give that "
          "area? Answer with the category's name as the legend writes it.")
LAND_LEGEND = ["Pääskynen", "Kappeli", "commercial land", "residential land", "grass",
               "industrial and works land", "residential building", "commercial building"]
LAND = frieda("frieda_equal", LAND_Q, LAND_LEGEND)
WITHIN_CAT = frieda("frieda_within", "Map 2 shades areas by land use. Within an area of which "
                    "category does Roasberg lie? Answer with the category's name as the legend "
                    "writes it.", ["Roasberg", "commercial land", "education grounds", "grass"])
DOTS_Q = ("The map shades areas by land use. Which of Bik Bok (blue dot), Pihlajalinna (purple "
          "dot) and Vepsäläinen (orange dot) lies within an area shown as commercial land? "
          "Answer with its name.")
DOTS = frieda("frieda_within", DOTS_Q, ["Bik Bok", "Pihlajalinna", "Vepsäläinen",
                                         "commercial land", "grass"])


# 1. a second answer after a correction phrase wins -----------------------------------
@pytest.mark.parametrize("text", [
    "Answer: A\n\nOn a second look, A is too wide; the match is B.\nAnswer: B",
    "Answer: A\nOn second thought, A is too wide.\nAnswer: B",
    "Answer: A\nOn second thoughts the outline fits B.\nAnswer: B",
    "Answer: A\nLooking again, A is too wide.\nAnswer: B",
    "Answer: A\nLooking at it again, A is too wide.\nAnswer: B",
    "Answer: A\nActually, A is too wide.\nAnswer: B",
    "Answer: A\nAt a second glance A is too wide.\nAnswer: B",
    "Answer: A\nTaking a closer look, the match is B.\nAnswer: B",
    "Answer: A\nUpon closer inspection A is too wide.\nAnswer: B",
    "Answer: A\nAfter another look, B fits.\nFinal answer: B",
])
def test_correction_phrase_then_answer(text: str) -> None:
    assert value(EQUAL, text) == {"names": ["B"]}


def test_correction_phrase_in_other_suites() -> None:
    assert value(MFS, "Answer: B\nOn a second look the dome is a castle's.\nAnswer: C") == {
        "letter": "C"}
    assert value(BINARY, "My answer is [FALSE]\nOn a closer look DC is dark red.\n"
                         "My answer is [TRUE]") == {"value": True}


@pytest.mark.parametrize("text", [
    "Answer: A\nA is too wide; the match is B.\nAnswer: B",          # no correction words
    "Answer: A\nA second map shows the look of B.\nAnswer: B",       # "second", "look" apart
    "Answer: A\nOn a second look, A is too wide.\nAnswer: A or B",   # the correction offers two
    "Answer: A\nOn a second look, A is too wide.\nAnswer: maybe B",  # the correction hedges
])
def test_correction_phrase_near_misses_stay_invalid(text: str) -> None:
    assert invalid(EQUAL, text)


def test_retracts_phrases() -> None:
    assert retracts("On a second look, A is too wide")
    assert retracts("Having a second look, ...")
    assert not retracts("A second map shows the look of B.")
    assert not retracts("Look at the second map.")


# 2. a short legend category ----------------------------------------------------------
@pytest.mark.parametrize(("text", "name"), [
    ("residential", "residential land"),          # land use asked: not residential building
    ("Answer: Residential", "residential land"),
    ("Answer: commercial", "commercial land"),
    ("It is commercial.", "commercial land"),
    ("Answer: industrial", "industrial and works land"),
    ("Answer: residential land", "residential land"),   # the full label, unchanged
    ("Answer: residential building", "residential building"),
    ("Answer: grass", "grass"),
])
def test_short_category_reads_the_one_label(text: str, name: str) -> None:
    assert [n.casefold() for n in value(LAND, text)["names"]] == [name]


def test_short_category_within() -> None:
    assert value(WITHIN_CAT, "Answer: commercial") == {"names": ["commercial land"]}
    assert value(WITHIN_CAT, "education") == {"names": ["education grounds"]}


def test_two_categories_fit_is_invalid() -> None:
    # the question names no use: residential land and residential building both fit
    item = frieda("frieda_equal", "Which category does the legend give that area? Answer "
                  "with the category's name.", LAND_LEGEND)
    r = parse_response(item, "Answer: residential")
    assert isinstance(r, Invalid) and "several of the legend's" in r.reason
    assert value(item, "Answer: grass") == {"names": ["grass"]}


@pytest.mark.parametrize("text", [
    "Answer: residential or commercial",   # alternatives
    "Answer: maybe residential",           # hedge
])
def test_short_category_near_misses_stay_invalid(text: str) -> None:
    assert invalid(LAND, text)


def test_short_category_needs_a_category_question_and_whole_words() -> None:
    known = {"residential land", "kaisaniemen ala-aste", "commercial land"}
    assert category_short_form("resid", known, LAND_Q) == []          # no cut words
    assert category_short_form("Kaisaniemen", known, "Which feature lies within X? "
                               "Answer with its name.") == []        # no category asked
    assert category_short_form("commercial", known, "Which feature ...?") == []
    assert value(DOTS, "Answer: Bik") == {"names": ["Bik"]}           # features: as written


# 3. a marker's colour the question keys to one name ----------------------------------
@pytest.mark.parametrize(("text", "name"), [
    ("The blue dot.", "bik bok"),
    ("Answer: the purple dot", "pihlajalinna"),
    ("It's the orange dot.", "vepsalainen"),
    ("Answer: Bik Bok", "Bik Bok"),
])
def test_colour_key_reads_the_name(text: str, name: str) -> None:
    assert value(DOTS, text) == {"names": [name]}


@pytest.mark.parametrize("text", [
    "The blue dot or the purple dot.",   # alternatives
    "Maybe the blue dot.",               # hedge
])
def test_colour_key_near_misses_stay_invalid(text: str) -> None:
    assert invalid(DOTS, text)


def test_colour_key_needs_one_keyed_name() -> None:
    names = {"bik bok", "pihlajalinna", "vepsalainen"}
    assert colour_key_name("The green dot.", DOTS_Q, names) is None      # not in the question
    assert colour_key_name("blue", DOTS_Q, names) is None                # no marker word
    assert colour_key_name("The blue dot is Bik Bok.", DOTS_Q, names) is None  # not only it
    twice = "Which of A (blue dot) and B (blue dot) ...?"
    assert colour_key_name("The blue dot.", twice, {"a", "b"}) is None   # two keyed names
    assert colour_key_name("The blue dot.", DOTS_Q, set()) is None       # no legend
    assert value(DOTS, "The green dot.") == {"names": ["The green dot"]}  # kept: wrong


# 4. a qualifier after a firm direction stays a hedge (decision) -----------------------
def test_direction_with_maybe_qualifier_stays_invalid() -> None:
    item = {"task": "frieda_orientation", "request": "cardinal",
            "question": "In which direction is Ooster from Feel Vegas?"}
    r = parse_response(item, "It is located to the south of Feel Vegas, maybe a little west.")
    assert isinstance(r, Invalid) and "maybe" in r.reason
    assert value(item, "It is located to the south of Feel Vegas.") is not None
