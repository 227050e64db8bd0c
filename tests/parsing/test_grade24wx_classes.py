"""Reader classes of issue 24 found by the independent sets ``fresh24w.yaml``/``fresh19.yaml``
(grade24w) and ``fresh24x.yaml``/``fresh20.yaml`` (grade24x), each with near cases that must
keep their reading:

1. names followed by a note in brackets ("..., Toca, Zucchini (one restaurant icon has no
   name)") keep their names: what the note says is not said of the list (MTMF lines, STMF
   names); a note after a sentence, or a hedged note, keeps its reading;
2. one name said in a sentence with no cue ("The supermarket shown on the map is S-Market
   Hakaniemi."); a hedge, an "or" or "is not labelled" keep theirs;
3. a names list separated by ";" keeps the commas inside its names ("Rautatientori, laituri
   13; Rautatientori"), in a table cell, a line or an STMF list;
4. quoted items of a JSON list in every thematic list reader: MapIQ MCQ letters
   (``{"answer": ["a", "d"]}``, fenced or not) and zones (``["South", "West"]``);
5. a MapWise range said in a sentence as its only two numbers joined by "to"/a dash ("...,
   falls in the lowest class, 0 to 3.25."); a hedge, an "or" or a third number keep theirs.
"""

from __future__ import annotations

import pytest
from helpers.corpus_check import text_response
from helpers.parsed import invalid, mtmf_item, stmf_names_item, value

TYPES = ["restaurant", "clothes shop", "bus stop", "bank", "park"]
MTMF = mtmf_item(TYPES)
STMF_NAMES = stmf_names_item("supermarket")
MCQ = {"task": "mapiq_ppc", "request": "mcq",
       "options": {"a": "GA", "b": "OR", "c": "OK", "d": "PA", "e": "None of the above"}}
ZONES = [{"task": "mapiq_rc", "request": "list"}, {"task": "mapiq_sc", "request": "list"}]
RANGE = {"task": "mapwise_range", "request": "range", "provenance": {"country": "india"}}


def _types(text: str) -> dict:
    return value(MTMF, text)["types"]


@pytest.mark.parametrize("line", [
    "- **Restaurant:** 9 — Bank bar, Goodwin, Toca, Zucchini (one restaurant icon has no name)",
    "Restaurant: 9 - Bank bar, Goodwin, Toca, Zucchini (one restaurant icon has no name)",
])
def test_names_before_a_bracketed_note_are_kept(line: str) -> None:
    got = _types(line + "\n- Bank: 1 — Nordea\nAll other types: 0.")
    assert got["restaurant"]["names"][:4] == ["Bank bar", "Goodwin", "Toca", "Zucchini"]
    assert got["restaurant"]["count"] == 9 and got["bank"]["names"] == ["Nordea"]


@pytest.mark.parametrize("response, names", [
    ("Names: Kuu, Hiisi (one more supermarket icon has no name)", ["Kuu", "Hiisi"]),
    ("There is one supermarket icon (it has no name)", []),
    ("The supermarket shown on the map is S-Market Hakaniemi.", ["S-Market Hakaniemi"]),
    ("The only supermarket is K-Market Kamppi.", ["K-Market Kamppi"]),
    ("The supermarket is not labelled.", []),
    ("Rautatientori, laituri 13; Rautatientori", ["Rautatientori, laituri 13", "Rautatientori"]),
    ("Kuu, Hiisi, Toca", ["Kuu", "Hiisi", "Toca"]),
])
def test_stmf_names_in_a_sentence_or_with_a_note(response: str, names: list) -> None:
    assert value(STMF_NAMES, response)["names"] == names


@pytest.mark.parametrize("response", [
    "Kuu, Hiisi (not sure about the second)",
    "The supermarket is probably S-Market Hakaniemi.",
    "The supermarket is S-Market Hakaniemi or K-Market Kamppi.",
])
def test_hedged_names_stay_invalid(response: str) -> None:
    assert invalid(STMF_NAMES, response)


@pytest.mark.parametrize("response", ["The marker is at Mannerheimintie.",
                                      "The marker is on Kasarmikatu."])
def test_a_place_said_with_a_preposition_is_no_road_pair(response: str) -> None:
    assert invalid({"task": "mml", "request": "roads"}, response)


@pytest.mark.parametrize("cell, names", [
    ("Rautatientori, laituri 13; Rautatientori", ["Rautatientori, laituri 13", "Rautatientori"]),
    ("Kamppi, laituri 2; Forum", ["Kamppi, laituri 2", "Forum"]),
    ("Kamppi, Forum", ["Kamppi", "Forum"]),
])
def test_a_semicolon_cell_keeps_commas_in_names(cell: str, names: list) -> None:
    table = ("| Type | Count | Names |\n|---|---|---|\n| restaurant | 1 | Morkku |\n"
             f"| bus stop | 2 | {cell} |\n\nAll other types: 0.")
    assert _types(table)["bus stop"]["names"] == names


@pytest.mark.parametrize("response", [
    '```json\n{"answer": ["a", "d"]}\n```', '{"answer": ["a", "d"]}', '["a", "d"]',
    'My answer is ["a", "d"]', "My answer is ['a', 'd']", '{"answer": ["GA", "PA"]}',
])
def test_quoted_letters_of_a_json_answer(response: str) -> None:
    assert value(MCQ, response)["letters"] == ["a", "d"]


