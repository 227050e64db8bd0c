"""View geometry for the samplers: a view around points, and whether it is in the extract."""

from __future__ import annotations

import random
from collections.abc import Sequence

from cartoqa.settings import VIEW_HEIGHT, VIEW_WIDTH
from cartoqa.tasks.base import BuildContext
from groundtruth.projection import View

LatLon = tuple[float, float]


def view_around(points: Sequence[LatLon], zoom: int, rng: random.Random, *,
                jitter_px: float = 0.0) -> View:
    """A view at ``zoom`` centred on the pixel bounding box of ``points``, jittered."""
    probe = View(center=points[0], zoom=zoom, width=VIEW_WIDTH, height=VIEW_HEIGHT)
    pxs = [probe.to_view_px(lat, lon) for lat, lon in points]
    cx = (min(x for x, _ in pxs) + max(x for x, _ in pxs)) / 2
    cy = (min(y for _, y in pxs) + max(y for _, y in pxs)) / 2
    if jitter_px:
        cx += rng.uniform(-jitter_px, jitter_px)
        cy += rng.uniform(-jitter_px * VIEW_HEIGHT / VIEW_WIDTH,
                          jitter_px * VIEW_HEIGHT / VIEW_WIDTH)
    lat, lon = probe.to_latlon(cx, cy)
    return View(center=(round(lat, 7), round(lon, 7)), zoom=zoom, width=VIEW_WIDTH,
                height=VIEW_HEIGHT)


def inside_extract(ctx: BuildContext, view: View) -> bool:
    """Whether the view's centre lies inside the extract's bounds."""
    b = ctx.extract.bounds
    if b is None:
        return True
    s, w, n, e = b
    lat, lon = view.center
    return s <= lat <= n and w <= lon <= e
