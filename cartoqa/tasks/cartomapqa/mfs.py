"""MFS (map feature semantics): name one isolated map feature out of five options.

The catalogue (:mod:`renderers.mfs`) holds every OSM-Carto point symbol, line style and
area fill with its image, everyday label, category and OSM class. Each question shows
one entry; its four distractors come from the same category and are chosen by the
Euclidean distance between image embeddings (:mod:`cartoqa.embeddings`):

1. the two nearest entries of the same OSM class,
2. the nearest entry of a different OSM class,
3. one entry drawn at random,

never repeating a label and never an entry whose image cannot be told apart from the
answer's (see :func:`interchangeable`) or that a reader seeing the answer alone could
take it for (:func:`look_alike`: nearly the same colour and, for lines, dashes at any
width, a line's width never telling two lines apart; for areas, pattern), nor one whose
label is also true of the answer (a broader label or a synonym, the style's own
refinements of its tags included: :func:`cartoqa.tasks.cartomapqa.mfs_meaning.true_of`).
When the answer's class has fewer than two other usable entries, the nearest remaining
entries of any class take their place (role ``nearest``). Answers cycle through the
categories (symbol, line, area) and through a seeded shuffle of each category. The
correct letter is balanced exactly: each block of five consecutive items uses A-E
once, in a seeded order. Everything depends only on the seed and the slot number.
"""

from __future__ import annotations

import io
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from cartoqa.declarations.prompts import prompt, system_prompt
from cartoqa.declarations.spec import RequestSpec, TaskSpec
from cartoqa.embeddings import DEFAULT_CLIP_MODEL, DEFAULT_CLIP_PRETRAINED, Embedder, make_embedder
from cartoqa.errors import CartoqaError
from cartoqa.parsing import ParseResult, parse_choice
from cartoqa.scoring.sections import aggregate_correct, measure_choice
from cartoqa.tasks.cartomapqa.mfs_meaning import style_refinements, true_of
from cartoqa.tasks.common.base import BuildContext, Scenario, item_id, slot_rng
from renderers.files import write_atomic
from renderers.mfs.spec import CATEGORIES, FeatureImage
from renderers.mfs.spec import IMAGE_SIZE as _SIDE
from renderers.mfs.swatches import SWATCH_ZOOMS
from renderers.style import package_version

NAME = "mfs"
ITEMS_PER_SCENARIO = 1
IMAGE_SIZE = (_SIDE, _SIDE)
NEEDS_ROADS = False

