"""Reader classes of issue 24 fixed in session grade24n, each with near cases that must
keep their reading:

1. a list that holds a legend name with "or" in it ("park or garden; residential land")
   is a list, not alternatives (the single-name case was grade24m's #23);
2. a concluding number after the working ("I count 3 here and 4 there.\\nSo 7",
   "3 + 4 = 7", "That makes 7") is the answer, for counts and lengths alike;
3. a sentence naming legend names before its verb ("Eteläranta and Pohjoinen
   Makasiinikatu border Makasiinit.", "Both A and B border it.") gives those names, and
   "The area is park or garden." the category.
"""

from __future__ import annotations

import pytest
from helpers.parsed import invalid, value

from cartoqa.declarations.dispatch import parse_response
from cartoqa.parsing.cardinal import parse_cardinal
from cartoqa.parsing.kinds import Options, parse_options
from cartoqa.parsing.map_names import offers_alternatives
from cartoqa.parsing.numbers import parse_count, parse_length

LAND_USE = ["Kotka", "commercial land", "grass", "industrial or works land", "park or garden",
            "residential land", "Erottajan paloasema"]
CATEGORY_Q = ("Map 1 outlines Kotka in red. Map 2 shades areas by land use: its legend box at "
              "the bottom right names each fill. It shows the same place (its scale, turn and "
              "style may differ) without the outline; one shaded area of map 2 covers exactly "
              "the same ground as Kotka. Which category does the legend give that area? Answer "
              "with the category's name as the legend writes it.")
LIST_Q = ("Map 1 draws Makasiinit (the commercial area) in red. Map 2 shows the same place, "
          "with 3 other features named in its legend. Which of these 3 features border "
          "Makasiinit? Name every one that does (one or more), separated by semicolons.")


def _frieda(question: str, legend: list[str], request: str = "textual",
            task: str = "frieda_equal") -> dict:
    return {"task": task, "request": request, "question": question,
            "provenance": {"maps": [{"features": [{"label": n} for n in legend[:1]],
                                     "legend_categories": legend[1:]}]}}


CATEGORY = _frieda(CATEGORY_Q, LAND_USE)
LIST = _frieda(LIST_Q, ["Makasiinit", "Eteläranta", "Pohjoinen Makasiinikatu",
                        "park or garden", "commercial land"], task="frieda_border")


def _names(item: dict, text: str) -> list[str]:
    return sorted(n.casefold() for n in value(item, text)["names"])


# ---------------------------------------------------------------- 1. "or" inside a listed name

@pytest.mark.parametrize("text", [
    "Answer: park or garden; residential land",
    "park or garden, residential land",
    "Answer: Park or garden and residential land",
    "- park or garden\n- residential land",
    "1. **park or garden**\n2. **residential land**",
    "**Park or garden** and **residential land**",
    'Answer: "park or garden"; "residential land"',
])
def test_a_list_holding_an_or_category_is_two_names(text):
    assert _names(CATEGORY, text) == ["park or garden", "residential land"]


@pytest.mark.parametrize("text", [
    "Answer: industrial or works land; park or garden",
    "industrial or works land, park or garden",
])
def test_two_or_categories_side_by_side(text):
    assert _names(CATEGORY, text) == ["industrial or works land", "park or garden"]


def test_a_feature_list_with_an_or_category_beside_names():
    assert _names(LIST, "Answer: Eteläranta; park or garden") == ["eteläranta",
                                                                   "park or garden"]


@pytest.mark.parametrize("text", [
    "Answer: park or garden or residential land",   # a choice between two categories
    "Answer: park or residential land",
    "Answer: residential land or commercial land",
    "park or garden; maybe residential land",
    "Answer: Eteläranta or Pohjoinen Makasiinikatu",
])
def test_a_real_choice_stays_invalid(text):
    item = LIST if "Etel" in text else CATEGORY
    assert invalid(item, text)


def test_offers_alternatives_is_decided_by_the_legend():
    known = {"park or garden", "residential land"}
    assert not offers_alternatives("park or garden; residential land", known)
    assert offers_alternatives("park or garden; residential land", set())
    assert offers_alternatives("park or garden or residential land", known)
    assert not offers_alternatives("Park  or  Garden", known)  # spacing and case


# ---------------------------------------------------------------- 2. a concluding number

