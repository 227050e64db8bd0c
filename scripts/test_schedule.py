"""What bounds the wall time of ``pytest -n 2 --dist loadfile``: per-worker loads.

Reads the folder a run wrote with ``CARTOQA_TEST_TIMES=DIR`` (tests/conftest.py: one
JSON-lines file per xdist worker, one line per test phase) and prints, per worker,
its collection time, its busy time (the sum of its tests' setup + call + teardown: the
figure that does not depend on how the run was started) and when it finished; the
longest files; and the critical path of the same files under another hand-out order,
simulated as xdist's loadfile scheduler hands them out (one file per worker, then the
next file to a worker with two or fewer tests left).

Usage::

    CARTOQA_TEST_TIMES=/tmp/times pytest -n 2 --dist loadfile --no-loadscope-reorder
    python scripts/test_schedule.py /tmp/times              # loads, files, simulation
    python scripts/test_schedule.py /tmp/times --table      # FILE_SECONDS for file_order.py
    CARTOQA_TEST_TIMES=/tmp/one pytest -n 0                 # what each file costs the
    python scripts/test_schedule.py /tmp/one                # machine, daemons included

The simulation takes each file's measured seconds as they are: a worker that waited for
a shared build the other worker was making counts that wait in the test that waited.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Worker:
    """One process's run: when it started, collected and finished, and its tests."""

    name: str
    start: float = 0.0
    collected: float = 0.0
    end: float = 0.0
    files: list[str] = field(default_factory=list)
    slow: list[str] = field(default_factory=list)
    tests: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    order: list[str] = field(default_factory=list)
    """The files in the order this worker ran them."""
    collection_cpu: float = 0.0
    cpu: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    """CPU seconds per file (runs that recorded them), less daemons."""
    machine_cpu: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    """The whole machine's busy seconds per file: a file's full cost, daemons,
    browsers and build subprocesses included, in a one-process run (``-n 0``) on an
    otherwise idle machine; with two workers each file also counts the other's work."""


def read_run(folder: Path) -> list[Worker]:
    """Every worker's file in ``folder`` (``gw0.jsonl``, ``gw1.jsonl`` or ``main.jsonl``)."""
    workers = []
    for path in sorted(folder.glob("*.jsonl")):
        w = Worker(path.stem)
        cpu = 0.0
        machine: float | None = None
        for line in path.read_text("utf-8").splitlines():
            e = json.loads(line)
            if e.get("event") == "start":
                w.start = e["t"]
            elif e.get("event") == "collected":
                w.collected, w.files, w.slow = e["t"], e["files"], e["slow"]
                w.collection_cpu = cpu = e.get("cpu", 0.0)
            elif "nodeid" in e:
                if "cpu" in e:
                    w.cpu[e["nodeid"].split("::")[0]] += e["cpu"] - cpu
                    cpu = e["cpu"]
                if e.get("machine_cpu") is not None:
                    if machine is not None:  # the first phase's start is not recorded
                        w.machine_cpu[e["nodeid"].split("::")[0]] += e["machine_cpu"] - machine
                    machine = e["machine_cpu"]
                w.tests[e["nodeid"]] += e["duration"]
                w.end = max(w.end, e["stop"])
                f = e["nodeid"].split("::")[0]
                if not w.order or w.order[-1] != f:
                    w.order.append(f)
        workers.append(w)
    return workers


def per_file(workers: list[Worker]) -> dict[str, list[float]]:
    """Each file's tests' seconds, in the order they ran."""
    files: dict[str, list[float]] = defaultdict(list)
    for w in workers:
        for nodeid, seconds in w.tests.items():
            files[nodeid.split("::")[0]].append(seconds)
    return files


def simulate(order: list[str], files: dict[str, list[float]], n: int = 2,
             start: float = 0.0) -> list[float]:
    """When each of ``n`` workers ends under xdist's loadfile hand-out of ``order``.

    Parameters
    ----------
    order : list of str
        The files in hand-out order (those without measured tests are skipped).
    files : dict of str to list of float
        Each file's tests' seconds, in their order.
    n : int
        Workers.
    start : float
        When the workers start running tests (after their collection).

    Returns
    -------
    list of float
        Each worker's end time.
    """
    queue = [f for f in order if files.get(f)]
    pending: list[list[float]] = [[] for _ in range(n)]
    clock = [start] * n

    def hand_out(i: int) -> None:
        if queue:
            pending[i].extend(files[queue.pop(0)])

    for i in range(n):
        hand_out(i)
    for i in range(n):
        if len(pending[i]) <= 2:
            hand_out(i)
    while any(pending):
        i = min((j for j in range(n) if pending[j]), key=lambda j: clock[j])
        clock[i] += pending[i].pop(0)
        if len(pending[i]) <= 2:
            hand_out(i)
    return clock


