"""Turn a rendered map and draw a compass rose on it (FRIEDA orientation maps).

:func:`compose_turned` turns a square render (side :func:`frame_side`, the
image's diagonal) about its centre so that north points ``angle_deg`` clockwise from
the top, and cuts the image from its middle, so no corner is left blank; the boxes
of the scale bar, legend and attribution are copied unturned from the square render's
corners into the image's, so they stay readable and the scale bar stays true (a turn
keeps lengths). :func:`draw_compass` then draws
a compass rose whose N arrow points to north on the turned map; a reader has to read
directions from it, not assume north is up.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable

from PIL import Image, ImageDraw, ImageFont

Box = tuple[float, float, float, float]

#: Compass rose size (square, CSS pixels) and its margin from the image corner.
COMPASS_SIZE = 96
COMPASS_MARGIN = 10
#: Fill of the image corners a turn uncovers.
BLANK_FILL = (242, 239, 233)
_FONT_PATHS = (
    "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
)


def compass_box(width: int, height: int) -> Box:
    """Where :func:`draw_compass` puts the rose: the top-left corner.

    Parameters
    ----------
    width, height : int
        Image size (the rose's place does not depend on it).

    Returns
    -------
    tuple of float
        ``(x0, y0, x1, y1)``.

    Examples
    --------
    >>> compass_box(1366, 768)
    (10.0, 10.0, 106.0, 106.0)
    """
    return (float(COMPASS_MARGIN), float(COMPASS_MARGIN),
            float(COMPASS_MARGIN + COMPASS_SIZE), float(COMPASS_MARGIN + COMPASS_SIZE))


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    for path in _FONT_PATHS:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    return ImageFont.load_default()


def frame_side(width: int, height: int) -> int:
    """Side of the square render that covers a ``width`` x ``height`` image at any turn.

    Parameters
    ----------
    width, height : int
        The image size.

    Returns
    -------
    int
        The diagonal, rounded up to an even number (so the crop is centred exactly).

    Examples
    --------
    >>> frame_side(1366, 768)
    1568
    """
    side = math.ceil(math.hypot(width, height))
    return side + (side % 2)


def compose_turned(png: bytes, angle_deg: float, *, width: int, height: int,
                   controls: dict[str, Box], compress_level: int = -1
                   ) -> tuple[bytes, dict[str, Box]]:
    """Turn a square render and cut the image from its centre, controls kept upright.

    The square render (side :func:`frame_side`) is turned ``angle_deg`` clockwise
    about its centre (north then points that many degrees clockwise from the top) and
    the central ``width`` x ``height`` is cut out; a turn keeps lengths, so the scale
    bar stays true. The controls (legend at the top right, scale bar at the bottom
    left, attribution at the bottom right) are copied unturned from the square
    render into the same corners of the image. They sit so far out in the square's
    corners that no turn brings them into the cut.

    Parameters
    ----------
    png : bytes
        The square render.
    angle_deg : float
        Clockwise turn.
    width, height : int
        The image size.
    controls : dict
        Control name -> ``(x0, y0, x1, y1)`` in the square render.
    compress_level : int, optional
        The PNG's zlib level (-1: zlib's default; an image another step decodes at
        once may take 0, its pixels being the same).

    Returns
    -------
    tuple
        The PNG, and the controls' boxes in the image.

    Raises
    ------
    ValueError
        When a control reaches so far in that a turn could bring it into the cut.
    """
    image = Image.open(io.BytesIO(png)).convert("RGB")
    side = image.width
    if image.height != side:
        raise ValueError("the render must be square")
    half_diag = math.hypot(width, height) / 2
    c = side / 2
    for name, (x0, y0, x1, y1) in controls.items():
        nx = min(max(c, x0), x1)
        ny = min(max(c, y0), y1)
        if math.hypot(nx - c, ny - c) < half_diag:
            raise ValueError(f"the {name} box reaches into the turned image")
    turned = image.rotate(-angle_deg, resample=Image.Resampling.BICUBIC, expand=False,
                          fillcolor=BLANK_FILL)
    ox, oy = (side - width) // 2, (side - height) // 2
    out_image = turned.crop((ox, oy, ox + width, oy + height))
    boxes: dict[str, Box] = {}
    for name, (x0, y0, x1, y1) in controls.items():
        dx = -(side - width) if x0 > c else 0
        dy = -(side - height) if y0 > c else 0
        region = (math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1))
        out_image.paste(image.crop(region), (region[0] + dx, region[1] + dy))
        boxes[name] = (x0 + dx, y0 + dy, x1 + dx, y1 + dy)
    out = io.BytesIO()
    out_image.save(out, format="PNG", compress_level=compress_level)
    return out.getvalue(), boxes



def _disc(png: bytes, north_deg: float) -> tuple[
        Image.Image, ImageDraw.ImageDraw, float, Callable[[float, float], tuple[float, float]]]:
    """The map with the white disc of :func:`compass_box` drawn on it.

    Returns the image, its drawing context, the disc's radius in pixels, and
    ``at(bearing, dist)``: the pixel ``dist`` from the centre towards ``bearing`` degrees
    clockwise from the map's north.
    """
    image = Image.open(io.BytesIO(png)).convert("RGB")
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = compass_box(image.width, image.height)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = (x1 - x0) / 2
    draw.ellipse((x0, y0, x1, y1), fill=(255, 255, 255), outline=(40, 40, 40), width=2)

    def at(bearing: float, dist: float) -> tuple[float, float]:
        a = math.radians(north_deg + bearing)
        return cx + dist * math.sin(a), cy - dist * math.cos(a)

    return image, draw, r, at


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()

def draw_compass(png: bytes, north_deg: float) -> bytes:
    """Draw a compass rose whose N arrow points ``north_deg`` clockwise from the top.

    Parameters
    ----------
    png : bytes
        The (turned) map image.
    north_deg : float
        Direction of north on the image, clockwise from the top.

    Returns
    -------
    bytes
        A PNG with the rose in :func:`compass_box`.
    """
    image, draw, r, at = _disc(png, north_deg)

    # the needle: a red half towards north, a dark half towards south
    for bearing, colour in ((0.0, (200, 30, 30)), (180.0, (60, 60, 60))):
        tip = at(bearing, r * 0.58)
        left, right = at(bearing - 90, r * 0.13), at(bearing + 90, r * 0.13)
        draw.polygon([tip, left, right], fill=colour)
    font = _font(15)
    small = _font(11)
    for bearing, text, f in ((0.0, "N", font), (90.0, "E", small), (180.0, "S", small),
                             (270.0, "W", small)):
        tx, ty = at(bearing, r * 0.80)
        draw.text((tx, ty), text, fill=(200, 30, 30) if text == "N" else (40, 40, 40),
                  font=f, anchor="mm")
    return _png(image)


#: North-arrow designs :func:`draw_north` draws; each keeps what
#: :func:`cartoqa.tasks.frieda.maps.compass_readable` checks (a red north half, a dark
#: south half, a white disc between them and the rim).
NORTH_DESIGNS: tuple[str, ...] = ("rose", "arrow", "star")


def draw_north(png: bytes, north_deg: float, design: str = "rose") -> bytes:
    """Draw a north indicator of one of :data:`NORTH_DESIGNS` in :func:`compass_box`.

    ``rose``: :func:`draw_compass` (needle and N, E, S, W); ``arrow``: one arrow with a
    red head half and a dark tail half, ``N`` at its tip; ``star``: a four-point star
    (red north point, dark others) with short grey diagonals, ``N`` only.

    Parameters
    ----------
    png : bytes
        The (turned) map image.
    north_deg : float
        Direction of north on the image, clockwise from the top.
    design : str, optional
        One of :data:`NORTH_DESIGNS`.

    Returns
    -------
    bytes
    """
    if design not in NORTH_DESIGNS:
        raise ValueError(f"unknown north-arrow design {design!r}")
    if design == "rose":
        return draw_compass(png, north_deg)
    image, draw, r, at = _disc(png, north_deg)

    red, dark, grey = (200, 30, 30), (50, 50, 50), (150, 150, 150)
    if design == "arrow":
        draw.polygon([at(0, r * 0.66), at(-150, r * 0.22), at(0, r * 0.02),
                      at(150, r * 0.22)], fill=red)
        draw.polygon([at(-90, r * 0.09), at(90, r * 0.09), at(168, r * 0.6),
                      at(192, r * 0.6)], fill=dark)
    else:
        for bearing in (45.0, 135.0, 225.0, 315.0):
            draw.polygon([at(bearing, r * 0.34), at(bearing - 45, r * 0.08), at(0, 0),
                          at(bearing + 45, r * 0.08)], fill=grey)
        for bearing in (0.0, 90.0, 180.0, 270.0):
            draw.polygon([at(bearing, r * 0.66), at(bearing - 90, r * 0.12),
                          at(bearing + 90, r * 0.12)], fill=red if bearing == 0 else dark)
    tx, ty = at(0.0, r * 0.82)
    draw.text((tx, ty), "N", fill=red, font=_font(15), anchor="mm")
    return _png(image)
