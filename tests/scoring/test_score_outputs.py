"""``cartoqa score --out/--plot`` never destroys an input and never shows a traceback."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cartoqa.cli import main
from cartoqa.declarations.answer_text import answer_as_text


def test_out_and_plot_paths_that_would_destroy_inputs_are_refused(
    dataset_dir: Path, items: list[dict[str, Any]], tmp_path: Path,
    predictions_file: Callable[[dict[str, str]], Path], capsys: pytest.CaptureFixture[str],
) -> None:
    preds = predictions_file({it["id"]: answer_as_text(it) for it in items})
    before = preds.read_bytes()
    items_before = (dataset_dir / "items.jsonl").read_bytes()
    folder = tmp_path / "a-folder"
    folder.mkdir()
    a_file = tmp_path / "figures.png"
    a_file.write_bytes(b"not a folder")
    cases = [
        (["--out", str(preds)], "is the predictions file"),
        (["--out", str(dataset_dir / "items.jsonl")], "dataset's items.jsonl"),
        (["--out", str(folder)], "is a folder"),
        (["--plot", str(a_file)], "is a file, not a folder"),
        (["--out", str(a_file / "r.json")], "is a file, not a folder"),
    ]
    for extra, message in cases:
        rc = main(["score", str(dataset_dir), str(preds), "--no-connectivity", *extra])
        err = capsys.readouterr().err.strip()
        assert rc == 2, extra
        assert message in err and len(err.splitlines()) == 1, (extra, err)
    assert preds.read_bytes() == before
    assert (dataset_dir / "items.jsonl").read_bytes() == items_before
    assert list(folder.iterdir()) == [] and a_file.read_bytes() == b"not a folder"
