"""Reader classes of grade24e2/e3's street disagreements fixed by fix24zp, each with near
cases that must keep their reading:

1. SRN: a clause after the last road that only says the road reaches the red marker
   ("..., which leads to the red marker", "which takes you to", "where you'll find the
   red marker", "and you're at the red marker") is no step (fresh24e2#39); in the
   one-sentence, numbered, bulleted and ``Route:`` forms;
2. MTMF: a JSON cut off by the token limit after a fuller answer in lines or a table
   (fresh24e3#13): the fuller answer; with it, "6 icons; the named ones are A, B" in a
   type line gives the names after the description;
3. MTMF prose and lines, STMF names: descriptions inside a bracket of names ("Kuu, Hiisi
   and one without a name", "one unnamed"): no name; "one labelled X", "another called
   Y": X, Y (fresh24e3#15); a bracket of descriptions only keeps its reading;
4. RLE: a length in another unit followed by its rounded value in the asked unit in
   brackets ("~50 m (about 160 ft)" asked in ft): the asked unit's stated value
   (fresh24e3#19); a bracket that is no conversion of the same length is left alone;
5. STMF names: one answer said in a cue-less sentence as the only one of its kind ("The
   only primary road, drawn in orange, is X, which runs ...", "The road shown is X"),
   beside a named non-answer ("; Z is a park, not a road"): [X] (fresh24e3#29).
"""

from __future__ import annotations

import pytest
from helpers.parsed import invalid, mtmf_item, value

SRN = {"task": "srn", "request": "route"}
TWO = ["blue", "turn left", "Lönnrotinkatu", "turn left", "Annankatu", "red"]


# ----------------------------------- 1. a clause after the last road reaching the marker
@pytest.mark.parametrize("response", [
    "From the blue marker, turn left onto Lönnrotinkatu, then turn left again onto "
    "Annankatu, which leads to the red marker.",
    "From the blue marker, turn left onto Lönnrotinkatu, then turn left onto Annankatu, "
    "which takes you to the red marker.",
    "From the blue marker, turn left onto Lönnrotinkatu, then turn left onto Annankatu "
    "which leads to the red marker.",
    "From the blue marker, turn left onto Lönnrotinkatu, then turn left onto Annankatu, "
    "which brings you straight to the red marker.",
    "From the blue marker, turn left onto Lönnrotinkatu, then turn left onto Annankatu "
    "that leads directly to the red marker.",
    "From the blue marker, turn left onto Lönnrotinkatu, then turn left onto Annankatu "
    "where you'll find the red marker.",
    "From the blue marker, turn left onto Lönnrotinkatu, then turn left onto Annankatu, "
    "and you're at the red marker.",
    "From the blue marker, turn left onto Lönnrotinkatu, then turn left onto Annankatu "
    "and it's right at the red marker.",
    # one sentence without blue (fix24zs's rule)
    "Turn left onto Lönnrotinkatu, then turn left onto Annankatu, which leads to the red "
    "marker.",
    # numbered and bulleted sentences
    "1. At the blue marker, turn left onto Lönnrotinkatu.\n"
    "2. Turn left onto Annankatu, which leads to the red marker.",
    "- At the blue marker, turn left onto Lönnrotinkatu.\n"
    "- Turn left onto Annankatu, which takes you to the red marker.",
    "Route: blue, turn left, Lönnrotinkatu, turn left, Annankatu, which leads to red",
])
def test_srn_clause_after_last_road_is_no_step(response: str) -> None:
    assert value(SRN, response)["steps"] == TWO


@pytest.mark.parametrize("response, expected", [
    # near cases that keep their reading
    ("From the blue marker, turn left onto Lönnrotinkatu, then turn left onto Annankatu, "
     "where you'll find the red marker.", TWO),
    ("From the blue marker, turn left onto Lönnrotinkatu, then turn left onto Annankatu "
     "until you arrive at red.", TWO),
    ("From the blue marker, turn left onto Lönnrotinkatu, then turn left onto Annankatu to "
     "the red marker.", TWO),
    ('Answer: ["blue", "turn left", "Lönnrotinkatu", "turn left", "Annankatu", "red"]', TWO),
])
def test_srn_clause_near_cases_keep_reading(response: str, expected: list[str]) -> None:
    assert value(SRN, response)["steps"] == expected


def test_srn_clause_hedge_stays_invalid() -> None:
    assert invalid(SRN, "From the blue marker, turn left onto Lönnrotinkatu, then maybe turn "
                        "left onto Annankatu, which leads to the red marker.")


