"""India's 2014 boundary edition (npm react-datamaps-india, TopoJSON in JavaScript literals)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shapely.geometry import Point

from groundtruth.errors import GroundTruthError
from groundtruth.thematic.adjacency import queen_adjacency
from groundtruth.thematic.countries import (
    DEFAULT_INDIA_EDITION,
    _react_datamaps_india,
    load_country,
    region_code,
    region_table,
    unsqueeze_latitude,
)
from groundtruth.thematic.country_variables import city_populations, geodesic_area_km2
from groundtruth.thematic.jsliteral import parse_literal, topology_from_js
from groundtruth.thematic.sources import REACT_DATAMAPS_INDIA_VERSION


def test_units_names_and_source() -> None:
    india = load_country("india")
    assert DEFAULT_INDIA_EDITION == "2014" and india.edition == "2014"
    assert len(india.regions) == len(india.lonlat) == 36
    assert {"TS", "AP", "JK"} <= set(india.regions)
    assert "LA" not in india.regions  # Ladakh is not separate in this edition (pre-2019)
    assert {"DN", "DD"} <= set(india.regions)  # not merged (pre-2020)
    names = {c: r.name for c, r in india.regions.items()}
    assert names["TS"] == "Telangana" and names["OD"] == "Odisha"
    assert names["UK"] == "Uttarakhand" and names["AN"] == "Andaman and Nicobar Islands"
    assert region_code("india", "Telangana") == region_code("india", "TS") == "TS"
    assert region_code("india", "Dadara & Nagar Haveli") == "DN"
    assert "react-datamaps-india 0.6.0" in india.source and "MIT" in india.source
    assert "Telangana separate" in india.version and "Ladakh not separate" in india.version
    old = load_country("india", "pre2014")
    assert len(old.regions) == 35 and "TS" not in old.regions and old.edition == "pre2014"
    with pytest.raises(GroundTruthError):
        region_table("india", "2020")


def test_neighbours() -> None:
    adj = queen_adjacency(load_country("india").lonlat)
    assert {"AP", "MH", "KA", "CG"} <= adj["TS"]  # Telangana's four land neighbours
    assert {"TS", "KA", "TN", "OD"} <= adj["AP"]
    assert adj["DL"] == {"HR", "UP"}
    assert adj["AN"] == adj["LD"] == frozenset()  # islands


def test_areas_are_plausible() -> None:
    """Official areas (km²): Telangana 112,077; Andhra Pradesh (2014) 162,975; Jammu and
    Kashmir with Ladakh as India claims it 222,236; Rajasthan 342,239; India 3,287,263."""
    lonlat = load_country("india").lonlat
    area = {c: geodesic_area_km2(g) for c, g in lonlat.items()}
    for code, official in (("TS", 112_077), ("AP", 162_975), ("JK", 222_236),
                           ("RJ", 342_239)):
        assert abs(area[code] / official - 1) < 0.06, (code, area[code])
    assert abs(sum(area.values()) / 3_287_263 - 1) < 0.02
    # Andhra Pradesh before the split is the two together (different sources: 5%).
    old = geodesic_area_km2(load_country("india", "pre2014").lonlat["AP"])
    assert abs((area["AP"] + area["TS"]) / old - 1) < 0.05


def test_latitudes_are_unsqueezed() -> None:
    """The package squeezes 6.75-37.08°N into 6.75-35.50°N; towns near the Nepal border
    (0.3-1° south of their true place before the correction) fall in their states."""
    lonlat = load_country("india").lonlat
    for code, lon, lat in (("BR", 85.48, 26.59),   # Sitamarhi
                           ("BR", 84.85, 26.98),   # Raxaul
                           ("UP", 83.42, 27.43),   # Nautanwa
                           ("TS", 78.47, 17.38),   # Hyderabad
                           ("AP", 80.65, 16.51),   # Vijayawada
                           ("JK", 74.80, 34.08)):  # Srinagar
        assert lonlat[code].contains(Point(lon, lat)), code
    assert unsqueeze_latitude(6.75, 6.75, 35.5) == 6.75
    assert unsqueeze_latitude(21.125, 6.75, 35.5) == pytest.approx(21.915)


def test_city_sums_follow_the_new_polygons() -> None:
    india = load_country("india")
    pop, count, dropped = city_populations(india, "IN")
    assert dropped <= 5  # Rameswaram and Pamban lie on an island the file leaves out
    assert pop["TS"] > 5e6 and count["TS"] > 20  # Hyderabad alone has 3.6 million
    old_pop, _, _ = city_populations(load_country("india", "pre2014"), "IN")
    assert "TS" not in old_pop
    assert abs((pop["AP"] + pop["TS"]) / old_pop["AP"] - 1) < 0.05
    assert max(pop, key=pop.__getitem__) == "MH"


def test_literal_parser_refuses_code() -> None:
    assert parse_literal("{ a: 'x\\'y', b: [] }")[0] == {"a": "x'y", "b": []}
    for bad in ("{ a: f(1) }", "[1 2]", "{ a 1 }", "{ a: b }", "[1,", "{ a: [1 }", "{ [1]: 2 }",
                "{ a: 1", "'abc", "{ a: 1 2 }"):
        # each refusal says what is wrong: the file, not the reader
        with pytest.raises(GroundTruthError,
                           match=r"\(the file is not the expected JavaScript build\)$"):
            parse_literal(bad)
    # the error says where the parser stopped, and what it found there
    with pytest.raises(GroundTruthError, match=r"unexpected text at 4: '@\]'"):
        parse_literal("[1, @]")
    with pytest.raises(GroundTruthError, match="found 0"):
        topology_from_js("const x = { a: 1 };")


def _fake_build(folder: Path, north: float, name: str = "Delhi") -> None:
    topo = {"type": "Topology", "objects": {"india": {"type": "GeometryCollection",
            "geometries": [{"type": "Polygon", "id": "DL", "properties": {"name": name},
                            "arcs": [[0]]}]}},
            "arcs": [[[77.0, 6.75], [78.0, 6.75], [78.0, north], [77.0, 6.75]]]}
    js = ("const T = \"Topology\", O = " + json.dumps(topo["objects"]) + ", A = "
          + json.dumps(topo["arcs"]) + ", M = { type: T, objects: O, arcs: A };")
    (folder / "react-datamaps-india").mkdir(parents=True)
    (folder / "react-datamaps-india" / "react-datamaps-india.js").write_text(js)


def test_other_builds_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_build(tmp_path / "a", north=37.0)  # not the squeezed extent
    monkeypatch.setenv("CARTOQA_THEMATIC_DATA", str(tmp_path / "a"))
    with pytest.raises(GroundTruthError, match="not the squeezed range") as err:
        _react_datamaps_india()
    # ... and the fix names the version this reader corrects
    assert err.value.fix == (f"install react-datamaps-india {REACT_DATAMAPS_INDIA_VERSION} "
                             "with scripts/install.sh")
    _fake_build(tmp_path / "b", north=35.4954)  # right extent, 35 regions missing
    monkeypatch.setenv("CARTOQA_THEMATIC_DATA", str(tmp_path / "b"))
    with pytest.raises(GroundTruthError, match="lacks regions") as err:
        _react_datamaps_india()
    assert err.value.fix == "reinstall it with scripts/install.sh"
    _fake_build(tmp_path / "c", north=35.4954, name="Goa")  # a region under another name
    monkeypatch.setenv("CARTOQA_THEMATIC_DATA", str(tmp_path / "c"))
    with pytest.raises(GroundTruthError, match="region DL is named 'Goa'") as err:
        _react_datamaps_india()
    assert err.value.fix == "the file is not the expected react-datamaps-india build"
    _fake_build(tmp_path / "d", north=35.4954)  # a build without the 'india' object
    js = tmp_path / "d" / "react-datamaps-india" / "react-datamaps-india.js"
    js.write_text(js.read_text().replace('{"india":', '{"bharat":'))
    monkeypatch.setenv("CARTOQA_THEMATIC_DATA", str(tmp_path / "d"))
    with pytest.raises(GroundTruthError, match="has no 'india' object") as err:
        _react_datamaps_india()
    assert err.value.fix == "reinstall it with scripts/install.sh"


_OBJECTS = ('O = { a: { type: "GeometryCollection", geometries: '
            '[{ type: "Polygon", id: "X", arcs: [[0]] }] } }')


def test_a_quantised_topology_written_out_is_read_in_degrees() -> None:
    """A build may write ``type: "Topology"`` itself and quantise its arcs: the
    transform is kept where TopoJSON readers look for it, so coordinates come out in
    degrees (by hand: deltas (0,0) (1,0) (0,1) (-1,-1), scale 0.5, from 77 E 20 N)."""
    import io

    import geopandas as gpd

    js = ("const " + _OBJECTS + ", A = [[[0, 0], [1, 0], [0, 1], [-1, -1]]], "
          "Z = { scale: [0.5, 0.5], translate: [77, 20] }, "
          'M = { type: "Topology", objects: O, arcs: A, transform: Z };')
    topo = topology_from_js(js)
    # under the key TopoJSON gives it (GDAL happens to find any spelling; a reader
    # that follows the specification does not)
    assert topo["transform"] == {"scale": [0.5, 0.5], "translate": [77, 20]}
    frame = gpd.read_file(io.BytesIO(json.dumps(topo).encode()), layer="a")
    assert [round(float(b), 6) for b in frame.total_bounds] == [77.0, 20.0, 77.5, 20.5]


def test_malformed_arcs_are_refused_with_the_fix() -> None:
    js = "const " + _OBJECTS + ', A = [1, 2], M = { type: "Topology", objects: O, arcs: A };'
    with pytest.raises(GroundTruthError) as err:
        topology_from_js(js)
    assert str(err.value) == ("the topology's arcs are not lists of positions "
                              "(the file is not the expected JavaScript build)")


def test_a_topology_of_another_type_or_empty_is_refused_saying_so() -> None:
    other = ('const T = "Feature", ' + _OBJECTS
             + ", A = [[[0, 0]]], M = { type: T, objects: O, arcs: A };")
    with pytest.raises(GroundTruthError) as err:
        topology_from_js(other)
    assert str(err.value) == ("the topology's type is not 'Topology' "
                              "(the file is not the expected JavaScript build)")
    empty = 'const O = {}, A = [[[0, 0]]], M = { type: "Topology", objects: O, arcs: A };'
    with pytest.raises(GroundTruthError) as err:
        topology_from_js(empty)
    assert str(err.value) == ("the topology has no objects or no arcs "
                              "(the file is not the expected JavaScript build)")