def test_quoted_letters_or_alternatives_stay_invalid() -> None:
    assert invalid(MCQ, '{"answer": ["a or d"]}')


@pytest.mark.parametrize("item", ZONES)
@pytest.mark.parametrize("response", [
    '["South", "West"]', 'My answer is ["South", "West"]',
    '```json\n{"answer": ["South", "West"]}\n```', "My answer is [South, West]",
])
def test_quoted_zones_of_a_json_answer(item: dict, response: str) -> None:
    assert value(item, response)["items"] == ["South", "West"]


@pytest.mark.parametrize("response, got", [
    ("Daman and Diu falls in the lowest class, 0 to 3.25.", [0.0, 3.25]),
    ("Goa is in the class 3.25 – 7.5.", [3.25, 7.5]),
    ("Goa lies in the second class, 3.25 through 7.5.", [3.25, 7.5]),
])
def test_a_range_said_in_a_sentence(response: str, got: list) -> None:
    assert value(RANGE, response)["range"] == got


@pytest.mark.parametrize("response", [
    "Goa is probably in the class 3.25 to 7.5.",
    "Goa is in 0 to 3.25 or 3.25 to 7.5.",
    "Goa has 2 and the class is 0 to 3.25.",
])
def test_a_hedged_or_crowded_range_stays_invalid(response: str) -> None:
    assert invalid(RANGE, response)


@pytest.mark.parametrize("raw", [True, False, 3, None, 1.5])
def test_a_corpus_entry_that_is_no_text_is_refused(raw: object) -> None:
    with pytest.raises(ValueError, match=r"x\.yaml#7: response is .* not text"):
        text_response({"response": raw}, "x.yaml#7")


SRN = {"task": "srn", "request": "route"}
ROUTE = ["blue", "turn left", "Mannerheimintie", "red"]


@pytest.mark.parametrize("response", [
    "Route: ['blue', 'turn left',\n 'Mannerheimintie', 'red']",
    "Route: [blue, turn left,\nMannerheimintie, red]\nThis is the shortest way.",
    "Answer: [blue, turn left,\n Mannerheimintie,\n red]",
])
def test_a_cued_list_that_runs_past_its_line(response: str) -> None:
    assert value(SRN, response)["steps"] == ROUTE


def test_a_cued_list_over_lines_in_another_suite() -> None:
    mw_list = {"task": "mapwise_list", "request": "list", "provenance": {"country": "usa"}}
    assert value(mw_list, "My answer is [TX, OH,\n CA]")["items"] == ["CA", "OH", "TX"]


MW_RANK = {"task": "mapwise_rank", "request": "rank", "provenance": {"country": "usa"}}


@pytest.mark.parametrize("response", [
    "First comes Ohio, then Iowa, then New Mexico.",
    "First is Ohio, then Iowa, then New Mexico.",
    "Ohio comes first, then Iowa, then New Mexico.",
])
def test_a_place_after_its_order_word(response: str) -> None:
    assert value(MW_RANK, response)["ranks"] == {"OH": 1, "IA": 2, "NM": 3}


@pytest.mark.parametrize("response", [
    "First comes Ohio or Iowa, then New Mexico.",
    "First comes probably Ohio, then Iowa, then New Mexico.",
])
def test_an_offered_or_hedged_order_word_stays_invalid(response: str) -> None:
    assert invalid(MW_RANK, response)


def _frieda(task: str, question: str, legend: list[str]) -> dict:
    return {"task": task, "request": "textual", "question": question,
            "provenance": {"maps": [{"features": [{"label": n} for n in legend]}]}}


NEAREST = _frieda(
    "frieda_distance", "Of Ooster (blue dot), Minuuttibaari (purple dot) and Kitty's Public "
    "House (orange dot), which one lies within an area shown as public building and is "
    "closest to mr. big (red dot), in a straight line? Answer with its name.",
    ["mr. big", "Ooster", "Minuuttibaari", "Kitty's Public House", "public building"])
BORDER = _frieda(
    "frieda_border", "Which one of Puolustusministeriö (blue outline), Hotel Lilla Robert "
    "(purple outline) and Pohjoinen Makasiinikatu (orange line) borders an area shown as "
    "commercial building? Answer with its name.",
    ["Puolustusministeriö", "Hotel Lilla Robert", "Pohjoinen Makasiinikatu",
     "commercial building"])


@pytest.mark.parametrize("item, response", [
    (NEAREST, "Of the three dots, Ooster is not in a public building."),
    (NEAREST, "Ooster is not in a public building."),
    (BORDER, "Hotel Lilla Robert does not border it."),
    (BORDER, "Looking at the outlines, Hotel Lilla Robert doesn't border the commercial area."),
])
def test_an_offered_feature_said_not_to_fit_is_no_pick(item: dict, response: str) -> None:
    assert invalid(item, response)


@pytest.mark.parametrize("item, response, name", [
    (NEAREST, "Of the three dots, Ooster is the nearest to mr. big.", "Ooster"),
    (BORDER, "Pohjoinen Makasiinikatu borders the commercial building area.",
     "Pohjoinen Makasiinikatu"),
])
def test_an_offered_feature_picked_keeps_its_reading(item: dict, response: str,
                                                     name: str) -> None:
    assert value(item, response)["names"] == [name]
