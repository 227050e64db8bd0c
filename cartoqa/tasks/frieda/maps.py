"""FRIEDA maps that show what a question needs: choose the view, render, verify.

A question's :class:`~cartoqa.tasks.frieda.questions.MapPlan` is rendered with
:class:`renderers.frieda_map.FriedaMapRenderer` at the highest zoom (19 down to 15) at
which every drawn polygon is whole on the image with its outline, every line at least
:data:`MIN_VISIBLE` visible and every dot whole, all clear of the legend, compass,
scale bar and attribution (:func:`choose_view`, before rendering, from the ground
geometry), and with at least :data:`~cartoqa.tasks.common.views.VIEW_MIN_DATA_COVER` of the
turned image inside the extract's data, as in the other tasks (past the data the tiles
are blank beige; the view is moved toward the data when that keeps the features whole:
:func:`image_data_cover`). After rendering, :func:`render_map` checks it again on what was drawn
(:attr:`FriedaMap.visible`), that the legend lies whole on the image with a line per
feature, and that the compass is readable (:func:`compass_readable`). Anything short of
that is a rejection with a reason, never a relaxed answer.

Also the contextual setting's distractor maps (:func:`plan_pool`,
:func:`render_pool_map`): maps of other places of the same city drawn the same way
(named features in red, blue, purple with a legend, turned, with a compass).
"""

from __future__ import annotations

import io
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

import shapely
from PIL import Image
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from cartoqa.tasks.common.views import VIEW_MIN_DATA_COVER, Bounds, fit_to_data
from cartoqa.tasks.frieda.questions import (
    LEGEND_DRAW_RADIUS_M,
    MAX_LEGEND_CATEGORIES,
    STYLES,
    UNLABELLED_STYLES,
    MapPlan,
)
from groundtruth import relations as rel
from groundtruth.legend_areas import CategoryArea
from groundtruth.named_features import NamedFeature
from groundtruth.projection import View
from renderers.compass import compass_box
from renderers.frieda_map import IMAGE_HEIGHT, IMAGE_WIDTH, FriedaMap, FriedaMapRenderer
from renderers.legend_layer import category_pixels, ring_share
from renderers.overlays import (
    OVERLAY_WEIGHT,
    Overlay,
    overlay_from_geometry,
    rotate_px,
    screen_geometry,
    visible_share,
)
from renderers.print_map import PRINT_STYLE, print_boxes

#: Share of a drawn line that must be visible (polygons and dots: all of them).
MIN_VISIBLE = 0.98
#: "Whole" on the image, allowing for floating-point area sums.
WHOLE = 1.0 - 1e-6
#: A "disjoint" distractor must be at least this far from the subject on the image.
MIN_GAP_PX = 15.0
#: A drawn polygon must span at least this many pixels (its larger side).
MIN_POLYGON_PX = 14.0
#: Lines are drawn only near the subject (degrees around its bounding box), so that a
#: long road does not force a small zoom; the relation is measured on the whole line.
LINE_CLIP_DEG = 0.0015
#: Zooms tried, highest first.
ZOOMS: tuple[int, ...] = (19, 18, 17, 16, 15)
#: Zooms a ``print`` map may use (it is drawn from the database, not from tiles, which
#: the pipeline renders at 15-19 only): down to 14 (about 6.5 m a pixel at 47 degrees
#: north), so that a municipality of a few kilometres fits whole on one map.
PRINT_ZOOMS: tuple[int, ...] = (*ZOOMS, 14)
#: Height of one legend line (CSS px) that a legend must at least have per feature.
LEGEND_LINE_MIN_PX = 12.0
#: Zooms of the contextual distractor maps (the question maps' family: a distractor map
#: is drawn at a zoom the question maps use, so its scale does not set it apart).
POOL_ZOOMS: tuple[int, ...] = (17, 18, 19)
#: Styles of the distractor maps: those of the question maps (cartoqa.tasks.frieda.questions).
POOL_STYLES: tuple[str, ...] = STYLES
#: Share of a drawn feature's outline (or dot) that must show its colour on the finished
#: image (:func:`renderers.frieda_map.pixel_visible_share`): a feature under another
#: drawn feature or a control is rejected whatever its geometry says.
MIN_PIXEL_VISIBLE = 0.75
#: Turns of the distractor maps (north clockwise from the top, degrees).
POOL_ANGLES: tuple[float, ...] = (0.0, 30.0, 75.0, 120.0, 160.0, 210.0, 250.0, 300.0, 330.0)
#: Half size (degrees lat, lon) of the box around a distractor map's centre in which its
#: named points are looked for (about 130 x 140 m in Helsinki).
POOL_NEAR_DEG: tuple[float, float] = (0.0012, 0.0025)

