"""The cheaper icon search gives what the old formulas gave, to the bit.

Issue 32 made the view analysis cheaper: the 3x3 grouping dilation as shifted ORs
(:func:`cartoqa.visibility.icons.grow_3x3`), grouped once per mask content
(:func:`cartoqa.visibility.icons.ink_groups`), crops of the zero-padded mask without padding
it (:func:`cartoqa.visibility.icons.padded_crop`), the IoU map from exact counts
(:func:`cartoqa.visibility.pixels.iou_map`) and the label halo only where ink is
(:func:`cartoqa.visibility.pixels.halo_blend_mask`); whole-view colour masks
add the squared distance channel by channel (:func:`cartoqa.visibility.pixels.colour_mask`).
Each is checked here against the formula it replaced, kept below as the oracle (scipy's
dilation, ``np.pad``, the FFT correlation, ``blend_mask`` over ``halo_background``, the
einsum of the colour distance), on random masks and on the real
Mapnik icon ink of ``data/icons_on_land.png`` stamped across a view-sized mask.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from scipy import ndimage
from scipy.signal import fftconvolve

from cartoqa.visibility import icons
from cartoqa.visibility.icons import (
    ICON_MIN_ALPHA,
    ICON_MIN_IOU,
    ICON_SEARCH_PX,
    best_iou_at,
    find_icons,
    grow_3x3,
    icon_template,
    ink_groups,
    padded_crop,
)
from cartoqa.visibility.pixels import (
    best_iou_placement,
    blend_mask,
    colour_mask,
    decode_png,
    halo_background,
    halo_blend_mask,
    hex_rgb,
    ink_mask,
    iou_map,
)

DATA = Path(__file__).with_name("data")
LAND = "#f2efe9"


# --- the old formulas (main at 832593a), the oracles --------------------------------------

def old_iou_map(mask: np.ndarray, template: np.ndarray) -> np.ndarray:
    t = template.astype(np.float64)
    m = mask.astype(np.float64)
    inter = fftconvolve(m, t[::-1, ::-1], mode="valid")
    window = fftconvolve(m, np.ones_like(t), mode="valid")
    union = t.sum() + window - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(union > 0, inter / np.maximum(union, 1e-9), 0.0)
    return np.clip(np.round(out, 6), 0.0, 1.0)


def old_find_icons(mask: np.ndarray, template: np.ndarray, *, min_iou: float = ICON_MIN_IOU,
                   search: int = ICON_SEARCH_PX,
                   centres: Sequence[tuple[float, float]] = ()) -> list[tuple[float, float, float]]:
    h, w = template.shape
    if not mask.any():
        return []
    grouped = ndimage.binary_dilation(mask, structure=np.ones((3, 3), bool))
    labels, _n = ndimage.label(grouped, structure=np.ones((3, 3), bool))
    need = 0.4 * float(template.sum())
    tries: list[tuple[float, float]] = list(centres)
    for idx, sl in enumerate(ndimage.find_objects(labels), start=1):
        if sl is None:
            continue
        blob = (labels[sl] == idx) & mask[sl]
        if blob.sum() < need or blob.shape[0] > 3 * h + 2 or blob.shape[1] > 3 * w + 2:
            continue
        tries.append(((sl[1].start + sl[1].stop) / 2.0, (sl[0].start + sl[0].stop) / 2.0))
    padded = np.pad(mask, search + max(h, w))
    off = search + max(h, w)
    found: list[tuple[float, float, float]] = []
    for cx, cy in tries:
        x0 = round(cx - w / 2.0) - search
        y0 = round(cy - h / 2.0) - search
        if x0 + w + 2 * search < 0 or y0 + h + 2 * search < 0 or \
                x0 > mask.shape[1] or y0 > mask.shape[0]:
            continue
        crop = padded[y0 + off:y0 + off + h + 2 * search, x0 + off:x0 + off + w + 2 * search]
        if crop.shape[0] < h or crop.shape[1] < w or not crop.any():
            continue
        scores = old_iou_map(crop, template)
        k = int(np.argmax(scores))
        best = float(scores.flat[k])
        if best >= min_iou:
            dy, dx = divmod(k, scores.shape[1])
            found.append((x0 + dx + w / 2.0, y0 + dy + h / 2.0, best))
    found.sort(key=lambda t: -t[2])
    out: list[tuple[float, float, float]] = []
    for x, y, sc in found:
        if all(abs(x - ox) >= w / 2 or abs(y - oy) >= h / 2 for ox, oy, _ in out):
            out.append((x, y, sc))
    return out


def old_best_iou_at(mask: np.ndarray, template: np.ndarray, cx: float, cy: float, *,
                    search: int = ICON_SEARCH_PX) -> float:
    h, w = template.shape
    off = search + max(h, w)
    padded = np.pad(mask, off)
    x0 = round(cx - w / 2.0) - search
    y0 = round(cy - h / 2.0) - search
    crop = padded[max(0, y0 + off):max(0, y0 + off + h + 2 * search),
                  max(0, x0 + off):max(0, x0 + off + w + 2 * search)]
    if crop.shape[0] < h or crop.shape[1] < w or not crop.any():
        return 0.0
    return float(old_iou_map(crop, template).max())


# --- masks ----------------------------------------------------------------------------

def real_icon_ink() -> np.ndarray:
    """The pharmacy and bank icons' ink as Mapnik drew them (48 x 96)."""
    screen = decode_png((DATA / "icons_on_land.png").read_bytes())
    reference = np.empty_like(screen)
    reference[...] = hex_rgb(LAND)
    ink = ink_mask(screen, reference)
    return np.asarray(ink)


