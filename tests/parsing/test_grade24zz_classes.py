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
from helpers.parsed import invalid, stmf_names_item, value

MML = {"task": "mml", "request": "roads"}
PAIR = ["Eteläranta", "Eteläesplanadi"]
STMF_NAMES = stmf_names_item("supermarket")


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


# found beside class 1: a sentence that introduces the pair, then a sentence that names
# nothing ("The marker is at the corner of A and B.\nIt is near the harbour.": only B was read)
@pytest.mark.parametrize("response", [
    "The marker is at the corner of Eteläranta and Eteläesplanadi.\nIt is near the harbour.",
    "It is near the harbour.\nThe marker is at the intersection of Eteläranta and "
    "Eteläesplanadi.",
])
def test_a_pair_sentence_beside_a_sentence_naming_nothing(response: str) -> None:
    assert value(MML, response)["roads"] == PAIR


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


# ===================== grade24zf's classes (fix24zz's share: fresh24zf#17, #23, fresh26#15, #24)
# 5. fresh24zf#17: an empty names list said in a sentence whose subject is "none of the ..."
#    ("None of the convenience stores have a name written on the map."): [] (STMF names)
CONVENIENCE = {"task": "stmf", "request": "names",
               "strata": {"feature_type": "convenience store"}}


@pytest.mark.parametrize("response", [
    "None of the convenience stores have a name written on the map.",
    "None of the convenience stores has a name.",
    "No convenience store has its name written.",
    "None of them are named.",
    "Not one of the convenience stores shows a readable name.",
    "Neither of the two stores has a visible label.",
])
def test_none_of_them_has_a_name_is_an_empty_list(response: str) -> None:
    assert value(CONVENIENCE, response)["names"] == []


@pytest.mark.parametrize("response", [
    "None of the convenience stores have a name written on the map, maybe one.",
    "Probably none of the convenience stores has a name.",
])
def test_a_hedged_none_named_stays_invalid(response: str) -> None:
    assert invalid(CONVENIENCE, response)


@pytest.mark.parametrize("response, names", [
    ("Alepa, K-Market", ["Alepa", "K-Market"]),
    ("None of the convenience stores have a name written on the map.\n\nAnswer: []", []),
    ('Answer: ["Alepa"]', ["Alepa"]),
])
def test_names_said_otherwise_keep_their_reading(response: str, names: list) -> None:
    assert value(CONVENIENCE, response)["names"] == names


# 6. fresh24zf#23: a count's reasoning cut off mid-sentence, no cue ("Let me count the
#    parking symbols (blue "P"). I see one next to the"): no answer (every count reader)
PARKING = {"task": "stmf", "request": "count", "strata": {"feature_type": "parking"}}
FRIEDA_COUNT = {"task": "frieda_within", "request": "count",
                "question": "How many of the features lie entirely within Ahven?"}


@pytest.mark.parametrize("item, response", [
    (PARKING, 'Let me count the parking symbols (blue "P"). I see one next to the'),
    (PARKING, "Let me count. I see 3 near the"),
    (MW_COUNT, "Three states are above 30, namely Goa, Kerala and"),
    (FRIEDA_COUNT, "Two features lie within the"),
    (PARKING, "I count 2 in the north and 1 in the south, so 3 in total, up to the"),
])
def test_a_count_cut_off_mid_sentence_is_no_answer(item: dict, response: str) -> None:
    assert invalid(item, response)


@pytest.mark.parametrize("item, response, count", [
    (PARKING, "I see one next to the station.", 1),
    (PARKING, "Answer: 3\n\nThey are next to the", 3),
    (PARKING, "There are 3 of them", 3),
    (MW_COUNT, "My answer is [3]", 3),
])
def test_a_whole_or_cued_count_keeps_its_reading(item: dict, response: str,
                                                 count: int) -> None:
    assert value(item, response)["count"] == count


