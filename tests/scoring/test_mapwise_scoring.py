"""MapWise scoring by hand: ranges (units, exact on discrete maps, 0.5 for overlap on
colour bars), the tie rule of single-word answers, Kendall's tau-b, parsers, and the
sections with the invalid accounting."""

from __future__ import annotations

import math

import pytest

from cartoqa.declarations.dispatch import parse_response
from cartoqa.metrics.mapwise import (
    kendall_tau_b,
    range_score,
    rank_score,
    single_word_score,
)
from cartoqa.parsing.mapwise import parse_range
from cartoqa.scoring.core import score_predictions

INDIA = {"country": "india"}


def test_range_normalisation_and_partial_credit() -> None:
    assert parse_range("1k - 2.5k") == (1000.0, 2500.0)
    assert parse_range("1,000 to 2,500 people") == (1000.0, 2500.0)
    assert parse_range("0.5M–1M") == (500000.0, 1000000.0)
    assert parse_range("$10 - $20") == (10.0, 20.0)
    truth = [1000.0, 2500.0]
    # discrete maps: exact or nothing
    assert range_score(truth, [1000, 2500], continuous=False) == 1.0
    assert range_score(truth, [1000, 2000], continuous=False) == 0.0
    # continuous maps: exact 1, overlapping 0.5 (1000-2000 shares 1000-2000 with the truth)
    assert range_score(truth, [1000, 2000], continuous=True) == 0.5
    assert range_score(truth, [2000, 4000], continuous=True) == 0.5
    assert range_score(truth, [2500, 4000], continuous=True) == 0.0  # touching only
    assert range_score(truth, [3000, 4000], continuous=True) == 0.0
    assert range_score(truth, [2500, 1000], continuous=False) == 1.0  # order forgiven


def test_tie_rule_single_word() -> None:
    # Bihar and Uttar Pradesh share the top class: either is right, alone
    assert single_word_score(["BR", "UP"], ["BR"]) == 1.0
    assert single_word_score(["BR", "UP"], ["UP"]) == 1.0
    assert single_word_score(["BR", "UP"], ["MH"]) == 0.0
    # a response naming several regions is read by its first
    assert single_word_score(["BR"], ["MH", "BR"]) == 0.0


def test_kendall_tau_b_by_hand() -> None:
    levels = {"A": 4.0, "B": 3.0, "C": 2.0, "D": 1.0}
    assert rank_score(levels, {"A": 1, "B": 2, "C": 3, "D": 4}) == 1.0
    assert rank_score(levels, {"A": 4, "B": 3, "C": 2, "D": 1}) == -1.0
    # B and C tied by the response: C=5, D=0, ties in y 1 -> 5 / sqrt(6 * 5)
    assert rank_score(levels, {"A": 1, "B": 2, "C": 2, "D": 4}) == pytest.approx(
        5 / math.sqrt(30))
    # A and B swapped: C=5, D=1 -> 4 / 6
    assert rank_score(levels, {"B": 1, "A": 2, "C": 3, "D": 4}) == pytest.approx(4 / 6)
    # C and D left out share the rank after B: as a tie between them
    assert rank_score(levels, {"A": 1, "B": 2}) == pytest.approx(5 / math.sqrt(30))
    # ties in the truth (one class) and the response: tau-b's two corrections
    assert kendall_tau_b([2, 2, 1], [3, 2, 2]) == pytest.approx(1 / 2)
    assert rank_score(levels, {"A": 1, "B": 1, "C": 1, "D": 1}) == 0.0


def _item(task: str, request: str, answer: dict, n: int = 0) -> dict:
    return {"id": f"{task}-{n}", "task": task, "request": request, "answer": answer,
            "strata": {"country": "india", "legend": "discrete"},
            "provenance": {"country": "india"}}


def test_parsers_read_names_codes_and_orders() -> None:
    rank = _item("mapwise_rank", "rank", {})
    got = parse_response(rank, "I think... My answer is [Maharashtra, Orissa = Bihar, GA]")
    assert got.value == {"ranks": {"MH": 1, "OD": 2, "BR": 2, "GA": 4}}
    single = _item("mapwise_single", "single", {})
    assert parse_response(single, "My answer is [Uttaranchal]").value == {"regions": ["UK"]}
    assert not parse_response(single, "My answer is [Texas]").valid
    lst = _item("mapwise_list", "list", {})
    assert parse_response(lst, "My answer is [Kerala (KL), goa]").value == {
        "items": ["GA", "KL"]}
    rng = _item("mapwise_range", "range", {})
    assert parse_response(rng, "My answer is [1.5k - 2k]").value == {"range": [1500.0, 2000.0]}
    count = _item("mapwise_count", "count", {})
    assert parse_response(count, "My answer is [7]").value == {"count": 7}


def test_sections_score_by_hand_with_invalid_answers() -> None:
    items = [
        _item("mapwise_single", "single", {"accepted": ["BR", "UP"], "text": "Bihar"}, 0),
        _item("mapwise_single", "single", {"accepted": ["BR", "UP"], "text": "Bihar"}, 1),
        _item("mapwise_single", "single", {"accepted": ["MH"], "text": "Maharashtra"}, 2),
        _item("mapwise_range", "range", {"range": [10, 20], "text": "10 - 20",
                                         "continuous": True}, 0),
        _item("mapwise_range", "range", {"range": [10, 20], "text": "10 - 20",
                                         "continuous": True}, 1),
        _item("mapwise_list", "list", {"items": ["BR", "UP", "MH"]}, 0),
        _item("mapwise_rank", "rank", {"order": ["MH", "BR", "GA"],
                                       "levels": {"MH": 5, "BR": 3, "GA": 1}}, 0),
        _item("mapwise_count", "count", {"count": 4}, 0),
    ]
    preds = {
        "mapwise_single-0": "My answer is [Uttar Pradesh]",  # a tied region: 1
        "mapwise_single-1": "My answer is [Bihar]",  # 1
        "mapwise_single-2": "no idea",  # invalid
        "mapwise_range-0": "My answer is [15 - 25]",  # overlap on a colour bar: 0.5
        "mapwise_range-1": "My answer is [10 - 20]",  # 1
        "mapwise_list-0": "My answer is [BR, Goa]",  # P 1/2, R 1/3
        "mapwise_rank-0": "My answer is [BR, MH, GA]",  # C=2, D=1 -> 1/3
        "mapwise_count-0": "My answer is [4]",
    }
    scored = score_predictions(items, preds, include_items=False)["sections"]
    single = scored["mapwise_single"]["metrics"]["recall"]
    assert single["all"] == pytest.approx(2 / 3) and single["valid_only"] == 1.0
    assert scored["mapwise_range"]["metrics"]["range_score"]["all"] == pytest.approx(0.75)
    lst = scored["mapwise_list"]["metrics"]
    assert lst["precision"]["all"] == pytest.approx(0.5)
    assert lst["recall"]["all"] == pytest.approx(1 / 3)
    assert scored["mapwise_rank"]["metrics"]["tau_b"]["all"] == pytest.approx(1 / 3)
    assert scored["mapwise_count"]["metrics"]["accuracy"]["all"] == 1.0
