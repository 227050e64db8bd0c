"""The MFS selection rules on hand-made data with known answers."""

from __future__ import annotations

import io
import random
from collections import Counter

import numpy as np
import pytest
from PIL import Image

from cartoqa.tasks.cartomapqa.mfs import (
    COLOUR_LEVELS,
    LETTERS,
    LOOKALIKE_GREY_MAX_DL,
    LOOKALIKE_MAX_DASH_DIFF,
    LOOKALIKE_MAX_DELTA_E,
    LOOKALIKE_MAX_PATTERN_RATIO,
    MAX_DIFFERING_SHARE,
    MAX_HISTOGRAM_L1,
    THIN_LINE_MIN_COVER,
    THIN_LINE_PX,
    Appearance,
    _colour_codes,
    answer_for_slot,
    answer_order,
    appearance,
    appearances_alike,
    arrange_options,
    choose_distractors,
    interchangeable,
    letter_for_slot,
    look_alike,
    srgb_to_lab,
)


def _emb(*xs: float) -> np.ndarray:
    return np.array([[x, 0.0] for x in xs])


def test_distractors_follow_the_rule() -> None:
    # answer 0 at x=0; class a: 1 (x=5), 2 (x=1), 3 (x=2); class b: 4 (x=3), 5 (x=0.5)
    emb = _emb(0, 5, 1, 2, 3, 0.5, 9)
    classes = ["a", "a", "a", "a", "b", "b", "c"]
    labels = ["ans", "a1", "a2", "a3", "b4", "b5", "c6"]
    picks = choose_distractors(
        0, embeddings=emb, classes=classes, labels=labels, candidates=range(7), rng=random.Random(3)
    )
    assert [(d.index, d.role) for d in picks[:3]] == [
        (2, "same_class"),
        (3, "same_class"),
        (5, "other_class"),
    ]
    assert [d.distance for d in picks[:3]] == [1.0, 2.0, 0.5]
    assert picks[3].role == "random" and picks[3].index in {1, 4, 6}


def test_random_distractor_is_seeded_and_uses_every_leftover() -> None:
    emb = _emb(0, 1, 2, 3, 4, 5, 6, 7)
    classes = ["a"] * 4 + ["b"] * 4
    labels = [f"l{i}" for i in range(8)]
    seen = set()
    for seed in range(60):
        pick = choose_distractors(
            0,
            embeddings=emb,
            classes=classes,
            labels=labels,
            candidates=range(8),
            rng=random.Random(seed),
        )[3].index
        again = choose_distractors(
            0,
            embeddings=emb,
            classes=classes,
            labels=labels,
            candidates=range(8),
            rng=random.Random(seed),
        )[3].index
        assert pick == again
        seen.add(pick)
    assert seen == {3, 5, 6, 7}  # 1, 2 same class and 4 nearest other class are taken


def test_duplicate_labels_and_excluded_candidates_are_skipped() -> None:
    emb = _emb(0, 1, 2, 3, 4, 5, 6, 7)
    classes = ["a", "a", "a", "a", "b", "b", "b", "b"]
    labels = ["park", "park", "lawn", "grass", "lake", "lake", "sea", "pond"]
    # entry 1 repeats the answer's label; entry 2 is excluded (looks the same);
    # class a then has one usable entry, so the nearest of any class fills in
    picks = choose_distractors(
        0,
        embeddings=emb,
        classes=classes,
        labels=labels,
        candidates=[1, 3, 4, 5, 6, 7],
        rng=random.Random(0),
    )
    assert [(labels[d.index], d.role) for d in picks] == [
        ("grass", "same_class"),
        ("lake", "nearest"),
        ("sea", "other_class"),
        ("pond", "random"),
    ]


def test_too_few_candidates_is_an_error() -> None:
    emb = _emb(0, 1, 2, 3)
    with pytest.raises(ValueError, match="fewer than four"):
        choose_distractors(
            0,
            embeddings=emb,
            classes="aaaa",
            labels="wxyz",
            candidates=range(4),
            rng=random.Random(0),
        )


def test_letters_are_exactly_balanced_per_block_and_seeded() -> None:
    for seed in (0, 1, 99):
        letters = [letter_for_slot(seed, s) for s in range(50)]
        for block in range(10):
            assert sorted(letters[5 * block : 5 * block + 5]) == list(LETTERS)
        assert Counter(letters) == dict.fromkeys(LETTERS, 10)
    assert [letter_for_slot(0, s) for s in range(20)] != [letter_for_slot(1, s) for s in range(20)]


