"""Benchmark of ``cartoqa build``: CPU seconds per accepted item against the render
floor, and the speed-up of ``--workers 2`` (and of ``build-many`` on a LocalCluster)
against ``--workers 1``, for the current code and, with ``--old TREE``, an older one.

All figures come from one run, side by side, on the same warm cache:

1. a warm-up ``build-many`` of every "city" (fills the tile cache and the road-graph
   cache, so that no timed build renders tiles or builds a road graph);
2. an instrumented ``--workers 1`` build of the first city in this process (current
   code), with timers around the stages (tile rendering, browser screenshot,
   label-free reference render, road-name render, visibility analysis, road-name
   judging; slots that found no acceptable scenario are counted as rejected): wall
   and CPU seconds per accepted item by stage, and the **render floor**, the renders
   an accepted item cannot do without (one screenshot and one reference render per
   accepted scenario), in wall seconds and in CPU seconds (this process, Chromium's
   processes and the PostgreSQL server during those calls);
3. every city built with ``python -m cartoqa build --workers 1``, then with
   ``--workers 2`` (and, unless ``--no-many``, all of them with ``python -m cartoqa
   build-many`` on a LocalCluster of 2 workers), each as a fresh process as a user runs
   it, first with the old code (``--old``: a source tree, e.g. a ``git worktree`` of
   an older commit; its builds run with ``PYTHONPATH`` set to it), then with the
   current one: wall time; the CPU seconds of each class of process (the builder, its
   worker processes, Chromium, the PostgreSQL server), sampled every 0.2 s from
   ``/proc``; the user+sys seconds of the process tree from the kernel (``wait4``;
   the builder, its workers and the browsers it waited for) plus the server's growth;
   and, where a control group can be made (root), the CPU seconds of every process
   the build started, from the group's CPU accounting, plus the server's growth: the
   exact figure (sampling misses short-lived processes, ``wait4`` those nobody reaped);
4. per run: CPU seconds per item and their ratio to the CPU render floor, the
   speed-up against ``--workers 1`` of the same code, the bound the CPU seconds put
   on it on this machine's cores, and whether every output of every city is
   byte-identical (old and new alike);
5. per ``--workers 2`` run, how long the builder worked without its worker (before
   the fork, from the kernel's start times; after the worker ended, from the samples)
   and the bound that time puts on the speed-up were the rest spread evenly over the
   cores (:func:`overlap_bound`), with how short that time would have to be for
   :data:`TARGET_SPEEDUP` (:func:`serial_for`).

The bench holds the PostgreSQL cluster for its whole run (as a machine that builds
often keeps it running), so no build pays for starting the server. The "cities" are
one extract with different seeds (equal-sized jobs); ``--extract`` chooses another.
The machine's load average is printed first and last: on a shared machine the wall
figures are only as good as the idle cores; CPU seconds hold under load (within the
noise of a busy machine's caches).

Usage (the issue's figures; estimated 6-9 minutes on 2 idle cores, twice that with
``--old``)::

    git worktree add /tmp/cartoqa-old aa2dbd7
    nice -n 10 python scripts/bench_build.py --tasks mml,rle --per-task 20 --old /tmp/cartoqa-old

With ``--pairs N`` it measures instead, for a change whose effect is smaller than the
machine's drift, N alternating pairs of old and new builds of one city (each starting
its own server: a change to the server's settings or to what is asked of it counts
whole), ``--workers 1`` then ``--workers 2``, and prints the medians (about 1 minute
per pair on 2 idle cores for the issue's Kotka build)::

    python scripts/bench_build.py --tasks mml,rle --per-task 20 --old /tmp/cartoqa-old --pairs 3
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
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

#: Issue 32's goal for ``--workers 2`` against ``--workers 1``.
TARGET_SPEEDUP = 1.6


class CpuMeter:
    """CPU seconds of this process, its child processes (Chromium) and the PostgreSQL
    server, read from ``/proc`` around a call.

    The list of processes is taken again every 25 calls (a browser started inside a
    call counts from the next one); a call is measured over the same list at its
    start and its end.
    """

    def __init__(self, server_pid: Callable[[], int | None]) -> None:
        self._server_pid = server_pid
        self._procs: list[Any] = []
        self._calls = 0

    def procs(self) -> list[Any]:
        import psutil

        if self._calls % 25 == 0:
            procs = psutil.Process().children(recursive=True)
            pm = self._server_pid()
            if pm is not None:
                try:
                    server = psutil.Process(pm)
                    procs += [server, *server.children(recursive=True)]
                except psutil.NoSuchProcess:
                    pass
            self._procs = procs
        self._calls += 1
        return self._procs

    @staticmethod
    def cpu(procs: list[Any]) -> float:
        import psutil

        total = time.process_time()
        for proc in procs:
            try:
                times = proc.cpu_times()
                total += times.user + times.system
            except psutil.Error:
                pass
        return total


def _timed(totals: dict[str, float], counts: dict[str, int], stage: str,
           fn: Callable[..., Any], cpu_totals: dict[str, float] | None = None,
           meter: CpuMeter | None = None) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        procs = meter.procs() if meter is not None else []
        cpu0 = meter.cpu(procs) if meter is not None else 0.0
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            totals[stage] += time.perf_counter() - start
            counts[stage] += 1
            if meter is not None and cpu_totals is not None:
                cpu_totals[stage] += meter.cpu(procs) - cpu0
    return wrapper


def instrumented_build(extract: str, out: Path, tasks: list[str], per_task: int,
                       seed: int, meter: CpuMeter | None = None
                       ) -> tuple[float, dict[str, float], dict[str, int], int, int,
                                  dict[str, float]]:
    """One ``--workers 1`` build in this process with stage timers; returns
    ``(wall, totals, counts, items, accepted scenarios, CPU totals)``.

    The stages are disjoint calls: tile rendering (``ensure_tiles``), the browser's
    screenshot, the label-free reference render, the Mapnik render of the asked road
    names (``render_label_marks``), the visibility analysis of icons and labels
    (``analyse_view``) and the judging of road-name labels (``written_instances``;
    ``marked_names``, ``possibly_written`` before the screenshot and ``judge_marked``
    after it).
    The first road-name render of a process also loads the marked style (about 0.5 s).
    ``rejected scenarios`` is the whole time of slots that found no scenario (their
    stages are also counted above).
    """
    import dataclasses
    import sys as _sys

    for task in tasks:  # import the task modules, whose imported names are patched
        build.load_spec(task)
    totals: dict[str, float] = defaultdict(float)
    cpu_totals: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    patches: list[tuple[Any, str, Any]] = []

    def patch(owner: Any, name: str, stage: str) -> None:
        original = getattr(owner, name)
        patches.append((owner, name, original))
        setattr(owner, name, _timed(totals, counts, stage, original, cpu_totals, meter))

    patch(TileRenderer, "ensure_tiles", "tiles")
    patch(TileRenderer, "render_label_marks_pixels", "road-name render")
    patch(Browser, "capture", "screenshot")
    patch(drawing, "render_reference", "reference render")
    for module_name, module in list(_sys.modules.items()):
        if not module_name.startswith("cartoqa.tasks"):
            continue
        if hasattr(module, "analyse_view"):
            patch(module, "analyse_view", "visibility analysis")
        for judging in ("written_instances", "judge_marked", "marked_names",
                        "possibly_written"):
            if hasattr(module, judging):
                patch(module, judging, "road-name judging")
    original_load_spec = build.load_spec

    def timed_spec(name: str) -> Any:
        spec = original_load_spec(name)

        def timed(make: Callable[..., Any]) -> Callable[..., Any]:
            def make_timed(*args: Any) -> Any:
                start = time.perf_counter()
                result = make(*args)
                if result is None:
                    totals["rejected scenarios"] += time.perf_counter() - start
                    counts["rejected scenarios"] += 1
                return result
            return make_timed

        # a slot is made by make_scenario, or (SRN) by remake_avoiding from its first
        # candidate on (TaskSpec.make_slot); either gives None for a slot that failed
        remake = spec.remake_avoiding
        return dataclasses.replace(spec, make_scenario=timed(spec.make_scenario),
                                   remake_avoiding=None if remake is None else timed(remake))

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
    # accepted scenarios: the slots the items come from (a scenario made and then turned
    # down as a repeat is not one)
    accepted = len({(item["task"], item["provenance"]["slot"])
                    for item in map(json.loads, (out / "items.jsonl").read_text("utf-8")
                                    .splitlines())})
    return (wall, dict(totals), dict(counts), report.total, accepted, dict(cpu_totals))


#: Process classes whose CPU seconds are reported.
CLASSES = ("builder", "workers", "chromium", "postgres")


class CpuCgroup:
    """A control group of its own for one command, whose CPU accounting counts every
    process the command starts, however it ends or whoever reaps it (browsers, forked
    workers, Dask nannies): the exact CPU seconds of the run, where sampling ``/proc``
    misses short-lived processes and ``wait4`` misses those nobody waited for.

    Needs root and a cgroup file system with CPU accounting (v1 ``cpuacct`` or v2);
    :meth:`make` returns ``None`` elsewhere.
    """

    def __init__(self, folder: Path, usage: Callable[[Path], float]) -> None:
        self.folder = folder
        self._usage = usage

    @classmethod
    def make(cls, name: str) -> CpuCgroup | None:
        def v1(folder: Path) -> float:
            return int((folder / "cpuacct.usage").read_text()) / 1e9

        def v2(folder: Path) -> float:
            for line in (folder / "cpu.stat").read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "usage_usec":
                    return int(value) / 1e6
            raise OSError("no usage_usec in cpu.stat")

        candidates = [(Path("/sys/fs/cgroup/cpuacct"), v1), (Path("/sys/fs/cgroup"), v2)]
        for root, usage in candidates:
            marker = "cpuacct.usage" if usage is v1 else "cgroup.controllers"
            if not (root / marker).exists():
                continue
            try:  # a new group each time: one left behind holds its old usage
                folder = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=root))
            except OSError:
                continue
            try:
                usage(folder)
            except OSError:
                with contextlib.suppress(OSError):
                    folder.rmdir()
                continue
            return cls(folder, usage)
        return None

    def holds(self, pid: int) -> bool:
        """Whether process ``pid`` is in the group: a process the command started stays
        in it (the PostgreSQL server too, when the build started it), whoever reaps it.

        Examples
        --------
        >>> CpuCgroup(Path("/sys/fs/cgroup/cpuacct/nowhere"), lambda _: 0.0).holds(os.getpid())
        False
        """
        try:
            text = Path(f"/proc/{pid}/cgroup").read_text()
        except OSError:
            return False
        name = "/" + self.folder.name
        return any(line.split(":", 2)[2] == name for line in text.splitlines()
                   if line.count(":") >= 2)

    def enter(self) -> None:
        """Move the calling process into the group (a ``preexec_fn``)."""
        (self.folder / "cgroup.procs").write_text(str(os.getpid()))

    def cpu_s(self) -> float:
        """CPU seconds of every process that was in the group, once the last has left
        (waits up to 10 s for processes that outlive the command)."""
        for _ in range(100):
            if not (self.folder / "cgroup.procs").read_text().strip():
                break
            time.sleep(0.1)
        return self._usage(self.folder)

    def remove(self) -> None:
        """Remove the group (once its processes are gone)."""
        for _ in range(50):
            try:
                self.folder.rmdir()
                return
            except OSError:
                time.sleep(0.1)


def _classify(proc: Any, root: int) -> str:
    name = proc.name()
    # Chromium's helpers re-executed through /proc/self/exe are named "exe"
    if "chrom" in name or (name == "exe" and any(a.startswith("--type=")
                                                 for a in proc.cmdline())):
        return "chromium"
    if proc.pid == root:
        return "builder"
    return "workers"


def run_measured(cmd: list[str], postmaster_pid: Callable[[], int | None],
                 poll: float = 0.2, env: dict[str, str] | None = None,
                 cwd: Path | None = None, phases: dict[str, float] | None = None
                 ) -> tuple[float, dict[str, float], int, float, float | None]:
    """Run a command (in ``cwd``); return ``(wall seconds, CPU seconds by class, exit
    status, CPU seconds of its tree, CPU seconds of its control group)``.

    With ``phases`` (a dict, filled here) and a command that starts worker processes
    (processes of the class ``workers`` named as the command's process: its forks, not
    its helpers such as ``psql``), also how long the command worked without
    them: ``before`` (wall seconds from its start to its first worker's, from the
    kernel's start times), ``before_cpu`` (CPU seconds sampled by the first sample that
    saw a worker: at least those spent before it), ``after`` (wall seconds from the first
    sample that no longer saw one to the command's end: at most the time it worked alone
    after them) and ``after_cpu`` (CPU seconds sampled from the last sample that saw one
    on: at least those spent after them); empty when no worker was seen.

    The command's process tree and the PostgreSQL server's processes are sampled
    every ``poll`` seconds; each process counts with the last CPU times seen (a
    process's last ``poll`` seconds may be missed). The tree's CPU seconds are
    user+sys of the command and every descendant it waited for, from ``wait4``, plus
    the server's growth as sampled (the server's own figure includes the children it
    reaped: a connection's process lives a few ms, too short to be sampled). The
    control group's (:class:`CpuCgroup`; ``None`` where none can be made) are every
    process the command started, the server too when the command started it, plus the
    sampled growth of a server that was running before: the exact figure.
    """
    import psutil

    # (pid, start time) -> [class, CPU seconds when first seen (servers older than the
    # command count only their growth), CPU seconds when last seen, in the group]
    seen: dict[tuple[int, float], list[Any]] = {}
    began = time.time()
    group = CpuCgroup.make("cartoqa-bench")
    # The server's processes seen by the latest sample, and the server itself: the
    # server's own figure includes the CPU of its children it has reaped (a connection's
    # process lives a few ms: sampling would miss it), so a child that is gone by the
    # last sample counts there, not by itself.
    server_keys: set[tuple[int, float]] = set()
    servers: set[tuple[int, float]] = set()
    # per sample: (seconds since the start, CPU seconds sampled so far, workers alive)
    timeline: list[tuple[float, float, int]] = []
    worker_starts: list[float] = []

    def sample(root: int) -> None:
        server_keys.clear()
        alive = 0
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
                if cls == "postgres":
                    server_keys.add(key)
                    if proc.pid == pm:
                        cpu += times.children_user + times.children_system
                        servers.add(key)
                if key not in seen:
                    base = cpu if key[1] < began else 0.0
                    inside = group is not None and group.holds(proc.pid)
                    seen[key] = [cls or _classify(proc, root), base, cpu, inside]
                    if seen[key][0] == "workers" and proc.name() == root_name:
                        worker_starts.append(key[1])
                seen[key][2] = cpu
                if (seen[key][0] == "workers" and proc.name() == root_name
                        and proc.status() != psutil.STATUS_ZOMBIE):
                    alive += 1  # a worker (not a helper such as psql or dpkg-query)
            except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
                pass
        timeline.append((time.perf_counter() - start, counted(), alive))

    def counted() -> float:
        """CPU seconds so far, each once: a server's child that is gone counts in the
        server's figure for its reaped children (as in the totals below)."""
        return sum(last - base for key, (cls, base, last, _) in seen.items()
                   if not (cls == "postgres" and key not in servers
                           and key not in server_keys))

    with tempfile.TemporaryFile() as err_file:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err_file, env=env,
                                cwd=cwd, preexec_fn=group.enter if group else None)
        start = time.perf_counter()
        try:
            root_start = psutil.Process(proc.pid).create_time()
            root_name = psutil.Process(proc.pid).name()
        except psutil.NoSuchProcess:
            root_start, root_name = time.time(), ""
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            sample(proc.pid)
            time.sleep(poll)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        sample(proc.pid)  # the server's last growth
        err_file.seek(0)
        err = err_file.read().decode(errors="replace")
    if proc.returncode != 0:
        print(err[-2000:], file=sys.stderr)
    totals: dict[str, float] = dict.fromkeys(CLASSES, 0.0)
    outside = 0.0  # a server's growth that its group did not count (it was already running)
    for key, (cls, base, last, inside) in seen.items():
        if cls == "postgres" and key not in servers and key not in server_keys:
            continue  # gone: its CPU is in the server's figure (reaped children)
        totals[cls] = totals.get(cls, 0.0) + last - base
        if cls == "postgres" and not inside:
            outside += last - base
    with_workers = [i for i, (_, _, alive) in enumerate(timeline) if alive]
    if phases is not None and with_workers and worker_starts:
        first, last = timeline[with_workers[0]], timeline[with_workers[-1]]
        # the first sample that no longer saw them (stamped after it looked)
        gone = timeline[min(with_workers[-1] + 1, len(timeline) - 1)][0]
        phases["before"] = max(min(worker_starts) - root_start, 0.0)
        phases["before_cpu"] = first[1]
        phases["after"] = max(wall - gone, 0.0)
        phases["after_cpu"] = max(timeline[-1][1] - last[1], 0.0)
    tree = usage.ru_utime + usage.ru_stime + totals["postgres"]
    grouped = None
    if group is not None:
        # a server the build started is in the group, its short-lived connection
        # processes too (which sampling misses): counted once, by the group
        grouped = group.cpu_s() + outside
        group.remove()
    return wall, totals, proc.returncode, tree, grouped


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


