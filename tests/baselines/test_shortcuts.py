"""The shortcut report and the answer balance, on hand-made items."""

from __future__ import annotations

import pytest
from helpers.baseline_items import presence

from cartoqa.baselines.shortcuts import beats_chance, format_table, shortcut_table


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
