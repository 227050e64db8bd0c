#!/usr/bin/env python3
"""Chromium's CPU per map screenshot: a page loaded per view against views shown in place.

In one run, on the same views of an extract (zoom 17-19, two markers and a path each,
warm tiles), it renders every view twice with one long-lived browser each:

1. ``page per view``: every view's page is loaded (``RELOAD_AFTER = 0``: no update
   ever runs in place), as cartoqa did before;
2. ``in place``: the first view's page is loaded and every later view is swapped into
   it (``renderers.page.view_update``), as a build does now;

and prints, per screenshot, the wall time, this process's CPU, the CPU of each class
of Chromium process (by its ``--type``), the largest renderer's resident memory, the
ratio of the two, and whether every PNG is byte-identical across the two. Usage::

    .venv/bin/python scripts/bench_screenshot.py [--extract kotka] [--views 24] [--seed 5]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from cartoqa.settings import cache_root, web_assets_dir
from groundtruth.extracts import resolve_extract
from groundtruth.projection import View
from renderers import browser as browser_module
from renderers.browser import Browser, descendant_pids
from renderers.map_render import MapRenderer, Marker
from renderers.osm_import import ensure_imported
from renderers.tiles import TileRenderer

_TICKS = os.sysconf("SC_CLK_TCK")


def chromium_cpu(pids: list[int]) -> tuple[dict[str, float], int]:
    """CPU seconds by Chromium process class, and the largest renderer's RSS in MB."""
    cpu: dict[str, float] = {}
    renderer_mb = 0
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            # Chromium rewrites its helpers' command lines with spaces, not NULs.
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
            rss_pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        kind_match = re.search(r"--type=([\w-]+)", cmd)
        kind = kind_match.group(1) if kind_match else "browser"
        if "--utility-sub-type=network" in cmd:
            kind = "network"
        cpu[kind] = cpu.get(kind, 0.0) + (int(fields[11]) + int(fields[12])) / _TICKS
        if kind == "renderer":
            renderer_mb = max(renderer_mb, rss_pages * os.sysconf("SC_PAGE_SIZE") // 2**20)
    return cpu, renderer_mb


def bench_views(bounds: tuple[float, float, float, float], count: int,
                seed: int = 5) -> list[View]:
    """``count`` views at zoom 17-19 spread over the middle of the extract (seeded)."""
    s, w, n, e = bounds
    rng = random.Random(seed)
    return [View(center=(s + (0.3 + 0.4 * rng.random()) * (n - s),
                         w + (0.3 + 0.4 * rng.random()) * (e - w)), zoom=17 + i % 3)
            for i in range(count)]


@dataclass
class Run:
    """Per-screenshot figures of one run, and its PNGs."""

    wall: float
    python: float
    by_class: dict[str, float]
    renderer_mb: int
    loads: int
    updates: int
    pngs: list[bytes]

    @property
    def chromium(self) -> float:
        """Chromium's CPU seconds per screenshot, every process."""
        return sum(self.by_class.values())


def run(tiles: TileRenderer, views: list[View], *, reload_after: int) -> Run:
    """Render every view with one new browser; return the figures and the PNGs."""
    saved = browser_module.RELOAD_AFTER
    browser_module.RELOAD_AFTER = reload_after
    pngs = []
    try:
        with Browser() as browser, MapRenderer(tiles, assets_dir=web_assets_dir(),
                                               browser=browser) as renderer:
            first = views[0]
            renderer.render(first, markers=[Marker(*first.center, "red")])  # starts it
            assert browser.pid is not None
            family = [browser.pid, *descendant_pids(browser.pid)]
            before, _ = chromium_cpu(family)
            own, start = os.times(), time.perf_counter()
            for view in views:
                a, b = view.to_latlon(500, 400), view.to_latlon(900, 300)
                result = renderer.render(view, markers=[Marker(*a, "red"), Marker(*b, "blue")],
                                         path=[a, view.to_latlon(700, 500), b])
                pngs.append(result.png)
            wall = time.perf_counter() - start
            now = os.times()
            after, renderer_mb = chromium_cpu([browser.pid, *descendant_pids(browser.pid)])
            loads, updates = browser.loads, browser.updates
    finally:
        browser_module.RELOAD_AFTER = saved
    n = len(views)
    by_class = {k: (after[k] - before.get(k, 0.0)) / n for k in after}
    return Run(wall=wall / n, python=(now.user + now.system - own.user - own.system) / n,
               by_class=by_class, renderer_mb=renderer_mb, loads=loads, updates=updates,
               pngs=pngs)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--extract", default="kotka",
                        help="bundled name or extract file (default: kotka)")
    parser.add_argument("--views", type=int, default=24, help="number of views (default: 24)")
    parser.add_argument("--seed", type=int, default=5,
                        help="seed of the views' centres (default: 5)")
    args = parser.parse_args(argv)
    extract = resolve_extract(args.extract)
    if extract.bounds is None:
        print("the extract has no bounds in its header", file=sys.stderr)
        return 2
    views = bench_views(extract.bounds, args.views, args.seed)
    with TileRenderer(extract, cache_dir=cache_root()) as tiles:
        tiles.cluster.start()
        ensure_imported(tiles.cluster, extract)
        for view in views:
            tiles.ensure_tiles(view.tiles(margin_tiles=1))
        print(f"extract {extract.name}, seed {args.seed}, {len(views)} views at zoom "
              f"17-19, two markers and a path each, warm tiles; per screenshot:")
        runs = {"page per view": run(tiles, views, reload_after=0),
                "in place": run(tiles, views, reload_after=browser_module.RELOAD_AFTER)}
    classes = sorted({k for r in runs.values() for k in r.by_class})
    print(f"  {'run':<15} {'wall s':>7} {'python':>7} {'chromium':>9}  "
          + " ".join(f"{k:>11}" for k in classes) + "  renderer MB  loads/updates")
    for name, r in runs.items():
        print(f"  {name:<15} {r.wall:7.3f} {r.python:7.3f} {r.chromium:9.3f}  "
              + " ".join(f"{r.by_class.get(k, 0.0):11.3f}" for k in classes)
              + f"  {r.renderer_mb:11d}  {r.loads}/{r.updates}")
    fresh, in_place = runs["page per view"], runs["in place"]
    print(f"  in place / page per view: wall {in_place.wall / fresh.wall:.2f}x, "
          f"Chromium CPU {in_place.chromium / fresh.chromium:.2f}x")
    same = fresh.pngs == in_place.pngs
    print(f"  every PNG byte-identical across the two: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
