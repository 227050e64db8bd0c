"""A finished map's pixels, decoded once for the several checks that read them.

A FRIEDA render measures every overlay's visible share on the finished PNG
(:func:`renderers.frieda_map.pixel_visible_share`) and the build counts each legend
category's pixels on it (:func:`renderers.legend_layer.category_pixels`): before
frieda29e each call decoded the PNG again and measured colour distances in floating
point over the whole image (a fifth of a small build's time). :func:`rgb_pixels`
keeps the last few decoded images, by the identity of their bytes, and
:func:`near_colour` compares squared integer distances, which decides exactly as the
float norm did: for an integer sum of squares ``s`` and a tolerance ``t`` with an
integer square, ``sqrt(s) <= t`` exactly when ``s <= t * t`` (the square root is
correctly rounded).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np
from PIL import Image

#: Decoded images kept (the bytes object and its pixels), newest last.
_KEPT: list[tuple[bytes, np.ndarray]] = []
_KEEP = 4


def rgb_pixels(png: bytes) -> np.ndarray:
    """The image's RGB pixels as a read-only ``int32`` array (height, width, 3).

    Examples
    --------
    >>> buf = io.BytesIO(); Image.new("RGB", (3, 2), (10, 20, 30)).save(buf, format="PNG")
    >>> png = buf.getvalue()
    >>> a = rgb_pixels(png); a.shape, a[0, 0].tolist(), rgb_pixels(png) is a
    ((2, 3, 3), [10, 20, 30], True)
    """
    for kept, pixels in _KEPT:
        if kept is png:
            return pixels
    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int32)
    pixels.setflags(write=False)
    _KEPT.append((png, pixels))
    del _KEPT[:-_KEEP]
    return pixels


def near_colour(pixels: np.ndarray, rgb: Sequence[int] | np.ndarray,
                tolerance: float) -> np.ndarray:
    """Which pixels lie within ``tolerance`` (Euclidean, in RGB) of a colour.

    Examples
    --------
    >>> px = np.array([[[0, 0, 0], [60, 0, 0], [60, 1, 0]]], dtype=np.int32)
    >>> near_colour(px, (0, 0, 0), 60.0).tolist()
    [[True, True, False]]
    """
    diff = pixels - np.asarray(rgb, dtype=np.int32)
    return np.einsum("...k,...k->...", diff, diff) <= tolerance * tolerance
