"""Scoring a whole synthetic dataset folder: perfect, empty and missing predictions, the CLI."""

from __future__ import annotations

import doctest
import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from scoring_data import GRID

from cartoqa.cli import main
from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.errors import CartoqaError
from cartoqa.scoring import score_dataset

RATES = {"accuracy", "macro_f1", "precision", "recall", "f1", "exact_route", "step_accuracy",
         "connectivity"}
ERRORS = {"rmse", "mae", "rmse_m", "mae_m", "mape"}
EXTRACTS = {"grid.osm": str(GRID)}


def _strict_json(path: Path) -> Any:
    def no_constants(name: str) -> None:
        raise AssertionError(f"report holds {name}")

    return json.loads(path.read_text(encoding="utf-8"), parse_constant=no_constants)


def _groups(section: dict[str, Any]) -> list[dict[str, Any]]:
    groups = [section]
    for values in section["strata"].values():
        groups.extend(values.values())
    return groups


def test_perfect_predictions_score_one_everywhere(
    dataset_dir: Path, items: list[dict[str, Any]],
    predictions_file: Callable[[dict[str, str]], Path],
) -> None:
    preds = predictions_file({it["id"]: answer_as_text(it) for it in items})
    report = score_dataset(dataset_dir, preds, extracts=EXTRACTS)
    assert report["n_items"] == len(items) and report["n_invalid"] == 0
    assert set(report["sections"]) == {"mfs", "stmf/presence", "stmf/count", "stmf/names",
                                       "mtmf", "rle", "mml", "srn"}
    checked = 0
    for key, section in report["sections"].items():
        for group in _groups(section):
            assert group["n_invalid"] == 0
            for name, value in group["metrics"].items():
                for variant in ("all", "valid_only"):
                    if name in RATES:
                        assert value[variant] == 1.0, (key, name, variant)
                        checked += 1
                    elif name in ERRORS:
                        assert value[variant] == pytest.approx(0.0, abs=1e-9), (key, name)
                    elif name == "r2" and value[variant] is not None:
                        assert value[variant] == pytest.approx(1.0)
    assert checked > 50
    assert report["sections"]["srn"]["metrics"]["connectivity"]["all"] == 1.0


def test_a_file_without_predictions_is_refused_like_one_of_foreign_ids(
    dataset_dir: Path, predictions_file: Callable[[dict[str, str]], Path],
) -> None:
    # issue 31, point 11: an empty file scored with exit 0 while foreign ids were refused
    with pytest.raises(CartoqaError, match="holds no predictions"):
        score_dataset(dataset_dir, predictions_file({}), extracts=EXTRACTS)
    with pytest.raises(CartoqaError, match="none of the 1 predictions"):
        score_dataset(dataset_dir, predictions_file({"elsewhere-1": "A"}), extracts=EXTRACTS)


@pytest.mark.parametrize("kind", ["empty responses"])
def test_empty_predictions_score_zero_and_count_every_answer_invalid(
    kind: str, dataset_dir: Path, items: list[dict[str, Any]],
    predictions_file: Callable[[dict[str, str]], Path],
) -> None:
    responses = {it["id"]: "" for it in items}
    report = score_dataset(dataset_dir, predictions_file(responses), extracts=EXTRACTS)
    assert report["n_invalid"] == report["n_items"] == len(items)
    reason = "empty response" if kind == "empty responses" else "no prediction for this item"
    for key, section in report["sections"].items():
        assert section["n_invalid"] == section["n"] > 0
        assert section["invalid_reasons"] == {reason: section["n"]}
        for group in _groups(section):
            for name, value in group["metrics"].items():
                assert value["n_invalid"] == group["n"]
                assert value["valid_only"] is None, (key, name)
                if name in RATES:
                    assert value["all"] == 0.0, (key, name)
    assert all(not row["valid"] for row in report["items"])


