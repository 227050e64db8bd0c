"""End to end: `cartoqa baselines` writes predictions that `cartoqa score` and `cartoqa
report` read like a model's."""

from __future__ import annotations

import json

import pytest
from helpers.synthetic_dataset import write_synthetic_dataset

from cartoqa.cli import main


@pytest.fixture()
def dataset(tmp_path):
    return write_synthetic_dataset(tmp_path / "ds", copies=3)


def test_baselines_scored_and_reported(dataset, tmp_path, capsys):
    out = tmp_path / "baselines"
    assert main(["baselines", str(dataset), "--out", str(out), "--report",
                 "--baselines", "random,majority,prompt_example,text_prior"]) == 0
    assert sorted(p.name for p in out.glob("*.jsonl")) == [
        "baseline-majority.jsonl", "baseline-prompt_example.jsonl",
        "baseline-random.jsonl", "baseline-text_prior.jsonl"]
    assert "| section | n | metric | chance |" in (out / "shortcuts.md").read_text()
    capsys.readouterr()
    # three identical copies of each item: each is answered from the other two
    # (leave-one-out), whose answer is its own, so the majority scores perfectly
    report_path = tmp_path / "majority.json"
    assert main(["score", str(dataset), str(out / "baseline-majority.jsonl"),
                 "--out", str(report_path), "--no-connectivity"]) == 0
    report = json.loads(report_path.read_text())
    assert report["n_invalid"] == 0
    sections = report["sections"]
    assert sections["mfs"]["metrics"]["accuracy"]["all"] == 1.0
    assert sections["stmf/presence"]["metrics"]["accuracy"]["all"] == 1.0
    assert sections["stmf/count"]["metrics"]["rmse"]["all"] == 0.0
    assert sections["mml"]["metrics"]["accuracy"]["all"] == 1.0
    assert sections["rle"]["metrics"]["mape"]["all"] == 0.0
    line = json.loads((out / "baseline-majority.jsonl").read_text().splitlines()[0])
    assert line["model"] == "baseline:majority"
    html = tmp_path / "report"
    assert main(["report", str(dataset), str(out / "baseline-majority.jsonl"),
                 str(out / "baseline-random.jsonl"), "--out", str(html),
                 "--no-connectivity"]) == 0
    written = " ".join(p.read_text(errors="ignore") for p in html.rglob("*")
                       if p.is_file() and p.suffix in (".html", ".json", ".js"))
    assert "baseline-majority" in written and "baseline-random" in written


def test_training_on_the_dataset_itself_is_refused(dataset, tmp_path, capsys):
    assert main(["baselines", str(dataset), "--out", str(tmp_path / "b"),
                 "--train", str(dataset)]) == 2
    assert not (tmp_path / "b").exists()
    assert "--train is the dataset itself" in capsys.readouterr().err
