"""The value of a JSON ``answer`` key is the answer when a task's reader finds none (issue 24,
class 1 of grade24e). Hand-written expectations, with near cases that must not change."""

from __future__ import annotations

from cartoqa.declarations.dispatch import parse_response, restate_json_answer
from cartoqa.parsing.result import Invalid

MAPIQ_LIST = {"task": "mapiq_se", "request": "list",
              "options": {"a": "590–705", "e": "None of the above"}}
FRIEDA_EQUAL = {"task": "frieda_equal", "request": "textual",
                "question": "Which of them covers exactly the same ground as X? Answer A or B."}
MAPWISE_BINARY = {"task": "mapwise_binary", "request": "binary"}


def test_restate_keys_and_shapes() -> None:
    assert restate_json_answer('{"answer": "B"}') == "Answer: B"
    assert restate_json_answer('{"final_answer": 7}') == "Answer: 7"
    assert restate_json_answer('{"Answer": ["KY", "VA"]}') == 'Answer: ["KY", "VA"]'
    assert restate_json_answer('{"answer": true}') == "Answer: TRUE"


def test_restate_leaves_other_shapes() -> None:
    assert restate_json_answer('{"counts": {"cafe": 1}}') is None   # no answer key
    assert restate_json_answer('{"answer": {"cafe": 1}}') is None   # nested object
    assert restate_json_answer('{"answer": ""}') is None
    assert restate_json_answer('{"answer": "B"') is None            # never closed
    assert restate_json_answer("Answer: B") is None


def test_mapiq_list_from_json() -> None:
    r = parse_response(MAPIQ_LIST, '```json\n{"answer": ["KY", "VA"]}\n```')
    assert r.value == {"items": ["KY", "VA"]}


def test_frieda_letter_from_json() -> None:
    assert parse_response(FRIEDA_EQUAL, '{"answer": "B"}').value == {"names": ["B"]}


def test_mapwise_binary_from_json() -> None:
    assert parse_response(MAPWISE_BINARY, '{"final_answer": "No"}').value == {"value": False}


def test_near_cases_stay_invalid() -> None:
    assert isinstance(parse_response(FRIEDA_EQUAL, '{"reason": "B looks right"}'), Invalid)
    assert isinstance(parse_response(MAPIQ_LIST, '{"answer": ["KY", "VA"]'), Invalid)
