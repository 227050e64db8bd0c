"""Reader classes of grade24zt/grade24zx's disagreements (fresh24zx, fresh40, fresh41) and
fix24zu's "seen, not fixed", fixed by fix24zr as classes, each with near cases that keep
their reading:

1. a cue-less multiple-choice answer whose last sentence concludes with one option
   (``... most consistent with a **golf course (D)**.``) after reasoning that names and
   rules out other letters: that letter (MFS); two letters left standing, a last sentence
   that rules one out, a hedge: still invalid;
2. MTMF bullets whose header carries the count in brackets (``* **Restaurants (4):**
   Cantina West, ...``): read as ``Restaurants: 4 Cantina West, ...`` lines;
3. a length range after a mention of the scale bar, in a new clause (``Based on the 50 ft
   scale bar, the total length is somewhere between 1,000 and 1,500 ft``): a range, invalid
   (RLE, FRIEDA distance), never its upper end;
4. a MapWise range whose scale word the legend is already in (``[0 to 200 million]`` on a
   legend of 0.064-200, or on a map titled ``... (millions)``): read in the legend's numbers;
5. the last sentence answering a distance (``..., the distance from A to B is approximately
   0.09 km (about 90 m)``) after intermediate lengths: that length (FRIEDA distance, RLE);
6. MTMF ``Type: count`` lines or JSON followed by ``The other types are hard to read.``:
   those types are unanswered, the response is invalid (as in prose since fix24zu).
"""

from __future__ import annotations

import pytest
from helpers.parsed import invalid, mtmf_item, value

from cartoqa.declarations.dispatch import parse_response
from cartoqa.parsing import Parsed

MFS = {"task": "mfs", "request": "choice",
       "options": {"A": "swimming pool", "B": "sports pitch", "C": "ferry terminal",
                   "D": "golf course", "E": "saltmarsh"}}
REASONING = ("### Observations\n- The fill is a light, slightly yellowish green.\n"
             "- There is no water-blue (rules out the swimming pool) and no marsh hatching "
             "(rules out the saltmarsh).\n\n### Reasoning\nA sports pitch (B) is drawn in a "
             "more saturated green with a clear outline, while the paler green with a thin "
             "edge matches the golf course style (D).\n\n### Conclusion\n")


# ------------------------------------------- 1. the concluding sentence's one option letter
@pytest.mark.parametrize("last", [
    "The feature is most consistent with a **golf course (D)**.",
    "Therefore it is the golf course (D).",
    "So the feature is a **golf course (D)**.",
    "It best matches the golf course (D).",
    "Overall, the best fit is (D) golf course.",
])
def test_mfs_the_concluding_sentence_names_one_letter(last: str) -> None:
    assert value(MFS, REASONING + last)["letter"] == "D"


@pytest.mark.parametrize("last", [
    "The feature is most consistent with either a sports pitch (B) or a golf course (D).",
    "So it is a golf course (D) or a sports pitch (B).",
    "So the paler green rules out the sports pitch (B).",
    "So it is not the sports pitch (B).",
    "The feature is probably most consistent with a golf course (D).",
    "It looks like a golf course (D).",  # no concluding word: the letters still disagree
])
def test_mfs_a_last_sentence_leaving_two_or_ruling_out_stays_invalid(last: str) -> None:
    assert invalid(MFS, REASONING + last)


# ------------------------------------------- 2. MTMF bullets "**Type (n):** names"
TYPES = ["convenience store", "restaurant", "coffee shop", "bank", "clothes shop", "park"]
BULLETS = ("Here is what I can find on the map:\n\n"
           "* **Restaurants (4):** Cantina West, Day & Nite Sushi Bar, The Cock, Zucchini\n"
           "* **Coffee shop (1):** Picnic\n* **Bank (1):** POPPankki\n")


@pytest.mark.parametrize("response", [
    BULLETS + "\nNone of the other listed feature types are visible, so their count is 0.",
    BULLETS.replace("* **", "- **"),
    BULLETS.replace("* **", "1. **").replace("):**", ")**:"),
    BULLETS.replace("**", ""),
])
def test_mtmf_bold_bullet_headers_with_the_count_in_brackets(response: str) -> None:
    types = value(mtmf_item(TYPES), response)["types"]
    assert types["restaurant"] == {"count": 4, "names": [
        "Cantina West", "Day & Nite Sushi Bar", "The Cock", "Zucchini"]}
    assert types["coffee shop"] == {"count": 1, "names": ["Picnic"]}
    assert types["bank"] == {"count": 1, "names": ["POPPankki"]}
    assert types["park"] == {"count": 0, "names": []}


