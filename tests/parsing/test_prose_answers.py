"""Answers in prose without a cue (issue 24, grade24h; grade24g classes A, G, K, L, O):
bold names in a sentence, a region after ``is in the union territory of``, a ranking told
by its ends, ``It's B (description)``, a legend name with an English generic word or
abbreviated, and a prose route closing on the red marker. Hand-written expectations,
with the near cases that must stay invalid."""

from __future__ import annotations

from typing import Any

import pytest

from cartoqa.declarations.dispatch import parse_response
from cartoqa.parsing.lists import bold_names
from cartoqa.parsing.route import parse_route

BORDER_Q = ("The legend names the features drawn on the map. Which of the features other than "
            "Sokos borders Sokos (the retail area), drawn in red? Answer with its name.")


def frieda(task: str, legend: list[str], question: str = BORDER_Q) -> dict[str, Any]:
    return {"task": task, "request": "textual", "question": question,
            "provenance": {"maps": [{"features": [{"label": n} for n in legend]}]}}


BORDER = frieda("frieda_border", ["Sokos", "Asema-aukio", "Forum", "Uusi ylioppilastalo",
                                  "Mikonkatu", "Pohjoinen Makasiinikatu",
                                  "Eteläinen Makasiinikatu"])


def names(item: dict[str, Any], text: str) -> list[str] | None:
    got = parse_response(item, text)
    return [n for n in got.value["names"]] if got.valid else None


@pytest.mark.parametrize(("text", "expected"), [
    ("Of the three features, only **Asema-aukio** touches Sokos along its edge; Forum and "
     "Uusi ylioppilastalo are separated from it by other blocks.", ["Asema-aukio"]),
    ("Answer: Mikonkatu street", ["Mikonkatu"]),
    ("Answer: Pohj. Makasiinikatu", ["pohjoinen makasiinikatu"]),
])
def test_frieda_names_in_prose_and_variants(text: str, expected: list[str]) -> None:
    assert names(BORDER, text) == expected


@pytest.mark.parametrize("text", [
    "Maybe **Asema-aukio** touches Sokos.",             # a hedge
    "Either **Asema-aukio** or **Forum** touches it.",  # alternatives
])
def test_bold_does_not_hide_doubt(text: str) -> None:
    assert names(BORDER, text) is None


def test_abbreviation_matching_two_names_is_not_guessed() -> None:
    two = frieda("frieda_border", ["Pohjoinen Makasiinikatu", "Pohjoisesplanadi Makasiinikatu"])
    assert names(two, "Answer: Pohj. Makasiinikatu") == ["Pohj. Makasiinikatu"]
    # a street the legend does not write keeps its words
    assert names(BORDER, "Answer: Kaivokatu street") == ["Kaivokatu street"]


def test_bold_names_rules() -> None:
    assert bold_names("The park is labelled **Paasivuoren puistikko**.") == [
        "Paasivuoren puistikko"]
    assert bold_names("**Names:** Alepa, Lidl") is None           # a label
    assert bold_names("**Restaurants**\nHiisi") is None            # a heading
    assert bold_names("The map shows **no** cafes.") is None       # not a name
    assert bold_names("- **Hiisi**\n- **Kuu**") is None            # a list: list rules
    assert bold_names("Only **Hiisi** here.", {"kuu"}) is None     # not a name of the map
    # a refusal, and a name said not to be the answer, are no answer
    assert bold_names("I cannot read any names; labels like **Hiisi** are blurry.") is None
    assert bold_names("There are no restaurants, only the café **Kuu**.") is None


def test_stmf_name_in_bold_sentence() -> None:
    item = {"task": "stmf", "request": "names", "strata": {"feature_type": "park"}}
    assert parse_response(item, "The park is labelled **Paasivuoren puistikko**.").value == {
        "names": ["Paasivuoren puistikko"]}


@pytest.mark.parametrize(("text", "code"), [
    ("The lowest value is in the union territory of Daman and Diu.", "DD"),
    ("The highest value is found in Goa.", "GA"),
])
def test_region_after_is_in(text: str, code: str) -> None:
    item = {"task": "mapwise_single", "request": "single", "provenance": {"country": "india"}}
    assert parse_response(item, text).value == {"regions": [code]}


RANK = {"task": "mapwise_rank", "request": "rank", "provenance": {"country": "india"}}


