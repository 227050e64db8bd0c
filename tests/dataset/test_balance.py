"""The answer balance a build records, warns about and enforces (yes/no quota)."""

from __future__ import annotations

import pytest
from helpers.baseline_items import counts, mfs, presence

from cartoqa.dataset.balance import (
    balance_card,
    balance_record,
    balance_warnings,
    dataset_balance,
    yes_no_quota,
)


def test_balance_measures_yes_letters_and_counts():
    items = [*presence([True] * 6 + [False] * 3), *counts([0] * 5 + [1, 2, 2]),
             *mfs(["park"] * 5 + ["bank"] * 3)]
    balance = dataset_balance(items)
    assert balance["stmf/presence"]["yes_share"] == pytest.approx(6 / 9, abs=1e-3)
    assert balance["stmf/count"]["count_histogram"] == {"count": {"0": 5, "1": 1, "2": 2}}
    assert balance["mfs/choice"]["letter_share"] == {"A": 0.375, "B": 0.625}
    assert balance_warnings(balance) == [
        "stmf/presence: yes holds 67% of the answers (limit 65%)",
        "stmf/count: one answer ({\"count\":0}) holds 62% of the answers (limit 50%)",
        "mfs/choice: letter B answers 62% (fair share 20%, limit 35%)",
    ]


def test_too_few_items_are_described_not_judged():
    assert dataset_balance(presence([True] * 7))["stmf/presence"]["unbalanced"] == []


def test_quota_keeps_the_rarer_answer_and_the_first_of_the_other():
    # 9 yes, 3 no: at most 65% yes -> yes <= 0.65 * 3 / 0.35 = 5.57 -> 5 yes kept
    items = presence([True] * 5 + [False] + [True] * 4 + [False] * 2)
    kept, dropped = yes_no_quota(items)
    assert dropped == {"stmf/presence": 4}
    assert [i["id"] for i in kept] == ["stmf-p0", "stmf-p1", "stmf-p2", "stmf-p3", "stmf-p4",
                                       "stmf-p5", "stmf-p10", "stmf-p11"]
    assert balance_warnings(dataset_balance(kept)) == []


def test_quota_leaves_balanced_small_and_one_sided_requests_alone():
    for answers in ([True, False] * 5, [True] * 6 + [False], [True] * 10):
        items = presence(answers)
        assert yes_no_quota(items) == (items, {})
    other = [*counts([0] * 10), *mfs(["park"] * 10)]
    assert yes_no_quota(other) == (other, {})


def test_card_says_what_was_left_out():
    items = presence([True] * 10)
    record = balance_record(items, {"stmf/presence": 4})
    card = balance_card(record)
    assert "- stmf/presence (10 items): yes 100%" in card
    assert "- stmf/presence: 4 items of the leaning answer left out (yes/no quota)" in card
    assert "- stmf/presence: yes holds 100% of the answers (limit 65%)" in card
    assert record["limits"]["yes_no"] == pytest.approx(0.65)


def _mcq(answers: list[list[str]]) -> list[dict]:
    options = {"a": "NJ", "b": "CT", "c": "PA", "d": "VT", "e": "None of the above"}
    return [{"id": f"mapiq_sc-{k:04d}-mcq", "task": "mapiq_sc", "request": "mcq",
             "question": "Which states?", "answer": {"letters": a}, "options": options}
            for k, a in enumerate(answers)]


def test_letter_fair_share_counts_several_correct_letters():
    # 10 answers, 2 letters each: a letter's fair share is 2/5 = 40% (limit 55%);
    # a and c in 4 of 10 (40%) are within it, though past the one-letter 1/5 + 15%;
    # b and d in 6 of 10 are past it
    items = _mcq([["a", "b"], ["b", "c"], ["c", "d"], ["a", "d"], ["b", "d"]] * 2)
    entry = dataset_balance(items)["mapiq_sc/mcq"]
    assert entry["fair_letter_share"] == pytest.approx(0.4)
    assert entry["letter_share"]["b"] == pytest.approx(0.6)
    assert entry["unbalanced"] == ["letter d answers 60% (fair share 40%, limit 55%)"]
    one = dataset_balance(_mcq([["a"], ["b"], ["c"], ["d"], ["e"]] * 2))["mapiq_sc/mcq"]
    assert one["fair_letter_share"] == pytest.approx(0.2) and one["unbalanced"] == []