#: Why a question's map is rejected, as the build log counts them.
REJECT_REASONS = {
    "not_visible": "a drawn feature not whole on the image at zooms 15-19 (14-19 on a print "
                   "map)",
    "gap": "a clearly-apart feature under 15 px from the subject",
    "small": "a drawn polygon under 14 px",
    "hidden": "a drawn feature hidden under the legend or controls after rendering",
    "pixels": "a drawn feature under 75% visible on the image's pixels (under another "
              "feature or a control)",
    "legend": "the legend not whole on the image",
    "legend_area": "a dot's legend category not seen around it on the pixels",
    "compass": "the compass not readable",
    "scale_bars": "a distance under three scale bars",
    "pool": "too few distractor maps clear of the question's features",
    "near": "a border distractor under 40 m from the subject (across a street it reads "
            "as a neighbour)",
    "past_data": "the map would show blank ground past the extract's data",
}


def image_data_cover(view: View, bounds: Bounds, angle_deg: float = 0.0) -> float:
    """Share of the image, turned ``angle_deg``, that lies inside the data ``bounds``.

    Parameters
    ----------
    view : View
        The view (its size is the image's).
    bounds : tuple of float
        ``(south, west, north, east)`` of the extract's data.
    angle_deg : float, optional
        The map's turn.

    Returns
    -------
    float
        In ``[0, 1]``.

    Examples
    --------
    >>> v = View(center=(0.0, 0.0), zoom=12, width=200, height=100)
    >>> s, w, n, e = v.bounds
    >>> image_data_cover(v, (s, w, n, e))
    1.0
    >>> round(image_data_cover(v, (s, w, n, e), 90.0), 3)  # turned, the sides show past it
    0.5
    """
    s, w, n, e = bounds
    corners = [view.to_view_px(lat, lon) for lat, lon in ((s, w), (s, e), (n, e), (n, w))]
    data = Polygon([rotate_px(x, y, angle_deg=angle_deg, width=view.width,
                              height=view.height) for x, y in corners])
    image = box(0.0, 0.0, float(view.width), float(view.height))
    return float(data.intersection(image).area / image.area)


def toward_data(view: View, bounds: Bounds, angle_deg: float) -> View:
    """The view moved (least) so that the turned image's footprint lies inside the data
    where the data is larger than the footprint (:func:`cartoqa.tasks.common.views.fit_to_data`
    on the footprint's bounding box)."""
    a = math.radians(angle_deg)
    c, s = abs(math.cos(a)), abs(math.sin(a))
    w = math.ceil(view.width * c + view.height * s)
    h = math.ceil(view.width * s + view.height * c)
    moved = fit_to_data(View(center=view.center, zoom=view.zoom, width=w, height=h), bounds)
    return View(center=moved.center, zoom=view.zoom, width=view.width, height=view.height)


def draw_geometry(feature: NamedFeature, subject: NamedFeature | None) -> BaseGeometry:
    """The part of a feature that is drawn: a line is clipped to near the subject.

    Parameters
    ----------
    feature : NamedFeature
        A drawn feature.
    subject : NamedFeature or None
        The question's subject (topological questions).

    Returns
    -------
    shapely geometry
        Lon/lat.
    """
    if feature.kind != "line" or subject is None or feature is subject:
        return feature.geometry
    clipped = feature.geometry.intersection(subject.geometry.envelope.buffer(LINE_CLIP_DEG))
    return clipped if not clipped.is_empty and clipped.length > 0 else feature.geometry


def blocked_boxes(n_features: int, n_categories: int = 0, style: str = "carto"
                  ) -> list[tuple[float, float, float, float]]:
    """Image boxes the controls may cover, before rendering (generous estimates).

    The legend (top right, one line per feature), the compass (top left), the scale bar
    (bottom left) and the attribution (bottom right); on a ``print`` map also its title,
    neat line and base legend (:func:`renderers.print_map.print_boxes`).

    Examples
    --------
    >>> blocked_boxes(2)[0]
    (946.0, 0.0, 1366.0, 78.0)
    >>> len(blocked_boxes(2, style="print")) - len(blocked_boxes(2))
    9
    """
    legend = (IMAGE_WIDTH - 420.0, 0.0, float(IMAGE_WIDTH), 30.0 + 24.0 * n_features)
    boxes = [legend, compass_box(IMAGE_WIDTH, IMAGE_HEIGHT), (0.0, 700.0, 160.0, 768.0),
             (1000.0, 740.0, float(IMAGE_WIDTH), float(IMAGE_HEIGHT))]
    if style == PRINT_STYLE:
        boxes.append((0.0, 700.0, 210.0, float(IMAGE_HEIGHT)))  # its bar, inset
        boxes.extend(print_boxes(IMAGE_WIDTH, IMAGE_HEIGHT, n_features,
                                 base_legend=not n_categories).values())
    if n_categories:  # the thematic layer's legend box, above the attribution
        boxes.append((IMAGE_WIDTH - 300.0, IMAGE_HEIGHT - 60.0 - 26.0 * n_categories,
                      float(IMAGE_WIDTH), float(IMAGE_HEIGHT)))
    return boxes


