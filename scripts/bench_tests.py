"""Time test modules in two checkouts side by side: CPU seconds and wall, old vs new.

The machine this project is developed on is shared (load 8-15 on two cores), so wall
time alone says little; CPU seconds (user + system of pytest and every child it waited
for) are steadier. Each round runs the old checkout and the new one one after the other
(the order alternates between rounds), so both see the same machine state.

Usage::

    git worktree add --detach /tmp/base aa2dbd7          # the "before" checkout
    python scripts/bench_tests.py --old /tmp/base --new . tests/build/test_build_e2e.py
    python scripts/bench_tests.py --old /tmp/base --new . --together \\
        --new-args="-n 2" tests/build tests/tasks        # one pytest session per side

Each side runs ``nice -n 5 pytest -p no:cacheprovider -q ARGS MODULE`` in its checkout
with ``PYTHONPATH`` set to it. Not counted: daemons that leave the process tree (the
PostgreSQL server started by ``pg_ctl``), in either checkout.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Run:
    """One pytest session: what it cost and what it said."""

    cpu_s: float
    wall_s: float
    rc: int
    summary: str


def run_pytest(root: Path, targets: list[str], extra: list[str]) -> Run:
    """Run pytest on ``targets`` in checkout ``root``; CPU of every waited-for child.

    Parameters
    ----------
    root : pathlib.Path
        The checkout (its ``tests/`` and packages are used).
    targets : list of str
        Test paths relative to the checkout.
    extra : list of str
        More pytest arguments (``-n 2``).

    Returns
    -------
    Run
        CPU seconds (user + system), wall seconds, exit status, pytest's last line.
    """
    env = dict(os.environ, PYTHONPATH=str(root))
    cmd = ["nice", "-n", "5", sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
           "-q", *extra, *targets]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True,
                          check=False)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    summary = re.sub(r"\x1b\[[0-9;]*m", "", lines[-1]) if lines else proc.stderr[-200:]
    return Run(cpu, wall, proc.returncode, summary.strip())


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, required=True, help="the 'before' checkout")
    parser.add_argument("--new", type=Path, default=Path("."), help="the 'after' checkout")
    parser.add_argument("--rounds", type=int, default=1, help="old/new pairs per module")
    parser.add_argument("--together", action="store_true",
                        help="all modules in one pytest session per side (shared builds "
                             "are shared across modules only within a session)")
    parser.add_argument("--old-args", default="", help="more pytest arguments, old side")
    parser.add_argument("--new-args", default="", help="more pytest arguments, new side")
    parser.add_argument("modules", nargs="+", help="test paths, relative to the checkouts")
    args = parser.parse_args(argv)
    old, new = args.old.resolve(), args.new.resolve()
    for side in (old, new):
        if not (side / "tests").is_dir():
            print(f"bench_tests: {side} has no tests/ folder", file=sys.stderr)
            return 2
    groups = [args.modules] if args.together else [[m] for m in args.modules]
    sides = {"old": (old, shlex.split(args.old_args)), "new": (new, shlex.split(args.new_args))}
    totals = {"old": [0.0, 0.0], "new": [0.0, 0.0]}
    print(f"{'module':60} {'old cpu':>8} {'new cpu':>8} {'ratio':>6} "
          f"{'old wall':>8} {'new wall':>8} {'ratio':>6}  load1", flush=True)
    for targets in groups:
        label = " ".join(targets) if len(targets) < 3 else f"{len(targets)} paths together"
        runs: dict[str, list[Run]] = {"old": [], "new": []}
        for r in range(args.rounds):
            order = ("old", "new") if r % 2 == 0 else ("new", "old")
            for name in order:
                root, extra = sides[name]
                run = run_pytest(root, targets, extra)
                runs[name].append(run)
                print(f"  [{name}] {label}: cpu {run.cpu_s:.1f} s, wall {run.wall_s:.1f} s, "
                      f"rc {run.rc}: {run.summary}", file=sys.stderr, flush=True)
        cpu = {k: sum(x.cpu_s for x in v) / len(v) for k, v in runs.items()}
        wall = {k: sum(x.wall_s for x in v) / len(v) for k, v in runs.items()}
        for k in totals:
            totals[k][0] += cpu[k]
            totals[k][1] += wall[k]
        print(f"{label:60} {cpu['old']:8.1f} {cpu['new']:8.1f} "
              f"{cpu['new'] / max(cpu['old'], 1e-9):6.2f} {wall['old']:8.1f} "
              f"{wall['new']:8.1f} {wall['new'] / max(wall['old'], 1e-9):6.2f}  "
              f"{os.getloadavg()[0]:.1f}", flush=True)
    (oc, ow), (nc, nw) = totals["old"], totals["new"]
    print(f"{'TOTAL':60} {oc:8.1f} {nc:8.1f} {nc / max(oc, 1e-9):6.2f} "
          f"{ow:8.1f} {nw:8.1f} {nw / max(ow, 1e-9):6.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
