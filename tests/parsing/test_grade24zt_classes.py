"""Reader classes of issue 24 from the exploratory rounds grade24zq, zr and zs (fixer
fix24zt), each with near cases that must keep their reading:

1. a zero said as "I don't see any / I can't find any / there aren't any <type>" with no
   number and no cue (fresh24zq#21: "I don't see any convenience store icons on this map"):
   0 in every count reader (STMF, FRIEDA, MapWise counts), "No" for STMF presence, the
   type 0 in MTMF prose; "I can't see any clearly", "I don't see any labels, so I can't
   count them", "... too small to be sure" and a refusal stay invalid;
2. a length said in words with a fraction and no digit (fresh24zs#25: "roughly half a
   kilometre long"): read in RLE and FRIEDA distance ("a quarter of a mile", "a kilometre
   and a half", "three quarters of a km"); "half of the path", "half way along", a hedge
   and two lengths offered ("half a mile or a kilometre") keep their readings;
3. "&" inside a name is never a separator between names when the map's names do not say
   otherwise (fresh24zr#11: "Morkku, Mount Everest, Maya Bar & Grill"): MTMF tables, lines,
   JSON and prose, STMF and FRIEDA names, MapWise region lists ("Haryana and Jammu &
   Kashmir"); "A & B" where the map writes A and B is still two names, and "and" still
   cuts the last item of a comma list;
4. (with fresh24zx#19, whose other half is class 3) a double-quoted name holding a comma
   among unquoted names ('Rautatientori, Rautatientori, "Rautatientori, laituri 13"'): the
   comma inside the quotes is in the name (MTMF table cells, STMF and FRIEDA names); a
   quote that is not a whole item ('"Kuu, Hiisi" and Topelias') keeps its reading.
"""

from __future__ import annotations

import pytest
from helpers.parsed import invalid, mtmf_item, stmf_names_item, value

STMF_COUNT = {"task": "stmf", "request": "count",
              "strata": {"feature_type": "convenience store"}}
STMF_PRESENCE = {"task": "stmf", "request": "presence",
                 "strata": {"feature_type": "convenience store"}}
FRIEDA_COUNT = {"task": "frieda_within", "request": "count",
                "question": "How many of these 3 features lie entirely within Kuu?"}
MW_COUNT = {"task": "mapwise_count", "request": "count", "provenance": {"country": "usa"}}
COUNTS = [STMF_COUNT, FRIEDA_COUNT, MW_COUNT]


# ----------------------------------------------- 1. "I don't see any <type>" is a zero
@pytest.mark.parametrize("item", COUNTS)
@pytest.mark.parametrize("response", [
    "I don't see any convenience store icons on this map \u2014 the only shops shown are "
    "hairdressers.",
    "I don\u2019t see any convenience stores here.",
    "I can't find any convenience stores on this map.",
    "I cannot find any such features inside the block.",
    "There aren't any convenience stores on the map.",
    "Looking at the map, I could not spot any convenience store symbols.",
])
def test_none_seen_is_a_zero_count(item: dict, response: str) -> None:
    assert value(item, response)["count"] == 0


@pytest.mark.parametrize("item", COUNTS)
@pytest.mark.parametrize("response", [
    "I can't see any clearly.",
    "I don't see any labels, so I can't count them.",
    "I can't find any convenience stores, but the icons are too small to be sure.",
    "I can't tell from this image.",
    "I don't see any convenience stores clearly enough to count.",
])
def test_none_seen_beside_a_refusal_stays_invalid(item: dict, response: str) -> None:
    assert invalid(item, response)


@pytest.mark.parametrize("item, response, count", [
    (STMF_COUNT, "I don't see any convenience stores except 2 near the station.", 2),
    (STMF_COUNT, "Answer: 3", 3),
    (FRIEDA_COUNT, "None of them lie inside it.", 0),
    (MW_COUNT, "There are no such states.", 0),
])
def test_counts_said_otherwise_keep_their_reading(item: dict, response: str,
                                                  count: int) -> None:
    assert value(item, response)["count"] == count


@pytest.mark.parametrize("response", [
    "I don't see any convenience store icons on this map \u2014 the only shops shown are "
    "hairdressers.",
    "There aren't any convenience stores on the map.",
])
def test_none_seen_is_absent(response: str) -> None:
    assert value(STMF_PRESENCE, response)["present"] is False


