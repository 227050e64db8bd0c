"""The shortcut report and the answer balance, on hand-made items."""

from __future__ import annotations

import pytest
from helpers.baseline_items import counts, mfs, presence

from cartoqa.baselines.balance import balance_warnings, dataset_balance
from cartoqa.baselines.shortcuts import beats_chance, format_table, shortcut_table


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


def test_shortcut_table_flags_a_majority_that_beats_chance():
    items = presence([True] * 9 + [False])
    always_yes = {str(i["id"]): "Yes" for i in items}
    table = shortcut_table(items, {"majority": always_yes}, chance_seeds=40)
    [row] = table["rows"]
    assert row["metric"] == "accuracy"
    assert row["scores"]["majority"] == pytest.approx(0.9)
    assert row["chance"] == pytest.approx(0.5, abs=0.08)  # 400 coin flips
    assert row["flags"][0].startswith("majority beats chance (0.9 vs")
    assert "yes holds 90%" in row["flags"][1]
    assert "**yes**" in format_table(table)


def test_beats_chance_margins():
    assert not beats_chance(0.6, 0.5, True)
    assert beats_chance(0.61, 0.5, True)
    assert beats_chance(74.0, 100.0, False)
    assert not beats_chance(None, 0.5, True)
