"""MapWise styles drawn and read back: the pixel check passes on the true data and
fails when the data disagree (hatch windows, colour-bar values), on a hand-made map."""

from __future__ import annotations

from itertools import pairwise

import pytest
from shapely.geometry import box

from renderers.thematic.check import check_styled
from renderers.thematic.design import (
    HATCHES,
    PAPERS,
    ColourBar,
    Design,
    delta_e,
    ramp_classes,
    ramp_colour,
)
from renderers.thematic.draw import MapRequest, draw_map

# Five square regions in a row, 100 km wide, one per class.
GEOMS = {c: box(i * 1e5, 0, (i + 1) * 1e5, 1e5) for i, c in enumerate(["AA", "BB", "CC",
                                                                        "DD", "EE"])}
CLASSES = {"AA": 1, "BB": 2, "CC": 3, "DD": 4, "EE": 5}
LABELS = ("0–1", "2–3", "4–5", "6–7", "8–9")
VALUES = {"AA": 5.0, "BB": 25.0, "CC": 50.0, "DD": 75.0, "EE": 95.0}


def test_hatched_map_passes_and_a_wrong_class_fails() -> None:
    design = Design(colours=ramp_classes("light"), hatches=HATCHES, callout_sides=2)
    drawn = draw_map(MapRequest("choropleth", "T", CLASSES, LABELS, GEOMS, design))
    assert drawn.report["hatches"] == list(HATCHES)
    assert all(s.get("window") for s in drawn.report["states"].values())
    assert check_styled(drawn.png, drawn.report, CLASSES, design.colours) == []
    wrong = {**CLASSES, "BB": 3, "CC": 2}
    problems = check_styled(drawn.png, drawn.report, wrong, design.colours)
    assert {(p.reason, p.state) for p in problems} == {("hatch_mismatch", "BB"),
                                                       ("hatch_mismatch", "CC")}


def test_hatched_labels_sit_on_white() -> None:
    """On hatched maps a label sits on a white box (its label box): the densest hatch
    (class 5, a grid) leaves no black pixel in the box's margins."""
    import io

    import numpy as np
    from PIL import Image

    design = Design(colours=ramp_classes("light"), hatches=HATCHES, callout_sides=2)
    drawn = draw_map(MapRequest("choropleth", "T", CLASSES, LABELS, GEOMS, design))
    img = np.asarray(Image.open(io.BytesIO(drawn.png)).convert("L"))
    label = drawn.report["states"]["EE"]["label"]
    x0, y0, x1, y1 = (round(v) for v in label["bbox"])
    margins = np.concatenate([img[y0 + 1:y1 - 1, x0 + 1], img[y0 + 1:y1 - 1, x1 - 2]])
    assert margins.min() > 200  # left and right margins of the box: white, no grid lines
    assert (img[y0:y1, x0:x1] < 80).sum() >= 20  # the label itself is drawn


def test_class_colours_are_evenly_distinct() -> None:
    """Class colours are spaced evenly in ΔE*ab along each ramp, the ends kept: the light
    ramp's classes 1 and 2 were 8.9 apart when spaced evenly in position."""
    for ramp, least in (("light", 11.5), ("dark", 18.0), ("gradient", 50.0)):
        colours = ramp_classes(ramp)
        assert colours[0] == ramp_colour(ramp, 0.0) and colours[-1] == ramp_colour(ramp, 1.0)
        steps = [delta_e(a, b) for a, b in pairwise(colours)]
        assert min(steps) >= least and max(steps) - min(steps) < 1.5, (ramp, steps)
    assert abs(delta_e("#ffffff", "#000000") - 100.0) < 1e-4


def test_colour_bar_values_read_back_within_tolerance() -> None:
    bar = ColourBar("gradient", 0.0, 100.0, (0, 25, 50, 75, 100),
                    ("0", "25", "50", "75", "100"))
    design = Design(colours=ramp_classes("gradient"), paper=PAPERS["grey"], callout_sides=2)
    drawn = draw_map(MapRequest("choropleth", "T", CLASSES, LABELS, GEOMS, design, bar,
                                VALUES))
    assert drawn.report["paper"] == PAPERS["grey"] and drawn.report["colour_bar"]
    assert check_styled(drawn.png, drawn.report, CLASSES, design.colours, VALUES) == []
    # 1.5 on a 0-100 bar is inside the 2% tolerance; 10 is not
    near = {**VALUES, "AA": VALUES["AA"] + 1.5}
    assert check_styled(drawn.png, drawn.report, CLASSES, design.colours, near) == []
    far = {**VALUES, "CC": 60.0}
    problems = check_styled(drawn.png, drawn.report, CLASSES, design.colours, far)
    assert [(p.reason, p.state) for p in problems] == [("value_colour_mismatch", "CC")]


def test_annotations_are_drawn_and_images_repeat() -> None:
    design = Design(colours=ramp_classes("dark"), callout_sides=2)
    notes = {c: f"{v:g}" for c, v in VALUES.items()}
    req = MapRequest("choropleth", "T", CLASSES, LABELS, GEOMS, design, None, VALUES, notes)
    drawn = draw_map(req)
    assert drawn.report["states"]["CC"]["label"]["text"] == "CC\n50"
    assert check_styled(drawn.png, drawn.report, CLASSES, design.colours) == []
    assert draw_map(req).png == drawn.png


