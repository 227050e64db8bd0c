"""Classes of the parsing survivors of mutation seed 3305 (issue 33): the reason a user
reads when cued answers disagree, and the answer stated in a sentence."""

from __future__ import annotations

from cartoqa.parsing.kinds import Options, parse_options
from cartoqa.parsing.mapwise import mapwise_answer_text
from cartoqa.parsing.numbers import parse_length
from cartoqa.parsing.result import Invalid
from cartoqa.parsing.rules import sentence_answer
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
