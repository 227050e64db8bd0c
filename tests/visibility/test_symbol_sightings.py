"""Icons of one type in a view: which feature each belongs to, its label, its edge (issue 33).

:func:`cartoqa.visibility.symbols.symbol_sightings` on the pharmacy and bank icons Mapnik
drew (``data/icons_on_land.png``) pasted into a 300 x 200 view: which feature claims an
icon, a faint icon (restricted access), the label under it (legible, cut by an edge or a
control), a feature on or beyond the edge, the icons no feature explains.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from shapely.geometry import Point

from cartoqa.visibility.icons import (
    ICON_CLEAR_IOU,
    ICON_MIN_IOU,
    ORPHAN_MIN_IOU,
    catalogue_by_name,
)
from cartoqa.visibility.pixels import decode_png, hex_rgb, ink_mask
from cartoqa.visibility.sightings import Sighting
from cartoqa.visibility.symbols import symbol_sightings
from groundtruth.features import Feature
from groundtruth.projection import View

DATA = Path(__file__).with_name("data")
VIEW = View(center=(60.17, 24.94), zoom=19, width=300, height=200)
H, W = VIEW.height, VIEW.width
LAND = hex_rgb("#f2efe9")
RED = hex_rgb("#bf0000")          # the pharmacy's icon and label colour
TILES = {"pharmacy": 0, "bank": 48}


def land() -> np.ndarray:
    image = np.empty((H, W, 3), np.int16)
    image[...] = LAND
    return image


def paste(image: np.ndarray, name: str, cx: int, cy: int, *, opacity: float = 1.0) -> None:
    """Paste the 48 x 48 tile of ``name``'s icon centred at ``(cx, cy)`` (clipped)."""
    tiles = decode_png((DATA / "icons_on_land.png").read_bytes())
    tile = tiles[:, TILES[name]:TILES[name] + 48].astype(np.float64)
    tile = np.round(LAND + opacity * (tile - np.array(LAND))).astype(np.int16)
    x0, y0 = cx - 24, cy - 24
    a, b = max(0, -x0), max(0, -y0)
    c, d = min(48, W - x0), min(48, H - y0)
    image[y0 + b:y0 + d, x0 + a:x0 + c] = tile[b:d, a:c]


def pharmacy(x: float, y: float, name: str | None = None) -> Feature:
    lat, lon = VIEW.to_latlon(x, y)
    return Feature("pharmacy", "symbol", name, ("node/1",), lat, lon, Point(lon, lat))


def sight(screen: np.ndarray, feats: list[Feature], *,
          reserved: tuple[tuple[float, float, float, float], ...] = (),
          cache: dict[str, np.ndarray] | None = None,
          ) -> tuple[list[Sighting], list[tuple[float, float]]]:
    reference = land()
    return symbol_sightings(VIEW, catalogue_by_name()["pharmacy"], feats, screen, reference,
                            ink_mask(screen, reference), {} if cache is None else cache,
                            reserved=reserved)


def one_pharmacy(cx: int = 124, cy: int = 104) -> np.ndarray:
    screen = land()
    paste(screen, "pharmacy", cx, cy)
    return screen