def test_cli_prints_a_table_writes_strict_json_and_figures(
    dataset_dir: Path, items: list[dict[str, Any]], tmp_path: Path,
    predictions_file: Callable[[dict[str, str]], Path], capsys: pytest.CaptureFixture[str],
) -> None:
    responses = {it["id"]: answer_as_text(it) for it in items}
    responses["mfs-0000"] = "I am not sure"
    responses["rle-0001"] = "about 250 m"
    preds = predictions_file(responses)
    out = tmp_path / "report.json"
    rc = main(["score", str(dataset_dir), str(preds), "--out", str(out),
               "--plot", str(tmp_path / "figs"), "--extract", str(GRID)])
    assert rc == 0
    printed = capsys.readouterr().out
    assert "== mfs ==" in printed and "== srn ==" in printed
    assert "all (invalid counted as wrong) | valid" in printed
    assert "0.750 | 1.000" in printed  # mfs accuracy: 3 of 4, all 3 valid ones right
    report = _strict_json(out)
    assert report["sections"]["mfs"]["n_invalid"] == 1
    assert report["sections"]["srn"]["metrics"]["connectivity"]["all"] == 1.0
    row = next(r for r in report["items"] if r["id"] == "rle-0001")
    assert row["measures"]["predicted"] == pytest.approx(250 / 0.3048)
    for name in ("tasks.png", "rle_scatter.png", "srn_steps.png"):
        with Image.open(tmp_path / "figs" / name) as img:
            assert img.width > 100 and img.height > 100


def test_cli_default_report_path_and_no_items(
    dataset_dir: Path, items: list[dict[str, Any]],
    predictions_file: Callable[[dict[str, str]], Path],
) -> None:
    preds = predictions_file({it["id"]: answer_as_text(it) for it in items})
    assert main(["score", str(dataset_dir), str(preds), "--no-items", "--no-connectivity"]) == 0
    report = _strict_json(preds.with_name("predictions.score.json"))
    assert "items" not in report
    assert report["sections"]["srn"]["metrics"]["connectivity"]["all"] is None


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["{not json"], "not valid JSON"),
        (['{"response": "A"}'], "not an object with an id"),
        (['{"id": "mfs-0000", "response": "A"}', '{"id": "mfs-0000", "response": "B"}'],
         "two predictions"),
        (['{"id": "mfs-0000", "response": 3}'], "not a string"),
    ],
)
def test_cli_bad_predictions_give_one_line_and_no_report(
    lines: list[str], message: str, dataset_dir: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    preds = tmp_path / "bad.jsonl"
    preds.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "r.json"
    assert main(["score", str(dataset_dir), str(preds), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
    assert not out.exists()


def test_cli_missing_inputs(tmp_path: Path, dataset_dir: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(tmp_path / "nope"), str(tmp_path / "p.jsonl")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["score", str(dataset_dir), str(tmp_path / "p.jsonl")]) == 2
    assert "predictions file" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["score", str(tmp_path / "empty"), str(tmp_path / "p.jsonl")]) == 2
    assert "no items.jsonl" in capsys.readouterr().err


def test_answer_as_text_is_exported_and_rejects_unknown_tasks() -> None:
    from cartoqa.declarations.answer_text import answer_as_text as from_scoring

    assert from_scoring is answer_as_text
    assert answer_as_text({"task": "stmf", "request": "names", "answer": {"names": []}}) == "None"
    with pytest.raises(ValueError):
        answer_as_text({"task": "maze", "request": "x", "answer": {}})


MODULES = [
    "cartoqa.parsing.text", "cartoqa.parsing.numbers", "cartoqa.parsing.choice",
    "cartoqa.parsing.yesno", "cartoqa.parsing.lists", "cartoqa.parsing.structured",
    "cartoqa.parsing.multi", "cartoqa.parsing.route", "cartoqa.declarations.dispatch",
    "cartoqa.declarations.answer_text", "cartoqa.parsing", "cartoqa.parsing.names",
    "cartoqa.metrics.classification", "cartoqa.metrics.regression", "cartoqa.metrics.sets",
    "cartoqa.metrics.routes", "cartoqa.metrics", "cartoqa.commands.score",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0


def test_a_cut_off_last_line_is_skipped_with_a_note(
    dataset_dir: Path, items: list[dict[str, Any]], tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    preds = tmp_path / "cut.jsonl"
    preds.write_text('{"id": "mfs-0000", "response": "Answer: C"}\n{"id": "mfs-0001", "resp',
                     encoding="utf-8")
    out = tmp_path / "r.json"
    assert main(["score", str(dataset_dir), str(preds), "--out", str(out)]) == 0
    assert "cut-off last line 2" in capsys.readouterr().out
    report = _strict_json(out)
    assert report["n_missing"] == len(items) - 1
    assert report["sections"]["mfs"]["metrics"]["accuracy"]["all"] == 0.25


def test_predictions_of_another_dataset_are_refused(
    dataset_dir: Path, predictions_file: Callable[[dict[str, str]], Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    preds = predictions_file({"other-0001": "A", "other-0002": "B"})
    assert main(["score", str(dataset_dir), str(preds)]) == 2
    assert "none of the 2 predictions" in capsys.readouterr().err