def old_order(collected: list[str], slow: list[str]) -> list[str]:
    """The order before file_order.py: files with a slow test first, else as collected."""
    return sorted(collected, key=lambda f: f not in set(slow))


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="CARTOQA_TEST_TIMES folder of a run")
    parser.add_argument("--table", action="store_true",
                        help="print FILE_SECONDS (files over --min seconds) and stop")
    parser.add_argument("--min", type=float, default=3.0, help="smallest file in --table")
    parser.add_argument("--top", type=int, default=25, help="longest files listed")
    parser.add_argument("--drop", action="append", default=[], metavar="PREFIX",
                        help="simulate without the files whose path starts so (repeatable)")
    args = parser.parse_args(argv)
    workers = read_run(args.folder)
    if not workers:
        print(f"no worker files in {args.folder}", file=sys.stderr)
        return 2
    files = per_file(workers)
    if args.drop:
        files = {f: v for f, v in files.items() if not f.startswith(tuple(args.drop))}
        for w in workers:
            w.files = [f for f in w.files if f in files]
    seconds = {f: sum(v) for f, v in files.items()}
    if args.table:
        for f, s in sorted(seconds.items(), key=lambda kv: -kv[1]):
            if s >= args.min:
                print(f'    "{f}": {s:.1f},')
        return 0
    t0 = min(w.start for w in workers)
    print("worker  collection_s  collection_cpu_s  busy_s  cpu_s  tests  files  ends_at_s")
    for w in workers:
        print(f"{w.name:6}  {w.collected - w.start:12.1f}  {w.collection_cpu:16.1f}  "
              f"{sum(w.tests.values()):6.1f}  {sum(w.cpu.values()):5.1f}  "
              f"{len(w.tests):5d}  {len(w.order):5d}  {w.end - t0:9.1f}")
    ends = [w.end - t0 for w in workers]
    print(f"last worker ends {max(ends):.1f} s after the first start; "
          f"the other idles {max(ends) - min(ends):.1f} s before it")
    print(f"\nlongest files (of {len(files)}; seconds, CPU seconds, machine CPU seconds, "
          "tests, worker):")
    where = {f: w.name for w in workers for f in w.order}
    cpu = {f: c for w in workers for f, c in w.cpu.items()}
    machine = {f: c for w in workers for f, c in w.machine_cpu.items()}
    for f, s in sorted(seconds.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f"  {s:7.1f}  {cpu.get(f, 0.0):6.1f}  {machine.get(f, 0.0):6.1f}  "
              f"{len(files[f]):5d}  {where.get(f, '?'):4}  {f}")
    ref = next((w for w in workers if w.files), None)
    if ref is not None and len(workers) > 1:
        sys.path.insert(0, str(ROOT / "tests"))
        from helpers.file_order import file_order  # imported here: tests/ is not a package

        collection = max(w.collected - w.start for w in workers)
        total = sum(seconds.values())
        new = file_order([Path(f) for f in ref.files], {Path(f) for f in ref.slow}, Path("."))
        orders = {
            "as run": ref.files,
            "slow files first (before)": old_order(sorted(ref.files, key=_pytest_key),
                                                   ref.slow),
            "file_order.py (longest first)": sorted(ref.files, key=lambda f: new[Path(f)]),
            "measured longest first": sorted(ref.files, key=lambda f: -seconds.get(f, 0.0)),
        }
        print(f"\nsimulated critical path, {len(workers)} workers (collection {collection:.1f} s "
              f"+ tests; all tests {total:.1f} s, half {total / len(workers):.1f} s):")
        for label, order in orders.items():
            clock = simulate(order, files, len(workers), collection)
            ends = ", ".join(f"{c:.1f}" for c in clock)
            print(f"  {label:32} ends {max(clock):7.1f} s  (workers {ends})")
    return 0


def _pytest_key(nodeid_path: str) -> tuple[str, ...]:
    """pytest's collection order of test files: the path's parts, sorted by name."""
    return tuple(Path(nodeid_path).parts)


if __name__ == "__main__":
    sys.exit(main())
