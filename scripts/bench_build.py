"""Benchmark of ``cartoqa build``: cost per accepted item by stage, and the speed-up of
``--workers 2`` and of ``build-many`` on a LocalCluster against ``--workers 1``.

All figures come from one run, side by side, on the same warm cache:

1. a warm-up ``build-many`` of every "city" (fills the tile cache and the road-graph
   cache, so that no timed build renders tiles or builds a road graph);
2. an instrumented ``--workers 1`` build of the first city in this process, with timers
   around the stages (tile rendering, browser screenshot, label-free reference render,
   visibility analysis; slots that found no acceptable scenario are counted as
   rejected), printed per accepted item against the render floor (one screenshot and
   one reference render per accepted scenario);
3. every city built with ``python -m cartoqa build --workers 1``, then with
   ``--workers 2``, then all of them with ``python -m cartoqa build-many`` on a
   LocalCluster of 2 workers, each as a fresh process as a user runs it: wall time,
   and the CPU seconds of each class of process (the builder, its worker processes,
   Chromium, the PostgreSQL server), sampled every 0.2 s from ``/proc``;
4. the speed-ups, the bound the CPU seconds put on them on this machine's cores, and
   whether the three outputs of every city are byte-identical.

The bench holds the PostgreSQL cluster for its whole run (as a machine that builds
often keeps it running), so no build pays for starting the server. The "cities" are
one extract with different seeds (equal-sized jobs); ``--extract`` chooses another.
The machine's load average is printed first and last: on a shared machine the
figures are only as good as the idle cores.

Usage (the issue's figures; estimated 6-9 minutes on 2 idle cores)::

    nice -n 10 python scripts/bench_build.py --tasks mml,rle --per-task 20
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cartoqa.build as build
import cartoqa.tasks.common.drawing as drawing
from cartoqa.declarations.suites import parse_tasks
from cartoqa.settings import cache_root
from renderers.browser import Browser
from renderers.postgis import PostgisCluster, read_pid_file
from renderers.tiles import TileRenderer

STAGES = ("tiles", "screenshot", "reference render", "road-name render",
          "visibility analysis", "road-name judging")


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
    """One ``--workers 1`` build in this process with stage timers; returns
    ``(wall, totals, counts, items, accepted scenarios)``.

    The stages are disjoint calls: tile rendering (``ensure_tiles``), the browser's
    screenshot, the label-free reference render, the Mapnik render of the asked road
    names (``render_label_marks``), the visibility analysis of icons and labels
    (``analyse_view``) and the judging of road-name labels (``written_instances``).
    The first road-name render of a process also loads the marked style (about 0.5 s).
    ``rejected scenarios`` is the whole time of slots that found no scenario (their
    stages are also counted above).
    """
    import dataclasses
    import sys as _sys

    for task in tasks:  # import the task modules, whose imported names are patched
        build.load_spec(task)
    totals: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    patches: list[tuple[Any, str, Any]] = []

    def patch(owner: Any, name: str, stage: str) -> None:
        original = getattr(owner, name)
        patches.append((owner, name, original))
        setattr(owner, name, _timed(totals, counts, stage, original))

    patch(TileRenderer, "ensure_tiles", "tiles")
    patch(TileRenderer, "render_label_marks_pixels", "road-name render")
    patch(Browser, "capture", "screenshot")
    patch(drawing, "render_reference", "reference render")
    for module_name, module in list(_sys.modules.items()):
        if not module_name.startswith("cartoqa.tasks"):
            continue
        if hasattr(module, "analyse_view"):
            patch(module, "analyse_view", "visibility analysis")
        if hasattr(module, "written_instances"):
            patch(module, "written_instances", "road-name judging")
    original_load_spec = build.load_spec

    def timed_spec(name: str) -> Any:
        spec = original_load_spec(name)
        make = spec.make_scenario

        def make_timed(ctx: Any, state: Any, slot: int) -> Any:
            start = time.perf_counter()
            result = make(ctx, state, slot)
            if result is None:
                totals["rejected scenarios"] += time.perf_counter() - start
                counts["rejected scenarios"] += 1
            else:
                counts["accepted scenarios"] += 1
            return result
        return dataclasses.replace(spec, make_scenario=make_timed)

    patches.append((build, "load_spec", original_load_spec))
    build.load_spec = timed_spec
    try:
        start = time.perf_counter()
        report = build.build_dataset(extract=extract, out=out, tasks=tasks, per_task=per_task,
                                     seed=seed, progress=False, log=lambda msg: None)
        wall = time.perf_counter() - start
    finally:
        for owner, name, original in reversed(patches):
            setattr(owner, name, original)
    return wall, dict(totals), dict(counts), report.total, counts["accepted scenarios"]


#: Process classes whose CPU seconds are reported.
CLASSES = ("builder", "workers", "chromium", "postgres")


def _classify(proc: Any, root: int) -> str:
    name = proc.name()
    if "chrom" in name:
        return "chromium"
    if proc.pid == root:
        return "builder"
    return "workers"


def run_measured(cmd: list[str], postmaster_pid: Callable[[], int | None],
                 poll: float = 0.2) -> tuple[float, dict[str, float], int]:
    """Run a command; return ``(wall seconds, CPU seconds by class, exit status)``.

    The command's process tree and the PostgreSQL server's processes are sampled
    every ``poll`` seconds; each process counts with the last CPU times seen (a
    process's last ``poll`` seconds may be missed).
    """
    import psutil

    # (pid, start time) -> [class, CPU seconds when first seen (servers older than the
    # command count only their growth), CPU seconds when last seen]
    seen: dict[tuple[int, float], list[Any]] = {}
    began = time.time()

    def sample(root: int) -> None:
        procs: list[tuple[Any, str]] = []
        try:
            top = psutil.Process(root)
            procs.append((top, "builder"))
            procs += [(c, "") for c in top.children(recursive=True)]
        except psutil.NoSuchProcess:
            pass
        pm = postmaster_pid()
        if pm is not None:
            try:
                server = psutil.Process(pm)
                procs += [(p, "postgres") for p in (server, *server.children(recursive=True))]
            except psutil.NoSuchProcess:
                pass
        for proc, cls in procs:
            try:
                times = proc.cpu_times()
                cpu = times.user + times.system
                key = (proc.pid, proc.create_time())
                if key not in seen:
                    base = cpu if key[1] < began else 0.0
                    seen[key] = [cls or _classify(proc, root), base, cpu]
                seen[key][2] = cpu
            except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
                pass

    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    start = time.perf_counter()
    while proc.poll() is None:
        sample(proc.pid)
        time.sleep(poll)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode != 0:
        print(err[-2000:], file=sys.stderr)
    totals: dict[str, float] = dict.fromkeys(CLASSES, 0.0)
    for cls, base, last in seen.values():
        totals[cls] = totals.get(cls, 0.0) + last - base
    return wall, totals, proc.returncode


def _cli_build(extract: str, out: Path, tasks: list[str], per_task: int, seed: int,
               workers: int) -> list[str]:
    return [sys.executable, "-m", "cartoqa", "build", "--extract", extract, "--out", str(out),
            "--tasks", ",".join(tasks), "--per-task", str(per_task), "--seed", str(seed),
            "--workers", str(workers), "--no-progress"]


def _many_spec(root: Path, name: str, extract: str, tasks: list[str], per_task: int,
               seeds: list[int]) -> Path:
    lines = [f'out = "{name}"', f"tasks = {tasks!r}".replace("'", '"'),
             f"per_task = {per_task}", ""]
    for s in seeds:
        lines += ["[[city]]", f'name = "city-{s}"', f'extract = "{extract}"', f"seed = {s}", ""]
    path = root / f"{name}.toml"
    path.write_text("\n".join(lines), "utf-8")
    return path


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--extract", default="kotka")
    parser.add_argument("--tasks", default="mml,rle")
    parser.add_argument("--per-task", type=int, default=20)
    parser.add_argument("--seeds", default="1,2", help="one city per seed (default 1,2)")
    parser.add_argument("--keep", action="store_true", help="keep the output folders")
    args = parser.parse_args()

    tasks = parse_tasks(args.tasks)
    seeds = [int(s) for s in args.seeds.split(",")]
    root = Path(tempfile.mkdtemp(prefix="cartoqa-bench-build-"))
    cluster = PostgisCluster(cache_root())
    try:
        print(f"extract {args.extract}, tasks {','.join(tasks)}, per task {args.per_task}, "
              f"seeds {seeds}; output under {root}")
        print(_load(), flush=True)
        cluster.start()  # held for the whole run: no build pays for the server's start

        def postmaster() -> int | None:
            return read_pid_file(cluster.data_dir / "postmaster.pid")

        many_cmd = [sys.executable, "-m", "cartoqa", "build-many", "--no-progress"]
        warm = _many_spec(root, "warm", args.extract, tasks, args.per_task, seeds)
        wall, _, rc = run_measured([*many_cmd, str(warm)], postmaster)
        print(f"warm-up (build-many of every city): {wall:.1f} s", flush=True)
        if rc != 0:
            raise SystemExit("the warm-up failed")

        wall, totals, counts, items, accepted = instrumented_build(
            args.extract, root / "staged", tasks, args.per_task, seeds[0])
        print(f"\ncost per accepted item ({items} items, {accepted} accepted scenarios, "
              f"{counts.get('rejected scenarios', 0)} rejected slots), warm cache, "
              "one process:")
        per_item = {k: v / max(items, 1) for k, v in totals.items()}
        for stage in STAGES:
            print(f"  {stage:<22} {per_item.get(stage, 0.0):7.3f} s/item  "
                  f"({counts.get(stage, 0)} calls)")
        other = (wall - sum(totals.get(stage, 0.0) for stage in STAGES)) / max(items, 1)
        print(f"  {'other':<22} {other:7.3f} s/item  (start-up: imports, road graph, "
              "browser, Mapnik styles; ground truth, candidates, image writing)")
        print(f"  {'total':<22} {wall / max(items, 1):7.3f} s/item  (wall seconds of this "
              "process; Chromium's own CPU is not in it)")
        print(f"  {'of which rejected slots':<22} {per_item.get('rejected scenarios', 0.0):7.3f}"
              " s/item")
        shots = counts.get("screenshot", 0)
        refs = counts.get("reference render", 0)
        if shots and refs and accepted:
            floor = (totals["screenshot"] / shots + totals["reference render"] / refs) \
                * accepted / max(items, 1)
            print(f"  render floor (one screenshot + one reference per accepted "
                  f"scenario): {floor:.3f} s/item; total / floor = "
                  f"{wall / max(items, 1) / floor:.2f}x", flush=True)

        runs: dict[str, tuple[float, dict[str, float]]] = {}
        for label, workers in (("--workers 1", 1), ("--workers 2", 2)):
            wall_sum, cpu = 0.0, dict.fromkeys(CLASSES, 0.0)
            for seed in seeds:
                out = root / f"w{workers}" / f"city-{seed}"
                wall, by_class, rc = run_measured(
                    _cli_build(args.extract, out, tasks, args.per_task, seed, workers),
                    postmaster)
                if rc != 0:
                    raise SystemExit(f"{label} seed {seed} failed")
                wall_sum += wall
                for k, v in by_class.items():
                    cpu[k] = cpu.get(k, 0.0) + v
            runs[label] = (wall_sum, cpu)
        spec = _many_spec(root, "many", args.extract, tasks, args.per_task, seeds)
        wall, cpu, rc = run_measured([*many_cmd, str(spec)], postmaster)
        if rc != 0:
            raise SystemExit("build-many failed")
        runs["build-many (2 workers)"] = (wall, cpu)

        cores = os.cpu_count() or 1
        n_items = sum((root / "w1" / f"city-{s}" / "items.jsonl").read_text("utf-8").count("\n")
                      for s in seeds)
        one_wall, one_cpu = runs["--workers 1"]
        print(f"\n{len(seeds)} cities, warm cache, each run a fresh process; CPU seconds "
              "by process class:")
        print("  builder = the `python -m cartoqa` process (with --workers 1 it makes every "
              "scenario;\n  with --workers 2 it prepares the tasks and writes what the "
              "workers made; for build-many\n  it is the Dask client), workers = its other "
              "Python processes (fork server and\n  workers, or the Dask nannies and "
              "workers), chromium = every browser process,\n  postgres = the PostgreSQL "
              "server's growth during the run. CPU seconds hold under load;\n  wall "
              "seconds and speed-ups only on idle cores.")
        print(f"  {'run':<24} {'wall s':>7} " + " ".join(f"{c:>9}" for c in CLASSES)
              + f" {'CPU s':>7} {'cores busy':>10} {'speed-up':>9}")
        for label, (wall, cpu) in runs.items():
            total = sum(cpu.values())
            print(f"  {label:<24} {wall:7.1f} " + " ".join(f"{cpu[c]:9.1f}" for c in CLASSES)
                  + f" {total:7.1f} {total / wall:10.2f} {one_wall / wall:8.2f}x")
        two_wall, two_cpu = runs["--workers 2"]
        many_wall, many_cpu = runs["build-many (2 workers)"]
        one_total = sum(one_cpu.values())
        print("  CPU seconds per item by class: " + "; ".join(
            f"{label} " + ", ".join(f"{c} {cpu[c] / max(n_items, 1):.3f}" for c in CLASSES)
            for label, (_, cpu) in runs.items()))
        print(f"  CPU seconds per item: --workers 1 {one_total / max(n_items, 1):.2f}, "
              f"--workers 2 {sum(two_cpu.values()) / max(n_items, 1):.2f}, build-many "
              f"{sum(many_cpu.values()) / max(n_items, 1):.2f} ({n_items} items in all)")
        print(f"  bound on {cores} idle cores (speed-up <= cores x wall(--workers 1) / CPU "
              f"seconds): --workers 2 {one_wall * cores / max(sum(two_cpu.values()), 1e-9):.2f}x, "
              f"build-many {one_wall * cores / max(sum(many_cpu.values()), 1e-9):.2f}x; "
              "meaningless under load, where the wall time stretches")
        print(f"  build-many takes {many_wall / two_wall:.2f}x the time of --workers 2 "
              "(within 10 %: 0.90-1.10, or faster)")
        same = all(
            (root / "w1" / f"city-{s}" / "items.jsonl").read_bytes()
            == (root / "w2" / f"city-{s}" / "items.jsonl").read_bytes()
            == (root / "many" / f"city-{s}" / "items.jsonl").read_bytes()
            == (root / "warm" / f"city-{s}" / "items.jsonl").read_bytes()
            for s in seeds)
        images = all(
            sorted((root / "w1" / f"city-{s}" / "images").iterdir()) and all(
                (root / d / f"city-{s}" / "images" / f.name).read_bytes() == f.read_bytes()
                for d in ("w2", "many")
                for f in sorted((root / "w1" / f"city-{s}" / "images").iterdir()))
            for s in seeds)
        print(f"items.jsonl identical across --workers 1, --workers 2 and build-many: {same}; "
              f"images identical: {images}")
        print(_load())
    finally:
        cluster.stop()
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