def test_options_place_the_answer_at_its_letter() -> None:
    for letter in LETTERS:
        opts = arrange_options(
            "river", ["canal", "stream", "ditch", "drain"], letter, random.Random(5)
        )
        assert list(opts) == list(LETTERS)
        assert opts[letter] == "river"
        assert sorted(opts.values()) == ["canal", "ditch", "drain", "river", "stream"]
    with pytest.raises(ValueError):
        arrange_options("x", ["a"], "A", random.Random(0))


def test_answers_take_categories_in_turn() -> None:
    order = answer_order(["area", "symbol", "symbol", "line", "area"], seed=4)
    assert [sorted(o) for o in order] == [[1, 2], [3], [0, 4]]
    slots = [answer_for_slot(order, s) for s in range(6)]
    assert slots[1] == slots[4] == 3
    assert sorted(slots[0::3]) == [1, 2] and sorted(slots[2::3]) == [0, 4]


def _png(colour: tuple[int, int, int], box: tuple[int, int, int, int] | None = None) -> bytes:
    im = Image.new("RGB", (50, 50), (242, 239, 233))
    if box:
        im.paste(colour, box)
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()


def test_interchangeable_images() -> None:
    red = _png((200, 0, 0), (10, 10, 30, 30))
    red_again = _png((201, 1, 1), (10, 10, 30, 30))  # same colour cell
    blue = _png((0, 0, 200), (10, 10, 30, 30))
    dot = _png((200, 0, 0), (10, 10, 12, 12))
    assert interchangeable([red, red_again, blue, dot]) == [{1}, {0}, set(), set()]


def _edited(pixels: dict[tuple[int, int], tuple[int, int, int]],
            shift: int = 0) -> bytes:
    """The red square of :func:`test_interchangeable_images` (shifted right), with some
    pixels painted over."""
    im = Image.new("RGB", (50, 50), (242, 239, 233))
    im.paste((200, 0, 0), (10 + shift, 10, 30 + shift, 30))
    for xy, colour in pixels.items():
        im.putpixel(xy, colour)
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()


def _interchangeable_pair_by_pair(images: list[bytes], texture: bool) -> list[set[int]]:
    """:func:`interchangeable` as it was: every pair's pixels compared."""
    stack = np.stack([_colour_codes(b) for b in images])
    hists = np.stack([np.bincount(r, minlength=COLOUR_LEVELS**3) for r in stack]) / stack.shape[1]
    out: list[set[int]] = [set() for _ in images]
    for i in range(len(images)):
        for j in range(i + 1, len(images)):
            alike = (stack[j] != stack[i]).mean() < MAX_DIFFERING_SHARE
            if texture:
                alike |= np.abs(hists[j] - hists[i]).sum() < MAX_HISTOGRAM_L1
            if alike:
                out[i].add(j)
                out[j].add(i)
    return out


def test_only_images_whose_colours_nearly_match_are_compared_pixel_by_pixel() -> None:
    """:func:`interchangeable` compares pixels only where the colour-cell counts allow
    fewer than :data:`MAX_DIFFERING_SHARE` differing pixels (5 of 2,500 here): its
    answers are those of comparing every pair, at the edge of the share (4 and 5
    pixels painted blue), where the counts match but the pixels do not (the square
    moved by one pixel; two pixels swapped)."""
    blue = (0, 0, 200)
    square = [(10 + k, 10) for k in range(6)]
    images = [_edited({})]
    images += [_edited(dict.fromkeys(square[:k], blue)) for k in (3, 4, 5, 6)]
    images += [_edited({}, shift=1), _edited({(10, 10): (242, 239, 233), (9, 10): (200, 0, 0)}),
               _edited({(10, 10): blue, (9, 9): (200, 0, 0)}),
               _png((200, 0, 0), (10, 10, 30, 30)), _png((0, 90, 0), (0, 0, 50, 50))]
    got = interchangeable(images)
    assert got == _interchangeable_pair_by_pair(images, texture=False)
    # four blue pixels differ from the plain square (and from three), five do not
    assert got[0] == {1, 2, 6, 7, 8} and 3 not in got[0] and 4 not in got[0]
    assert 5 not in got[0]  # moved by a pixel: the same colour counts, 40 pixels apart
    assert interchangeable(images, texture=True) == _interchangeable_pair_by_pair(
        images, texture=True)


