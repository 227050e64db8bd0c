"""Pixel checks shared by the renderer tests: where a pin's tip is in a screenshot.

The tip is measured, not guessed from where the pin's solid pixels stop. Near its
tip the pin is a triangle (the two tangents to its head), so the area it covers in a
pixel row falls linearly with the row's height above the tip and reaches 0 at the
tip. Chromium anti-aliases by coverage: a pixel a fraction ``a`` covered is
``a * pin + (1 - a) * background``. With the same view rendered without markers as
the background, each pixel's coverage is read back, each row's covered width summed,
and a straight line through (row centre, width) says where the width is 0: the tip,
to a tenth of a pixel. Its column is the mean of the rows' centres of coverage.
"""

from __future__ import annotations

import io
import math

import numpy as np
from PIL import Image

from renderers.markers import PIN_HEAD_RADIUS, PIN_HEIGHT

#: Width the pin covers per pixel of height near its tip: 2 tan(asin(r / d)), with d
#: the distance from the head's centre (r + 0.5 below the top) to the tip.
PIN_TAPER = 2.0 * math.tan(math.asin(PIN_HEAD_RADIUS / (PIN_HEIGHT - PIN_HEAD_RADIUS - 0.5)))
#: Rows above the tip measured: well below the tangent points (23.4 px above the tip)
#: and the white dot.
TIP_ROWS = 14


def to_array(png: bytes) -> np.ndarray:
    """Decode a PNG to an ``(h, w, 3)`` float array."""
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=float)


def rgb(hex_colour: str) -> np.ndarray:
    """``#rrggbb`` as a float array."""
    return np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)], dtype=float)


def colour_mask(img: np.ndarray, hex_colour: str, tol: float = 60.0) -> np.ndarray:
    """Pixels within ``tol`` (Euclidean RGB) of a colour."""
    return np.asarray(np.linalg.norm(img - rgb(hex_colour), axis=2) < tol)


def coverage(img: np.ndarray, background: np.ndarray, hex_colour: str) -> np.ndarray:
    """How much of each pixel a shape of one colour covers, 0 to 1.

    ``img = a * colour + (1 - a) * background``, solved for ``a`` by least squares over
    the three channels; 0 where the background is the colour itself (or near it).
    """
    pin = rgb(hex_colour)
    towards = pin - background
    norm2 = (towards**2).sum(axis=2)
    alpha = ((img - background) * towards).sum(axis=2) / np.maximum(norm2, 1e-9)
    alpha[norm2 < 40.0**2] = 0.0  # the background too close to the pin colour to tell
    return np.clip(alpha, 0.0, 1.0)


def pin_tip(img: np.ndarray, background: np.ndarray, hex_colour: str,
            near: tuple[float, float]) -> tuple[float, float, float]:
    """Measure the tip of the pin of ``hex_colour`` drawn within a few pixels of ``near``.

    Returns ``(x, y, taper)``: the tip in view pixels (pixel corners are whole
    numbers) and the covered width per pixel of height found near it (the pin's shape:
    :data:`PIN_TAPER`). Raises AssertionError when no pin is there.
    """
    tx, ty = round(near[0]), round(near[1])
    y0, x0 = ty - 30, tx - 20
    alpha = coverage(img[y0 : ty + 10, x0 : tx + 20], background[y0 : ty + 10, x0 : tx + 20],
                     hex_colour)
    widths = alpha.sum(axis=1)
    solid = np.nonzero(widths >= 1.0)[0]
    assert solid.size >= TIP_ROWS, f"no pin near {near}"
    rows = np.arange(solid.max() - TIP_ROWS + 1, solid.max() + 1)
    centres_y = y0 + rows + 0.5
    slope, intercept = np.polyfit(centres_y, widths[rows], 1)
    assert slope < 0, f"no pin narrowing downwards near {near}"
    tip_y = -intercept / slope
    cols = x0 + np.arange(alpha.shape[1]) + 0.5
    tip_x = float(np.mean([(alpha[r] * cols).sum() / widths[r] for r in rows]))
    return tip_x, float(tip_y), float(-slope)


def assert_pin_tip_at(img: np.ndarray, background: np.ndarray, hex_colour: str,
                      tip: tuple[float, float]) -> None:
    """Check that the pin of ``hex_colour`` has its tip within 1 px of view pixel ``tip``.

    ``background`` is the same view rendered without markers. Leaflet puts the tip on
    the pixel corner nearest to ``tip``, at most half a pixel away on each axis; the
    measurement is good to about 0.01 px. So the measured tip must lie within 0.7 px
    of ``tip`` on each axis (less than 1 px away: a pin one whole pixel off is caught
    unless ``tip`` lies half-way between two corners); the pin must taper as a pin does
    (:data:`PIN_TAPER`, within 5 %), cover nothing below its tip and have the white
    dot of its head 28.5 px above it. Raises AssertionError.
    """
    x, y, taper = pin_tip(img, background, hex_colour, tip)
    off = max(abs(x - tip[0]), abs(y - tip[1]))
    assert off <= 0.7, f"the pin's tip is at ({x:.2f}, {y:.2f}), {off:.2f} px from {tip}"
    assert abs(taper - PIN_TAPER) <= 0.05 * PIN_TAPER, f"the pin tapers by {taper:.3f} px/px"
    tx, ty = round(tip[0]), round(tip[1])
    below = coverage(img[ty + 1 : ty + 10, tx - 20 : tx + 20],
                     background[ty + 1 : ty + 10, tx - 20 : tx + 20], hex_colour)
    assert below.max() < 0.1, "pin pixels below the tip"
    # The head's centre is PIN_HEIGHT - (PIN_HEAD_RADIUS + 0.5) = 28.5 px above the tip:
    # the pixel row ty - 29 runs through it.
    head_y = ty - math.ceil(PIN_HEIGHT - PIN_HEAD_RADIUS - 0.5)
    assert (img[head_y, tx - 1 : tx + 1] > 235).all(), "no white dot in the pin head"
    mask = colour_mask(img, hex_colour) & (np.abs(img - background).max(axis=2) > 24)
    for dx, dy in ((-40, -20), (40, -20), (0, -70), (0, 25)):
        yy, xx = ty + dy, tx + dx
        if 0 <= yy < mask.shape[0] and 0 <= xx < mask.shape[1]:
            assert not mask[yy, xx], f"pin pixels at offset {(dx, dy)} from the tip"