def label(screen: np.ndarray, cx: int, cy: int, *, width: int = 21, dy: int = 10) -> None:
    """A label line in the pharmacy's red, centred under an icon at ``(cx, cy)``."""
    screen[cy + dy:cy + dy + 5, cx - width // 2:cx + width // 2 + 1] = RED


# --- which feature an icon belongs to --------------------------------------------------------

def test_the_nearest_feature_claims_the_icon_and_the_other_is_not_drawn() -> None:
    screen = one_pharmacy()
    feats = [pharmacy(136.0, 104.0), pharmacy(124.0, 104.0)]
    s, orphans = sight(screen, feats)
    assert [x.feature for x in s] == feats
    assert [x.drawn for x in s] == [False, True] and orphans == []
    assert s[0].icon_px is None and s[0].score == 0.0 and s[0].px == pytest.approx((136, 104))
    assert s[1].icon_px is not None and s[1].score >= ICON_CLEAR_IOU


def test_two_features_of_a_type_at_one_icon_count_once_in_the_view() -> None:
    # within 6 px the second feature's look for a faint icon finds the same icon again;
    # the view's analysis keeps one claim per icon (one_feature_per_icon)
    from cartoqa.visibility.analysis import analyse_view

    screen = one_pharmacy()
    vf = analyse_view(VIEW, screen, land(), [pharmacy(128.0, 104.0), pharmacy(124.0, 104.0)],
                      reserved=())
    assert vf.in_data("pharmacy") == 2 and vf.count("pharmacy") == 1


@pytest.mark.parametrize(("dx", "drawn"), [(26.0, True), (32.0, False)])
def test_an_icon_up_to_thirty_pixels_from_a_feature_is_attributed_to_it(dx: float,
                                                                        drawn: bool) -> None:
    # OSM-Carto anchors some icons away from the data's point (areas)
    s, orphans = sight(one_pharmacy(), [pharmacy(124.0 + dx, 104.0)])
    assert s[0].drawn is drawn
    assert len(orphans) == (0 if drawn else 1)
    if drawn:
        assert s[0].icon_px is not None and abs(s[0].icon_px[0] - 124.0) <= 1
        assert s[0].px == pytest.approx((124.0 + dx, 104.0))


def test_two_icons_go_to_two_features_each_to_its_nearest() -> None:
    screen = one_pharmacy(80, 100)
    paste(screen, "pharmacy", 200, 100)
    s, orphans = sight(screen, [pharmacy(205.0, 100.0), pharmacy(78.0, 100.0)])
    assert [x.drawn for x in s] == [True, True] and orphans == []
    assert s[0].icon_px is not None and abs(s[0].icon_px[0] - 200.0) <= 1
    assert s[1].icon_px is not None and abs(s[1].icon_px[0] - 80.0) <= 1


def test_an_icon_of_another_colour_is_neither_drawn_nor_an_orphan() -> None:
    screen = land()
    paste(screen, "bank", 124, 104)
    s, orphans = sight(screen, [pharmacy(124.0, 104.0)])
    assert not s[0].drawn and orphans == []


def test_a_faint_icon_counts_only_at_a_feature() -> None:
    # OSM-Carto draws features with restricted access at a third of the opacity
    screen = land()
    paste(screen, "pharmacy", 124, 104, opacity=0.35)
    s, orphans = sight(screen, [pharmacy(124.0, 104.0)])
    assert s[0].drawn and orphans == []
    assert s[0].icon_px is not None and abs(s[0].icon_px[0] - 124.0) <= 1
    assert s[0].score >= ICON_MIN_IOU
    # not where no feature is, and not 10 px away from one
    s, orphans = sight(screen, [pharmacy(134.0, 104.0)])
    assert not s[0].drawn and orphans == []
    s, orphans = sight(screen, [])
    assert s == [] and orphans == []


def test_a_full_icon_is_not_taken_for_a_faint_one_of_a_feature_further_away() -> None:
    # the full icon goes to its feature; the second feature, 20 px off, has no icon
    s, _ = sight(one_pharmacy(), [pharmacy(124.0, 104.0), pharmacy(124.0, 124.0)])
    assert [x.drawn for x in s] == [True, False]


@pytest.mark.parametrize(("rows", "score", "clear", "orphan"), [
    ((97, 99), 0.875, True, True),      # two of its 14 rows hidden: still an orphan
    ((97, 100), 0.812, True, False),    # three: clear, but too weak to count as an orphan
    ((96, 103), 0.625, False, False),   # six: drawn, not clear
])
def test_a_partly_hidden_icon_is_weaker_evidence(rows: tuple[int, int], score: float,
                                                 clear: bool, orphan: bool) -> None:
    screen = one_pharmacy()
    screen[rows[0]:rows[1], 100:150] = LAND
    s, orphans = sight(screen, [pharmacy(124.0, 104.0)])
    assert s[0].drawn and s[0].score == pytest.approx(score, abs=0.001)
    assert s[0].clear is clear and orphans == []
    _, orphans = sight(screen, [])
    assert len(orphans) == int(orphan)
    assert ICON_MIN_IOU < 0.625 < ICON_CLEAR_IOU < 0.812 < ORPHAN_MIN_IOU < 0.875


def test_the_colour_masks_are_shared_through_the_cache() -> None:
    screen = one_pharmacy()
    cache: dict[str, np.ndarray] = {}
    s, _ = sight(screen, [pharmacy(124.0, 104.0, "Apteekki"), pharmacy(200.0, 60.0)],
                 cache=cache)
    assert set(cache) == {"#bf0000", "label:#bf0000", "faint:#bf0000"}
    assert cache["#bf0000"].sum() > 50
    # a mask found in the cache is used as it is: no ink, no icon; a label, legible
    nothing = np.zeros((H, W), bool)
    written = nothing.copy()
    written[114:119, 114:135] = True
    s, orphans = sight(screen, [pharmacy(124.0, 104.0, "Apteekki")],
                       cache={"#bf0000": nothing, "faint:#bf0000": nothing,
                              "label:#bf0000": written})
    assert not s[0].drawn and orphans == []
    s, _ = sight(screen, [pharmacy(124.0, 104.0, "Apteekki")],
                 cache={"label:#bf0000": written})
    assert s[0].drawn and s[0].name_legible


# --- the label under an icon -----------------------------------------------------------------

def test_a_named_icon_with_its_label_under_it_is_legible() -> None:
    screen = one_pharmacy()
    label(screen, 124, 104)
    s, _ = sight(screen, [pharmacy(124.0, 104.0, "Apteekki")])
    assert s[0].drawn and s[0].name_legible and not s[0].label_cut and not s[0].edge
    s, _ = sight(one_pharmacy(), [pharmacy(124.0, 104.0, "Apteekki")])
    assert s[0].drawn and not s[0].name_legible
    s, _ = sight(screen, [pharmacy(124.0, 104.0)])            # unnamed: nothing to read
    assert s[0].drawn and not s[0].name_legible


def test_a_label_under_a_feature_without_an_icon_is_not_its_name() -> None:
    screen = land()
    label(screen, 124, 104)
    s, _ = sight(screen, [pharmacy(124.0, 104.0, "Apteekki")])
    assert not s[0].drawn and not s[0].name_legible and not s[0].label_cut


def test_the_label_is_sought_under_the_icon_found_not_the_feature() -> None:
    # the feature's point is 20 px right of its icon: the label is centred under the icon
    screen = one_pharmacy()
    label(screen, 124, 104)
    s, _ = sight(screen, [pharmacy(144.0, 104.0, "Apteekki")])
    assert s[0].drawn and s[0].name_legible


@pytest.mark.parametrize(("cx", "cy", "cut"), [
    (40, 100, True),     # the label box (45 px each side) runs off the left edge
    (44, 100, True),
    (45, 100, False),    # from x = 0
    (52, 100, False),
    (124, 7, False),     # an icon at the top (on the edge): its label is below it, not cut
    (260, 100, True),    # off the right edge
    (248, 100, False),
    (124, 170, True),    # its bottom (34 px down) below the view
    (124, 160, False),
])
def test_a_label_box_running_off_the_view_is_cut(cx: int, cy: int, cut: bool) -> None:
    screen = one_pharmacy(cx, cy)
    s, _ = sight(screen, [pharmacy(float(cx), float(cy), "Apteekki")])
    assert s[0].drawn and s[0].label_cut is cut and s[0].edge is (cy < 9)


@pytest.mark.parametrize(("zone", "cut"), [
    ((0.0, 136.0, 300.0, 200.0), True),     # a control under the label box (to y 138)
    ((0.0, 142.0, 300.0, 200.0), False),
    ((168.0, 112.0, 200.0, 130.0), True),   # beside it (to x 169)
    ((170.0, 112.0, 200.0, 130.0), False),
])
def test_a_label_box_over_a_control_is_cut(zone: tuple[float, float, float, float],
                                           cut: bool) -> None:
    s, _ = sight(one_pharmacy(), [pharmacy(124.0, 104.0, "Apteekki")], reserved=(zone,))
    assert s[0].drawn and s[0].label_cut is cut
    s, _ = sight(one_pharmacy(), [pharmacy(124.0, 104.0)], reserved=(zone,))
    assert not s[0].label_cut                                 # no name, no label to cut


# --- on the edge ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("x", "y", "edge"), [
    (5.0, 100.0, True), (12.0, 100.0, False), (295.0, 100.0, True), (288.0, 100.0, False),
    (150.0, 5.0, True), (150.0, 12.0, False), (150.0, 195.0, True), (150.0, 188.0, False),
    (-5.0, 100.0, True), (150.0, 205.0, True),     # just outside, within the band
])
def test_a_feature_within_nine_pixels_of_an_edge_is_on_it(x: float, y: float,
                                                          edge: bool) -> None:
    s, _ = sight(land(), [pharmacy(x, y)])
    assert s[0].edge is edge and not s[0].drawn


def test_a_feature_near_a_control_is_on_an_edge() -> None:
    zone = ((100.0, 150.0, 200.0, 200.0),)
    s, _ = sight(land(), [pharmacy(150.0, 142.0), pharmacy(150.0, 140.0)], reserved=zone)
    assert [x.edge for x in s] == [True, False]


def test_a_feature_beyond_the_band_is_on_the_edge_only_when_its_label_peeks_in() -> None:
    screen = land()
    s, _ = sight(screen, [pharmacy(-20.0, 100.0, "Apteekki")])
    assert not s[0].edge
    screen[110:114, 0:10] = RED                     # 40 px of red label in its label box
    s, _ = sight(screen, [pharmacy(-20.0, 100.0, "Apteekki")])
    assert s[0].edge and not s[0].drawn
    s, _ = sight(screen, [pharmacy(-20.0, 40.0, "Apteekki")])   # its box ends at row 74
    assert not s[0].edge
