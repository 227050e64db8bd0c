"""The pixel checks decide as before frieda29e's speed-up (issue 29/32): the integer
colour test equals the float norm, the visible share equals the whole-image measure,
and a drawing step's PNG at zlib level 0 decodes to the same pixels."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image
from shapely.geometry import LineString, Point, box

from renderers.compass import compose_turned
from renderers.frieda_map import PIXEL_COLOUR_TOLERANCE, _probe_mask, pixel_visible_share
from renderers.legend_layer import CATEGORY_TOLERANCE
from renderers.png_pixels import near_colour, rgb_pixels


def _png(pixels: np.ndarray, level: int = -1) -> bytes:
    out = io.BytesIO()
    Image.fromarray(pixels.astype(np.uint8), "RGB").save(out, format="PNG",
                                                       compress_level=level)
    return out.getvalue()


def _noisy(rng: np.random.Generator, h: int = 120, w: int = 160) -> np.ndarray:
    """An image whose pixels lie around a few colours, many at the tolerance's edge."""
    base = np.array([(255, 0, 0), (0, 0, 255), (240, 240, 240), (200, 30, 30)])
    pick = base[rng.integers(0, len(base), size=(h, w))]
    return np.clip(pick + rng.integers(-50, 51, size=(h, w, 3)), 0, 255)


@pytest.mark.parametrize("tolerance", [PIXEL_COLOUR_TOLERANCE, CATEGORY_TOLERANCE])
def test_the_integer_test_equals_the_float_norm(tolerance: float) -> None:
    rng = np.random.default_rng(0)
    px = _noisy(rng).astype(np.int32)
    for colour in ((255, 0, 0), (0, 0, 255), (215, 48, 39)):
        old = np.linalg.norm(px.astype(np.float64) - np.array(colour, dtype=np.float64),
                             axis=2) <= tolerance
        assert (near_colour(px, colour, tolerance) == old).all()
    # the edge itself: distance exactly the tolerance, and one step past it
    t = int(tolerance)
    edge = np.array([[[t, 0, 0], [t + 1, 0, 0], [36, 48, 0], [36, 49, 0]]], dtype=np.int32)
    old = np.linalg.norm(edge.astype(np.float64), axis=2) <= tolerance
    assert (near_colour(edge, (0, 0, 0), tolerance) == old).all()


def _old_share(png: bytes, geometry, kind: str, hex_colour: str) -> float:  # type: ignore[no-untyped-def]
    """The measure as it was: the whole image, in floating point."""
    from shapely import affinity

    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.float64)
    h, w = rgb.shape[:2]
    pad = 400
    probe = _probe_mask(affinity.translate(geometry, pad, pad), kind, w + 2 * pad, h + 2 * pad)
    total = int(probe.sum())
    if not total:
        return 0.0
    inside = probe[pad:pad + h, pad:pad + w]
    target = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)], dtype=np.float64)
    close = np.linalg.norm(rgb - target, axis=2) <= PIXEL_COLOUR_TOLERANCE
    return float((inside & close).sum() / total)


def test_visible_share_equals_the_whole_image_measure() -> None:
    rng = np.random.default_rng(1)
    png = _png(_noisy(rng))
    shapes = [(Point(40, 50), "point"), (Point(158, 2), "point"), (Point(-30, 50), "point"),
              (box(20, 20, 90, 100), "polygon"), (box(100, 60, 400, 300), "polygon"),
              (LineString([(0, 0), (80, 119), (200, 40)]), "line"),
              (LineString([(300, 300), (400, 400)]), "line")]
    for geometry, kind in shapes:
        for colour in ("#ff0000", "#0000ff", "#c81e1e"):
            assert pixel_visible_share(png, geometry, kind, colour) == \
                _old_share(png, geometry, kind, colour)


def test_decoded_pixels_are_kept_by_identity() -> None:
    rng = np.random.default_rng(2)
    a = _png(_noisy(rng, 8, 8))
    b = bytes(a)  # equal bytes, another object: decoded again, same pixels
    pa, pb = rgb_pixels(a), rgb_pixels(b)
    assert rgb_pixels(a) is pa and (pa == pb).all()
    assert not pa.flags.writeable


def test_a_step_png_at_level_0_holds_the_same_pixels() -> None:
    rng = np.random.default_rng(3)
    square = _png(_noisy(rng, 200, 200))
    fast, boxes = compose_turned(square, 30.0, width=120, height=80, controls={},
                                 compress_level=0)
    slow, same = compose_turned(square, 30.0, width=120, height=80, controls={})
    assert boxes == same and len(fast) > len(slow)
    assert (rgb_pixels(fast) == rgb_pixels(slow)).all()
    # and the finished map, encoded at the default level from either, is the same file
    assert _png(np.asarray(rgb_pixels(fast))) == _png(np.asarray(rgb_pixels(slow)))
