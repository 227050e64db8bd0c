"""Reader classes of the registered final round of issue 24 (grade24zm, zn, zo, zp), fixed
by fix24zv, each with near cases that must keep their reading:

2. a response cut off at an empty first list marker after a colon ("... starting from the
   top left:\\n\\n1."): no answer, not the name/road/count "1" (STMF names, MML roads,
   FRIEDA names, every count reader); a list that has begun, a cued "1" and a count said
   on its own line keep their readings;
4. reasoning cut off after the verb of a sentence whose subject starts with "the"/"my"
   ("... which of the 3 features are inside the block. The first feature is"): no answer,
   not the question's number (every count reader, names); "Yes, it is", "The answer is 3"
   and a cued answer keep their readings.
"""

from __future__ import annotations

import pytest
from helpers.parsed import invalid, mtmf_item, stmf_names_item, value

STMF_NAMES = stmf_names_item("restaurant")
STMF_COUNT = {"task": "stmf", "request": "count", "strata": {"feature_type": "restaurant"}}
MML = {"task": "mml", "request": "roads"}
FRIEDA_NAMES = {"task": "frieda_border", "request": "textual"}
FRIEDA_COUNT = {"task": "frieda_within", "request": "count",
                "question": "How many of these 3 features lie entirely within Paratiisilintu?"}
MW_COUNT = {"task": "mapwise_count", "request": "count", "provenance": {"country": "usa"}}
MAPIQ_COUNT = {"task": "mapiq_count", "request": "count"}


# ------------------------------------------- 2. cut off at an empty first list marker
@pytest.mark.parametrize("item", [STMF_NAMES, MML, FRIEDA_NAMES, STMF_COUNT, FRIEDA_COUNT,
                                  MW_COUNT])
@pytest.mark.parametrize("response", [
    "Looking at the map, I can see several restaurant icons. Let me read each label "
    "carefully, starting from the top left:\n\n1.",
    "Let me go through them from north to south:\n1)",
    "Here is what I see:\n\n-",
    "Let me list them:\n\n* ",
])
def test_a_list_cut_off_at_its_first_marker_is_no_answer(item: dict, response: str) -> None:
    assert invalid(item, response)


@pytest.mark.parametrize("response, names", [
    ("The restaurants are:\n1. Kuu\n2. Hiisi", ["Kuu", "Hiisi"]),
    ("Starting from the top left:\n\n1. Topelias", ["Topelias"]),
    ("Answer:\n- Topelias\n- Unicafe Metsätalo", ["Topelias", "Unicafe Metsätalo"]),
])
def test_a_begun_list_keeps_its_names(response: str, names: list) -> None:
    assert value(STMF_NAMES, response)["names"] == names


@pytest.mark.parametrize("response, count", [
    ("Answer: 1.", 1),
    ("I count them.\n\n2.", 2),
    ("There is one restaurant.", 1),
])
def test_a_count_said_on_its_own_keeps_its_reading(response: str, count: int) -> None:
    assert value(STMF_COUNT, response)["count"] == count


# ------------------------------------- 4. cut off after the verb of a "the ..." subject
@pytest.mark.parametrize("item", [FRIEDA_COUNT, STMF_COUNT, MW_COUNT, STMF_NAMES, MML])
@pytest.mark.parametrize("response", [
    "First I need to find the map with Paratiisilintu in red. Then on the other map I look "
    "at which of the 3 features are inside the block. The first feature is",
    "There are 3 features in the legend. The one in the north corner is",
    "I compare the 3 legend entries. My count is",
    "The number of such places is",
])
def test_a_sentence_cut_off_after_its_verb_is_no_answer(item: dict, response: str) -> None:
    assert invalid(item, response)


@pytest.mark.parametrize("item, response, count", [
    (FRIEDA_COUNT, "The answer is 2", 2),
    (FRIEDA_COUNT, "Answer: 2\n\nThe first feature is", 2),
    (FRIEDA_COUNT, "Two of the 3 features lie inside the block.", 2),
    (STMF_COUNT, "There are 3 restaurants.", 3),
    (MW_COUNT, "My answer is [4]", 4),
])
def test_a_whole_or_cued_count_keeps_its_reading(item: dict, response: str,
                                                 count: int) -> None:
    assert value(item, response)["count"] == count


