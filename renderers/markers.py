"""Map markers: the pin drawn for each marker colour, with its tip exactly at the point.

The pin is an inline SVG (a disc tapering to a point, with a white dot), so it needs
no image file and no icon font. Its tip is the bottom-centre corner of the SVG box,
and the marker's anchor is that corner: Leaflet places the anchor on the marker's
pixel (rounded to whole pixels, as Leaflet rounds every marker position).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from renderers.errors import RenderError

#: Fill colour of each marker colour name (the pin colours of Leaflet's coloured markers).
MARKER_COLORS: dict[str, str] = {
    "blue": "#2a81cb",
    "red": "#cb2b3e",
}

#: Pin size in CSS pixels (about Leaflet's default marker; even, so the tip is a pixel corner).
PIN_WIDTH = 26
PIN_HEIGHT = 41
#: Radius of the pin's head; the head's centre is ``(PIN_WIDTH / 2, PIN_HEAD_RADIUS + 0.5)``.
PIN_HEAD_RADIUS = 12.0
#: Pixel of the icon placed on the marker's point: the tip, at the bottom centre.
PIN_ANCHOR: tuple[int, int] = (PIN_WIDTH // 2, PIN_HEIGHT)


@dataclass(frozen=True)
class Marker:
    """A map marker.

    Parameters
    ----------
    lat, lon : float
        The point the pin's tip touches (WGS84 degrees).
    color : str
        A key of :data:`MARKER_COLORS` (``"blue"`` or ``"red"``).
    """

    lat: float
    lon: float
    color: str = "blue"

    def __post_init__(self) -> None:
        if self.color not in MARKER_COLORS:
            raise RenderError(
                f"unknown marker colour {self.color!r}",
                "use one of " + ", ".join(sorted(MARKER_COLORS)),
            )
        if not (-90.0 <= self.lat <= 90.0 and -180.0 <= self.lon <= 180.0):
            raise RenderError(
                f"marker at ({self.lat}, {self.lon}) is not a latitude/longitude",
                "give LAT,LON in degrees, latitude first",
            )


def pin_outline(
    *, width: float = PIN_WIDTH, height: float = PIN_HEIGHT, radius: float = PIN_HEAD_RADIUS
) -> str:
    """Return the SVG path of a pin whose tip is at ``(width / 2, height)``.

    The outline is a circle of ``radius`` centred ``radius + 0.5`` below the top,
    joined to the tip by the two tangent lines.

    Parameters
    ----------
    width, height : float
        The SVG box in pixels.
    radius : float
        Radius of the head.

    Returns
    -------
    str
        SVG path data.

    Examples
    --------
    >>> pin_outline(width=20, height=30, radius=5)
    'M10 30 L5.105 6.52 A5 5 0 1 1 14.895 6.52 Z'
    """
    cx, cy = width / 2, radius + 0.5
    tip_y = float(height)
    d = tip_y - cy  # distance from the head's centre to the tip
    # The tangent point seen from the tip makes angle beta at the centre, cos(beta) = r / d.
    beta = math.acos(radius / d)
    dx, dy = radius * math.sin(beta), radius * math.cos(beta)
    left = f"{_num(cx - dx)} {_num(cy + dy)}"
    right = f"{_num(cx + dx)} {_num(cy + dy)}"
    r = _num(radius)
    return f"M{_num(cx)} {_num(tip_y)} L{left} A{r} {r} 0 1 1 {right} Z"


def _num(value: float) -> str:
    """Format a coordinate with at most three decimals, without trailing zeros."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return text if text not in ("-0", "") else "0"


def pin_svg(color: str) -> str:
    """Return the inline SVG of a pin in a marker colour.

    Parameters
    ----------
    color : str
        A key of :data:`MARKER_COLORS`.

    Returns
    -------
    str
        An ``<svg>`` element ``PIN_WIDTH`` x ``PIN_HEIGHT`` pixels.

    Examples
    --------
    >>> pin_svg("red").startswith('<svg width="26" height="41"')
    True
    """
    fill = MARKER_COLORS[color]
    cx, cy = PIN_WIDTH / 2, PIN_HEAD_RADIUS + 0.5
    return (
        f'<svg width="{PIN_WIDTH}" height="{PIN_HEIGHT}" '
        f'viewBox="0 0 {PIN_WIDTH} {PIN_HEIGHT}" style="display:block">'
        f'<path d="{pin_outline()}" fill="{fill}"/>'
        f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="4.5" fill="#ffffff"/>'
        "</svg>"
    )