@pytest.mark.parametrize(("country", "index"), [("india", 5), ("china", 5), ("india", 9),
                                                ("china", 9)])
def test_no_leader_line_crosses_another_regions_label(country: str, index: int) -> None:
    """Annotated maps of India and China (two-line labels, many callouts): India's JH
    leader ran through WB's label, China's NX leader through SX's."""
    from shapely.geometry import LineString

    from cartoqa.tasks.mapwise.build import STYLES, colour_bar, load_variables, plan_maps
    from groundtruth.thematic.classification import format_number
    from groundtruth.thematic.countries import load_country
    from renderers.thematic.design import PAPERS, Design, ramp_classes

    plan = plan_maps(load_variables([country], None, 0), 14, 0)[index]
    legend, ramp, _, paper, annotated = STYLES[plan.style]
    assert annotated
    values = plan.variable.values
    classes = plan.classify()
    drawn = draw_map(MapRequest(
        "choropleth", plan.variable.title, classes.classes, classes.labels,
        dict(load_country(country).projected),
        Design(colours=ramp_classes(ramp, classes.k), paper=PAPERS[paper], callout_sides=2),
        colour_bar(values, ramp) if legend == "continuous" else None, dict(values),
        {c: format_number(v, 3) for c, v in values.items()}))
    states = drawn.report["states"]
    lines = {c: LineString(s["leader_line"]) for c, s in states.items() if "leader_line" in s}
    assert len(lines) >= 5
    for c, line in lines.items():
        for k, s in states.items():
            if k != c and "leader_line" not in s:
                assert not line.intersects(box(*s["label"]["bbox"])), (c, k)


@pytest.mark.parametrize("k", [3, 4])
def test_hatched_maps_with_three_or_four_classes(k: int) -> None:
    """Hatched legends of 3 and 4 classes use subsets of the five patterns, blank first
    and the dense grid last; the pixel check passes on the true classes and names the
    two regions whose classes are swapped."""
    from renderers.thematic.design import HATCH_SETS

    hatches = HATCH_SETS[k]
    assert hatches[0] == "" and hatches[-1] == "++++" and len(set(hatches)) == k
    geoms = dict(list(GEOMS.items())[:k])
    classes = {c: i + 1 for i, c in enumerate(geoms)}
    design = Design(colours=ramp_classes("light", k), hatches=hatches, callout_sides=2)
    drawn = draw_map(MapRequest("choropleth", "T", classes, LABELS[:k], geoms, design))
    assert drawn.report["hatches"] == list(hatches)
    assert check_styled(drawn.png, drawn.report, classes, design.colours) == []
    wrong = {**classes, "AA": 2, "BB": 1}
    problems = check_styled(drawn.png, drawn.report, wrong, design.colours)
    assert {(p.reason, p.state) for p in problems} == {("hatch_mismatch", "AA"),
                                                       ("hatch_mismatch", "BB")}


def _us_unlabelled(**kw: object) -> tuple[object, dict[str, int], Design]:
    from groundtruth.thematic.countries import load_country

    regions = load_country("usa")
    codes = sorted(regions.projected)
    classes = {c: 1 + i % 5 for i, c in enumerate(codes)}
    design = Design(colours=ramp_classes("light"), region_labels=False, **kw)  # type: ignore[arg-type]
    drawn = draw_map(MapRequest("choropleth", "T", classes, LABELS, dict(regions.projected),
                                design))
    return drawn, classes, design


def test_a_map_without_region_labels_draws_no_codes_and_hides_small_regions() -> None:
    """MapWise's wo_annotations maps: no code, no callout, no leader; the regions a
    largest part holds no disc 10 pixels across (DC, RI) are reported hidden; the fill check still
    runs on every region it can see and fails on a wrong class."""
    import io

    import numpy as np
    from PIL import Image

    from groundtruth.thematic.countries import load_country
    from renderers.thematic.design import text_colour

    drawn, classes, design = _us_unlabelled()
    report = drawn.report
    assert report["region_labels"] is False
    states = report["states"]
    assert all(s["label"] is None and not s.get("swatch") for s in states.values())
    hidden = {c for c, s in states.items() if s.get("hidden")}
    assert hidden == {"DC", "RI"}  # Delaware, 5 px and more across its middle, is seen
    assert check_styled(drawn.png, report, classes, design.colours) == []
    # Where a labelled map writes Texas's code, the unlabelled one shows Texas's fill.
    labelled = draw_map(MapRequest("choropleth", "T", classes, LABELS,
                                   dict(load_country("usa").projected),
                                   Design(colours=ramp_classes("light"))))
    x0, y0, x1, y1 = (round(v) for v in labelled.report["states"]["TX"]["label"]["bbox"])
    img = np.asarray(Image.open(io.BytesIO(drawn.png)).convert("RGB"))[y0:y1, x0:x1]
    ink = np.array([int(text_colour(design.colours[classes["TX"] - 1])[i:i + 2], 16)
                    for i in (1, 3, 5)])
    assert (np.abs(img.astype(int) - ink).max(axis=2) <= 60).sum() == 0
    wrong = {**classes, "TX": 1 + classes["TX"] % 5}
    problems = check_styled(drawn.png, report, wrong, design.colours)
    assert {(p.reason, p.state) for p in problems} == {("fill_mismatch", "TX")}
