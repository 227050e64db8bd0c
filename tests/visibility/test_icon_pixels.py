"""Is an icon drawn: the icon oracle on pixels Mapnik drew (tests/visibility/data).

``icons_on_land.png`` (made by ``make_icons_png.py`` beside it) holds the pharmacy icon
at (24, 24) and the bank icon at (72, 24) on OSM-Carto's land colour, anti-aliased as
Mapnik draws them. The oracle of :func:`cartoqa.visibility.symbols.symbol_sightings`
reads them as a build does: ink against the label-free reference, paint blended over
it, templates matched, rival icons of the same colour compared.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cartoqa.visibility.icons import (
    ICON_CLEAR_IOU,
    ICON_MIN_ALPHA,
    ICON_MIN_IOU,
    best_iou_at,
    catalogue_by_name,
    find_icons,
    icon_is_clear,
    icon_template,
)
from cartoqa.visibility.pixels import blend_mask, decode_png, hex_rgb, ink_mask
from cartoqa.visibility.symbols import rival_templates

DATA = Path(__file__).with_name("data")
LAND = "#f2efe9"


def screen_and_reference() -> tuple[np.ndarray, np.ndarray]:
    screen = decode_png((DATA / "icons_on_land.png").read_bytes())
    reference = np.empty_like(screen)
    reference[...] = hex_rgb(LAND)
    return screen, reference


def paint(screen: np.ndarray, reference: np.ndarray, name: str) -> np.ndarray:
    ft = catalogue_by_name()[name]
    return blend_mask(screen, reference, ft.color, where=ink_mask(screen, reference),
                      min_alpha=ICON_MIN_ALPHA)


@pytest.mark.parametrize(("name", "centre"), [("pharmacy", (24.0, 24.0)),
                                              ("bank", (72.0, 24.0))])
def test_each_icon_is_found_where_it_was_drawn_and_is_clear(
        name: str, centre: tuple[float, float]) -> None:
    screen, reference = screen_and_reference()
    mask = paint(screen, reference, name)
    template = icon_template(name)
    assert template is not None
    found = find_icons(mask, template)
    assert len(found) == 1
    x, y, score = found[0]
    assert abs(x - centre[0]) <= 1 and abs(y - centre[1]) <= 1
    rivals = [best_iou_at(mask, r, x, y) for r in rival_templates(catalogue_by_name()[name])]
    assert score >= ICON_CLEAR_IOU and icon_is_clear(score, rivals)


def test_an_icon_of_another_colour_is_not_this_type() -> None:
    screen, reference = screen_and_reference()
    # the bank icon is brown: no pharmacy-red paint there
    mask = paint(screen, reference, "pharmacy")
    template = icon_template("pharmacy")
    assert template is not None
    assert best_iou_at(mask, template, 72.0, 24.0) < ICON_MIN_IOU


def test_an_icon_moved_past_the_search_distance_is_not_at_its_feature() -> None:
    screen, reference = screen_and_reference()
    mask = np.roll(paint(screen, reference, "pharmacy"), 8, axis=1)  # 8 px to the right
    template = icon_template("pharmacy")
    assert template is not None
    assert best_iou_at(mask, template, 24.0, 24.0) < ICON_MIN_IOU
    assert best_iou_at(mask, template, 32.0, 24.0) >= ICON_CLEAR_IOU


def test_an_icon_half_covered_is_not_drawn() -> None:
    screen, reference = screen_and_reference()
    screen[:24, :48] = reference[:24, :48]  # the top half of the pharmacy icon is gone
    mask = paint(screen, reference, "pharmacy")
    template = icon_template("pharmacy")
    assert template is not None
    assert not find_icons(mask, template)


def test_symbol_sightings_find_the_drawn_feature_and_not_the_bare_one() -> None:
    from shapely.geometry import Point

    from cartoqa.visibility.symbols import symbol_sightings
    from groundtruth.features import Feature
    from groundtruth.projection import View

    icons, _ = screen_and_reference()
    screen = np.empty((200, 300, 3), np.int16)
    screen[...] = hex_rgb(LAND)
    screen[80:128, 100:196] = icons  # pharmacy at (124, 104), bank at (172, 104)
    reference = np.empty_like(screen)
    reference[...] = hex_rgb(LAND)
    view = View(center=(60.17, 24.94), zoom=19, width=300, height=200)

    def pharmacy(x: float, y: float) -> Feature:
        lat, lon = view.to_latlon(x, y)
        return Feature("pharmacy", "symbol", None, ("node/1",), lat, lon, Point(lon, lat))

    drawn, bare = pharmacy(124.0, 104.0), pharmacy(124.0, 160.0)
    ft = catalogue_by_name()["pharmacy"]
    sightings, orphans = symbol_sightings(
        view, ft, [drawn, bare], screen, reference, ink_mask(screen, reference), {},
        reserved=())
    assert [s.drawn for s in sightings] == [True, False]
    first = sightings[0]
    assert first.clear and first.score >= ICON_CLEAR_IOU and not first.edge
    assert first.icon_px is not None
    assert abs(first.icon_px[0] - 124.0) <= 1 and abs(first.icon_px[1] - 104.0) <= 1
    assert sightings[1].icon_px is None and sightings[1].score == 0.0
    assert orphans == []
    # without the feature at the icon, the icon is an orphan of the type
    _, orphans = symbol_sightings(view, ft, [bare], screen, reference,
                                  ink_mask(screen, reference), {}, reserved=())
    assert len(orphans) == 1


@pytest.mark.parametrize(("dx", "dy"), [(0, 4), (0, -4), (4, 0), (-4, 0)])
def test_an_icon_four_pixels_off_the_spot_is_still_found_there(dx: int, dy: int) -> None:
    screen, reference = screen_and_reference()
    mask = np.roll(paint(screen, reference, "pharmacy"), (dy, dx), axis=(0, 1))
    template = icon_template("pharmacy")
    assert template is not None
    assert best_iou_at(mask, template, 24.0, 24.0) >= ICON_CLEAR_IOU
