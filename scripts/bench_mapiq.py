"""Benchmark the MapIQ suite: maps per second (draw, pixel check) and questions per second.

Usage::

    .venv/bin/python scripts/bench_mapiq.py [--maps 12] [--rounds 200]

Measured side by side in one run: drawing alone, drawing plus the pixel check, per map
type; whole map slots (classify, draw, check, 19 questions) in one process and in two
worker processes (this machine has 2 cores); and question generation alone.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from cartoqa.tasks.mapiq import task_modules
from cartoqa.tasks.mapiq.build import MapiqBuilder, load_variables, plan_maps
from cartoqa.tasks.mapiq.common import MapContext
from groundtruth.thematic.adjacency import queen_adjacency, restrict
from groundtruth.thematic.boundaries import load_us_states
from groundtruth.thematic.classification import fisher_jenks_absorbing
from groundtruth.thematic.us_states import us_zones
from renderers.thematic.check import check_map
from renderers.thematic.design import BASELINE, MAP_TYPES
from renderers.thematic.draw import MapRequest, draw_map

_BUILDER: MapiqBuilder | None = None


def _slot(index: int) -> int:
    global _BUILDER
    variables = load_variables(None)
    if _BUILDER is None:
        _BUILDER = MapiqBuilder(variables, 0)
    plan = plan_maps(variables, [])[index]
    made = _BUILDER.make_slot(plan, Counter(), Counter())
    return len(made[0]) if made else 0


def main() -> None:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--maps", type=int, default=12, help="maps per measurement")
    ap.add_argument("--rounds", type=int, default=200, help="question-generation rounds")
    args = ap.parse_args()
    boundaries = load_us_states()
    variables = load_variables(None)
    classes = [fisher_jenks_absorbing(v.values) for v in variables]
    print(f"{len(variables)} variables, {args.maps} maps per measurement")
    for map_type in MAP_TYPES:
        reqs = [MapRequest(map_type, v.title, c.classes, c.labels, boundaries.albers, BASELINE)
                for v, c in zip(variables[: args.maps], classes, strict=False)]
        t0 = time.perf_counter()
        drawn = [draw_map(r) for r in reqs]
        t1 = time.perf_counter()
        for r, d in zip(reqs, drawn, strict=True):
            assert check_map(d.png, d.report, r.classes, BASELINE.colours) == []
        t2 = time.perf_counter()
        n = len(reqs)
        print(f"{map_type:>20}: draw {n / (t1 - t0):5.2f} maps/s, check {n / (t2 - t1):6.2f} "
              f"maps/s, draw+check {n / (t2 - t0):5.2f} maps/s")

    n = min(args.maps, len(plan_maps(variables, [])))
    t0 = time.perf_counter()
    serial = [_slot(i) for i in range(n)]
    t1 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=2) as pool:
        list(pool.map(_slot, range(2)))  # warm both workers (imports, boundaries)
        t2 = time.perf_counter()
        parallel = list(pool.map(_slot, range(n)))
        t3 = time.perf_counter()
    assert serial == parallel
    s_rate, p_rate = n / (t1 - t0), n / (t3 - t2)
    print(f"whole slots (classify, draw, check, questions): 1 process {s_rate:.2f} maps/s "
          f"({sum(serial) / (t1 - t0):.1f} questions/s); 2 processes {p_rate:.2f} maps/s "
          f"({sum(parallel) / (t3 - t2):.1f} questions/s); ratio {p_rate / s_rate:.2f}x")

    queen = queen_adjacency(boundaries.lonlat)
    contexts: list[Any] = []
    for v, c in zip(variables, classes, strict=True):
        have = set(c.classes)
        contexts.append(MapContext("choropleth", "baseline", v.title, c,
                                   us_zones(tuple(sorted(have))), restrict(queen, have)))
    modules = task_modules()
    count = 0
    t0 = time.perf_counter()
    for r in range(args.rounds):
        ctx = contexts[r % len(contexts)]
        rng = random.Random(r)
        for m in modules:
            count += len(m.make_questions(ctx, rng, Counter()))
    t1 = time.perf_counter()
    print(f"question generation alone: {count / (t1 - t0):.0f} questions/s "
          f"({count} questions)")


if __name__ == "__main__":
    main()
