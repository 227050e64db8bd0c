"""What the answer readers do at the edges a fresh mutation sample found untested.

Each test states a rule a user relies on (issue 33): which column of a markdown table
holds the names, numbers written in words, a sentence is not a name, the scale bar's
own length is not the answer, multi-type answers in JSON and in lines, route lists
with commas inside quoted steps, final cues over earlier ones, and the exact reason a
user reads when an answer cannot be read.
"""

from __future__ import annotations

import pytest

from cartoqa.parsing import Invalid, Parsed
from cartoqa.parsing.lists import parse_names, parse_roads
from cartoqa.parsing.multi import parse_multi
from cartoqa.parsing.numbers import find_numbers, parse_count, parse_length
from cartoqa.parsing.route import parse_route
from cartoqa.parsing.text import answer_segments

# --- markdown tables: the column headed name/road/street, else the last ---------------


def test_a_table_gives_the_column_headed_name_not_the_last() -> None:
    text = ("| Rank | Shop name | City |\n|---|---|---|\n"
            "| 1 | Alepa | Helsinki |\n| 2 | Lidl | Espoo |")
    assert parse_names(text) == Parsed({"names": ["Alepa", "Lidl"]})


def test_a_table_without_a_name_header_gives_its_last_column() -> None:
    text = "| # | Shop |\n|---|---|\n| 1 | Alepa |\n| 2 | Lidl |"
    assert parse_names(text) == Parsed({"names": ["Alepa", "Lidl"]})


def test_a_road_table_gives_the_road_column() -> None:
    text = ("| Road | Direction |\n|---|---|\n"
            "| Annankatu | north-south |\n| Lönnrotinkatu | east-west |")
    assert parse_roads(text) == Parsed({"roads": ["Annankatu", "Lönnrotinkatu"]})


# --- numbers in words ---------------------------------------------------------------


@pytest.mark.parametrize(("text", "value"), [
    ("two hundred", 200.0),
    ("two hundred and five", 205.0),
    ("two thousand three hundred", 2300.0),
    ("two hundred thousand", 200_000.0),
    ("twenty-one", 21.0),
])
def test_numbers_in_words(text: str, value: float) -> None:
    assert [n.value for n in find_numbers(text)] == [value]


def test_a_count_in_words_is_read() -> None:
    assert parse_count("I count two thousand three hundred.") == Parsed({"count": 2300})


# --- a sentence is not a name ------------------------------------------------------


def test_a_sentence_is_not_read_as_a_name() -> None:
    assert parse_names("The marker is on a road") == Invalid("no list of names found")
    assert parse_names("Alepa, Lidl") == Parsed({"names": ["Alepa", "Lidl"]})


# --- the scale bar's own length -----------------------------------------------------


def test_a_scale_bar_named_by_its_length_does_not_hide_the_answer() -> None:
    # "the 50 m scale bar": 50 m is the bar; the 120 m after "scale bar" is the answer
    got = parse_length("The 50 m scale bar and the road is 120 m long.")
    assert isinstance(got, Parsed) and got.value["value"] == 120.0


def test_only_the_scale_bar_is_not_an_answer() -> None:
    assert parse_length("Scale bar: 100 m") == Invalid("only the scale bar's length is given")


# --- several feature types -----------------------------------------------------------


def test_an_object_of_types_is_not_unwrapped_at_a_features_key() -> None:
    # four keys: the counts are the answer; "features" is a stray list, not a wrapper
    text = '{"bank": 1, "cafe": 2, "park": 3, "features": [{"type": "bank", "count": 5}]}'
    got = parse_multi(text, types=["bank", "cafe", "park"])
    assert isinstance(got, Parsed)
    assert {k: v["count"] for k, v in got.value["types"].items()} == \
        {"bank": 1, "cafe": 2, "park": 3}


def test_a_small_wrapper_object_is_unwrapped() -> None:
    got = parse_multi('{"types": {"bank": 1, "cafe": 2}, "note": "x"}', types=["bank", "cafe"])
    assert isinstance(got, Parsed)
    assert {k: v["count"] for k, v in got.value["types"].items()} == {"bank": 1, "cafe": 2}