def test_mtmf_type_count_lines_keep_their_reading() -> None:
    types = value(mtmf_item(TYPES), "- Restaurant: 2 (A, B)\n- Bank: 1 (C)")["types"]
    assert types["restaurant"] == {"count": 2, "names": ["A", "B"]}
    assert types["bank"]["count"] == 1


# --------------------------- 3. a range in a new clause after the scale bar: no length
RLE_FT = {"task": "rle", "request": "length", "answer": {"value": 1.0, "unit": "ft"}}
RLE = {"task": "rle", "request": "length", "answer": {"value": 1.0, "unit": "m"}}
DIST = {"task": "frieda_distance", "request": "distance",
        "question": "How far apart are Roberts Coffee and Kuu? Answer in metres.",
        "answer": {"unit": "m"}}


@pytest.mark.parametrize("item", [RLE_FT, DIST])
@pytest.mark.parametrize("response", [
    "The path makes several turns. Based on the 50 ft scale bar, the total length is somewhere "
    "between 1,000 and 1,500 ft; I can't estimate it more precisely from this image.",
    "Using the scale bar, the distance is between 300 and 400 m.",
    "Using the scale bar, the route is 300 to 400 m long.",
    "Judging by the scale bar; the length is 300-400 m.",
])
def test_a_range_after_the_scale_bar_in_a_new_clause_is_no_length(
        item: dict[str, object], response: str) -> None:
    assert invalid(item, response)


@pytest.mark.parametrize("item", [RLE, DIST])
@pytest.mark.parametrize("response", [
    "The scale bar shows 100 - 200 m ticks; the route is about 350 m.",
    "Based on the scale bar, the length is about 350 m.",
    "The scale bar runs 0 - 100 m, so the route is about 350 m.",
])
def test_the_scale_bars_own_range_is_still_skipped(item: dict[str, object],
                                                   response: str) -> None:
    assert value(item, response)["value"] == 350


# ------------------------------------- 4. a scale word the legend's numbers are already in
LABELS = ["0.064–16.8", "25.4–42", "49.4–72.6", "91.3–112", "200–200"]
RANGE_ITEM = {"task": "mapwise_range", "request": "range",
              "provenance": {"country": "india", "classification": {"labels": LABELS}}}
TITLED = {"task": "mapwise_range", "request": "range",
          "provenance": {"country": "india", "title": "Population, Census 2011 (millions)"}}


@pytest.mark.parametrize("item", [RANGE_ITEM, TITLED])
@pytest.mark.parametrize("response", [
    "My answer is [0 to 200 million]",
    "My answer is [0 - 200 million]",
    "My answer is [0 million - 200 million]",
])
def test_mapwise_range_scale_word_the_legend_is_in(item: dict[str, object],
                                                   response: str) -> None:
    assert value(item, response)["range"] == [0, 200]


@pytest.mark.parametrize("title, response, expected", [
    ("GDP (in lakh)", "My answer is [0 lakh - 200 lakh]", [0, 200]),
    ("Population, Census 2011", "My answer is [0 to 200 million]", [0, 2e8]),
    ("Population (thousands)", "My answer is [0 to 200 million]", [0, 2e8]),
    ("Population (millions)", "My answer is [0 - 200]", [0, 200]),
])
def test_mapwise_range_the_title_must_carry_that_scale(title: str, response: str,
                                                       expected: list[float]) -> None:
    item = {"task": "mapwise_range", "request": "range", "provenance": {"title": title}}
    assert value(item, response)["range"] == expected


def test_mapwise_range_a_scaled_reading_inside_the_legend_keeps_its_scale() -> None:
    item = {"task": "mapwise_range", "request": "range",
            "provenance": {"classification": {"labels": ["1000–5000", "5000–2000000"]}}}
    assert value(item, "My answer is [1k - 2 million]")["range"] == [1000, 2e6]


# -------------------------------------------- 5. the last sentence answering the distance
ANSWERED = ("On map 2, Dedo's Pizza Kebab is about 0.23 km from Huviretki and Colorado about "
            "0.3 km, but only Thirsty Scholar lies inside the area shaded as education "
            "grounds. Transferring it to map 1 using Huviretki as the common point, the "
            "distance from Lukemattomat merkit to Thirsty Scholar is approximately 0.09 km "
            "(about 90 m), measured with the 0.02 km scale bar.")


@pytest.mark.parametrize("item", [RLE, DIST])
@pytest.mark.parametrize("response, metres", [
    (ANSWERED, 90),
    ("The first leg is 120 m and the second 200 m. So the total length of the route is "
     "about 320 m.", 320),
    ("Kuu is 0.2 km from A and B is 0.3 km from A. The distance from Roberts Coffee to Kuu "
     "works out to roughly 450 m.", 450),
])
def test_the_last_sentence_answering_the_distance_wins(item: dict[str, object],
                                                      response: str, metres: float) -> None:
    got = value(item, response)
    assert round(got["value"] * (1000 if got["unit"] == "km" else 1)) == metres


