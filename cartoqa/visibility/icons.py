"""OSM-Carto icons: their templates as Mapnik draws them, and finding them in ink."""

from __future__ import annotations

import hashlib
import io
from collections import OrderedDict
from collections.abc import Sequence
from functools import cache

import numpy as np
from PIL import Image
from scipy import ndimage

from cartoqa.visibility.pixels import BoolArray, best_iou_placement
from groundtruth.catalogue import FeatureType, load_catalogue

#: Least coverage of an icon pixel (the templates keep pixels at least half covered).
ICON_MIN_ALPHA = 0.5
#: Least coverage of a faint icon (drawn at reduced opacity for restricted access).
ICON_FAINT_ALPHA = 0.15
#: Minimum intersection-over-union of icon template and ink for "drawn".
ICON_MIN_IOU = 0.6
#: A match below this (though at least ICON_MIN_IOU) is not clear enough to count: the
#: type is ambiguous on that map (a perfume bottle matched the clothes icon at 0.60-0.63).
ICON_CLEAR_IOU = 0.7
#: Another catalogue icon of the same colour matching the same spot within this much
#: of the match makes it unclear which type the icon is.
ICON_RIVAL_MARGIN = 0.15
#: Minimum IoU for an icon no data feature explains to count against the type.
ORPHAN_MIN_IOU = 0.85
#: How far (pixels) an icon may sit from the feature's projected pixel.
ICON_SEARCH_PX = 4
#: Unexplained icon detections closer than this to an undetected feature are
#: attributed to it (OSM-Carto anchors areas differently from the data's anchor).
ICON_ATTRIBUTE_PX = 30.0
#: Two icon detections closer than this (pixels) are the same icon.
ICON_SAME_PX = 7.0


def find_icons(mask: BoolArray, template: BoolArray, *, min_iou: float = ICON_MIN_IOU,
               search: int = ICON_SEARCH_PX,
               centres: Sequence[tuple[float, float]] = ()) -> list[tuple[float, float, float]]:
    """Icon placements in a colour-ink mask: ``(x, y, iou)`` of the icon centres.

    The template is tried around each given centre and around the centre of each
    group of mask pixels (pixels up to two apart are grouped, as icons have gaps),
    up to ``search`` pixels off, and kept where its intersection over union with the
    mask reaches ``min_iou``. Strongest first, at least half an icon apart.

    Examples
    --------
    >>> t = np.zeros((5, 5), bool); t[1:4, 2] = True; t[2, 1:4] = True  # a plus sign
    >>> m = np.zeros((20, 20), bool); m[8:13, 4:9] = t
    >>> [(x, y) for x, y, _ in find_icons(m, t)]
    [(6.5, 10.5)]
    """
    h, w = template.shape
    groups = ink_groups(mask)
    if not groups:
        return []
    need = 0.4 * float(template.sum())
    tries: list[tuple[float, float]] = list(centres)
    for y0, y1, x0, x1, pixels in groups:
        if pixels < need or y1 - y0 > 3 * h + 2 or x1 - x0 > 3 * w + 2:
            continue
        tries.append(((x0 + x1) / 2.0, (y0 + y1) / 2.0))
    off = search + max(h, w)
    found: list[tuple[float, float, float]] = []
    for cx, cy in tries:
        x0 = round(cx - w / 2.0) - search
        y0 = round(cy - h / 2.0) - search
        if x0 + w + 2 * search < 0 or y0 + h + 2 * search < 0 or \
                x0 > mask.shape[1] or y0 > mask.shape[0]:
            continue
        crop = padded_crop(mask, off, slice(y0 + off, y0 + off + h + 2 * search),
                           slice(x0 + off, x0 + off + w + 2 * search))
        if crop.shape[0] < h or crop.shape[1] < w or not crop.any():
            continue
        k, best = best_iou_placement(crop, template, floor=min_iou)
        if best >= min_iou:
            dy, dx = divmod(k, crop.shape[1] - w + 1)
            found.append((x0 + dx + w / 2.0, y0 + dy + h / 2.0, best))
    found.sort(key=lambda t: -t[2])
    out: list[tuple[float, float, float]] = []
    for x, y, sc in found:
        if all(abs(x - ox) >= w / 2 or abs(y - oy) >= h / 2 for ox, oy, _ in out):
            out.append((x, y, sc))
    return out


