"""View geometry for the samplers: a view around points, and whether the extract fills it.

Past the extract's data the tiles are blank beige: a view is used only when at least
:data:`VIEW_MIN_DATA_COVER` of its pixels lie inside the extract's bounds (the bounds of
its data: the file header's box, or the imported data's when the header has none).
A zoom at which no view of the image size can be that full (a small extract at zoom
15-16) is left out of the build's plan, and the build says so per zoom
(:func:`unfillable_zooms`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cartoqa.settings import VIEW_HEIGHT, VIEW_WIDTH
from cartoqa.tasks.common.base import BuildContext
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


#: Share of a view's pixels that must lie inside the extract's data.
VIEW_MIN_DATA_COVER = 0.99

Bounds = tuple[float, float, float, float]


def data_cover(view: View, bounds: Bounds) -> float:
    """Share of the view's pixels inside ``(south, west, north, east)`` bounds.

    Examples
    --------
    >>> v = View(center=(0.0, 0.0), zoom=10, width=200, height=100)
    >>> s, w, n, e = v.bounds
    >>> data_cover(v, (s, w, n, e))
    1.0
    >>> data_cover(v, (s, 0.0, n, e))  # the eastern half
    0.5
    >>> data_cover(v, (50.0, 50.0, 51.0, 51.0))
    0.0
    """
    s, w, n, e = bounds
    x0, y1 = view.to_view_px(s, w)
    x1, y0 = view.to_view_px(n, e)
    dx = max(0.0, min(float(view.width), x1) - max(0.0, x0))
    dy = max(0.0, min(float(view.height), y1) - max(0.0, y0))
    return dx * dy / (view.width * view.height)


def zoom_can_fill(bounds: Bounds, zoom: int, *, width: int = VIEW_WIDTH,
                  height: int = VIEW_HEIGHT, min_cover: float = VIEW_MIN_DATA_COVER) -> bool:
    """Whether some view of ``width`` x ``height`` at ``zoom`` is ``min_cover`` inside the bounds.

    Examples
    --------
    Bundled Helsinki's data is about 1.0 x 1.7 km; a 1366 x 768 view is 3.3 km wide at
    zoom 15 and 0.8 km at zoom 17:

    >>> hel = (60.164155, 24.9351762, 60.179113, 24.9534145)
    >>> [z for z in range(15, 20) if zoom_can_fill(hel, z)]
    [17, 18, 19]
    """
    s, w, n, e = bounds
    probe = View(center=((s + n) / 2, (w + e) / 2), zoom=zoom, width=width, height=height)
    x0, y1 = probe.to_view_px(s, w)
    x1, y0 = probe.to_view_px(n, e)
    return min(1.0, (x1 - x0) / width) * min(1.0, (y1 - y0) / height) >= min_cover


def extract_bounds(ctx: BuildContext) -> Bounds:
    """``(south, west, north, east)`` of the extract's data (imports it when the file has none)."""
    return ctx.extract.bounds if ctx.extract.bounds is not None else ctx.tiles().bounds


def fit_to_data(view: View, bounds: Bounds) -> View:
    """The view shifted (least in pixels) to lie inside the bounds where they are larger.

    Along an axis where the data is narrower than the view the view is centred on it.
    The samplers check afterwards that their markers and paths are still on screen.

    Examples
    --------
    >>> v = View(center=(0.0, 0.0), zoom=12, width=200, height=100)
    >>> s, w, n, e = v.bounds
    >>> moved = fit_to_data(v, (s, w + (e - w) / 4, n, e + (e - w)))  # data starts 50 px in
    >>> [round(c) for c in moved.to_view_px(0.0, 0.0)]
    [50, 50]
    """
    s, w, n, e = bounds
    x0, y1 = view.to_view_px(s, w)
    x1, y0 = view.to_view_px(n, e)
    cx, cy = view.width / 2, view.height / 2

    def shift(lo: float, hi: float, size: float, c: float) -> float:
        if hi - lo <= size:
            return (lo + hi) / 2
        return min(max(c, lo + size / 2), hi - size / 2)

    nx, ny = shift(x0, x1, view.width, cx), shift(y0, y1, view.height, cy)
    if (nx, ny) == (cx, cy):
        return view
    lat, lon = view.to_latlon(nx, ny)
    return View(center=(round(lat, 7), round(lon, 7)), zoom=view.zoom, width=view.width,
                height=view.height)


def inside_extract(ctx: BuildContext, view: View) -> bool:
    """Whether at least :data:`VIEW_MIN_DATA_COVER` of the view lies inside the extract's data."""
    return data_cover(view, extract_bounds(ctx)) >= VIEW_MIN_DATA_COVER


def unfillable_zooms(ctx: BuildContext, task: str, zooms: Sequence[int], *,
                     width: int = VIEW_WIDTH, height: int = VIEW_HEIGHT) -> list[int]:
    """The zooms out of ``zooms`` that the extract cannot fill, noted for the build.

    Each is recorded in ``ctx.unfilled_zooms[task]`` (the build says so and writes it in
    the manifest); the samplers plan their slots over the other zooms.
    """
    bounds = extract_bounds(ctx)
    out = [z for z in zooms if not zoom_can_fill(bounds, z, width=width, height=height)]
    if out:
        s, w, n, e = bounds
        probe = View(center=((s + n) / 2, (w + e) / 2), zoom=out[0], width=width, height=height)
        x0, y1 = probe.to_view_px(s, w)
        x1, y0 = probe.to_view_px(n, e)
        for z in out:
            k = 2.0 ** (z - out[0])
            ctx.unfilled_zooms.setdefault(task, {})[z] = (
                f"the extract's data is {round((x1 - x0) * k)} x {round((y1 - y0) * k)} px at "
                f"zoom {z}, smaller than a {width} x {height} view")
    return out