@pytest.mark.parametrize("text", [
    "I count 3 here and 4 there.\nSo 7",
    "I count 3 here and 4 there.\nTotal: 7",
    "I count 3 here and 4 there.\nThat makes 7.",
    "I count 3 here and 4 there.\n= 7",
    "I count 3 here and 4 there, in total 7.",
    "3 + 4 = 7",
    "There are 3 on the left and 4 on the right: 3 + 4 = 7 areas.",
    "I see 3 on the left and 4 on the right, so there are 7 altogether.",
    "There are 3 north of it and 4 south of it. Therefore, the answer is 7.",
    "Answer: 3 + 4 = 7",
    "**Count:** 3 west + 4 east = 7",
    "I count 3 here and 4 there.\nSo it is 7.",
    "3 states in the West and 4 in the South, making 7 states in total.",   # MapWise's form
    "In the top half I see 3 cafes, in the bottom half 4 cafes. So 7 cafes.",  # STMF's
])
def test_the_concluding_count_wins(text):
    assert parse_count(text).value == {"count": 7}


@pytest.mark.parametrize(("text", "count"), [
    ("Answer: 3 (2 + 1)", 3),                      # a bare count, then its working
    ("Answer: 2 (areas 1 and 3)", 2),
    ("There are 3 features; 2 of them border it, so 2.", 2),
    ("So 3 + 4 areas, 7 in total.", 7),             # an operand after "so" is no conclusion
])
def test_details_after_a_count_are_not_conclusions(text, count):
    assert parse_count(text).value == {"count": count}


@pytest.mark.parametrize("text", [
    "I count 3 here and 4 there.\nSo maybe 7",       # a hedged conclusion
    "I count 3 here and 4 there.\nSo 7 or 8",
])
def test_no_firm_conclusion_stays_invalid(text):
    assert not parse_count(text).valid


def test_a_conclusion_beats_the_one_kind_named():
    text = "I count 1 clothes shop in the top half and 2 in the bottom half.\nSo 3"
    assert parse_count(text, feature="clothes shop").value == {"count": 3}
    # two kinds named: the asked kind's count, not the sum
    assert parse_count("There are 3 banks and 5 cafes, so 8 shops.", feature="bank"
                       ).value == {"count": 3}


@pytest.mark.parametrize("text", [
    "120 m on Mikonkatu and 80 m on Kaivokatu.\nSo 200 m",
    "120 m + 80 m = 200 m",
    "The first leg is 120 m and the second 80 m, that makes 200 m.",
    "Map 1 gives 150 m to the shared dot and map 2 gives 60 m from it; so roughly 200 m.",
    "Answer: 120 m + 80 m = 200 m",
    "A is 150 m from C and C is 90 m from B, so the distance is about 0.2 km.",
    "The route is 120 m, then turn and go 80 m. So it is about 200 m.",     # RLE's form
    "120 m on A and 80 m on B. So the total length of the route is 200 m.",
])
def test_the_concluding_length_wins(text):
    assert parse_length(text, unit="m").value["value"] == pytest.approx(200.0)


@pytest.mark.parametrize("text", [
    "The scale bar shows 100 m.",
    "120 m on A and 80 m on B.",
    "120 m on A and 80 m on B, so maybe 200 m.",
    "About 60 m on the first street and 50 m on the second.\nSo maybe 110 m",
])
def test_lengths_without_a_firm_conclusion_stay_invalid(text):
    assert not parse_length(text, unit="m").valid


# ---------------------------------------------------------------- 3. legend names in a sentence

@pytest.mark.parametrize(("text", "names"), [
    ("Eteläranta and Pohjoinen Makasiinikatu border Makasiinit.",
     ["eteläranta", "pohjoinen makasiinikatu"]),
    ("Both Eteläranta and Pohjoinen Makasiinikatu border it.",
     ["eteläranta", "pohjoinen makasiinikatu"]),
    ("Looking at map 2, I see that Eteläranta and Pohjoinen Makasiinikatu touch the outline.",
     ["eteläranta", "pohjoinen makasiinikatu"]),
    ("Only Eteläranta borders it.", ["eteläranta"]),
])
def test_legend_names_before_the_verb(text, names):
    assert _names(LIST, text) == names


@pytest.mark.parametrize("text", ["The area is park or garden.", "It's park or garden."])
def test_an_or_category_in_a_sentence(text):
    assert _names(CATEGORY, text) == ["park or garden"]


@pytest.mark.parametrize("text", [
    "Eteläranta and maybe Pohjoinen Makasiinikatu border it.",   # a hedge
    "Either Eteläranta or Pohjoinen Makasiinikatu borders it.",
    "Neither Eteläranta nor Pohjoinen Makasiinikatu border it.",   # negation: not a pick
])
def test_sentences_that_do_not_name_a_firm_list(text):
    found = parse_response_names(LIST, text)
    assert found is None or "pohjoinen makasiinikatu" not in found


def parse_response_names(item: dict, text: str) -> list[str] | None:
    """The names read, or ``None`` when the response is invalid."""
    r = parse_response(item, text)
    return sorted(n.casefold() for n in r.value["names"]) if r.valid else None


# ---------------------------------------------------------------- 4. more classes found here

