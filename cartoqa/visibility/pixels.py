"""Pixel primitives on image arrays: PNG decoding, colour and ink masks, counting.

Pure functions of numpy arrays (``(h, w, 3)`` int16 RGB images, ``(h, w)`` boolean
masks); nothing here knows about maps or features.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw

BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int16]

#: A pixel is ink where screenshot and reference differ by more than this (0-255).
INK_MIN_DIFF = 40
#: Largest RGB distance of a pixel from a paint-over-background mix (see blend_mask).
BLEND_MAX_RESIDUAL = 30.0


def true_pixels(mask: BoolArray) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """``np.nonzero`` of a 2-D mask, ``(ys, xs)`` in row order, read through the flat
    array (several times faster than numpy's 2-D ``nonzero`` on a view-sized mask).

    Examples
    --------
    >>> m = np.zeros((2, 3), bool); m[0, 2] = m[1, 0] = True
    >>> [a.tolist() for a in true_pixels(m)]
    [[0, 1], [2, 0]]
    """
    ys, xs = np.divmod(np.flatnonzero(mask), mask.shape[1])
    return ys, xs


def _over_white(rgba: Image.Image) -> IntArray:
    if rgba.getchannel("A").getextrema() == (255, 255):
        # opaque (a screenshot, a map drawn on its land colour): compositing over
        # white gives the same pixels, so it is skipped
        return np.asarray(rgba.convert("RGB"), dtype=np.int16)
    white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    rgb = Image.alpha_composite(white, rgba).convert("RGB")
    return np.asarray(rgb, dtype=np.int16)


def decode_png(png: bytes) -> IntArray:
    """Decode PNG bytes to an ``(h, w, 3)`` int16 RGB array (alpha over white)."""
    with Image.open(io.BytesIO(png)) as im:
        if im.mode == "RGB" and "transparency" not in im.info:
            # opaque (a browser's screenshot): alpha over white changes nothing
            return np.asarray(im, dtype=np.int16)
        return _over_white(im.convert("RGBA"))


def rgba_over_white(rgba: NDArray[np.uint8]) -> IntArray:
    """:func:`decode_png` of pixels not encoded: ``(h, w, 4)`` uint8 RGBA (straight
    alpha) to an ``(h, w, 3)`` int16 RGB array, alpha over white.

    Examples
    --------
    >>> px = np.array([[[10, 20, 30, 255], [0, 0, 0, 0]]], np.uint8)
    >>> rgba_over_white(px).tolist()
    [[[10, 20, 30], [255, 255, 255]]]
    """
    return _over_white(Image.fromarray(np.ascontiguousarray(rgba, dtype=np.uint8), "RGBA"))


def hex_rgb(colour: str) -> tuple[int, int, int]:
    """``"#rrggbb"`` to an RGB tuple.

    Examples
    --------
    >>> hex_rgb("#0092da")
    (0, 146, 218)
    """
    c = colour.lstrip("#")
    return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16))


def colour_mask(image: IntArray, colour: str, tolerance: float, *,
                where: BoolArray | None = None) -> BoolArray:
    """Pixels within ``tolerance`` (RGB Euclidean distance) of a colour.

    Parameters
    ----------
    image : array
        ``(h, w, 3)`` RGB.
    colour : str
        ``"#rrggbb"``.
    tolerance : float
        Largest distance that matches.
    where : array of bool, optional
        Only these pixels are tested (the rest are False); much faster for sparse masks.

    Examples
    --------
    >>> im = np.array([[[0, 146, 218], [255, 255, 255]]], np.int16)
    >>> colour_mask(im, "#0092da", 10).tolist()
    [[True, False]]
    """
    ref = np.array(hex_rgb(colour), dtype=np.int32)
    if where is None:
        # squared distance summed channel by channel in int32 (what an einsum over the
        # channel axis adds up, several times faster on a whole view)
        total = np.zeros(image.shape[:2], dtype=np.int32)
        for channel in range(image.shape[2]):
            d = image[..., channel].astype(np.int32) - ref[channel]
            d *= d
            total += d
        return np.asarray(total <= tolerance * tolerance)
    out = np.zeros(image.shape[:2], dtype=bool)
    ys, xs = np.nonzero(where)
    d = image[ys, xs].astype(np.int32) - ref
    out[ys, xs] = np.einsum("ij,ij->i", d, d) <= tolerance * tolerance
    return out


def blend_mask(screen: IntArray, background: IntArray, colour: str, *, where: BoolArray,
               min_alpha: float, max_residual: float = BLEND_MAX_RESIDUAL) -> BoolArray:
    """Ink pixels that are ``colour`` painted over ``background`` with some coverage.

    Anti-aliased glyphs and icon edges mix the paint with what is under it: a pixel
    ``p`` over background ``b`` is ``b + a (c - b)`` for paint ``c`` and coverage
    ``a``. A pixel matches when its best ``a`` is at least ``min_alpha`` and it lies
    within ``max_residual`` of that mix.

    Parameters
    ----------
    screen, background : array
        ``(h, w, 3)`` RGB images.
    colour : str
        The paint, ``"#rrggbb"``.
    where : array of bool
        Pixels to test (the ink mask).
    min_alpha : float
        Least coverage that counts.
    max_residual : float
        Largest distance (RGB) from the mix.

    Examples
    --------
    >>> bg = np.full((1, 3, 3), 240, np.int16)
    >>> sc = bg.copy(); sc[0, 0] = (174, 101, 0); sc[0, 1] = (207, 170, 120)
    >>> sc[0, 2] = (30, 30, 30)
    >>> blend_mask(sc, bg, "#ae6500", where=np.ones((1, 3), bool), min_alpha=0.4).tolist()
    [[True, True, False]]
    """
    out = np.zeros(screen.shape[:2], dtype=bool)
    ys, xs = true_pixels(where)
    if len(ys) == 0:
        return out
    out[ys, xs] = _blend_ok(screen[ys, xs], background[ys, xs], colour, min_alpha=min_alpha,
                            max_residual=max_residual)
    return out


def halo_blend_mask(screen: IntArray, reference: IntArray, colour: str, *, where: BoolArray,
                    min_alpha: float, max_residual: float = BLEND_MAX_RESIDUAL) -> BoolArray:
    """Label ink: ``blend_mask(screen, halo_background(reference), ...)``, the same
    pixels, with the halo computed only where ``where`` is set (a view's ink is a few
    percent of it).

    Parameters
    ----------
    screen, reference : array
        ``(h, w, 3)`` screenshot and label-free reference.
    colour, where, min_alpha, max_residual
        As for :func:`blend_mask`.

    Examples
    --------
    >>> ref = np.full((1, 3, 3), 240, np.int16); sc = ref.copy(); sc[0, 1] = (0, 0, 0)
    >>> where = np.ones((1, 3), bool)
    >>> halo_blend_mask(sc, ref, "#000000", where=where, min_alpha=0.5).tolist()
    [[False, True, False]]
    """
    out = np.zeros(screen.shape[:2], dtype=bool)
    ys, xs = true_pixels(where)
    if len(ys) == 0:
        return out
    out[ys, xs] = _blend_ok(screen[ys, xs], halo_background(reference[ys, xs]), colour,
                            min_alpha=min_alpha, max_residual=max_residual)
    return out


def _blend_ok(screen_px: IntArray, background_px: IntArray, colour: str, *,
              min_alpha: float, max_residual: float) -> NDArray[np.bool_]:
    """:func:`blend_mask`'s test of ``(n, 3)`` pixels over their ``(n, 3)`` backgrounds."""
    p = screen_px.astype(np.float64)
    b = background_px.astype(np.float64)
    d = np.array(hex_rgb(colour), dtype=np.float64) - b
    denom = np.maximum(np.einsum("ij,ij->i", d, d), 1.0)
    a = np.einsum("ij,ij->i", p - b, d) / denom
    resid = p - b - a[:, None] * d
    return np.asarray((a >= min_alpha) & (a <= 1.25)
                      & (np.einsum("ij,ij->i", resid, resid) <= max_residual * max_residual))


def halo_background(reference: IntArray) -> IntArray:
    """What label text is painted over: OSM-Carto's 60 % white halo on the map.

    Pixel by pixel, so it applies as well to an ``(n, 3)`` array of chosen pixels.
    """
    return np.asarray(np.round(0.4 * reference + 0.6 * 255.0), dtype=np.int16)


def ink_mask(screen: IntArray, reference: IntArray, *, min_diff: int = INK_MIN_DIFF,
             exclude: BoolArray | None = None) -> BoolArray:
    """Pixels where the screenshot differs from the label-free reference.

    Parameters
    ----------
    screen, reference : array
        ``(h, w, 3)`` RGB images of the same view.
    min_diff : int
        Largest channel difference that still counts as "the same".
    exclude : array of bool, optional
        Pixels to leave out (markers, path, controls).

    Returns
    -------
    array of bool
        ``(h, w)`` ink mask.

    Examples
    --------
    >>> a = np.zeros((2, 2, 3), np.int16); b = a.copy(); b[0, 1] = 200
    >>> ink_mask(b, a).tolist()
    [[False, True], [False, False]]
    """
    delta = np.abs(screen - reference)
    # any channel over min_diff (the channels' maximum over it), one channel at a time:
    # a maximum over the short last axis is several times slower
    diff = delta[..., 0] > min_diff
    for channel in range(1, delta.shape[2]):
        diff |= delta[..., channel] > min_diff
    if exclude is not None:
        diff &= ~exclude
    return np.asarray(diff)


#: Largest number of template-sized windows times template pixels for which
#: :func:`iou_map` counts directly (beyond it, by FFT).
IOU_DIRECT_MAX_WORK = 4_000_000


def iou_map(mask: BoolArray, template: BoolArray) -> NDArray[np.float64]:
    """Intersection over union of ``template`` with ``mask`` at every placement.

    Element ``[y, x]`` compares the template with the mask window whose top-left
    corner is ``(x, y)``; placements running off the mask are not computed
    (the result is ``(H - h + 1, W - w + 1)``). Values are rounded to 6 decimals.

    Small inputs (the icon search's crops) are counted exactly, pixel by pixel; large
    ones, and any map where an exact value sits on a rounding tie (where the FFT's
    last-bit error decides which way it rounds), go through the FFT correlation the
    function always used, so the result is the same either way.

    Examples
    --------
    >>> m = np.zeros((4, 4), bool); m[1:3, 1:3] = True
    >>> float(iou_map(m, np.ones((2, 2), bool))[1, 1])
    1.0
    """
    counted = _counted_iou(mask, template)
    if counted is None or counted[1].any():  # too large, or a tie: keep the FFT's side
        return _iou_map_fft(mask, template)
    return _rounded(counted[0])


def best_iou_placement(mask: BoolArray, template: BoolArray, *,
                       floor: float = 0.0) -> tuple[int, float]:
    """Where :func:`iou_map` is largest: the flat index of its first maximum, and the value.

    The same as ``np.argmax`` and ``max`` of the map, but rounding ties (see
    :func:`iou_map`) need no FFT when they are too small to reach the maximum, or
    when every placement is surely below ``floor`` (a caller that drops a best under
    ``floor`` then gets some placement under it, not necessarily the map's).

    Examples
    --------
    >>> m = np.zeros((4, 4), bool); m[1:3, 1:3] = True
    >>> best_iou_placement(m, np.ones((2, 2), bool))
    (4, 1.0)
    """
    counted = _counted_iou(mask, template)
    if counted is None:
        scores = _iou_map_fft(mask, template)
    else:
        direct, tie = counted
        scores = _rounded(direct)
        # a tie rounds either way; it cannot matter when every placement is surely below
        # the floor (the caller drops the best), or when it stays below the others' best
        if tie.any() and float(direct.max()) + 2e-6 >= floor:
            top = float(scores[~tie].max()) if not tie.all() else -1.0
            if float(direct[tie].max()) + 2e-6 < top:
                scores[tie] = -1.0
            else:
                scores = _iou_map_fft(mask, template)
    k = int(np.argmax(scores))
    return k, float(scores.flat[k])


def _counted_iou(mask: BoolArray, template: BoolArray
                 ) -> tuple[NDArray[np.float64], NDArray[np.bool_]] | None:
    """The exact IoU map (not rounded) and where it sits on a tie of the 6-decimal rounding,
    or ``None`` when the inputs are too large (or empty) to count directly."""
    (big_h, big_w), (h, w) = mask.shape, template.shape
    windows = (big_h - h + 1) * (big_w - w + 1)
    if h == 0 or w == 0 or big_h < h or big_w < w or windows * h * w > IOU_DIRECT_MAX_WORK:
        return None
    direct = _iou_direct(mask, template)
    scaled = direct * 1e6
    return direct, np.asarray(np.abs(scaled - np.floor(scaled) - 0.5) < 1e-6)


def _rounded(iou: NDArray[np.float64]) -> NDArray[np.float64]:
    """IoU values as :func:`iou_map` gives them: rounded to 6 decimals, within 0..1."""
    return np.asarray(np.clip(np.round(iou, 6), 0.0, 1.0))


def _iou_direct(mask: BoolArray, template: BoolArray) -> NDArray[np.float64]:
    """:func:`iou_map` from exact integer counts, not rounded."""
    h, w = template.shape
    # intersections: each window against the template (integers, exact in float64)
    windows = np.lib.stride_tricks.sliding_window_view(mask, (h, w))
    oh, ow = windows.shape[:2]
    inter = (windows.reshape(oh * ow, h * w) @ template.reshape(h * w).astype(np.float64)
             ).reshape(oh, ow)
    # ink per window from the summed-area table
    table = np.zeros((mask.shape[0] + 1, mask.shape[1] + 1), dtype=np.int64)
    np.cumsum(np.cumsum(mask, axis=0), axis=1, out=table[1:, 1:])
    ink = table[h:, w:] - table[:-h, w:] - table[h:, :-w] + table[:-h, :-w]
    union = float(template.sum()) + ink - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(np.where(union > 0, inter / np.maximum(union, 1e-9), 0.0))


def _iou_map_fft(mask: BoolArray, template: BoolArray) -> NDArray[np.float64]:
    """:func:`iou_map` by FFT correlation (its formula before the direct count)."""
    # imported here: scipy.signal costs about 1.5 CPU seconds to import, which a build
    # whose tasks match no icon (or a --workers builder) need not pay
    from scipy.signal import fftconvolve

    t = template.astype(np.float64)
    m = mask.astype(np.float64)
    inter = fftconvolve(m, t[::-1, ::-1], mode="valid")
    window = fftconvolve(m, np.ones_like(t), mode="valid")
    union = t.sum() + window - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(union > 0, inter / np.maximum(union, 1e-9), 0.0)
    return _rounded(out)


def count_in_box(mask: BoolArray, x0: float, y0: float, x1: float, y1: float) -> int:
    """True pixels of ``mask`` inside a box (clipped to the image)."""
    h, w = mask.shape
    a, b = max(0, math.floor(x0)), min(w, math.ceil(x1))
    c, d = max(0, math.floor(y0)), min(h, math.ceil(y1))
    if a >= b or c >= d:
        return 0
    return int(mask[c:d, a:b].sum())


def line_mask(shape: tuple[int, int], lines: Iterable[Sequence[tuple[float, float]]],
              *, radius: float) -> BoolArray:
    """Pixels within about ``radius`` of polylines given in view pixels."""
    im = Image.new("L", (shape[1], shape[0]), 0)
    draw = ImageDraw.Draw(im)
    width = max(1, round(2 * radius + 1))
    for line in lines:
        pts = [(float(x), float(y)) for x, y in line]
        if len(pts) >= 2:
            draw.line(pts, fill=255, width=width, joint="curve")
        for x, y in pts:
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=255)
    return np.asarray(im) > 0


def polygon_mask(shape: tuple[int, int], rings: Iterable[Sequence[tuple[float, float]]],
                 holes: Iterable[Sequence[tuple[float, float]]] = ()) -> BoolArray:
    """Pixels inside polygons given in view pixels."""
    im = Image.new("L", (shape[1], shape[0]), 0)
    draw = ImageDraw.Draw(im)
    for ring in rings:
        if len(ring) >= 3:
            draw.polygon([(float(x), float(y)) for x, y in ring], fill=255)
    for ring in holes:
        if len(ring) >= 3:
            draw.polygon([(float(x), float(y)) for x, y in ring], fill=0)
    return np.asarray(im) > 0
