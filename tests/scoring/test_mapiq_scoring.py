"""MapIQ answer parsing and scoring: MapIQ's response forms and its F1 rule for MCQ."""

from __future__ import annotations

from typing import Any

from cartoqa.declarations.dispatch import parse_response
from cartoqa.scoring.core import score_records
from cartoqa.scoring.sections import set_f1

MCQ: dict[str, Any] = {"id": "mapiq_se-0000-mcq", "task": "mapiq_se", "request": "mcq",
                       "options": {"a": "TX", "b": "CA", "c": "NY", "d": "OR",
                                   "e": "None of the above"},
                       "answer": {"letters": ["a", "c"]}}
SINGLE: dict[str, Any] = {"id": "mapiq_rv-0000-single", "task": "mapiq_rv",
                          "request": "single", "answer": {"text": "99.9–163",
                                                          "numbers": [99.9, 163.0]}}
BINARY: dict[str, Any] = {"id": "mapiq_rv-0000-binary", "task": "mapiq_rv",
                          "request": "binary", "answer": {"value": False}}
LIST: dict[str, Any] = {"id": "mapiq_rc-0000-list", "task": "mapiq_rc", "request": "list",
                        "answer": {"items": ["South", "West"]}}


def test_parsers_read_mapiq_forms() -> None:
    assert parse_response(MCQ, "Reasoning... My answer is [a, c]").value == {
        "letters": ["a", "c"]}
    molmo = ("Washington's circle falls into the second largest category, which corresponds "
             "to the 99.9–163 range. My answer is 99.9–163.")
    assert parse_response(SINGLE, molmo).value == {"numbers": [99.9, 163.0]}
    assert parse_response(BINARY, "No.").value == {"value": False}
    assert parse_response(BINARY, "My answer is [TRUE]").value == {"value": True}
    assert parse_response(LIST, "My answer is [West zone, south]").value == {
        "items": ["South", "West"]}
    assert not parse_response(LIST, "My answer is [Atlantis]").valid


def test_scores_by_hand() -> None:
    items = [MCQ, SINGLE, BINARY, LIST]
    preds = {MCQ["id"]: "My answer is [a]",  # P 1, R 1/2 -> F1 2/3
             SINGLE["id"]: "My answer is 99.9-163",
             BINARY["id"]: "TRUE",
             LIST["id"]: "My answer is [South, West, Midwest]"}  # F1 = 2*2/(2+3) = 0.8
    got = {r.item["id"]: r.measures for r in score_records(items, preds)}
    assert abs(got[MCQ["id"]]["f1"] - 2 / 3) < 1e-9
    assert got[SINGLE["id"]]["correct"] is True
    assert got[BINARY["id"]]["correct"] is False
    assert abs(got[LIST["id"]]["f1"] - 0.8) < 1e-9
    # "None of the above" beside another option contradicts itself: F1 0 (MapIQ's rule).
    nota = score_records([MCQ], {MCQ["id"]: "My answer is [a, c, e]"})
    assert nota[0].measures["f1"] == 0.0
    assert set_f1([], []) == 1.0
