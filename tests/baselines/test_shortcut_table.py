"""``scripts/shortcut_table.py``: the shortcut table of datasets already built, one
document with every flagged row and what was done about it."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest
from helpers.modules import load_script
from helpers.synthetic_dataset import write_synthetic_dataset


def _script() -> ModuleType:
    return load_script("shortcut_table")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("table")
    # eight identical copies of each item: the answers never vary, so the majority
    # (learned on the other build) answers every item right, far above chance
    return (write_synthetic_dataset(root / "s0", copies=8),
            write_synthetic_dataset(root / "s1", copies=2))


def test_document_lists_flags_with_notes_and_tables(built: tuple[Path, Path],
                                                     tmp_path: Path) -> None:
    s0, s1 = built
    notes = tmp_path / "notes.json"
    notes.write_text(json.dumps({"synthetic mml": "every copy is the same item"}))
    out = tmp_path / "out"
    assert _script().main(["--out", str(out), "--dataset", "synthetic", str(s0), str(s1),
                           "--baselines", "random,majority", "--notes", str(notes)]) == 0
    text = (out / "shortcuts.md").read_text()
    flagged = text.split("## Flagged rows")[1].split("## synthetic")[0]
    assert "| synthetic | mfs | 8 | majority beats chance (1 vs" in flagged
    assert "| synthetic | mml | 8 |" in flagged
    assert "| every copy is the same item |" in flagged and "| not addressed |" in flagged
    assert f"- dataset: `{s0}`" in text and f"- majority learned on: `{s1}`" in text
    table = json.loads((out / "synthetic" / "shortcuts.json").read_text())
    mfs = next(r for r in table["rows"] if r["section"] == "mfs")
    assert mfs["scores"]["majority"] == 1.0 and mfs["chance"] < 0.5
    assert sorted(p.name for p in (out / "synthetic").glob("*.jsonl")) == [
        "baseline-majority.jsonl", "baseline-random.jsonl"]


def test_reuse_reads_the_predictions_already_written(built: tuple[Path, Path],
                                                     tmp_path: Path) -> None:
    s0, s1 = built
    out = tmp_path / "out"
    args = ["--out", str(out), "--dataset", "syn", str(s0), str(s1),
            "--baselines", "majority"]
    assert _script().main(args) == 0
    path = out / "syn" / "baseline-majority.jsonl"
    # an empty answer everywhere: with --reuse the table scores that file, not a rerun
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    path.write_text("".join(json.dumps({**line, "response": ""}) + "\n" for line in lines))
    assert _script().main([*args, "--reuse"]) == 0
    table = json.loads((out / "syn" / "shortcuts.json").read_text())
    assert next(r for r in table["rows"] if r["section"] == "mfs")["scores"]["majority"] == 0
    assert _script().main(args) == 0  # without --reuse: run again
    table = json.loads((out / "syn" / "shortcuts.json").read_text())
    assert next(r for r in table["rows"] if r["section"] == "mfs")["scores"]["majority"] == 1


@pytest.mark.parametrize("extra, message", [
    (["--dataset", "a"], "give NAME DATASET [TRAIN]"),
    (["--dataset", "a", "/nonexistent/ds"], "is not a built dataset"),
    (["--dataset", "a", "{s0}", "{s0}"], "TRAIN is the dataset itself"),
    (["--dataset", "a", "{s0}", "--dataset", "a", "{s1}"], "share a name"),
    (["--dataset", "a", "{s0}", "--baselines", "oracle"], "unknown baseline"),
])
def test_bad_input_is_one_line_and_status_2(built: tuple[Path, Path], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str],
                                            extra: list[str], message: str) -> None:
    s0, s1 = built
    args = [a.format(s0=s0, s1=s1) for a in extra]
    assert _script().main(["--out", str(tmp_path / "o"), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
    assert not (tmp_path / "o").exists()
