"""FRIEDA map images: the OSM-Carto map with named overlays, a legend, a scale bar and a
compass rose, optionally turned so that north is not up.

:class:`FriedaMapRenderer` renders a square page (side
:func:`renderers.compass.frame_side` of the image, so that any turn fills the image)
with :class:`~renderers.map_render.MapRenderer` and a square
:class:`~renderers.browser.Browser`, turns it with
:func:`renderers.compass.compose_turned` and draws the compass rose
(:func:`renderers.compass.draw_compass`). :class:`FriedaMap` reports, for each
overlay, the share of it visible on the image and clear of the legend, controls and
compass (:func:`renderers.overlays.visible_share`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from groundtruth.projection import View
from renderers.browser import Browser
from renderers.compass import compass_box, compose_turned, draw_compass, frame_side
from renderers.map_render import MapRenderer, TileSource
from renderers.overlays import Overlay, screen_geometry, visible_share

Box = tuple[float, float, float, float]

#: Image size of every FRIEDA map (CSS pixels, as the other tasks).
IMAGE_WIDTH = 1366
IMAGE_HEIGHT = 768


@dataclass
class FriedaMap:
    """One rendered FRIEDA map.

    Attributes
    ----------
    png : bytes
        The image, :data:`IMAGE_WIDTH` x :data:`IMAGE_HEIGHT`.
    view : View
        The (unturned) view of the image: centre, zoom, size.
    angle_deg : float
        Where north points, clockwise from the top of the image.
    controls : dict
        Boxes of ``legend``, ``scale_bar``, ``attribution`` and ``compass`` in the image.
    scale_bar : dict
        The metric and imperial scale bars as Leaflet drew them (``label``,
        ``meters``, ``width_px``, ...).
    visible : list of float
        Per overlay, the share on the image and clear of every control.
    drawn : dict
        The renderer's record of the square page.
    """

    png: bytes
    view: View
    angle_deg: float
    controls: dict[str, Box]
    scale_bar: dict[str, Any]
    visible: list[float] = field(default_factory=list)
    drawn: dict[str, Any] = field(default_factory=dict)


class FriedaMapRenderer:
    """Render FRIEDA maps over a tile source with a square headless Chromium.

    Parameters
    ----------
    tiles : TileSource
        The tile pipeline.
    assets_dir : pathlib.Path
        Folder with the local Leaflet files.
    """

    def __init__(self, tiles: TileSource, *, assets_dir: Path) -> None:
        self.side = frame_side(IMAGE_WIDTH, IMAGE_HEIGHT)
        self._browser = Browser(width=self.side, height=self.side)
        self._renderer = MapRenderer(tiles, assets_dir=assets_dir, browser=self._browser)

    def render(self, center: tuple[float, float], zoom: int, overlays: Sequence[Overlay], *,
               angle_deg: float = 0.0) -> FriedaMap:
        """Render one map.

        Parameters
        ----------
        center : (lat, lon)
            Centre of the image.
        zoom : int
            15-19.
        overlays : sequence of Overlay
            Features drawn and named in the legend.
        angle_deg : float, optional
            Where north points, clockwise from the top.

        Returns
        -------
        FriedaMap
        """
        square = View(center=center, zoom=zoom, width=self.side, height=self.side)
        result = self._renderer.render(square, overlays=overlays)
        keep = {k: v for k, v in result.controls.items()
                if k in ("legend", "scale_bar", "attribution")}
        png, boxes = compose_turned(result.png, angle_deg, width=IMAGE_WIDTH,
                                    height=IMAGE_HEIGHT, controls=keep)
        png = draw_compass(png, angle_deg)
        boxes["compass"] = compass_box(IMAGE_WIDTH, IMAGE_HEIGHT)
        view = View(center=center, zoom=zoom, width=IMAGE_WIDTH, height=IMAGE_HEIGHT)
        blocked = list(boxes.values())
        visible = [
            visible_share(screen_geometry(view, o, angle_deg=angle_deg), width=IMAGE_WIDTH,
                          height=IMAGE_HEIGHT, blocked=blocked)
            for o in overlays
        ]
        return FriedaMap(png=png, view=view, angle_deg=angle_deg, controls=boxes,
                         scale_bar=dict(result.drawn.get("scale_bar") or {}), visible=visible,
                         drawn=result.drawn)

    def close(self) -> None:
        """Close the square browser."""
        self._renderer.close()
        self._browser.close()