LETTERS = ("A", "B", "C", "D", "E")
#: Two images are interchangeable when fewer than this share of their pixels fall in
#: different colour cells (each RGB channel cut into :data:`COLOUR_LEVELS` levels).
MAX_DIFFERING_SHARE = 0.002
COLOUR_LEVELS = 16
#: Area fills are also interchangeable when their colour-cell histograms differ by less
#: than this (L1 distance of the normalised histograms: 1.5% of the pixels moved).
MAX_HISTOGRAM_L1 = 0.03
#: What makes two line or area images distinguishable at the item's size (one
#: 256 x 256 px swatch, shown alone, with no scale and no second swatch to compare):
#:
#: * a different colour: main colours (for lines: the core, the line's middle, and the
#:   edge, its casing) at least :data:`LOOKALIKE_MAX_DELTA_E` apart (CIE76), or for two
#:   greys at least :data:`LOOKALIKE_GREY_MAX_DL` apart in lightness;
#: * for lines, different dashes: solid against dashed, or two dashed lines whose
#:   repeating pattern of marks differs (:func:`dash_pattern`: dash-dot against
#:   dash-dot-dot-dot); a different share of the length inked (at least
#:   :data:`LOOKALIKE_MAX_DASH_DIFF` apart) counts only with a different pattern;
#: * for areas, a different pattern: patterned shares of the fill at least
#:   :data:`LOOKALIKE_MIN_PATTERN_DIFF` apart (a pattern smaller than that is not seen)
#:   and, when both are patterned, more than :data:`LOOKALIKE_MAX_PATTERN_RATIO` times
#:   apart (a pattern's density alone is not seen).
#:
#: A line's **width never tells two lines apart**: without a scale or the other line
#: beside it a reader cannot tell a 12 px white road from an 18 px one (OSM-Carto's
#: unclassified, service and tertiary roads: the same white line with grey casing,
#: widths 1.5x apart, pixel-histogram distance 0.000). Colours closer than this CIE76
#: difference (delta E, about four times the difference one notices side by side,
#: 2.3) are the same colour to a reader who sees one image alone (residential vs
#: airport grounds, a funicular vs a city wall, both mid-grey).
LOOKALIKE_MAX_DELTA_E = 10.0
#: Greys (chroma, the distance from the grey axis in a*b*, under this) are told apart
#: only by lightness, which a reader cannot judge alone: two greys whose lightness L*
#: differs by less than :data:`LOOKALIKE_GREY_MAX_DL` also look alike (a funicular's
#: 3 px #959492 and a power line's 2 px #b2b2af; a power line and a minor one).
LOOKALIKE_GREY_MAX_CHROMA = 8.0
LOOKALIKE_GREY_MAX_DL = 15.0
#: Lines whose dashes cover nearly the same share of the length (within this) have the
#: same dashes. **A dash's length alone never tells two dashed lines apart**, as a
#: line's width does not: two dashed lines with the same pattern of marks
#: (:func:`dash_pattern`) look alike whatever their shares (OSM-Carto's railway under
#: construction, grey dashes 4 on 2 off, and disused railway, grey 3 on 3 off: 67 % and
#: 50 % inked, the same grey row of dots to a reader who sees one alone).
LOOKALIKE_MAX_DASH_DIFF = 0.1
#: Two marks of a dashed line are of one kind (both dashes, or both dots) unless the
#: shorter, plus one pixel of rasterisation, is under this share of the longer: a
#: county border's 4 px dots and 17 px dashes are two kinds, a footway's 2 and 3 px
#: dashes (a 2.5 px dash on the pixel grid) one.
DASH_KIND_MAX_SHARE = 0.5
#: Area fills whose patterned pixels (dots, hatching, symbols) cover shares of the fill
#: closer than this have the same pattern (OSM-Carto's sparsest patterns, the dots of
#: orchards and dog parks, cover about 6 % of the fill and are seen).
LOOKALIKE_MIN_PATTERN_DIFF = 0.05
#: Two patterned fills (each with at least :data:`LOOKALIKE_MIN_PATTERN_DIFF` of its
#: fill patterned) of the same main colour whose patterned shares are within this factor
#: of each other look alike: **a pattern's density never tells two fills apart**, as a
#: line's width does not (alone, a reader cannot judge how dense a pattern is: marsh and
#: saltmarsh, the same grass tufts and water dashes at 21 % and 39 % of the fill,
#: mfs-0014 of seed 2718).
LOOKALIKE_MAX_PATTERN_RATIO = 2.0
#: A pixel is ink when its channels differ from the background by more than this in sum.
INK_MIN_DIFF = 30
#: **Anti-aliasing is not a colour.** A line's outermost ink pixels are only partly
#: covered: their colour is the line's own laid over the land at some cover between 0
#: and 1. An edge that is such a blend of the core with the land is no casing (a
#: stream's 216,233,237 edge is its #aad3df at 40 % cover, not a second colour a ditch
#: lacks: mfs-0013 of seed 4141). A line at most :data:`THIN_LINE_PX` ink pixels across
#: may have no pixel it covers fully, so even its middle may be such a blend: a thin
#: line looks like any line whose colour, laid over the land at a cover of at least
#: :data:`THIN_LINE_MIN_COVER`, gives the thin line's colour (OSM-Carto's power line,
#: #888888 at 1.2 px, reads 172-185 in the middle; the city wall, #919191 at 3-5 px,
#: 125: the same grey, told apart by width alone, mfs-0010 of seed 4141).
THIN_LINE_PX = 3.0
#: A pixel across a line is a casing when its colour is at least this far (CIE76) from
#: every blend of the line's middle with the land. On OSM-Carto's lines the
#: anti-aliased edges of uncased lines stay under 4 (a stream 2.9, the city wall's dark
#: centre line 3.9), the faintest casing is 6.9 (road under construction), the grey
#: road of unknown type's 8.6.
CASING_MIN_DELTA_E = 5.0
#: The least cover of a thin line's middle pixel (a minor power line, #888888 at 0.5 px,
#: reads 209: 31 % cover).
THIN_LINE_MIN_COVER = 0.25
#: Options of the self-check sample item.
SAMPLE_OPTIONS = {"A": "pharmacy", "B": "bank", "C": "park", "D": "river", "E": "bus stop"}
#: How each category is described in the question.
KIND_TEXT = {
    "symbol": "a point symbol (icon)",
    "line": "a line (a road, railway, waterway, barrier, power line or boundary)",
    "area": "an area fill (part of an area and its outline)",
}


@dataclass(frozen=True)
class Distractor:
    """One wrong option and why it was chosen.

    Parameters
    ----------
    index : int
        Position of the entry in the catalogue.
    role : str
        ``same_class``, ``other_class``, ``random`` or ``nearest`` (fallback).
    distance : float
        Euclidean distance between its embedding and the answer's.
    """

    index: int
    role: str
    distance: float


# --------------------------------------------------------------------------- pure rules