def best_iou_at(mask: BoolArray, template: BoolArray, cx: float, cy: float, *,
                search: int = ICON_SEARCH_PX) -> float:
    """Best IoU of ``template`` with ``mask`` centred within ``search`` px of ``(cx, cy)``.

    Examples
    --------
    >>> t = np.zeros((5, 5), bool); t[1:4, 2] = True; t[2, 1:4] = True  # a plus sign
    >>> m = np.zeros((20, 20), bool); m[8:13, 4:9] = t
    >>> best_iou_at(m, t, 7.5, 9.5), best_iou_at(m, np.ones((5, 5), bool), 6.5, 10.5)
    (1.0, 0.2)
    """
    h, w = template.shape
    off = search + max(h, w)
    x0 = round(cx - w / 2.0) - search
    y0 = round(cy - h / 2.0) - search
    crop = padded_crop(mask, off, slice(max(0, y0 + off), max(0, y0 + off + h + 2 * search)),
                       slice(max(0, x0 + off), max(0, x0 + off + w + 2 * search)))
    if crop.shape[0] < h or crop.shape[1] < w or not crop.any():
        return 0.0
    return best_iou_placement(crop, template)[1]


#: Groups of the last few masks searched, by content (the types of one colour share a
#: mask: grouping it once serves them all).
_GROUPS: OrderedDict[bytes, tuple[tuple[int, int, int, int, int], ...]] = OrderedDict()
_GROUPS_KEPT = 16


def ink_groups(mask: BoolArray) -> tuple[tuple[int, int, int, int, int], ...]:
    """The groups of mask pixels :func:`find_icons` tries: pixels up to two apart joined.

    Returns
    -------
    tuple
        ``(y0, y1, x0, x1, pixels)`` per group, in ``scipy.ndimage.label`` order: the
        box (end exclusive) of the group's pixels grown by one (clipped to the mask),
        and how many mask pixels it holds. Remembered for the last few masks, keyed
        by their content.

    Examples
    --------
    >>> m = np.zeros((6, 8), bool); m[1, 1] = m[1, 3] = m[4, 7] = True
    >>> ink_groups(m)
    ((0, 3, 0, 5, 2), (3, 6, 6, 8, 1))
    """
    key = repr(mask.shape).encode() + hashlib.blake2b(np.packbits(mask).tobytes()).digest()
    if key in _GROUPS:
        _GROUPS.move_to_end(key)
        return _GROUPS[key]
    out: list[tuple[int, int, int, int, int]] = []
    rows = np.flatnonzero(mask.any(axis=1))
    if len(rows):
        cols = np.flatnonzero(mask.any(axis=0))
        # group on the mask's bounding box and a pixel around it: nothing outside it grows
        r0, c0 = max(0, int(rows[0]) - 1), max(0, int(cols[0]) - 1)
        sub = mask[r0:int(rows[-1]) + 2, c0:int(cols[-1]) + 2]
        labels, _n = ndimage.label(grow_3x3(sub), structure=np.ones((3, 3), bool))
        for idx, sl in enumerate(ndimage.find_objects(labels), start=1):
            if sl is None:
                continue
            blob = (labels[sl] == idx) & sub[sl]
            out.append((sl[0].start + r0, sl[0].stop + r0, sl[1].start + c0, sl[1].stop + c0,
                        int(blob.sum())))
    _GROUPS[key] = tuple(out)
    while len(_GROUPS) > _GROUPS_KEPT:
        _GROUPS.popitem(last=False)
    return _GROUPS[key]


