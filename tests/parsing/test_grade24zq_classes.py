"""Reader classes of grade24zy/zw's disagreements (fresh24zy#40, fresh42#5, fresh44#20)
and fix24zs's / fix24zt's "seen, not fixed" lists, fixed by fix24zq as classes, each with
near cases that must keep their reading:

1. a list cut off by a token limit right after a separator (``["blue", "turn left",``)
   or an open route list that never reaches ``red``: invalid (truncated output), in every
   list reader (SRN, MML, STMF, region lists, MapWise rank); an open list whose items are
   whole and complete (``[blue, left, X, red``, ``[TX, OH``) is still read;
2. a count's concluding sentence ``None of the (N) <things> ...`` is 0, over number words
   in the reasoning above (STMF, FRIEDA, MapWise counts); ``None ..., but two touch it``
   is not read as 0 by it;
3. a single-region request answered with several regions in one list: invalid (MapWise
   single); list requests keep their lists;
4. MML ``The marker sits/lies on X.`` reads as ``is on X``; MML ``on X and the harbour``
   keeps no place noun phrase as a road; SRN ``and continue north on Y`` reads the road Y;
5. ``There are no labels, so I can't count them.``: invalid, like ``I don't see any
   labels, so I can't count them.``
"""

from __future__ import annotations

import pytest
from helpers.parsed import invalid, value

from cartoqa.declarations.dispatch import parse_response
from cartoqa.parsing import Parsed

SRN = {"task": "srn", "request": "route"}
MML = {"task": "mml", "request": "roads"}
STMF_NAMES = {"task": "stmf", "request": "names"}
STMF_COUNT = {"task": "stmf", "request": "count"}
FRIEDA_COUNT = {"suite": "frieda", "task": "frieda_border", "request": "count"}
MAPWISE_COUNT = {"suite": "mapwise", "task": "mapwise_count", "request": "count",
                 "country": "usa"}
MAPWISE_SINGLE = {"suite": "mapwise", "task": "mapwise_single", "request": "single",
                  "country": "usa"}
MAPWISE_LIST = {"suite": "mapwise", "task": "mapwise_list", "request": "list",
                "country": "usa"}
MAPWISE_RANK = {"suite": "mapwise", "task": "mapwise_rank", "request": "rank",
                "country": "usa"}
COUNTS = [STMF_COUNT, FRIEDA_COUNT, MAPWISE_COUNT]


# ------------------------------------------------------------ 1. a list cut off
@pytest.mark.parametrize(("item", "response"), [
    (SRN, 'Answer: ["blue", "turn left", "Eteläinen Makasiinikatu", "turn left",'),
    (SRN, 'Answer: ["blue", "turn left", "Eteläinen Makasiinikatu", "turn left"'),
    (SRN, "Route: [blue, turn left, Mikonkatu, turn right,"),
    (SRN, "Answer: [blue, turn left, Mikonkatu, turn right"),
    (MML, 'Answer: ["Mannerheimintie", "Kaivokatu",'),
    (STMF_NAMES, 'Answer: ["Lidl", "Alepa",'),
    (MAPWISE_LIST, "My answer is [TX, OH,"),
    (MAPWISE_RANK, "My answer is [TX, OH, CA,"),
])
def test_a_list_cut_after_a_separator_is_invalid(item: dict, response: str) -> None:
    assert invalid(item, response)


@pytest.mark.parametrize(("item", "response", "key", "expected"), [
    (SRN, "Answer: [blue, turn left, Mikonkatu, red", "steps",
     ["blue", "turn left", "Mikonkatu", "red"]),
    (SRN, 'Answer: ["blue", "turn left", "Mikonkatu", "red"]', "steps",
     ["blue", "turn left", "Mikonkatu", "red"]),
    (MML, "Answer: Mannerheimintie, Kaivokatu", "roads", ["Mannerheimintie", "Kaivokatu"]),
    (MAPWISE_LIST, "My answer is [TX, OH", "items", ["OH", "TX"]),
])
def test_a_whole_list_keeps_its_reading(item: dict, response: str, key: str,
                                        expected: list[str]) -> None:
    assert value(item, response)[key] == expected


# ------------------------------------------------ 2. "None of the three ..." concludes
@pytest.mark.parametrize("item", COUNTS)
@pytest.mark.parametrize("response", [
    "Comparing the two maps: Marski by Scandic stands on Mannerheimintie, while the others "
    "are on the other blocks across the streets.\n\nNone of the three features border "
    "Marski by Scandic.",
    "I looked at both halves of the map.\nNone of them are shown.",
    "Looking at the two maps side by side.\nSo, none of the 3 features overlap it.",
])
def test_a_concluding_none_sentence_is_zero(item: dict, response: str) -> None:
    assert value(item, response)["count"] == 0