def test_a_whole_yes_keeps_its_reading() -> None:
    item = {"task": "mapwise_binary", "request": "binary", "provenance": {"country": "usa"}}
    assert not invalid(item, "Yes, it is")


# ------------------------- 3. an option named by its text as the whole first sentence
MAPIQ_MCQ = {"task": "mapiq_ppc", "request": "mcq",
             "options": {"a": "WY", "b": "NE", "c": "MN", "d": "NM", "e": "None of the above"}}
MFS = {"task": "mfs", "request": "choice",
       "options": {"A": "pharmacy", "B": "bank", "C": "park", "D": "parking", "E": "bus stop"}}


@pytest.mark.parametrize("response, letters", [
    ("None of the above. Tennessee is already in the top class among these.", ["e"]),
    ("None of the above. Tennessee is in the top class.", ["e"]),
    ("None of the above! Tennessee sits in the highest class.", ["e"]),
    ("NE. Tennessee is in a lower class.", ["b"]),
    ("Nebraska. Tennessee is in a lower class.", ["b"]),
])
def test_mapiq_option_text_then_a_reason(response: str, letters: list) -> None:
    assert value(MAPIQ_MCQ, response)["letters"] == letters


@pytest.mark.parametrize("response", [
    "None of the above. Maybe Wyoming.",
    "None of the above. Nebraska is higher, though.",
    "None of the above? Tennessee is in the top class.",
    "None of the above, I think. Tennessee is top.",
    "None of the above. Though I am not sure about Tennessee.",
])
def test_mapiq_option_text_then_doubt_or_another_option_stays_invalid(response: str) -> None:
    assert invalid(MAPIQ_MCQ, response)


@pytest.mark.parametrize("response, letter", [
    ("Pharmacy. The green cross on Kaivokatu marks it.", "A"),
    ("Bus stop. Helsinki's buses stop there.", "E"),
])
def test_mfs_option_text_then_a_reason_keeps_its_reading(response: str, letter: str) -> None:
    assert value(MFS, response)["letter"] == letter


def test_mfs_option_text_then_another_option_stays_invalid() -> None:
    assert invalid(MFS, "Pharmacy. The park is further north.")


# ------------------------------------- 1. MTMF prose: the names after a colon
MTMF = mtmf_item(["restaurant", "bank", "park", "bus stop"])


def _counted(text: str) -> dict:
    return {k: v for k, v in value(MTMF, text)["types"].items() if v["count"]}


@pytest.mark.parametrize("response, got", [
    ("The map shows 3 restaurants: Jufu, Ravintola Hausman and Woolshed. None of the other "
     "listed feature types appear on this map, so all of them are 0.",
     {"restaurant": {"count": 3, "names": ["Jufu", "Ravintola Hausman", "Woolshed"]}}),
    ("I see 2 restaurants: Jufu and Woolshed, and 1 bank: Nordea. Everything else is 0.",
     {"restaurant": {"count": 2, "names": ["Jufu", "Woolshed"]},
      "bank": {"count": 1, "names": ["Nordea"]}}),
    ("I see 2 restaurants: Jufu, Woolshed; one bank: Nordea. No other types.",
     {"restaurant": {"count": 2, "names": ["Jufu", "Woolshed"]},
      "bank": {"count": 1, "names": ["Nordea"]}}),
    # brackets keep their reading
    ("The map shows 3 restaurants (Jufu, Ravintola Hausman and Woolshed). All others are 0.",
     {"restaurant": {"count": 3, "names": ["Jufu", "Ravintola Hausman", "Woolshed"]}}),
    # a colon before prose, not names: the count alone
    ("I see 2 restaurants: one is unnamed, the other is hidden. No other types.",
     {"restaurant": {"count": 2, "names": []}}),
])
def test_mtmf_prose_names_after_a_colon(response: str, got: dict) -> None:
    assert _counted(response) == got


@pytest.mark.parametrize("response", [
    "I see 2 restaurants: Jufu or Woolshed, not sure. No other types.",
    "The map shows 3 restaurants: Jufu, Ravintola Hausman and Woolshed.",  # types unsaid
])
def test_mtmf_prose_hedged_or_partial_stays_invalid(response: str) -> None:
    assert invalid(MTMF, response)