def test_presence_refusal_stays_invalid() -> None:
    assert invalid(STMF_PRESENCE, "I can't tell from this image.")


MTMF = mtmf_item(["restaurant", "bank"])


@pytest.mark.parametrize("response", [
    "I see 2 restaurants. I don't see any banks.",
    "I see 2 restaurants. I can't find any banks on this map.",
    "I see 2 restaurants. There aren't any banks.",
    "I see 2 restaurants. There are no banks.",
])
def test_mtmf_a_type_not_seen_is_zero(response: str) -> None:
    types = value(MTMF, response)["types"]
    assert types["restaurant"]["count"] == 2 and types["bank"]["count"] == 0


@pytest.mark.parametrize("response", [
    "I see 2 restaurants. I can't see any banks clearly.",
    "I see 2 restaurants. I don't see any labels, so I can't count banks.",
    "I see 2 restaurants.",
])
def test_mtmf_a_type_unsaid_or_refused_stays_invalid(response: str) -> None:
    assert invalid(MTMF, response)


# ------------------------------------------- 2. a length in words with a fraction
RLE = {"task": "rle", "request": "length", "answer": {"value": 1.0, "unit": "m"}}
DIST = {"task": "frieda_distance", "request": "distance",
        "question": "How far apart are Roberts Coffee and Kuu? Answer in metres.",
        "answer": {"unit": "m"}}


@pytest.mark.parametrize("item", [RLE, DIST])
@pytest.mark.parametrize("response, metres", [
    ("The blue path is roughly half a kilometre long when you follow the roads.", 500.0),
    ("About a quarter of a mile.", 402.336),
    ("It is about a kilometre and a half.", 1500.0),
    ("Roughly three quarters of a km.", 750.0),
    ("Answer: half a kilometre", 500.0),
    ("One and a half kilometres, following the streets.", 1500.0),
    ("Half a kilometre or so.", 500.0),
])
def test_a_fraction_in_words_is_a_length(item: dict, response: str, metres: float) -> None:
    assert value(item, response)["value"] == pytest.approx(metres)


@pytest.mark.parametrize("item", [RLE, DIST])
@pytest.mark.parametrize("response", [
    "Half of the path runs along the river.",
    "The marker is half way along the road.",
    "Maybe half a kilometre, I am not sure.",
    "Half a mile or a kilometre.",
    "About half a kilometre to a kilometre.",
])
def test_a_fraction_without_a_length_or_offered_twice_stays_invalid(item: dict,
                                                                   response: str) -> None:
    assert invalid(item, response)


@pytest.mark.parametrize("item", [RLE, DIST])
@pytest.mark.parametrize("response, metres", [
    ("The whole path is 500 m; half of it runs along the river.", 500.0),
    ("About 1.5 km.", 1500.0),
])
def test_a_length_with_digits_keeps_its_reading(item: dict, response: str,
                                                metres: float) -> None:
    assert value(item, response)["value"] == pytest.approx(metres)


# ----------------------------------------------------- 3. "&" inside a name
RESTAURANT_NAMES = stmf_names_item("restaurant")
FRIEDA_NAMES = {"task": "frieda_border", "request": "textual"}
GRILL = ["Morkku", "Mount Everest", "Maya Bar & Grill"]


@pytest.mark.parametrize("item", [RESTAURANT_NAMES, FRIEDA_NAMES])
@pytest.mark.parametrize("response", [
    "Morkku, Mount Everest, Maya Bar & Grill",
    "The restaurants are Morkku, Mount Everest and Maya Bar & Grill.",
    "Answer: Morkku, Mount Everest, Maya Bar & Grill",
    "- Morkku\n- Mount Everest\n- Maya Bar & Grill",
])
def test_an_ampersand_inside_a_name_is_no_separator(item: dict, response: str) -> None:
    assert value(item, response)["names"] == GRILL


MTMF_R = mtmf_item(["restaurant", "bank"])