# ------------------------------------ 4. the asked unit's value in brackets after another
def rle(unit: str) -> dict[str, object]:
    return {"task": "rle", "request": "length", "answer": {"value": 1.0, "unit": unit}}


@pytest.mark.parametrize("response, unit, expected", [
    ("Answer: ~50 m (about 160 ft)", "ft", 160.0),
    ("Answer: 50 m (approx. 160 ft)", "ft", 160.0),
    ("The path is about 50 m (about 160 ft) long.", "ft", 160.0),
    ("Answer: 0.3 km (approx. 1,000 ft)", "ft", 1000.0),
    ("Answer: 0.1 mi (about 160 m)", "m", 160.0),
    ("Answer: 500 ft (~150 m)", "m", 150.0),
])
def test_rle_asked_unit_in_brackets(response: str, unit: str, expected: float) -> None:
    assert value(rle(unit), response)["value"] == pytest.approx(expected)


@pytest.mark.parametrize("response, unit, expected", [
    # near cases: the asked unit first, the asked unit alone, a bracket that is no
    # conversion of the same length, lengths that agree within 1 %, one system
    ("Answer: 0.5 km (520 m)", "m", 500.0),
    ("Answer: ~50 m (about 160 ft)", "m", 50.0),
    ("Answer: 160 ft (about 50 m)", "ft", 160.0),
    ("Answer: 50 m (300 ft)", "ft", 50 / 0.3048),
    ("Answer: 520 m (1,706 ft)", "ft", 1706.0),
    ("Answer: 50 m", "ft", 50 / 0.3048),
])
def test_rle_asked_unit_near_cases(response: str, unit: str, expected: float) -> None:
    assert value(rle(unit), response)["value"] == pytest.approx(expected, rel=1e-3)


# ------------------------- 5. one answer in a cue-less sentence beside a named non-answer
STMF = {"task": "stmf", "request": "names"}


@pytest.mark.parametrize("response, expected", [
    ("The only primary road, drawn in orange, is Lönnrotinkatu, which runs diagonally across "
     "the map; Vanha kirkkopuisto is a park, not a road.", ["Lönnrotinkatu"]),
    ("The only primary road, drawn in orange, is Lönnrotinkatu.", ["Lönnrotinkatu"]),
    ("The only primary road is Lönnrotinkatu, which runs diagonally across the map.",
     ["Lönnrotinkatu"]),
    ("The primary road shown is Lönnrotinkatu, which runs diagonally across the map.",
     ["Lönnrotinkatu"]),
    ("The only supermarket, shown in green, is S-Market Hakaniemi; Alepa is a kiosk, not a "
     "supermarket.", ["S-Market Hakaniemi"]),
    ("The only bank on the map is Aktia Pankki; Coffee Bar is a cafe, not a bank.",
     ["Aktia Pankki"]),
    # near cases that keep their reading
    ("The only primary road is Lönnrotinkatu.", ["Lönnrotinkatu"]),
    ("The only primary road is Lönnrotinkatu; Vanha kirkkopuisto is a park, not a road.",
     ["Lönnrotinkatu"]),
    ("The primary roads are Lönnrotinkatu and Annankatu.", ["Lönnrotinkatu", "Annankatu"]),
    ("Answer: Lönnrotinkatu", ["Lönnrotinkatu"]),
])
def test_stmf_one_name_in_a_sentence(response: str, expected: list[str]) -> None:
    assert value(STMF, response)["names"] == expected


@pytest.mark.parametrize("response", [
    "The only primary road might be Lönnrotinkatu; Vanha kirkkopuisto is a park, not a road.",
    "The only primary road is probably Lönnrotinkatu, which runs diagonally across the map.",
])
def test_stmf_one_name_hedged_stays_invalid(response: str) -> None:
    assert invalid(STMF, response)


# ------------------------------------------------ 3. descriptions inside a bracket of names
MTMF = mtmf_item(["bank", "ATM", "supermarket", "restaurant", "coffee shop", "bus stop",
                  "parking", "public toilet", "beauty shop", "park"])


def _named(response: str) -> dict[str, list[str]]:
    types = value(MTMF, response)["types"]
    return {t: v["names"] for t, v in types.items() if v["count"]}


