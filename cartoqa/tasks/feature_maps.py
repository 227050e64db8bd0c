"""Feature maps: views for STMF and MTMF (the same maps serve both tasks), zoom 19 by
default.

Map number ``j`` at a zoom is a pure function of the seed, the extract, the zoom and
``j``: centres are
drawn at random inside the extract, nudged so that no map symbol sits on the edge of
the view, rendered, and kept only when every catalogue type is unambiguous on the
image (no icon cut by an edge, no icon that no data feature explains, no label running
off the view).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cartoqa.settings import VIEW_HEIGHT, VIEW_WIDTH
from cartoqa.tasks.base import BuildContext, slot_rng
from cartoqa.tasks.drawing import draw_scene, scene_exclusion
from cartoqa.visibility import ViewFeatures, analyse_view
from cartoqa.visibility.screen import EDGE_BAND_PX, RESERVED_BOXES, near_edge, within_band
from groundtruth.catalogue import load_catalogue
from groundtruth.projection import View

#: Zoom of the STMF/MTMF maps (the default of every function here).
FEATURE_MAP_ZOOM = 19
#: Random centres tried for one map before the slot is given up.
MAX_MAP_ATTEMPTS = 12
#: Nudges tried per centre to move symbols off the view's edges.
MAX_NUDGES = 12
#: A map must show at least this many catalogue features.
MIN_DRAWN_FEATURES = 3


@dataclass
class FeatureMap:
    """One accepted feature map (its zoom is ``view.zoom``)."""

    slot: int
    attempt: int
    view: View
    image: str
    png: bytes
    features: ViewFeatures


def counted_features(features: ViewFeatures, types: Sequence[str]) -> list[dict[str, Any]]:
    """The features an answer counts, for the item's provenance (``counted``).

    Parameters
    ----------
    features : ViewFeatures
        What the map shows.
    types : sequence of str
        The feature types the item asks about.

    Returns
    -------
    list of dict
        ``{"type", "name", "px"}`` per counted feature: ``name`` is the legible name or
        ``None``, ``px`` its anchor in view pixels (drawn by ``cartoqa report``).
    """
    return [
        {"type": t, "name": s.feature.name if s.name_legible and s.feature.name else None,
         "px": [round(s.px[0], 1), round(s.px[1], 1)]}
        for t in types for s in features.drawn(t)
    ]


def image_name(slot: int, zoom: int = FEATURE_MAP_ZOOM) -> str:
    """File name of map ``slot``'s image at a zoom.

    Examples
    --------
    >>> image_name(7)
    'map19-0007.png'
    >>> image_name(7, zoom=18)
    'map18-0007.png'
    """
    return f"map{zoom}-{slot:04d}.png"


def _symbols_clear_of_edges(view: View, symbol_px: list[tuple[float, float]]) -> bool:
    """Whether no symbol near the view lies on its edge band or by a control's zone.

    The band is a little wider than the analysis's (:data:`EDGE_BAND_PX` + 2), so that a
    symbol a few pixels off its data position is not judged on the edge afterwards.
    """
    band = EDGE_BAND_PX + 2
    return not any(
        within_band(x, y, width=view.width, height=view.height, margin=band)
        and near_edge(x, y, width=view.width, height=view.height, margin=band,
                      boxes=RESERVED_BOXES)
        for x, y in symbol_px)


def candidate_view(ctx: BuildContext, slot: int, attempt: int, *,
                   zoom: int = FEATURE_MAP_ZOOM) -> View | None:
    """A geometric candidate view for a map slot's attempt, or None (pure of rendering).

    Only the symbol types OSM-Carto draws at ``zoom`` are kept off the edges.
    """
    bounds = ctx.extract.bounds
    if bounds is None:
        return None
    s, w, n, e = bounds
    rng = slot_rng(ctx.seed, f"map{zoom}", slot, attempt)
    drawn_types = {ft.name for ft in load_catalogue() if ft.kind == "symbol"
                   and ft.drawn_at(zoom)}
    symbols = [f for f in ctx.features() if f.feature_type in drawn_types]
    probe = View(center=((s + n) / 2, (w + e) / 2), zoom=zoom)
    half_lat = (probe.bounds[2] - probe.bounds[0]) / 2
    half_lon = (probe.bounds[3] - probe.bounds[1]) / 2
    lat_lo, lat_hi = s + half_lat, n - half_lat
    lon_lo, lon_hi = w + half_lon, e - half_lon
    if lat_lo >= lat_hi or lon_lo >= lon_hi:
        lat_lo = lat_hi = (s + n) / 2
        lon_lo = lon_hi = (w + e) / 2
    lat = rng.uniform(lat_lo, lat_hi)
    lon = rng.uniform(lon_lo, lon_hi)
    for _ in range(MAX_NUDGES):
        view = View(center=(round(lat, 7), round(lon, 7)), zoom=zoom,
                    width=VIEW_WIDTH, height=VIEW_HEIGHT)
        pxs = [view.to_view_px(f.lat, f.lon) for f in symbols]
        inside = sum(1 for x, y in pxs if 0 <= x <= view.width and 0 <= y <= view.height)
        if inside < MIN_DRAWN_FEATURES:
            return None
        if _symbols_clear_of_edges(view, pxs):
            return view
        dx, dy = rng.uniform(-40, 40), rng.uniform(-40, 40)
        lat, lon = view.to_latlon(view.width / 2 + dx, view.height / 2 + dy)
    return None


def feature_map(ctx: BuildContext, slot: int, *,
                zoom: int = FEATURE_MAP_ZOOM) -> FeatureMap | None:
    """Map number ``slot`` at ``zoom`` (shared by STMF and MTMF; cached in the context).

    Parameters
    ----------
    ctx : BuildContext
        The build context.
    slot : int
        The map's number.
    zoom : int, optional
        The maps' zoom (:data:`FEATURE_MAP_ZOOM`); maps at other zooms are other maps,
        with their own centres and image names.

    Returns
    -------
    FeatureMap or None
        None when no acceptable map was found in :data:`MAX_MAP_ATTEMPTS` tries.
    """
    key = ("feature_map", zoom, slot)
    if key in ctx.shared:
        cached: FeatureMap | None = ctx.shared[key]
        return cached
    found: FeatureMap | None = None
    for attempt in range(MAX_MAP_ATTEMPTS):
        view = candidate_view(ctx, slot, attempt, zoom=zoom)
        if view is None:
            continue
        scene = draw_scene(ctx, view)
        vf = analyse_view(view, scene.screen, scene.reference, ctx.features(),
                          exclude=scene_exclusion(view, [], None, reserved=scene.reserved),
                          reserved=scene.reserved)
        if any(vf.ambiguous(t, names=True) for t in vf.by_type):
            continue
        if sum(vf.count(t) for t in vf.by_type) < MIN_DRAWN_FEATURES:
            continue
        found = FeatureMap(slot, attempt, view, image_name(slot, zoom), scene.png, vf)
        break
    ctx.shared[key] = found
    return found
