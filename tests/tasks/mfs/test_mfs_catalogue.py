"""The catalogue derived from the installed OSM-Carto, and its images."""

from __future__ import annotations

import dataclasses
import io
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from helpers.shared_builds import SharedBuilds
from PIL import Image

import renderers.mfs.catalogue as catalogue_module
from renderers.mfs.catalogue import build_catalogue
from renderers.mfs.catalogue_specs import (
    catalogue_specs,
    rule_tags,
    split_feature,
    symbol_specs,
)
from renderers.mfs.labels import label_for
from renderers.mfs.spec import FeatureImage, FeatureSpec
from renderers.mfs.style_rules import load_style_rules, parse_style_rules
from renderers.mfs.swatches import layout, swatch_osm_xml
from renderers.style import CARTO_DIR

TINY_STYLE = """<Map>
<Style name="amenity-points">
 <Rule><Filter>([feature] = 'amenity_pharmacy')</Filter>
  <MarkersSymbolizer file="symbols/amenity/pharmacy.svg" fill="#bf0000"/></Rule>
 <Rule><Filter>([feature] = 'shop') and ([shop] = 'books') and ([int_access] = 'yes')</Filter>
  <MarkersSymbolizer file="symbols/amenity/library.svg" fill="#ac39ac"/></Rule>
 <Rule><Filter>([feature] = 'amenity_library')</Filter>
  <MarkersSymbolizer file="symbols/amenity/library.svg" fill="#734a08"/></Rule>
 <Rule><Filter>([feature] = 'man_made_tower') and ([tower:type] = 'cooling')</Filter>
  <MarkersSymbolizer file="symbols/man_made/tower_cooling.svg" fill="#666666"/></Rule>
 <Rule><Filter>([highway] = 'primary')</Filter>
  <MarkersSymbolizer file="symbols/shields/primary_1x1.svg"/></Rule>
 <Rule><MarkersSymbolizer file="symbols/oneway.svg"/></Rule>
</Style></Map>"""


def test_rules_give_tags_fill_and_label() -> None:
    specs = symbol_specs(parse_style_rules(TINY_STYLE), ["amenity", "man_made", "man", "shop"])
    got = {s.symbol: (s.tags, s.fill, s.label, s.osm_class) for s in specs}
    assert got == {
        "symbols/amenity/library.svg": ((("amenity", "library"),), "#734a08", "library", "amenity"),
        "symbols/amenity/pharmacy.svg": (
            (("amenity", "pharmacy"),),
            "#bf0000",
            "pharmacy",
            "amenity",
        ),
        "symbols/man_made/tower_cooling.svg": (
            (("man_made", "tower"), ("tower:type", "cooling")),
            "#666666",
            "cooling tower",
            "man_made",
        ),
    }


def test_feature_split_and_rule_tags() -> None:
    assert split_feature("man_made_tower", ["man", "man_made"]) == ("man_made", "tower")
    assert split_feature("golf_hole", []) == ("golf", "hole")
    assert split_feature("shop", []) == ("shop", "yes")
    rule = parse_style_rules(TINY_STYLE)[1]
    assert rule_tags(rule, ["shop"]) == (("shop", "books"),)


def test_labels() -> None:
    assert label_for("line", (("highway", "primary"),)) == "primary road"
    assert label_for("area", (("natural", "wetland"), ("wetland", "bog"))) == "bog"
    assert label_for("symbol", (("amenity", "toilets"),), stem="toilets") == "public toilet"
    assert label_for("area", (("leisure", "dog_park"),)) == "dog park"


@pytest.fixture(scope="module")
def installed() -> list[FeatureSpec]:
    rules, keys = load_style_rules()
    return catalogue_specs(rules, keys)


def test_installed_catalogue_covers_the_style(installed: list[FeatureSpec]) -> None:
    by_cat = Counter(s.category for s in installed)
    assert by_cat["symbol"] >= 240 and by_cat["line"] >= 40 and by_cat["area"] >= 100
    # every symbol file a MarkersSymbolizer uses in a class folder (not shields) is there
    root = ET.parse(CARTO_DIR / "style.xml").getroot()
    used = {m.get("file") for m in root.iter("MarkersSymbolizer")}
    wanted = {f for f in used if f and f.count("/") == 2 and "/shields/" not in f}
    # only variant drawings of a tag already in the catalogue are left out
    assert wanted - {s.symbol for s in installed if s.symbol} == {
        "symbols/barrier/level_crossing2.svg",
        "symbols/man_made/power_tower_small.svg",
    }
    for cat in ("symbol", "line", "area"):
        labels = [s.label for s in installed if s.category == cat]
        assert len(labels) == len(set(labels)), cat
    ids = {s.feature_id: s for s in installed}
    assert ids["symbol:amenity=pharmacy"].fill == "#bf0000"
    assert ids["symbol:shop=supermarket"].fill == "#ac39ac"
    for fid in (
        "line:highway=primary",
        "line:waterway=river",
        "line:railway=rail",
        "line:waterway=stream",
        "area:leisure=park",
        "area:amenity=parking",
        "area:landuse=forest",
        "area:natural=water",
        "area:building=yes",
        "line:boundary=administrative;admin_level=2",
    ):
        assert fid in ids, fid


def _rgb(png: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(png)) as im:
        return np.asarray(im.convert("RGB"))


