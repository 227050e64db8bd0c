"""The map page and the pure parts of the renderer (no browser)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import folium
import pytest

from groundtruth.projection import View
from renderers.errors import RenderError
from renderers.map_render import describe_drawing, parse_scale_label
from renderers.markers import PIN_ANCHOR, PIN_HEIGHT, PIN_WIDTH, Marker, pin_outline, pin_svg
from renderers.page import (
    OSM_ATTRIBUTION,
    build_map_html,
    leaflet_assets,
    remote_links,
    view_update,
)

VIEW = View(center=(60.1699, 24.9384), zoom=17)
TEMPLATE = "file:///tmp/tiles/{z}/{x}/{y}.png"


def _html(web_assets: Path, **kwargs: object) -> str:
    return build_map_html(VIEW, tile_url_template=TEMPLATE, assets_dir=web_assets, **kwargs)  # type: ignore[arg-type]


def test_page_links_only_local_leaflet(web_assets: Path) -> None:
    html = _html(web_assets, markers=[Marker(60.1699, 24.9384, "red")],
                 path=[(60.1699, 24.9384), (60.17, 24.94)])
    assert remote_links(html) == []
    assert not re.search(r"https?://", html)
    srcs = re.findall(r'<script src="([^"]+)"', html)
    hrefs = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
    assert srcs == [(web_assets.resolve() / "leaflet" / "leaflet.js").as_uri()]
    assert hrefs == [(web_assets.resolve() / "leaflet" / "leaflet.css").as_uri()]
    for unused in ("jquery", "bootstrap", "font-awesome", "fontawesome", "awesome-markers"):
        assert unused not in html.lower()


def test_folium_default_page_would_be_caught() -> None:
    """The guard that keeps CDN links out really sees folium's default links."""
    html = folium.Map(location=[60.17, 24.94], tiles=None).get_root().render()
    leaks = remote_links(html)
    assert any("jquery" in url for url in leaks)
    assert any(url.startswith("https://cdn.jsdelivr.net/npm/leaflet") for url in leaks)


def test_remote_links_finds_css_urls_and_protocol_relative() -> None:
    html = "<style>a{background:url('//x.org/a.png')}</style><img src=http://x.org/b.png>"
    assert remote_links(html) == ["//x.org/a.png", "http://x.org/b.png"]


def test_page_options(web_assets: Path) -> None:
    html = _html(web_assets, markers=[Marker(60.1699, 24.9384, "blue")] * 3,
                 path=[(60.1699, 24.9384), (60.17, 24.94), (60.171, 24.941)])
    assert '"fadeAnimation": false' in html and '"zoomAnimation": false' in html
    assert "L.control.scale()" in html
    assert '"zoom": 17' in html
    assert "width: 1366.0px" in html and "height: 768.0px" in html
    assert html.count("L.marker(") == 3
    assert html.count("L.polyline(") == 1
    assert '"smoothFactor": 0' in html
    assert TEMPLATE in html
    assert json_escaped(OSM_ATTRIBUTION) in html
    assert f'"iconAnchor": [{PIN_ANCHOR[0]}, {PIN_ANCHOR[1]}]' in html


def json_escaped(text: str) -> str:
    return text.replace("©", "\\u00a9")


def test_page_without_path_or_markers(web_assets: Path) -> None:
    html = _html(web_assets)
    assert "window.cartoqaPath = null;" in html
    assert "window.cartoqaMarkers = [];" in html


def test_one_vertex_path_is_refused(web_assets: Path) -> None:
    with pytest.raises(RenderError, match="two vertices"):
        _html(web_assets, path=[(60.17, 24.94)])


def test_missing_leaflet_names_the_fix(tmp_path: Path) -> None:
    with pytest.raises(RenderError, match=r"install\.sh"):
        leaflet_assets(tmp_path)


def test_marker_colour_and_range_checked() -> None:
    with pytest.raises(RenderError, match="colour"):
        Marker(60.0, 24.0, "green")
    with pytest.raises(RenderError, match="latitude"):
        Marker(124.9, 60.1, "blue")