def stamped_view(rng: np.random.Generator, shape: tuple[int, int] = (300, 400),
                 stamps: int = 12, noise: float = 0.002) -> np.ndarray:
    """A view-sized mask: real icon ink at random places (some over an edge), plus specks."""
    ink = real_icon_ink()
    out = rng.random(shape) < noise
    for _ in range(stamps):
        piece = ink[:, :48] if rng.random() < 0.5 else ink[:, 48:]
        if rng.random() < 0.3:  # a damaged icon: some of its pixels lost
            piece = piece & (rng.random(piece.shape) < 0.8)
        y = int(rng.integers(-30, shape[0] - 10))
        x = int(rng.integers(-30, shape[1] - 10))
        ys, xs = np.nonzero(piece)
        keep = (ys + y >= 0) & (ys + y < shape[0]) & (xs + x >= 0) & (xs + x < shape[1])
        out[ys[keep] + y, xs[keep] + x] = True
    return out


def templates() -> list[np.ndarray]:
    out = []
    for name in ("pharmacy", "bank"):
        t = icon_template(name)
        assert t is not None
        out.append(t)
    return out


# --- the tests ------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(1, 1), (1, 7), (6, 1), (2, 2), (17, 23), (64, 48)])
def test_grow_3x3_is_scipys_3x3_dilation(shape: tuple[int, int]) -> None:
    rng = np.random.default_rng(sum(shape))
    for density in (0.0, 0.01, 0.1, 0.5, 1.0):
        m = rng.random(shape) < density
        old = ndimage.binary_dilation(m, structure=np.ones((3, 3), bool))
        assert np.array_equal(grow_3x3(m), old)


def test_grow_3x3_on_real_icon_ink() -> None:
    m = stamped_view(np.random.default_rng(1))
    assert np.array_equal(grow_3x3(m), ndimage.binary_dilation(m, np.ones((3, 3), bool)))


def test_padded_crop_is_a_slice_of_the_padded_mask() -> None:
    rng = np.random.default_rng(2)
    for _ in range(2000):
        h, w = (int(v) for v in rng.integers(1, 12, 2))
        pad = int(rng.integers(0, 6))
        m = rng.random((h, w)) < 0.5
        padded = np.pad(m, pad)
        a, b = (int(v) for v in rng.integers(-25, 25, 2))
        c, d = (int(v) for v in rng.integers(-25, 25, 2))
        got = padded_crop(m, pad, slice(a, b), slice(c, d))
        assert np.array_equal(got, padded[a:b, c:d]), (h, w, pad, a, b, c, d)


