"""Reader classes of issue 24 from grade24zd's independent set (fixer fix24zz), each with
near cases that must keep their reading:

1. a describing sentence without a cue, then a line that is only names ("The red marker is
   on the tram-lined street along the harbour, right where the southern esplanade ends.
   \\n\\n**Eteläranta x Eteläesplanadi**"): the sentence's clauses are no names (MML roads,
   STMF names, FRIEDA textual); a sentence that names them, a hedged or offered names line
   keep their readings;
2. a count said as the quantifier of the sentence's subject, beside the value the question
   compares with ("Three states and union territories have a value above 30: Goa, ..."):
   the compared value is no count (MapWise count, MapIQ/FRIEDA/STMF counts); two counts, a
   hedge or an "or" keep their readings;
3. a range said twice in one sentence ("The colour bar runs from 0 at the bottom to 500 at
   the top, so the legend covers 0 to 500."): the one range (MapWise range); a third
   number or two different ranges stay invalid;
4. a range with the unit word the legend is already in ("[0 – 9.8 million]" on a legend of
   millions whose class is 0–9.8): read in the legend's numbers when the scaled reading
   lies outside everything the legend shows and the unscaled one inside it (classes or a
   colour bar); a legend in plain numbers keeps the scaled reading.

Judged, not fixed: grade24zd's fresh24zd#2 ("..., so this feature is most likely a gift
shop."): "likely"/"probably" on the one answer stay a hedge in every suite (see
docs/rounds/2026-12-02/fix24zz.md); held here so a change is a decision.
"""

from __future__ import annotations

import pytest
from helpers.parsed import invalid, value

MML = {"task": "mml", "request": "roads"}
PAIR = ["Eteläranta", "Eteläesplanadi"]
STMF_NAMES = {"task": "stmf", "request": "names", "strata": {"feature_type": "supermarket"}}


# ------------------------------------------- 1. a describing sentence, then a names line
@pytest.mark.parametrize("response", [
    "The red marker is on the tram-lined street along the harbour, right where the southern "
    "esplanade ends.\n\n**Eteläranta x Eteläesplanadi**",
    "The red marker is on the tram-lined street along the harbour, right where the southern "
    "esplanade ends.\n\nEteläranta x Eteläesplanadi",
    "The marker sits on the waterfront road, just where the market square begins.\n\n"
    "Eteläranta and Eteläesplanadi",
    "The marker is near the harbour, right where the esplanade ends.\nEteläranta, "
    "Eteläesplanadi",
    "Looking at the map, the marker is on the road along the water, by the market.\n\n"
    "**Eteläranta & Eteläesplanadi**",
    "**Eteläranta x Eteläesplanadi**\n\nThe marker is on the tram-lined street along the "
    "harbour, right where the southern esplanade ends.",
])
def test_mml_a_describing_sentence_then_the_roads(response: str) -> None:
    assert value(MML, response)["roads"] == PAIR


@pytest.mark.parametrize("response", [
    "I looked over the whole map, scanning each corner carefully.\n\nKuu, Hiisi",
    "I looked over the whole map, scanning each corner carefully.\n\n**Kuu, Hiisi**",
    "The two supermarket icons sit near the station, right where the main square ends.\n\n"
    "Kuu\nHiisi",
])
def test_stmf_a_describing_sentence_then_the_names(response: str) -> None:
    assert value(STMF_NAMES, response)["names"] == ["Kuu", "Hiisi"]


def test_frieda_a_describing_sentence_then_the_names() -> None:
    item = {"task": "frieda_border", "request": "textual",
            "question": "Which features border Makasiinit? Name every one that does (one or "
                        "more), separated by semicolons.",
            "provenance": {"maps": [{"features": [{"label": n} for n in
                                                  ("Makasiinit", "Eteläranta", "Kauppatori",
                                                   "Vanha kauppahalli")]}]}}
    response = ("Looking at the red polygon, two features touch it, one on each side of the "
                "quay.\n\nEteläranta; Kauppatori")
    assert value(item, response)["names"] == ["Eteläranta", "Kauppatori"]


