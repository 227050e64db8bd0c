"""Reader classes of issue 24 found by the independent sets ``fresh24t.yaml``/``fresh17.yaml``
(grade24t) and ``fresh24u.yaml``/``fresh18.yaml`` (grade24u), each with near cases that must
keep their reading:

1. a line comment after a value of a JSON list or object that runs over several lines
   (``"turn left",  // onto the esplanade``) is no part of the answer, in every suite; a
   response that is one code fence around a JSON value is read as that value;
2. a ranking in prose after a lead-in clause (``From highest to lowest, Ohio comes first,
   then Iowa, then New Mexico.``): the lead-in is no place and the first region keeps
   its place; "lowest to highest" reverses a "then" chain; a comma list's last ``B and C``
   is two places; a short word before lower-case words is no region code ("In descending
   order" is no Indiana);
3. a count said as none ("None of the coastal provinces has a value above 48; the highest
   class tops out at 48.5 ...") is 0 when every number beside it is a value compared with
   or quoted (``above 48``, ``41.8–48.5``, ``of the 4``, ``within 500 m``), not a count; a
   hedge stays invalid and a count given after the none (``except 2``) is not dropped;
4. a cue-less FRIEDA answer to a question that offers features to pick from ("Which one
   of A (blue outline), B (purple outline) and C (orange line) ...", "Of A (blue dot), B
   ... and C ..., which one ...") is the one offered feature its last sentence naming any
   of them names, not a leading phrase or the reasoning cut at commas ("Of the three dots
   in public buildings, Ooster is the nearest to mr. big."); two offered names, a
   negation or a hedge in that sentence keep the reading it had.
"""

from __future__ import annotations

import pytest
from helpers.parsed import invalid, mtmf_item, stmf_names_item, value

SRN = {"task": "srn", "request": "route"}
STMF_NAMES = stmf_names_item("cafe")
USA = {"provenance": {"country": "usa"}}
MW_LIST = {"task": "mapwise_list", "request": "list", **USA}
MW_RANK = {"task": "mapwise_rank", "request": "rank", **USA}
MW_COUNT = {"task": "mapwise_count", "request": "count", "provenance": {"country": "china"}}
STMF_COUNT = {"task": "stmf", "request": "count", "strata": {"feature_type": "bank"}}
def _frieda(task: str, question: str, legend: list[str]) -> dict:
    return {"task": task, "request": "textual", "question": question,
            "provenance": {"maps": [{"features": [{"label": n} for n in legend]}]}}


RANK = _frieda(
    "frieda_distance", "The map shades areas by building use: its legend box at the bottom "
    "right names each fill. Of Ooster (blue dot), Minuuttibaari (purple dot) and Kitty's Public "
    "House (orange dot), which one lies within an area shown as public building and is "
    "closest to mr. big (red dot), in a straight line? Answer with its name.",
    ["mr. big", "Ooster", "Minuuttibaari", "Kitty's Public House", "commercial building",
     "public building"])
PICK = _frieda(
    "frieda_border", "Find the map that outlines Puolustusministeriö (blue), Hotel Lilla Robert "
    "(purple) and Pohjoinen Makasiinikatu (orange) over areas shaded by building use. Which "
    "one of Puolustusministeriö (blue outline), Hotel Lilla Robert (purple outline) and "
    "Pohjoinen Makasiinikatu (orange line) borders an area shown as commercial building? "
    "Answer with its name.",
    ["Puolustusministeriö", "Hotel Lilla Robert", "Pohjoinen Makasiinikatu",
     "commercial building", "public building", "residential building"])
OVERLAP = _frieda(
    "frieda_intersect", "Find the map that outlines Ylioppilasaukio (blue), Kampin kappeli "
    "(purple) and Simonkatu (orange) over areas shaded by land use. Which one of "
    "Ylioppilasaukio (blue outline), Kampin kappeli (purple outline) and Simonkatu (orange "
    "line) partly overlaps an area shown as commercial land? Answer with its name.",
    ["Ylioppilasaukio", "Kampin kappeli", "Simonkatu", "commercial land", "residential land"])