def test_symbols_are_recoloured_as_the_style_says(symbol_catalogue: list[FeatureImage]) -> None:
    by_id = {f.spec.feature_id: f for f in symbol_catalogue}
    for fid, rgb in (
        ("symbol:amenity=pharmacy", (0xBF, 0, 0)),
        ("symbol:shop=supermarket", (0xAC, 0x39, 0xAC)),
        ("symbol:leisure=playground", (0x0C, 0x84, 0x16)),
    ):
        img = _rgb(by_id[fid].png)
        assert img.shape == (256, 256, 3)
        assert tuple(img[0, 0]) == (0xF2, 0xEF, 0xE9)  # OSM-Carto land colour
        exact = np.all(img == np.array(rgb, dtype=np.uint8), axis=2)
        assert exact.sum() > 800, fid  # the icon is painted in its fill colour, large
        ys, xs = np.nonzero(exact)
        assert 80 < ys.mean() < 176 and 80 < xs.mean() < 176  # and centred


def test_symbols_are_drawn_once_per_cache(symbol_catalogue: list[FeatureImage],
                                          tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalogue's symbols come from the cache after the first build of it, with the
    bytes :func:`render_symbol` draws; another colour is another entry of the cache."""
    drawn = {f.spec.feature_id: f.png for f in symbol_catalogue}
    first = build_catalogue(cache_dir=tmp_path, categories=("symbol",))
    assert {f.spec.feature_id: f.png for f in first} == \
        {fid: png for fid, png in drawn.items() if fid in {f.spec.feature_id for f in first}}
    assert len(first) > 100
    folders = list((tmp_path / "mfs").iterdir())
    assert len(folders) == 1 and len(list(folders[0].iterdir())) >= len(first)

    def no_drawing(*args: object, **kwargs: object) -> bytes:
        raise AssertionError("a cached symbol was drawn again")

    monkeypatch.setattr(catalogue_module, "render_symbol", no_drawing)
    again = build_catalogue(cache_dir=tmp_path, categories=("symbol",))
    assert [(f.spec, f.png) for f in again] == [(f.spec, f.png) for f in first]
    monkeypatch.undo()
    pharmacy = next(f.spec for f in first if f.spec.feature_id == "symbol:amenity=pharmacy")
    blue = dataclasses.replace(pharmacy, fill="#0000ff")
    assert catalogue_module._symbol_images([blue], cache_dir=tmp_path, carto_dir=CARTO_DIR,
                                           size=256)[blue.feature_id] != drawn[blue.feature_id]
    assert len(list((tmp_path / "mfs").iterdir())) == 2


def test_swatch_file_has_one_feature_per_cell() -> None:
    specs = [
        FeatureSpec(
            "line:highway=primary", "primary road", "line", "highway", (("highway", "primary"),)
        ),
        FeatureSpec("area:leisure=park", "park", "area", "leisure", (("leisure", "park"),)),
        FeatureSpec(
            "line:boundary=administrative;admin_level=2",
            "country border",
            "line",
            "boundary",
            (("boundary", "administrative"), ("admin_level", "2")),
        ),
    ]
    cells = layout(specs)
    root = ET.fromstring(swatch_osm_xml(cells))
    ways = root.findall("way")
    assert len(ways) == 3 and len(root.findall("relation")) == 1
    assert [t.get("v") for t in ways[0].iter("tag")] == ["primary"]
    assert len(ways[1].findall("nd")) == 5  # closed square
    assert ways[2].find("tag") is None  # the boundary's tags are on its relation
    rel_tags = {t.get("k"): t.get("v") for t in root.find("relation").iter("tag")}
    assert rel_tags == {"type": "boundary", "boundary": "administrative", "admin_level": "2"}
    lats = {round(c.centre[0], 6) for c in cells}
    assert len({(round(c.centre[0], 6), round(c.centre[1], 6)) for c in cells}) == 3
    assert len(lats) == 2  # a 2 x 2 grid
    bounds = root.find("bounds")
    assert bounds is not None and float(bounds.get("minlat")) < min(lats)


@pytest.mark.slow
def test_lines_and_areas_render_in_osm_carto_colours(shared_builds: SharedBuilds) -> None:
    from renderers.mfs.swatches import render_swatches

    specs = [
        FeatureSpec(
            "line:highway=primary", "primary road", "line", "highway", (("highway", "primary"),)
        ),
        FeatureSpec("line:waterway=river", "river", "line", "waterway", (("waterway", "river"),)),
        FeatureSpec("area:leisure=park", "park", "area", "leisure", (("leisure", "park"),)),
        FeatureSpec("area:natural=water", "lake", "area", "natural", (("natural", "water"),)),
    ]
    # the session's cluster (started once), not a new one in a folder of this test's
    images = render_swatches(specs, cache_dir=shared_builds.cache)
    colours = {
        "line:highway=primary": (0xFC, 0xD6, 0xA4),
        "line:waterway=river": (0xAA, 0xD3, 0xDF),
        "area:leisure=park": (0xC8, 0xFA, 0xCC),
        "area:natural=water": (0xAA, 0xD3, 0xDF),
    }
    for fid, rgb in colours.items():
        img = _rgb(images[fid])
        share = np.all(img == np.array(rgb, dtype=np.uint8), axis=2).mean()
        assert share > (0.03 if fid.startswith("line") else 0.5), (fid, share)
        assert tuple(img[2, 2]) == (0xF2, 0xEF, 0xE9) or fid.startswith("area")
