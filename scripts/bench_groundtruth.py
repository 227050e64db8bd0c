"""Benchmark groundtruth: load time and routes per second, Helsinki beside synthetic grids.

Usage::

    .venv/bin/python scripts/bench_groundtruth.py [--routes 200] [--sizes 60 120 240]

For each extract it prints the road graph's size, the time to load it from the file
(pyosmium reading plus graph building), the time to load the map features, and how
many shortest routes per second it computes, with and without turn-by-turn steps.
The synthetic extracts are N x N street grids (100 m blocks, every fourth street
one-way) written as ``.osm`` files to a temporary folder, so cost can be read
against city size.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from xml.sax.saxutils import quoteattr

import networkx as nx

from groundtruth.features import load_features
from groundtruth.graph import load_road_graph
from groundtruth.routing import shortest_route
from groundtruth.turns import route_steps, steps_connect

#: Block size of the synthetic grids, degrees of latitude (about 100 m).
GRID_STEP_DEG = 0.0009


def write_grid_osm(path: Path, n: int, *, lat0: float = 60.0, lon0: float = 24.0) -> None:
    """Write an ``n`` x ``n`` street grid as an ``.osm`` file (streamed, line by line).

    Parameters
    ----------
    path : pathlib.Path
        Output file.
    n : int
        Streets in each direction; ``n * n`` junctions.
    lat0, lon0 : float, optional
        South-west corner.
    """
    dlon = GRID_STEP_DEG * 2  # about 100 m at 60 degrees north

    def node_id(r: int, c: int) -> int:
        return r * n + c + 1

    with open(path, "w", encoding="utf-8") as fh:
        fh.write('<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6">\n')
        for r in range(n):
            for c in range(n):
                lat, lon = lat0 + r * GRID_STEP_DEG, lon0 + c * dlon
                fh.write(f'<node id="{node_id(r, c)}" version="1" lat="{lat:.7f}"'
                         f' lon="{lon:.7f}"/>\n')
        way = 1
        for r in range(n):
            refs = "".join(f'<nd ref="{node_id(r, c)}"/>' for c in range(n))
            oneway = '<tag k="oneway" v="yes"/>' if r % 4 == 1 else ""
            fh.write(f'<way id="{way}" version="1">{refs}<tag k="highway" v="residential"/>'
                     f'<tag k="name" v={quoteattr(f"Street {r}")}/>{oneway}</way>\n')
            way += 1
        for c in range(n):
            refs = "".join(f'<nd ref="{node_id(r, c)}"/>' for r in range(n))
            oneway = '<tag k="oneway" v="-1"/>' if c % 4 == 3 else ""
            fh.write(f'<way id="{way}" version="1">{refs}<tag k="highway" v="tertiary"/>'
                     f'<tag k="name" v={quoteattr(f"Avenue {c}")}/>{oneway}</way>\n')
            way += 1
        fh.write("</osm>\n")


def _timed(fn: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def bench(source: str | Path, label: str, routes: int, seed: int) -> dict[str, object]:
    """Measure one extract; returns a row of the results table."""
    load_s, graph = _timed(lambda: load_road_graph(source))
    assert isinstance(graph, nx.MultiDiGraph)
    features_s, features = _timed(lambda: load_features(source))
    largest: set[int] = set()
    for component in nx.strongly_connected_components(graph):
        if len(component) > len(largest):
            largest = set(component)
    nodes = sorted(largest)
    rng = random.Random(seed)
    pairs = [tuple(rng.sample(nodes, 2)) for _ in range(routes)]
    route_s, found = _timed(lambda: [shortest_route(graph, o, d) for o, d in pairs])
    assert isinstance(found, list)
    steps_s, all_steps = _timed(lambda: [route_steps(graph, r) for r in found])
    assert isinstance(all_steps, list)
    check_s, ok = _timed(lambda: [steps_connect(graph, s, r.origin, r.destination)
                                  for s, r in zip(all_steps, found, strict=True)])
    assert isinstance(ok, list) and all(ok), "generated steps must connect"
    return {
        "extract": label,
        "nodes": graph.number_of_nodes(),
        "edges": graph.number_of_edges(),
        "features": len(features) if isinstance(features, list) else 0,
        "load_s": load_s,
        "features_s": features_s,
        "routes_per_s": routes / route_s,
        "steps_per_s": routes / steps_s,
        "checks_per_s": routes / check_s,
        "median_len_m": statistics.median(r.length_m for r in found),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--routes", type=int, default=200, help="random routes per extract")
    parser.add_argument("--sizes", type=int, nargs="*", default=[60, 120, 240],
                        help="synthetic grid sizes N (N x N junctions)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rows = [bench("helsinki", "helsinki", args.routes, args.seed)]
    with tempfile.TemporaryDirectory(prefix="cq-bench-") as tmp:
        for n in args.sizes:
            path = Path(tmp) / f"grid{n}.osm"
            write_grid_osm(path, n)
            rows.append(bench(path, f"grid {n}x{n}", args.routes, args.seed))
    header = (f"{'extract':<14}{'nodes':>8}{'edges':>9}{'load s':>9}{'feat s':>8}"
              f"{'routes/s':>10}{'steps/s':>9}{'checks/s':>10}{'median m':>10}")
    print(header)
    print("-" * len(header))
    for row in rows:
        print(f"{row['extract']:<14}{row['nodes']:>8}{row['edges']:>9}{row['load_s']:>9.2f}"
              f"{row['features_s']:>8.2f}{row['routes_per_s']:>10.1f}{row['steps_per_s']:>9.0f}"
              f"{row['checks_per_s']:>10.0f}{row['median_len_m']:>10.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
