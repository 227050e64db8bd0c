"""Drawing a scene: a view rendered with its markers and path, beside its reference.

:func:`draw_scene` renders the screenshot an item uses and the label-free Mapnik
reference of the same pixels (:mod:`cartoqa.visibility.reference`); the
:class:`Drawn` scene carries both decoded,, the renderer's record of what it drew, and
the zones of the map controls from what the renderer measured (:attr:`Drawn.reserved`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cartoqa.tasks.common.base import BuildContext
from cartoqa.visibility import IntArray, decode_png, exclusion_mask, render_reference
from cartoqa.visibility.screen import RESERVED_BOXES, Box, reserved_zones
from groundtruth.projection import View
from renderers.markers import Marker

LatLon = tuple[float, float]


@dataclass(frozen=True)
class MarkerSpec:
    """A marker to draw: colour, position and the graph node it stands on."""

    color: str
    lat: float
    lon: float
    node: int | None = None


@dataclass
class Drawn:
    """A rendered scene: the PNG, decoded screenshot and label-free reference.

    Attributes
    ----------
    view : View
        The view.
    png : bytes
        The screenshot as the item shows it.
    screen, reference : array
        The screenshot and the label-free reference, decoded.
    drawn : dict
        The renderer's record of what it drew
        (:func:`renderers.map_render.describe_drawing`).
    controls : dict
        Where the renderer measured each map control
        (:attr:`renderers.map_render.RenderResult.controls`); empty when unknown.
    """

    view: View
    png: bytes
    screen: IntArray
    reference: IntArray
    drawn: dict[str, Any]
    controls: dict[str, Box] = field(default_factory=dict)

    @property
    def reserved(self) -> tuple[Box, ...]:
        """Zones kept clear around the map controls as drawn here.

        The zones known before rendering (:data:`cartoqa.visibility.screen.CONTROL_ZONES`),
        each grown to hold the control the renderer measured
        (:func:`cartoqa.visibility.screen.reserved_zones`).
        """
        return reserved_zones(self.controls)


def draw_scene(ctx: BuildContext, view: View, *, markers: Sequence[MarkerSpec] = (),
               path: Sequence[LatLon] | None = None) -> Drawn:
    """Render a view with markers and path, plus its label-free reference.

    Parameters
    ----------
    ctx : BuildContext
        The build context (renderer, tiles).
    view : View
        The view.
    markers : sequence of MarkerSpec
        Markers to draw.
    path : sequence of (lat, lon), optional
        A blue path.

    Returns
    -------
    Drawn
        PNG, arrays and the renderer's record of what was drawn.
    """
    renderer = ctx.renderer()
    result = renderer.render(view, markers=[Marker(m.lat, m.lon, m.color) for m in markers],
                             path=list(path) if path else None)
    reference = render_reference(ctx.tiles(), view)
    return Drawn(view=view, png=result.png, screen=decode_png(result.png),
                 reference=reference, drawn=result.drawn,
                 controls=dict(result.controls))


def scene_exclusion(view: View, markers: Sequence[MarkerSpec],
                    path: Sequence[LatLon] | None, *,
                    reserved: Sequence[Box] = RESERVED_BOXES) -> Any:
    """Exclusion mask for markers, path and controls of a scene.

    ``reserved`` are the controls' zones: :attr:`Drawn.reserved` of the scene (by
    default the zones known before rendering).
    """
    return exclusion_mask(
        view,
        marker_px=[view.to_view_px(m.lat, m.lon) for m in markers],
        path_px=[view.to_view_px(lat, lon) for lat, lon in (path or [])],
        boxes=reserved,
    )