def test_pin_outline_tip_and_tangents() -> None:
    """The tip is the anchor and both straight edges touch the round head."""
    numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", pin_outline())]
    tip = (numbers[0], numbers[1])
    left = (numbers[2], numbers[3])
    radius = numbers[4]
    right = (numbers[-2], numbers[-1])
    assert tip == (PIN_WIDTH / 2, PIN_HEIGHT) == (float(PIN_ANCHOR[0]), float(PIN_ANCHOR[1]))
    centre = (PIN_WIDTH / 2, radius + 0.5)
    for point in (left, right):
        # On the circle, and the radius there is perpendicular to the edge to the tip.
        assert math.dist(point, centre) == pytest.approx(radius, abs=2e-3)
        radial = (point[0] - centre[0], point[1] - centre[1])
        edge = (tip[0] - point[0], tip[1] - point[1])
        assert radial[0] * edge[0] + radial[1] * edge[1] == pytest.approx(0.0, abs=0.05)
    assert left[0] + right[0] == pytest.approx(PIN_WIDTH)  # symmetric about the tip
    assert "#cb2b3e" in pin_svg("red") and "#2a81cb" in pin_svg("blue")


@pytest.mark.parametrize(
    ("label", "expected"),
    [("50 m", (50.0, "m")), ("1 km", (1.0, "km")), ("300 ft", (300.0, "ft")),
     ("2 mi", (2.0, "mi"))],
)
def test_parse_scale_label(label: str, expected: tuple[float, str]) -> None:
    assert parse_scale_label(label) == expected


def test_parse_scale_label_rejects_other_text() -> None:
    with pytest.raises(RenderError):
        parse_scale_label("50 yards")


def _probe(marker_exact: list[float], marker_placed: list[float]) -> dict[str, object]:
    return {
        "size": [VIEW.width, VIEW.height],
        "zoom": VIEW.zoom,
        "pixel_origin": list(VIEW.origin_px),
        "markers": [{"exact": marker_exact, "placed": marker_placed}],
        "path": None,
        "scale": [
            {"label": "50 m", "box": [5.0, 720.0, 84.0, 18.0]},
            {"label": "100 ft", "box": [5.0, 740.0, 51.0, 18.0]},
        ],
        "attribution": "Leaflet | © OpenStreetMap contributors",
    }


def test_describe_drawing_records_positions_and_scale() -> None:
    marker = Marker(60.17, 24.94, "blue")
    x, y = VIEW.to_view_px(marker.lat, marker.lon)
    drawn = describe_drawing(VIEW, markers=[marker], path=None,
                             probe=_probe([x, y], [round(x), round(y)]))
    assert drawn["markers"][0]["px"] == [x, y]
    assert drawn["markers"][0]["leaflet_px"] == [round(x), round(y)]
    assert drawn["scale_bar"]["metric"]["meters"] == 50.0
    assert drawn["scale_bar"]["imperial"]["meters"] == pytest.approx(30.48)
    assert drawn["scale_bar"]["imperial"]["width_px"] == 51.0
    assert drawn["bounds"] == list(VIEW.bounds)
    # 2*pi*6378137 / 2**25 = 1.194329 m/px at the equator; times cos(60.1699 deg) = 0.497430
    assert drawn["meters_per_pixel"] == pytest.approx(0.594095, rel=1e-5)


def test_describe_drawing_refuses_a_misplaced_marker() -> None:
    marker = Marker(60.17, 24.94, "red")
    x, y = VIEW.to_view_px(marker.lat, marker.lon)
    with pytest.raises(RenderError, match="Leaflet drew it"):
        describe_drawing(VIEW, markers=[marker], path=None,
                         probe=_probe([x, y], [x + 1.0, y]))


def test_describe_drawing_refuses_another_origin() -> None:
    probe = _probe([0.0, 0.0], [0.0, 0.0])
    probe["pixel_origin"] = [VIEW.origin_px[0] + 1, VIEW.origin_px[1]]
    probe["markers"] = []
    with pytest.raises(RenderError, match="pixel origin"):
        describe_drawing(VIEW, markers=[], path=None, probe=probe)


