"""Symbol types: which features' icons are drawn, and whether their names are legible."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from cartoqa.visibility.icons import (
    ICON_ATTRIBUTE_PX,
    ICON_FAINT_ALPHA,
    ICON_MIN_ALPHA,
    ICON_SAME_PX,
    ICON_SEARCH_PX,
    ORPHAN_MIN_IOU,
    best_iou_at,
    catalogue_by_name,
    find_icons,
    icon_is_clear,
    icon_template,
)
from cartoqa.visibility.labels import (
    LABEL_BOTTOM_PX,
    LABEL_COLOURS,
    LABEL_HALF_WIDTH_PX,
    LABEL_MIN_ALPHA,
    LABEL_TOP_PX,
    UNLABELLED_TYPES,
    label_peeks_in,
    label_under_icon,
    near_view_px,
)
from cartoqa.visibility.pixels import BoolArray, IntArray, blend_mask, halo_blend_mask
from cartoqa.visibility.screen import EDGE_BAND_PX, Box, boxes_overlap, near_edge, within_band
from cartoqa.visibility.sightings import Sighting, ViewFeatures
from groundtruth.catalogue import FeatureType
from groundtruth.features import Feature
from groundtruth.projection import View


def near_view(view: View, f: Feature) -> bool:
    """Whether a feature's icon or label may show in the view (:func:`near_view_px`)."""
    x, y = view.to_view_px(f.lat, f.lon)
    return near_view_px(view, x, y)