def _code_root(tree: Path | None) -> Path:
    """The source tree whose code a build runs (None: this checkout)."""
    return tree.resolve() if tree is not None else Path(__file__).resolve().parent.parent


def _code_env(tree: Path | None) -> dict[str, str]:
    """The environment of a build of the code in ``tree`` (None: this checkout).

    A build runs with that tree as its working folder too: ``python -m`` puts the
    working folder first on the import path, ahead of ``PYTHONPATH``, so an old tree's
    build started from this checkout would run this checkout's code.
    """
    env = dict(os.environ)
    root = _code_root(tree)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(root), *[p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]])
    return env


def _same_outputs(root: Path, folders: list[str], seeds: list[int]) -> tuple[bool, bool]:
    """Whether ``items.jsonl`` and every image of each city agree across ``folders``."""
    first = folders[0]
    same = all(len({(root / d / f"city-{s}" / "items.jsonl").read_bytes() for d in folders}) == 1
               for s in seeds)
    images = all(
        sorted((root / first / f"city-{s}" / "images").iterdir()) and all(
            (root / d / f"city-{s}" / "images" / f.name).read_bytes() == f.read_bytes()
            for d in folders[1:]
            for f in sorted((root / first / f"city-{s}" / "images").iterdir()))
        and all(len(list((root / d / f"city-{s}" / "images").iterdir()))
                == len(list((root / first / f"city-{s}" / "images").iterdir()))
                for d in folders[1:])
        for s in seeds)
    return same, images