WITHIN = _frieda(
    "frieda_within", "The map shades areas by land use: its legend box at the bottom right "
    "names each fill. Which of Wok Up (blue dot), Omenahotelli Yrjönkatu (purple dot) and "
    "Elias Lönnrot (orange dot) lies within an area shown as commercial land? Answer with its "
    "name.", ["Wok Up", "Omenahotelli Yrjönkatu", "Elias Lönnrot", "commercial land"])
FRIEDA_COUNT = {"task": "frieda_border", "request": "count",
                "question": "How many of the features in the legend border Kiasma?"}
TYPES = ["ATM", "bank", "bus stop", "coffee shop"]
MTMF = mtmf_item(TYPES)


# ---------------------------------------------------------------- 1. comments in JSON values
ROUTE = ["blue", "turn left", "Pohjoisesplanadi", "turn right", "Fabianinkatu", "red"]


@pytest.mark.parametrize("response", [
    '```json\n[\n  "blue",\n  "turn left",        // onto the esplanade\n  "Pohjoisesplanadi",'
    '\n  "turn right",\n  "Fabianinkatu",\n  "red"\n]\n```',
    '[\n  "blue",  // start\n  "turn left",\n  "Pohjoisesplanadi",\n  "turn right",  // at the '
    'church\n  "Fabianinkatu",\n  "red"  // end\n]',
    '[\n  "blue",\n  "turn left",  # onto the esplanade\n  "Pohjoisesplanadi",\n  "turn right",'
    '\n  "Fabianinkatu",\n  "red"\n]',
    "Route:\n['blue',\n 'turn left', // onto the esplanade\n 'Pohjoisesplanadi', 'turn right',"
    "\n 'Fabianinkatu', 'red']",
    '```json\n{"route": ["blue", "turn left",  // here\n "Pohjoisesplanadi", "turn right", '
    '"Fabianinkatu", "red"]}\n```',
])
def test_a_comment_after_a_route_step_is_no_step(response: str) -> None:
    assert value(SRN, response)["steps"] == ROUTE


@pytest.mark.parametrize(("item", "response", "key", "got"), [
    (STMF_NAMES, '```json\n["Café Engel",  // by the square\n "Kappeli"]\n```', "names",
     ["Café Engel", "Kappeli"]),
    (MW_LIST, '```json\n["Ohio",  // the darkest\n "Iowa"]\n```', "items", ["IA", "OH"]),
    (MW_LIST, "My answer is [Ohio,  // the darkest\n Iowa]", "items", ["IA", "OH"]),
    (MW_RANK, '```json\n[\n  "Ohio",  // highest\n  "Iowa",\n  "New Mexico"\n]\n```', "ranks",
     {"OH": 1, "IA": 2, "NM": 3}),
])
def test_a_comment_in_a_list_of_another_suite(item: dict, response: str, key: str,
                                              got: object) -> None:
    assert value(item, response)[key] == got


def test_a_comment_in_a_json_object_of_counts() -> None:
    text = ('```json\n{\n  "ATM": 0,\n  "bank": 2,  // two on the corner\n  "bus stop": 1,\n'
            '  "coffee shop": 0\n}\n```')
    assert value(MTMF, text)["types"]["bank"]["count"] == 2


@pytest.mark.parametrize(("item", "response", "key", "got"), [
    # a fenced JSON list over several lines, no comment: every element (the first was lost)
    (MW_LIST, '```json\n["Ohio",\n "Iowa"]\n```', "items", ["IA", "OH"]),
    (MW_RANK, '```json\n["Ohio",\n "Iowa", "New Mexico"]\n```', "ranks",
     {"OH": 1, "IA": 2, "NM": 3}),
    # a "#" or "//" inside a value stays
    (SRN, '[\n  "blue",\n  "Route #7",\n  "red"\n]', "steps", ["blue", "Route #7", "red"]),
    (STMF_NAMES, '[\n  "Bar // Kitchen",\n  "Kappeli"\n]', "names", ["Bar // Kitchen", "Kappeli"]),
])
def test_values_that_keep_their_reading(item: dict, response: str, key: str,
                                        got: object) -> None:
    assert value(item, response)[key] == got


