"""Pixel checks shared by the renderer tests: where a pin's tip is in a screenshot."""

from __future__ import annotations

import io
import math

import numpy as np
from PIL import Image

from renderers.markers import PIN_HEAD_RADIUS, PIN_HEIGHT


def to_array(png: bytes) -> np.ndarray:
    """Decode a PNG to an ``(h, w, 3)`` float array."""
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=float)


def rgb(hex_colour: str) -> np.ndarray:
    """``#rrggbb`` as a float array."""
    return np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)], dtype=float)


def colour_mask(img: np.ndarray, hex_colour: str, tol: float = 60.0) -> np.ndarray:
    """Pixels within ``tol`` (Euclidean RGB) of a colour."""
    return np.asarray(np.linalg.norm(img - rgb(hex_colour), axis=2) < tol)


def assert_pin_tip_at(mask: np.ndarray, img: np.ndarray, tip: tuple[float, float]) -> None:
    """Check that the pin in ``mask`` has its tip at view pixel ``tip``.

    ``mask`` marks the pin's pixels. Leaflet draws the tip at the pixel corner
    ``round(tip)``: the pin must end 1-4 rows above it (the point thins out below
    one pixel), nothing of it may lie below, it must be centred on the corner, and
    the white dot of its head must be 28.5 px above it. Raises AssertionError.
    """
    tx, ty = round(tip[0]), round(tip[1])
    window = mask[ty - 50 : ty + 10, tx - 30 : tx + 30]
    rows, cols = np.nonzero(window)
    assert rows.size > 200, f"no pin near {tip}"
    lowest = ty - 50 + rows.max()
    assert ty - 4 <= lowest <= ty - 1, f"the pin ends at row {lowest}, the tip is at {ty}"
    assert not mask[ty : ty + 10, tx - 30 : tx + 30].any(), "pin pixels below the tip"
    # Symmetric about the corner tx: pixel indices average to tx - 0.5.
    centre = tx - 30 + cols.mean()
    assert abs(centre - (tx - 0.5)) <= 0.6, f"the pin is centred at {centre}, tip at {tx}"
    # The head's centre is PIN_HEIGHT - (PIN_HEAD_RADIUS + 0.5) = 28.5 px above the tip:
    # the pixel row ty - 29 runs through it.
    head_y = ty - math.ceil(PIN_HEIGHT - PIN_HEAD_RADIUS - 0.5)
    assert (img[head_y, tx - 1 : tx + 1] > 235).all(), "no white dot in the pin head"
    for dx, dy in ((-40, -20), (40, -20), (0, -70), (0, 25)):
        y, x = ty + dy, tx + dx
        if 0 <= y < mask.shape[0] and 0 <= x < mask.shape[1]:
            assert not mask[y, x], f"pin pixels at offset {(dx, dy)} from the tip"
