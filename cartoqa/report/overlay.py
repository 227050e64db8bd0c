"""What an item's ground truth is made of, as shapes in image pixels, from its provenance.

The report draws these shapes as an SVG layer over the item's image (the route of an
SRN item, the path of an RLE item, the junction of an MML item with its road names,
the features an STMF or MTMF answer counts with their names). They come from the
item's ``provenance`` (``docs/dataset-format.md``): marker pixels, the path in
latitude/longitude (projected here onto the view), and, for feature maps built since
the report exists, ``counted`` (each counted feature's type, legible name and pixel).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from groundtruth.projection import View

#: Colours of the overlay shapes (CSS).
COLORS = {"path": "#e6007e", "blue": "#1f4fff", "red": "#e00000", "feature": "#00a050"}


def _point(x: float, y: float) -> list[float]:
    return [round(float(x), 1), round(float(y), 1)]


def _view(prov: Mapping[str, Any], size: tuple[int, int]) -> View | None:
    center, zoom = prov.get("center"), prov.get("zoom")
    if not (isinstance(center, Sequence) and len(center) == 2 and isinstance(zoom, int)):
        return None
    return View(center=(float(center[0]), float(center[1])), zoom=zoom,
                width=int(size[0]), height=int(size[1]))


def overlay_shapes(item: Mapping[str, Any], size: tuple[int, int]) -> list[dict[str, Any]]:
    """Shapes of an item's ground truth on its (first) image.

    Parameters
    ----------
    item : mapping
        One item with its ``provenance``.
    size : tuple of int
        The image's ``(width, height)`` in pixels (the view the map was drawn in).

    Returns
    -------
    list of dict
        Each shape is ``{"kind": "path", "points": [[x, y], ...], "label", "color"}``,
        ``{"kind": "point", "at": [x, y], "label", "color"}`` or
        ``{"kind": "box", "at": [x, y], "label", "color"}``; empty when the provenance
        holds nothing to draw (MFS swatches, synthetic items).

    Examples
    --------
    >>> item = {"task": "mml", "answer": {"roads": ["A", "B"]},
    ...         "provenance": {"markers": [{"color": "red", "px": [10.0, 20.0]}]}}
    >>> overlay_shapes(item, (100, 50))
    [{'kind': 'point', 'at': [10.0, 20.0], 'label': 'junction: A / B', 'color': '#e00000'}]
    """
    prov = item.get("provenance") or {}
    if not isinstance(prov, Mapping):
        return []
    task = item.get("task")
    answer = item.get("answer") or {}
    shapes: list[dict[str, Any]] = []
    path = prov.get("path")
    view = _view(prov, size)
    if isinstance(path, Sequence) and len(path) >= 2 and view is not None:
        points = [_point(*view.to_view_px(float(lat), float(lon))) for lat, lon in path]
        if task == "rle":
            label = f"path: {answer.get('value')} {answer.get('unit', '')}".strip()
        elif task == "srn":
            label = "route: " + " → ".join(map(str, answer.get("steps") or []))
        else:
            label = "path"
        shapes.append({"kind": "path", "points": points, "label": label,
                       "color": COLORS["path"]})
    for marker in prov.get("markers") or []:
        px = marker.get("px") if isinstance(marker, Mapping) else None
        if not (isinstance(px, Sequence) and len(px) == 2):
            continue
        color = str(marker.get("color", "blue"))
        if task == "mml":
            label = "junction: " + " / ".join(map(str, answer.get("roads") or []))
        elif task == "srn":
            label = "origin" if color == "blue" else "destination"
        else:
            label = f"{color} marker"
        shapes.append({"kind": "point", "at": _point(*px), "label": label,
                       "color": COLORS.get(color, COLORS["blue"])})
    for feature in prov.get("counted") or []:
        px = feature.get("px") if isinstance(feature, Mapping) else None
        if not (isinstance(px, Sequence) and len(px) == 2):
            continue
        name = feature.get("name")
        label = f"{feature.get('type', '')}: {name}" if name else f"{feature.get('type', '')}"
        shapes.append({"kind": "box", "at": _point(*px), "label": label,
                       "color": COLORS["feature"]})
    return shapes
