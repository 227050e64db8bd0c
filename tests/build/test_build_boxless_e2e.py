"""End to end: a build from an extract whose header has no bounding box.

``osmium extract`` writes no header box by default; such a file used to fail with
"lies outside the extract" (MML, SRN, RLE) or give no STMF scenario at all.

The extract is a header-less copy of Kotka (137 kB, about a fifth of Helsinki: a
smaller import and road graph for the same claim). Kotka's own build gives both tasks
(with its header box); without the header box STMF's map cells come from the nodes'
extent (``groundtruth.extracts.data_bounds``), and a build that lost that fallback
makes no STMF item, so the task set below fails.
"""

from __future__ import annotations

from pathlib import Path

import osmium
import pytest

from cartoqa.cli import main
from cartoqa.dataset.validate import validate_dataset
from groundtruth.extracts import _header_bounds, bundled_extract_path

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def env(shared_env: dict[str, str]) -> dict[str, str]:
    """The session's shared cache (no need for a cluster of its own)."""
    return shared_env


def test_a_build_from_an_extract_without_header_box(env: dict[str, str], tmp_path: Path) -> None:
    extract = tmp_path / "kotka-nobox.osm.pbf"
    writer = osmium.SimpleWriter(str(extract))
    try:
        for obj in osmium.FileProcessor(str(bundled_extract_path("kotka"))):
            writer.add(obj)
    finally:
        writer.close()
    assert _header_bounds(extract) is None
    out = tmp_path / "ds"
    rc = main(["build", "--extract", str(extract), "--tasks", "mml,stmf", "--per-task", "1",
               "--out", str(out), "--no-progress"])
    assert rc == 0
    report = validate_dataset(out)
    assert report.ok, report.errors
    assert {line.split('"task":"')[1].split('"')[0]
            for line in (out / "items.jsonl").read_text("utf-8").splitlines()} == {"mml",
                                                                                  "stmf"}
