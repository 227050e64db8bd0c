"""Whether a name is written on a view, asked of Mapnik rather than judged from ink.

The view is drawn a second time with the names in question filled with colours of
their own (:meth:`renderers.tiles.TileRenderer.render_label_marks`): placement does
not depend on colour, so the pixels of that colour are where Mapnik writes the name.
The tiles were drawn a metatile at a time, so near a metatile's edge a label may sit
elsewhere on them: every label found is checked against the screenshot. Each separate
label of a name (an *instance*: its pixels joined across
the gaps between letters) is then judged against the screenshot:

* **cut**: part of it lies outside the view (the render covers a band around it);
* **hidden**: more than :data:`MARK_MAX_HIDDEN` of it lies under a marker, the path or
  a map control;
* **not on the screenshot**: fewer than :data:`MARK_MIN_AGREEMENT` of its pixels are
  ink on the screenshot (the placement would differ from the tiles');
* **off the road**: for a road, fewer than :data:`MARK_MIN_ON_LINE` of its pixels lie
  within :data:`MARK_LINE_RADIUS_PX` of the road's lines (a same-named label elsewhere).

Instances closer than :data:`MARK_WORD_GAP_PX` are words of one label: when one of them
fails, all do (:func:`whole_labels`), so a label with its first word cut off the view is
not written. A name is written when at least one instance passes. Icons never pass as
text: only the label's own pixels are looked at.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import ndimage

from cartoqa.visibility.pixels import BoolArray, IntArray, line_mask, true_pixels
from renderers.label_marks import MARK_COLOURS

#: A pixel belongs to a marked label when opaque (alpha at least this) and its colour
#: lies within this sum of channel differences of the mark colour.
MARK_MIN_ALPHA = 200
MARK_TOLERANCE = 90
#: Edge pixels of a marked label: the mark colour blended towards white (its full
#: channels stay at least this high ...
MARK_EDGE_MIN_ON = 230
#: ... its empty channels rise together, to at most this: half-way to white, short of
#: the blends of OSM-Carto's own label colours, e.g. the health red #bf0000) ...
MARK_EDGE_MAX_OFF = 128
#: ... and no further apart than this).
MARK_EDGE_MAX_SPREAD = 30
#: Pixels of one label lie at most this far apart (letters and words of one label join).
MARK_JOIN_PX = 4
#: Words of one label lie at most this far apart: pieces this close are judged together,
#: so a label whose first word runs off the view is cut as a whole even where the
#: space between its words (vertical labels: 5-7 px) is wider than :data:`MARK_JOIN_PX`
#: (mml-0014 of seed 5151 showed "…ntinen Teatterikuja": "Läntinen" cut by the view's
#: top edge, "Teatterikuja" whole, passed as written).
MARK_WORD_GAP_PX = 12
#: Fewest mark pixels for a label instance (smaller specks are ignored).
MARK_MIN_PIXELS = 12
#: Band drawn around the view to see labels running off it (pixels).
MARK_PAD_PX = 48
#: Largest share of an instance under markers, path or controls.
MARK_MAX_HIDDEN = 0.05
#: Smallest share of an instance's visible pixels that must be ink on the screenshot.
MARK_MIN_AGREEMENT = 0.7
#: A road's label lies along its line: this share of its pixels within this radius.
MARK_MIN_ON_LINE = 0.5
MARK_LINE_RADIUS_PX = 12.0


@dataclass(frozen=True)
class Instance:
    """One label of a marked name and the verdict on it.

    Attributes
    ----------
    box : tuple of int
        ``(x0, y0, x1, y1)`` in view pixels (may run past the view).
    pixels : int
        Mark pixels.
    reason : str or None
        Why it is not written (``"cut"``, ``"hidden"``, ``"not on the screenshot"``,
        ``"off the road"``), or None when it is.
    """

    box: tuple[int, int, int, int]
    pixels: int
    reason: str | None


def mark_mask(marks: IntArray, slot: int) -> BoolArray:
    """Pixels of the marked label of ``slot`` in a marks render (RGBA).

    A pixel is the label's when opaque and within :data:`MARK_TOLERANCE` of the mark
    colour, or when it is that colour blended towards white at its letters' edges
    (anti-aliasing and the label's halo: the mark colour's full channels at least
    :data:`MARK_EDGE_MIN_ON`, its empty ones at most :data:`MARK_EDGE_MAX_OFF` and
    within :data:`MARK_EDGE_MAX_SPREAD` of each other). The thin 10 px text of point
    labels has few pixels of the pure colour, so without the edges a short name
    ("Jufu") could fall under :data:`MARK_MIN_PIXELS`.

    Examples
    --------
    >>> m = np.zeros((1, 6, 4), np.int16); m[..., 3] = 255
    >>> m[0, 0, :3] = (255, 0, 255); m[0, 1, :3] = (250, 20, 240); m[0, 2, :3] = (0, 0, 0)
    >>> m[0, 3, :3] = (250, 110, 252)   # magenta blended half-way to white: an edge
    >>> m[0, 4, :3] = (250, 200, 252)   # mostly white: the halo, not the label
    >>> m[0, 5, :3] = (153, 51, 153)    # OSM-Carto's shop label colour
    >>> mark_mask(m, 0).tolist()  # slot 0 is magenta (renderers.label_marks.MARK_COLOURS)
    [[True, True, False, True, False, False]]
    """
    return mark_masks(marks, [slot])[0]


def mark_masks(marks: IntArray, slots: Sequence[int]) -> list[BoolArray]:
    """:func:`mark_mask` of each slot, the channel tests they share made once.

    Examples
    --------
    >>> m = np.zeros((1, 2, 4), np.int16); m[..., 3] = 255
    >>> m[0, 0, :3] = (255, 0, 255); m[0, 1, :3] = MARK_COLOURS[1]
    >>> [mask.tolist() for mask in mark_masks(m, [0, 1])]
    [[[True, False]], [[False, True]]]
    """
    # Only pixels that can pass are tested in full: opaque, each full channel at least
    # the lower of (colour - tolerance) and the edge's floor, each empty one at most the
    # higher of (colour + tolerance) and the edge's ceiling (both tests imply these).
    # Slots whose colours share a channel's bound share its test.
    tests: dict[tuple[int, bool, int], BoolArray] = {}

    def test(channel: int, at_least: bool, bound: int) -> BoolArray:
        key = (channel, at_least, bound)
        if key not in tests:
            values = marks[..., channel]
            tests[key] = values >= bound if at_least else values <= bound
        return tests[key]

    out = []
    for slot in slots:
        colour = np.array(MARK_COLOURS[slot], dtype=np.int32)
        candidate = test(3, True, MARK_MIN_ALPHA).copy()
        for c in range(3):
            if colour[c] > 127:
                candidate &= test(c, True, min(int(colour[c]) - MARK_TOLERANCE,
                                               MARK_EDGE_MIN_ON))
            else:
                candidate &= test(c, False, max(int(colour[c]) + MARK_TOLERANCE,
                                                MARK_EDGE_MAX_OFF))
        ys, xs = true_pixels(candidate)
        rgb = marks[ys, xs, :3].astype(np.int32)
        core = np.abs(rgb - colour).sum(axis=1) <= MARK_TOLERANCE
        on, off = colour > 127, colour <= 127
        edge = np.ones(len(ys), dtype=bool)
        if on.any():
            edge &= rgb[:, on].min(axis=-1) >= MARK_EDGE_MIN_ON
        if off.any():
            low = rgb[:, off]
            edge &= (low.max(axis=-1) <= MARK_EDGE_MAX_OFF) & (
                low.max(axis=-1) - low.min(axis=-1) <= MARK_EDGE_MAX_SPREAD)
        mask = np.zeros(marks.shape[:2], dtype=bool)
        mask[ys, xs] = core | edge
        out.append(mask)
    return out


@dataclass(frozen=True)
class LabelPart:
    """One label instance's pixels, kept on the box around them.

    Attributes
    ----------
    y0, x0 : int
        Top-left pixel of the box in the mask the instance was split from.
    mask : array of bool
        The instance's pixels on its box: the smallest box holding them, so its first
        and last rows and columns each hold a pixel.
    pixels : int
        How many pixels it has.
    """

    y0: int
    x0: int
    mask: BoolArray
    pixels: int

    @classmethod
    def of(cls, part: BoolArray) -> LabelPart:
        """The instance of a whole-image mask (which holds at least one pixel)."""
        ys, xs = np.nonzero(part)
        y0, y1, x0, x1 = int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1
        return cls(y0, x0, part[y0:y1, x0:x1], len(ys))

    def full(self, shape: tuple[int, ...]) -> BoolArray:
        """The instance as a mask of ``shape`` (the mask it was split from)."""
        out = np.zeros(shape, dtype=bool)
        out[self.y0:self.y0 + self.mask.shape[0], self.x0:self.x0 + self.mask.shape[1]] = \
            self.mask
        return out


def _joined_labels(mask: BoolArray, join_px: int
                   ) -> tuple[IntArray, int, int, int, BoolArray] | None:
    """Components of ``mask`` whose pixels lie within ``join_px`` of each other.

    The work is done on the box around the mask's pixels plus the dilation's reach: the
    dilation, the components and their order (by first pixel, row by row) are those of
    the whole image. Returns ``(labels, count, y0, x0, sub)`` on that box (``sub``: the
    mask there), or None for an empty mask.
    """
    ys, xs = true_pixels(mask)
    if not len(ys):
        return None
    iterations = max(1, join_px // 2)
    margin = iterations + 1
    y0, x0 = max(int(ys.min()) - margin, 0), max(int(xs.min()) - margin, 0)
    y1 = min(int(ys.max()) + margin + 1, mask.shape[0])
    x1 = min(int(xs.max()) + margin + 1, mask.shape[1])
    sub = mask[y0:y1, x0:x1]
    joined = ndimage.binary_dilation(sub, iterations=iterations)
    labels, count = ndimage.label(joined)
    return labels, int(count), y0, x0, sub


def label_parts(mask: BoolArray, *, join_px: int = MARK_JOIN_PX,
                min_pixels: int = MARK_MIN_PIXELS) -> list[LabelPart]:
    """:func:`label_instances`, each instance kept on its own box (:class:`LabelPart`).

    Examples
    --------
    >>> m = np.zeros((5, 40), bool); m[2, 0:6] = True; m[2, 8:14] = True; m[2, 30:38] = True
    >>> [(p.y0, p.x0, p.mask.shape, p.pixels) for p in label_parts(m, min_pixels=5)]
    [(2, 0, (1, 14), 12), (2, 30, (1, 8), 8)]
    """
    found = _joined_labels(mask, join_px)
    if found is None:
        return []
    labels, _, y0, x0, sub = found
    out = []
    for k, box in enumerate(ndimage.find_objects(labels), start=1):
        if box is None:
            continue
        part = sub[box] & (labels[box] == k)
        ys, xs = np.nonzero(part)
        if len(ys) < min_pixels:
            continue
        by0, by1, bx0, bx1 = int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1
        out.append(LabelPart(y0 + box[0].start + by0, x0 + box[1].start + bx0,
                             part[by0:by1, bx0:bx1], len(ys)))
    return out


def label_instances(mask: BoolArray, *, join_px: int = MARK_JOIN_PX,
                    min_pixels: int = MARK_MIN_PIXELS) -> list[BoolArray]:
    """Split a mark mask into separate labels (pixels within ``join_px`` join).

    Examples
    --------
    >>> m = np.zeros((5, 40), bool); m[2, 0:6] = True; m[2, 8:14] = True; m[2, 30:38] = True
    >>> [int(i.sum()) for i in label_instances(m, min_pixels=5)]
    [12, 8]
    """
    return [part.full(mask.shape)
            for part in label_parts(mask, join_px=join_px, min_pixels=min_pixels)]


def judge_instance(part: BoolArray | LabelPart, *, pad: int, ink: BoolArray | None,
                   exclude: BoolArray, near_line: BoolArray | None = None) -> Instance:
    """Judge one label instance (a mask over the padded render) against the screenshot.

    Parameters
    ----------
    part : array of bool or LabelPart
        The instance's pixels, ``(h + 2 pad, w + 2 pad)``, or the same kept on their
        box (:func:`label_parts`: the same verdict, without reading the whole mask).
    pad : int
        Band around the view in ``part``.
    ink : array of bool or None
        ``(h, w)`` ink of the screenshot (it differs from the label-free reference);
        None before the screenshot exists: the "not on the screenshot" test is skipped
        (:func:`possibly_written`).
    exclude : array of bool
        ``(h, w)`` pixels under markers, path and controls.
    near_line : array of bool, optional
        ``(h, w)`` pixels near the road's lines; None to skip that test.

    Returns
    -------
    Instance
    """
    h, w = ink.shape if ink is not None else exclude.shape
    if not isinstance(part, LabelPart):
        part = LabelPart.of(part)
    box = (part.x0 - pad, part.y0 - pad, part.x0 + part.mask.shape[1] - pad,
           part.y0 + part.mask.shape[0] - pad)
    n = part.pixels
    if box[0] < 0 or box[1] < 0 or box[2] > w or box[3] > h:
        return Instance(box, n, "cut")
    # inside the view, and only the instance's box (the part is empty elsewhere)
    x0, y0, x1, y1 = box
    inner = part.mask
    excluded = exclude[y0:y1, x0:x1]
    hidden = int((inner & excluded).sum())
    if hidden > MARK_MAX_HIDDEN * n:
        return Instance(box, n, "hidden")
    if ink is not None:
        visible = inner & ~excluded
        seen = int((visible & ink[y0:y1, x0:x1]).sum())
        if seen < MARK_MIN_AGREEMENT * max(1, int(visible.sum())):
            return Instance(box, n, "not on the screenshot")
    if near_line is not None and \
            int((inner & near_line[y0:y1, x0:x1]).sum()) < MARK_MIN_ON_LINE * n:
        return Instance(box, n, "off the road")
    return Instance(box, n, None)


@dataclass(frozen=True)
class MarkedName:
    """One name's labels in a marks render, before any screenshot is looked at.

    Attributes
    ----------
    mask : array of bool
        The name's mark pixels, ``(h + 2 pad, w + 2 pad)`` (:func:`mark_mask`).
    parts : list of LabelPart
        Its label instances (:func:`label_parts` of ``mask``).
    near : array of bool or None
        ``(h, w)`` pixels near the road's lines (None: no road test).
    shape : tuple of int
        ``(h, w)``, the view's size ``near`` was drawn for.
    """

    mask: BoolArray
    parts: list[LabelPart]
    near: BoolArray | None
    shape: tuple[int, int]


def marked_names(marks: IntArray, names: Sequence[str], *, pad: int,
                 lines: Mapping[str, Sequence[Sequence[tuple[float, float]]]] | None = None,
                 ) -> dict[str, MarkedName]:
    """Each marked name's pixels and labels, read from a marks render (no screenshot).

    Parameters
    ----------
    marks : array
        The marks render, ``(h + 2 pad, w + 2 pad, 4)``; ``names[k]`` drawn in
        :data:`MARK_COLOURS` ``[k]``.
    names : sequence of str
        The marked names, in slot order.
    pad : int
        Band around the view in ``marks``.
    lines : dict, optional
        Name -> its road's lines in view pixels; a road name must be written along them.

    Returns
    -------
    dict
        Name -> :class:`MarkedName`, judged by :func:`judge_marked` once the screenshot
        exists, and by :func:`possibly_written` before it.
    """
    shape = (marks.shape[0] - 2 * pad, marks.shape[1] - 2 * pad)
    out: dict[str, MarkedName] = {}
    masks = mark_masks(marks, range(len(names)))
    for name, mask in zip(names, masks, strict=True):
        near = None
        if lines is not None:
            near = line_mask(shape, lines.get(name, []), radius=MARK_LINE_RADIUS_PX)
        out[name] = MarkedName(mask, label_parts(mask), near, shape)
    return out


def judge_marked(marked: Mapping[str, MarkedName], *, pad: int, ink: BoolArray,
                 exclude: BoolArray,
                 lines: Mapping[str, Sequence[Sequence[tuple[float, float]]]] | None = None,
                 ) -> dict[str, list[Instance]]:
    """Every label of each marked name, judged against the screenshot.

    Parameters
    ----------
    marked : dict
        Name -> :class:`MarkedName` (:func:`marked_names`).
    pad : int
        Band around the view in the marks render.
    ink, exclude : array of bool
        ``(h, w)``: the screenshot's ink, and the pixels under markers, path, controls.
    lines : dict, optional
        The lines ``marked`` was read with: only needed to draw the road test again
        should the screenshot's size differ from the marks render's view.

    Returns
    -------
    dict
        Name -> its instances (empty when Mapnik did not write it at all).
    """
    out: dict[str, list[Instance]] = {}
    for name, one in marked.items():
        near = one.near
        if near is not None and one.shape != ink.shape:
            near = line_mask(ink.shape, (lines or {}).get(name, []),
                             radius=MARK_LINE_RADIUS_PX)
        judged = [judge_instance(part, pad=pad, ink=ink, exclude=exclude, near_line=near)
                  for part in one.parts]
        out[name] = whole_labels(one.mask, one.parts, judged)
    return out


def possibly_written(marked: Mapping[str, MarkedName], *, pad: int,
                     exclude: BoolArray) -> set[str]:
    """Names that may still be written once the view is drawn: every test of
    :func:`judge_instance` but "not on the screenshot", before the screenshot exists.

    With ``exclude`` covering no more than the screenshot's exclusion will (e.g. the
    control zones known before rendering, which a render only grows), a name left out
    here is not written by :func:`judge_marked` either: each of these tests fails on
    the screenshot's judgment whenever it fails here, and :func:`whole_labels` fails a
    label whenever one of its words fails. So a scenario may be rejected on it before
    its screenshot is taken, with the same verdict.

    Parameters
    ----------
    marked : dict
        Name -> :class:`MarkedName` (:func:`marked_names`).
    pad : int
        Band around the view in the marks render.
    exclude : array of bool
        ``(h, w)`` pixels under markers, path and the controls' zones.

    Returns
    -------
    set of str
    """
    out: set[str] = set()
    for name, one in marked.items():
        judged = [judge_instance(part, pad=pad, ink=None, exclude=exclude, near_line=one.near)
                  for part in one.parts]
        if any(j.reason is None for j in whole_labels(one.mask, one.parts, judged)):
            out.add(name)
    return out


def written_instances(marks: IntArray, names: Sequence[str], *, pad: int, ink: BoolArray,
                      exclude: BoolArray,
                      lines: Mapping[str, Sequence[Sequence[tuple[float, float]]]] | None = None,
                      ) -> dict[str, list[Instance]]:
    """Every label of each marked name, judged (:func:`marked_names`, then
    :func:`judge_marked`).

    Parameters
    ----------
    marks : array
        The marks render, ``(h + 2 pad, w + 2 pad, 4)``; ``names[k]`` drawn in
        :data:`MARK_COLOURS` ``[k]``.
    names : sequence of str
        The marked names, in slot order.
    pad : int
        Band around the view in ``marks``.
    ink, exclude : array of bool
        ``(h, w)``: the screenshot's ink, and the pixels under markers, path, controls.
    lines : dict, optional
        Name -> its road's lines in view pixels; a road name must be written along them.

    Returns
    -------
    dict
        Name -> its instances (empty when Mapnik did not write it at all).
    """
    return judge_marked(marked_names(marks, names, pad=pad, lines=lines), pad=pad, ink=ink,
                        exclude=exclude, lines=lines)


def whole_labels(mask: BoolArray, parts: Sequence[LabelPart | BoolArray],
                 judged: Sequence[Instance], *,
                 word_gap_px: int = MARK_WORD_GAP_PX) -> list[Instance]:
    """The verdicts of a name's instances with each label judged whole: instances whose
    pixels lie within ``word_gap_px`` of each other (the words of one label) all take the
    first failing verdict among them.

    Parameters
    ----------
    mask : array of bool
        The name's mark pixels (all instances).
    parts : sequence of LabelPart or array of bool
        The instances' pixels (:func:`label_parts` or :func:`label_instances` of
        ``mask``).
    judged : sequence of Instance
        Their verdicts, in the same order.
    word_gap_px : int
        Widest gap between two words of one label.

    Returns
    -------
    list of Instance

    Examples
    --------
    >>> m = np.zeros((5, 60), bool); m[2, 0:14] = True; m[2, 20:34] = True; m[2, 50:60] = True
    >>> parts = label_instances(m, min_pixels=5)
    >>> verdicts = [Instance((-2, 0, 14, 5), 14, "cut"), Instance((20, 0, 34, 5), 14, None),
    ...             Instance((50, 0, 60, 5), 10, None)]
    >>> [i.reason for i in whole_labels(m, parts, verdicts)]   # words 6 px apart; 16 px
    ['cut', 'cut', None]
    """
    if len(parts) < 2 or all(j.reason is None for j in judged):
        return list(judged)
    found = _joined_labels(mask, word_gap_px)
    assert found is not None  # parts hold pixels of the mask
    labels, count, y0, x0, _ = found
    # each part's groups: the labels under its pixels (a group is a component of the
    # mask joined across word_gap_px, so every group holds pixels of the mask)
    groups_of = []
    for part in parts:
        if not isinstance(part, LabelPart):
            part = LabelPart.of(part)
        h, w = part.mask.shape
        under = labels[part.y0 - y0:part.y0 - y0 + h, part.x0 - x0:part.x0 - x0 + w]
        groups_of.append(set(np.unique(under[part.mask]).tolist()))
    out = list(judged)
    for group in range(1, count + 1):
        members = [k for k, groups in enumerate(groups_of) if group in groups]
        failed = next((judged[k].reason for k in members if judged[k].reason is not None), None)
        if failed is None:
            continue
        for k in members:
            if out[k].reason is None:
                out[k] = Instance(out[k].box, out[k].pixels, failed)
    return out


def written_names(instances: Mapping[str, Sequence[Instance]]) -> set[str]:
    """Names with at least one instance judged written.

    Examples
    --------
    >>> written_names({"A": [Instance((0, 0, 5, 5), 20, "cut"), Instance((9, 0, 20, 5), 30, None)],
    ...                "B": [Instance((0, 0, 5, 5), 20, "hidden")], "C": []})
    {'A'}
    """
    return {name for name, parts in instances.items() if any(p.reason is None for p in parts)}
