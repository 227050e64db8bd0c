"""Extracts whose header has no bounding box (``osmium extract``'s default output)."""

from __future__ import annotations

from pathlib import Path

import osmium
import pytest

from groundtruth.extracts import _header_bounds, bundled_extract_path, resolve_extract


@pytest.fixture(scope="module")
def boxless(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Helsinki rewritten by pyosmium, which writes no header box."""
    path = tmp_path_factory.mktemp("boxless") / "helsinki-nobox.osm.pbf"
    writer = osmium.SimpleWriter(str(path))
    try:
        for obj in osmium.FileProcessor(str(bundled_extract_path("helsinki"))):
            writer.add(obj)
    finally:
        writer.close()
    return path


def test_bounds_come_from_the_data_when_the_header_has_none(boxless: Path) -> None:
    assert _header_bounds(boxless) is None  # the case being tested
    header = resolve_extract("helsinki").bounds
    got = resolve_extract(boxless).bounds
    assert header is not None and got is not None
    south, west, north, east = got
    # The nodes' extent lies inside the header box and covers nearly all of it.
    assert header[0] <= south < north <= header[2]
    assert header[1] <= west < east <= header[3]
    assert (north - south) > 0.99 * (header[2] - header[0])
    assert (east - west) > 0.99 * (header[3] - header[1])
