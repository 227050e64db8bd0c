"""Benchmark FRIEDA question planning (``plan_all``), an older commit against this tree.

Usage::

    python scripts/bench_frieda_plan.py [--old REV] [--counts 48 96] [--extract helsinki]

``plan_all`` is what a FRIEDA build does before its first render (``_shared``): every
relation's plans at ``count`` = ``slot_stride(per_task, 1) * MAX_ATTEMPTS`` (a build of
``--per-task N`` plans at ``16 * N``; the default 40 plans at 640). The bench writes the
package trees of ``REV`` (``git archive``; default the commit before the speed-up) to a
temporary folder and runs the same measurement there and here, each in its own
process, one after the other: planning seconds per count side by side, the ratio, and
whether the two made the same plans (a digest of every plan: questions, answers, meta,
maps with their features' keys and geometries as WKB).

Reading the extract, its pairs and legend areas is done once per process and not
timed. The ratio is of CPU seconds (the process's own time, which a loaded machine
changes far less than wall time; wall seconds are printed beside them).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

#: The last commit before the planning speed-up (frieda27g).
DEFAULT_OLD = "aa2dbd7"
ROOT = Path(__file__).resolve().parent.parent


def canonical(value: Any) -> Any:
    """A JSON-able form of a plan (geometries as WKB hex), for the digest."""
    # imported here: the parent process compares digests without loading shapely
    from shapely.geometry.base import BaseGeometry

    if isinstance(value, BaseGeometry):
        return ["wkb", value.wkb_hex]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [type(value).__name__,
                {f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value)}]
    if isinstance(value, dict):
        return [[canonical(k), canonical(v)] for k, v in value.items()]
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str | int | bool) or value is None:
        return value
    return repr(value)


def _child(counts: list[int], extract: str, seed: int) -> None:
    """Time ``plan_all`` at each count in this process's tree; print one JSON line."""
    # imported here: the child measures whichever tree PYTHONPATH points at
    from cartoqa.tasks.frieda.build import plan_all
    from groundtruth.extracts import resolve_extract
    from groundtruth.legend_areas import load_category_areas
    from groundtruth.named_features import load_named_features
    from groundtruth.relation_pairs import topological_pairs

    source = resolve_extract(extract)
    feats = load_named_features(source)
    pairs = topological_pairs(feats, include_disjoint=True)
    areas = load_category_areas(source)
    out = {}
    for count in counts:
        t0, c0 = time.perf_counter(), time.process_time()
        plans = plan_all(feats, pairs, seed=seed, count=count, areas=areas)
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        text = json.dumps(canonical(plans), separators=(",", ":"))
        out[str(count)] = {"seconds": seconds, "cpu": cpu,
                           "digest": hashlib.sha256(text.encode()).hexdigest()[:16],
                           "plans": sum(len(a) + len(b) for a, b in plans.values())}
    print(json.dumps(out))


def _run(tree: Path, counts: list[int], extract: str, seed: int) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", "--extract", extract,
           "--seed", str(seed), "--counts", *map(str, counts)]
    done = subprocess.run(cmd, env=env, cwd=tree, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"bench child in {tree} failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _old_tree(rev: str, folder: Path) -> Path:
    archive = folder / "old.tar"
    with archive.open("wb") as fh:
        subprocess.run(["git", "-C", str(ROOT), "archive", rev, "cartoqa", "groundtruth",
                        "renderers"], stdout=fh, check=True)
    tree = folder / "old"
    tree.mkdir()
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    (tree / "assets").symlink_to(ROOT / "assets")
    return tree


def main() -> None:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", default=DEFAULT_OLD, help="the older commit (default %(default)s)")
    ap.add_argument("--counts", type=int, nargs="+", default=[48, 96],
                    help="plan counts (a build of --per-task N plans at 16 N)")
    ap.add_argument("--extract", default="helsinki")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--new-only", action="store_true", help="time this tree alone")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        _child(args.counts, args.extract, args.seed)
        return
    new = _run(ROOT, args.counts, args.extract, args.seed)
    old: dict[str, Any] = {}
    if not args.new_only:
        with tempfile.TemporaryDirectory(prefix="bench-frieda-") as tmp:
            old = _run(_old_tree(args.old, Path(tmp)), args.counts, args.extract, args.seed)
    print(f"plan_all on {args.extract}, seed {args.seed}; old = {args.old}, new = this tree")
    print(f"{'count':>6} {'old CPU s':>10} {'new CPU s':>10} {'old/new':>8} {'old wall':>9} "
          f"{'new wall':>9} {'plans':>6}  same plans")
    for count in map(str, args.counts):
        n = new[count]
        o = old.get(count)
        if o is None:
            print(f"{count:>6} {'-':>10} {n['cpu']:10.1f} {'-':>8} {'-':>9} "
                  f"{n['seconds']:9.1f} {n['plans']:>6}  -")
            continue
        same = "yes" if o["digest"] == n["digest"] else f"NO ({o['digest']} vs {n['digest']})"
        print(f"{count:>6} {o['cpu']:10.1f} {n['cpu']:10.1f} {o['cpu'] / n['cpu']:8.1f} "
              f"{o['seconds']:9.1f} {n['seconds']:9.1f} {n['plans']:>6}  {same}")


if __name__ == "__main__":
    main()