def test_type_lines_give_their_counts_and_names() -> None:
    got = parse_multi("Bank: 2 (Nordea, OP)\nCafe: 1 (Fazer)", types=["bank", "cafe"])
    assert got == Parsed({"types": {"bank": {"count": 2, "names": ["Nordea", "OP"]},
                                    "cafe": {"count": 1, "names": ["Fazer"]}}})


# --- route lists ------------------------------------------------------------------------


def test_a_quoted_step_with_a_comma_stays_one_step() -> None:
    got = parse_route('["Origin", "Turn left, then right", "Destination"]')
    assert isinstance(got, Parsed)
    assert len(got.value["steps"]) == 3


def test_a_list_with_a_number_in_it_is_split_as_text() -> None:
    # not a list of strings: read as text, not handed on as a Python list
    got = parse_route("['Origin', 1, 'Destination']")
    assert isinstance(got, Parsed) and all(isinstance(s, str) for s in got.value["steps"])


# --- final cues -----------------------------------------------------------------------


def test_a_final_answer_cue_overrides_an_earlier_answer_cue() -> None:
    text = "Answer: 4\nThe icons are small.\nFinal answer: 5"
    assert answer_segments(text) == ["5"]
    assert parse_count(text) == Parsed({"count": 5})
    # without the final cue the two answers disagree
    assert parse_count("Answer: 4\nThe icons are small.\nAnswer: 5") == \
        Invalid("several different counts")


# --- the reason a user reads -------------------------------------------------------------


@pytest.mark.parametrize(("parse", "text", "reason"), [
    (parse_count, "   ", "empty response"),
    (parse_count, "I cannot tell.", "no number found"),
    (parse_count, "Answer: 3 or 4", "a range or alternatives (3 or 4), not one count"),
    (parse_count, "Answer: probably 3", "a hedged answer (probably)"),
    (parse_length, "It is long.", "no length found"),
    (parse_length, "Roughly 100 m to 200 m", "a range, not one length"),
    (parse_length, "It is 120 m, or maybe 130 m", "a hedged answer (maybe)"),
    (parse_length, "The road: 100 m. Then 200 m.",
     "several different lengths (2) and no 'Answer:' line"),
    (parse_length, "3 and 4", "several numbers without units and no 'Answer:' line"),
    (parse_names, "I don't know", "no list of names found"),
    (parse_roads, "Answer: maybe Annankatu", "a hedged answer (maybe)"),
    (parse_route, "no list", "no route list found"),
])
def test_the_reason_for_an_unreadable_answer_is_written_out(parse, text: str,
                                                             reason: str) -> None:
    assert parse(text) == Invalid(reason)


@pytest.mark.parametrize(("text", "reason"), [
    ("", "empty response"),
    ("nothing", "no JSON object found"),
    ('{"x": 1}', "no known feature type in the JSON"),
])
def test_the_reason_for_an_unreadable_multi_answer(text: str, reason: str) -> None:
    assert parse_multi(text, types=["bank"]) == Invalid(reason)


# --- the shared thematic rules (cartoqa.parsing.kinds) ----------------------------------


def test_an_items_country_and_legend_come_from_its_provenance() -> None:
    from cartoqa.parsing.kinds import item_country, item_labels

    assert item_country({"provenance": {"country": "india"}}) == "india"
    assert item_country({"strata": {"country": "china"}}) == "china"
    assert item_country({}) == "usa"
    labels = {"provenance": {"classification": {"labels": ["1–2", "3–4"]}}}
    assert item_labels(labels) == ["1–2", "3–4"]
    assert item_labels({}) == []


def test_a_class_answer_gives_the_legend_range() -> None:
    from cartoqa.parsing.kinds import read_numbers

    legend = ["120–266", "284–389", "590–705"]
    assert read_numbers("[Class 2]", labels=legend) == Parsed({"numbers": [284.0, 389.0]})
    assert read_numbers("Class 1 to Class 3", labels=legend) == \
        Parsed({"numbers": [120.0, 705.0]})
    assert read_numbers("Class 4", labels=legend) == Invalid("no such class in the legend")