def test_textures_compare_by_colour_histogram() -> None:
    # the same stripes shifted by one pixel: different pixels, same colours
    def stripes(offset: int) -> bytes:
        im = Image.new("RGB", (50, 50), (170, 211, 223))
        for x in range(offset, 50, 5):
            im.paste((0, 90, 0), (x, 0, x + 1, 50))
        buf = io.BytesIO()
        im.save(buf, "PNG")
        return buf.getvalue()

    a, b = stripes(0), stripes(1)
    assert interchangeable([a, b]) == [set(), set()]
    assert interchangeable([a, b], texture=True) == [{1}, {0}]
    assert interchangeable([a, _png((0, 90, 0), (0, 0, 50, 50))], texture=True) == [set(), set()]


BG = (242, 239, 233)  # OSM-Carto land


def _line(colour: tuple[int, int, int], width: int, *, dash: int = 0) -> bytes:
    """A west-east line across a 256 px swatch; ``dash``: on/off run length in px."""
    a = np.zeros((256, 256, 3), dtype=np.uint8)
    a[:] = BG
    top = 128 - width // 2
    for x in range(256):
        if dash and (x // dash) % 2:
            continue
        a[top:top + width, x] = colour
    buf = io.BytesIO()
    Image.fromarray(a).save(buf, format="PNG")
    return buf.getvalue()


def _fill(colour: tuple[int, int, int], *, dots: bool = False) -> bytes:
    a = np.zeros((256, 256, 3), dtype=np.uint8)
    a[:] = BG
    a[20:, :230] = colour
    if dots:
        a[20::4, :230:4] = (120, 160, 120)  # 6 % of the fill, like OSM-Carto's dots
    buf = io.BytesIO()
    Image.fromarray(a).save(buf, format="PNG")
    return buf.getvalue()


def test_lines_a_reader_cannot_tell_apart_alone() -> None:
    # OSM-Carto's city wall (4 px, #8b8b8b) and funicular (3 px, #959492): alike; a 2 px
    # line of the funicular's grey is half the wall's width, and width alone tells no
    # two lines apart (no scale): alike too; a blue line and a dashed grey one differ
    # from all
    wall, funicular = _line((139, 139, 139), 4), _line((149, 148, 146), 3)
    thin, blue = _line((149, 148, 146), 2), _line((170, 211, 223), 4)
    dashed = _line((139, 139, 139), 4, dash=6)
    assert look_alike([wall, funicular, thin, blue, dashed], "line") == [
        {1, 2}, {0, 2}, {0, 1}, set(), set()]
    # pixel-identity alone passes the pair: 256 of 65 536 pixels differ (0.4 %)
    assert interchangeable([wall, funicular]) == [set(), set()]


def _cased(width: int, *, fill: tuple[int, int, int] = (255, 255, 255),
           casing: tuple[int, int, int] = (187, 187, 187)) -> bytes:
    """A west-east road of ``width`` px: ``fill`` with a 1 px ``casing`` each side."""
    a = np.zeros((256, 256, 3), dtype=np.uint8)
    a[:] = BG
    top = 128 - width // 2
    a[top:top + width, :] = casing
    a[top + 1:top + width - 1, :] = fill
    buf = io.BytesIO()
    Image.fromarray(a).save(buf, format="PNG")
    return buf.getvalue()


def test_width_alone_never_tells_two_lines_apart() -> None:
    # mfs-0004: unclassified (12 px), service (8 px) and tertiary (18 px) roads are the
    # same white line with grey casing, widths 1.5x apart: one look-alike group; a
    # yellow road (secondary's #f7fabf is too pale, take primary's #fcd6a4) of the same
    # width and a white road with a dark casing are told apart
    unclassified, service, tertiary = _cased(12), _cased(8), _cased(18)
    primary = _cased(12, fill=(252, 214, 164), casing=(192, 123, 10))
    dark_cased = _cased(12, casing=(60, 60, 60))
    assert look_alike([unclassified, service, tertiary, primary, dark_cased], "line") == [
        {1, 2}, {0, 2}, {0, 1}, set(), set()]
    # the pixel rule alone passes them (their pixels differ in far more than 0.2 %)
    assert interchangeable([unclassified, tertiary]) == [set(), set()]


def _dashed(colour: tuple[int, int, int], width: int, *period: int) -> bytes:
    """A west-east line whose columns go on and off by ``period`` (px: on, off, on, ...)."""
    cols: list[bool] = []
    while len(cols) < 256:
        for i, n in enumerate(period):
            cols += [i % 2 == 0] * n
    a = np.zeros((256, 256, 3), dtype=np.uint8)
    a[:] = BG
    top = 128 - width // 2
    for x, on in enumerate(cols[:256]):
        if on:
            a[top:top + width, x] = colour
    buf = io.BytesIO()
    Image.fromarray(a).save(buf, format="PNG")
    return buf.getvalue()


def test_dash_length_alone_never_tells_two_dashed_lines_apart() -> None:
    # OSM-Carto's railway under construction (grey, 4 px on, 2 off: 67 % inked) and
    # disused railway (a paler grey, 3 on, 3 off: 50 %): the same grey row of dots to a
    # reader who sees one alone; the share of the length inked alone told them apart
    construction = _dashed((128, 128, 128), 3, 4, 2)
    disused = _dashed((150, 150, 150), 2, 3, 3)
    # a county border (dash-dot: 17 on, 1 off, 4 on, 1 off) and a municipal one
    # (dash-dot-dot-dot) of the same lilac: another pattern of marks, seen
    county = _dashed((191, 169, 186), 3, 17, 1, 4, 1)
    municipal = _dashed((191, 169, 186), 2, 10, 2, 2, 2, 3, 2, 2, 2)
    solid = _line((128, 128, 128), 3)
    assert look_alike([construction, disused, county, municipal, solid], "line") == [
        {1}, {0}, set(), set(), set()]
    assert appearance(county, "line").dashes == ("D", "d")
    assert appearance(municipal, "line").dashes == ("D", "d", "d", "d")
    assert appearance(solid, "line").dashes == ()
    assert LOOKALIKE_MAX_DASH_DIFF < 0.17   # the two railways' shares are 0.17 apart


def _aa_line(colour: tuple[int, int, int], width: float,
             centre: tuple[tuple[int, int, int], float] | None = None) -> bytes:
    """A west-east line ``width`` px wide as an anti-aliasing renderer draws it: each
    row is ``colour`` laid over the land at the share of the row the line covers;
    ``centre``: a second, narrower stroke (colour, width) on top (the city wall's)."""
    a = np.zeros((256, 256, 3))
    a[:] = BG
    for col, w in ((colour, width), *((centre,) if centre else ())):
        top, bottom = 128.0 - w / 2, 128.0 + w / 2
        for y in range(256):
            cover = max(0.0, min(y + 1, bottom) - max(y, top))
            if cover > 0:
                a[y, :] = a[y, :] + cover * (np.array(col) - a[y, :])
    buf = io.BytesIO()
    Image.fromarray(np.rint(a).astype(np.uint8)).save(buf, format="PNG")
    return buf.getvalue()


def test_anti_aliased_edges_are_no_casing() -> None:
    # mfs-0013 of seed 4141: a stream (#aad3df, about 2.9 px) and a ditch (1.8 px) are
    # the same blue; the stream's partly covered edge rows are its blue over the land,
    # not a casing the ditch lacks. A white road with a grey casing keeps its casing.
    stream, ditch, canal = (_aa_line((170, 211, 223), w) for w in (2.9, 1.8, 10.0))
    road = _cased(12)
    assert look_alike([stream, ditch, canal, road], "line") == [
        {1, 2}, {0, 2}, {0, 1}, set()]
    look = appearance(stream, "line")
    assert look.edge is not None and look.core is not None
    assert float(np.linalg.norm(look.edge - look.core)) < 1e-9   # no casing
    cased = appearance(road, "line")
    assert cased.edge is not None and cased.core is not None
    assert float(np.linalg.norm(cased.edge - cased.core)) > LOOKALIKE_MAX_DELTA_E


def test_a_thin_line_may_be_any_line_of_its_colour() -> None:
    # mfs-0010 of seed 4141: OSM-Carto's power line (#888888, 1.2 px) covers no pixel
    # fully and reads a paler grey than the city wall (#919191, 4 px, a 0.4 px #444444
    # line on top): told apart by width alone, so alike. A thin blue line, a thin green
    # one and a line too faint to be the wall's grey (under 25 % cover) are not.
    power = _aa_line((136, 136, 136), 1.2)
    wall = _aa_line((145, 145, 145), 4.0, centre=((68, 68, 68), 0.4))
    blue, green = _aa_line((170, 211, 223), 1.2), _aa_line((174, 209, 160), 1.2)
    faint = _aa_line((136, 136, 136), 0.15)
    assert appearance(power, "line").thin and not appearance(wall, "line").thin
    assert look_alike([power, wall, blue, green], "line") == [{1}, {0}, set(), set()]
    assert look_alike([faint, wall], "line") == [set(), set()]
    assert 0 < THIN_LINE_MIN_COVER < 1 and THIN_LINE_PX == 3.0


def test_a_small_pattern_does_not_tell_two_fills_apart() -> None:
    plain = _fill((224, 223, 223))
    a = np.frombuffer(Image.open(io.BytesIO(plain)).tobytes(), np.uint8).reshape(256, 256, 3)
    a = a.copy()
    a[20::8, :230:8] = (120, 160, 120)        # dots on 1.6 % of the fill: not seen
    buf = io.BytesIO()
    Image.fromarray(a).save(buf, format="PNG")
    sparse = buf.getvalue()
    dotted = _fill((224, 223, 223), dots=True)  # 6 %: seen
    # plain and dotted differ by 6 % of the fill, the sparse one by under 5 % from both
    assert look_alike([plain, sparse, dotted], "area") == [{1}, {0, 2}, {1}]


def _dotted(step: int) -> bytes:
    """A #cdebb0 fill with a dark dot every ``step`` pixels (density 1/step**2)."""
    a = np.frombuffer(Image.open(io.BytesIO(_fill((205, 235, 176)))).tobytes(),
                      np.uint8).reshape(256, 256, 3).copy()
    for dy in range(2):
        for dx in range(2):
            a[dy::step, dx::step] = (90, 140, 200)
    buf = io.BytesIO()
    Image.fromarray(a).save(buf, format="PNG")
    return buf.getvalue()


def test_pattern_density_alone_does_not_tell_two_fills_apart() -> None:
    # the same dots at 25 % and 44 % of the fill (marsh and saltmarsh: the same tufts and
    # dashes at 21 % and 39 %, mfs-0014 of seed 2718), and at 11 %: more than 2x apart
    sparse, dense, sparser = _dotted(4), _dotted(3), _dotted(6)
    assert look_alike([sparse, dense, sparser], "area") == [{1}, {0}, set()]
    assert LOOKALIKE_MAX_PATTERN_RATIO == 2.0


def test_area_fills_a_reader_cannot_tell_apart_alone() -> None:
    # residential #e0dfdf and aerodrome grounds #e9e7e2: delta E 3.8; water #aad3df
    # is blue; a dotted fill of the same colour is patterned
    residential, aerodrome = _fill((224, 223, 223)), _fill((233, 231, 226))
    water, dotted = _fill((170, 211, 223)), _fill((224, 223, 223), dots=True)
    assert look_alike([residential, aerodrome, water, dotted], "area") == [
        {1}, {0}, set(), set()]
    # symbols are told apart by shape: no colour rule
    assert look_alike([residential, aerodrome], "symbol") == [set(), set()]


def test_delta_e_and_grey_lightness_limits_are_the_boundaries() -> None:
    # greys: alike while their lightness differs by less than LOOKALIKE_GREY_MAX_DL
    grey = srgb_to_lab(np.array([150, 150, 150]))
    for level in range(150, 230):
        other = srgb_to_lab(np.array([level, level, level]))
        alike = appearances_alike(Appearance(grey, 3.0, 1.0), Appearance(other, 3.0, 1.0), "line")
        assert alike == (abs(float(grey[0] - other[0])) < LOOKALIKE_GREY_MAX_DL)
    # colours: alike while delta E is under LOOKALIKE_MAX_DELTA_E (water blue and a
    # grey of the same lightness differ in hue: not alike)
    blue = srgb_to_lab(np.array([170, 211, 223]))
    for level in range(180, 240, 5):
        other = srgb_to_lab(np.array([170, 211, level]))
        alike = appearances_alike(Appearance(blue, 0.0, 0.0), Appearance(other, 0.0, 0.0), "area")
        assert alike == (float(np.linalg.norm(blue - other)) < LOOKALIKE_MAX_DELTA_E)
    grey_like_water = srgb_to_lab(np.array([208, 208, 208]))
    assert not appearances_alike(Appearance(blue, 0.0, 0.0), Appearance(grey_like_water, 0.0, 0.0),
                                 "area")
