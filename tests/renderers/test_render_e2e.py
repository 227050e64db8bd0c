"""End to end on Helsinki: real PostGIS + Mapnik tiles, real Chromium, and ``cartoqa render``.

One view per zoom 15-19 is rendered twice (with and without markers) with the cluster
and the browser started once for the module. The pin pixels are found as the pixels
the markers changed, so the check does not depend on the map's own colours.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from helpers.shared_builds import SharedBuilds
from PIL import Image
from pin_pixels import assert_pin_tip_at, to_array

from cartoqa.cli import main
from groundtruth.distance import haversine_m
from groundtruth.extracts import resolve_extract
from groundtruth.projection import View
from renderers import browser as browser_module
from renderers.browser import LOCAL_ORIGIN, Browser
from renderers.map_render import MapRenderer, Marker, RenderResult
from renderers.markers import MARKER_COLORS
from renderers.page import remote_links
from renderers.tiles import TileRenderer

pytestmark = pytest.mark.slow

#: Rautatientori, at the junction of Mikonkatu and Kaivokatu.
CENTER = (60.1706794, 24.9447455)
ZOOMS = (15, 16, 17, 18, 19)

#: OSM-Carto fills (style.xml): buildings, pedestrian areas, secondary and primary
#: roads, water, grass, parks.
CARTO_COLOURS = ("#d9d0c9", "#dddde8", "#f7fabf", "#fcd6a4", "#aad3df", "#cdebb0", "#c8facc")
LAND = "#f2efe9"


@pytest.fixture(scope="module")
def cache_dir(shared_builds: SharedBuilds) -> Path:
    """The session's shared cache (the ``postgres`` user can reach it; Helsinki imported once)."""
    return shared_builds.cache


@pytest.fixture(scope="module")
def helsinki_tiles(cache_dir: Path) -> Iterator[TileRenderer]:
    with TileRenderer(resolve_extract("helsinki"), cache_dir=cache_dir) as tiles:
        yield tiles


@pytest.fixture(scope="module")
def renders(
    helsinki_tiles: TileRenderer, web_assets: Path, browser: Browser
) -> dict[int, tuple[RenderResult, RenderResult]]:
    """Per zoom: the view with a blue and a red marker, and the same view without."""
    out = {}
    with MapRenderer(helsinki_tiles, assets_dir=web_assets, browser=browser) as renderer:
        for zoom in ZOOMS:
            view = View(center=CENTER, zoom=zoom)
            red = view.to_latlon(1000.4, 250.6)
            markers = [Marker(*CENTER, "blue"), Marker(*red, "red")]
            out[zoom] = (renderer.render(view, markers=markers), renderer.render(view))
    return out


@pytest.mark.parametrize("zoom", ZOOMS)
def test_view_is_exact_size_with_carto_tiles(
    renders: dict[int, tuple[RenderResult, RenderResult]], zoom: int
) -> None:
    result, _ = renders[zoom]
    image = Image.open(io.BytesIO(result.png))
    assert image.size == (1366, 768)
    # Tiles are drawn 1:1, so OSM-Carto's fills appear with their exact colours.
    packed = np.asarray(image.convert("RGB"), dtype=np.uint32)
    codes = (packed[..., 0] << 16) | (packed[..., 1] << 8) | packed[..., 2]
    values, counts = np.unique(codes, return_counts=True)
    share = dict(zip(values.tolist(), (counts / codes.size).tolist(), strict=True))
    shares = {c: share.get(int(c[1:], 16), 0.0) for c in (*CARTO_COLOURS, LAND)}
    present = [c for c in CARTO_COLOURS if shares[c] >= 0.003]
    assert len(present) >= 3, shares
    assert shares["#d9d0c9"] >= 0.01  # buildings at every zoom
    assert shares[LAND] < 0.9  # not just the empty land colour
    assert len(values) > 3000  # labels, icons, anti-aliased edges


@pytest.mark.parametrize("zoom", ZOOMS)
def test_scale_bar_in_metres_and_feet(
    renders: dict[int, tuple[RenderResult, RenderResult]], zoom: int
) -> None:
    result, _ = renders[zoom]
    bars = result.drawn["scale_bar"]
    assert bars["metric"]["unit"] in ("m", "km") and bars["imperial"]["unit"] in ("ft", "mi")
    view = result.view
    span = haversine_m(*view.to_latlon(0.0, 384.0), *view.to_latlon(100.0, 384.0))
    for bar in bars.values():
        assert bar["width_px"] == pytest.approx(round(100 * bar["meters"] / span), abs=1)
        assert bar["box"][0] < 20 and bar["box"][1] > 700  # bottom left
    # The bar is drawn: its bottom border (#777) runs across it.
    img = to_array(result.png)
    left, top, width, height = bars["metric"]["box"]
    row = img[round(top + height) - 1, round(left) + 2 : round(left + width) - 2]
    assert np.abs(row - 0x77).max() <= 12


