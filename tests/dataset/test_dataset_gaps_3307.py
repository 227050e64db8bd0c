"""The dataset package at the places the fresh mutation sample of seed 3307 found untested
(issue 33): the answer balance's record and card, the fix each refusal tells the user,
the manifest's format version and the card's task list, checksums after a missing file,
and durable writes. Hand-made items and folders; no build.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from helpers.baseline_items import counts, mfs, presence
from helpers.written_slots import KEY, finished_dataset, png

from cartoqa.dataset.balance import balance_card, balance_record, request_balance
from cartoqa.dataset.card import render_card
from cartoqa.dataset.files import write_bytes_atomic, write_json_atomic
from cartoqa.dataset.manifest import FORMAT_VERSION, build_manifest
from cartoqa.dataset.many import combined_items
from cartoqa.dataset.reader import image_file, read_items
from cartoqa.dataset.schema import item_errors
from cartoqa.dataset.validate import checksum_problems, validate_dataset
from cartoqa.dataset.writer import DatasetWriter
from cartoqa.errors import CartoqaError

# -- the answer balance ---------------------------------------------------------------------


def test_the_balance_records_the_most_common_answer_and_its_share() -> None:
    entry = request_balance(counts([0] * 5 + [1, 2, 2]), "stmf", "count")
    assert entry["top_answer"] == '{"count":0}' and entry["top_share"] == 0.625
    record = balance_record(counts([3] * 6 + [1, 2]))
    assert record["requests"]["stmf/count"]["top_answer"] == '{"count":3}'
    assert record["requests"]["stmf/count"]["top_share"] == 0.75
    # the card gives it for a request with no yes share and no letters
    assert "- stmf/count (8 items): most common answer 75%" in balance_card(record)


def test_the_leaning_letter_is_the_most_frequent_one_not_the_last() -> None:
    # A (bank) in 7 of 9 answers, B in 1, C in 1: A leans (78 % > 20 % + 15 %)
    items = mfs(["bank"] * 7 + ["park", "bus stop"])
    entry = request_balance(items, "mfs", "choice")
    assert entry["letter_share"] == {"A": 0.778, "B": 0.111, "C": 0.111}
    assert entry["unbalanced"] == ["letter A answers 78% (fair share 20%, limit 35%)"]


def test_a_fair_letter_share_is_never_over_one() -> None:
    # MapIQ multiple choice: eight items with two options, both correct, one with five,
    # all correct: 21 letters over 9 answers is 2.33 per answer, over the usual 2 options
    # 117 %; a share of the answers is at most 100 %
    def mcq(k: int, options: dict[str, str], letters: list[str]) -> dict[str, object]:
        return {"id": f"mapiq_sc-{k:04d}-mcq", "task": "mapiq_sc", "request": "mcq",
                "question": "Which states?", "answer": {"letters": letters},
                "options": options}

    two = {"a": "NJ", "b": "CT"}
    five = {**two, "c": "PA", "d": "VT", "e": "None of the above"}
    items = [mcq(k, two, ["a", "b"]) for k in range(8)] + [mcq(9, five, list(five))]
    entry = request_balance(items, "mapiq_sc", "mcq")
    assert entry["letter_share"]["a"] == 1.0
    assert entry["fair_letter_share"] == 1.0 and entry["unbalanced"] == []


def test_the_balance_card_starts_with_its_heading() -> None:
    card = balance_card(balance_record(presence([True, False] * 5)))
    assert card.startswith("## Answer balance\n\nLimits: yes or no at most 65%; ")
    assert "- stmf/presence (10 items): yes 50%" in card
    assert card.endswith("No request is unbalanced past the limits.\n")


# -- what a refusal tells the user to do ----------------------------------------------------


def test_an_image_outside_the_dataset_says_how_to_name_it(tmp_path: Path) -> None:
    item = {"id": "mml-0000", "image": "../secret.png"}
    with pytest.raises(CartoqaError) as exc:
        image_file(tmp_path, item)
    assert exc.value.fix == "image paths must be relative, e.g. images/<id>.png"


def test_items_that_are_not_utf8_say_to_rebuild(tmp_path: Path) -> None:
    (tmp_path / "items.jsonl").write_bytes(b'{"id": "caf\xe9"}\n')
    with pytest.raises(CartoqaError, match="line 1 is not UTF-8 text") as exc:
        read_items(tmp_path)
    assert exc.value.fix == "rebuild the dataset with `cartoqa build`"


def test_a_folder_in_use_says_to_wait_or_choose_another(tmp_path: Path) -> None:
    key = {"extract_sha256": "0" * 64, "tasks": ["mml"], "seed": 0, "per_task": 1}
    first = DatasetWriter(tmp_path / "ds", build_key=key)
    first.lock()
    try:
        with pytest.raises(CartoqaError, match="in use by another cartoqa build") as exc:
            DatasetWriter(tmp_path / "ds", build_key=key).lock()
    finally:
        first.unlock()
    assert exc.value.fix == "wait for that build to finish, or choose another --out folder"


def test_a_city_changed_since_build_many_says_to_run_it_again(tmp_path: Path) -> None:
    (tmp_path / "kotka").mkdir()
    (tmp_path / "kotka" / "items.jsonl").write_text("{}\n", "utf-8")
    manifest = {"cities": [{"name": "kotka", "folder": "kotka", "items_sha256": "0" * 64}]}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    with pytest.raises(CartoqaError, match="changed since build-many") as exc:
        combined_items(tmp_path)
    assert exc.value.fix == "run cartoqa build-many with the same spec again"


# -- the manifest and the card --------------------------------------------------------------


def test_the_manifest_names_its_format_version() -> None:
    manifest = build_manifest([], extract={"name": "x", "sha256": "0" * 64},
                              versions={"cartoqa": "0"}, image_sizes={}, shortfalls={})
    assert manifest["format_version"] == FORMAT_VERSION == 1


def test_the_card_lists_the_tasks_built() -> None:
    card = render_card({"build": {"seed": 3, "tasks": ["mml", "srn"], "per_task": 4}})
    assert "- seed: 3, tasks: mml, srn, requested items per task: 4" in card


def test_checksums_go_on_after_a_missing_image(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "b.png").write_bytes(b"now")
    (tmp_path / "items.jsonl").write_bytes(b"{}\n")
    sums = {"images/a.png": "1" * 64,  # missing
            "images/b.png": hashlib.sha256(b"then").hexdigest(),  # changed
            "items.jsonl": hashlib.sha256(b"{}\n").hexdigest()}
    problems = checksum_problems(tmp_path, {"checksums": sums}, tmp_path / "items.jsonl")
    assert problems[0] == "images/a.png: missing (the manifest records its checksum)"
    assert problems[1].startswith("images/b.png was changed or replaced after the build")
    assert len(problems) == 2


# -- durable writes -------------------------------------------------------------------------


def test_dataset_files_are_flushed_to_disk_before_the_rename(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    write_bytes_atomic(tmp_path / "a.bin", b"abc")
    assert (tmp_path / "a.bin").read_bytes() == b"abc" and synced
    synced.clear()
    write_json_atomic(tmp_path / "m.json", {"b": 1, "a": 2})
    assert (tmp_path / "m.json").read_text("utf-8") == '{\n  "a": 2,\n  "b": 1\n}\n' and synced


def test_a_thematic_dataset_without_sources_is_told_what_to_name(tmp_path: Path) -> None:
    out = finished_dataset(tmp_path / "ds")
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    manifest.update(suite="mapiq")
    manifest.pop("attribution", None)
    (out / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    assert ("manifest.json: a mapiq dataset must name its sources and their licences "
            "(attribution, sources)") in validate_dataset(out).errors


def test_each_request_of_a_task_checks_its_own_answer() -> None:
    # STMF has several requests: a presence item must answer "present", a count item
    # "count"; each other's answer is an error of the answer, not only of the strata
    strata = {"feature_type": "pharmacy", "zoom": 17}
    yes = {**presence([True])[0], "strata": strata}
    three = {**counts([3])[0], "strata": strata}
    assert item_errors(yes) == [] and item_errors(three, tasks=["stmf"]) == []
    swapped = item_errors({**yes, "answer": {"count": 3}})
    assert "$.answer: 'present' is a required property" in swapped
    assert "$.answer: 'count' is a required property" in item_errors(
        {**three, "answer": {"present": True}}, tasks=["stmf"])


def test_the_writer_knows_which_images_it_has(tmp_path: Path) -> None:
    writer = DatasetWriter(tmp_path / "ds", build_key=KEY)
    writer.open()
    try:
        assert not writer.has_image("mml-0000.png")
        writer.write_image("mml-0000.png", png())
        assert writer.has_image("mml-0000.png") and not writer.has_image("mml-0001.png")
    finally:
        writer.abandon()