def _outlined(g: BaseGeometry) -> BaseGeometry:
    """A polygon with its outline's width (it must be whole on the image)."""
    return g.buffer(OVERLAY_WEIGHT) if g.area > 0 else g


def _needed_share(overlay: Overlay) -> float:
    return WHOLE if overlay.kind != "line" else MIN_VISIBLE


def choose_view(plan: MapPlan, subject: NamedFeature | None, gaps_m: Sequence[float],
                bounds: Bounds | None = None) -> tuple[tuple[float, float], int] | str:
    """The centre and the highest zoom (at most :attr:`MapPlan.zoom` when set; down to
    14 for a ``print`` map, :data:`PRINT_ZOOMS`) at which the map shows what it must.

    Parameters
    ----------
    plan : MapPlan
        The map's features (drawn) and context (in view, not drawn), its turn.
    subject : NamedFeature or None
        The subject of a topological question (lines are clipped near it).
    gaps_m : sequence of float
        Ground gaps between the subject and its clearly-apart distractors: each must be
        at least :data:`MIN_GAP_PX` on the image.
    bounds : tuple of float, optional
        The extract's data ``(south, west, north, east)``: the image must lie
        :data:`~cartoqa.tasks.common.views.VIEW_MIN_DATA_COVER` inside it (not checked when
        ``None``).

    Returns
    -------
    ((lat, lon), zoom) or str
        The view, or the key in :data:`REJECT_REASONS` of why there is none.
    """
    feats = plan.features + plan.context
    geoms = [draw_geometry(f, subject) for f in feats]
    c = shapely.union_all(geoms).envelope.centroid
    ovs = [overlay_from_geometry(f.name, "red", g) for f, g in zip(feats, geoms, strict=True)]
    blocked = blocked_boxes(len(plan.features), len(plan.categories), plan.style)

    def shows_all(view: View) -> bool:
        return all(visible_share(_outlined(screen_geometry(view, o, angle_deg=plan.angle_deg)),
                                 width=IMAGE_WIDTH, height=IMAGE_HEIGHT, blocked=blocked)
                   >= _needed_share(o) for o in ovs)

    past_data = False
    for zoom in PRINT_ZOOMS if plan.style == PRINT_STYLE else ZOOMS:
        if plan.zoom is not None and zoom > plan.zoom:
            continue
        view = View(center=(c.y, c.x), zoom=zoom, width=IMAGE_WIDTH, height=IMAGE_HEIGHT)
        # lower zooms only shrink gaps and polygons further; when a higher zoom showed
        # everything but past the data, that is the reason
        if gaps_m and min(gaps_m) < MIN_GAP_PX * view.meters_per_pixel():
            return "past_data" if past_data else "gap"
        for o in ovs:
            if o.kind == "polygon":
                x0, y0, x1, y1 = screen_geometry(view, o).bounds
                if max(x1 - x0, y1 - y0) < MIN_POLYGON_PX:
                    return "past_data" if past_data else "small"
        if not shows_all(view):
            continue
        if bounds is None:
            return view.center, zoom
        for candidate in (view, toward_data(view, bounds, plan.angle_deg)):
            if image_data_cover(candidate, bounds, plan.angle_deg) >= VIEW_MIN_DATA_COVER \
                    and (candidate is view or shows_all(candidate)):
                return candidate.center, zoom
        past_data = True
    return "past_data" if past_data else "not_visible"


def other_scale(plan: MapPlan, first_zoom: int,
                placed: tuple[tuple[float, float], int] | str) -> MapPlan | None:
    """A later map of a two-map question capped one zoom below the first map when its
    own view (``placed``, from :func:`choose_view`) would share the first map's zoom: the
    maps then differ in scale and extent and are aligned through what both show.

    Returns ``None`` when the map differs already (or has no view, or a zoom set).

    Examples
    --------
    >>> from groundtruth.named_features import NamedFeature
    >>> p = MapPlan((NamedFeature("A", "point", "cafe", (), Point(0, 0)),), ("A",))
    >>> other_scale(p, 18, ((0.0, 0.0), 18)).zoom, other_scale(p, 18, ((0.0, 0.0), 17))
    (17, None)
    """
    if isinstance(placed, str) or plan.zoom is not None or placed[1] != first_zoom \
            or first_zoom <= min(PRINT_ZOOMS if plan.style == PRINT_STYLE else ZOOMS):
        return None
    from dataclasses import replace

    return replace(plan, zoom=first_zoom - 1)


