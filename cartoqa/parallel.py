"""Scenarios made in worker processes, committed in slot order (``cartoqa build --workers N``).

A scenario is a pure function of the extract, the seed, the task and its slot
(:func:`cartoqa.tasks.common.base.slot_rng`): that is what lets an interrupted build redo a
slot on its own. :class:`SlotPool` uses the same property to make scenarios ahead of
time in ``N`` worker processes, each with its own
:class:`~cartoqa.tasks.common.base.BuildContext` (its own browser and Mapnik map; the tile
cache and the PostgreSQL cluster are shared and already safe for several processes).
The builder still walks the slots in order and applies the same stop rules as a
single-process build, taking each slot's result from the pool; results of slots it
never reaches are thrown away. Images and journal lines are written only by the
builder, in slot order, so the dataset (items, images, manifest) is byte-identical to
``--workers 1`` and the journal resumes a killed build exactly as before.

Start-up is kept cheap, since on a small build it costs more than the scenarios:

* the builder loads the road graphs and features and prepares every task once (it
  does so in every mode, for the manifest) and hands the workers that prepared state,
  pickled once (:func:`prepared_bundle`), instead of each worker doing it again; a
  task whose state does not pickle (or is too large) is prepared by each worker;
* on Linux the workers are forked from a ``forkserver`` started before the builder
  prepares (:func:`start_worker_server`), which imports the rendering stack and the
  task modules once, in parallel with the builder's preparation, instead of each
  spawned worker importing them again (about 3 CPU seconds each). The server is a
  fresh interpreter that has loaded modules only, never a Mapnik map or a browser.

Workers die with the builder: each asks the kernel for ``SIGKILL`` when its parent
(the fork server, which exits as soon as the builder is gone) dies
(``PR_SET_PDEATHSIG``; its browser, driven over a pipe, dies with it), and closes
its browser and tile pipeline on ``SIGTERM`` and at a normal exit.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cartoqa.declarations.registry import load_spec
from cartoqa.tasks.common.base import BuildContext, Scenario
from groundtruth.extracts import Extract

#: One slot's outcome: the scenario (None: no acceptable one) and the candidates
#: rejected while making it, by ``(task, reason)``.
SlotResult = tuple[Scenario | None, dict[tuple[str, str], int]]

_WORKER: dict[str, Any] = {}

#: A prepared task state larger than this (pickled) is prepared by each worker instead.
MAX_STATE_BYTES = 64 * 2**20
#: Modules every worker needs, imported once by the fork server. (``scipy.signal``,
#: about 0.6 s, is left to the workers of tasks that match icons: the server's imports
#: come before any worker starts, the workers' own run side by side.)
WORKER_MODULES = ("cartoqa.parallel", "cartoqa.tasks.common.drawing", "cartoqa.visibility",
                  "renderers.map_render", "renderers.tiles", "renderers.browser")


def _start_method() -> str:
    """``forkserver`` where the platform has it, else ``spawn`` (Mapnik and browsers
    must not be forked from a process that runs them)."""
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() \
        else "spawn"


def start_worker_server(task_modules: Sequence[str] = ()) -> None:
    """Start the fork server of the workers now, importing what they need.

    Called by the builder before it prepares its tasks, so that the imports run in
    parallel with the preparation. The server lives as long as the builder process
    (it exits when the builder does); a second build of the same process reuses it.

    Parameters
    ----------
    task_modules : sequence of str
        Modules of the tasks of the build (``cartoqa.tasks.cartomapqa.mml``, ...).
    """
    if _start_method() != "forkserver":
        return
    from multiprocessing import forkserver

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([*WORKER_MODULES, *task_modules])
    forkserver.ensure_running()


def prepared_bundle(ctx: BuildContext, states: dict[str, Any]) -> bytes:
    """The builder's prepared state, pickled once for every worker.

    Parameters
    ----------
    ctx : BuildContext
        The builder's context after preparing (its road graphs and features, where
        loaded, go along).
    states : dict
        ``task -> state`` returned by each task's ``prepare``; a state that does not
        pickle, or pickles to more than :data:`MAX_STATE_BYTES`, is left out (each
        worker prepares that task itself).

    Returns
    -------
    bytes
        One pickle, so objects the states share (the graph) are sent once.
    """
    kept: dict[str, Any] = {}
    for name, state in states.items():
        try:
            size = len(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
        except Exception:  # any object may refuse to pickle
            continue
        if size <= MAX_STATE_BYTES:
            kept[name] = state
    return pickle.dumps({"graph": ctx._graph, "naive_graph": ctx._naive_graph,
                         "features": ctx._features, "states": kept},
                        protocol=pickle.HIGHEST_PROTOCOL)


def _die_with_parent(sig: int = signal.SIGKILL) -> None:
    """Ask Linux to send this process ``sig`` when its parent exits (no-op elsewhere).

    SIGKILL by default: a worker blocked in Mapnik or on its browser would only see a
    SIGTERM when it next runs Python code; its browser dies with it (DevTools pipe).
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, int(sig), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _follow_the_builder() -> None:
    """Die (SIGKILL) as soon as the builder is gone, whoever this process's parent is.

    A worker forked by the fork server has the server as its parent, so
    ``PR_SET_PDEATHSIG`` alone would wait for the server, which CPython keeps alive as
    long as any of its children hold the server's "alive" pipe: the worker closes its
    copy, and a daemon thread waits on the builder's end of the worker's data pipe
    (``multiprocessing.parent_process().sentinel``), readable only once the builder has
    exited.
    """
    import threading
    from multiprocessing import connection, forkserver

    server = getattr(forkserver, "_forkserver", None)
    alive_fd = getattr(server, "_forkserver_alive_fd", None)
    if alive_fd is not None:  # inherited from the fork server: not ours to keep open
        with contextlib.suppress(OSError):
            os.close(alive_fd)
        server._forkserver_alive_fd = None  # type: ignore[union-attr]
    parent = multiprocessing.parent_process()
    sentinel = getattr(parent, "sentinel", None)
    if sentinel is None:
        return

    def watch() -> None:
        connection.wait([sentinel])
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, name="cartoqa-follow-builder", daemon=True).start()


