"""The real headless Chromium over flat test tiles: size, tile placement, pins, scale bar.

Flat tiles (one plain colour per tile, see conftest) make every check a pixel check
that does not depend on Mapnik: where a tile's colour must be, where a pin's colour
must be and must not be.
"""

from __future__ import annotations

import io
import math
import os
import signal
from pathlib import Path

import numpy as np
import pytest
from flat_tiles import FLAT_TILE_COLORS, FlatTiles
from PIL import Image
from pin_pixels import assert_pin_tip_at as assert_tip_over
from pin_pixels import colour_mask, pin_tip, to_array

from groundtruth.distance import haversine_m
from groundtruth.projection import View
from renderers import browser as browser_module
from renderers.browser import Browser, child_pids
from renderers.errors import RenderError
from renderers.map_render import MapRenderer, RenderResult
from renderers.markers import MARKER_COLORS, Marker
from renderers.page import PATH_COLOR, ViewUpdate

pytestmark = pytest.mark.slow

CENTER = (60.1699, 24.9384)


def _image(result: RenderResult) -> np.ndarray:
    return to_array(result.png)


def _mask(img: np.ndarray, colour: str, tol: float = 60.0) -> np.ndarray:
    return colour_mask(img, colour, tol)


@pytest.fixture(scope="module")
def renderer(flat_tiles: FlatTiles, web_assets: Path, browser: Browser) -> MapRenderer:
    r = MapRenderer(flat_tiles, assets_dir=web_assets, browser=browser)
    yield r  # type: ignore[misc]
    r.close()


def assert_pin_tip_at(img: np.ndarray, plain: np.ndarray, tip: tuple[float, float],
                      colour: str) -> None:
    assert_tip_over(img, plain, MARKER_COLORS[colour], tip)


