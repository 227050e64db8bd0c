#!/usr/bin/env python3
"""Cold tile-rendering benchmark: every Helsinki (or other extract's) tile at zoom 15-19.

Starts from an empty cache folder, so the figures include creating the database
cluster, the osm2pgsql import and loading the OSM-Carto style, each timed apart from
the rendering itself. Prints tiles per second for the cold render.

Usage::

    .venv/bin/python scripts/bench_tiles.py [--extract helsinki] [--metatile 8] [--workers 1]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

from groundtruth.extracts import resolve_extract
from groundtruth.projection import tiles_for_bounds
from renderers.osm_import import ensure_imported
from renderers.tiles import MAX_ZOOM, MIN_ZOOM, TileRenderer

# Figures on a busy machine are wall-clock: compare "render CPU" across machines.


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--extract", default="helsinki",
                        help="bundled name or extract file (default: helsinki)")
    parser.add_argument("--metatile", type=int, default=8,
                        help="metatile edge in tiles (default: 8)")
    parser.add_argument("--workers", type=int, default=1,
                        help="rendering processes (default: 1)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the temporary cache folder and print its path")
    args = parser.parse_args(argv)

    extract = resolve_extract(args.extract)
    if extract.bounds is None:
        print("the extract has no bounds in its header", file=sys.stderr)
        return 2
    cache = Path(tempfile.mkdtemp(prefix="cartoqa-bench-tiles-"))
    cache.chmod(0o755)  # reachable by the unprivileged postgres user when run as root
    tiles = tiles_for_bounds(extract.bounds, range(MIN_ZOOM, MAX_ZOOM + 1))
    renderer = TileRenderer(extract, cache_dir=cache, metatile=args.metatile,
                            workers=args.workers)
    try:
        t0 = time.perf_counter()
        renderer.cluster.start()
        t1 = time.perf_counter()
        ensure_imported(renderer.cluster, extract)
        t2 = time.perf_counter()
        renderer.start()  # loads the style (the import is already done)
        t3 = time.perf_counter()
        cpu0 = time.process_time()
        renderer.ensure_tiles(tiles)
        cpu = time.process_time() - cpu0
        t4 = time.perf_counter()
        render_s = t4 - t3
        print(f"extract            {extract.name} ({extract.short_id})")
        print(f"style              {renderer.style_version}, metatile {args.metatile}, "
              f"{args.workers} worker(s)")
        print(f"cluster start      {t1 - t0:6.2f} s (initdb on an empty cache)")
        print(f"osm2pgsql import   {t2 - t1:6.2f} s")
        print(f"style load         {t3 - t2:6.2f} s")
        print(f"tiles z{MIN_ZOOM}-{MAX_ZOOM}         {len(tiles)} covering the extract, "
              f"{renderer.tiles_rendered} rendered (whole metatiles)")
        print(f"cold render        {render_s:6.2f} s = "
              f"{len(tiles) / render_s:6.1f} extract tiles/s "
              f"({renderer.tiles_rendered / render_s:.1f} rendered tiles/s)")
        if args.workers == 1:
            print(f"render CPU         {cpu:6.2f} s in Mapnik (this process; PostgreSQL apart)")
        print(f"cold total         {t4 - t0:6.2f} s")
        t5 = time.perf_counter()
        renderer.ensure_tiles(tiles)
        print(f"warm check         {time.perf_counter() - t5:6.3f} s (all {len(tiles)} cached)")
    finally:
        renderer.close()
        if args.keep:
            print(f"cache kept in {cache}")
        else:
            renderer.cluster.destroy()
            shutil.rmtree(cache, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