@pytest.mark.parametrize("response, roads", [
    # a line that names them keeps its reading
    ("The marker is where Eteläranta meets Eteläesplanadi, right by the harbour.", PAIR),
    ("Eteläranta\nEteläesplanadi", PAIR),
    # a names line that is not only names: left as before
    ("The marker is near the harbour, right where the esplanade ends.\n- Eteläranta\n"
     "- Eteläesplanadi", PAIR),
])
def test_roads_said_otherwise_keep_their_reading(response: str, roads: list) -> None:
    assert value(MML, response)["roads"] == roads


@pytest.mark.parametrize("response", [
    "The marker is near the harbour, right where the esplanade ends.\n\n"
    "Eteläranta x Eteläesplanadi or Kauppatori",
    "The marker is near the harbour, maybe where the esplanade ends.\n\n"
    "Eteläranta or Kauppatori",
])
def test_an_offered_or_hedged_pair_after_a_sentence_stays_invalid(response: str) -> None:
    assert invalid(MML, response)


# ------------------------------------- 2. a count beside the value the question compares
MW_COUNT = {"task": "mapwise_count", "request": "count", "provenance": {"country": "india"}}


@pytest.mark.parametrize("response, count", [
    ("Three states and union territories have a value above 30: Goa, Jammu and Kashmir, and "
     "Manipur.", 3),
    ("3 states and union territories have a value above 30: Goa, Jammu and Kashmir, and "
     "Manipur.", 3),
    ("Three states have a value above 30.", 3),
    ("Five states have values greater than 12.5: Goa, Kerala, Punjab, Haryana and Sikkim.", 5),
    ("Two regions fall below 10.", 2),
    ("Four states exceed 26.3.", 4),
    ("Only one state has a value of more than 39.", 1),
])
def test_mapwise_a_count_beside_the_compared_value(response: str, count: int) -> None:
    assert value(MW_COUNT, response)["count"] == count


def test_stmf_and_frieda_counts_beside_a_compared_value() -> None:
    stmf = {"task": "stmf", "request": "count", "strata": {"feature_type": "restaurant"}}
    assert value(stmf, "Two restaurants lie within 200 m of the station.")["count"] == 2
    assert value(stmf, "Seven restaurants are shown at more than 3 places.")["count"] == 7


@pytest.mark.parametrize("response", [
    "Two states are above 30 and 4 are below 10.",
    "Three or four states have a value above 30.",
    "Probably three states have a value above 30.",
    "Three states have a value above 30, maybe 4.",
    "None of the states has a value above 30, except 2 in the south.",
])
def test_two_counts_a_hedge_or_an_or_stay_invalid(response: str) -> None:
    assert invalid(MW_COUNT, response)


@pytest.mark.parametrize("response, count", [
    ("There are 3 states with a value above 30.", 3),
    ("My answer is [3]", 3),
    ("None of the states is above 48.", 0),
])
def test_counts_said_otherwise_keep_their_reading(response: str, count: int) -> None:
    assert value(MW_COUNT, response)["count"] == count


# ----------------------------------------------------- 3. a range said twice in a sentence
RANGE = {"task": "mapwise_range", "request": "range", "provenance": {"country": "china"}}


@pytest.mark.parametrize("response, got", [
    ("The colour bar runs from 0 at the bottom to 500 at the top, so the legend covers 0 to "
     "500.", [0, 500]),
    ("The legend goes from 6 at the light end to 447 at the dark end, i.e. 6 to 447.",
     [6, 447]),
    ("The bar covers 0 to 500: 0 at the bottom, 500 at the top.", [0, 500]),
    ("From 0 at the bottom up to 500 at the top: the legend spans 0–500.", [0, 500]),
])
def test_a_range_said_twice_in_a_sentence(response: str, got: list) -> None:
    assert value(RANGE, response)["range"] == got