def test_options_named_by_text_with_commas_and_unknown_parts() -> None:
    from cartoqa.parsing.kinds import Options, read_options

    o = Options({"a": "590–705", "b": "SC, TN, AL", "c": "None of the above"})
    assert read_options("[c, SC, TN, AL]", o) == Parsed({"letters": ["b", "c"]})
    assert read_options("[a, zebra]", o) == \
        Parsed({"letters": ["a"]}, ("not an option, left out: zebra",))


def test_a_ranking_in_order_and_two_rankings_that_disagree() -> None:
    from cartoqa.parsing.kinds import parse_rank_order, read_rank
    from groundtruth.thematic.region_names import region_names

    india = region_names("india")
    assert read_rank("Goa > Bihar > Maharashtra", india) == \
        Parsed({"ranks": {"GA": 1, "BR": 2, "MH": 3}})
    assert parse_rank_order("Answer: Goa > Bihar\nAnswer: Bihar > Goa", india) == \
        Invalid("several different rankings")
    assert parse_rank_order("nothing", india) == Invalid("fewer than two regions ranked")


# --- survivors of the fresh sample (seed 3301) -------------------------------------------


def test_a_mapiq_class_answer_reads_the_items_legend() -> None:
    from cartoqa.parsing.mapiq import parse_numbers

    got = parse_numbers("My answer is [Class 2]", labels=["120–266", "284–389"])
    assert got == Parsed({"numbers": [284.0, 389.0]})


def test_two_different_mapwise_ranges_are_alternatives() -> None:
    from cartoqa.parsing.mapwise import parse_range_answer

    assert parse_range_answer({}, "My answer is [1k - 2k or 3k - 4k]") == \
        Invalid("alternatives (1k - 2k or 3k - 4k), not one answer")


def test_the_mapwise_answer_text_of_a_binary_item() -> None:
    from cartoqa.parsing.mapwise import mapwise_answer_text

    assert mapwise_answer_text({"request": "binary", "answer": {"value": False}}) == \
        "My answer is [No]"
    assert mapwise_answer_text({"request": "binary", "answer": {"value": True}}) == \
        "My answer is [Yes]"


def test_a_table_column_headed_hash_is_the_count() -> None:
    got = parse_multi("| Type | # | Names |\n|---|---|---|\n| Bank | 2 | Nordea, OP |",
                      types=["bank"])
    assert got == Parsed({"types": {"bank": {"count": 2, "names": ["Nordea", "OP"]}}})


def test_several_numbers_are_named_in_the_reason() -> None:
    assert parse_count("I see 2.5 here. Also 3 there. Then 7.") == \
        Invalid("several numbers (2.5, 3, 7) and no 'Answer:' line")


def test_a_json_route_under_a_path_key() -> None:
    got = parse_route('{"path": ["Origin", "Turn left", "Destination"]}')
    assert got == Parsed({"steps": ["blue", "turn left", "red"]})


def test_an_option_list_with_words_after_its_bracket() -> None:
    from cartoqa.parsing.kinds import Options, read_options

    o = Options({"a": "x", "b": "y", "c": "z"})
    assert read_options("[a, c] because they are high", o) == Parsed({"letters": ["a", "c"]})


def test_a_textual_answer_in_a_sentence_gives_the_name() -> None:
    from cartoqa.parsing.textual import parse_textual

    assert parse_textual("Fabianinkatu is the street that borders Porthania.") == \
        Parsed({"names": ["Fabianinkatu"]})


def test_the_options_a_question_names() -> None:
    from cartoqa.parsing.textual import question_options

    assert question_options("Two areas are outlined. Which is larger? Answer A or B.") == \
        {"A": "Area A", "B": "Area B"}
    assert question_options("Which street borders Porthania?") == {}


def test_one_region_asked_and_two_offered_is_invalid() -> None:
    from cartoqa.parsing.kinds import read_regions
    from groundtruth.thematic.region_names import region_names

    assert read_regions("Goa or Bihar", region_names("india"), single=True) == \
        Invalid("alternatives ('Goa' or 'Bihar'), not one answer")


def test_the_reason_when_no_compass_direction_is_given() -> None:
    from cartoqa.parsing.cardinal import parse_cardinal

    assert parse_cardinal("I cannot say.") == Invalid("no compass direction found")