@pytest.mark.parametrize("response, expected", [
    ("The map shows 1 ATM, 1 supermarket (S-Market Hakaniemi), 3 restaurants (Ravintola La "
     "Mer, Sen Chay and one without a name), 1 coffee shop (Coffee Bar), 2 bus stops (one "
     "labelled Hakaniemi), 1 parking, 1 public toilet and 1 beauty shop. None of the other "
     "types in the list are shown.",
     {"ATM": [], "supermarket": ["S-Market Hakaniemi"],
      "restaurant": ["Ravintola La Mer", "Sen Chay"], "coffee shop": ["Coffee Bar"],
      "bus stop": ["Hakaniemi"], "parking": [], "public toilet": [], "beauty shop": []}),
    ("- restaurant: 3 (Ravintola La Mer, Sen Chay, one unnamed)\n"
     "- bus stop: 2 (one labelled Hakaniemi, another called Kauppahalli)\n"
     "- everything else: 0",
     {"restaurant": ["Ravintola La Mer", "Sen Chay"], "bus stop": ["Hakaniemi", "Kauppahalli"]}),
    ("I can see 2 restaurants (Sen Chay and one with no name) and 1 bus stop (one named "
     "Hakaniemi). None of the other types appear.",
     {"restaurant": ["Sen Chay"], "bus stop": ["Hakaniemi"]}),
    # near cases that keep their reading: descriptions only, plain names
    ("I can see 2 restaurants (one unnamed) and 1 bus stop (Hakaniemi). None of the other "
     "types appear.", {"restaurant": [], "bus stop": ["Hakaniemi"]}),
    ("- restaurant: 2 (Sen Chay, One Piece)\n- everything else: 0",
     {"restaurant": ["Sen Chay", "One Piece"]}),
])
def test_mtmf_descriptions_in_name_brackets(response: str,
                                            expected: dict[str, list[str]]) -> None:
    assert _named(response) == expected


@pytest.mark.parametrize("response, expected", [
    ("There are 3 supermarkets (Kuu, Hiisi and one without a name).", ["Kuu", "Hiisi"]),
    ("There are 2 supermarkets (one labelled Alepa, another called Lidl).", ["Alepa", "Lidl"]),
    ("There are 2 supermarkets (Alepa; the other has no name).", ["Alepa"]),
    # near cases that keep their reading
    ("Answer: One Piece, Kuu", ["One Piece", "Kuu"]),
    ("There are 2 supermarkets (Kuu, Hiisi).", ["Kuu", "Hiisi"]),
])
def test_stmf_descriptions_in_name_brackets(response: str, expected: list[str]) -> None:
    assert value(STMF, response)["names"] == expected


# ------------------------------- 2. a JSON cut off by the token limit after a fuller answer
TYPES3 = mtmf_item(["restaurant", "coffee shop", "bus stop", "bank", "park"])
LINES = ("Let me go through each type:\n- restaurant: 3 knife-and-fork icons; the named "
         "ones are Dong Bei Hu, Huviretki and Ryan Thai\n- coffee shop: 2 (Café Metro, "
         "Kuu)\n- bus stop: 1 (Rautatientori)\n- bank: 0\n- park: 0\n\nSo the final JSON is:\n\n")
FULL = {"restaurant": ["Dong Bei Hu", "Huviretki", "Ryan Thai"],
        "coffee shop": ["Café Metro", "Kuu"],
        "bus stop": ["Rautatientori"]}


def _counted(response: str) -> dict[str, list[str]]:
    types = value(TYPES3, response)["types"]
    return {t: v["names"] for t, v in types.items() if v["count"]}


@pytest.mark.parametrize("tail", [
    '```json\n{"restaurant": {"count": 2, "names": ["Dong Bei Hu", "Ryan Thai"]}, "coffee sh',
    '```json\n{"restaurant": {"count": 0, "na',
    '```json\n{"restaurant": {"count": 2, "names": ["Dong Bei Hu", "Ryan Thai"]}, ',
    '{"restaurant": {"count": 2, "names": ["Dong Bei',
])
def test_mtmf_cut_json_after_a_fuller_list(tail: str) -> None:
    assert _counted(LINES + tail) == FULL


@pytest.mark.parametrize("response, expected", [
    # near cases: a complete JSON after the lines is read; lines alone are read
    (LINES + '```json\n{"restaurant": {"count": 1, "names": ["Ryan Thai"]}, "coffee shop": '
     '{"count": 0, "names": []}, "bus stop": {"count": 0, "names": []}, "bank": {"count": 0, '
     '"names": []}, "park": {"count": 0, "names": []}}\n```', {"restaurant": ["Ryan Thai"]}),
    (LINES.rsplit("So", 1)[0], FULL),
])
def test_mtmf_cut_json_near_cases(response: str, expected: dict[str, list[str]]) -> None:
    assert _counted(response) == expected