def test_iou_map_is_the_fft_formula_on_random_crops() -> None:
    rng = np.random.default_rng(3)
    for _ in range(1500):
        h, w = (int(v) for v in rng.integers(1, 24, 2))
        t = rng.random((h, w)) < rng.random()
        extra = rng.integers(0, 10, 2)
        m = rng.random((h + int(extra[0]), w + int(extra[1]))) < rng.random()
        assert np.array_equal(iou_map(m, t), old_iou_map(m, t))


def test_iou_map_on_a_rounding_tie_is_the_fft_formula() -> None:
    # a template of 128 pixels and a window holding one of them: 1/128 = 0.0078125
    # exactly, half-way between two 6-decimal values
    t = np.ones((8, 16), bool)
    m = np.zeros((10, 18), bool)
    m[0, 0] = True
    assert np.array_equal(iou_map(m, t), old_iou_map(m, t))
    scores = old_iou_map(m, t)
    assert best_iou_placement(m, t) == (int(np.argmax(scores)), float(scores.max()))
    rng = np.random.default_rng(4)
    for _ in range(300):
        m = rng.random((12, 20)) < 0.05
        m[1:9, 2:18] |= rng.random((8, 16)) < rng.random()  # ties below and at the best
        assert np.array_equal(iou_map(m, t), old_iou_map(m, t))
        scores = old_iou_map(m, t)
        assert best_iou_placement(m, t) == (int(np.argmax(scores)), float(scores.max()))


def test_iou_map_on_real_icon_crops_and_a_large_mask() -> None:
    rng = np.random.default_rng(5)
    view = stamped_view(rng)
    for t in templates():
        h, w = t.shape
        for _ in range(200):
            y, x = int(rng.integers(0, 300 - h - 8)), int(rng.integers(0, 400 - w - 8))
            crop = view[y:y + h + 8, x:x + w + 8]
            assert np.array_equal(iou_map(crop, t), old_iou_map(crop, t))
        # beyond the direct count's size: the FFT path
        assert np.array_equal(iou_map(view, t), old_iou_map(view, t))


