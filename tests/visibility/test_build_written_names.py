"""The name-is-written oracle (cartoqa.visibility.written) on constructed images.

A name counts as written only where Mapnik drew it (its pixels in the mark colour),
whole inside the view, not under a marker or control, seen on the screenshot and along
its road. Dark ink along the road (traffic-signal icons) is not a name.
"""

from __future__ import annotations

import numpy as np

from cartoqa.visibility.written import (
    MARK_LINE_RADIUS_PX,
    MARK_MAX_HIDDEN,
    Instance,
    judge_marked,
    label_instances,
    mark_mask,
    marked_names,
    possibly_written,
    written_instances,
    written_names,
)
from renderers.label_marks import MARK_COLOURS, mark_label_rules, mark_variables

PAD = 10
H, W = 60, 200


def marks_with_label(slot: int, x0: int, x1: int, y: int) -> np.ndarray:
    """A padded marks render with one label of ``slot``: strokes every 2 px on rows y-3..y+3."""
    marks = np.zeros((H + 2 * PAD, W + 2 * PAD, 4), np.int16)
    for x in range(x0, x1, 2):
        marks[PAD + y - 3:PAD + y + 4, PAD + x] = (*MARK_COLOURS[slot], 255)
    return marks


ROAD = {"Annankatu": [[(0.0, 30.0), (199.0, 30.0)]]}


def judge(marks: np.ndarray, *, ink: np.ndarray | None = None,
          exclude: np.ndarray | None = None, names: tuple[str, ...] = ("Annankatu",),
          ) -> dict[str, list[Instance]]:
    if ink is None:
        ink = np.ones((H, W), bool)
    if exclude is None:
        exclude = np.zeros((H, W), bool)
    return written_instances(marks, list(names), pad=PAD, ink=ink, exclude=exclude,
                             lines=ROAD)


def test_mark_mask_takes_only_its_slot_colour() -> None:
    marks = marks_with_label(1, 40, 100, 30)
    assert mark_mask(marks, 1).sum() == 7 * 30
    assert mark_mask(marks, 0).sum() == 0
    marks[..., 3] = 100  # see-through (halo blend): not the label's fill
    assert mark_mask(marks, 1).sum() == 0


def test_letters_join_into_one_label_and_labels_stay_apart() -> None:
    mask = np.zeros((20, 200), bool)
    mask[8:12, 10:60:3] = True   # letters 3 px apart: one label of 17 strokes x 4 rows
    mask[8:12, 120:160:3] = True  # 60 px further: another label
    parts = label_instances(mask)
    assert [int(p.sum()) for p in parts] == [17 * 4, 14 * 4]


def test_a_label_inside_the_view_along_its_road_is_written() -> None:
    judged = judge(marks_with_label(0, 40, 100, 30))
    [inst] = judged["Annankatu"]
    assert inst.reason is None and inst.box == (40, 27, 99, 34) and inst.pixels == 7 * 30
    assert written_names(judged) == {"Annankatu"}


def test_dark_icons_along_the_road_are_not_a_name() -> None:
    # the screenshot has dark ink all along the road (traffic signals), but Mapnik did
    # not write the name: no mark pixels, no instance, not written
    marks = np.zeros((H + 2 * PAD, W + 2 * PAD, 4), np.int16)
    ink = np.zeros((H, W), bool)
    ink[24:37, 20:180:12] = True
    judged = judge(marks, ink=ink)
    assert judged == {"Annankatu": []}
    assert written_names(judged) == set()


def test_a_label_running_off_the_view_is_cut() -> None:
    judged = judge(marks_with_label(0, -6, 50, 30))  # starts 6 px left of the view
    assert [i.reason for i in judged["Annankatu"]] == ["cut"]
    assert written_names(judged) == set()


def test_a_label_under_a_marker_is_hidden() -> None:
    exclude = np.zeros((H, W), bool)
    exclude[:, 40:50] = True  # a pin over its first 5 strokes: 35 of 210 px > 5 %
    judged = judge(marks_with_label(0, 40, 100, 30), exclude=exclude)
    assert [i.reason for i in judged["Annankatu"]] == ["hidden"]
    exclude[:, 40:42] = True
    exclude[:, 42:50] = False  # one stroke: 7 px, under 5 % of 210
    assert MARK_MAX_HIDDEN * 210 >= 7
    assert [i.reason for i in judge(marks_with_label(0, 40, 100, 30),
                                    exclude=exclude)["Annankatu"]] == [None]


