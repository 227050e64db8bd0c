"""The feature maps' candidate views (pure of rendering) at the default and another zoom."""

from __future__ import annotations

from pathlib import Path

from shapely.geometry import Point

from cartoqa.tasks.cartomapqa.feature_maps import (
    FEATURE_MAP_ZOOM,
    candidate_view,
    counted_features,
    image_name,
)
from cartoqa.tasks.common.base import BuildContext
from cartoqa.visibility import ViewFeatures
from cartoqa.visibility.sightings import Sighting
from groundtruth.extracts import resolve_extract
from groundtruth.features import Feature


def test_the_zoom_is_a_parameter_defaulting_to_19(tmp_path: Path) -> None:
    ctx = BuildContext(resolve_extract("helsinki"), seed=0, per_task=1, cache_dir=tmp_path,
                       assets_dir=tmp_path)
    assert FEATURE_MAP_ZOOM == 19
    at_19 = [candidate_view(ctx, s, a) for s in range(4) for a in range(3)]
    assert at_19 == [candidate_view(ctx, s, a, zoom=19) for s in range(4) for a in range(3)]
    at_18 = [candidate_view(ctx, s, a, zoom=18) for s in range(4) for a in range(3)]
    assert any(v is not None for v in at_19) and any(v is not None for v in at_18)
    assert {v.zoom for v in at_19 if v is not None} == {19}
    assert {v.zoom for v in at_18 if v is not None} == {18}
    # other maps, drawn with their own seeded centres, under their own image names
    assert {v.center for v in at_18 if v} != {v.center for v in at_19 if v}
    assert image_name(3) == "map19-0003.png" and image_name(3, 18) == "map18-0003.png"


def test_map_cells_keep_centres_apart() -> None:
    """Maps in different cells are at least MAP_MIN_SEPARATION of a view apart (x or y)."""
    from itertools import combinations

    from cartoqa.settings import VIEW_HEIGHT, VIEW_WIDTH
    from cartoqa.tasks.cartomapqa.feature_maps import MAP_MIN_SEPARATION, map_cells

    bounds = resolve_extract("helsinki").bounds
    assert bounds is not None
    cells = map_cells(bounds, 19)
    assert len(cells) >= 60  # room for the default 40 maps and failures
    for a, b in combinations(cells, 2):
        gap_x = max(a[0] - b[2], b[0] - a[2])
        gap_y = max(a[1] - b[3], b[1] - a[3])
        assert gap_x >= MAP_MIN_SEPARATION * VIEW_WIDTH - 1e-6 or \
            gap_y >= MAP_MIN_SEPARATION * VIEW_HEIGHT - 1e-6
    # a quarter of a view: 342 px across or 192 px down at the defaults
    assert round(MAP_MIN_SEPARATION * VIEW_WIDTH) == 342


def test_no_map_past_the_last_cell(tmp_path: Path) -> None:
    ctx = BuildContext(resolve_extract("helsinki"), seed=3, per_task=1, cache_dir=tmp_path,
                       assets_dir=tmp_path)
    from cartoqa.tasks.cartomapqa.feature_maps import map_cells

    cells = map_cells(ctx.extract.bounds or (0, 0, 0, 0), 19)
    assert len(cells) > 12
    assert candidate_view(ctx, len(cells), 0) is None  # past the cells: no map


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