def choose_distractors(
    answer: int,
    *,
    embeddings: np.ndarray,
    classes: Sequence[str],
    labels: Sequence[str],
    candidates: Collection[int],
    rng: random.Random,
) -> list[Distractor]:
    """Choose the four distractors of one question.

    Parameters
    ----------
    answer : int
        Index of the answer entry.
    embeddings : numpy.ndarray
        One row per catalogue entry.
    classes, labels : sequence of str
        OSM class and label per entry.
    candidates : collection of int
        Entries allowed as distractors (same category as the answer, images
        distinguishable from it); the answer itself is ignored if present.
    rng : random.Random
        Source of the random distractor.

    Returns
    -------
    list of Distractor
        Two ``same_class`` (or ``nearest`` fallbacks), one ``other_class`` (or
        ``nearest``), one ``random``, in that order; labels distinct from each other
        and from the answer's.

    Raises
    ------
    ValueError
        When fewer than four candidates with distinct labels exist.

    Examples
    --------
    >>> emb = np.array([[0.0], [1.0], [2.0], [3.0], [10.0], [20.0]])
    >>> picks = choose_distractors(0, embeddings=emb, classes="aaabbb", labels="uvwxyz",
    ...                            candidates=range(6), rng=random.Random(0))
    >>> [(d.index, d.role) for d in picks]
    [(1, 'same_class'), (2, 'same_class'), (3, 'other_class'), (5, 'random')]
    """
    dist = np.linalg.norm(embeddings - embeddings[answer], axis=1)
    pool = sorted((i for i in set(candidates) if i != answer), key=lambda i: (float(dist[i]), i))
    used = {labels[answer]}
    chosen: list[Distractor] = []

    def take(i: int, role: str) -> None:
        chosen.append(Distractor(i, role, float(dist[i])))
        used.add(labels[i])

    def free(i: int) -> bool:
        return labels[i] not in used and all(d.index != i for d in chosen)

    same = [i for i in pool if classes[i] == classes[answer]]
    for i in same:
        if len(chosen) == 2:
            break
        if free(i):
            take(i, "same_class")
    while len(chosen) < 2:
        nxt = next((i for i in pool if free(i)), None)
        if nxt is None:
            break
        take(nxt, "nearest")
    other = next((i for i in pool if classes[i] != classes[answer] and free(i)), None)
    if other is None:
        other = next((i for i in pool if free(i)), None)
        if other is not None:
            take(other, "nearest")
    else:
        take(other, "other_class")
    rest = [i for i in pool if free(i)]
    if len(chosen) < 3 or not rest:
        raise ValueError(
            f"entry {labels[answer]!r} has fewer than four distractor candidates "
            "with distinct labels"
        )
    take(rng.choice(rest), "random")
    return chosen


def letter_for_slot(seed: int, slot: int) -> str:
    """Return the correct letter of item ``slot``: each block of five uses A-E once.

    Parameters
    ----------
    seed : int
        The build seed.
    slot : int
        Item number from 0.

    Returns
    -------
    str
        One of ``A``-``E``.

    Examples
    --------
    >>> sorted(letter_for_slot(7, s) for s in range(5))
    ['A', 'B', 'C', 'D', 'E']
    """
    block = list(LETTERS)
    slot_rng(seed, "mfs-letters", slot // len(LETTERS)).shuffle(block)
    return block[slot % len(LETTERS)]


def arrange_options(
    answer_label: str, distractor_labels: Sequence[str], letter: str, rng: random.Random
) -> dict[str, str]:
    """Place the answer at ``letter`` and the distractors, shuffled, at the other letters.

    Parameters
    ----------
    answer_label : str
        The correct option.
    distractor_labels : sequence of str
        The four wrong options.
    letter : str
        Where the correct option goes.
    rng : random.Random
        Shuffles the distractors.

    Returns
    -------
    dict
        ``{"A": label, ..., "E": label}``.

    Examples
    --------
    >>> arrange_options("x", ["a", "b", "c", "d"], "C", random.Random(1))["C"]
    'x'
    """
    if len(distractor_labels) != len(LETTERS) - 1:
        raise ValueError("exactly four distractors are needed")
    rest = list(distractor_labels)
    rng.shuffle(rest)
    out: dict[str, str] = {}
    for key in LETTERS:
        out[key] = answer_label if key == letter else rest.pop(0)
    return out


def answer_order(categories: Sequence[str], seed: int) -> list[list[int]]:
    """Return, per category present, a seeded shuffle of its entries' indices.

    Parameters
    ----------
    categories : sequence of str
        Category of each catalogue entry.
    seed : int
        The build seed.

    Returns
    -------
    list of list of int
        One list per category in ``symbol, line, area`` order (empty ones dropped).
    """
    out = []
    for cat in CATEGORIES:
        members = [i for i, c in enumerate(categories) if c == cat]
        if members:
            slot_rng(seed, "mfs-order", cat).shuffle(members)
            out.append(members)
    return out


def answer_for_slot(order: Sequence[Sequence[int]], slot: int) -> int:
    """Return the answer entry of ``slot``: categories in turn, each cycling its shuffle.

    Examples
    --------
    >>> [answer_for_slot([[5, 6], [9]], s) for s in range(5)]
    [5, 9, 6, 9, 5]
    """
    members = order[slot % len(order)]
    return members[(slot // len(order)) % len(members)]


def _colour_codes(data: bytes) -> np.ndarray:
    step = 256 // COLOUR_LEVELS
    with Image.open(io.BytesIO(data)) as im:
        q = np.asarray(im.convert("RGB"), dtype=np.int32) // step
    codes: np.ndarray = (
        (q[..., 0] * COLOUR_LEVELS + q[..., 1]) * COLOUR_LEVELS + q[..., 2]
    ).ravel()
    return codes


def _few_pixels_differ(stack: np.ndarray, counts: np.ndarray, i: int) -> np.ndarray:
    """Whether fewer than :data:`MAX_DIFFERING_SHARE` of the pixels of image ``i`` and
    of each later image fall in different colour cells.

    Two images differ in at least half the L1 distance of their colour-cell counts
    (each differing pixel moves at most one count out of a cell and one into
    another), so only the images whose half distance is under the share are compared
    pixel by pixel; the others differ at least as much (the share only grows with the
    count: the same answers as comparing all, at a fraction of the cost).

    Parameters
    ----------
    stack : numpy.ndarray
        Colour-cell codes, one row of pixels per image.
    counts : numpy.ndarray
        Each row's count per cell.
    i : int
        The image compared with the images after it.

    Returns
    -------
    numpy.ndarray
        Booleans, one per image after ``i``.
    """
    n = stack.shape[1]
    bound = np.abs(counts[i + 1 :] - counts[i]).sum(axis=1) / 2 / n
    alike = np.zeros(len(stack) - i - 1, dtype=bool)
    near = np.flatnonzero(bound < MAX_DIFFERING_SHARE)
    if near.size:
        alike[near] = (stack[i + 1 + near] != stack[i]).mean(axis=1) < MAX_DIFFERING_SHARE
    return alike


def interchangeable(images: Sequence[bytes], *, texture: bool = False) -> list[set[int]]:
    """Return, for each image, the other images that look the same.

    Colours are compared in cells (each RGB channel cut into :data:`COLOUR_LEVELS`
    levels). Two images are interchangeable when fewer than
    :data:`MAX_DIFFERING_SHARE` of their pixels fall in different cells or, for
    textures (area fills, whose patterns are anchored to the map and so shifted from
    one image to the next), when their colour-cell histograms differ by less than
    :data:`MAX_HISTOGRAM_L1`. OSM-Carto draws some features identically (hospital and
    clinic grounds, lakes and reservoirs); such pairs are never options together.

    Parameters
    ----------
    images : sequence of bytes
        Encoded images of equal size.
    texture : bool
        Also compare colour histograms (use for area fills).

    Returns
    -------
    list of set of int
        Indices into ``images``.
    """
    if not images:
        return []
    stack = np.stack([_colour_codes(b) for b in images])
    cells = COLOUR_LEVELS**3
    counts = np.stack([np.bincount(row, minlength=cells) for row in stack])
    hists = counts / stack.shape[1]
    out: list[set[int]] = [set() for _ in images]
    for i in range(len(images) - 1):
        alike = _few_pixels_differ(stack, counts, i)
        if texture:
            alike |= np.abs(hists[i + 1 :] - hists[i]).sum(axis=1) < MAX_HISTOGRAM_L1
        for j in np.nonzero(alike)[0]:
            out[i].add(i + 1 + int(j))
            out[i + 1 + int(j)].add(i)
    return out


def srgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    """CIE L*a*b* (D65) of sRGB colours (0-255, last axis RGB).

    Examples
    --------
    >>> [round(float(v), 1) + 0.0 for v in srgb_to_lab(np.array([255, 255, 255]))]
    [100.0, 0.0, 0.0]
    >>> [round(float(v), 1) + 0.0 for v in srgb_to_lab(np.array([128, 128, 128]))]
    [53.6, 0.0, 0.0]
    """
    c = np.asarray(rgb, dtype=np.float64) / 255.0
    c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    m = np.array([[0.4124564, 0.3575761, 0.1804375],
                  [0.2126729, 0.7151522, 0.0721750],
                  [0.0193339, 0.1191920, 0.9503041]])
    xyz = c @ m.T / np.array([0.95047, 1.0, 1.08883])
    eps = (6 / 29) ** 3
    f = np.where(xyz > eps, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    lab = np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]),
                    200 * (f[..., 1] - f[..., 2])], axis=-1)
    return lab