def test_a_label_missing_from_the_screenshot_is_not_written() -> None:
    ink = np.zeros((H, W), bool)
    ink[:, 40:60] = True  # only a third of the label is ink on the screenshot
    judged = judge(marks_with_label(0, 40, 100, 30), ink=ink)
    assert [i.reason for i in judged["Annankatu"]] == ["not on the screenshot"]


def test_a_same_named_label_away_from_the_road_does_not_count() -> None:
    y = 30 + int(MARK_LINE_RADIUS_PX) + 8
    judged = judge(marks_with_label(0, 40, 100, y))
    assert [i.reason for i in judged["Annankatu"]] == ["off the road"]


def test_each_name_is_read_in_its_own_slot() -> None:
    marks = marks_with_label(1, 40, 100, 30)
    judged = judge(marks, names=("Bulevardi", "Annankatu"))
    assert judged["Bulevardi"] == [] and [i.reason for i in judged["Annankatu"]] == [None]


def maybe(marks: np.ndarray, *, exclude: np.ndarray | None = None,
          names: tuple[str, ...] = ("Annankatu",)) -> set[str]:
    """possibly_written before a screenshot exists (no ink)."""
    if exclude is None:
        exclude = np.zeros((H, W), bool)
    return possibly_written(marked_names(marks, list(names), pad=PAD, lines=ROAD), pad=PAD,
                            exclude=exclude)


def test_before_the_screenshot_cut_hidden_and_off_road_labels_are_ruled_out() -> None:
    assert maybe(marks_with_label(0, 40, 100, 30)) == {"Annankatu"}
    assert maybe(marks_with_label(0, -6, 50, 30)) == set()  # cut
    exclude = np.zeros((H, W), bool)
    exclude[:, 40:50] = True
    assert maybe(marks_with_label(0, 40, 100, 30), exclude=exclude) == set()  # hidden
    y = 30 + int(MARK_LINE_RADIUS_PX) + 8
    assert maybe(marks_with_label(0, 40, 100, y)) == set()  # off the road
    empty = np.zeros((H + 2 * PAD, W + 2 * PAD, 4), np.int16)
    assert maybe(empty) == set()  # Mapnik did not write it


def test_before_the_screenshot_a_label_is_not_judged_on_ink() -> None:
    # no ink at all: not written on the screenshot, but nothing before it rules it out
    marks = marks_with_label(0, 40, 100, 30)
    assert written_names(judge(marks, ink=np.zeros((H, W), bool))) == set()
    assert maybe(marks) == {"Annankatu"}


def test_a_word_cut_off_the_view_rules_out_its_whole_label_before_the_screenshot() -> None:
    marks = marks_with_label(0, -6, 40, 30)  # first word cut by the left edge
    marks = np.maximum(marks, marks_with_label(0, 50, 100, 30))  # second word 10 px on
    assert written_names(judge(marks)) == set()
    assert maybe(marks) == set()


def test_judging_read_labels_equals_judging_the_render() -> None:
    marks = np.maximum(marks_with_label(0, 40, 100, 30), marks_with_label(1, -6, 60, 30))
    names = ["Annankatu", "Bulevardi"]
    lines = {**ROAD, "Bulevardi": ROAD["Annankatu"]}
    ink = np.ones((H, W), bool)
    exclude = np.zeros((H, W), bool)
    marked = marked_names(marks, names, pad=PAD, lines=lines)
    assert judge_marked(marked, pad=PAD, ink=ink, exclude=exclude) == written_instances(
        marks, names, pad=PAD, ink=ink, exclude=exclude, lines=lines)


