"""``cartoqa score --convention``: the same predictions scored by cartoqa's rules and by
MapWise's and FRIEDA's own conventions."""

from __future__ import annotations

from typing import Any

import pytest

from cartoqa.scoring.conventions import convention_record, flatten_ranks, frieda_record
from cartoqa.scoring.core import build_report, score_records

ITEMS: list[dict[str, Any]] = [
    {"id": "r1", "task": "mapwise_range", "request": "range",
     "provenance": {"country": "usa"},
     "answer": {"range": [412.0, 530.0], "text": "412 - 530", "continuous": False}},
    {"id": "k1", "task": "mapwise_rank", "request": "rank", "provenance": {"country": "usa"},
     "answer": {"order": ["KS", "NE", "NY"], "levels": {"KS": 3.0, "NE": 2.0, "NY": 2.0}}},
    {"id": "e1", "task": "frieda_equal", "request": "textual",
     "question": "Map 2 outlines two areas, A and B. Answer A or B.",
     "answer": {"type": "textual", "names": ["B"]}},
    {"id": "d1", "task": "frieda_distance", "request": "distance",
     "answer": {"type": "distance", "meters": 350.0}},
    {"id": "o1", "task": "frieda_orientation", "request": "cardinal",
     "answer": {"type": "cardinal", "direction": "north-east"}},
    {"id": "b1", "task": "mapwise_binary", "request": "binary",
     "provenance": {"country": "usa"}, "answer": {"value": True}},
]
PREDICTIONS = {
    "r1": "My answer is [412]",
    "k1": "My answer is [Kansas, Nebraska = New York]",
    "e1": "Final answer: Area B",
    "d1": "Final answer: 0.35 km",
    "o1": "Final answer: NE",
    "b1": "My answer is [Yes]",
}


def _measures(convention: str) -> dict[str, dict[str, Any]]:
    records = score_records(ITEMS, PREDICTIONS, convention=convention)
    return {str(r.item["id"]): r.measures for r in records}


def test_the_same_predictions_under_three_conventions() -> None:
    cartoqa, mapwise, frieda = (_measures(c) for c in ("cartoqa", "mapwise", "frieda"))
    # a single value equal to a range bound: 0 for cartoqa, MapWise's half credit
    assert cartoqa["r1"]["range_score"] == 0.0 and mapwise["r1"]["range_score"] == 0.5
    # a declared tie: tau-b with the tie is 1, flattened it is lower
    assert cartoqa["k1"]["tau_b"] == pytest.approx(1.0)
    assert mapwise["k1"]["tau_b"] < 1.0
    # FRIEDA: "Area B", "0.35 km" and "NE" are right for cartoqa, wrong by the release
    for key in ("e1", "d1", "o1"):
        assert cartoqa[key]["correct"] is True and mapwise[key]["correct"] is True
        assert frieda[key]["correct"] is False, key
    # a paper's convention leaves the other suites alone
    assert frieda["r1"] == cartoqa["r1"] and frieda["b1"] == cartoqa["b1"]


def test_the_report_records_the_convention_in_force() -> None:
    records = score_records(ITEMS, PREDICTIONS, convention="frieda")
    report = build_report(records)
    assert report["sections"]["frieda_equal"]["metrics"]["accuracy"]["all"] == 0.0


def test_frieda_convention_reads_the_last_final_answer_and_semicolon_lists() -> None:
    item = {"answer": {"type": "textual", "names": ["Vuorikatu", "Kaisaniemenkatu"]}}
    text = "Final answer: Esplanadi\nHmm, no.\nFinal answer: kaisaniemenkatu; Vuorikatu."
    assert frieda_record(item, text).measures == {"correct": True}
    cardinal = {"answer": {"type": "cardinal", "direction": "north"}}
    assert frieda_record(cardinal, "Final answer: North West").measures == {"correct": True}
    assert frieda_record(cardinal, "Final answer: West").measures == {"correct": False}
    distance = {"answer": {"type": "distance", "meters": 100.0}}
    assert frieda_record(distance, "Final answer: 119 m").measures == {"correct": True}
    assert frieda_record(distance, "no number").measures == {"correct": False}
    assert not frieda_record(distance, "").valid


def test_flattening_and_unknown_conventions() -> None:
    assert flatten_ranks({"A": 1, "B": 1, "C": 3}) == {"A": 1, "B": 2, "C": 3}
    with pytest.raises(ValueError):
        convention_record(ITEMS[0], "x", "gpt", score_records(ITEMS[:1], {})[0])


def test_conventions_on_count_answers_feet_and_one_value_classes() -> None:
    """Found scoring a fresh build (issue 24, third session): FRIEDA count answers, a
    distance asked in feet, and a MapWise class of one value answered exactly."""
    from cartoqa.scoring.conventions import mapwise_range_score

    count = {"answer": {"type": "count", "count": 2}}
    assert frieda_record(count, "Final answer: 2").measures == {"correct": True}
    assert frieda_record(count, "I count 2.\n\nAnswer: 2").measures == {"correct": False}
    feet = {"answer": {"type": "distance", "meters": 261.2, "unit": "ft"}}
    assert frieda_record(feet, "Final answer: 857 ft").measures == {"correct": True}
    assert frieda_record(feet, "Final answer: 261 m").measures == {"correct": False}
    assert mapwise_range_score([56.0, 56.0], [56.0, 56.0], False) == 1.0
    assert mapwise_range_score([0.0, 56.0], [0.0, 0.0], False) == 0.5
