"""Pixel primitives (cartoqa.visibility.pixels) against their slower first versions.

The ink mask reads the channels one at a time and an opaque image is not composited
over white: both must give the arrays of the versions kept in helpers.written_before,
on random images, for translucent PNGs as for opaque ones.
"""

from __future__ import annotations

import io

import numpy as np
from helpers.written_before import decode_png_before, ink_mask_before
from PIL import Image

from cartoqa.visibility.pixels import decode_png, ink_mask, rgba_over_white, true_pixels


def _png(pixels: np.ndarray, mode: str) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(pixels, mode).save(buf, "PNG")
    return buf.getvalue()


def test_ink_mask_equals_the_channel_maximum() -> None:
    rng = np.random.default_rng(20261202)
    for _ in range(40):
        h, w = int(rng.integers(1, 60)), int(rng.integers(1, 60))
        screen = rng.integers(0, 256, (h, w, 3)).astype(np.int16)
        # mostly near the screen (differences around the threshold), some far
        reference = np.clip(screen + rng.integers(-60, 61, (h, w, 3)), 0, 255).astype(np.int16)
        for min_diff in (0, 40, 59):
            new = ink_mask(screen, reference, min_diff=min_diff)
            assert new.dtype == bool
            assert np.array_equal(new, ink_mask_before(screen, reference, min_diff=min_diff))
    one = np.zeros((1, 3, 3), np.int16)
    other = one.copy()
    other[0, 1, 2] = 41   # only the last channel differs enough
    other[0, 2, 0] = -41  # a difference counts either way
    assert ink_mask(other, one).tolist() == [[False, True, True]]


def test_decoding_skips_compositing_only_where_it_changes_nothing() -> None:
    rng = np.random.default_rng(5)
    rgb = rng.integers(0, 256, (17, 23, 3)).astype(np.uint8)
    rgba = np.concatenate([rgb, np.full((17, 23, 1), 255, np.uint8)], axis=2)
    see_through = rgba.copy()
    see_through[3:9, 4:12, 3] = rng.integers(0, 255, (6, 8))
    for png in (_png(rgb, "RGB"), _png(rgba, "RGBA"), _png(see_through, "RGBA")):
        assert np.array_equal(decode_png(png), decode_png_before(png))
    assert np.array_equal(decode_png(_png(rgb, "RGB")), rgb.astype(np.int16))
    # a translucent pixel is still blended over white; an opaque array is unchanged
    blended = decode_png(_png(see_through, "RGBA"))
    assert not np.array_equal(blended, rgb.astype(np.int16))
    assert np.array_equal(rgba_over_white(rgba), rgb.astype(np.int16))
    assert np.array_equal(rgba_over_white(see_through), blended)
    # an RGB PNG with a transparent colour (tRNS) goes through the compositing
    buf = io.BytesIO()
    Image.fromarray(rgb, "RGB").save(buf, "PNG", transparency=tuple(int(c) for c in rgb[0, 0]))
    assert np.array_equal(decode_png(buf.getvalue()), decode_png_before(buf.getvalue()))
    assert decode_png(buf.getvalue())[0, 0].tolist() == [255, 255, 255]


def test_true_pixels_equal_numpys_nonzero() -> None:
    rng = np.random.default_rng(11)
    for _ in range(30):
        mask = rng.random((int(rng.integers(1, 50)), int(rng.integers(1, 80)))) < rng.random()
        for view in (mask, mask[1:, ::2], mask.T):  # contiguous or not
            ys, xs = true_pixels(view)
            want_ys, want_xs = np.nonzero(view)
            assert np.array_equal(ys, want_ys) and np.array_equal(xs, want_xs)
    assert [a.tolist() for a in true_pixels(np.zeros((3, 4), bool))] == [[], []]