# 7. fresh26#15: a region list said as what the subject covers/includes ("The low-value
#    cluster covers Montana, North Dakota, ... and Mississippi."): the regions (MapIQ and
#    MapWise lists; the shared sentence reader)
MAPIQ_LIST = {"task": "mapiq_sc", "request": "list"}
MAPWISE_LIST = {"task": "mapwise_list", "request": "list", "provenance": {"country": "usa"}}


@pytest.mark.parametrize("item", [MAPIQ_LIST, MAPWISE_LIST])
@pytest.mark.parametrize("response, items", [
    ("The low-value cluster covers Montana, North Dakota, South Dakota, Idaho, Utah, "
     "Nebraska, New Mexico, Oklahoma, Arkansas, Louisiana and Mississippi.",
     ["AR", "ID", "LA", "MS", "MT", "ND", "NE", "NM", "OK", "SD", "UT"]),
    ("The cluster includes Montana and Utah.", ["MT", "UT"]),
    ("It spans Montana, Utah and Idaho.", ["ID", "MT", "UT"]),
    ("The cluster consists of Montana and Utah.", ["MT", "UT"]),
    ("The cluster is made up of Montana and Utah.", ["MT", "UT"]),
])
def test_a_region_list_said_as_what_the_subject_covers(item: dict, response: str,
                                                       items: list) -> None:
    assert value(item, response)["items"] == items


@pytest.mark.parametrize("item", [MAPIQ_LIST, MAPWISE_LIST])
@pytest.mark.parametrize("response", [
    "The low-value cluster covers Montana, Utah and maybe Idaho.",
    "The cluster covers Montana or Utah.",
    "The cluster covers the northern plains.",
])
def test_a_hedged_offered_or_nameless_cover_stays_invalid(item: dict, response: str) -> None:
    assert invalid(item, response)


# 8. fresh26#24: a yes/no request answered by saying the map cannot be read or compared ("I
#    cannot see Goa clearly on this map because it is very small, so I cannot compare it
#    with Maharashtra."): no answer, not No (MapWise, MapIQ binary, STMF presence)
MW_BINARY = {"task": "mapwise_binary", "request": "binary", "provenance": {"country": "india"}}
PRESENCE = {"task": "stmf", "request": "presence", "strata": {"feature_type": "pharmacy"}}


@pytest.mark.parametrize("item, response", [
    (MW_BINARY, "I cannot see Goa clearly on this map because it is very small, so I cannot "
                "compare it with Maharashtra."),
    (MW_BINARY, "I cannot compare Goa with Maharashtra."),
    (MW_BINARY, "I can't make out Goa well enough, so I cannot judge its class."),
    ({"task": "mapiq_ppc", "request": "binary"},
     "I cannot see Kansas clearly, so I cannot compare the two classes."),
    (PRESENCE, "I cannot see the pharmacy symbols clearly at this zoom."),
])
def test_a_response_that_cannot_compare_is_no_answer(item: dict, response: str) -> None:
    assert invalid(item, response)


@pytest.mark.parametrize("item, response, got", [
    (PRESENCE, "I cannot see any pharmacy on the map.", False),
    (MW_BINARY, "No, Goa is not in the same class.", False),
    (MW_BINARY, "My answer is [Yes]", True),
])
def test_a_firm_yes_or_no_keeps_its_reading(item: dict, response: str, got: bool) -> None:
    key = "present" if item is PRESENCE else "value"
    assert value(item, response)[key] is got


# found beside class 8: a negated seeing with "a" ("I can't see a pharmacy.") was read as
# both a sighting and an absence, so invalid; it is No (STMF presence)
@pytest.mark.parametrize("response, got", [
    ("I can't see a pharmacy.", False),
    ("I cannot see a pharmacy on this map.", False),
    ("I do not see a pharmacy.", False),
    ("I can see a pharmacy near the station.", True),
    ("I see a pharmacy.", True),
])
def test_a_negated_seeing_is_no_sighting(response: str, got: bool) -> None:
    assert value(PRESENCE, response)["present"] is got


def test_a_negated_seeing_that_cannot_tell_stays_invalid() -> None:
    assert invalid(PRESENCE, "I can't see a pharmacy clearly.")