@pytest.mark.parametrize(("text", "direction"), [
    ("Answer: N45E", "north-east"),                 # a quadrant bearing
    ("Answer: S 30° W", "south-west"),
    ("Answer: N10W", "north"),
    ("Answer: bearing 90°", "east"),                # an azimuth
    ("It lies on a bearing of about 135 degrees from the hotel.", "south-east"),
])
def test_bearings_name_the_nearest_of_eight(text, direction):
    assert parse_cardinal(text).value == {"direction": direction}


@pytest.mark.parametrize("text", ["Answer: N22.5E", "Answer: bearing 67.5°", "Answer: NNE",
                                  "Answer: towards the top-left"])
def test_bearings_half_way_and_screen_directions_stay_invalid(text):
    assert not parse_cardinal(text).valid


@pytest.mark.parametrize(("text", "metres"), [
    ("Answer: zero point three km", 300.0),         # a decimal in words
    ("Answer: 290 (metres)", 290.0),                # the unit in brackets
    ("Answer: 0.29 [km]", 290.0),
    ("Answer: 0.29 km.\nActually, re-measuring, 0.35 km.", 350.0),   # a trailing correction
    ("Answer: 0.29 km\nSorry, 0.35 km.", 350.0),
    ("Answer: 0.29 km\n\nActually, the scale bar shows 100 m.", 290.0),  # an explanation
])
def test_length_forms(text, metres):
    found = parse_length(text, unit="m")
    assert found.value["value"] == pytest.approx(metres)


def test_digit_words_in_a_row_are_not_summed():
    assert parse_length("Answer: point two nine kilometres", unit="m").value["value"] == \
        pytest.approx(290.0)


@pytest.mark.parametrize(("text", "names"), [
    ("Answer: A\nWait, no - B.", ["b"]),
    ("Answer: A\nActually, B.", ["b"]),
    ("Answer: A\n\nActually, both look similar.", ["a"]),       # no correction
    ("Answer: B\nSorry for any confusion.", ["b"]),
])
def test_a_trailing_correction_line(text, names):
    item = _frieda("Map 2 outlines two areas, A and B. Which of them covers exactly the same "
                   "ground as Kotka? Answer A or B.", LAND_USE)
    assert _names(item, text) == names


@pytest.mark.parametrize("text", ["None of them borders it.", "None.", "Answer: none",
                                  "No feature borders Makasiinit.", "Nothing borders it.",
                                  "Neither Eteläranta nor Pohjoinen Makasiinikatu border it."])
def test_an_answer_naming_no_feature_is_an_empty_list(text):
    assert value(LIST, text) == {"names": []}


@pytest.mark.parametrize("text", ["Answer: Eteläranta;\nPohjoinen Makasiinikatu",
                                  "Answer: Eteläranta,\nPohjoinen Makasiinikatu\n\nBoth touch it."])
def test_a_cued_list_cut_after_a_separator_goes_on_below(text):
    assert _names(LIST, text) == ["eteläranta", "pohjoinen makasiinikatu"]


# ---------------------------------------------------------------- 5. counts: map numbers, wholes

@pytest.mark.parametrize(("text", "count"), [
    ("Map 3 shows Pikkudami. No commercial land areas border it.", 0),   # a map's number
    ("Pikkudami (map 5) borders 0 commercial areas.", 0),
    ("The map that shows Pikkudami is Map 6. Count: 0", 0),
    ("None of the commercial land areas border Pikkudami in Map 2.", 0),
    ("In Map 4 there are 2 such areas.", 2),
    ("2 of the 3 dots lie in commercial land.", 2),                      # the whole asked
    ("Out of the three, two lie within commercial land.", 2),
    ("Answer: 2 out of 3", 2),
])
def test_map_numbers_and_wholes_are_no_counts(text, count):
    assert parse_count(text).value == {"count": count}


@pytest.mark.parametrize("text", [
    "Map 4 shows it over land-use shading. The commercial land areas adjacent to it are",
    "Looking at map 2 and map 3.",
])
def test_only_map_numbers_is_no_count(text):
    assert not parse_count(text).valid


# ---------------------------------------------------------------- 6. options with a description

EQUAL = _frieda("Map 1 outlines Kaisa-talo in red. Map 2 outlines two areas, A and B, on a "
                "turned map, perhaps at another scale. Which of them covers exactly the same "
                "ground as Kaisa-talo? Answer A or B.", ["Kaisa-talo"])


@pytest.mark.parametrize(("text", "letter"), [
    ("Area B (the one on the right)", "b"),
    ("Answer: Area A (left)", "a"),
    ("Answer: B (rotated 90°)", "b"),
    ("A - it has the same notch.", "a"),
    ("The red outline of Kaisa-talo matches Area A", "a"),
    ("A is the match; B is rotated differently.", "a"),
    ("Area B is the answer.", "b"),
])
def test_an_option_with_a_description(text, letter):
    assert _names(EQUAL, text) == [letter]


