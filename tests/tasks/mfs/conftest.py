"""Fixtures for the MFS tests: the symbol catalogue (real Mapnik, no database) and a
tiny open_clip architecture registered from ``tests/tasks/mfs/data`` (random weights, no
download)."""

from __future__ import annotations

from pathlib import Path

import pytest

from renderers.mfs.catalogue_specs import symbol_specs
from renderers.mfs.spec import FeatureImage
from renderers.mfs.style_rules import load_style_rules
from renderers.mfs.symbols import render_symbol

DATA = Path(__file__).parent / "data"
#: Name of the tiny open_clip architecture in tests/tasks/mfs/data (32-d embeddings).
TINY_MODEL = "cartoqa-tiny-test"


@pytest.fixture(scope="session")
def symbol_catalogue() -> list[FeatureImage]:
    """Every OSM-Carto symbol, rendered (about 0.5 s)."""
    rules, keys = load_style_rules()
    return [FeatureImage(s, render_symbol(s)) for s in symbol_specs(rules, keys)]


@pytest.fixture(scope="session")
def tiny_clip_model() -> str:
    """Register the tiny open_clip config and return its name."""
    open_clip = pytest.importorskip("open_clip")
    open_clip.add_model_config(str(DATA / f"{TINY_MODEL}.json"))
    return TINY_MODEL