@dataclass(frozen=True)
class Appearance:
    """What a reader sees of one line or area image: colour, width, dashes, pattern.

    Parameters
    ----------
    lab : numpy.ndarray
        Main colour, CIE L*a*b*: a line's mean ink, an area's most common colour.
    width : float
        A line's ink pixels per inked column (lines run west-east); 0 for areas.
        Recorded, never used to tell lines apart.
    coverage : float
        Share of a line's columns with ink (1 solid, less dashed); share of an area's
        inner pixels not in its main colour (its pattern).
    core, edge : numpy.ndarray, optional
        A line's colour in its middle row and on its outermost ink rows (its casing),
        the median over inked columns, CIE L*a*b*; None: ``lab`` stands for both. An
        edge that is the core blended with the land (anti-aliasing) is the core.
    rgb_core, rgb_edge, background : numpy.ndarray, optional
        The same two colours in sRGB, and the land's colour around the line (for
        :func:`casing_pixel`, :func:`thin_alike`); None: no blend is considered.
    dashes : tuple of str
        A dashed line's repeating pattern of marks (:func:`dash_pattern`); ``()`` for
        a solid line, an area, or a pattern too short to read.
    """

    lab: np.ndarray
    width: float
    coverage: float
    core: np.ndarray | None = None
    edge: np.ndarray | None = None
    rgb_core: np.ndarray | None = None
    rgb_edge: np.ndarray | None = None
    background: np.ndarray | None = None
    dashes: tuple[str, ...] = ()

    @property
    def thin(self) -> bool:
        """Whether the line is at most :data:`THIN_LINE_PX` ink pixels across."""
        return 0 < self.width <= THIN_LINE_PX