@pytest.mark.parametrize("text", ["Answer: A (or maybe B)", "Answer: A or B (not sure)",
                                  "Kaisa-talo does not match Area A.",
                                  "Kaisa-talo matches Area A or Area B."])
def test_options_with_doubt_or_negation_stay_invalid(text):
    assert invalid(EQUAL, text)


# ---------------------------------------------------------------- 7. names with extra words

DOTS = _frieda("The map shades areas by land use: its legend box at the bottom right names each "
               "fill. Which of Jääpuiston kahvila (blue dot), Grand Shanghai (purple dot) and "
               "Gasthaus Omapohja (orange dot) lies within an area shown as commercial land? "
               "Answer with its name.",
               ["Grand Shanghai", "Jääpuiston kahvila", "Gasthaus Omapohja", "commercial land",
                "park or garden", "grass"], task="frieda_within")


@pytest.mark.parametrize("text", [
    "The purple dot, Grand Shanghai.",             # the marker beside the name
    "Only Grand Shanghai lies within commercial land; the others do not.",
    "Answer: Only Grand Shanghai",
    "Answer: Grand Shanghai restaurant",           # an English generic word after it
])
def test_extra_words_around_a_legend_name(text):
    assert _names(DOTS, text) == ["grand shanghai"]


@pytest.mark.parametrize("text", ["Answer: park/garden", "Answer: park / garden"])
def test_a_slash_for_the_or_of_a_legend_name(text):
    assert _names(CATEGORY, text) == ["park or garden"]


@pytest.mark.parametrize(("text", "names"), [
    ("Answer: Only Fans", ["only fans"]),                       # not a legend name: as written
    ("The green dot, Grand Shanghai.", ["grand shanghai"]),
    ("Answer: Grand Shanghai; Gasthaus Omapohja", ["gasthaus omapohja", "grand shanghai"]),
])
def test_extra_word_rules_keep_other_names(text, names):
    assert _names(DOTS, text) == names


# ---------------------------------------------------------------- 8. directions, asides

@pytest.mark.parametrize(("text", "direction"), [
    ("Kuvatehdas is north of Vagabond, and Vagabond is north-east of Hotel St. George, so "
     "overall north.", "north"),
    ("Map 1: west. Map 2: south-west. Therefore, it is south-west of the hotel.", "south-west"),
    ("north of A and east of B, so north-east.", "north-east"),
])
def test_the_direction_the_working_concludes(text, direction):
    assert parse_cardinal(text).value == {"direction": direction}


@pytest.mark.parametrize("text", [
    "Map 1: west. Map 2: south-west. So maybe west.",      # a hedged conclusion
    "It is north, not south.",                              # no conclusion word: as before
    "Answer: North-northeast",                              # sixteen-point, spelled out
    "It lies east-northeast.",
])
def test_no_firm_direction_stays_invalid(text):
    assert not parse_cardinal(text).valid


@pytest.mark.parametrize(("text", "value"), [
    ("820 ft (map 1: 400 ft, map 2: 500 ft)", 820.0),
    ("About 820 feet (400 ft on map 1 plus 500 ft on map 2, at an angle).", 820.0),
])
def test_working_in_brackets_beside_a_length(text, value):
    assert parse_length(text, unit="ft").value["value"] == pytest.approx(value)


@pytest.mark.parametrize(("text", "count"), [
    ("2 (1 blue, 1 orange)", 2),
    ("2 (Café Artist and Splizzeria; vero moda is on grass, 1 dot)", 2),
])
def test_working_in_brackets_beside_a_count(text, count):
    assert parse_count(text).value == {"count": count}


def test_lengths_outside_brackets_that_disagree_stay_invalid():
    assert not parse_length("400 ft (map 1) and 500 ft (map 2)", unit="ft").valid


def test_a_trailing_correction_to_an_option_letter():

    options = Options({"a": "590–705", "b": "120–266", "c": "412–530"})
    assert parse_options("My answer is [a]\nActually, c.", options).value == {"letters": ["c"]}
    assert parse_options("My answer is [a]\nActually, a different class fits.", options
                         ).value == {"letters": ["a"]}


@pytest.mark.parametrize("text", ['{"answer": "Grand Shanghai"}',
                                  '```json\n{"answer": "Grand Shanghai", "reason": "orange"}\n```'])
def test_a_json_answer_value_is_read_whole(text):
    assert value(DOTS, text) == {"names": ["Grand Shanghai"]}


@pytest.mark.parametrize("text", ['{"answer": ""}', '{"answer": "maybe Grand Shanghai"}'])
def test_an_empty_or_hedged_json_answer_is_invalid(text):
    assert invalid(DOTS, text)
