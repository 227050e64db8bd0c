"""Benchmark of ``cartoqa build``: cost per accepted item by stage, and the speed-up of
``--workers 2`` and of ``build-many`` on a LocalCluster against ``--workers 1``.

All figures come from one run, side by side, on the same warm cache:

1. a warm-up build of each "city" (fills the tile cache and starts the database);
2. an instrumented ``--workers 1`` build of the first city, with timers around the
   stages (tile rendering, browser screenshot, label-free reference render, visibility
   analysis; slots that found no acceptable scenario are counted as rejected), printed
   per accepted item against the render floor (one screenshot and one reference render
   per accepted scenario);
3. every city built with ``--workers 1``, then with ``--workers 2``, then all of them
   with ``build-many`` on a LocalCluster of 2 workers; the wall times and ratios.

The "cities" are the bundled Kotka extract with different seeds (the same extract
twice is the simplest pair of equal-sized jobs); ``--extract`` chooses another.

Usage::

    python scripts/bench_build.py --per-task 4 --tasks mml,rle
"""

from __future__ import annotations

import argparse
import functools
import shutil
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

STAGES = ("tiles", "screenshot", "reference render", "visibility analysis")


def _timed(totals: dict[str, float], counts: dict[str, int], stage: str,
           fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            totals[stage] += time.perf_counter() - start
            counts[stage] += 1
    return wrapper


def instrumented_build(extract: str, out: Path, tasks: list[str], per_task: int,
                       seed: int) -> tuple[float, dict[str, float], dict[str, int], int, int]:
    """One ``--workers 1`` build with stage timers; returns
    ``(wall, totals, counts, items, accepted scenarios)``."""
    import importlib
    import pkgutil

    import cartoqa.tasks
    import cartoqa.tasks.drawing as drawing
    from cartoqa.build import build_dataset
    from renderers.browser import Browser
    from renderers.tiles import TileRenderer

    totals: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    patches: list[tuple[Any, str, Any]] = []

    def patch(owner: Any, name: str, stage: str) -> None:
        original = getattr(owner, name)
        patches.append((owner, name, original))
        setattr(owner, name, _timed(totals, counts, stage, original))

    patch(TileRenderer, "ensure_tiles", "tiles")
    patch(Browser, "capture", "screenshot")
    patch(drawing, "render_reference", "reference render")
    for info in pkgutil.iter_modules(cartoqa.tasks.__path__):
        module = importlib.import_module(f"cartoqa.tasks.{info.name}")
        if hasattr(module, "analyse_view"):
            patch(module, "analyse_view", "visibility analysis")
        if hasattr(module, "make_scenario"):
            original = module.make_scenario

            def make(ctx: Any, state: Any, slot: int, _orig: Any = original) -> Any:
                start = time.perf_counter()
                result = _orig(ctx, state, slot)
                spent = time.perf_counter() - start
                if result is None:
                    totals["rejected scenarios"] += spent
                    counts["rejected scenarios"] += 1
                else:
                    counts["accepted scenarios"] += 1
                return result
            patches.append((module, "make_scenario", original))
            module.make_scenario = make  # type: ignore[attr-defined]
    try:
        start = time.perf_counter()
        report = build_dataset(extract=extract, out=out, tasks=tasks, per_task=per_task,
                               seed=seed, progress=False, log=lambda msg: None)
        wall = time.perf_counter() - start
    finally:
        for owner, name, original in reversed(patches):
            setattr(owner, name, original)
    return wall, dict(totals), dict(counts), report.total, counts["accepted scenarios"]


def _build(extract: str, out: Path, tasks: list[str], per_task: int, seed: int,
           workers: int) -> float:
    from cartoqa.build import build_dataset

    start = time.perf_counter()
    build_dataset(extract=extract, out=out, tasks=tasks, per_task=per_task, seed=seed,
                  progress=False, log=lambda msg: None, workers=workers)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--extract", default="kotka")
    parser.add_argument("--tasks", default="mml,rle")
    parser.add_argument("--per-task", type=int, default=4)
    parser.add_argument("--seeds", default="1,2", help="one city per seed (default 1,2)")
    parser.add_argument("--keep", action="store_true", help="keep the output folders")
    args = parser.parse_args()

    from cartoqa.build_many import CitySpec, ManySpec, build_many
    from cartoqa.tasks import parse_tasks

    tasks = parse_tasks(args.tasks)
    seeds = [int(s) for s in args.seeds.split(",")]
    root = Path(tempfile.mkdtemp(prefix="cartoqa-bench-build-"))
    try:
        print(f"extract {args.extract}, tasks {','.join(tasks)}, per task {args.per_task}, "
              f"seeds {seeds}; output under {root}")
        for seed in seeds:  # warm-up: tiles, database
            _build(args.extract, root / f"warm-{seed}", tasks, args.per_task, seed, 1)

        wall, totals, counts, items, accepted = instrumented_build(
            args.extract, root / "staged", tasks, args.per_task, seeds[0])
        print(f"\ncost per accepted item ({items} items, {accepted} accepted scenarios, "
              f"{counts.get('rejected scenarios', 0)} rejected slots), warm cache:")
        per_item = {k: v / max(items, 1) for k, v in totals.items()}
        accounted = 0.0
        for stage in (*STAGES, "rejected scenarios"):
            t = per_item.get(stage, 0.0)
            accounted += t if stage != "tiles" else 0.0
            print(f"  {stage:<22} {t:7.3f} s/item  ({counts.get(stage, 0)} calls)")
        other = wall / max(items, 1) - accounted
        print(f"  {'other (ground truth, candidates, Python)':<22} {other:7.3f} s/item")
        print(f"  {'total':<22} {wall / max(items, 1):7.3f} s/item")
        shots = counts.get("screenshot", 0)
        refs = counts.get("reference render", 0)
        floor = 0.0
        if shots and refs:
            floor = (totals["screenshot"] / shots + totals["reference render"] / refs) \
                * accepted / max(items, 1)
            print(f"  render floor (one screenshot + one reference per accepted "
                  f"scenario): {floor:.3f} s/item; total / floor = "
                  f"{wall / max(items, 1) / floor:.2f}x")

        one = sum(_build(args.extract, root / f"w1-{s}", tasks, args.per_task, s, 1)
                  for s in seeds)
        two = sum(_build(args.extract, root / f"w2-{s}", tasks, args.per_task, s, 2)
                  for s in seeds)
        spec = ManySpec(out=root / "many", cities=[
            CitySpec(name=f"city-{s}", extract=args.extract, tasks=tuple(tasks),
                     per_task=args.per_task, seed=s) for s in seeds])
        start = time.perf_counter()
        build_many(spec, workers=2, progress=False, log=lambda msg: None)
        many = time.perf_counter() - start
        same = all((root / f"w1-{s}" / "items.jsonl").read_bytes()
                   == (root / f"w2-{s}" / "items.jsonl").read_bytes()
                   == (root / "many" / f"city-{s}" / "items.jsonl").read_bytes()
                   for s in seeds)
        print(f"\n{len(seeds)} builds, warm cache: --workers 1 {one:.1f} s, --workers 2 "
              f"{two:.1f} s (speed-up {one / two:.2f}x), build-many on a LocalCluster of 2 "
              f"{many:.1f} s (speed-up {one / many:.2f}x; {many / two:.2f}x the time of "
              f"--workers 2)")
        print(f"items.jsonl identical across the three: {same}")
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