@pytest.mark.parametrize("response", [
    "The colour bar runs from 0 to 500, and Tibet is at 447.",
    "The legend covers 0 to 500, or 0 to 450 for the classes.",
    "The colour bar runs from 0 at the bottom to 500 at the top, so maybe 0 to 500.",
    "The legend covers 0 to 500 at the top and 6 to 447 in the classes.",
])
def test_another_number_or_range_or_a_hedge_stays_invalid(response: str) -> None:
    assert invalid(RANGE, response)


@pytest.mark.parametrize("response, got", [
    ("It is in the lowest class, 0 to 3.25.", [0, 3.25]),
    ("My answer is [0 - 500]", [0, 500]),
])
def test_ranges_said_once_keep_their_reading(response: str, got: list) -> None:
    assert value(RANGE, response)["range"] == got


# ------------------------------------- 4. the unit word the legend is already in
def _range_item(labels: list[str] | None = None, bar: dict | None = None) -> dict:
    return {"task": "mapwise_range", "request": "range",
            "provenance": {"country": "india",
                           "classification": {"labels": labels} if labels else None,
                           "colour_bar": bar}}


MILLIONS = _range_item(["0–9.8", "11.9–26.6", "35.5–56"])


@pytest.mark.parametrize("item, response, got", [
    (MILLIONS, "My answer is [0 – 9.8 million]", [0, 9.8]),
    (MILLIONS, "My answer is [0 - 9.8M]", [0, 9.8]),
    (MILLIONS, "My answer is [11.9 million - 26.6 million]", [11.9, 26.6]),
    (MILLIONS, "Himachal Pradesh falls in 0 to 9.8 million.", [0, 9.8]),
    (_range_item(["1.2–3.4", "3.5–8"]), "My answer is [1.2k - 3.4k]", [1.2, 3.4]),
    (_range_item(["2–5", "6–9"]), "My answer is [2 - 5 lakh]", [2, 5]),
    (_range_item(bar={"vmin": 0.0, "vmax": 25.0, "ticks": [0, 5, 10, 15, 20, 25]}),
     "My answer is [0 - 5 million]", [0, 5]),
])
def test_a_range_in_the_unit_the_legend_is_already_in(item: dict, response: str,
                                                      got: list) -> None:
    assert value(item, response)["range"] == got


@pytest.mark.parametrize("item, response, got", [
    # a legend in plain numbers: the suffix scales
    (_range_item(["0–9,800,000", "11,900,000–26,600,000"]), "My answer is [0 – 9.8 million]",
     [0, 9_800_000]),
    (_range_item(["1000–2000", "2500–4000"]), "My answer is [1k - 2k]", [1000, 2000]),
    # no legend recorded: as before
    (_range_item(), "My answer is [0 – 9.8 million]", [0, 9_800_000]),
    # no unit word: as written
    (MILLIONS, "My answer is [0 - 9.8]", [0, 9.8]),
])
def test_a_range_scaled_on_other_legends_keeps_its_reading(item: dict, response: str,
                                                          got: list) -> None:
    assert value(item, response)["range"] == got


def test_a_hedged_range_in_the_legend_unit_stays_invalid() -> None:
    assert invalid(MILLIONS, "My answer is [0 – 9.8 million] or [11.9 - 26.6 million]")
    assert invalid(MILLIONS, "Maybe 0 – 9.8 million.")


# --------------------------------------- judged, not fixed: "most likely" stays a hedge
MFS = {"task": "mfs", "options": {"A": "deli", "B": "bakery", "C": "florist",
                                  "D": "bookshop", "E": "gift shop"}}


@pytest.mark.parametrize("response", [
    "The symbol looks like a small wrapped package with a ribbon on top, so this feature is "
    "most likely a gift shop.",
    "It's likely a gift shop.",
    "Probably E.",
])
def test_one_option_with_a_confidence_word_stays_a_hedge(response: str) -> None:
    assert invalid(MFS, response)