@pytest.mark.parametrize("item", [RLE, DIST])
@pytest.mark.parametrize("response", [
    "The distance from A to B is 0.2 km. C is 0.3 km from B.",
    "A is 0.2 km from B. The distance from A to C is maybe 0.3 km.",
    "A is 0.2 km from B. The distance from A to C is between 0.3 and 0.4 km.",
    "A is 0.2 km from B. The distance is 0.3 km, or 0.5 km by road.",
])
def test_a_last_sentence_that_does_not_answer_alone_stays_invalid(
        item: dict[str, object], response: str) -> None:
    assert invalid(item, response)


# -------------------- 6. MTMF lines or JSON, then "the other types are hard to read"
@pytest.mark.parametrize("response", [
    "Restaurant: 2 (A, B)\nBank: 1 (C)\nThe other types are hard to read.",
    '{"restaurant": 2, "bank": 1}\nThe remaining types are too small to make out.',
    "| type | count |\n|---|---|\n| restaurant | 2 |\n| bank | 1 |\n\n"
    "I can't read the rest: the other types are unclear.",
])
def test_mtmf_types_said_unreadable_after_lines_or_json_are_unanswered(response: str) -> None:
    assert invalid(mtmf_item(TYPES), response)


@pytest.mark.parametrize("response", [
    "Restaurant: 2 (A, B)\nBank: 1 (C)\nThe other types are not present.",
    '{"restaurant": 2, "bank": 1}\nNone of the other types appear.',
    "Restaurant: 2 (A, B)\nBank: 1 (C)",
])
def test_mtmf_types_said_absent_after_lines_or_json_count_zero(response: str) -> None:
    types = value(mtmf_item(TYPES), response)["types"]
    assert types["restaurant"]["count"] == 2 and types["park"]["count"] == 0


def test_mapwise_range_a_low_of_zero_with_a_near_scaled_top_keeps_its_scale() -> None:
    # fresh14.yaml#40: [0 - 15k] on a legend of 223 to 12600 is 0 to 15000 (not far above)
    item = {"task": "mapwise_range", "request": "range", "provenance": {"classification": {
        "labels": ["223–1350", "1450–3030", "3180–4950", "7170–8970", "12600–12600"]}}}
    assert value(item, "My answer is [0 - 15k]")["range"] == [0, 15000]


# ------------- 7. FRIEDA textual: the one clause that answers, in a sentence naming all three
FRIEDA_Q = ("Find the map that outlines Pitkänsillanranta (blue), Kasvimuseo (purple) and "
            "Pikkudami (orange) over areas shaded by building use. Which one of "
            "Pitkänsillanranta (blue line), Kasvimuseo (purple outline) and Pikkudami (orange "
            "outline) borders an area shown as residential building? Answer with its name.\n\n"
            "Answer format: the name exactly as the legend writes it, on the last line, in "
            "this form:\nAnswer: <name>")
FRIEDA_TEXTUAL = {"task": "frieda_border", "request": "textual", "question": FRIEDA_Q}


@pytest.mark.parametrize("response", [
    "Pitkänsillanranta (the blue line) borders the area shaded as residential building on its "
    "north side; Kasvimuseo and Pikkudami are surrounded by public buildings and park.",
    "Pitkänsillanranta borders the residential building area, while Kasvimuseo and Pikkudami "
    "sit among public buildings.",
    "Kasvimuseo and Pikkudami are surrounded by park; Pitkänsillanranta borders an area of "
    "residential building.",
])
def test_frieda_the_clause_answering_the_question_names_the_one(response: str) -> None:
    assert value(FRIEDA_TEXTUAL, response)["names"] == ["Pitkänsillanranta"]


@pytest.mark.parametrize("response", [
    # two clauses each say it of one feature: no single answer
    "Pitkänsillanranta borders a residential building area; Kasvimuseo also borders "
    "residential building.",
    # the answering clause negates
    "Pitkänsillanranta does not border residential building; Kasvimuseo and Pikkudami are "
    "surrounded by public buildings and park.",
    # the answering clause hedges
    "Pitkänsillanranta maybe borders the residential building area; Kasvimuseo and Pikkudami "
    "are surrounded by public buildings and park.",
])
def test_frieda_no_single_answering_clause_gives_no_pick(response: str) -> None:
    got = parse_response_names(response)
    assert got != ["Pitkänsillanranta"]


def parse_response_names(response: str) -> list[str] | None:
    r = parse_response(FRIEDA_TEXTUAL, response)
    return r.value["names"] if isinstance(r, Parsed) else None