def compass_readable(png: bytes, angle_deg: float) -> bool:
    """Whether the compass rose is on the image as drawn: its red north needle points
    ``angle_deg`` clockwise from the top, on its white disc.

    Parameters
    ----------
    png : bytes
        The rendered map.
    angle_deg : float
        Where north points.

    Returns
    -------
    bool
    """
    image = Image.open(io.BytesIO(png)).convert("RGB")
    x0, y0, x1, y1 = compass_box(image.width, image.height)
    if x0 < 0 or y0 < 0 or x1 > image.width or y1 > image.height:
        return False
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2

    def px(bearing: float, dist: float) -> tuple[int, int, int]:
        a = math.radians(angle_deg + bearing)
        value = image.getpixel((round(cx + dist * math.sin(a)), round(cy - dist * math.cos(a))))
        assert isinstance(value, tuple)
        return value[0], value[1], value[2]

    red = px(0.0, r * 0.3)  # on the north half of the needle
    dark = px(180.0, r * 0.3)  # on the south half
    disc = px(45.0, r * 0.5)  # between the needle and the letters
    return (red[0] > 150 and red[1] < 90 and red[2] < 90 and max(dark) < 110
            and min(disc) > 200)


def legend_whole(m: FriedaMap, n_features: int) -> bool:
    """Whether the legend box lies whole on the image with room for every feature."""
    box = m.controls.get("legend")
    if box is None:
        return n_features == 0
    x0, y0, x1, y1 = box
    on_image = x0 >= 0 and y0 >= 0 and x1 <= IMAGE_WIDTH and y1 <= IMAGE_HEIGHT
    return on_image and (y1 - y0) >= LEGEND_LINE_MIN_PX * n_features


@dataclass
class RenderedMap:
    """A verified map of a question: the render and what was drawn."""

    map: FriedaMap
    overlays: list[Overlay]
    #: the map's plan as drawn (its legend cut to the categories in view)
    plan: MapPlan | None = None


#: A feature of :attr:`MapPlan.outset` is drawn grown outward by this many pixels: one
#: outline width, so that its outline runs beside (not under) the outlines of the
#: features drawn after it along its edge.
OUTSET_PX = float(OVERLAY_WEIGHT)


def grown(geometry: BaseGeometry, metres: float) -> BaseGeometry:
    """A ``(lon, lat)`` polygon grown outward by ``metres`` on the ground (mitred corners,
    so that its outline keeps the area's shape); other geometries as they are.

    Examples
    --------
    >>> from shapely.geometry import box
    >>> g = grown(box(24.0, 60.0, 24.002, 60.001), 5.0)  # 111 x 111 m -> 121 x 121 m
    >>> round((g.bounds[3] - g.bounds[1]) * 111_320, 1)
    121.3
    >>> round((g.bounds[2] - g.bounds[0]) * 111_320 * math.cos(math.radians(60.0005)), 1)
    121.3
    """
    if geometry.area <= 0 or metres <= 0:
        return geometry
    lat = geometry.centroid.y
    k = math.cos(math.radians(lat))
    from shapely import affinity

    metric = affinity.scale(geometry, xfact=111_320.0 * k, yfact=111_320.0, origin=(0, 0))
    out = metric.buffer(metres, join_style="mitre")
    return affinity.scale(out, xfact=1 / (111_320.0 * k), yfact=1 / 111_320.0, origin=(0, 0))


def render_map(renderer: FriedaMapRenderer, plan: MapPlan, subject: NamedFeature | None,
               gaps_m: Sequence[float], bounds: Bounds | None = None) -> RenderedMap | str:
    """Render one map of a question and verify it.

    Parameters
    ----------
    renderer : FriedaMapRenderer
        The renderer.
    plan : MapPlan
        The map.
    subject : NamedFeature or None
        The subject of a topological question.
    gaps_m : sequence of float
        See :func:`choose_view`.
    bounds : tuple of float, optional
        See :func:`choose_view`.

    Returns
    -------
    RenderedMap or str
        The map, or the key in :data:`REJECT_REASONS` of why it was rejected.
    """
    placed = choose_view(plan, subject, gaps_m, bounds)
    if isinstance(placed, str):
        return placed
    center, zoom = placed
    if plan.categories:
        got = legend_view(plan, center, zoom, subject, gaps_m, bounds)
        if got is None:
            return "legend_area"
        plan, center, zoom = got
    outset_m = OUTSET_PX * View(center=center, zoom=zoom, width=IMAGE_WIDTH,
                                height=IMAGE_HEIGHT).meters_per_pixel()
    ovs = [overlay_from_geometry(label, plan.color(i),
                                 grown(draw_geometry(f, subject), outset_m)
                                 if i in plan.outset else draw_geometry(f, subject))
           for i, (f, label) in enumerate(zip(plan.features, plan.labels, strict=True))]
    try:
        m = renderer.render(center, zoom, ovs, angle_deg=plan.angle_deg, style=plan.style,
                            categories=plan.categories, north=plan.north_design(),
                            scale_unit=plan.scale_unit)
    except ValueError:  # a legend so tall or wide that a turn would bring it into view
        return "legend"
    if any(share < _needed_share(o) for o, share in zip(ovs, m.visible, strict=True)):
        return "hidden"
    if min(m.pixel_visible, default=1.0) < MIN_PIXEL_VISIBLE:
        return "pixels"
    if not legend_whole(m, len(ovs)):
        return "legend"
    if not compass_readable(m.png, plan.angle_deg):
        return "compass"
    if not categories_seen(m, plan, ovs):
        return "legend_area"
    if plan.categories and not categories_drawn(m):
        return "legend_area"
    if not areas_seen(m, plan):
        return "legend_area"
    return RenderedMap(m, ovs, plan)