@pytest.mark.parametrize("zoom", ZOOMS)
def test_page_has_no_remote_asset_links(
    renders: dict[int, tuple[RenderResult, RenderResult]], zoom: int
) -> None:
    result, _ = renders[zoom]
    assert remote_links(result.html) == []
    # Only the browser's private origin (used when cartoqa runs as root), no other host.
    assert not re.search(r"https?://(?!cartoqa\.invalid/)", result.html)
    assert all(link.startswith(("file:///", LOCAL_ORIGIN + "/"))
               for link in re.findall(r'(?:src|href)="([^"]+)"', result.html)
               if "leaflet" in link)
    assert result.drawn["tiles"]["url_template"].startswith("file:///")


@pytest.mark.parametrize("zoom", ZOOMS)
def test_marker_tips_are_where_reported(
    renders: dict[int, tuple[RenderResult, RenderResult]], zoom: int
) -> None:
    with_markers, plain = renders[zoom]
    img, background = to_array(with_markers.png), to_array(plain.png)
    records = with_markers.drawn["markers"]
    assert [r["color"] for r in records] == ["blue", "red"]
    for record in records:
        px = record["px"]
        assert max(abs(px[0] - record["leaflet_px"][0]),
                   abs(px[1] - record["leaflet_px"][1])) <= 0.5
        assert_pin_tip_at(img, background, MARKER_COLORS[record["color"]], (px[0], px[1]))
    assert records[0]["px"] == pytest.approx([683.0, 384.0], abs=0.5)  # the view centre
    assert records[1]["px"] == pytest.approx([1000.4, 250.6], abs=1e-6)


def test_warm_render_reuses_browser_page_and_tiles(
    helsinki_tiles: TileRenderer, web_assets: Path, browser: Browser,
    renders: dict[int, tuple[RenderResult, RenderResult]],
) -> None:
    """With tiles cached and the browser warm, a view starts no Chromium, renders no tile
    and, for the same view with other markers, updates the loaded page in place.

    (What makes a warm render fast, checked structurally; its speed is measured side by
    side with a naive pipeline in ``scripts/bench_render.py``, not timed here.)"""
    with MapRenderer(helsinki_tiles, assets_dir=web_assets, browser=browser) as renderer:
        view = View(center=CENTER, zoom=17)
        renderer.render(view)
        starts, loads, tiles = browser.starts, browser.loads, helsinki_tiles.tiles_rendered
        updates = browser.updates
        for _ in range(3):
            result = renderer.render(view, markers=[Marker(*CENTER, "red")])
            assert result.png.startswith(b"\x89PNG")
    assert browser.starts == starts
    assert helsinki_tiles.tiles_rendered == tiles
    assert browser.loads == loads and browser.updates == updates + 3


# -- cartoqa render ---------------------------------------------------------------


