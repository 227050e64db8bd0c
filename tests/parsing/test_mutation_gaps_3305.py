"""Classes of the parsing survivors of mutation seed 3305 (issue 33): the reason a user
reads when cued answers disagree, and the answer stated in a sentence."""

from __future__ import annotations

from cartoqa.parsing.kinds import Options, bullets_as_answer, item_names, parse_options
from cartoqa.parsing.mapwise import mapwise_answer_text
from cartoqa.parsing.numbers import parse_length
from cartoqa.parsing.result import Invalid
from cartoqa.parsing.rules import sentence_answer
from cartoqa.parsing.structured import find_structured
from cartoqa.parsing.tables import find_table
from cartoqa.parsing.textual import parse_textual


def test_disagreeing_answers_name_what_disagrees() -> None:
    # the reason says what the answers were: option sets, name lists (not "answers")
    options = Options({"a": "x", "b": "y", "c": "z"})
    assert parse_options("Answer: A\nAnswer: B", options) == \
        Invalid("several different option sets")
    assert parse_textual("Answer: Hopeatalo\nAnswer: Kultatalo") == \
        Invalid("several different name lists")


def test_a_sentence_answer_loses_its_quotes_and_emphasis() -> None:
    assert sentence_answer('It is "Kerala".') == "Kerala"
    assert sentence_answer("It is 'Kerala'.") == "Kerala"
    assert sentence_answer("It is **Kerala**.") == "Kerala"


def test_a_sentence_answer_is_read_from_the_last_or_the_first_sentence_only() -> None:
    assert sentence_answer("The darkest is Kerala.") == "Kerala"
    # a middle sentence is reasoning, not the answer
    assert sentence_answer("Looking at the map. Kerala is the darkest. I am fairly sure.") \
        is None


def test_a_json_list_of_lengths_is_not_one_length() -> None:
    # only a JSON number or string is an answer; a list of two lengths is two lengths
    assert parse_length('{"answer": ["120 m", "300 m"]}') == \
        Invalid("several different lengths (2) and no 'Answer:' line")
    assert parse_length('{"answer": 120}').value["value"] == 120.0


def test_mapwise_answer_text_per_request() -> None:
    # the item's own answer written as MapWise asks (scores 1.0): one case per request
    cases = [
        ({"request": "binary", "answer": {"value": True}}, "My answer is [Yes]"),
        ({"request": "binary", "answer": {"value": False}}, "My answer is [No]"),
        ({"request": "single", "answer": {"accepted": ["Kerala", "KL"]}}, "My answer is [Kerala]"),
        ({"request": "count", "answer": {"count": 4}}, "My answer is [4]"),
        ({"request": "list", "answer": {"items": ["TX", "CA"]}}, "My answer is [TX, CA]"),
        ({"request": "range", "answer": {"text": "10-20"}}, "My answer is [10-20]"),
        ({"request": "rank", "answer": {"order": ["MH", "UP"]}}, "My answer is [MH, UP]"),
    ]
    for item, text in cases:
        assert mapwise_answer_text(item) == text


def test_a_table_without_a_rule_line_has_an_empty_header() -> None:
    table = find_table(["| 1 | Alepa |", "| 2 | Lidl |"])
    assert table is not None
    assert table.header == () and table.rows == (("1", "Alepa"), ("2", "Lidl"))


def test_the_structured_search_tries_sixty_spans_and_keeps_what_it_found() -> None:
    # the 60th brace span is still tried; past 60 the search stops with what it has
    assert find_structured(" ".join(["{x}"] * 59) + ' {"a": 1}') == {"a": 1}
    assert find_structured(" ".join(["{x}"] * 60) + ' {"a": 1}') is None
    assert find_structured('{"a": 1} ' + " ".join(["{x}"] * 60)) == {"a": 1}


def test_a_length_in_two_units_that_disagree_by_more_than_one_percent_is_the_first() -> None:
    # 0.5 km and 520 m differ by 4 %: the first written counts; 0.52 km and 520 m agree,
    # and the one in the unit asked is kept
    first = parse_length("Answer: 0.5 km (520 m)")
    assert (first.value["value"], first.value["raw_unit"]) == (500.0, "km")
    same = parse_length("Answer: 0.52 km (520 m)")
    assert (same.value["value"], same.value["raw_unit"]) == (520.0, "m")


def test_a_cued_hedge_or_range_is_invalid_with_its_reason() -> None:
    assert parse_length("Answer: maybe 500 m") == Invalid("a hedged answer (maybe)")
    assert parse_length("Answer: 500-600 m") == Invalid("a range, not one length")


def test_an_introducing_line_and_two_bullets_are_one_answer() -> None:
    assert bullets_as_answer("The states are:\n- Colorado (CO)\n- Montana (MT)") == \
        "Answer: [Colorado (CO), Montana (MT)]"
    assert bullets_as_answer("The state is:\n- Colorado (CO)") == \
        "The state is:\n- Colorado (CO)"


def test_a_relabelled_map_is_read_by_the_codes_and_names_it_shows() -> None:
    item = {"provenance": {"country": "usa", "region_labels": {
        "MS": {"code": "WI", "name": "Wisconsin"},
        "WI": {"code": "MS", "name": "Mississippi", "aliases": ["Miss."]}}}}
    names = item_names(item)
    assert names.resolve("Wisconsin") == "WI" and names.resolve("WI") == "WI"
    assert names.resolve("Mississippi") == "MS" and names.resolve("Texas") is None