def legend_view(plan: MapPlan, center: tuple[float, float], zoom: int,
                subject: NamedFeature | None, gaps_m: Sequence[float],
                bounds: Bounds | None = None
                ) -> tuple[MapPlan, tuple[float, float], int] | None:
    """The map's plan with its legend cut to the categories in view
    (:func:`categories_in_view`), and the view: the one :func:`choose_view` chose, or,
    on a map whose question answers with a legend category
    (:attr:`MapPlan.wider_for_legend`: ``area_category``, ``category_of``), a wider one
    when the legend's categories do not all lie in view.

    A map is chosen at the highest zoom that shows its place, so a legend category
    whose nearest area lies 150 m away fell off it and the question was refused: on
    Helsinki every ``area_category`` plan of the building family at zooms 18-19
    (residential buildings are rare in the centre), so "public building" and
    "commercial building" were seldom asked and "commercial land" answered 14 of 34
    ``area_category`` questions (frieda29g). One zoom out at a time, while the view
    still shows what the map must inside the data; the checks after rendering are
    unchanged.

    Returns
    -------
    (MapPlan, (lat, lon), int) or None
        The cut plan, the centre and the zoom; ``None`` when no view shows the legend.
    """
    kept = categories_in_view(plan, View(center=center, zoom=zoom, width=IMAGE_WIDTH,
                                         height=IMAGE_HEIGHT))
    lowest = min(PRINT_ZOOMS if plan.style == PRINT_STYLE else ZOOMS)
    while kept is None and plan.wider_for_legend and zoom > lowest:
        placed = choose_view(replace(plan, zoom=zoom - 1), subject, gaps_m, bounds)
        if isinstance(placed, str):
            return None
        center, zoom = placed
        kept = categories_in_view(plan, View(center=center, zoom=zoom, width=IMAGE_WIDTH,
                                             height=IMAGE_HEIGHT))
    return None if kept is None else (kept, center, zoom)


#: ``category`` questions: the ring around the answer's dot shows its category's fill
#: on at least this share of its pixels, the ring around a decoy's at most
#: :data:`DECOY_MAX_CATEGORY_SHARE`.
ANSWER_MIN_CATEGORY_SHARE = 0.6
DECOY_MAX_CATEGORY_SHARE = 0.05


#: A legend category is listed only when at least this many image pixels of its areas
#: lie in view, clear of the map's boxes (before rendering), and when at least
#: :data:`MIN_CATEGORY_PIXELS` pixels of the finished image show its fill or hatch.
MIN_CATEGORY_AREA_PX = 600.0
MIN_CATEGORY_PIXELS = 300


def categories_in_view(plan: MapPlan, view: View) -> MapPlan | None:
    """The map's plan with its legend cut to the categories whose areas lie in view.

    A legend never lists a category with no area on the image: each category keeps its
    place only when at least :data:`MIN_CATEGORY_AREA_PX` of its areas lie on the
    turned image, clear of the legend, compass, scale bar and attribution. The
    category checks follow the new legend order; a check that a spot lies *in* a
    dropped category, or a legend left shorter than :attr:`MapPlan.min_legend`, gives
    ``None`` (the plan cannot be asked at this view).

    Parameters
    ----------
    plan : MapPlan
        With a thematic layer (:attr:`MapPlan.categories`).
    view : View
        The chosen view (the image's size).

    Returns
    -------
    MapPlan or None
    """
    blocked = blocked_boxes(len(plan.features), len(plan.categories), plan.style)
    image = box(0.0, 0.0, float(view.width), float(view.height))
    free = image.difference(shapely.union_all([box(*b) for b in blocked]))
    keep: list[int] = []
    for k, (name, geoms) in enumerate(plan.categories):
        shown = 0.0
        for g in geoms:
            px = screen_geometry(view, overlay_from_geometry(name, "red", g),
                                 angle_deg=plan.angle_deg)
            if px.intersects(image):
                shown += px.intersection(free).area
        if shown >= MIN_CATEGORY_AREA_PX:
            keep.append(k)
    if len(keep) < max(plan.min_legend, 1):
        return None
    new_index = {old: new for new, old in enumerate(keep)}
    checks = []
    for f, ci, inside in plan.category_checks:
        if ci in new_index:
            checks.append((f, new_index[ci], inside))
        elif inside:
            return None
    needed = {*plan.keep_categories, *(ci for ci, _ in plan.area_checks)}
    if needed - set(new_index):
        return None
    return replace(plan, categories=tuple(plan.categories[k] for k in keep),
                   category_checks=tuple(checks),
                   keep_categories=tuple(new_index[k] for k in plan.keep_categories),
                   area_checks=tuple((new_index[ci], g) for ci, g in plan.area_checks))


