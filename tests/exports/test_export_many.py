"""``cartoqa export`` of a ``build-many`` folder: every city in one export, with a city column.

Two "cities" are copies of the synthetic dataset (the same ids in each, as two real
cities have), tied together by the combined manifest :mod:`cartoqa.build_many` writes.
"""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from helpers.synthetic_dataset import write_synthetic_dataset

from cartoqa.build_many import CitySpec, ManySpec, combined_manifest
from cartoqa.cli import main
from cartoqa.dataset.many import city_item
from cartoqa.dataset.reader import read_items
from cartoqa.exports.hf import item_from_row

TASKS = ["mfs", "stmf", "mtmf", "rle", "mml", "srn"]
CITIES = ["kotka", "tartu"]


@pytest.fixture
def cities(tmp_path: Path) -> Path:
    root = tmp_path / "cities"
    first = write_synthetic_dataset(root / CITIES[0], copies=1)
    shutil.copytree(first, root / CITIES[1])
    # the second city's images differ, so that a mix-up of folders shows
    for image in sorted((root / CITIES[1] / "images").iterdir()):
        image.write_bytes(image.read_bytes() + b"tartu")
    spec = ManySpec(out=root, cities=[CitySpec(name=c, extract=c, tasks=tuple(TASKS),
                                               per_task=1, seed=0) for c in CITIES])
    (root / "manifest.json").write_text(json.dumps(combined_manifest(spec)), "utf-8")
    return root


def _expected(root: Path) -> dict[str, dict[str, object]]:
    return {f"{c}/{item['id']}": city_item(item, c, c)
            for c in CITIES for item in read_items(root / c)}


def test_hf_export_of_two_cities(cities: Path, tmp_path: Path,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from datasets import Image as HFImage
    from datasets import load_dataset

    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    out = tmp_path / "hf"
    assert main(["export", str(cities), "--format", "hf", str(out)]) == 0
    loaded = load_dataset(str(out), cache_dir=str(tmp_path / "hf-cache"))
    assert list(loaded) == TASKS
    expected = _expected(cities)
    seen = {}
    for split in TASKS:
        raw = loaded[split].cast_column("image", HFImage(decode=False))
        assert raw.column_names[:2] == ["id", "city"]
        per_city = len(raw) // 2  # the same items in each city
        assert sorted(raw["city"]) == [c for c in CITIES for _ in range(per_city)]
        for row in raw:
            item = item_from_row(row)
            assert item["id"].startswith(f"{row['city']}/")
            assert row["image"]["bytes"] == (cities / item["image"]).read_bytes()
            seen[item["id"]] = item
    assert set(seen) == set(expected)
    for key, item in expected.items():
        assert seen[key] == item
    card = (out / "README.md").read_text("utf-8")
    assert "2 cities: kotka, tartu" in card and "`city`" in card


def test_vlmevalkit_and_lmms_eval_exports_of_two_cities(cities: Path, tmp_path: Path) -> None:
    out = tmp_path / "vlm"
    assert main(["export", str(cities), "--format", "vlmevalkit", str(out)]) == 0
    expected = _expected(cities)
    for task in TASKS:
        (tsv,) = out.glob(f"*_{task.upper()}.tsv")
        frame = pd.read_csv(tsv, sep="\t", keep_default_na=False)
        assert list(frame.columns)[-1] == "city"
        per_city = len(frame) // 2
        assert list(frame["city"]) == [c for c in CITIES for _ in range(per_city)]
        assert list(frame["index"]) == list(range(len(frame)))  # unique over the cities
        for _, row in frame.iterrows():
            item = expected[row["id"]]
            assert base64.b64decode(row["image"]) == (cities / str(item["image"])).read_bytes()
    lmms = tmp_path / "lmms"
    assert main(["export", str(cities), "--format", "lmms-eval", str(lmms)]) == 0
    frame = pd.read_parquet(next((lmms / "hf" / "data").glob("mml-*.parquet")))
    assert list(frame["city"]) == CITIES
    assert list(frame["id"]) == ["kotka/mml-0000", "tartu/mml-0000"]


def test_a_city_changed_since_build_many_is_refused(
        cities: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    items = cities / "tartu" / "items.jsonl"
    items.write_text(items.read_text("utf-8").replace("\n", "\n", 1), "utf-8")  # unchanged
    assert main(["export", str(cities), "--format", "vlmevalkit", str(tmp_path / "a")]) == 0
    lines = items.read_text("utf-8").splitlines(keepends=True)
    items.write_text("".join(lines[:-1]), "utf-8")
    target = tmp_path / "b"
    assert main(["export", str(cities), "--format", "vlmevalkit", str(target)]) == 2
    err = capsys.readouterr().err
    assert "tartu/items.jsonl of" in err and "changed since build-many" in err
    assert not target.exists()


def test_a_multi_map_item_of_a_city_keeps_its_maps_apart() -> None:
    from cartoqa.dataset.reader import item_images
    from cartoqa.exports.vlmevalkit import tsv_row

    item = {"id": "frieda-0007", "task": "frieda_equal", "question": "q",
            "image": "images/a.png", "images": ["images/a.png", "images/b.png"]}
    out = city_item(item, "kotka", "kotka")
    assert item_images(out) == ["kotka/images/a.png", "kotka/images/b.png"]
    assert item["images"] == ["images/a.png", "images/b.png"]  # the city's item is untouched
    row = tsv_row(out, 0, [b"a", b"b"], lambda it: "")
    # VLMEvalKit writes the maps under these names: another city's a.png must not clash
    assert row["image_path"] == repr(["kotka-a.png", "kotka-b.png"])
    assert row["city"] == "kotka"


def test_score_of_two_cities_names_items_as_the_export_does(cities: Path,
                                                            tmp_path: Path) -> None:
    """``cartoqa score CITIES`` scores the items of every city under the ids of the
    combined export (``<city>/<id>``): one wrong answer in one city shows there only."""
    from cartoqa.declarations.answer_text import answer_as_text

    expected = _expected(cities)
    responses = {key: answer_as_text(item) for key, item in expected.items()}
    responses["tartu/mml-0000"] = "Answer: Nowhere Street, Nobody Road"
    preds = tmp_path / "preds.jsonl"
    preds.write_text("".join(json.dumps({"id": k, "response": v}) + "\n"
                             for k, v in responses.items()), "utf-8")
    out = tmp_path / "report.json"
    assert main(["score", str(cities), str(preds), "--no-connectivity",
                 "--out", str(out)]) == 0
    report = json.loads(out.read_text("utf-8"))
    rows = {row["id"]: row for row in report["items"]}
    assert set(rows) == set(expected)
    assert report["sections"]["mml"]["n"] == 2
    wrong = [key for key, row in rows.items()
             if row.get("measures", {}).get("correct") is False]
    assert wrong == ["tartu/mml-0000"]
    # an export's ids are what the score reads: the same items, the same names
    lmms = tmp_path / "lmms"
    assert main(["export", str(cities), "--format", "lmms-eval", str(lmms)]) == 0
    exported = pd.concat(pd.read_parquet(p) for p in (lmms / "hf" / "data").glob("*.parquet"))
    assert set(exported["id"]) == set(rows)
    # a predictions file of one city's own ids is refused: it names no combined item
    single = tmp_path / "single.jsonl"
    single.write_text(json.dumps({"id": "mml-0000", "response": "x"}) + "\n", "utf-8")
    assert main(["score", str(cities), str(single), "--no-connectivity"]) == 2