def test_screenshot_size_and_tile_placement(renderer: MapRenderer, flat_tiles: FlatTiles) -> None:
    view = View(center=CENTER, zoom=16)
    result = renderer.render(view)
    assert Image.open(io.BytesIO(result.png)).size == (1366, 768)
    img = _image(result)
    ox, oy = view.origin_px
    # Pixels 3 px inside each corner of a few tiles carry exactly that tile's colour.
    checked = 0
    for vx in range(20, 1300, 97):
        for vy in range(20, 700, 89):
            gx, gy = ox + vx, oy + vy
            if min(gx % 256, 256 - gx % 256, gy % 256, 256 - gy % 256) < 3:
                continue  # too close to a tile edge
            expected = FLAT_TILE_COLORS[int(gx // 256) % 2 + 2 * (int(gy // 256) % 2)]
            assert np.abs(img[vy, vx] - expected).max() <= 2, (vx, vy)
            checked += 1
    assert checked > 80
    # Only the view's tiles and a one-tile margin were requested.
    assert set(flat_tiles.rendered) >= set(view.tiles(margin_tiles=1))
    assert result.drawn["tiles"]["count"] == len(view.tiles())


def test_markers_tips_are_where_reported(renderer: MapRenderer) -> None:
    view = View(center=CENTER, zoom=18)
    # Fractional pixel positions on purpose: the reported px must round to the drawn tip.
    points = [view.to_latlon(300.3, 200.7), view.to_latlon(683.5, 384.2),
              view.to_latlon(1100.8, 650.4), view.to_latlon(80.0, 100.0)]
    markers = [Marker(lat, lon, c) for (lat, lon), c in zip(points, ["blue", "red"] * 2,
                                                             strict=True)]
    result = renderer.render(view, markers=markers)
    img, plain = _image(result), _image(renderer.render(view))
    assert len(result.drawn["markers"]) == 4
    for marker, record in zip(markers, result.drawn["markers"], strict=True):
        assert record["color"] == marker.color
        px, leaflet_px = record["px"], record["leaflet_px"]
        assert max(abs(px[0] - leaflet_px[0]), abs(px[1] - leaflet_px[1])) <= 0.5 + 1e-9
        assert record["px"] == pytest.approx(view.to_view_px(marker.lat, marker.lon))
        assert_pin_tip_at(img, plain, (px[0], px[1]), marker.color)
        # Leaflet puts the tip on the pixel corner nearest the point: measured, it is
        # there to a tenth of a pixel.
        x, y, _ = pin_tip(img, plain, MARKER_COLORS[marker.color], (px[0], px[1]))
        assert (x, y) == pytest.approx((round(px[0]), round(px[1])), abs=0.1)


def test_pin_check_fails_on_a_wrong_position(renderer: MapRenderer) -> None:
    """The pixel check above is able to fail: a tip 1 px off is rejected."""
    view = View(center=CENTER, zoom=17)
    lat, lon = view.to_latlon(500.0, 400.0)
    result = renderer.render(view, markers=[Marker(lat, lon, "blue")])
    img, plain = _image(result), _image(renderer.render(view))
    assert_pin_tip_at(img, plain, (500.0, 400.0), "blue")
    for wrong in ((501.0, 400.0), (499.0, 400.0), (500.0, 401.0), (500.0, 399.0)):
        with pytest.raises(AssertionError):
            assert_pin_tip_at(img, plain, wrong, "blue")
    with pytest.raises(AssertionError):
        assert_pin_tip_at(img, plain, (500.0, 400.0), "red")


def test_scale_bar_both_units(renderer: MapRenderer) -> None:
    view = View(center=CENTER, zoom=17)
    result = renderer.render(view)
    bars = result.drawn["scale_bar"]
    assert set(bars) == {"metric", "imperial"}
    assert bars["metric"]["unit"] in ("m", "km") and bars["imperial"]["unit"] in ("ft", "mi")
    # Leaflet: width = round(100 px * label metres / metres spanned by 100 px at mid-height).
    span = haversine_m(*view.to_latlon(0.0, 384.0), *view.to_latlon(100.0, 384.0))
    for bar in bars.values():
        assert bar["width_px"] == pytest.approx(round(100 * bar["meters"] / span), abs=1)
        left, top, width, _height = bar["box"]
        assert left < 20 and top > 700 and width <= 100  # bottom left
    img = _image(result)
    metric = bars["metric"]["box"]
    # The bar's bottom border (#777) spans its width.
    y = round(metric[1] + metric[3]) - 1
    row = img[y, round(metric[0]) + 2 : round(metric[0] + metric[2]) - 2]
    assert np.abs(row - 0x77).max() <= 12
    assert "OpenStreetMap contributors" in (result.drawn["attribution"] or "")


def test_path_is_drawn_through_its_vertices(renderer: MapRenderer) -> None:
    view = View(center=CENTER, zoom=17)
    vertices = [view.to_latlon(200.0, 600.0), view.to_latlon(700.0, 300.0),
                view.to_latlon(1200.0, 500.0)]
    result = renderer.render(view, path=vertices)
    img = _image(result)
    mask = _mask(img, PATH_COLOR, tol=40.0)
    drawn = result.drawn["path"]
    assert drawn["px"] == [pytest.approx(list(view.to_view_px(*v))) for v in vertices]
    assert drawn["length_px"] == pytest.approx(math.dist((200, 600), (700, 300))
                                               + math.dist((700, 300), (1200, 500)), abs=1e-3)
    for (x0, y0), (x1, y1) in zip(drawn["px"], drawn["px"][1:], strict=False):
        for t in (0.25, 0.5, 0.75):
            x, y = round(x0 + t * (x1 - x0)), round(y0 + t * (y1 - y0))
            assert mask[y - 1 : y + 2, x - 1 : x + 2].any(), (x, y)
    assert not mask[100, 1000] and not mask[700, 700]


def test_bad_views_are_refused(renderer: MapRenderer) -> None:
    with pytest.raises(RenderError, match="zoom 14"):
        renderer.render(View(center=CENTER, zoom=14))
    view = View(center=CENTER, zoom=18)
    far = view.to_latlon(-10.0, 300.0)
    with pytest.raises(RenderError, match="outside the view"):
        renderer.render(view, markers=[Marker(far[0], far[1], "red")])
    with pytest.raises(RenderError, match="outside the view"):
        renderer.render(view, path=[view.to_latlon(10.0, 10.0), view.to_latlon(1400.0, 10.0)])


class _NoTiles(FlatTiles):
    def ensure_tiles(self, tiles: object, progress: bool = False) -> None:
        return None


def test_missing_tiles_are_reported(tmp_path: Path, web_assets: Path, browser: Browser) -> None:
    renderer = MapRenderer(_NoTiles(tmp_path), assets_dir=web_assets, browser=browser)
    with pytest.raises(RenderError, match="failed to load"):
        renderer.render(View(center=CENTER, zoom=16))
    renderer.close()
    assert browser.running  # a shared browser outlives the renderer


def test_missing_chromium_names_the_packages() -> None:
    with pytest.raises(RenderError) as info:
        Browser(chromium=Path("/nonexistent/chromium-for-cartoqa")).start()
    message = str(info.value)
    assert "chromium" in message and "scripts/install.sh" in message


def test_only_the_full_browser_is_told_to_run_headless() -> None:
    """The headless shell has no other mode (and no --headless switch to give it); the
    full browser, started where the shell is not installed, needs --headless=new."""
    browser = Browser(width=800, height=600)
    shell = browser.flags(Path("/usr/lib/chromium/chromium-headless-shell"))
    full = browser.flags(Path("/usr/bin/chromium"))
    assert not any(f.startswith("--headless") for f in shell)
    assert [f for f in full if f not in shell] == ["--headless=new"]
    assert "--window-size=800,600" in shell and "--disable-gpu" in shell


def test_the_headless_shell_is_started_where_installed(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    shell, full = tmp_path / "chromium-headless-shell", tmp_path / "chromium"
    monkeypatch.setattr(browser_module, "HEADLESS_SHELL_PATH", shell)
    monkeypatch.setattr(browser_module, "CHROMIUM_PATH", full)
    assert browser_module.default_chromium() == full  # neither: the full browser's path
    shell.write_bytes(b"")
    assert browser_module.default_chromium() == shell


def test_recorded_requests_include_a_refused_remote_one(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    Image.new("RGB", (4, 4), "red").save(tmp_path / "dot.png")
    page.write_text("<img src='dot.png'><img src='http://record.invalid/x.png'>")
    ready = "return Array.from(document.images).every(i => i.complete);"
    with Browser(width=200, height=100, record_requests=True) as browser:
        browser.allow(tmp_path)
        browser.capture(page.as_uri(), ready_js=ready)
        # Chromium may also ask for the origin's favicon, in its own time.
        seen = [u for u in browser.requests() if not u.endswith("/favicon.ico")]
        assert seen[0] == browser.url_for(page.as_uri())
        assert sorted(seen[1:]) == sorted([browser.url_for((tmp_path / "dot.png").as_uri()),
                                           "http://record.invalid/x.png"])
        assert browser.requests() == []  # each call returns what came since the last
    with Browser(width=200, height=100) as browser:  # not recording
        browser.allow(tmp_path)
        browser.capture(page.as_uri(), ready_js=ready)
        assert browser.requests() == []


@pytest.mark.parametrize("victim", ["browser", "helpers"])
def test_browser_restarts_after_a_crash(
    flat_tiles: FlatTiles, web_assets: Path, victim: str
) -> None:
    with MapRenderer(flat_tiles, assets_dir=web_assets) as renderer:
        view = View(center=CENTER, zoom=15)
        first = renderer.render(view)
        assert renderer.browser.starts == 1
        main_pid = renderer.browser.pid
        assert main_pid is not None
        # The main browser process, or its helpers (zygote, renderer, GPU processes).
        pids = [main_pid] if victim == "browser" else child_pids(main_pid)
        assert pids
        for pid in pids:  # processes this test's browser started
            os.kill(pid, signal.SIGKILL)
        second = renderer.render(view)
        # A dead browser is restarted; dead helpers may be replaced by the browser itself.
        assert renderer.browser.starts == (2 if victim == "browser" else
                                           renderer.browser.starts)
        assert renderer.browser.starts in (1, 2)
        assert _image(first).shape == _image(second).shape == (768, 1366, 3)
    assert not renderer.browser.running
    for pid in pids:  # nothing of the crashed browser is left running
        assert not Path(f"/proc/{pid}").exists() or "Z" in _state(pid)


def _state(pid: int) -> str:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat[stat.rfind(")") + 2 :].split()[0]


@pytest.mark.parametrize("zoom", (15, 17, 19))
def test_controls_are_measured_inside_the_zones_kept_for_them(
    renderer: MapRenderer, zoom: int
) -> None:
    from cartoqa.visibility.screen import CONTROL_ZONES, reserved_zones

    view = View(center=CENTER, zoom=zoom)
    result = renderer.render(view)
    controls = result.controls
    assert set(controls) == {"scale_bar", "attribution"}  # no zoom buttons on our maps
    # the scale bar's box holds both its lines, as describe_drawing reports them
    x0, y0, x1, y1 = controls["scale_bar"]
    for bar in result.drawn["scale_bar"].values():
        left, top, width, height = bar["box"]
        assert x0 <= left and y0 <= top and left + width <= x1 and top + height <= y1
    # the attribution sits in the bottom right corner
    assert controls["attribution"][2:] == (1366.0, 768.0)
    # what the samplers keep clear before rendering holds what Leaflet draws (to the
    # nearest whole pixel: the attribution's top edge falls at a fraction of one)
    for name, box in controls.items():
        a0, b0, a1, b1 = (round(v) for v in box)
        z0, w0, z1, w1 = CONTROL_ZONES[name]
        assert z0 <= a0 and w0 <= b0 and a1 <= z1 and b1 <= w1, (name, box)
    assert reserved_zones(controls) == tuple(CONTROL_ZONES.values())


def test_pages_are_reloaded_after_a_bound_and_after_a_failed_update(
    flat_tiles: FlatTiles, web_assets: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A browser shows map after map in one document, loads its page afresh every
    RELOAD_AFTER updates, and after an update that failed (the document is then of no
    known kind), with the same pixels either way."""
    monkeypatch.setattr(browser_module, "RELOAD_AFTER", 2)
    views = [View(center=(CENTER[0], CENTER[1] + 0.001 * i), zoom=16) for i in range(5)]
    with Browser() as browser, MapRenderer(flat_tiles, assets_dir=web_assets,
                                           browser=browser) as renderer:
        shots = [renderer.render(view).png for view in views]
        # load, update, update, load (the bound), update
        assert (browser.loads, browser.updates) == (2, 3)
        # a page of kind "claimed", then an update of that kind whose script fails
        browser.capture("about:blank", ready_js="return true;",
                        update=ViewUpdate(key="claimed", script="1"))
        with pytest.raises(RenderError, match="script"):
            browser.capture("about:blank", ready_js="return true;", update=ViewUpdate(
                key="claimed", script="(function () { throw new Error('no'); })()"))
        assert (browser.loads, browser.updates) == (3, 3)
        again = renderer.render(views[0]).png
        assert (browser.loads, browser.updates) == (4, 3)  # loaded afresh
        assert again == shots[0]
        assert renderer.render(views[3]).png == shots[3]  # an update again
        assert browser.updates == 4