@pytest.fixture()
def cli_env(cache_dir: Path, web_assets: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CARTOQA_CACHE", str(cache_dir))
    monkeypatch.setenv("CARTOQA_WEB_ASSETS", str(web_assets))
    return cache_dir


def test_cli_render_writes_png_and_json(
    cli_env: Path, helsinki_tiles: TileRenderer, tmp_path: Path
) -> None:
    out = tmp_path / "view.png"
    status = main(["render", "--extract", "helsinki", "--center", f"{CENTER[0]},{CENTER[1]}",
                   "--zoom", "18", "--marker", "blue:60.1702,24.9440", "--marker", "red",
                   "--path", f"60.1702,24.9440;{CENTER[0]},{CENTER[1]}", "--out", str(out)])
    assert status == 0
    assert Image.open(out).size == (1366, 768)
    drawn = json.loads((tmp_path / "view.json").read_text())
    assert drawn["zoom"] == 18 and drawn["extract"]["name"] == "helsinki"
    assert [m["color"] for m in drawn["markers"]] == ["blue", "red"]
    assert drawn["markers"][1]["px"] == pytest.approx([683.0, 384.0], abs=0.5)
    assert len(drawn["path"]["px"]) == 2
    assert set(drawn["scale_bar"]) == {"metric", "imperial"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["view.json", "view.png"]


def test_cli_render_at_a_named_junction(
    cli_env: Path, helsinki_tiles: TileRenderer, tmp_path: Path
) -> None:
    out = tmp_path / "junction.png"
    assert main(["render", "--junction", "mikonkatu/KAIVOKATU", "--zoom", "19",
                 "--marker", "red", "--out", str(out)]) == 0
    drawn = json.loads(out.with_suffix(".json").read_text())
    assert drawn["junction"]["roads"] == ["Kaivokatu", "Mikonkatu"]
    assert drawn["center"] == [drawn["junction"]["lat"], drawn["junction"]["lon"]]
    assert drawn["markers"][0]["lat"] == drawn["junction"]["lat"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--center", "60.1706,24.9447", "--zoom", "14"], "zoom 14 is outside 15-19"),
        (["--center", "60.1706,24.9447", "--zoom", "20"], "zoom 20 is outside 15-19"),
        (["--center", "60.30,24.9447", "--zoom", "17"], "outside the extract helsinki"),
        (["--center", "60.17;24.94", "--zoom", "17"], "is not LAT,LON"),
        (["--center", "60.1706,24.9447", "--zoom", "17", "--marker", "green:60.17,24.94"],
         "no colour blue or red"),
        (["--junction", "Mikonkatu/Nowhere Street", "--zoom", "17"], "do not meet"),
        (["--extract", "/nonexistent/city.osm.pbf", "--center", "60.17,24.94", "--zoom", "17"],
         "city.osm.pbf"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(
    cli_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
    message: str,
) -> None:
    out = tmp_path / "view.png"
    assert main(["render", *args, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_cli_without_chromium_names_the_packages(
    cli_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(browser_module, "HEADLESS_SHELL_PATH",
                        Path("/nonexistent/chromium-headless-shell-cq"))
    monkeypatch.setattr(browser_module, "CHROMIUM_PATH", Path("/nonexistent/chromium-cq"))
    out = tmp_path / "view.png"
    assert main(["render", "--center", "60.1706,24.9447", "--zoom", "17",
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "package chromium-headless-shell" in err and "scripts/install.sh" in err
    assert err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_views_shown_in_place_equal_fresh_pages(
    helsinki_tiles: TileRenderer, web_assets: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A renderer swaps each new map into the page it already shows; every image and
    every measured position equal those of the same page loaded afresh (a new document,
    as a build's page-per-view mode loads it) in another browser, across zooms,
    markers, a path, overlays with their legend, views that reuse tiles the document
    decoded before, and after Chromium dropped its caches.

    The shared browser is the one builds start (the headless shell where installed);
    the fresh pages are drawn by the full browser where it is installed (the binary a
    build falls back to), so the two binaries are shown to draw the same bytes too."""
    monkeypatch.setattr(browser_module, "PURGE_EVERY", 2)
    from renderers.map_render import PROBE_JS, READY_JS, control_boxes
    from renderers.overlays import Overlay

    a, b = View(center=CENTER, zoom=18).to_latlon(400, 300), CENTER
    square = (a, (a[0], b[1]), b, (b[0], a[1]), a)
    scenes: list[tuple[View, dict]] = [
        (View(center=CENTER, zoom=17), {"markers": [Marker(*CENTER, "red")]}),
        (View(center=CENTER, zoom=19), {}),
        (View(center=CENTER, zoom=18), {"path": [a, b],
                                         "markers": [Marker(*a, "blue"), Marker(*b, "red")]}),
        (View(center=CENTER, zoom=18),
         {"overlays": [Overlay("Area A", "purple", "polygon", (square,)),
                       Overlay("Line B", "orange", "line", ((a, b),))]}),
        (View(center=CENTER, zoom=17), {"markers": [Marker(*b, "blue")]}),  # tiles seen
        (View(center=CENTER, zoom=15), {"path": [a, b]}),
    ]
    full = browser_module.CHROMIUM_PATH
    other = full if full.is_file() else None
    with Browser(chromium=other) as fresh_browser, Browser() as shared:
        with MapRenderer(helsinki_tiles, assets_dir=web_assets, browser=shared) as renderer:
            fresh_browser.allow(*shared.allowed, tmp_path)
            for index, (view, scene) in enumerate(scenes):
                shown = renderer.render(view, **scene)
                page = tmp_path / f"fresh-{index}.html"
                page.write_text(shown.html, encoding="utf-8")
                png, probe = fresh_browser.capture(page.as_uri(), ready_js=READY_JS,
                                                   probe_js=PROBE_JS)
                assert shown.png == png, f"scene {index} differs from a fresh page"
                assert shown.controls == control_boxes(probe)
                assert probe["tile_errors"] == []
                assert fresh_browser.binary == (other or shared.binary)
        assert fresh_browser.loads == len(scenes)  # every reference page loaded afresh
        assert shared.binary == browser_module.default_chromium()
        assert (shared.loads, shared.updates) == (1, len(scenes) - 1)
