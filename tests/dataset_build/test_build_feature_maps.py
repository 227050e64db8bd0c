"""The feature maps' candidate views (pure of rendering) at the default and another zoom."""

from __future__ import annotations

from pathlib import Path

from shapely.geometry import Point

from cartoqa.tasks.base import BuildContext
from cartoqa.tasks.feature_maps import (
    FEATURE_MAP_ZOOM,
    candidate_view,
    counted_features,
    image_name,
)
from cartoqa.visibility import ViewFeatures
from cartoqa.visibility.sightings import Sighting
from groundtruth.extracts import resolve_extract
from groundtruth.features import Feature


def test_the_zoom_is_a_parameter_defaulting_to_19(tmp_path: Path) -> None:
    ctx = BuildContext(resolve_extract("helsinki"), seed=0, per_task=1, cache_dir=tmp_path,
                       assets_dir=tmp_path)
    assert FEATURE_MAP_ZOOM == 19
    at_19 = [candidate_view(ctx, 0, a) for a in range(6)]
    assert at_19 == [candidate_view(ctx, 0, a, zoom=19) for a in range(6)]
    at_18 = [candidate_view(ctx, 0, a, zoom=18) for a in range(6)]
    assert any(v is not None for v in at_19) and any(v is not None for v in at_18)
    assert {v.zoom for v in at_19 if v is not None} == {19}
    assert {v.zoom for v in at_18 if v is not None} == {18}
    # other maps, drawn with their own seeded centres, under their own image names
    assert {v.center for v in at_18 if v} != {v.center for v in at_19 if v}
    assert image_name(3) == "map19-0003.png" and image_name(3, 18) == "map18-0003.png"


def _sighting(name: str | None, px: tuple[float, float], *, drawn: bool = True,
              legible: bool = True, edge: bool = False) -> Sighting:
    feature = Feature("cafe", "symbol", name, ("node/1",), 60.0, 25.0, Point(25.0, 60.0))
    return Sighting(feature, px, drawn=drawn, name_legible=legible, edge=edge,
                    label_cut=False, score=1.0)


def test_counted_features_are_the_ones_a_reader_counts() -> None:
    vf = ViewFeatures(by_type={"cafe": [
        _sighting("Aalto", (10.04, 20.06)),
        _sighting("Hidden name", (30.0, 40.0), legible=False),
        _sighting("Not drawn", (50.0, 60.0), drawn=False),
        _sighting("At the edge", (1.0, 2.0), edge=True),
    ]})
    assert counted_features(vf, ["cafe", "bar"]) == [
        {"type": "cafe", "name": "Aalto", "px": [10.0, 20.1]},
        {"type": "cafe", "name": None, "px": [30.0, 40.0]},
    ]
    assert len(counted_features(vf, ["cafe"])) == vf.count("cafe")