def test_a_comment_is_no_answer_and_prose_slashes_stay() -> None:
    from cartoqa.parsing.structured import drop_value_comments
    assert drop_value_comments("Answer: 3 // three banks\n") == "Answer: 3 // three banks\n"
    assert drop_value_comments('See https://example.org\n["a"]') == 'See https://example.org\n["a"]'
    # a comment after a whole one-line list is outside it: the list keeps its reading
    assert value(SRN, "Route: [blue, turn left, Kalevankatu, red]  // short")["steps"] == [
        "blue", "turn left", "Kalevankatu", "red"]


# ---------------------------------------------------------------- 2. a ranking after a lead-in
OH_IA_NM = {"OH": 1, "IA": 2, "NM": 3}


@pytest.mark.parametrize("response", [
    "From highest to lowest, Ohio comes first, then Iowa, then New Mexico.",
    "Looking at the shades, Ohio comes first, then Iowa, then New Mexico.",
    "Ranked from highest to lowest, Ohio comes first, followed by Iowa and then New Mexico.",
    "From highest to lowest, Ohio ranks first, then Iowa, then New Mexico.",
    "From lowest to highest, New Mexico comes first, then Iowa, then Ohio.",
    "In descending order, Ohio, Iowa and New Mexico.",
    "From highest to lowest: Ohio, Iowa, New Mexico.",
    "Ohio comes first, then Iowa, then New Mexico.",
])
def test_a_ranking_in_prose_after_a_lead_in(response: str) -> None:
    assert value(MW_RANK, response)["ranks"] == OH_IA_NM


def test_a_ranking_with_a_lead_in_on_another_map() -> None:
    india = {"task": "mapwise_rank", "request": "rank", "provenance": {"country": "india"}}
    text = "From highest to lowest, Kerala comes first, then Goa, then Daman and Diu."
    assert value(india, text)["ranks"] == {"KL": 1, "GA": 2, "DD": 3}


@pytest.mark.parametrize(("response", "ranks"), [
    ("My answer is [Dadra and Nagar Haveli, Goa, Kerala]", {"DN": 1, "GA": 2, "KL": 3}),
    ("My answer is [Kerala, Goa, Daman and Diu]", {"KL": 1, "GA": 2, "DD": 3}),
    ("My answer is [Ohio, Iowa = New Mexico]", {"OH": 1, "IA": 2, "NM": 2}),
])
def test_names_with_and_and_ties_keep_their_places(response: str, ranks: dict) -> None:
    country = "usa" if "Ohio" in response else "india"
    item = {"task": "mapwise_rank", "request": "rank", "provenance": {"country": country}}
    assert value(item, response)["ranks"] == ranks


@pytest.mark.parametrize("response", [
    "From highest to lowest, Ohio comes first, then maybe Iowa, then New Mexico.",
    "From highest to lowest, Ohio or Iowa comes first, then New Mexico.",
])
def test_a_hedged_or_offered_ranking_stays_invalid(response: str) -> None:
    assert invalid(MW_RANK, response)


# ---------------------------------------------------------------- 3. none beside values
@pytest.mark.parametrize(("item", "response"), [
    (MW_COUNT, "None of the coastal provinces has a value above 48; the highest class tops "
               "out at 48.5 but no coastal province reaches it."),
    (MW_COUNT, "None of the coastal provinces is above 48."),
    (MW_COUNT, "No coastal province has a value above 48."),
    (MW_COUNT, "Zero. No coastal province is shaded above 48; the top class is 41.8–48.5."),
    (MW_COUNT, "There are none above 48: the darkest class, 41.8–48.5, holds no coastal "
               "province."),
    (STMF_COUNT, "There are no banks within 500 m of the marker."),
    (FRIEDA_COUNT, "None of the 4 features borders it."),
])
def test_none_beside_values_is_zero(item: dict, response: str) -> None:
    assert value(item, response)["count"] == 0


