"""OSM-Carto icons: their templates as Mapnik draws them, and finding them in ink."""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache

import numpy as np
from PIL import Image
from scipy import ndimage

from cartoqa.visibility.pixels import BoolArray, iou_map
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
        scores = iou_map(crop, template)
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
    padded = np.pad(mask, off)
    x0 = round(cx - w / 2.0) - search
    y0 = round(cy - h / 2.0) - search
    crop = padded[max(0, y0 + off):max(0, y0 + off + h + 2 * search),
                  max(0, x0 + off):max(0, x0 + off + w + 2 * search)]
    if crop.shape[0] < h or crop.shape[1] < w or not crop.any():
        return 0.0
    return float(iou_map(crop, template).max())


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