def test_view_update_carries_the_page_and_keys_on_its_head(web_assets: Path,
                                                            tmp_path: Path) -> None:
    """Two views of one setup share a key; the update holds the new page's own map
    container, styles and script, and the names its script declares."""
    other = View(center=(60.17, 24.94), zoom=19)
    one = build_map_html(VIEW, tile_url_template=TEMPLATE, assets_dir=web_assets,
                         markers=[Marker(60.1699, 24.9384, "red")])
    two = build_map_html(other, tile_url_template=TEMPLATE, assets_dir=web_assets,
                         path=[(60.17, 24.94), (60.1701, 24.9402)])
    first, second = view_update(one), view_update(two)
    assert first.key == second.key
    map_id = re.search(r'id="(map_[0-9a-f]+)"', two)
    assert map_id is not None
    assert second.script.count(map_id.group(1)) > 3  # container, style, script, names
    assert "1366.0px" in second.script and "zoom" in second.script
    assert first.script != second.script
    # another Leaflet copy is another kind of page: no update across them
    copy = tmp_path / "web"
    (copy / "leaflet").mkdir(parents=True)
    for name in ("leaflet.js", "leaflet.css"):
        (copy / "leaflet" / name).write_bytes((web_assets / "leaflet" / name).read_bytes())
    elsewhere = build_map_html(VIEW, tile_url_template=TEMPLATE, assets_dir=copy)
    assert view_update(elsewhere).key != first.key


def test_view_update_refuses_a_page_of_another_shape(web_assets: Path) -> None:
    page = build_map_html(VIEW, tile_url_template=TEMPLATE, assets_dir=web_assets)
    for broken in (page.replace("</body>", "<script>var x = 1;</script></body>"),
                   page.replace("<!DOCTYPE html>", ""),
                   page + "<script>var late = 1;</script>"):
        with pytest.raises(RenderError, match="not shaped"):
            view_update(broken)


def _numbered_ids(html: str) -> str:
    """``html`` with folium's random element ids (32 hex digits) numbered in order."""
    seen: dict[str, str] = {}
    return re.sub(r"[0-9a-f]{32}", lambda m: seen.setdefault(m[0], f"id{len(seen)}"), html)


def test_the_page_is_built_without_pandas_and_the_same(web_assets: Path) -> None:
    """``renderers.page`` imports folium as on a machine without pandas (folium only
    recognises DataFrames with it, and pandas is half its import): a fresh interpreter
    builds the same page as one that loaded pandas first (whose folium has it), with
    pandas never loaded; pandas imported afterwards is the real one."""
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent(f"""
        import sys
        if sys.argv[1] == "pandas-first":
            import pandas
        from pathlib import Path
        from groundtruth.projection import View
        from renderers.markers import Marker
        from renderers.page import build_map_html
        import folium.utilities
        html = build_map_html(View(center={VIEW.center!r}, zoom={VIEW.zoom}),
                              tile_url_template={TEMPLATE!r}, assets_dir=Path({str(web_assets)!r}),
                              markers=[Marker(60.1699, 24.9384, "red")],
                              path=[(60.1699, 24.9384), (60.17, 24.94)])
        print("pandas" in sys.modules, folium.utilities.pd is not None)
        import pandas
        assert pandas.DataFrame({{"a": [1]}}).shape == (1, 1)
        sys.stdout.write(html)
    """)
    root = Path(__file__).resolve().parents[2]
    pages = {}
    for how in ("fresh", "pandas-first"):
        out = subprocess.run([sys.executable, "-c", script, how], cwd=root,
                             capture_output=True, text=True, check=True).stdout
        loaded, pages[how] = out.split("\n", 1)
        assert loaded == ("False False" if how == "fresh" else "True True"), how
    assert _numbered_ids(pages["fresh"]) == _numbered_ids(pages["pandas-first"])
    assert "id3" in _numbered_ids(pages["fresh"])  # the ids were there to number
