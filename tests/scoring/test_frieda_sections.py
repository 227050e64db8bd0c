"""FRIEDA's scoring wired into ``cartoqa score`` through the task declarations.

Hand-counted: per relation (one section each), per map count and setting (strata),
invalid answers counted as wrong in ``all`` and left out of ``valid_only``, and the
extractor asked for each answer type's own format.
"""

from __future__ import annotations

from typing import Any

import pytest

from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.scoring.core import score_predictions
from cartoqa.scoring.extraction import extraction_messages


def _item(task: str, request: str, n: int, answer: dict[str, Any], *, maps: str = "single",
          setting: str = "direct") -> dict[str, Any]:
    return {"id": f"{task}-{n:04d}-{setting}", "task": task, "request": request,
            "image": "images/x.png", "question": "q", "answer": answer,
            "strata": {"maps": maps, "setting": setting, "n_images": 1}}


DIST = {"type": "distance", "meters": 400.0}
DIR = {"type": "cardinal", "direction": "north-east"}
NAMES = {"type": "textual", "names": ["Alpha Park"]}

ITEMS = [
    _item("frieda_distance", "distance", 0, DIST),
    _item("frieda_distance", "distance", 0, DIST, setting="contextual"),
    _item("frieda_distance", "distance", 1, DIST),
    _item("frieda_distance", "distance", 1, DIST, setting="contextual"),
    _item("frieda_orientation", "cardinal", 0, DIR),
    _item("frieda_orientation", "cardinal", 0, DIR, setting="contextual"),
    _item("frieda_orientation", "cardinal", 1, DIR),
    _item("frieda_border", "textual", 0, NAMES, maps="multi"),
    _item("frieda_border", "textual", 1, NAMES),
]

RESPONSES = {
    "frieda_distance-0000-direct": "About 0.48 km.",  # 20% over: correct (the edge)
    "frieda_distance-0000-contextual": "Answer: 1600 ft",  # 487.7 m, 21.9% over: wrong
    "frieda_distance-0001-direct": "Answer: 330 m",  # 17.5% under: correct
    "frieda_distance-0001-contextual": "I cannot tell from the maps.",  # invalid
    "frieda_orientation-0000-direct": "Answer: north",  # a neighbour: correct
    "frieda_orientation-0000-contextual": "Answer: west",  # wrong
    # frieda_orientation-0001-direct: no prediction (invalid)
    "frieda_border-0000-direct": "Answer: alpha park",  # normalised: correct
    "frieda_border-0001-direct": "Answer: Beta Park",  # wrong
}


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    return score_predictions(ITEMS, RESPONSES, include_items=False)


def _acc(section: dict[str, Any]) -> tuple[float, float]:
    value = section["metrics"]["accuracy"]
    return value["all"], value["valid_only"]


def test_one_section_per_relation(report: dict[str, Any]) -> None:
    assert {"frieda_distance", "frieda_orientation", "frieda_border"} <= set(report["sections"])


def test_distance_section_hand_counted(report: dict[str, Any]) -> None:
    s = report["sections"]["frieda_distance"]
    assert (s["n"], s["n_invalid"]) == (4, 1)
    assert _acc(s) == pytest.approx((2 / 4, 2 / 3))
    by_setting = s["strata"]["setting"]
    assert _acc(by_setting["direct"]) == (1.0, 1.0)
    assert _acc(by_setting["contextual"]) == (0.0, 0.0)  # one wrong, one invalid
    assert by_setting["contextual"]["n_invalid"] == 1
    assert set(s["strata"]["maps+setting"]) == {"single/direct", "single/contextual"}


def test_orientation_section_hand_counted(report: dict[str, Any]) -> None:
    s = report["sections"]["frieda_orientation"]
    assert (s["n"], s["n_invalid"]) == (3, 1)
    assert _acc(s) == pytest.approx((1 / 3, 1 / 2))


def test_textual_section_per_map_count(report: dict[str, Any]) -> None:
    s = report["sections"]["frieda_border"]
    assert _acc(s) == pytest.approx((1 / 2, 1 / 2))
    assert _acc(s["strata"]["maps"]["multi"]) == (1.0, 1.0)  # "alpha park", normalised
    assert _acc(s["strata"]["maps"]["single"]) == (0.0, 0.0)


def test_reference_answers_score_perfectly() -> None:
    perfect = {it["id"]: answer_as_text(it) for it in ITEMS}
    rep = score_predictions(ITEMS, perfect, include_items=False)
    for key in ("frieda_distance", "frieda_orientation", "frieda_border"):
        assert _acc(rep["sections"][key]) == (1.0, 1.0)


@pytest.mark.parametrize(("task", "req", "wanted"), [
    ("frieda_distance", "distance", "one distance with its unit"),
    ("frieda_orientation", "cardinal", "one of the eight compass directions"),
    ("frieda_equal", "textual", "the letter A or B"),
])
def test_extractor_asks_for_the_declared_format(task: str, req: str, wanted: str) -> None:
    messages = extraction_messages({"task": task, "request": req, "question": "q"},
                                   "It is far.")
    assert wanted in messages[-1]["content"]
