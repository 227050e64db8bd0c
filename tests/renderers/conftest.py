"""Fixtures for the renderer tests: one browser per session, flat test tiles, Leaflet files.

The slow fixtures are session-scoped so Chromium starts once for the whole run.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flat_tiles import FlatTiles

from cartoqa.settings import web_assets_dir
from renderers.browser import Browser


@pytest.fixture(scope="session")
def web_assets() -> Path:
    """The local Leaflet folder that scripts/install.sh fills."""
    folder = web_assets_dir()
    assert (folder / "leaflet" / "leaflet.js").is_file(), (
        f"Leaflet is missing under {folder}: run scripts/install.sh"
    )
    return folder


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the whole test session."""
    with Browser() as b:
        yield b


@pytest.fixture(scope="session")
def flat_tiles(tmp_path_factory: pytest.TempPathFactory) -> FlatTiles:
    """Plain coloured tiles in a session temp folder."""
    return FlatTiles(tmp_path_factory.mktemp("flat-tiles"))
