"""The dataset package at the places the fresh mutation sample of seed 3308 found
untested (issue 33). Hand-made items and folders; no build.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.baseline_items import counts, presence
from helpers.written_slots import KEY, finalise, mml_item, png

from cartoqa.dataset.balance import balance_card, balance_record, request_balance
from cartoqa.dataset.card import render_card
from cartoqa.dataset.many import combined_items
from cartoqa.dataset.schema import item_errors
from cartoqa.dataset.validate import count_problems, unsummed_images
from cartoqa.dataset.writer import DatasetWriter, check_writable_folder
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


def test_the_most_common_answer_among_equals_does_not_depend_on_item_order() -> None:
    first = request_balance(counts([0, 0, 2, 2]), "stmf", "count")
    second = request_balance(counts([2, 2, 0, 0]), "stmf", "count")
    assert first["top_answer"] == second["top_answer"] == '{"count":2}'
    assert first["top_share"] == second["top_share"] == 0.5


def test_a_frieda_card_names_its_setting_only_when_there_is_one() -> None:
    with_setting = {"build": {"tasks": ["frieda_border"], "seed": 0, "per_task": 1,
                              "task_options": {"frieda_setting": "both"}}}
    assert "`cartoqa build --suite frieda --frieda-setting both --extract" in render_card(
        with_setting)
    without = {"build": {"tasks": ["frieda_border"], "seed": 0, "per_task": 1}}
    card = render_card(without)
    assert "`cartoqa build --suite frieda --extract" in card and "--frieda-setting" not in card


def test_items_that_do_not_validate_are_named_three_at_most(tmp_path: Path) -> None:
    writer = DatasetWriter(tmp_path / "bad", build_key=KEY)
    writer.open()
    for slot in range(5):
        bad = mml_item(slot)
        bad["answer"] = {"roads": []}
        writer.write_image(f"mml-{slot:04d}.png", png())
        writer.record("mml", slot, [bad])
    with pytest.raises(CartoqaError) as exc:
        finalise(writer)
    head = "the build produced items that do not validate: "
    assert exc.value.message.startswith(head)
    parts = exc.value.message.removeprefix(head).split("; ")
    assert [p.split()[0] for p in parts] == ["mml-0000", "mml-0001", "mml-0002"], parts


def test_an_unfinished_build_of_other_options_says_how_to_go_on(tmp_path: Path) -> None:
    DatasetWriter(tmp_path / "ds", build_key=KEY).open()  # left unfinished
    with pytest.raises(CartoqaError) as exc:
        DatasetWriter(tmp_path / "ds", build_key={**KEY, "seed": 1}).open()
    assert exc.value.message == f"{tmp_path / 'ds'} holds an unfinished build with other options"
    assert exc.value.fix == "rerun with the same options to resume it, or delete the folder"


def test_an_output_folder_that_cannot_be_made_says_to_choose_another(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("x", "utf-8")
    out = tmp_path / "a-file" / "ds"  # its parent is a file: even root cannot make it
    with pytest.raises(CartoqaError, match="cannot write to output folder") as exc:
        check_writable_folder(out)
    assert exc.value.fix == "choose a folder you can write to with --out"


def test_an_item_of_an_undeclared_task_is_an_error_of_its_task() -> None:
    strata = {"feature_type": "pharmacy", "zoom": 17}
    good = {**presence([True])[0], "strata": strata}
    assert item_errors(good) == []
    errors = item_errors({**good, "task": "stmg"})  # its id still says stmf
    assert len(errors) == 1 and errors[0].startswith("$.task: 'stmg' is not one of ['mfs', ")


def test_a_shortfall_names_scenarios_only_when_it_counts_them() -> None:
    card = render_card({"shortfalls": {
        "mml": {"written": 1, "requested": 2, "reason": "few roads"},
        "srn": {"written": 3, "requested": 4, "scenarios_written": 2,
                "scenarios_requested": 3, "reason": "few routes"}}})
    assert "- mml: 1 of 2 items (few roads)\n" in card
    assert "- srn: 3 of 4 items, 2 of 3 scenarios (few routes)\n" in card