def run_cpu(by_class: dict[str, float], tree: float, group: float | None) -> float:
    """A run's CPU seconds: the largest of its figures (each misses something, the
    control group's nothing; see :func:`run_measured`).

    Examples
    --------
    >>> run_cpu({"builder": 1.0, "chromium": 0.5}, 1.2, None), run_cpu({}, 1.2, 2.0)
    (1.5, 2.0)
    """
    return max(sum(by_class.values()), tree, group or 0.0)


def overlap_bound(cpu: float, alone: float, alone_cpu: float, cores: int) -> float:
    """The least wall time of a run whose builder works ``alone`` seconds without its
    workers (spending ``alone_cpu`` of the run's ``cpu`` CPU seconds meanwhile), were
    the rest spread evenly over ``cores`` (perfect overlap: a lower bound).

    Examples
    --------
    >>> overlap_bound(10.0, 2.0, 2.0, 2)
    6.0
    """
    return alone + max(cpu - alone_cpu, 0.0) / cores


def serial_for(target: float, one_wall: float, cpu: float, alone: float, alone_cpu: float,
               cores: int) -> float:
    """How short the builder's time alone would have to be for :func:`overlap_bound` to
    allow a speed-up of ``target`` against a ``--workers 1`` run of ``one_wall``
    seconds, were the saving made in both runs (both pay that time: start-up, maps,
    writing) and the rest kept; negative when no time alone is short enough.

    Examples
    --------
    >>> serial_for(1.6, 10.0, 11.0, 1.0, 2.0, 2)  # 12 s / (3 s + 4.5 s) = 1.6
    3.0
    >>> serial_for(1.6, 8.0, 10.0, 2.0, 2.0, 2) < 0  # 8 / 6 = 1.33 at best
    True
    """
    rest = max(cpu - alone_cpu, 0.0) / cores
    saving = (target * (alone + rest) - one_wall) / (target - 1.0)
    return round(alone - saving, 9)