@pytest.mark.parametrize("seed", range(8))
def test_find_icons_and_best_iou_at_are_the_old_search_on_real_ink(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    view = stamped_view(rng, noise=0.001 * seed)
    for t in templates():
        centres = [(float(x), float(y)) for x, y in
                   zip(rng.uniform(-40, 440, 10), rng.uniform(-40, 340, 10), strict=True)]
        for min_iou in (ICON_MIN_IOU, 0.3):
            got = find_icons(view, t, min_iou=min_iou, centres=centres)
            assert got == old_find_icons(view, t, min_iou=min_iou, centres=centres)
        assert find_icons(view, t)  # the stamped icons are found
        for y in range(0, 300 - t.shape[0] - 8, 7):  # best placements, ties or not
            crop = view[y:y + t.shape[0] + 8, 100:100 + t.shape[1] + 8]
            scores = old_iou_map(crop, t)
            k = int(np.argmax(scores))
            assert best_iou_placement(crop, t) == (k, float(scores.flat[k]))
        for cx, cy in centres:
            assert best_iou_at(view, t, cx, cy) == old_best_iou_at(view, t, cx, cy)


def test_find_icons_on_random_masks() -> None:
    rng = np.random.default_rng(7)
    t = np.zeros((5, 5), bool)
    t[1:4, 2] = True
    t[2, 1:4] = True
    for _ in range(300):
        shape = (int(rng.integers(1, 40)), int(rng.integers(1, 40)))
        m = rng.random(shape) < rng.random() * 0.3
        centres = [(float(rng.uniform(-10, 50)), float(rng.uniform(-10, 50)))]
        assert find_icons(m, t, centres=centres) == old_find_icons(m, t, centres=centres)


def test_halo_blend_mask_is_blend_mask_over_the_halo() -> None:
    rng = np.random.default_rng(8)
    for colour in ("#000000", "#734a08", "#0092da", "#c77400"):
        reference = rng.integers(0, 256, (40, 60, 3)).astype(np.int16)
        screen = reference.copy()
        ink = rng.random((40, 60)) < 0.3
        paint = np.array(hex_rgb(colour), np.float64)
        alpha = rng.random((40, 60, 1))
        halo = halo_background(reference).astype(np.float64)
        mixed = np.round(halo + alpha * (paint - halo) + rng.normal(0, 8, (40, 60, 3)))
        screen[ink] = np.clip(mixed, 0, 255).astype(np.int16)[ink]
        for min_alpha in (0.2, ICON_MIN_ALPHA):
            old = blend_mask(screen, halo_background(reference), colour, where=ink,
                             min_alpha=min_alpha)
            got = halo_blend_mask(screen, reference, colour, where=ink, min_alpha=min_alpha)
            assert old.any() and np.array_equal(got, old)


def test_colour_mask_is_the_einsum_formula() -> None:
    rng = np.random.default_rng(9)
    image = rng.integers(0, 256, (50, 70, 3)).astype(np.int16)
    image[:10] = (170, 211, 223)  # some pixels of the colour itself
    image[10:12] = (170, 211, 247)  # and some exactly 24 from it
    for colour, tolerance in (("#aad3df", 24.0), ("#c8facc", 20.0), ("#000000", 300.0),
                              ("#ffffff", 0.0), ("#808080", 100.5)):
        ref = np.array(hex_rgb(colour), dtype=np.int32)
        d = image.astype(np.int32) - ref
        old = np.einsum("ijk,ijk->ij", d, d) <= tolerance * tolerance
        assert np.array_equal(colour_mask(image, colour, tolerance), old)
    assert colour_mask(image, "#aad3df", 24.0)[10:12].all()


def test_a_tie_below_the_floor_needs_no_fft(monkeypatch: pytest.MonkeyPatch) -> None:
    # a build's case: 51 of a 96-pixel icon's pixels and 32 stray ones, 51/128 = 0.3984375
    t = np.zeros((14, 14), bool)
    t.flat[:96] = True
    m = np.zeros((22, 22), bool)
    m[:14, :14] = t
    m.flat[np.flatnonzero(m)[51:]] = False  # 51 of the icon's pixels
    m[:14, :14].flat[96:128] = True  # 32 stray pixels in the window
    scores = old_iou_map(m, t)
    assert float(scores[0, 0]) in (0.398437, 0.398438) and scores.max() < ICON_MIN_IOU
    assert find_icons(m, t, centres=[(7.0, 7.0)]) == []

    def no_fft(*_args: object) -> None:
        raise AssertionError("FFT used")

    monkeypatch.setattr("cartoqa.visibility.pixels._iou_map_fft", no_fft)
    _k, best = best_iou_placement(m, t, floor=ICON_MIN_IOU)
    assert best < ICON_MIN_IOU
    assert find_icons(m, t, centres=[(7.0, 7.0)]) == old_find_icons(m, t, centres=[(7.0, 7.0)])


def test_groups_are_remembered_by_content_not_by_array() -> None:
    rng = np.random.default_rng(11)
    view = stamped_view(rng)
    t = templates()[0]
    assert find_icons(view, t) == old_find_icons(view, t)
    view[:, :200] = False  # the same array, other pixels: no stale groups
    assert find_icons(view, t) == old_find_icons(view, t)
    other = view.copy()  # another array, the same pixels: the same groups
    assert ink_groups(other) is ink_groups(view)
    for seed in range(20):  # many masks: the memory stays small, answers stay right
        m = stamped_view(np.random.default_rng(seed), shape=(80, 90), stamps=3)
        assert find_icons(m, t) == old_find_icons(m, t)
    assert len(icons._GROUPS) <= icons._GROUPS_KEPT