@pytest.mark.parametrize("item", COUNTS)
def test_none_with_a_count_after_it_is_not_read_as_zero(item: dict) -> None:
    # a count after "but" is left to the older rules (two numbers: invalid), never 0
    response = ("Comparing the two maps, three features are near.\nNone of the three is "
                "clearly inside, but two touch it.")
    read = parse_response(item, response)
    assert not (isinstance(read, Parsed) and read.value["count"] == 0)
    assert value(item, "I see two cafes on the map.\nAnswer: 2")["count"] == 2


# -------------------------------------------- 3. several regions where one is asked
@pytest.mark.parametrize("response", [
    "My answer is [Mississippi, Alabama]",
    "My answer is [MS, AL]",
    "Answer: [Mississippi, Tennessee, Alabama]",
])
def test_mapwise_single_with_several_regions_is_invalid(response: str) -> None:
    assert invalid(MAPWISE_SINGLE, response)


@pytest.mark.parametrize(("item", "response", "key", "expected"), [
    (MAPWISE_SINGLE, "My answer is [Mississippi]", "regions", ["MS"]),
    (MAPWISE_SINGLE, "My answer is [Mississippi (MS)]", "regions", ["MS"]),
    (MAPWISE_SINGLE, "Mississippi is darkest; Alabama is next.\nMy answer is [Mississippi]",
     "regions", ["MS"]),
    (MAPWISE_LIST, "My answer is [Mississippi, Alabama]", "items", ["AL", "MS"]),
])
def test_one_region_and_lists_keep_their_reading(item: dict, response: str, key: str,
                                                 expected: list[str]) -> None:
    assert value(item, response)[key] == expected


# ------------------------------------------ 4. MML "sits on X", "and the harbour"; SRN
@pytest.mark.parametrize("response", [
    "The marker sits on Eteläranta.",
    "The marker lies on Eteläranta.",
    "The red marker stands on Eteläranta.",
    "The marker is on Eteläranta and the harbour.",
    "The marker sits on Eteläranta and the old market hall.",
])
def test_mml_one_road_said_with_another_verb_or_a_place_is_as_is_on(response: str) -> None:
    # like "The marker is on Eteläranta." (one road, no cue: invalid, fix24zu's rule)
    assert invalid(MML, response)


@pytest.mark.parametrize(("response", "expected"), [
    ("The marker sits on Eteläranta and Kauppatori.", ["Eteläranta", "Kauppatori"]),
    ("The marker lies on Mikonkatu, at its junction with Vilhonkatu.",
     ["Mikonkatu", "Vilhonkatu"]),
    ("Answer: Mannerheimintie and Kaivokatu", ["Mannerheimintie", "Kaivokatu"]),
])
def test_mml_two_roads_keep_their_reading(response: str, expected: list[str]) -> None:
    assert value(MML, response)["roads"] == expected


@pytest.mark.parametrize(("response", "expected"), [
    ("From blue, turn left onto Mikonkatu and continue north on Aleksanterinkatu to red.",
     ["blue", "turn left", "Mikonkatu", "Aleksanterinkatu", "red"]),
    ("Route: blue, turn left, Mikonkatu and continue north on Aleksanterinkatu, red",
     ["blue", "turn left", "Mikonkatu", "Aleksanterinkatu", "red"]),
    ("From blue, turn left onto Mikonkatu and drive north for 200 m to red.",
     ["blue", "turn left", "Mikonkatu", "red"]),
    ("From blue, turn left onto Mikonkatu and drive north to red.",
     ["blue", "turn left", "Mikonkatu", "red"]),
    ("Route: blue, turn right, Continue Street, red",
     ["blue", "turn right", "Continue Street", "red"]),
])
def test_srn_a_heading_is_no_step(response: str, expected: list[str]) -> None:
    assert value(SRN, response)["steps"] == expected


# ------------------------------------------------ 5. "there are no labels, can't count"
@pytest.mark.parametrize("item", COUNTS)
@pytest.mark.parametrize("response", [
    "There are no labels, so I can't count them.",
    "I don't see any labels, so I can't count them.",
    "There are no visible symbols; I cannot determine the number.",
])
def test_no_labels_and_a_refusal_is_invalid(item: dict, response: str) -> None:
    assert invalid(item, response)


@pytest.mark.parametrize("item", COUNTS)
@pytest.mark.parametrize("response", [
    "There are no cafes on this map.",
    "None.",
])
def test_there_are_none_is_still_zero(item: dict, response: str) -> None:
    assert value(item, response)["count"] == 0