def test_a_name_ruled_out_before_the_screenshot_is_never_written_after_it() -> None:
    # Random labels (some running off the view, some off the road, words close
    # together), random screenshot ink, and the controls' exclusion grown by the render:
    # whatever possibly_written rules out with the zones known before rendering, the
    # full judgment with the grown zones does not find written.
    rng = np.random.default_rng(20261202)
    ruled_out = kept = written = 0
    for _ in range(300):
        marks = np.zeros((H + 2 * PAD, W + 2 * PAD, 4), np.int16)
        for _ in range(int(rng.integers(1, 4))):
            x0 = int(rng.integers(-PAD, W - 10))
            x1 = min(x0 + int(rng.integers(8, 60)), W + PAD)
            marks = np.maximum(marks, marks_with_label(0, x0, x1, int(rng.integers(4, H - 4))))
        before = np.zeros((H, W), bool)
        for _ in range(int(rng.integers(0, 3))):
            x, y = int(rng.integers(0, W)), int(rng.integers(0, H))
            before[y:y + int(rng.integers(2, 20)), x:x + int(rng.integers(2, 20))] = True
        after = before.copy()
        for _ in range(int(rng.integers(0, 3))):
            x, y = int(rng.integers(0, W)), int(rng.integers(0, H))
            after[y:y + int(rng.integers(2, 20)), x:x + int(rng.integers(2, 20))] = True
        ink = rng.random((H, W)) < rng.uniform(0.5, 1.0)
        marked = marked_names(marks, ["Annankatu"], pad=PAD, lines=ROAD)
        possible = possibly_written(marked, pad=PAD, exclude=before)
        full = written_names(judge_marked(marked, pad=PAD, ink=ink, exclude=after))
        assert full <= possible
        ruled_out += not possible
        kept += bool(possible)
        written += bool(full)
    assert ruled_out > 30 and kept > 30 and written > 10  # every outcome is exercised


def test_marked_style_copies_text_rules_in_first_mode_only() -> None:
    src = ('<Style filter-mode="first" name="roads-text-name">'
           '<Rule><Filter>([highway] = \'primary\')</Filter>'
           '<TextSymbolizer fill="#000000" size="11">[name]</TextSymbolizer></Rule>'
           '<Rule><LineSymbolizer stroke="#fff"/></Rule></Style>'
           '<Style name="roads-area-text-name"><Rule>'
           '<TextSymbolizer fill="#111111">[name]</TextSymbolizer></Rule></Style>')
    out = mark_label_rules(src)
    # six marked copies of the one text rule, before it; the line rule and the style
    # without filter-mode="first" are left alone
    assert out.count("<Rule>") == 2 + 6 + 1
    assert out.index("@cartoqa_mark5") < out.index('fill="#000000"')
    assert ("(([highway] = 'primary')) and (([name] = @cartoqa_mark0) or "
            "([name] = @cartoqa_mark0_nl))") in out
    assert out.count('fill="#111111"') == 1 and "cartoqa_mark" not in out.split("</Style>")[1]
    # OSM-Carto's point labels (layer text-point) carry a trailing newline:
    # CONCAT(name, E'\n' || CONCAT(NULL, NULL)) is "Jufu\n"; both spellings are marked
    assert mark_variables(["A", "B"]) == {"cartoqa_mark0": "A", "cartoqa_mark0_nl": "A\n",
                                          "cartoqa_mark1": "B", "cartoqa_mark1_nl": "B\n",
                                          "cartoqa_mark2": "", "cartoqa_mark2_nl": "",
                                          "cartoqa_mark3": "", "cartoqa_mark3_nl": "",
                                          "cartoqa_mark4": "", "cartoqa_mark4_nl": "",
                                          "cartoqa_mark5": "", "cartoqa_mark5_nl": ""}


def test_the_edges_of_thin_letters_count_but_the_halo_does_not() -> None:
    # a 10 px point label in a mark colour: few pure pixels, many blended towards
    # white at the letters' edges (measured on "Ravintola Hausman": (121, 252, 119))
    marks = np.zeros((1, 5, 4), np.int16)
    marks[..., 3] = 255
    green = MARK_COLOURS.index((0, 255, 0))
    marks[0, :, :3] = [(0, 255, 0), (121, 252, 119), (136, 252, 134), (242, 239, 233),
                       (12, 132, 22)]  # pure, edge, halo-white, land, OSM-Carto's green
    assert mark_mask(marks, green).tolist() == [[True, True, False, False, False]]