def _on_sigterm(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def _init_worker(extract: Extract, seed: int, per_task: int, cache_dir: Path,
                 assets_dir: Path, options: dict[str, Any], images_dir: Path,
                 bundle: bytes | None = None, env: dict[str, str] | None = None) -> None:
    """Worker start: its own build context, closed when the process ends.

    ``bundle`` is :func:`prepared_bundle` (graphs, features and task states prepared by
    the builder); ``env`` the builder's ``CARTOQA_*`` variables (a forked worker has the
    environment of the fork server, which may be older).
    """
    from multiprocessing.util import Finalize

    _die_with_parent()
    _follow_the_builder()
    signal.signal(signal.SIGTERM, _on_sigterm)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the builder handles Ctrl-C
    if env is not None:
        for key in [k for k in os.environ if k.startswith("CARTOQA_") and k not in env]:
            del os.environ[key]
        os.environ.update(env)
    ctx = BuildContext(extract, seed=seed, per_task=per_task, cache_dir=cache_dir,
                       assets_dir=assets_dir)
    ctx.options = dict(options)
    ctx.image_exists = lambda name: (images_dir / name).is_file()
    states: dict[str, Any] = {}
    if bundle is not None:
        prepared = pickle.loads(bundle)
        ctx._graph = prepared["graph"]
        ctx._naive_graph = prepared["naive_graph"]
        ctx._features = prepared["features"]
        states.update(prepared["states"])
    _WORKER["ctx"] = ctx
    _WORKER["states"] = states
    Finalize(ctx, ctx.close, exitpriority=10)


def _make_slot(task: str, slot: int) -> SlotResult:
    """Worker entry: make one scenario (preparing the task on first use)."""
    ctx: BuildContext = _WORKER["ctx"]
    states: dict[str, Any] = _WORKER["states"]
    spec = load_spec(task)
    if task not in states:
        states[task] = spec.prepare(ctx)
    before = Counter(ctx.rejections)
    scenario = spec.make_scenario(ctx, states[task], slot)
    delta = Counter(ctx.rejections)
    delta.subtract(before)
    return scenario, {k: n for k, n in delta.items() if n}


@dataclass
class TaskPlan:
    """What the builder will ask of one task: the slots it still needs."""

    name: str
    n_slots: int
    max_slots: int


class SlotPool:
    """N worker processes making scenarios ahead of the builder, in slot order.

    Parameters
    ----------
    workers : int
        Worker processes (at least 2; one build process makes its own scenarios).
    ctx : BuildContext
        The builder's context (extract, seed, size, cache and asset folders, options).
    images_dir : pathlib.Path
        The dataset's image folder (workers skip images already there, as the builder).
    plans : sequence of TaskPlan
        The tasks in build order.
    done : callable
        ``(task, slot) -> bool``: whether the journal already holds the slot.
    bundle : bytes, optional
        :func:`prepared_bundle` of the builder; without it each worker loads the
        graphs and prepares its tasks itself.
    """

    def __init__(self, workers: int, ctx: BuildContext, images_dir: Path,
                 plans: Sequence[TaskPlan], done: Callable[[str, int], bool],
                 bundle: bytes | None = None) -> None:
        if workers < 2:
            raise ValueError("a SlotPool needs at least 2 workers")
        self.workers = workers
        # Slots are consumed in order, so one slow scenario (an SRN slot that rejects
        # many routes) holds back the results behind it: a deep window keeps the other
        # workers busy meanwhile (Helsinki srn+mml, 2 workers: 8 per worker took 5 %
        # less wall time than 2 per worker; 16 per worker no less than 8).
        self.window = 8 * workers
        self._plans = list(plans)
        self._done = done
        self._pending: dict[tuple[str, int], Future[SlotResult]] = {}
        self._finished: set[str] = set()
        context = multiprocessing.get_context(_start_method())
        env = {k: v for k, v in os.environ.items() if k.startswith("CARTOQA_")}
        self._pool = ProcessPoolExecutor(
            max_workers=workers, mp_context=context, initializer=_init_worker,
            initargs=(ctx.extract, ctx.seed, ctx.per_task, ctx.cache_dir, ctx.assets_dir,
                      dict(ctx.options), images_dir, bundle, env))

    def _wanted(self, plan: TaskPlan, start: int, needed: int) -> list[int]:
        """The next ``needed`` slots of a task from ``start`` not yet in the journal."""
        out: list[int] = []
        slot = start
        while len(out) < needed and slot < plan.max_slots:
            if not self._done(plan.name, slot):
                out.append(slot)
            slot += 1
        return out

    def _top_up(self, name: str, slot: int, ok_slots: int) -> None:
        """Keep up to ``window`` slots in flight: this task's next ones, then later tasks'."""
        order = [p.name for p in self._plans]
        index = order.index(name)
        for i, plan in enumerate(self._plans[index:]):
            if len(self._pending) >= self.window:
                return
            if plan.name in self._finished:
                continue
            if i == 0:
                slots = self._wanted(plan, slot, max(plan.n_slots - ok_slots, 1))
            else:
                done_ok = sum(1 for s in range(plan.max_slots) if self._done(plan.name, s))
                slots = self._wanted(plan, 0, max(plan.n_slots - done_ok, 0))
            for s in slots:
                if len(self._pending) >= self.window:
                    return
                if (plan.name, s) not in self._pending:
                    self._pending[(plan.name, s)] = self._pool.submit(_make_slot, plan.name, s)

    def get(self, name: str, slot: int, ok_slots: int) -> SlotResult:
        """The result of a slot (waiting for it), after queueing the slots after it.

        Parameters
        ----------
        name : str
            Task name.
        slot : int
            The slot the builder needs now.
        ok_slots : int
            Slots of this task accepted so far (how many more it may need).
        """
        self._top_up(name, slot, ok_slots)
        future = self._pending.pop((name, slot), None)
        if future is None:
            future = self._pool.submit(_make_slot, name, slot)
        return future.result()

    def finish_task(self, name: str) -> None:
        """The builder is done with a task: drop its slots still queued."""
        self._finished.add(name)
        for key in [k for k in self._pending if k[0] == name]:
            self._pending.pop(key).cancel()

    def close(self, *, wait: bool = True) -> None:
        """Stop the workers (each closes its browser and tile pipeline).

        Parameters
        ----------
        wait : bool, optional
            Let them finish the scenario in hand; False (what a build does at its end,
            on an error or on an interrupt) cancels what is queued and sends SIGTERM to
            every worker, which closes its browser and tile pipeline as it exits.
        """
        for future in self._pending.values():
            future.cancel()
        self._pending.clear()
        if wait:
            self._pool.shutdown(wait=True, cancel_futures=True)
            return
        processes = list(getattr(self._pool, "_processes", {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=30)
