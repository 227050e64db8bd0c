#!/usr/bin/env python3
"""Map-image benchmark: this pipeline (warm browser, cached tiles) against a naive one.

In one run, on the same views of an extract (two per zoom 15-19 by default, each with
a blue and a red marker and a path), it measures:

1. the cold tile render of those views from an empty cache (cluster, import and style
   load timed apart), in tiles per second;
2. this pipeline: one long-lived Chromium, cached tiles, screenshot as soon as every
   tile has loaded — seconds per image;
3. a naive pipeline: a new Chromium per image, load the same page, sleep a fixed
   time, screenshot — seconds per image;

and prints the ratio. Usage::

    .venv/bin/python scripts/bench_render.py [--extract helsinki] [--views 10] [--sleep 3]
        [--out DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from cartoqa.settings import web_assets_dir
from groundtruth.extracts import resolve_extract
from groundtruth.projection import View
from renderers.browser import Browser
from renderers.map_render import MapRenderer, Marker
from renderers.osm_import import ensure_imported
from renderers.tiles import TileRenderer

ZOOMS = (15, 16, 17, 18, 19)


def bench_views(bounds: tuple[float, float, float, float], count: int) -> list[View]:
    """``count`` views cycling through zoom 15-19, centres spread over the inner extract."""
    s, w, n, e = bounds
    views = []
    for i in range(count):
        # A low-discrepancy walk over the middle 60% of the extract.
        fx = 0.2 + 0.6 * ((i * 0.618034) % 1.0)
        fy = 0.2 + 0.6 * ((i * 0.414214 + 0.5) % 1.0)
        views.append(View(center=(s + fy * (n - s), w + fx * (e - w)), zoom=ZOOMS[i % 5]))
    return views


def scene(view: View) -> tuple[list[Marker], list[tuple[float, float]]]:
    """A blue and a red marker joined by a path, well inside the view."""
    a = view.to_latlon(view.width * 0.3, view.height * 0.6)
    b = view.to_latlon(view.width * 0.7, view.height * 0.4)
    mid = view.to_latlon(view.width * 0.5, view.height * 0.65)
    return [Marker(*a, "blue"), Marker(*b, "red")], [a, mid, b]


def naive_capture(html_path: Path, *, sleep_s: float, width: int, height: int,
                  folders: tuple[Path, ...] = ()) -> bytes:
    """New Chromium, load, fixed wait, screenshot, quit (how folium's ``_to_png`` works).

    The fixed wait is a page-side condition (``sleep_s`` after the page started), so
    the same DevTools transport is timed in both pipelines.
    """
    with Browser(width=width, height=height) as browser:
        browser.allow(html_path.parent, *folders)  # served to it when cartoqa is root
        png, _ = browser.capture(html_path.as_uri(),
                                 ready_js=f"return performance.now() >= {sleep_s * 1000:.0f};")
    return png


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--extract", default="helsinki",
                        help="bundled name or extract file (default: helsinki)")
    parser.add_argument("--views", type=int, default=10, help="number of views (default: 10)")
    parser.add_argument("--sleep", type=float, default=3.0,
                        help="the naive pipeline's fixed wait in seconds (default: 3)")
    parser.add_argument("--out", type=Path, default=None,
                        help="also save this pipeline's PNGs here")
    args = parser.parse_args(argv)

    extract = resolve_extract(args.extract)
    if extract.bounds is None:
        print("the extract has no bounds in its header", file=sys.stderr)
        return 2
    views = bench_views(extract.bounds, args.views)
    wanted = sorted({t for v in views for t in v.tiles(margin_tiles=1)})
    cache = Path(tempfile.mkdtemp(prefix="cartoqa-bench-render-"))
    cache.chmod(0o755)  # reachable by the unprivileged postgres user when run as root
    assets = web_assets_dir()
    pages = Path(tempfile.mkdtemp(prefix="cartoqa-bench-pages-"))
    tiles = TileRenderer(extract, cache_dir=cache)
    try:
        t0 = time.perf_counter()
        tiles.cluster.start()
        t1 = time.perf_counter()
        ensure_imported(tiles.cluster, extract)
        t2 = time.perf_counter()
        tiles.start()
        t3 = time.perf_counter()
        tiles.ensure_tiles(wanted)
        t4 = time.perf_counter()
        cold_s = t4 - t3
        print(f"extract           {extract.name} ({extract.short_id}), {len(views)} views, "
              f"zoom {', '.join(str(v.zoom) for v in views)}")
        print(f"cluster start     {t1 - t0:6.2f} s   import {t2 - t1:5.2f} s   "
              f"style load {t3 - t2:5.2f} s")
        print(f"cold tile render  {cold_s:6.2f} s for the {len(wanted)} tiles the views need "
              f"(+1 tile margin; {tiles.tiles_rendered} rendered as whole metatiles): "
              f"{len(wanted) / cold_s:.1f} needed tiles/s, "
              f"{tiles.tiles_rendered / cold_s:.1f} rendered tiles/s")

        # This pipeline: one browser, cached tiles, wait on the tiles' loaded class.
        browser = Browser()
        with MapRenderer(tiles, assets_dir=assets, browser=browser) as renderer:
            t5 = time.perf_counter()
            browser.start()
            markers0, path0 = scene(views[0])
            renderer.render(views[0], markers=markers0, path=path0)  # warm-up
            t6 = time.perf_counter()
            warm_times = []
            for i, view in enumerate(views):
                markers, path = scene(view)
                start = time.perf_counter()
                result = renderer.render(view, markers=markers, path=path)
                warm_times.append(time.perf_counter() - start)
                if args.out is not None:
                    args.out.mkdir(parents=True, exist_ok=True)
                    (args.out / f"view-{i:02d}-z{view.zoom}.png").write_bytes(result.png)
                (pages / f"view-{i:02d}.html").write_text(result.html, encoding="utf-8")
        folders = browser.allowed
        browser.close()
        warm = sum(warm_times) / len(warm_times)
        print(f"this pipeline     first image {t6 - t5:5.2f} s (browser start included); "
              f"warm {warm:.3f} s/image (min {min(warm_times):.3f}, "
              f"max {max(warm_times):.3f})")

        # Naive: a new browser per image and a fixed sleep.
        naive_times = []
        for i, view in enumerate(views):
            start = time.perf_counter()
            naive_capture(pages / f"view-{i:02d}.html", sleep_s=args.sleep,
                          width=view.width, height=view.height, folders=folders)
            naive_times.append(time.perf_counter() - start)
        naive = sum(naive_times) / len(naive_times)
        print(f"naive pipeline    {naive:.3f} s/image (new browser each, {args.sleep:g} s sleep)")
        print(f"speed-up          {naive / warm:.1f}x faster than naive; "
              f"{'under' if warm < 1.0 else 'NOT under'} 1 s per warm image")
        if args.out is not None:
            print(f"images            {args.out}")
    finally:
        tiles.close()
        if (tiles.cluster.data_dir / "PG_VERSION").exists():
            tiles.cluster.destroy()
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(pages, ignore_errors=True)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