@pytest.mark.parametrize("response", [
    "| Feature type | Count | Names |\n|---|---|---|\n| restaurant | 3 | Morkku, Mount "
    "Everest, Maya Bar & Grill |\n| bank | 0 | |",
    "restaurant: 3 (Morkku, Mount Everest, Maya Bar & Grill)\nbank: 0",
    '{"restaurant": {"count": 3, "names": ["Morkku", "Mount Everest", "Maya Bar & Grill"]},'
    ' "bank": {"count": 0, "names": []}}',
    "I see 3 restaurants (Morkku, Mount Everest, Maya Bar & Grill) and no banks.",
])
def test_mtmf_an_ampersand_inside_a_name(response: str) -> None:
    assert value(MTMF_R, response)["types"]["restaurant"]["names"] == GRILL


def test_ampersand_between_names_the_map_writes_still_splits() -> None:
    item = {"task": "stmf", "request": "names", "strata": {"feature_type": "supermarket"},
            "provenance": {"map_names": ["Kuu", "Alepa", "Lidl"]}}
    assert value(item, "Kuu, Alepa & Lidl")["names"] == ["Kuu", "Alepa", "Lidl"]


@pytest.mark.parametrize("item", [RESTAURANT_NAMES, FRIEDA_NAMES])
def test_and_still_cuts_the_last_item(item: dict) -> None:
    assert value(item, "Kuu, Hiisi and Topelias")["names"] == ["Kuu", "Hiisi", "Topelias"]


MW_LIST = {"task": "mapwise_list", "request": "list", "provenance": {"country": "india"}}


@pytest.mark.parametrize("response, codes", [
    ("Punjab, Haryana and Jammu & Kashmir", ["HR", "JK", "PB"]),
    ("Jammu & Kashmir and Punjab", ["JK", "PB"]),
    ("Punjab, Jammu & Kashmir, Haryana", ["HR", "JK", "PB"]),
    ("Punjab & Haryana", ["HR", "PB"]),
])
def test_mapwise_region_with_an_ampersand(response: str, codes: list) -> None:
    assert value(MW_LIST, response)["items"] == codes


@pytest.mark.parametrize("response", [
    "Punjab, Haryana and Jammu & Kashmir",
])
def test_frieda_region_with_an_ampersand(response: str) -> None:
    assert value(FRIEDA_NAMES, response)["names"] == ["Punjab", "Haryana", "Jammu & Kashmir"]


# ------------------------------------------- 4. a quoted name holding a comma
BUS_STOPS = stmf_names_item("bus stop")
QUOTED_LINE = 'Rautatientori, Rautatientori, "Rautatientori, laituri 13"'
QUOTED_NAMES = ["Rautatientori", "Rautatientori", "Rautatientori, laituri 13"]


@pytest.mark.parametrize("item", [BUS_STOPS, FRIEDA_NAMES])
@pytest.mark.parametrize("response", [QUOTED_LINE, "Answer: " + QUOTED_LINE])
def test_a_quoted_name_keeps_its_comma(item: dict, response: str) -> None:
    assert value(item, response)["names"] == QUOTED_NAMES


def test_mtmf_table_with_a_quoted_name_and_an_ampersand() -> None:
    item = mtmf_item(["restaurant", "bus stop"])
    response = ("| Feature type | Count | Names on the map |\n|---|---|---|\n"
                "| restaurant | 5 | Morkku, Mount Everest, Maya Bar & Grill (two more unnamed "
                "icons) |\n| bus stop | 3 | " + QUOTED_LINE + " |")
    types = value(item, response)["types"]
    assert types["restaurant"]["names"] == GRILL
    assert types["bus stop"]["names"] == QUOTED_NAMES


@pytest.mark.parametrize("item", [BUS_STOPS, FRIEDA_NAMES])
@pytest.mark.parametrize("response, names", [
    ('Answer: "Kuu, Hiisi" and Topelias', ["Kuu", "Hiisi", "Topelias"]),
    ('Kuu, "Hiisi", Topelias', ["Kuu", "Hiisi", "Topelias"]),
    ('"Rautatientori", "Rautatientori, laituri 13"', ["Rautatientori",
                                                      "Rautatientori, laituri 13"]),
])
def test_other_quotes_keep_their_reading(item: dict, response: str, names: list) -> None:
    assert value(item, response)["names"] == names