def _random_marks(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A marks-like render: transparent, with strokes of mark colours, their edge blends,
    halo-like see-through pixels and other label colours, some at the image's border."""
    marks = np.zeros((h, w, 4), np.int16)
    for _ in range(int(rng.integers(0, 25))):
        y, x = int(rng.integers(0, h)), int(rng.integers(0, w))
        dy, dx = int(rng.integers(1, 9)), int(rng.integers(1, 60))
        colour = MARK_COLOURS[int(rng.integers(0, len(MARK_COLOURS)))]
        kind = rng.integers(0, 4)
        if kind == 1:  # blended towards white (a letter's edge) or towards the halo
            colour = tuple(min(255, c + int(rng.integers(0, 200))) for c in colour)
        elif kind == 2:  # an OSM-Carto label colour
            colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        alpha = 255 if kind != 3 else int(rng.integers(0, 256))
        marks[y:y + dy, x:x + dx:int(rng.integers(1, 4))] = (*colour, alpha)
    return marks


def test_faster_mask_and_labels_equal_the_whole_image_ones() -> None:
    """The mask of the pixels that can pass, the split on the box around the mask, the
    verdict on the label's box (given whole or kept on its box, label_parts) and the
    labels judged whole from the groups under each label's box give the masks, labels,
    label order and verdicts of the whole-image versions."""
    from helpers.written_before import (
        judge_instance_before,
        label_instances_before,
        mark_mask_before,
        whole_labels_before,
    )

    from cartoqa.visibility.written import (
        judge_instance,
        label_parts,
        mark_masks,
        whole_labels,
    )

    rng = np.random.default_rng(20261130)
    labels_seen = grouped = 0
    verdicts: set[str | None] = set()
    for _ in range(150):
        h, w = int(rng.integers(8, 120)), int(rng.integers(8, 260))
        pad = int(rng.integers(0, 6))
        marks = _random_marks(rng, h + 2 * pad, w + 2 * pad)
        # ink mostly present, some pixels excluded, a band near "the road"
        ink = rng.random((h, w)) < 0.85
        exclude = np.zeros((h, w), bool)
        exclude[:, : int(rng.integers(0, w))] = rng.random() < 0.3
        near = np.zeros((h, w), bool)
        near[int(rng.integers(0, h)):, :] = True
        together = mark_masks(marks, range(len(MARK_COLOURS)))  # channel tests shared
        for slot in range(len(MARK_COLOURS)):
            mask = mark_mask(marks, slot)
            assert np.array_equal(mask, mark_mask_before(marks, slot))
            assert np.array_equal(together[slot], mask)
            for join_px, min_pixels in ((4, 12), (2, 1), (9, 5)):
                new = label_instances(mask, join_px=join_px, min_pixels=min_pixels)
                old = label_instances_before(mask, join_px=join_px, min_pixels=min_pixels)
                assert len(new) == len(old)
                assert all(np.array_equal(a, b) for a, b in zip(new, old, strict=True))
                parts = label_parts(mask, join_px=join_px, min_pixels=min_pixels)
                assert [p.pixels for p in parts] == [int(p.sum()) for p in old]
                assert all(np.array_equal(p.full(mask.shape), b)
                           for p, b in zip(parts, old, strict=True))
                labels_seen += len(new)
                for part, kept in zip(new, parts, strict=True):
                    for line in (None, near):
                        verdict = judge_instance(part, pad=pad, ink=ink, exclude=exclude,
                                                 near_line=line)
                        assert verdict == judge_instance_before(
                            part, pad=pad, ink=ink, exclude=exclude, near_line=line)
                        assert verdict == judge_instance(kept, pad=pad, ink=ink,
                                                         exclude=exclude, near_line=line)
                        verdicts.add(verdict.reason)
                # each label judged whole: random verdicts, several word gaps
                judged = [Instance((0, 0, 1, 1), 1, ("cut", None, "hidden")[
                    int(rng.integers(0, 3))]) for _ in old]
                for gap in (join_px, 12, 30):
                    whole = whole_labels(mask, parts, judged, word_gap_px=gap)
                    assert whole == whole_labels_before(mask, old, judged, word_gap_px=gap)
                    assert whole == whole_labels(mask, new, judged, word_gap_px=gap)
                    grouped += whole != judged
    assert labels_seen > 500  # the images held labels enough to compare
    assert grouped > 50  # whole labels changed verdicts often enough to compare
    assert verdicts == {None, "cut", "hidden", "not on the screenshot", "off the road"}