@pytest.mark.parametrize(("response", "count"), [
    ("No, there are 3 provinces above 48.", 3),
    ("My answer is [2]. None of the others is above 48.", 2),
    ("There are 2 provinces above 48.", 2),
])
def test_a_count_beside_a_none_keeps_its_reading(response: str, count: int) -> None:
    assert value(MW_COUNT, response)["count"] == count


@pytest.mark.parametrize("response", [
    "None of them is above 48, I think.",
    "Probably none of the coastal provinces is above 48.",
    "None of the coastal provinces has a value above 48, except 2 in the south.",
    "None above 48 in the north; 2 in the south.",
])
def test_a_hedged_or_contradicted_none_stays_invalid(response: str) -> None:
    assert invalid(MW_COUNT, response)


# ---------------------------------------------------------------- 4. the offered feature named
@pytest.mark.parametrize(("item", "response", "name"), [
    (RANK, "Of the three dots in public buildings, Ooster is the nearest to mr. big.", "Ooster"),
    (RANK, "Looking at the public buildings, Kitty's Public House is the closest to mr. big.",
     "Kitty's Public House"),
    (RANK, "The blue and purple dots sit in commercial buildings, so only one is left.\n\n"
           "Kitty's Public House is closest to mr. big.", "Kitty's Public House"),
    (RANK, "Of the three dots in public buildings, Ooster is the nearest to mr. big. Hope "
           "this helps!", "Ooster"),
    (PICK, "On the building-use map, the orange line of Pohjoinen Makasiinikatu runs right "
           "along the edge of a commercial building block, while the blue and purple outlines "
           "sit next to public and residential buildings.\n\nPohjoinen Makasiinikatu borders "
           "the commercial building area.", "Pohjoinen Makasiinikatu"),
    (PICK, "Looking at the map, Hotel Lilla Robert touches the commercial building block.",
     "Hotel Lilla Robert"),
    (OVERLAP, "On the land-use map, the blue and purple outlines stay inside residential land, "
              "and Simonkatu partly overlaps the commercial land.", "Simonkatu"),
    (OVERLAP, "In the map, Simonkatu crosses the commercial land.", "Simonkatu"),
    (WITHIN, "Looking at the land-use map, Wok Up sits in the commercial land.", "Wok Up"),
])
def test_the_offered_feature_the_answer_sentence_names(item: dict, response: str,
                                                       name: str) -> None:
    assert value(item, response)["names"] == [name]


@pytest.mark.parametrize(("item", "response", "names"), [
    (PICK, "Hotel Lilla Robert.", ["Hotel Lilla Robert"]),
    (RANK, "Ooster looks close, but I checked again.\nAnswer: Minuuttibaari", ["Minuuttibaari"]),
])
def test_a_plain_or_cued_answer_keeps_its_reading(item: dict, response: str,
                                                  names: list[str]) -> None:
    assert value(item, response)["names"] == names


@pytest.mark.parametrize("response", [
    "Ooster is nearer to mr. big than Minuuttibaari.",     # two offered names: no pick
    "Of the three, Ooster is probably the nearest to mr. big.",
    "Ooster or Minuuttibaari, both are near mr. big.",
])
def test_no_offered_feature_is_picked_from_these(response: str) -> None:
    assert invalid(RANK, response)


def test_a_question_that_offers_nothing_is_left_alone() -> None:
    from cartoqa.parsing.textual import offered_names
    assert offered_names("Which one of these 3 features borders Aikatalo (the building)? "
                         "Answer with its name.") == []