def grow_3x3(mask: BoolArray) -> BoolArray:
    """Each pixel set where it or one of its eight neighbours is: a 3x3 dilation.

    The same as ``scipy.ndimage.binary_dilation(mask, np.ones((3, 3), bool))``
    (nothing grows in from beyond the border), by shifted ORs of the mask.

    Examples
    --------
    >>> m = np.zeros((3, 4), bool); m[0, 0] = True
    >>> grow_3x3(m).astype(int).tolist()
    [[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0]]
    """
    tall = mask.copy()
    tall[1:] |= mask[:-1]
    tall[:-1] |= mask[1:]
    out = tall.copy()
    out[:, 1:] |= tall[:, :-1]
    out[:, :-1] |= tall[:, 1:]
    return out


def padded_crop(mask: BoolArray, pad: int, rows: slice, cols: slice) -> BoolArray:
    """``np.pad(mask, pad)[rows, cols]`` without padding the whole mask.

    Parameters
    ----------
    mask : array of bool
        ``(h, w)`` mask.
    pad : int
        Width of the frame of False around it.
    rows, cols : slice
        Slices (step 1 or none) into the padded ``(h + 2 pad, w + 2 pad)`` array, with
        Python's meaning of negative and out-of-range bounds.

    Examples
    --------
    >>> m = np.ones((2, 2), bool)
    >>> padded_crop(m, 1, slice(0, 2), slice(1, 4)).astype(int).tolist()
    [[0, 0, 0], [1, 1, 0]]
    """
    (mh, mw) = mask.shape
    y0, y1, _ = rows.indices(mh + 2 * pad)
    x0, x1, _ = cols.indices(mw + 2 * pad)
    out = np.zeros((max(0, y1 - y0), max(0, x1 - x0)), dtype=bool)
    a, b = max(y0, pad), min(y1, pad + mh)
    c, d = max(x0, pad), min(x1, pad + mw)
    if a < b and c < d:
        out[a - y0:b - y0, c - x0:d - x0] = mask[a - pad:b - pad, c - pad:d - pad]
    return out


def icon_is_clear(score: float, rivals: Sequence[float]) -> bool:
    """Whether an icon match counts: clear of the threshold and of every rival type.

    Examples
    --------
    >>> icon_is_clear(0.9, [0.5]), icon_is_clear(0.62, []), icon_is_clear(0.85, [0.75])
    (True, False, False)
    """
    return score >= ICON_CLEAR_IOU and all(r <= score - ICON_RIVAL_MARGIN for r in rivals)


@cache
def icon_template(feature_type: str) -> BoolArray | None:
    """The OSM-Carto icon of a symbol type as Mapnik draws it: a boolean ink mask.

    Returns
    -------
    array of bool or None
        Pixels covered at least half by the icon, cropped; ``None`` for line and area
        types or when the SVG is missing.
    """
    ft = catalogue_by_name()[feature_type]
    svg = ft.icon_path()
    if svg is None or not svg.is_file():
        return None
    # imported here: loads mapnik (~0.3 s), needed only to draw an icon
    from renderers.mfs.symbols import draw_symbol

    size = 48
    image = draw_symbol(svg, ft.color, size=size, scale=1.0, background=None)
    with Image.open(io.BytesIO(bytes(image.to_string("png32")))) as im:
        alpha = np.asarray(im.convert("RGBA"))[:, :, 3]
    ink = alpha >= 128
    ys, xs = np.nonzero(ink)
    if len(xs) == 0:
        return None
    # keep the template centred on the point: crop symmetrically around the centre
    half_w = int(max(size / 2 - xs.min(), xs.max() + 1 - size / 2))
    half_h = int(max(size / 2 - ys.min(), ys.max() + 1 - size / 2))
    c = size // 2
    return np.asarray(ink[c - half_h:c + half_h, c - half_w:c + half_w])


@cache
def catalogue_by_name() -> dict[str, FeatureType]:
    """The catalogue's feature types by name, in catalogue order (loaded once)."""
    return {ft.name: ft for ft in load_catalogue()}