def categories_drawn(m: FriedaMap) -> bool:
    """Whether every category the legend lists shows its fill or hatch on at least
    :data:`MIN_CATEGORY_PIXELS` pixels of the image outside the legend box."""
    skip = [m.controls[k] for k in ("category_legend",) if k in m.controls]
    return all(category_pixels(m.png, k, skip) >= MIN_CATEGORY_PIXELS
               for k in range(len(m.categories)))


#: Each area a count question counts shows its category on at least this many pixels.
MIN_AREA_PIXELS = 150


def areas_seen(m: FriedaMap, plan: MapPlan) -> bool:
    """Whether each area of :attr:`MapPlan.area_checks` shows its category's fill or
    hatch on at least :data:`MIN_AREA_PIXELS` pixels of the finished image."""
    for ci, g in plan.area_checks:
        px = screen_geometry(m.view, overlay_from_geometry("area", "red", g),
                             angle_deg=plan.angle_deg)
        if category_pixels(m.png, ci, within=px) < MIN_AREA_PIXELS:
            return False
    return True


def categories_seen(m: FriedaMap, plan: MapPlan, ovs: Sequence[Overlay]) -> bool:
    """Whether the finished pixels show each checked spot inside (or outside) its category
    (:attr:`MapPlan.category_checks`, :func:`renderers.legend_layer.ring_share`).

    A check's feature index counts the drawn features, then :attr:`MapPlan.context` (a
    place the map shows without drawing it)."""
    spots = [*ovs, *(overlay_from_geometry(f.name, "red", f.geometry) for f in plan.context)]
    for k, ci, inside in plan.category_checks:
        c = screen_geometry(m.view, spots[k], angle_deg=plan.angle_deg).centroid
        share = ring_share(m.png, c.x, c.y, ci)
        if (inside and share < ANSWER_MIN_CATEGORY_SHARE) or \
                (not inside and share > DECOY_MAX_CATEGORY_SHARE):
            return False
    return True


# -- the contextual setting's distractor maps -------------------------------------------


@dataclass(frozen=True)
class PoolMap:
    """A planned distractor map: where, how turned, at which zoom, in which style, the
    features it draws and its thematic layer.

    ``kind`` is ``dots`` (named points, as a distance or orientation map, perhaps with
    an area) or ``areas`` (named areas side by side, as a topological map);
    ``categories`` a thematic layer of ``family`` (as a legend question's map draws),
    empty when none. Distractor maps thus come in the layers the question maps use, so
    that no map stands out by what it draws."""

    index: int
    center: tuple[float, float]
    angle_deg: float
    features: tuple[NamedFeature, ...]
    zoom: int = 17
    style: str = "carto"
    kind: str = "dots"
    family: str = ""
    categories: tuple[tuple[str, tuple[BaseGeometry, ...]], ...] = ()

    @property
    def image_name(self) -> str:
        """The file name all items that show this map share."""
        return f"frieda-context-{self.index:03d}.png"

    def map_plan(self) -> MapPlan:
        """The map as a :class:`MapPlan` (drawn and checked like a question's map)."""
        return MapPlan(self.features, tuple(f.name for f in self.features),
                       angle_deg=self.angle_deg, zoom=self.zoom, style=self.style,
                       colors=POOL_COLOURS[:len(self.features)], categories=self.categories)


#: Colours of a distractor map's features, in order.
POOL_COLOURS: tuple[str, ...] = ("red", "blue", "purple", "orange")
#: Share of distractor maps drawn with a thematic layer (FRIEDA's maps are thematic; the
#: question maps of legend templates draw one).
POOL_LAYER_SHARE = 0.5
#: Share of distractor maps that draw named areas side by side (``areas``) rather than
#: named points (``dots``).
POOL_AREAS_SHARE = 0.5


