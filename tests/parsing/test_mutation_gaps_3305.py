"""Classes of the parsing survivors of mutation seed 3305 (issue 33): the reason a user
reads when cued answers disagree, and the answer stated in a sentence."""

from __future__ import annotations

from cartoqa.parsing.kinds import Options, parse_options
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
