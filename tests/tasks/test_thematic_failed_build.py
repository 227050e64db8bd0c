"""A thematic build that fails on its data keeps nothing and says so in one line.

Issue 31, point 9: MapWise China with one province missing or empty drew one map, then
stopped with ``KeyError: 'NM'`` and left a half-built ``.cartoqa-build``. The cause in
MapWise is fixed elsewhere; here the build writer makes sure that any such failure (a
map that cannot be drawn from these data fails the same way on every rerun) leaves no
half-built dataset, while an interruption keeps its journal for the resume.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import cartoqa.tasks.common.thematic.build as thematic
from cartoqa.dataset.writer import DatasetWriter
from cartoqa.errors import CartoqaError


def _fail_after_one_map(error: BaseException) -> Any:
    def write_map_slots(writer: DatasetWriter, builder: Any, plans: Any, *, task: str,
                        progress: bool, rejected: Counter[str],
                        skipped: Counter[str]) -> None:
        image = writer.write_image("map-0000.png", b"\x89PNG fake")
        writer.record(task, 0, [{"id": "map-0000", "image": image}])
        raise error
    return write_map_slots


def _build(out: Path) -> Any:
    writer = DatasetWriter(out, build_key={"suite": "mapwise", "test": 1})
    return thematic.run_thematic_build(
        writer, suite="mapwise", task="mapwise", plans=[1, 2], make_builder=lambda: None,
        manifest_parts=lambda b: None, card_for=lambda m: "", progress=False,
        say=lambda msg: None)


@pytest.mark.parametrize("error", [KeyError("NM"), ValueError("no class for 'XZ'")])
def test_a_map_that_cannot_be_drawn_keeps_nothing(tmp_path: Path, error: BaseException,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(thematic, "write_map_slots", _fail_after_one_map(error))
    out = tmp_path / "cn"
    with pytest.raises(CartoqaError, match=r"stopped at a map it could not draw .*nothing "
                                           r"was kept"):
        _build(out)
    assert not out.exists()  # no .cartoqa-build, no images


def test_an_interrupted_build_keeps_its_journal_for_the_resume(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(thematic, "write_map_slots", _fail_after_one_map(KeyboardInterrupt()))
    out = tmp_path / "cn"
    with pytest.raises(KeyboardInterrupt):
        _build(out)
    assert (out / ".cartoqa-build" / "journal.jsonl").exists()
