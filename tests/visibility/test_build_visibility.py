"""Pixel tests of cartoqa.visibility on hand-made arrays (no rendering)."""

from __future__ import annotations

import numpy as np

from cartoqa.visibility import (
    colour_mask,
    find_icons,
    ink_mask,
    iou_map,
    label_under_icon,
    line_mask,
    name_drawn_along,
    text_pixels_along,
)


def plus(size: int = 7) -> np.ndarray:
    t = np.zeros((size, size), bool)
    t[:, size // 2] = True
    t[size // 2, :] = True
    return t


def test_ink_is_where_screen_and_reference_differ() -> None:
    ref = np.full((4, 6, 3), 240, np.int16)
    screen = ref.copy()
    screen[1, 2] = (30, 30, 30)  # text
    screen[2, 4] = (250, 250, 250)  # small rendering noise: not ink
    exclude = np.zeros((4, 6), bool)
    assert ink_mask(screen, ref).sum() == 1 and ink_mask(screen, ref)[1, 2]
    exclude[1, 2] = True
    assert ink_mask(screen, ref, exclude=exclude).sum() == 0


def test_colour_mask_full_and_sparse_agree() -> None:
    rng = np.random.default_rng(0)
    im = rng.integers(0, 256, size=(20, 30, 3)).astype(np.int16)
    im[5, 5] = (0x0C, 0x84, 0x16)
    where = np.ones((20, 30), bool)
    full = colour_mask(im, "#0c8416", 30)
    assert full[5, 5]
    assert (colour_mask(im, "#0c8416", 30, where=where) == full).all()


def test_iou_map_peaks_where_the_template_sits() -> None:
    t = plus(7)
    m = np.zeros((30, 40), bool)
    m[10:17, 20:27] = t
    scores = iou_map(m, t)
    assert scores.shape == (24, 34)
    assert scores[10, 20] == 1.0
    # one pixel to the right: the horizontal bars share 6 pixels; the window holds
    # 12 mask pixels, so IoU = 6 / (13 + 12 - 6)
    assert abs(scores[10, 21] - 6 / 19) < 1e-6


def test_find_icons_finds_the_icon_not_a_different_shape() -> None:
    t = plus(7)
    m = np.zeros((40, 60), bool)
    m[10:17, 20:27] = t  # the icon: centre (23.5, 13.5)
    m[25:32, 40:47] = True  # a filled square of the same colour: IoU 13/49
    found = find_icons(m, t)
    assert [(x, y) for x, y, _ in found] == [(23.5, 13.5)]
    assert found[0][2] == 1.0


def test_label_must_be_centred_under_the_icon() -> None:
    ink = np.zeros((80, 200), bool)
    ink[24:32, 80:121] = True  # one text line centred at x=100, 12-20 px below y=12
    assert label_under_icon(ink, 100.0, 12.0)
    assert not label_under_icon(ink, 140.0, 12.0)  # a neighbour's label, off-centre
    assert not label_under_icon(ink, 100.0, 40.0)  # text above the icon, not below
    sparse = np.zeros((80, 200), bool)
    sparse[26, 98:103] = True  # 5 pixels: a stray, not a label
    assert not label_under_icon(sparse, 100.0, 12.0)


def test_road_name_needs_text_along_the_road() -> None:
    dark = np.zeros((50, 200), bool)
    dark[22:29, 40:100:2] = True  # glyph strokes on the road y=25, x 40..98
    road = [[(0.0, 25.0), (199.0, 25.0)]]
    other = [[(0.0, 45.0), (199.0, 45.0)]]
    on_road = text_pixels_along(dark, road)
    assert on_road == 7 * 30
    assert text_pixels_along(dark, other) == 0
    assert name_drawn_along(on_road, "Annankatu")
    assert not name_drawn_along(20, "Annankatu")


def test_line_mask_width() -> None:
    m = line_mask((20, 20), [[(0.0, 10.0), (19.0, 10.0)]], radius=2)
    assert m[8:13, 5].all() and not m[6, 5] and not m[14, 5]


def test_label_of_an_icon_above_the_view_counts_only_when_it_shows() -> None:
    from cartoqa.visibility.labels import LABEL_BOTTOM_PX, LABEL_TOP_PX, label_peeks_in

    ink = np.zeros((100, 200), dtype=bool)
    # an icon 20 px above the top edge: its label box reaches rows 0..LABEL_BOTTOM_PX-20
    assert not label_peeks_in(ink, 100.0, -20.0)
    ink[2:8, 90:110] = True  # 120 label pixels where its label would be
    assert label_peeks_in(ink, 100.0, -20.0)
    # the same ink is no one's label for an icon further out or beside it
    assert not label_peeks_in(ink, 100.0, -(LABEL_BOTTOM_PX + 1.0))
    assert not label_peeks_in(ink, 180.0, -20.0)
    assert LABEL_TOP_PX < LABEL_BOTTOM_PX


def test_visibility_does_not_import_the_tasks() -> None:
    """The dependency runs one way: tasks use visibility, never the reverse."""
    import subprocess
    import sys

    code = ("import sys, cartoqa.visibility; "
            "print(sorted(m for m in sys.modules if m.startswith('cartoqa.tasks')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_edge_band_is_one_test_for_the_analysis_and_the_map_sampler() -> None:
    from cartoqa.visibility.screen import near_edge, within_band

    # on the band inside, by a control, and beyond the band outside
    assert near_edge(5.0, 300.0, width=1366, height=768, margin=9.0, boxes=())
    assert near_edge(148.0, 740.0, width=1366, height=768, margin=9.0,
                     boxes=[(0.0, 718.0, 140.0, 768.0)])
    assert not near_edge(160.0, 740.0, width=1366, height=768, margin=9.0,
                         boxes=[(0.0, 718.0, 140.0, 768.0)])
    assert not within_band(-10.0, 300.0, width=1366, height=768, margin=9.0)