def postmaster_of(data_dir: Path) -> Callable[[], int | None]:
    """The process id of the cluster's server, read when asked (None: not running)."""
    return lambda: read_pid_file(data_dir / "postmaster.pid")


def run_pairs(args: argparse.Namespace) -> None:
    """``--pairs N``: the old and the new code in turn, N times each (the order
    alternates, so a drift of the machine's speed falls on both alike), each a
    ``cartoqa build`` of the first city that starts and stops its own PostgreSQL server
    (nothing is held: the server's start, its connections and its stop are part of the
    run, counted exactly by the run's control group), with ``--workers 1`` then
    ``--workers 2``. Prints each run, whether their items agree, and the medians."""
    import statistics

    tasks = parse_tasks(args.tasks)
    seed = int(args.seeds.split(",")[0])
    root = Path(tempfile.mkdtemp(prefix="cartoqa-bench-pairs-"))
    print(f"extract {args.extract}, tasks {','.join(tasks)}, per task {args.per_task}, "
          f"seed {seed}; {args.pairs} pairs per worker count; output under {root}")
    print(_load(), flush=True)
    medians: dict[tuple[str, int], tuple[float, float]] = {}
    # the server, counted by each run's group when the run starts it
    postmaster = postmaster_of(PostgisCluster(cache_root()).data_dir)
    try:
        for workers in (1, 2):
            runs: dict[str, list[tuple[float, float]]] = {"old": [], "new": []}
            items: set[bytes] = set()
            for i in range(args.pairs):
                for code in ("old", "new") if i % 2 == 0 else ("new", "old"):
                    tree = args.old if code == "old" else None
                    out = root / f"{code}-w{workers}-{i}"
                    wall, by_class, rc, tree_cpu, group_cpu = run_measured(
                        _cli_build(args.extract, out, tasks, args.per_task, seed, workers),
                        postmaster, env=_code_env(tree), cwd=_code_root(tree))
                    if rc != 0:
                        raise SystemExit(f"{code} --workers {workers} failed (exit {rc})")
                    cpu = run_cpu(by_class, tree_cpu, group_cpu)
                    runs[code].append((wall, cpu))
                    items.add((out / "items.jsonl").read_bytes())
                    print(f"  {code} --workers {workers} #{i + 1}: {wall:.1f} s, "
                          f"{cpu:.1f} CPU s", flush=True)
                    if not args.keep:
                        shutil.rmtree(out)
            for code, got in runs.items():
                medians[(code, workers)] = (statistics.median(w for w, _ in got),
                                            statistics.median(c for _, c in got))
            print(f"  items.jsonl identical across the {2 * args.pairs} runs: "
                  f"{len(items) == 1}")
        print("medians        wall s   CPU s   speed-up of --workers 2   CPU s added by "
              "the second process")
        for code in ("old", "new"):
            (w1, c1), (w2, c2) = medians[(code, 1)], medians[(code, 2)]
            print(f"  {code} --workers 1 {w1:7.1f} {c1:7.1f}")
            print(f"  {code} --workers 2 {w2:7.1f} {c2:7.1f}   {w1 / w2:5.2f}x"
                  f"{'':19}{c2 - c1:+.1f}")
        for workers in (1, 2):
            (ow, oc), (nw, nc) = medians[("old", workers)], medians[("new", workers)]
            print(f"  new / old, --workers {workers}: wall {nw / ow:.2f}, CPU {nc / oc:.2f}")
        print(_load())
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--extract", default="kotka")
    parser.add_argument("--tasks", default="mml,rle")
    parser.add_argument("--per-task", type=int, default=20)
    parser.add_argument("--seeds", default="1,2", help="one city per seed (default 1,2)")
    parser.add_argument("--old", type=Path, default=None,
                        help="source tree of an older cartoqa (e.g. a git worktree of an "
                             "older commit) to measure before the current code")
    parser.add_argument("--no-many", action="store_true",
                        help="leave out the build-many runs (the warm-up still uses it)")
    parser.add_argument("--keep", action="store_true", help="keep the output folders")
    parser.add_argument("--pairs", type=int, default=0, metavar="N",
                        help="instead: N pairs of builds of the first city, old and new "
                             "code in turn (needs --old), each starting its own server; "
                             "medians of wall and exact CPU seconds")
    args = parser.parse_args()
    if args.old is not None and not (args.old / "cartoqa" / "__main__.py").is_file():
        raise SystemExit(f"--old {args.old}: not a cartoqa source tree")
    if args.pairs:
        if args.old is None:
            raise SystemExit("--pairs needs --old")
        run_pairs(args)
        return

    tasks = parse_tasks(args.tasks)
    seeds = [int(s) for s in args.seeds.split(",")]
    root = Path(tempfile.mkdtemp(prefix="cartoqa-bench-build-"))
    cluster = PostgisCluster(cache_root())
    try:
        print(f"extract {args.extract}, tasks {','.join(tasks)}, per task {args.per_task}, "
              f"seeds {seeds}; output under {root}")
        print(_load(), flush=True)
        cluster.start()  # held for the whole run: no build pays for the server's start
        postmaster = postmaster_of(cluster.data_dir)

        many_cmd = [sys.executable, "-m", "cartoqa", "build-many", "--no-progress"]
        warm = _many_spec(root, "warm", args.extract, tasks, args.per_task, seeds)
        wall, _, rc, _, _ = run_measured([*many_cmd, str(warm)], postmaster,
                                         env=_code_env(None), cwd=_code_root(None))
        print(f"warm-up (build-many of every city): {wall:.1f} s", flush=True)
        if rc != 0:
            raise SystemExit("the warm-up failed")

        meter = CpuMeter(postmaster)
        wall, totals, counts, items, accepted, cpu_totals = instrumented_build(
            args.extract, root / "staged", tasks, args.per_task, seeds[0], meter)
        print(f"\ncost per accepted item ({items} items, {accepted} accepted scenarios, "
              f"{counts.get('rejected scenarios', 0)} rejected slots), warm cache, "
              "one process, current code (CPU: this process, Chromium and PostgreSQL "
              "during the calls):")
        per_item = {k: v / max(items, 1) for k, v in totals.items()}
        cpu_item = {k: v / max(items, 1) for k, v in cpu_totals.items()}
        for stage in STAGES:
            print(f"  {stage:<22} {per_item.get(stage, 0.0):7.3f} s/item  "
                  f"{cpu_item.get(stage, 0.0):7.3f} CPU s/item  ({counts.get(stage, 0)} calls)")
        other = (wall - sum(totals.get(stage, 0.0) for stage in STAGES)) / max(items, 1)
        print(f"  {'other':<22} {other:7.3f} s/item  (start-up: imports, road graph, "
              "browser, Mapnik styles; ground truth, candidates, image writing)")
        print(f"  {'total':<22} {wall / max(items, 1):7.3f} s/item  (wall seconds of this "
              "process; Chromium's own CPU is not in it)")
        print(f"  {'of which rejected slots':<22} {per_item.get('rejected scenarios', 0.0):7.3f}"
              " s/item")
        shots = counts.get("screenshot", 0)
        refs = counts.get("reference render", 0)
        floor = cpu_floor = 0.0
        if shots and refs and accepted:
            floor = (totals["screenshot"] / shots + totals["reference render"] / refs) \
                * accepted / max(items, 1)
            cpu_floor = (cpu_totals["screenshot"] / shots
                         + cpu_totals["reference render"] / refs) * accepted / max(items, 1)
            print(f"  render floor (one screenshot + one reference per accepted "
                  f"scenario): {floor:.3f} s/item, {cpu_floor:.3f} CPU s/item; "
                  f"total / floor = {wall / max(items, 1) / floor:.2f}x (wall)", flush=True)

        codes: list[tuple[str, Path | None]] = []
        if args.old is not None:
            codes.append(("old", args.old))
        codes.append(("new", None))
        # label -> (wall, CPU by class, CPU of the tree, CPU of the control group, folder)
        runs: dict[str, tuple[float, dict[str, float], float, float | None, str]] = {}
        # label -> the builder's time alone, summed over the cities (run_measured)
        alone: dict[str, dict[str, float]] = {}
        for code, tree in codes:
            env = _code_env(tree)
            for workers in (1, 2):
                label = f"{code} --workers {workers}"
                wall_sum, cpu, tree_sum = 0.0, dict.fromkeys(CLASSES, 0.0), 0.0
                group_sum: float | None = 0.0
                for seed in seeds:
                    out = root / f"{code}-w{workers}" / f"city-{seed}"
                    phases: dict[str, float] = {}
                    wall, by_class, rc, tree_cpu, group_cpu = run_measured(
                        _cli_build(args.extract, out, tasks, args.per_task, seed, workers),
                        postmaster, env=env, cwd=_code_root(tree), phases=phases)
                    if rc != 0:
                        raise SystemExit(f"{label} seed {seed} failed")
                    if workers > 1 and phases:
                        summed = alone.setdefault(label, dict.fromkeys(phases, 0.0))
                        for k, v in phases.items():
                            summed[k] += v
                    wall_sum += wall
                    tree_sum += tree_cpu
                    group_sum = (None if group_sum is None or group_cpu is None
                                 else group_sum + group_cpu)
                    for k, v in by_class.items():
                        cpu[k] = cpu.get(k, 0.0) + v
                runs[label] = (wall_sum, cpu, tree_sum, group_sum, f"{code}-w{workers}")
                shown = tree_sum if group_sum is None else group_sum
                print(f"  {label}: {wall_sum:.1f} s, {shown:.1f} CPU s", flush=True)
            if not args.no_many:
                spec = _many_spec(root, f"{code}-many", args.extract, tasks, args.per_task,
                                  seeds)
                wall, cpu, rc, tree_cpu, group_cpu = run_measured(
                    [*many_cmd, str(spec)], postmaster, env=env, cwd=_code_root(tree))
                if rc != 0:
                    raise SystemExit(f"{code} build-many failed")
                runs[f"{code} build-many (2)"] = (wall, cpu, tree_cpu, group_cpu,
                                                  f"{code}-many")

        cores = os.cpu_count() or 1
        n_items = sum((root / "new-w1" / f"city-{s}" / "items.jsonl").read_text("utf-8")
                      .count("\n") for s in seeds)
        print(f"\n{len(seeds)} cities, {n_items} items, warm cache, each run a fresh "
              "process; CPU seconds by process class:")
        print("  builder = the `python -m cartoqa` process (old code: with --workers 2 it "
              "prepares the tasks\n  and writes what its 2 workers made; new code: it "
              "makes scenarios too, beside 1 worker;\n  for build-many it is the Dask "
              "client), workers = its other Python processes (fork server\n  and "
              "workers, or the Dask nannies and workers), chromium = every browser "
              "process, postgres =\n  the PostgreSQL server's growth during the run (with the "
              "children it reaped: each\n  connection's short-lived process); "
              "sampled = their sum (misses each process's\n  last 0.2 s); tree = "
              "user+sys of every process the build waited for, from the kernel, plus\n  "
              "postgres (misses processes nobody waited for: the old fork server's "
              "workers). Both are\n  lower bounds; cgroup = every process the build "
              "started (the server too, when it started it), from\n  a control group of its "
              "own (CPU accounting; '-' where none can be made: not root), plus\n  "
              "postgres if the server ran before (as here: the bench holds it): the exact "
              "figure.\n  CPU s = "
              "the largest, per item and "
              f"against the CPU render floor ({cpu_floor:.3f} CPU s\n  per item). "
              "CPU seconds hold under load; wall seconds and speed-ups only on idle cores.")
        print(f"  {'run':<24} {'wall s':>7} " + " ".join(f"{c:>9}" for c in CLASSES)
              + f" {'sampled':>7} {'tree':>7} {'cgroup':>7} {'CPU s/item':>10} {'x floor':>7} "
              f"{'cores busy':>10} {'speed-up':>9} {'bound':>6}")

        def best(run: tuple[float, dict[str, float], float, float | None, str]) -> float:
            return run_cpu(run[1], run[2], run[3])

        for label, run in runs.items():
            wall, cpu, tree_cpu, group_cpu, _ = run
            grouped = "-" if group_cpu is None else f"{group_cpu:.1f}"
            code = label.split()[0]
            one_wall = runs[f"{code} --workers 1"][0]
            per = best(run) / max(n_items, 1)
            bound = one_wall * cores / max(best(run), 1e-9)
            print(f"  {label:<24} {wall:7.1f} " + " ".join(f"{cpu[c]:9.1f}" for c in CLASSES)
                  + f" {sum(cpu.values()):7.1f} {tree_cpu:7.1f} {grouped:>7} {per:10.3f} "
                  f"{per / cpu_floor if cpu_floor else float('nan'):6.2f}x "
                  f"{best(run) / wall:10.2f} {one_wall / wall:8.2f}x {bound:5.2f}x")
        print("  speed-up = wall(--workers 1 of the same code) / wall; bound = cores x "
              "wall(--workers 1) / CPU s\n  (what the CPU seconds allow on idle "
              "cores; meaningless under load, where the wall time stretches)")
        if alone:
            print("  the builder alone in its --workers 2 runs (summed over the cities): "
                  "before its worker started\n  (from the kernel's start times), after "
                  "its worker ended (at least), the CPU s meanwhile (at most);\n  wall >= "
                  "the time alone plus the other CPU seconds spread evenly over "
                  f"{cores} cores;\n  serial for {TARGET_SPEEDUP}x = how short the time "
                  "alone would have to be (saved in --workers 1 too)\n  for that wall to "
                  f"allow {TARGET_SPEEDUP}x ('none': not even with no time alone)")
            print(f"  {'run':<24} {'before s':>8} {'after s':>7} {'CPU s':>6} {'wall >= s':>9} "
                  f"{'speed-up <=':>11} {'serial for ' + str(TARGET_SPEEDUP) + 'x':>15}")
            for label, ph in alone.items():
                code = label.split()[0]
                one_wall = runs[f"{code} --workers 1"][0]
                cpu_s = best(runs[label])
                time_alone = ph["before"] + ph["after"]
                cpu_alone = ph["before_cpu"] + ph["after_cpu"]
                least = overlap_bound(cpu_s, time_alone, cpu_alone, cores)
                need = serial_for(TARGET_SPEEDUP, one_wall, cpu_s, time_alone, cpu_alone,
                                  cores)
                shown_need = f"{need:.1f} s" if need >= 0 else "none"
                print(f"  {label:<24} {ph['before']:8.1f} {ph['after']:7.1f} "
                      f"{cpu_alone:6.1f} {least:9.1f} {one_wall / least:10.2f}x "
                      f"{shown_need:>15}")
        for code, _ in codes:
            one = best(runs[f"{code} --workers 1"])
            two = best(runs[f"{code} --workers 2"])
            print(f"  {code}: CPU s per item --workers 1 {one / max(n_items, 1):.3f}, "
                  f"--workers 2 {two / max(n_items, 1):.3f} "
                  f"({(two - one) / max(n_items, 1):+.3f} for the second process)")
        folders = ["warm", *[folder for *_, folder in runs.values()]]
        same, images = _same_outputs(root, folders, seeds)
        print(f"items.jsonl identical across the warm-up and every run ({', '.join(runs)}): "
              f"{same}; images identical: {images}")
        print(_load())
    finally:
        cluster.stop()
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