def casing_pixel(profile: np.ndarray, core: np.ndarray, background: np.ndarray) -> np.ndarray:
    """A line's casing colour across one column: of the pixels ``profile`` (sRGB, one
    per row) the one least like a blend of ``core`` with ``background`` (at a cover
    between 0 and 1), when it is at least :data:`CASING_MIN_DELTA_E` from every such
    blend; else ``core`` itself (anti-aliasing only: no casing).

    Examples
    --------
    >>> land, white = np.array([242, 239, 233]), np.array([255, 255, 255])
    >>> road = np.array([[215, 215, 215], [187, 187, 187], white, white, [187, 187, 187]])
    >>> casing_pixel(road, white, land).tolist()
    [187, 187, 187]
    >>> grey = np.array([221, 221, 221])   # highway=road: a faint casing is a casing
    >>> casing_pixel(np.array([[197, 197, 196], grey, grey]), grey, land).tolist()
    [197, 197, 196]
    >>> stream = np.array([[216, 233, 237], [170, 211, 223], [170, 211, 223]])
    >>> casing_pixel(stream, stream[1], land).tolist()
    [170, 211, 223]
    """
    c, b = np.asarray(core, dtype=np.float64), np.asarray(background, dtype=np.float64)
    px = np.asarray(profile, dtype=np.float64)
    d = c - b
    norm = float(d @ d)
    cover = np.zeros(len(px)) if norm == 0 else np.clip((px - b) @ d / norm, 0.0, 1.0)
    residual = np.linalg.norm(srgb_to_lab(px) - srgb_to_lab(b + cover[:, None] * d), axis=1)
    worst = int(residual.argmax())
    if residual[worst] < CASING_MIN_DELTA_E:
        return np.asarray(core)
    return np.asarray(profile)[worst]


def thin_alike(seen: np.ndarray, colour: np.ndarray, background: np.ndarray) -> bool:
    """Whether a thin line's sRGB colour ``seen`` may be ``colour`` covering at least
    :data:`THIN_LINE_MIN_COVER` of its pixels over ``background``: the colour it
    unmixes to at the fitted cover is :func:`colours_alike` ``colour``.

    Examples
    --------
    >>> land, wall = np.array([242, 239, 233]), np.array([125, 125, 125])
    >>> thin_alike(np.array([172, 171, 169]), wall, land)   # a power line, 60 % cover
    True
    >>> thin_alike(np.array([209, 207, 203]), np.array([170, 211, 223]), land)  # blue
    False
    >>> thin_alike(np.array([232, 230, 226]), wall, land)   # under 25 % cover
    False
    """
    s, c, b = (np.asarray(x, dtype=np.float64) for x in (seen, colour, background))
    d = c - b
    norm = float(d @ d)
    if norm == 0:
        return False
    cover = float((s - b) @ d / norm)
    if cover < THIN_LINE_MIN_COVER:
        return False
    unmixed = np.clip(b + (s - b) / min(cover, 1.0), 0.0, 255.0)
    return colours_alike(srgb_to_lab(unmixed), srgb_to_lab(c))


def dash_pattern(inked: Sequence[bool]) -> tuple[str, ...]:
    """The repeating pattern of a dashed line's marks from its inked columns (west to
    east): each whole mark is a dash ``"D"`` or, when it plus one pixel is under
    :data:`DASH_KIND_MAX_SHARE` of the longest, a dot ``"d"``; the shortest period of
    that sequence, rotated to its least form (the phase is not seen). ``()`` for a
    solid line or fewer than four whole marks.

    Examples
    --------
    >>> def line(*period):   # on, off, on, off, ... (px), repeated across 256 px
    ...     cols = []
    ...     while len(cols) < 256:
    ...         for i, n in enumerate(period):
    ...             cols += [i % 2 == 0] * n
    ...     return cols[:256]
    >>> dash_pattern(line(17, 1, 4, 1))           # a county border: dash-dot
    ('D', 'd')
    >>> dash_pattern(line(10, 2, 2, 2, 3, 2, 2, 2))   # a municipal one: dash-dot-dot-dot
    ('D', 'd', 'd', 'd')
    >>> dash_pattern(line(3, 2, 2, 3)), dash_pattern(line(4, 2)), dash_pattern(line(3, 3))
    (('D',), ('D',), ('D',))
    >>> dash_pattern([True] * 256)
    ()
    """
    marks: list[int] = []
    run, prev = 0, None
    for on in inked:
        if on == prev:
            run += 1
            continue
        if prev:
            marks.append(run)
        run, prev = 1, bool(on)
    marks = marks[1:]   # the first mark may be cut by the image's edge (the last is
    if len(marks) < 4:  # not counted: it runs into the edge)
        return ()
    longest = max(marks)
    kinds = ["d" if m + 1 < DASH_KIND_MAX_SHARE * longest else "D" for m in marks]
    n = len(kinds)
    period = next(p for p in range(1, n + 1)
                  if all(kinds[i] == kinds[i + p] for i in range(n - p)))
    unit = kinds[:period]
    return min(tuple(unit[i:] + unit[:i]) for i in range(period))