@pytest.mark.parametrize("text", [
    "Highest: Chhattisgarh, then Himachal Pradesh, lowest: Puducherry.",
    "Lowest: Puducherry, then Himachal Pradesh, highest: Chhattisgarh.",
    "Highest: Chhattisgarh; second: Himachal Pradesh; lowest: Puducherry",
    "Top: Chhattisgarh, next: Himachal Pradesh, bottom: Puducherry",
])
def test_ranking_told_by_its_ends(text: str) -> None:
    assert parse_response(RANK, text).value == {"ranks": {"CG": 1, "HP": 2, "PY": 3}}


def test_ranking_told_by_its_ends_keeps_hedges() -> None:
    assert not parse_response(
        RANK, "Highest: Chhattisgarh, then maybe Himachal Pradesh, lowest: Puducherry.").valid
    # a place offered two ways is no ranking
    assert not parse_response(
        RANK, "Highest: Chhattisgarh or Goa, lowest: Puducherry.").valid
    assert not parse_response(RANK, "Chhattisgarh or Goa > Puducherry").valid


EQUAL = {"task": "frieda_equal", "request": "textual",
         "question": "Map 2 outlines two areas, Area A and Area B. Which is Hauki? Answer A or B."}


@pytest.mark.parametrize(("text", "expected"), [
    ("It's B (the L-shaped one).", ["B"]), ("It's Area B (the larger one).", ["B"]),
])
def test_option_with_a_description(text: str, expected: list[str]) -> None:
    assert parse_response(EQUAL, text).value == {"names": expected}


@pytest.mark.parametrize("text", ["It's B (I think).", "It is B (probably)."])
def test_option_with_doubt_is_a_hedge(text: str) -> None:
    assert not parse_response(EQUAL, text).valid


def test_options_named_in_brackets_are_not_descriptions() -> None:
    item = {"task": "mapiq_rv", "request": "mcq",
            "options": {"a": "590–705", "b": "1350–1350", "c": "412–530"},
            "provenance": {"classification": {"labels": []}}, "answer": {"text": ""}}
    assert sorted(parse_response(item, "The correct options are (a) and (c).").value[
        "letters"]) == ["a", "c"]


@pytest.mark.parametrize("text", [
    "From the blue marker, continue straight along Unioninkatu, then turn right onto "
    "Liisankatu; the red marker is just there.",
    "From the blue marker, continue straight along Unioninkatu, then turn right onto "
    "Liisankatu, where the red marker sits.",
])
def test_prose_route_closing_on_the_marker(text: str) -> None:
    assert parse_route(text).value == {"steps": [
        "blue", "continue straight", "Unioninkatu", "turn right", "Liisankatu", "red"]}


@pytest.mark.parametrize("text", [
    "From blue, maybe turn left onto Mikonkatu, then reach red.",
    "From blue, turn left onto Mikonkatu; the red marker might be there.",
])
def test_prose_route_with_doubt_is_a_hedge(text: str) -> None:
    assert not parse_route(text).valid


BINARY_Q = "Is the map's legend discrete?"


@pytest.mark.parametrize(("text", "value"), [
    ("The legend is discrete.", True),
    ("The map's legend is discrete.", True),
    ("The legend is not discrete.", False),
    ("No, the legend is continuous.", False),
])
def test_yes_no_by_restating_the_question(text: str, value: bool) -> None:
    item = {"task": "mapwise_binary", "request": "binary", "question": BINARY_Q,
            "provenance": {"country": "usa"}}
    assert parse_response(item, text).value == {"value": value}


@pytest.mark.parametrize(("question", "text"), [
    (BINARY_Q, "The legend is probably discrete."),                 # a hedge
    ("Is Texas higher than Ohio?", "Ohio is higher than Texas."),    # another statement
    (BINARY_Q, "The legend is discrete or continuous."),            # alternatives
    ("", "The legend is discrete."),                                 # no question known
])
def test_restating_needs_the_same_statement(question: str, text: str) -> None:
    item = {"task": "mapwise_binary", "request": "binary", "question": question,
            "provenance": {"country": "usa"}}
    assert not parse_response(item, text).valid


@pytest.mark.parametrize(("text", "expected"), [
    ("It's Mikonkatu.", ["Mikonkatu"]),
    ("It's Mikonkatu (the street to the north).", ["Mikonkatu"]),
])
def test_frieda_name_after_its(text: str, expected: list[str]) -> None:
    assert names(BORDER, text) == expected
