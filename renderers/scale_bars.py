"""Scale bars in one unit (metres, kilometres, feet or miles) drawn on a finished map.

FRIEDA's maps carry scale bars in several units; Leaflet's control draws metres and
feet only (kilometres and miles never at zooms 15-19). :func:`bar_length` picks a
round length in the unit whose bar is 60-160 pixels long; :func:`draw_scale_bar`
draws it at the bottom left.
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont

#: Metres in one of each unit.
UNIT_METRES: dict[str, float] = {"m": 1.0, "km": 1000.0, "ft": 0.3048, "mi": 1609.344}
#: Words a prompt uses for each unit.
UNIT_WORDS: dict[str, str] = {"m": "metres", "km": "kilometres", "ft": "feet",
                              "mi": "miles"}
#: Shortest and longest bar, pixels.
BAR_PX: tuple[float, float] = (60.0, 160.0)
_ROUND = (1.0, 2.0, 2.5, 5.0)


def bar_length(unit: str, meters_per_pixel: float) -> tuple[float, float]:
    """A round length in ``unit`` and its bar's pixels (between :data:`BAR_PX`).

    Examples
    --------
    >>> bar_length("km", 1.0)
    (0.1, 100.0)
    >>> value, px = bar_length("mi", 0.6); value, round(px, 1)
    (0.05, 134.1)
    """
    best: tuple[float, float] | None = None
    for exp in range(-3, 5):
        for r in _ROUND:
            value = round(r * 10.0 ** exp, 6)
            px = value * UNIT_METRES[unit] / meters_per_pixel
            if BAR_PX[0] <= px <= BAR_PX[1] and (best is None or px > best[1]):
                best = (value, px)
    if best is None:
        raise ValueError(f"no round {unit} bar between {BAR_PX} px")
    return best


def label(value: float, unit: str) -> str:
    """``0.1 km``, ``50 m``, ``250 ft``.

    Examples
    --------
    >>> label(0.05, "mi"), label(200.0, "ft")
    ('0.05 mi', '200 ft')
    """
    return f"{value:g} {unit}"


def draw_scale_bar(png: bytes, unit: str, meters_per_pixel: float, *, inset: float = 6.0,
                   compress_level: int = -1
                   ) -> tuple[bytes, dict[str, object], tuple[float, float, float, float]]:
    """Draw a scale bar in ``unit`` at the bottom left of a map, ``inset`` pixels from the
    left edge (and ``inset + 2`` from the bottom: the print style keeps it inside its neat
    line), the PNG at zlib level ``compress_level`` (-1: zlib's default).

    Returns
    -------
    (bytes, dict, box)
        The PNG, the bar (``label``, ``unit``, ``value``, ``meters``, ``width_px``) and
        its box.
    """
    value, px = bar_length(unit, meters_per_pixel)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    draw = ImageDraw.Draw(image)
    h = image.height
    lift = inset - 6.0
    box = (inset, h - 46.0 - lift, inset + px + 24.0, h - 8.0 - lift)
    draw.rectangle(box, fill=(255, 255, 255), outline=(120, 120, 120))
    x0, y = box[0] + 12, h - 16.0 - lift
    draw.line((x0, y, x0 + px, y), fill=(30, 30, 30), width=3)
    for x in (x0, x0 + px / 2, x0 + px):
        draw.line((x, y - (8 if x != x0 + px / 2 else 5), x, y), fill=(30, 30, 30), width=2)
    text = label(value, unit)
    draw.text((x0, h - 42.0 - lift), text, fill=(20, 20, 20), font=ImageFont.load_default(size=14))
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=compress_level)
    bar = {"label": text, "unit": unit, "value": value,
           "meters": value * UNIT_METRES[unit], "width_px": px}
    return out.getvalue(), bar, box