def appearance(data: bytes, category: str) -> Appearance:
    """Measure an image of the line or area catalogue (:class:`Appearance`).

    The background is the colour of the top-left pixel (land around the feature).
    """
    with Image.open(io.BytesIO(data)) as im:
        a = np.asarray(im.convert("RGB"), dtype=np.int32)
    if category == "area":  # the polygon covers the image's centre
        h, w = a.shape[:2]
        inner = a[3 * h // 8:5 * h // 8, 3 * w // 8:5 * w // 8].reshape(-1, 3)
        colours, counts = np.unique(inner, axis=0, return_counts=True)
        main = colours[int(counts.argmax())]
        return Appearance(srgb_to_lab(main), 0.0, float(1 - counts.max() / counts.sum()))
    ink = np.abs(a - a[0, 0]).sum(axis=2) > INK_MIN_DIFF
    columns = ink.any(axis=0)
    if not columns.any():
        return Appearance(srgb_to_lab(a[0, 0]), 0.0, 0.0)
    cores: list[np.ndarray] = []
    edges: list[np.ndarray] = []
    land = a[0, 0]
    for x in np.nonzero(columns)[0]:
        rows = np.nonzero(ink[:, x])[0]
        if len(rows) <= THIN_LINE_PX:  # no middle: the most inked pixel
            core = a[rows[int(np.abs(a[rows, x] - land).sum(axis=1).argmax())], x]
        else:
            core = a[(rows[0] + rows[-1]) // 2, x]
        cores.append(core)
        edges.append(casing_pixel(a[rows[0]:rows[-1] + 1, x], core, land))
    core = np.median(np.array(cores), axis=0)
    edge = np.median(np.array(edges), axis=0)
    return Appearance(srgb_to_lab(a[ink].mean(axis=0)), float(ink.sum() / columns.sum()),
                      float(columns.mean()), core=srgb_to_lab(core), edge=srgb_to_lab(edge),
                      rgb_core=core, rgb_edge=edge, background=land.astype(np.float64),
                      dashes=dash_pattern(columns.tolist()))


def colours_alike(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two CIE L*a*b* colours are the same to a reader who sees one alone:
    closer than :data:`LOOKALIKE_MAX_DELTA_E`, or both grey and closer in lightness
    than :data:`LOOKALIKE_GREY_MAX_DL`.

    Examples
    --------
    >>> lab = lambda *rgb: srgb_to_lab(np.array(rgb))
    >>> colours_alike(lab(139, 139, 139), lab(149, 148, 146))
    True
    >>> colours_alike(lab(255, 255, 255), lab(170, 211, 223))
    False
    """
    greys = all(float(np.hypot(x[1], x[2])) < LOOKALIKE_GREY_MAX_CHROMA for x in (a, b))
    return float(np.linalg.norm(a - b)) < LOOKALIKE_MAX_DELTA_E or (
        greys and abs(float(a[0] - b[0])) < LOOKALIKE_GREY_MAX_DL)


def appearances_alike(a: Appearance, b: Appearance, category: str) -> bool:
    """Whether a reader seeing one of two images alone could not tell which it is.

    Lines: the same colour (:func:`colours_alike`) in the middle and at the edges
    (casing; an anti-aliased edge is no casing) and the same dashes (the same share
    inked, or the same pattern of marks, :func:`dash_pattern`), whatever their
    widths and dash lengths; a thin line's colour may be the other's blended with the land
    (:data:`THIN_LINE_PX`). Areas: the same main colour
    and the same share of pattern, or both patterned with shares within
    :data:`LOOKALIKE_MAX_PATTERN_RATIO` of each other (density is not seen alone). See
    :data:`LOOKALIKE_MAX_DELTA_E` for what makes two images distinguishable.

    Examples
    --------
    >>> grey = srgb_to_lab(np.array([139, 139, 139]))
    >>> grey2 = srgb_to_lab(np.array([149, 148, 146]))
    >>> appearances_alike(Appearance(grey, 4.0, 1.0), Appearance(grey2, 3.0, 1.0), "line")
    True
    >>> appearances_alike(Appearance(grey, 4.0, 1.0), Appearance(grey2, 2.0, 1.0), "line")
    True
    >>> appearances_alike(Appearance(grey, 4.0, 1.0), Appearance(grey2, 3.0, 0.5), "line")
    False
    >>> power = srgb_to_lab(np.array([178, 178, 175]))
    >>> minor = srgb_to_lab(np.array([216, 214, 209]))
    >>> appearances_alike(Appearance(power, 2.0, 1.0), Appearance(minor, 2.0, 1.0), "line")
    True
    >>> green = srgb_to_lab(np.array([205, 235, 176]))
    >>> [appearances_alike(Appearance(green, 0.0, 0.21), Appearance(green, 0.0, c), "area")
    ...  for c in (0.0, 0.39, 0.45)]   # no pattern; marsh and saltmarsh; past 2x
    [False, True, False]
    """
    if category == "line":
        if min(a.width, b.width) <= 0:
            return False
        core_a, core_b = (a.core if a.core is not None else a.lab,
                          b.core if b.core is not None else b.lab)
        edge_a, edge_b = (a.edge if a.edge is not None else a.lab,
                          b.edge if b.edge is not None else b.lab)
        same_dashes = (abs(a.coverage - b.coverage) <= LOOKALIKE_MAX_DASH_DIFF
                       or (bool(a.dashes) and a.dashes == b.dashes))
        return (_line_colours_alike(a, b, core_a, core_b, a.rgb_core, b.rgb_core)
                and _line_colours_alike(a, b, edge_a, edge_b, a.rgb_edge, b.rgb_edge)
                and same_dashes)
    if category == "area":
        if not colours_alike(a.lab, b.lab):
            return False
        low, high = sorted((a.coverage, b.coverage))
        return (high - low < LOOKALIKE_MIN_PATTERN_DIFF
                or (low >= LOOKALIKE_MIN_PATTERN_DIFF
                    and high <= LOOKALIKE_MAX_PATTERN_RATIO * low))
    return False


def _line_colours_alike(a: Appearance, b: Appearance, lab_a: np.ndarray, lab_b: np.ndarray,
                        rgb_a: np.ndarray | None, rgb_b: np.ndarray | None) -> bool:
    """One colour of two lines (core or edge) alike: the same colour, or a thin line's
    colour a blend of the other's with the land (:data:`THIN_LINE_PX`)."""
    if colours_alike(lab_a, lab_b):
        return True
    if rgb_a is None or rgb_b is None or a.background is None:
        return False
    return ((a.thin and thin_alike(rgb_a, rgb_b, a.background))
            or (b.thin and thin_alike(rgb_b, rgb_a, a.background)))


def look_alike(images: Sequence[bytes], category: str) -> list[set[int]]:
    """Return, for each line or area image, the others a reader could take it for.

    Stricter than :func:`interchangeable` (pixel-identical drawings): two entries
    look alike when their colours are within :data:`LOOKALIKE_MAX_DELTA_E` (lines: in
    the middle and at the casing) and lines have the same dashes whatever their
    widths, areas the same share of pattern (:func:`appearances_alike`). Symbols are
    told apart by shape and get no such rule.
    """
    out: list[set[int]] = [set() for _ in images]
    if category not in ("line", "area"):
        return out
    looks = [appearance(b, category) for b in images]
    for i in range(len(looks)):
        for j in range(i + 1, len(looks)):
            if appearances_alike(looks[i], looks[j], category):
                out[i].add(j)
                out[j].add(i)
    return out


# --------------------------------------------------------------------------- state and items


@dataclass
class MfsState:
    """What :func:`prepare` computes once per build.

    Parameters
    ----------
    catalogue : list of FeatureImage
        The rendered catalogue.
    embeddings : numpy.ndarray
        One row per entry.
    method : str
        The embedding method (recorded in every item).
    order : list of list of int
        :func:`answer_order` of the catalogue.
    candidates : list of list of int
        Allowed distractors per entry (same category, distinguishable image).
    style : str
        OSM-Carto version the images come from.
    """

    catalogue: list[FeatureImage]
    embeddings: np.ndarray
    method: str
    order: list[list[int]]
    candidates: list[list[int]]
    style: str


def make_state(catalogue: Sequence[FeatureImage], embedder: Embedder, *, seed: int) -> MfsState:
    """Embed the catalogue and precompute the answer order and distractor candidates.

    Parameters
    ----------
    catalogue : sequence of FeatureImage
        Rendered entries.
    embedder : Embedder
        How to embed the images.
    seed : int
        The build seed.

    Returns
    -------
    MfsState
        Ready for :func:`make_item`.

    Raises
    ------
    CartoqaError
        When a category has fewer than five entries with distinct labels.
    """
    cat = list(catalogue)
    embeddings = np.asarray(embedder.embed([f.png for f in cat]), dtype=np.float64)
    cats = [f.spec.category for f in cat]
    candidates: list[list[int]] = [[] for _ in cat]
    refinements = style_refinements(f.spec for f in cat)
    for category in CATEGORIES:
        members = [i for i, c in enumerate(cats) if c == category]
        if not members:
            continue
        if len({cat[i].spec.label for i in members}) < len(LETTERS):
            raise CartoqaError(
                f"the MFS catalogue has fewer than five {category} entries",
                fix="check the OSM-Carto installation (openstreetmap-carto-common)",
            )
        pngs = [cat[i].png for i in members]
        alike = interchangeable(pngs, texture=category == "area")
        for pos, similar in enumerate(look_alike(pngs, category)):
            alike[pos] |= similar
        for pos, i in enumerate(members):
            candidates[i] = [m for q, m in enumerate(members)
                             if q != pos and q not in alike[pos]
                             and not true_of(cat[m].spec.label, cat[i].spec.label,
                                             refinements)]
    return MfsState(
        catalogue=cat,
        embeddings=embeddings,
        method=embedder.method,
        order=answer_order(cats, seed),
        candidates=candidates,
        style=f"openstreetmap-carto {package_version()}",
    )


def make_item(state: MfsState, *, seed: int, slot: int) -> tuple[dict[str, Any], bytes]:
    """Make MFS item number ``slot`` and return it with its image.

    Parameters
    ----------
    state : MfsState
        From :func:`make_state`.
    seed : int
        The build seed.
    slot : int
        Item number from 0.

    Returns
    -------
    item : dict
        In the dataset format (``docs/dataset-format.md``), image ``images/mfs-<slot>.png``.
    png : bytes
        The image.
    """
    answer = answer_for_slot(state.order, slot)
    entries = state.catalogue
    spec = entries[answer].spec
    rng = slot_rng(seed, NAME, slot)
    picks = choose_distractors(
        answer,
        embeddings=state.embeddings,
        classes=[f.spec.osm_class for f in entries],
        labels=[f.spec.label for f in entries],
        candidates=state.candidates[answer],
        rng=rng,
    )
    letter = letter_for_slot(seed, slot)
    options = arrange_options(spec.label, [entries[d.index].spec.label for d in picks], letter, rng)
    iid = item_id(NAME, slot)
    provenance: dict[str, Any] = {
        "seed": seed,
        "slot": slot,
        "feature_id": spec.feature_id,
        "tags": dict(spec.tags),
        "style": state.style,
        "embedding": state.method,
        "distractors": [
            {
                "label": entries[d.index].spec.label,
                "feature_id": entries[d.index].spec.feature_id,
                "osm_class": entries[d.index].spec.osm_class,
                "role": d.role,
                "distance": round(d.distance, 6),
            }
            for d in picks
        ],
    }
    if spec.symbol is not None:
        provenance["symbol"] = spec.symbol
        provenance["fill"] = spec.fill
    else:
        provenance["zoom"] = SWATCH_ZOOMS[spec.category]
    item = {
        "id": iid,
        "task": NAME,
        "request": "choice",
        "image": f"images/{iid}.png",
        "system_prompt": system_prompt(),
        "question": prompt("mfs_choice", kind=KIND_TEXT[spec.category], **options),
        "options": options,
        "answer": {"letter": letter, "label": spec.label},
        "strata": {"category": spec.category, "osm_class": spec.osm_class},
        "provenance": provenance,
    }
    return item, entries[answer].png


def build_mfs_items(
    *,
    catalogue: Sequence[FeatureImage],
    embedder: Embedder,
    n: int,
    seed: int,
    images_dir: Path | None = None,
) -> list[dict[str, Any]]:
    """Make ``n`` MFS items (the library entry point; ``cartoqa build`` uses the task interface).

    Parameters
    ----------
    catalogue : sequence of FeatureImage
        Rendered entries (e.g. :func:`renderers.mfs.catalogue.build_catalogue`).
    embedder : Embedder
        Embedding used to pick distractors.
    n : int
        Number of items.
    seed : int
        Seed of every choice.
    images_dir : pathlib.Path, optional
        When given, each item's image is written there as ``<id>.png``.

    Returns
    -------
    list of dict
        Items ``mfs-0000`` ... in the dataset format.
    """
    state = make_state(catalogue, embedder, seed=seed)
    items = []
    for slot in range(n):
        item, png = make_item(state, seed=seed, slot=slot)
        if images_dir is not None:
            images_dir.mkdir(parents=True, exist_ok=True)
            write_atomic(images_dir / f"{item['id']}.png", png)
        items.append(item)
    return items


# --------------------------------------------------------------------------- task interface


def embedder_from_options(options: dict[str, Any]) -> Embedder:
    """Return the embedder named by build options.

    Parameters
    ----------
    options : dict
        May hold ``embedding`` (``clip`` or ``pixel-histogram``, default ``clip``),
        ``clip_model`` and ``clip_pretrained``.

    Returns
    -------
    Embedder
        With the on-disk cache.
    """
    return make_embedder(
        str(options.get("embedding", "clip")),
        clip_model=str(options.get("clip_model", DEFAULT_CLIP_MODEL)),
        clip_pretrained=options.get("clip_pretrained", DEFAULT_CLIP_PRETRAINED),
    )


def prepare(ctx: BuildContext) -> MfsState:
    """Render the catalogue and embed it (both cached under the cache root)."""
    # imported here: loads mapnik (~1 s), needed only when the catalogue is built
    from renderers.mfs.catalogue import build_catalogue

    options = dict(getattr(ctx, "options", None) or {})
    embedder = embedder_from_options(options)
    catalogue = build_catalogue(cache_dir=ctx.cache_dir)
    return make_state(catalogue, embedder, seed=ctx.seed)


def make_scenario(ctx: BuildContext, state: MfsState, slot: int) -> Scenario:
    """Make MFS item ``slot`` (one item per scenario)."""
    item, png = make_item(state, seed=ctx.seed, slot=slot)
    return Scenario(items=[item], images={f"{item['id']}.png": png})


def parse_answer(item: Mapping[str, Any], text: str) -> ParseResult:
    """Read the letter of a response, accepting an option's label for its letter."""
    options = item.get("options")
    return parse_choice(text, options=options if isinstance(options, Mapping) else None)


def answer_text(answer: Mapping[str, Any]) -> str:
    """The reference response: ``Answer: C``."""
    return f"Answer: {answer['letter']}"


SPEC = TaskSpec(
    name=NAME,
    blurb="Map-feature symbols: which feature is shown (five options).",
    requests=(
        RequestSpec(
            "choice",
            prompt="mfs_choice",
            sample_prompt={"kind": KIND_TEXT[next(iter(KIND_TEXT))], **SAMPLE_OPTIONS},
            answer_schema={
                "type": "object", "required": ["letter", "label"],
                "properties": {"letter": {"type": "string", "pattern": "^[A-Z]$"},
                               "label": {"type": "string"}},
            },
            parse=parse_answer,
            answer_text=answer_text,
            metrics=("accuracy",),
            headline=("accuracy",),
            measure=measure_choice,
            aggregate=aggregate_correct,
            sample_answer={"letter": "C", "label": "park"},
        ),
    ),
    prepare=prepare,
    make_scenario=make_scenario,
    image_size=IMAGE_SIZE,
    items_per_scenario=ITEMS_PER_SCENARIO,
    needs_roads=NEEDS_ROADS,
    mapnik_maps=("osm-carto",),
    map_task=False,
    options_schema={"type": "object"},
    sample_strata={"category": "area", "osm_class": "leisure=park"},
    sample_options=SAMPLE_OPTIONS,
)
