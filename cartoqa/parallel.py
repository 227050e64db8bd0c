"""Scenarios made in worker processes, committed in slot order (``cartoqa build --workers N``).

A scenario is a pure function of the extract, the seed, the task and its slot
(:func:`cartoqa.tasks.base.slot_rng`): that is what lets an interrupted build redo a
slot on its own. :class:`SlotPool` uses the same property to make scenarios ahead of
time in ``N`` spawned worker processes, each with its own
:class:`~cartoqa.tasks.base.BuildContext` (its own browser and Mapnik map; the tile
cache and the PostgreSQL cluster are shared and already safe for several processes).
The builder still walks the slots in order and applies the same stop rules as a
single-process build, taking each slot's result from the pool; results of slots it
never reaches are thrown away. Images and journal lines are written only by the
builder, in slot order, so the dataset (items, images, manifest) is byte-identical to
``--workers 1`` and the journal resumes a killed build exactly as before.

Workers die with the builder: each asks the kernel for ``SIGKILL`` when its parent
dies (``PR_SET_PDEATHSIG``; its browser, driven over a pipe, dies with it), and closes
its browser and tile pipeline on ``SIGTERM`` and at a normal exit.
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cartoqa.tasks.base import BuildContext, Scenario
from groundtruth.extracts import Extract

#: One slot's outcome: the scenario (None: no acceptable one) and the candidates
#: rejected while making it, by ``(task, reason)``.
SlotResult = tuple[Scenario | None, dict[tuple[str, str], int]]

_WORKER: dict[str, Any] = {}


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


def _on_sigterm(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def _init_worker(extract: Extract, seed: int, per_task: int, cache_dir: Path,
                 assets_dir: Path, options: dict[str, Any], images_dir: Path) -> None:
    """Worker start: its own build context, closed when the process ends."""
    from multiprocessing.util import Finalize

    _die_with_parent()
    signal.signal(signal.SIGTERM, _on_sigterm)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the builder handles Ctrl-C
    ctx = BuildContext(extract, seed=seed, per_task=per_task, cache_dir=cache_dir,
                       assets_dir=assets_dir)
    ctx.options = dict(options)
    ctx.image_exists = lambda name: (images_dir / name).is_file()
    _WORKER["ctx"] = ctx
    _WORKER["states"] = {}
    Finalize(ctx, ctx.close, exitpriority=10)


def _make_slot(task: str, slot: int) -> SlotResult:
    """Worker entry: make one scenario (preparing the task on first use)."""
    from cartoqa.tasks.registry import load_spec

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
    """

    def __init__(self, workers: int, ctx: BuildContext, images_dir: Path,
                 plans: Sequence[TaskPlan], done: Callable[[str, int], bool]) -> None:
        if workers < 2:
            raise ValueError("a SlotPool needs at least 2 workers")
        self.workers = workers
        self.window = 2 * workers
        self._plans = list(plans)
        self._done = done
        self._pending: dict[tuple[str, int], Future[SlotResult]] = {}
        self._finished: set[str] = set()
        context = multiprocessing.get_context("spawn")  # Mapnik and browsers don't fork
        self._pool = ProcessPoolExecutor(
            max_workers=workers, mp_context=context, initializer=_init_worker,
            initargs=(ctx.extract, ctx.seed, ctx.per_task, ctx.cache_dir, ctx.assets_dir,
                      dict(ctx.options), images_dir))

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
            Let them finish the scenario in hand (a normal end); False (an error or an
            interrupt) cancels what is queued and sends SIGTERM to every worker.
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
