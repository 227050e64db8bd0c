"""Thematic renderer and pixel check on the real US boundaries."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image, ImageDraw

from groundtruth.thematic.adjacency import queen_adjacency
from groundtruth.thematic.boundaries import load_us_states
from groundtruth.thematic.classification import fisher_jenks
from groundtruth.thematic.us_states import CONTIGUOUS
from renderers.thematic.check import check_map
from renderers.thematic.design import VARIATIONS, applies, design_for
from renderers.thematic.draw import IMAGE_SIZE, MapRequest, RenderedMap, draw_map
from renderers.thematic.hexgrid import hex_adjacency, us_hex_layout

VALUES = {c: float((i * 37) % 49) for i, c in enumerate(CONTIGUOUS)}


@pytest.fixture(scope="module")
def classes() -> Any:
    return fisher_jenks(VALUES)


def _draw(map_type: str, classes: Any, variation: str | None = None) -> RenderedMap:
    return draw_map(MapRequest(map_type, "Test map", classes.classes, classes.labels,
                               load_us_states().albers, design_for(variation)))


def _repaint(png: bytes, bbox: list[float], colour: str) -> bytes:
    img = Image.open(io.BytesIO(png)).convert("RGB")
    ImageDraw.Draw(img).rectangle([int(v) for v in bbox], fill=colour)
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


def test_hex_layout_keeps_most_neighbours() -> None:
    layout = us_hex_layout()
    assert set(layout) == set(CONTIGUOUS) and len(set(layout.values())) == 49
    geo = queen_adjacency(load_us_states().lonlat)
    tiles = hex_adjacency(layout)
    kept = sum(1 for a in geo for b in geo[a] if a < b and b in tiles[a])
    assert kept >= 90  # of 109 queen-neighbour pairs


@pytest.mark.parametrize("map_type", ["choropleth", "cartogram", "proportional_symbol"])
def test_maps_are_deterministic_and_pass_the_check(map_type: str, classes: Any) -> None:
    first = _draw(map_type, classes)
    assert first.png == _draw(map_type, classes).png
    img = Image.open(io.BytesIO(first.png))
    assert img.size == IMAGE_SIZE and not img.info.get("Software")
    d = design_for(None)
    assert check_map(first.png, first.report, classes.classes, d.colours) == []
    # One state's data changed: the check sees that the picture disagrees.
    wrong = dict(classes.classes)
    wrong["TX"] = 1 if wrong["TX"] != 1 else 5
    problems = check_map(first.png, first.report, wrong, d.colours)
    assert {p.state for p in problems} == {"TX"}
    assert problems[0].reason == ("circle_radius_mismatch" if map_type == "proportional_symbol"
                                  else "fill_mismatch")


def test_a_hidden_label_is_reported(classes: Any) -> None:
    drawn = _draw("choropleth", classes)
    box = drawn.report["states"]["KS"]["label"]["bbox"]
    covered = _repaint(drawn.png, box, "#ffffff")
    reasons = {(p.reason, p.state) for p in check_map(covered, drawn.report, classes.classes,
                                                       design_for(None).colours, asked=["KS"])}
    assert ("label_missing", "KS") in reasons


def test_small_states_get_callouts(classes: Any) -> None:
    drawn = _draw("choropleth", classes)
    states = drawn.report["states"]
    assert states["DC"]["label"]["leader"] and states["DC"]["swatch"]
    assert not states["TX"]["label"]["leader"] and states["TX"]["probe"]


@pytest.mark.parametrize("variation", ["rotate_x180", "color_flipped", "no_legend"])
def test_variations_pass_the_check(variation: str, classes: Any) -> None:
    assert applies(variation, "cartogram")
    drawn = _draw("choropleth", classes, variation)
    assert check_map(drawn.png, drawn.report, classes.classes,
                     design_for(variation).colours) == []
    assert (drawn.report["legend"] == []) == (variation == "no_legend")


def test_fifteen_variations() -> None:
    assert len(VARIATIONS) == 15
    assert not applies("color_divergent", "proportional_symbol")


def test_callouts_stay_inside_an_upside_down_map() -> None:
    # Every small eastern state in the top class: the tallest callout column there is.
    # Turned upside down, New England's callouts start low and must be pushed back up.
    small = {"VT", "NH", "MA", "RI", "CT", "NJ", "DE", "MD", "DC"}
    values = {c: (100.0 + i if c in small else float(i % 40)) for i, c in enumerate(CONTIGUOUS)}
    classes = fisher_jenks(values)
    drawn = draw_map(MapRequest("proportional_symbol", "Test", classes.classes, classes.labels,
                                load_us_states().albers, design_for("rotate_x180")))
    assert all(drawn.report["states"][c]["label"]["leader"] for c in small)
    assert check_map(drawn.png, drawn.report, classes.classes, design_for(None).colours) == []
