"""The name oracle's mask and label splitting as they were before they were sped up.

Kept only to check that the faster :func:`cartoqa.visibility.written.mark_mask` and
:func:`~cartoqa.visibility.written.label_instances` and
:func:`~cartoqa.visibility.written.judge_instance` (pixels that can pass only; the box
around the mask or the label) give the same masks, the same labels in the same order, and so the
same verdicts; likewise :func:`~cartoqa.visibility.written.whole_labels` (groups read
from the labels under each instance's box) and the pixel primitives
:func:`cartoqa.visibility.pixels.ink_mask` and :func:`~cartoqa.visibility.pixels.decode_png`
(no compositing of opaque images).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import ndimage

from cartoqa.visibility.written import (
    MARK_EDGE_MAX_OFF,
    MARK_EDGE_MAX_SPREAD,
    MARK_EDGE_MIN_ON,
    MARK_JOIN_PX,
    MARK_MIN_ALPHA,
    MARK_MIN_PIXELS,
    MARK_TOLERANCE,
)
from renderers.label_marks import MARK_COLOURS


def mark_mask_before(marks: np.ndarray, slot: int) -> np.ndarray:
    """The whole-image mark mask."""
    rgb = marks[..., :3].astype(np.int32)
    colour = np.array(MARK_COLOURS[slot], dtype=np.int32)
    opaque = marks[..., 3] >= MARK_MIN_ALPHA
    core = np.abs(rgb - colour).sum(axis=2) <= MARK_TOLERANCE
    on, off = colour > 127, colour <= 127
    edge = np.ones(rgb.shape[:2], dtype=bool)
    if on.any():
        edge &= rgb[..., on].min(axis=-1) >= MARK_EDGE_MIN_ON
    if off.any():
        low = rgb[..., off]
        edge &= (low.max(axis=-1) <= MARK_EDGE_MAX_OFF) & (
            low.max(axis=-1) - low.min(axis=-1) <= MARK_EDGE_MAX_SPREAD)
    return np.asarray(opaque & (core | edge))


def label_instances_before(mask: np.ndarray, *, join_px: int = MARK_JOIN_PX,
                           min_pixels: int = MARK_MIN_PIXELS) -> list[np.ndarray]:
    """The whole-image split into labels."""
    joined = ndimage.binary_dilation(mask, iterations=max(1, join_px // 2))
    labels, count = ndimage.label(joined)
    out = []
    for k in range(1, count + 1):
        part = mask & (labels == k)
        if int(part.sum()) >= min_pixels:
            out.append(part)
    return out


def judge_instance_before(part: np.ndarray, *, pad: int, ink: np.ndarray,
                          exclude: np.ndarray, near_line: np.ndarray | None = None) -> Any:
    """The whole-view verdict on one label instance."""
    from cartoqa.visibility.written import (
        MARK_MAX_HIDDEN,
        MARK_MIN_AGREEMENT,
        MARK_MIN_ON_LINE,
        Instance,
    )

    h, w = ink.shape
    ys, xs = np.nonzero(part)
    box = (int(xs.min()) - pad, int(ys.min()) - pad, int(xs.max()) - pad + 1,
           int(ys.max()) - pad + 1)
    n = len(xs)
    if box[0] < 0 or box[1] < 0 or box[2] > w or box[3] > h:
        return Instance(box, n, "cut")
    inner = part[pad:pad + h, pad:pad + w]
    hidden = int((inner & exclude).sum())
    if hidden > MARK_MAX_HIDDEN * n:
        return Instance(box, n, "hidden")
    visible = inner & ~exclude
    seen = int((visible & ink).sum())
    if seen < MARK_MIN_AGREEMENT * max(1, int(visible.sum())):
        return Instance(box, n, "not on the screenshot")
    if near_line is not None and int((inner & near_line).sum()) < MARK_MIN_ON_LINE * n:
        return Instance(box, n, "off the road")
    return Instance(box, n, None)


def whole_labels_before(mask: np.ndarray, parts: list[np.ndarray], judged: list[Any], *,
                        word_gap_px: int) -> list[Any]:
    """Each label judged whole, with whole-image masks of the groups and instances."""
    from cartoqa.visibility.written import Instance

    if len(parts) < 2 or all(j.reason is None for j in judged):
        return list(judged)
    groups = label_instances_before(mask, join_px=word_gap_px, min_pixels=1)
    out = list(judged)
    for group in groups:
        members = [k for k, part in enumerate(parts) if (part & group).any()]
        failed = next((judged[k].reason for k in members if judged[k].reason is not None), None)
        if failed is None:
            continue
        for k in members:
            if out[k].reason is None:
                out[k] = Instance(out[k].box, out[k].pixels, failed)
    return out


def ink_mask_before(screen: np.ndarray, reference: np.ndarray, *, min_diff: int = 40
                    ) -> np.ndarray:
    """The ink mask as the maximum over the channels."""
    return np.asarray(np.abs(screen - reference).max(axis=2) > min_diff)


def decode_png_before(png: bytes) -> np.ndarray:
    """Every PNG composited over white."""
    import io

    from PIL import Image

    with Image.open(io.BytesIO(png)) as im:
        rgba = im.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return np.asarray(Image.alpha_composite(white, rgba).convert("RGB"), dtype=np.int16)