def plan_pool(features: Sequence[NamedFeature], *, rng: random.Random, size: int,
              tries: int = 400, bounds: Bounds | None = None,
              areas: Sequence[CategoryArea] = ()) -> list[PoolMap]:
    """Plan ``size`` distractor maps of the city, drawn the way question maps are.

    ``dots`` maps: two named points near a random centre (red and blue dots, as a
    distance or orientation map) and, when one lies whole in the view, a named polygon
    (purple). ``areas`` maps (:data:`POOL_AREAS_SHARE`): two or three named polygons
    whole in the view that do not overlap (red, blue, purple), as a topological map.
    With ``areas`` given, :data:`POOL_LAYER_SHARE` of the maps also draw a thematic
    layer of one family (the categories nearest the centre, at most
    :data:`~cartoqa.tasks.frieda.questions.MAX_LEGEND_CATEGORIES`), as a legend
    question's map.

    Parameters
    ----------
    features : sequence of NamedFeature
        The extract's named features (none at the edge are used).
    rng : random.Random
        Seeded.
    size : int
        Maps wanted.
    tries : int, optional
        Random centres tried at most.
    bounds : tuple of float, optional
        The extract's data: a map is planned only when its turned image lies
        :data:`~cartoqa.tasks.common.views.VIEW_MIN_DATA_COVER` inside it.
    areas : sequence of CategoryArea, optional
        The extract's legend areas (thematic layers).

    Returns
    -------
    list of PoolMap
        Up to ``size`` maps, indexed from 0.
    """
    usable = [f for f in features if not f.at_edge]
    points = [f for f in usable if f.kind == "point"]
    counts: dict[str, int] = {}
    for f in points:
        counts[f.name] = counts.get(f.name, 0) + 1
    points = [f for f in points if counts[f.name] == 1]
    polygons = [f for f in usable if f.kind == "polygon"]
    if len(points) < 2:
        return []
    west, south, east, north = shapely.total_bounds([f.geometry for f in usable])
    families = sorted({a.family for a in areas})
    out: list[PoolMap] = []
    for _ in range(tries):
        if len(out) >= size:
            break
        zoom = rng.choice(POOL_ZOOMS)
        # the box of POOL_NEAR_DEG is for zoom 17: half as large one zoom up
        dlat, dlon = (v * 2.0 ** (17 - zoom) for v in POOL_NEAR_DEG)
        lat = rng.uniform(south + dlat, north - dlat)
        lon = rng.uniform(west + dlon, east - dlon)
        view = shapely.box(lon - dlon, lat - dlat, lon + dlon, lat + dlat)
        kind = "areas" if rng.random() < POOL_AREAS_SHARE else "dots"
        chosen: list[NamedFeature] = []
        if kind == "areas":
            inside = [p for p in polygons if view.contains(p.geometry)
                      and p.geometry.area > 2e-8]
            rng.shuffle(inside)
            for p in inside:
                if len(chosen) < 3 and all(not p.geometry.intersects(q.geometry)
                                           and p.name != q.name for q in chosen):
                    chosen.append(p)
            if len(chosen) < 2:
                continue
        else:
            near = [f for f in points if abs(f.geometry.y - lat) < dlat
                    and abs(f.geometry.x - lon) < dlon]
            if len(near) < 2:
                continue
            a, b = rng.sample(near, 2)
            if a.geometry.distance(b.geometry) < 0.0003 * 2.0 ** (17 - zoom):
                continue  # dots closer than ~25 m would overlap
            chosen = [a, b]
            inside = [p for p in polygons if view.contains(p.geometry)
                      and p.geometry.area > 2e-8 and not p.geometry.intersects(a.geometry)
                      and not p.geometry.intersects(b.geometry)]
            if inside:
                chosen.append(rng.choice(inside))
        angle = rng.choice(POOL_ANGLES)
        style = rng.choice(POOL_STYLES)
        family = ""
        layer: tuple[tuple[str, tuple[BaseGeometry, ...]], ...] = ()
        if families and rng.random() < POOL_LAYER_SHARE:
            family = rng.choice(families)
            style = rng.choice(UNLABELLED_STYLES)  # as the legend questions' maps
            layer = pool_layer(areas, family, (lat, lon))
        if bounds is not None and image_data_cover(
                View(center=(lat, lon), zoom=zoom, width=IMAGE_WIDTH, height=IMAGE_HEIGHT),
                bounds, angle) < VIEW_MIN_DATA_COVER:
            continue
        out.append(PoolMap(len(out), (lat, lon), angle, tuple(chosen), zoom, style, kind,
                           family if layer else "", layer))
    return out


