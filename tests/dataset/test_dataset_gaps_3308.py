"""The dataset package at the places the fresh mutation sample of seed 3308 found
untested (issue 33). Hand-made items and folders; no build.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.baseline_items import presence

from cartoqa.dataset.balance import balance_card, balance_record
from cartoqa.dataset.many import combined_items
from cartoqa.dataset.validate import count_problems, unsummed_images
from cartoqa.errors import CartoqaError


def test_a_build_many_city_without_items_is_named(tmp_path: Path) -> None:
    manifest = {"cities": [{"name": "Kotka", "folder": "kotka", "items_sha256": "0" * 64}]}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    with pytest.raises(CartoqaError) as exc:
        combined_items(tmp_path)
    assert exc.value.message == f"city Kotka of {tmp_path} has no kotka/items.jsonl"
    assert exc.value.fix == "run cartoqa build-many with the same spec again"


def test_count_problems_name_five_places_and_count_the_rest() -> None:
    want = {"by_task": {f"t{k}": 1 for k in range(7)}}
    seven = count_problems({"by_task": {f"t{k}": 2 for k in range(7)}}, want)[0]
    assert seven.count(" in the manifest, ") == 5 and seven.endswith(" (and 2 more)")
    five = count_problems({"by_task": {**want["by_task"], **{f"t{k}": 2 for k in range(5)}}},
                          want)[0]
    assert five.count(" in the manifest, ") == 5
    assert five.endswith("by_task.t4 is 2 in the manifest, 1 in items.jsonl")


def test_images_without_a_checksum_are_named_five_at_most() -> None:
    manifest = {"checksums": {"items.jsonl": "0" * 64}}
    items = [{"id": f"mml-{k}", "image": f"images/mml-{k}.png"} for k in range(7)]
    seven = unsummed_images(manifest, items)[0]
    assert seven.startswith("manifest.json: records no checksum for 7 image(s) the items "
                            "refer to: images/mml-0.png, ")
    assert seven.endswith("images/mml-4.png and 2 more")
    five = unsummed_images(manifest, items[:5])[0]
    assert five.endswith("refer to: " + ", ".join(f"images/mml-{k}.png" for k in range(5)))


def test_the_balance_card_states_every_limit_then_a_blank_line() -> None:
    record = balance_record(presence([True, False] * 5))
    assert record["limits"] == {"yes_no": 0.65, "letter_margin": 0.15, "top_answer": 0.5,
                                "min_items": 8}
    card = balance_card(record)
    assert ("## Answer balance\n\nLimits: yes or no at most 65%; one option letter at most "
            "its fair share + 15%; one count or answer at most 50%; requests of fewer than "
            "8 items not judged. See docs/baselines.md.\n\n- stmf/presence (10 items): "
            "yes 50%\n") in card
