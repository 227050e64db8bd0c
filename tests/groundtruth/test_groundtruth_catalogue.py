"""The feature catalogue: 22 CartoMapQA types with OSM tags and OSM-Carto drawing facts."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from groundtruth.catalogue import (
    KINDS,
    OSM_CARTO_SYMBOLS_DIR,
    FeatureType,
    feature_type_names,
    get_feature_type,
    load_catalogue,
    match_feature_types,
    parse_catalogue,
)
from groundtruth.errors import GroundTruthError

#: The 22 types as DESIGN.md lists them.
CARTOMAPQA_TYPES = [
    "convenience store", "supermarket", "pharmacy", "clinic", "hospital", "restaurant",
    "fast food", "coffee shop", "ATM", "bank", "playground", "park", "fitness centre",
    "clothes shop", "beauty shop", "stream", "river", "bus stop", "fuel station",
    "primary road", "parking", "public toilet",
]


def test_the_22_types() -> None:
    assert feature_type_names() == CARTOMAPQA_TYPES


def test_kinds_and_zooms() -> None:
    kinds = {ft.name: ft.kind for ft in load_catalogue()}
    assert {n for n, k in kinds.items() if k == "line"} == {"stream", "river", "primary road"}
    assert {n for n, k in kinds.items() if k == "area"} == {"park"}
    for ft in load_catalogue():
        assert ft.kind in KINDS
        assert ft.zooms == tuple(range(ft.min_zoom, 20)), ft.name
        assert ft.color.startswith("#") and len(ft.color) == 7
        assert (ft.icon is not None) == (ft.kind == "symbol"), ft.name
    # spot checks against OSM-Carto 5.7 style.xml (MaxScaleDenominator of the icon rule)
    assert get_feature_type("restaurant").min_zoom == 18  # 2500
    assert get_feature_type("pharmacy").min_zoom == 17  # 5000
    assert get_feature_type("hospital").min_zoom == 15  # 25000
    assert get_feature_type("public toilet").min_zoom == 19  # 1500
    assert get_feature_type("supermarket").drawn_at(16)  # 12500
    assert not get_feature_type("coffee shop").drawn_at(17)


@pytest.mark.skipif(not OSM_CARTO_SYMBOLS_DIR.is_dir(),
                    reason="Debian package openstreetmap-carto-common not installed")
def test_icons_exist_in_osm_carto() -> None:
    for ft in load_catalogue():
        path = ft.icon_path()
        if path is not None:
            assert path.is_file(), path
            assert path.read_text(encoding="utf-8").lstrip().startswith("<")


@pytest.mark.parametrize(
    ("tags", "names"),
    [
        ({"amenity": "cafe", "name": "X"}, ["coffee shop"]),
        ({"shop": "clothes"}, ["clothes shop"]),
        ({"shop": "fashion"}, ["clothes shop"]),
        ({"amenity": "clinic"}, ["clinic"]),
        ({"amenity": "doctors"}, []),
        ({"highway": "primary"}, ["primary road"]),
        ({"highway": "primary_link"}, []),
        ({"waterway": "river"}, ["river"]),
        ({"leisure": "fitness_centre"}, ["fitness centre"]),
        ({"amenity": "toilets"}, ["public toilet"]),
        ({"amenity": "bench"}, []),
    ],
)
def test_tag_matching(tags: dict[str, str], names: list[str]) -> None:
    assert [ft.name for ft in match_feature_types(tags)] == names


def test_lookup_ignores_case() -> None:
    assert get_feature_type("Coffee Shop").name == "coffee shop"
    assert get_feature_type("atm").name == "ATM"
    with pytest.raises(GroundTruthError, match="unknown feature type"):
        get_feature_type("bakery")


def test_malformed_catalogues_are_rejected(tmp_path: Path) -> None:
    with pytest.raises(GroundTruthError):
        parse_catalogue({"types": []})
    entry = {"name": "x", "kind": "blob", "tags": [{"a": "b"}], "color": "#000000",
             "zooms": [19]}
    with pytest.raises(GroundTruthError, match="bad kind"):
        parse_catalogue({"types": [entry]})
    entry["kind"] = "symbol"
    with pytest.raises(GroundTruthError, match="twice"):
        parse_catalogue({"types": [entry, dict(entry, name="X")]})
    with pytest.raises(GroundTruthError, match="malformed"):
        parse_catalogue({"types": [{"name": "y"}]})
    path = tmp_path / "cat.json"
    path.write_text(json.dumps({"types": [entry]}), encoding="utf-8")
    assert [ft.name for ft in load_catalogue(path)] == ["x"]
    path.write_text("{", encoding="utf-8")
    load_catalogue.cache_clear()
    with pytest.raises(GroundTruthError, match="cannot read"):
        load_catalogue(path)


STYLE_XML = Path("/usr/share/openstreetmap-carto-common/style.xml")
#: Filter text of the OSM-Carto rules that draw each line and area type.
STYLE_FILTERS = {
    "stream": "[waterway] = 'stream'",
    "river": "[waterway] = 'river'",
    "primary road": "[feature] = 'highway_primary'",
    "park": "[feature] = 'leisure_park'",
}
#: Mapnik scale denominator at zoom 0 for 256-pixel tiles (0.28 mm pixels).
SCALE_Z0 = 559082264.028


def _rule_zooms(rule: ET.Element) -> set[int]:
    high = rule.find("MaxScaleDenominator")
    low = rule.find("MinScaleDenominator")
    hi = float(high.text or "inf") if high is not None else float("inf")
    lo = float(low.text or "0") if low is not None else 0.0
    return {z for z in range(20) if lo <= SCALE_Z0 / 2**z < hi}


@pytest.mark.skipif(not STYLE_XML.is_file(), reason="openstreetmap-carto-common not installed")
def test_zooms_and_colours_agree_with_osm_carto_style() -> None:
    """Recompute each type's zooms from style.xml's rules (plain variants: no way-size or
    access conditions) and find its colour on one of those rules' symbolizers."""
    root = ET.parse(STYLE_XML).getroot()
    for ft in load_catalogue():
        zooms: set[int] = set()
        colours: set[str] = set()
        for style in root.iter("Style"):
            name = style.get("name") or ""
            for rule in style.iter("Rule"):
                flt = rule.find("Filter")
                text = (flt.text or "") if flt is not None else ""
                if "way_pixels" in text or "access" in text:
                    continue
                symbolizers = [c for c in rule if c.tag.endswith("Symbolizer")]
                if ft.kind == "symbol":
                    if name != "amenity-points" or not any(
                        (c.get("file") or "").endswith("/" + str(ft.icon)) for c in symbolizers
                    ):
                        continue
                    values = [v for alt in ft.tags for v in alt.values()]
                    if not any(f"'{v}'" in text or f"_{v}'" in text for v in values):
                        continue
                else:
                    if (STYLE_FILTERS[ft.name] not in text or "text" in name
                            or "construction" in text):
                        continue
                    if not any(c.tag in ("LineSymbolizer", "PolygonSymbolizer")
                               for c in symbolizers):
                        continue
                zooms |= _rule_zooms(rule)
                colours |= {c.get(a) or "" for c in symbolizers for a in ("fill", "stroke")}
        assert zooms, ft.name
        assert ft.zooms == tuple(range(min(zooms), 20)), ft.name
        assert ft.color in colours, (ft.name, sorted(colours))


def test_a_star_in_a_type_matches_any_value_of_its_key() -> None:
    ft = FeatureType("any shop", "symbol", ({"shop": "*"},), None, "#ac39ac", (18, 19))
    assert ft.matches({"shop": "bakery"})
    assert ft.matches({"shop": "*"})
    assert not ft.matches({"amenity": "cafe"})


def test_a_catalogue_entry_names_the_tag_its_label_is_read_from() -> None:
    entry = {"name": "cash machine", "kind": "symbol", "tags": [{"amenity": "atm"}],
             "color": "#000000", "zooms": [19], "label_tag": "operator"}
    (atm,) = parse_catalogue({"types": [entry]})
    assert atm.label_tag == "operator"
    entry.pop("label_tag")
    assert parse_catalogue({"types": [entry]})[0].label_tag == "name"