def symbol_sightings(view: View, ft: FeatureType, feats: Sequence[Feature],
                     screen: IntArray, reference: IntArray, ink: BoolArray,
                     colour_inks: dict[str, BoolArray], *, reserved: Sequence[Box]
                     ) -> tuple[list[Sighting], list[tuple[float, float]]]:
    """Sightings of a symbol type's features, and the icons of the type no feature explains.

    Icons are found in the ink of the type's colour around each feature and wherever
    the ink is shaped like one (:func:`cartoqa.visibility.icons.find_icons`) and given
    to the nearest feature; a feature without one gets a second look for a faint icon
    (restricted access). A drawn feature's name is legible when its label shows
    under the icon (:func:`cartoqa.visibility.labels.label_under_icon`).

    Parameters
    ----------
    view : View
        The view.
    ft : FeatureType
        The symbol type.
    feats : sequence of Feature
        The type's features near the view (:func:`near_view`).
    screen, reference : array
        Screenshot and label-free reference.
    ink : array of bool
        The ink mask (controls, markers and path left out).
    colour_inks : dict
        Cache of colour masks, shared between the types of one view (filled here).
    reserved : sequence of box
        Zones of the map controls (:func:`cartoqa.visibility.screen.reserved_zones`).

    Returns
    -------
    tuple
        ``(sightings, orphans)``: one sighting per feature, in order, and the centres
        of the strong icon detections no feature claimed.
    """
    template = icon_template(ft.name)
    if ft.color not in colour_inks:
        colour_inks[ft.color] = blend_mask(screen, reference, ft.color, where=ink,
                                           min_alpha=ICON_MIN_ALPHA)
    cink = colour_inks[ft.color]
    label_colour = LABEL_COLOURS.get(ft.color.lower(), ft.color)
    key = "label:" + label_colour
    if key not in colour_inks:
        colour_inks[key] = halo_blend_mask(screen, reference, label_colour,
                                           where=ink, min_alpha=LABEL_MIN_ALPHA)
    label_ink = colour_inks[key]
    pts = [view.to_view_px(f.lat, f.lon) for f in feats]
    detections = find_icons(cink, template, centres=pts) if template is not None else []
    # assign detections to features: nearest first, each detection to one feature
    pairs = sorted(
        (math.hypot(dx - x, dy - y), i, j)
        for i, (x, y) in enumerate(pts) for j, (dx, dy, _) in enumerate(detections)
        if math.hypot(dx - x, dy - y) <= ICON_ATTRIBUTE_PX
    )
    owner: dict[int, int] = {}
    used: set[int] = set()
    for dist, i, j in pairs:
        if i in owner or j in used:
            continue
        if dist > ICON_SEARCH_PX * 1.5 and any(
                math.hypot(detections[j][0] - x, detections[j][1] - y) <= ICON_SEARCH_PX * 1.5
                for k, (x, y) in enumerate(pts) if k not in owner and k != i):
            continue  # a closer feature will claim it
        owner[i] = j
        used.add(j)
    # faint icons (OSM-Carto draws features with restricted access at a third of the
    # opacity): looked for only where a feature of the data is
    if template is not None:
        for i, (x, y) in enumerate(pts):
            if i in owner:
                continue
            key = "faint:" + ft.color
            if key not in colour_inks:
                colour_inks[key] = blend_mask(screen, reference, ft.color, where=ink,
                                              min_alpha=ICON_FAINT_ALPHA)
            near = [d for d in find_icons(colour_inks[key], template, centres=[(x, y)])
                    if math.hypot(d[0] - x, d[1] - y) <= ICON_SEARCH_PX * 1.5]
            if near:
                owner[i] = len(detections)
                detections.append(near[0])
                used.add(owner[i])
    sightings: list[Sighting] = []
    for i, f in enumerate(feats):
        x, y = pts[i]
        found = owner.get(i)
        drawn = found is not None
        if found is not None:
            cx, cy, score = detections[found]
        else:
            cx, cy, score = x, y, 0.0
        legible = False
        cut = False
        if drawn and f.name and ft.name not in UNLABELLED_TYPES:
            lx0, lx1 = cx - LABEL_HALF_WIDTH_PX, cx + LABEL_HALF_WIDTH_PX
            ly0, ly1 = cy + LABEL_TOP_PX, cy + LABEL_BOTTOM_PX
            legible = label_under_icon(label_ink, cx, cy)
            cut = (lx0 < 0 or ly0 < 0 or lx1 > view.width or ly1 > view.height
                   or any(boxes_overlap((lx0, ly0, lx1, ly1), r) for r in reserved))
        edge = near_edge(x, y, width=view.width, height=view.height, margin=EDGE_BAND_PX,
                         boxes=reserved)
        if edge and not within_band(x, y, width=view.width, height=view.height,
                                    margin=EDGE_BAND_PX):
            # beyond the edge: it matters only when part of its label shows in the view
            edge = label_peeks_in(label_ink, x, y)
        clear = True
        if drawn:
            rivals = [best_iou_at(cink, t, cx, cy) for t in rival_templates(ft)]
            clear = icon_is_clear(score, rivals)
        sightings.append(Sighting(f, (x, y), drawn, legible, edge, cut, score,
                                  (cx, cy) if drawn else None, clear))
    orphans = [(dx, dy) for j, (dx, dy, sc) in enumerate(detections)
               if j not in used and sc >= ORPHAN_MIN_IOU]
    return sightings, orphans


def rival_templates(ft: FeatureType) -> list[BoolArray]:
    """Icons of the other catalogue symbol types drawn in the same colour as ``ft``."""
    out = []
    for other in catalogue_by_name().values():
        if other.name == ft.name or other.kind != "symbol" or \
                other.color.lower() != ft.color.lower():
            continue
        template = icon_template(other.name)
        if template is not None:
            out.append(template)
    return out


def one_feature_per_icon(result: ViewFeatures) -> None:
    """Where features of different types claim the same icon, keep the best match.

    OSM-Carto never draws two icons on top of each other, so two claims closer than
    half an icon are one icon: the type whose template fits it better keeps it.
    """
    claims = [(s.score, name, i, s.icon_px) for name, ss in result.by_type.items()
              for i, s in enumerate(ss) if s.drawn and s.icon_px is not None]
    claims.sort(key=lambda c: -c[0])
    kept: list[tuple[float, float]] = []
    for _, name, i, px in claims:
        assert px is not None
        if any(math.hypot(px[0] - x, px[1] - y) < ICON_SAME_PX for x, y in kept):
            old = result.by_type[name][i]
            result.by_type[name][i] = replace(old, drawn=False, name_legible=False,
                                              label_cut=False, icon_px=None)
        else:
            kept.append(px)