def pool_layer(areas: Sequence[CategoryArea], family: str, center: tuple[float, float]
               ) -> tuple[tuple[str, tuple[BaseGeometry, ...]], ...]:
    """A distractor map's thematic layer: the categories of ``family`` nearest its
    centre (at most :data:`~cartoqa.tasks.frieda.questions.MAX_LEGEND_CATEGORIES`), in
    legend order, each with its areas within
    :data:`~cartoqa.tasks.frieda.questions.LEGEND_DRAW_RADIUS_M`."""
    frame = rel.LocalFrame(center[0], center[1])
    c = frame.to_metric(Point(center[1], center[0]))
    drawn: dict[str, list[BaseGeometry]] = {}
    dist: dict[str, float] = {}
    for a in areas:
        if a.family != family:
            continue
        d = frame.to_metric(a.geometry).distance(c)
        if d <= LEGEND_DRAW_RADIUS_M:
            drawn.setdefault(a.category, []).append(a.geometry)
            dist[a.category] = min(dist.get(a.category, d), d)
    legend = sorted(sorted(drawn, key=dist.__getitem__)[:MAX_LEGEND_CATEGORIES])
    return tuple((k, tuple(drawn[k])) for k in legend)


def pool_overlays(pool_map: PoolMap) -> list[Overlay]:
    """The overlays of a distractor map: red, blue, then purple."""
    return [overlay_from_geometry(f.name, POOL_COLOURS[i], f.geometry)
            for i, f in enumerate(pool_map.features)]


def pool_map_plan(pool_map: PoolMap) -> MapPlan | None:
    """The distractor map as drawn: its legend cut to the categories in view
    (:func:`categories_in_view`); ``None`` when no category of its layer is in view."""
    plan = pool_map.map_plan()
    if not plan.categories:
        return plan
    view = View(center=pool_map.center, zoom=pool_map.zoom, width=IMAGE_WIDTH,
                height=IMAGE_HEIGHT)
    return categories_in_view(plan, view)


def render_pool_map(renderer: FriedaMapRenderer, pool_map: PoolMap) -> bytes | str:
    """Render and verify one distractor map (every feature whole, legend, compass, the
    thematic layer's categories on the image).

    Returns
    -------
    bytes or str
        The PNG, or the key in :data:`REJECT_REASONS` of why it is unusable.
    """
    plan = pool_map_plan(pool_map)
    if plan is None:
        return "legend_area"
    ovs = pool_overlays(pool_map)
    try:
        m = renderer.render(pool_map.center, pool_map.zoom, ovs, angle_deg=pool_map.angle_deg,
                            style=pool_map.style, categories=plan.categories,
                            north=plan.north_design())
    except ValueError:
        return "legend"
    if min(m.visible) < WHOLE:
        return "hidden"
    if min(m.pixel_visible, default=1.0) < MIN_PIXEL_VISIBLE:
        return "pixels"
    if not legend_whole(m, len(ovs)):
        return "legend"
    if not compass_readable(m.png, pool_map.angle_deg):
        return "compass"
    if plan.categories and not categories_drawn(m):
        return "legend_area"
    return m.png


def clear_of(pool_map: PoolMap, question: Sequence[NamedFeature], frame: rel.LocalFrame,
             min_gap_m: float) -> bool:
    """Whether a distractor map draws nothing of a question: no feature of the same name,
    none within ``min_gap_m`` of a question's feature on the ground, and, for a map in
    the ``carto`` style (which writes names on its basemap), no question feature
    anywhere in its view (:func:`view_radius_m`): it could name the question's places.

    Parameters
    ----------
    pool_map : PoolMap
        A distractor map.
    question : sequence of NamedFeature
        The features the question's maps draw or show.
    frame : LocalFrame
        A metric frame around the extract.
    min_gap_m : float
        Metres.

    Returns
    -------
    bool
    """
    names = {f.name for f in question}
    if any(f.name in names for f in pool_map.features):
        return False
    ours = shapely.union_all([frame.to_metric(f.geometry) for f in question])
    centre = frame.to_metric(Point(pool_map.center[1], pool_map.center[0]))
    if ours.distance(centre) < min_gap_m:
        return False
    if pool_map.style == "carto" and ours.distance(centre) < view_radius_m(pool_map):
        return False
    return all(ours.distance(frame.to_metric(f.geometry)) >= min_gap_m
               for f in pool_map.features)


def view_radius_m(pool_map: PoolMap) -> float:
    """Half the diagonal of a distractor map's image on the ground: whatever its turn, its
    view lies within this distance of its centre.

    Examples
    --------
    >>> round(view_radius_m(PoolMap(0, (60.17, 24.94), 0.0, (), 17)))
    465
    """
    view = View(center=pool_map.center, zoom=pool_map.zoom, width=IMAGE_WIDTH,
                height=IMAGE_HEIGHT)
    return view.meters_per_pixel() * math.hypot(IMAGE_WIDTH, IMAGE_HEIGHT) / 2.0
