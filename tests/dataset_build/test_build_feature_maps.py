"""The feature maps' candidate views (pure of rendering) at the default and another zoom."""

from __future__ import annotations

from pathlib import Path

from cartoqa.tasks.base import BuildContext
from cartoqa.tasks.feature_maps import FEATURE_MAP_ZOOM, candidate_view, image_name
from groundtruth.extracts import resolve_extract


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
