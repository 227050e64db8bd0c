"""Scale bars in one unit and the north-arrow designs (issue 27)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from cartoqa.tasks.frieda.maps import compass_readable
from cartoqa.tasks.frieda.questions import NORTH_DESIGNS as PLAN_DESIGNS
from cartoqa.tasks.frieda.questions import SCALE_UNITS
from renderers.compass import NORTH_DESIGNS, compass_box, draw_north
from renderers.scale_bars import UNIT_METRES, bar_length, draw_scale_bar


def _blank(w: int = 1366, h: int = 768) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (w, h), (242, 239, 233)).save(buf, format="PNG")
    return buf.getvalue()


def test_plans_and_renderers_agree() -> None:
    assert PLAN_DESIGNS == NORTH_DESIGNS
    assert set(SCALE_UNITS) == set(UNIT_METRES)


@pytest.mark.parametrize("unit", ["m", "km", "ft", "mi"])
@pytest.mark.parametrize("mpp", [0.15, 0.6, 2.4])  # zoom 19, 17, 15 in Helsinki
def test_bar_is_round_and_measures_true(unit: str, mpp: float) -> None:
    png, bar, box = draw_scale_bar(_blank(), unit, mpp)
    assert bar["unit"] == unit and str(bar["label"]).endswith(f" {unit}")
    assert 60 <= float(bar["width_px"]) <= 160
    # the drawn bar, measured on the pixels (the dark line's extent), times the ground
    # metres per pixel is the labelled length
    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)
    row = rgb[768 - 16]
    dark = np.nonzero(row.max(axis=1) < 80)[0]
    measured = (dark.max() - dark.min()) * mpp
    assert measured == pytest.approx(float(bar["meters"]), rel=0.03)
    assert float(bar["meters"]) == pytest.approx(float(bar["value"]) * UNIT_METRES[unit])
    assert box[0] >= 0 and box[3] <= 768


def test_km_and_miles_appear_at_low_zoom() -> None:
    assert bar_length("km", 2.4)[0] in (0.1, 0.2, 0.25)
    assert bar_length("mi", 2.4)[0] in (0.1, 0.2)


@pytest.mark.parametrize("design", NORTH_DESIGNS)
def test_north_designs_are_readable_and_differ(design: str) -> None:
    for angle in (0.0, 75.0, 210.0, 330.0):
        png = draw_north(_blank(), angle, design)
        assert compass_readable(png, angle), (design, angle)
        # turned the wrong way round, it does not read as north
        assert not compass_readable(png, angle + 180.0)
    x0, y0, x1, y1 = (int(v) for v in compass_box(1366, 768))
    crops = {d: np.asarray(Image.open(io.BytesIO(draw_north(_blank(), 30.0, d))))[y0:y1, x0:x1]
             for d in NORTH_DESIGNS}
    for other in NORTH_DESIGNS:
        if other != design:
            assert (np.abs(crops[design].astype(int) - crops[other]).sum(axis=2) > 60).mean() > 0.02
    with pytest.raises(ValueError):
        draw_north(_blank(), 0.0, "windrose")
