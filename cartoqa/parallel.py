"""Scenarios made in worker processes, committed in slot order (``cartoqa build --workers N``).

A scenario is a pure function of the extract, the seed, the task and its slot
(:func:`cartoqa.tasks.common.base.slot_rng`): that is what lets an interrupted build redo a
slot on its own. :class:`SlotPool` uses the same property to make scenarios ahead of
time: ``N - 1`` worker processes and the builder itself, each with its own
:class:`~cartoqa.tasks.common.base.BuildContext` (its own browser and Mapnik maps; the
tile cache and the PostgreSQL cluster are shared and already safe for several
processes). The builder walks the slots in order and applies the same stop rules as a
single-process build, taking each slot's result from the pool; while the slot it needs
is in a worker's hands it makes the next slot no worker has started itself. Results of
slots it never reaches are thrown away. Images and journal lines are written only by
the builder, in slot order, so the dataset (items, images, manifest) is byte-identical
to ``--workers 1`` and the journal resumes a killed build exactly as before.

Start-up is paid once, since on a small build it costs more than the scenarios:

* the builder loads the road graphs and features and prepares every task once (it
  does so in every mode, for the manifest), imports the rendering stack (it renders
  too), and only then forks its workers (:func:`fork_is_safe`): a worker starts with
  the builder's imports, graphs and prepared task states in its memory, with nothing
  imported again and nothing pickled, and with the builder's Mapnik maps, loaded
  just before the fork (:func:`load_maps_ahead`); it starts its browser while the
  builder starts its own, on the other core;
* where forking is not safe (no ``fork`` on the platform; a thread, PyTorch or a
  Mapnik map already in the builder, e.g. an MFS build with CLIP) the workers come
  from a ``forkserver`` (or are spawned) and get the prepared state as one pickle
  (:func:`prepared_bundle`; a task state that does not pickle, or is too large, is
  prepared by each worker).

Workers die with the builder: each asks the kernel for ``SIGKILL`` when its parent
dies (``PR_SET_PDEATHSIG``; a forkserver's worker also watches the builder, see
:func:`_follow_the_builder`; its browser, driven over a pipe, dies with it), and
closes its browser and tile pipeline on ``SIGTERM`` and at a normal exit.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import shutil
import signal
import sys
import threading
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, overload

from cartoqa.declarations.registry import load_spec
from cartoqa.tasks.common.base import BuildContext, Scenario
from groundtruth.extracts import Extract
from renderers.scratch import private_tempdir

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


#: Modules whose presence in the builder rules out forking it (PyTorch's OpenMP and
#: CUDA threads do not survive a fork); checked by :func:`fork_is_safe`.
FORK_UNSAFE_MODULES = ("torch",)


def _start_method() -> str:
    """``forkserver`` where the platform has it, else ``spawn`` (the start method when
    the builder itself cannot be forked, see :func:`fork_is_safe`)."""
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() \
        else "spawn"


def fork_is_safe(ctx: BuildContext) -> bool:
    """Whether the builder may fork its workers from itself, now.

    True on Linux while the builder runs no other thread, has not imported PyTorch
    (:data:`FORK_UNSAFE_MODULES`) or Mapnik, and has started no renderer: a Mapnik map
    keeps pooled PostgreSQL connections and a browser its pipes, which a forked copy
    must not share. A ``--workers`` builder has done none of these when it asks (it
    then loads its Mapnik maps, which leaves no connection open, and forks before
    its first render or browser); an MFS build that embeds with CLIP or renders its
    catalogue has, and uses :func:`start_worker_server` instead.

    Parameters
    ----------
    ctx : BuildContext
        The builder's context after preparing its tasks.
    """
    return (sys.platform.startswith("linux")
            and "fork" in multiprocessing.get_all_start_methods()
            and threading.active_count() == 1
            and not any(name in sys.modules for name in (*FORK_UNSAFE_MODULES, "mapnik"))
            and ctx._renderer is None and ctx._tiles is None)


def import_worker_modules(task_modules: Sequence[str] = ()) -> None:
    """Import what a process that makes scenarios needs (:data:`WORKER_MODULES`, the
    task modules and Mapnik's module; no map is loaded), before forking workers that
    inherit it.

    Parameters
    ----------
    task_modules : sequence of str
        Modules of the tasks of the build.
    """
    import importlib

    for name in (*WORKER_MODULES, *task_modules, "mapnik"):
        importlib.import_module(name)


def load_maps_ahead(ctx: BuildContext, maps: Collection[str]) -> None:
    """Load the builder's Mapnik maps the tasks declare (``TaskSpec.mapnik_maps``:
    OSM-Carto and the road-name map) before its workers are forked, which then start
    with them and load none of their own; none when no task declares one.

    Loading a style costs Mapnik a connection per layer, each a new PostgreSQL server
    process, and closes each again so that a process may fork after loading; nothing is
    rendered here, so the workers share no open connection (each process opens its
    own at its first render). The builder needs both maps anyway; its browser is
    started later, after the fork. About 1.5 CPU s less per worker, server included.

    Parameters
    ----------
    ctx : BuildContext
        The builder's context (its extract and cache folder).
    maps : collection of str
        The maps the build's tasks render with
        (:data:`cartoqa.declarations.spec.MAPNIK_MAPS` names).
    """
    if "osm-carto" in maps:
        ctx.tiles().load_ahead(road_names="road-names" in maps)


def start_worker_server(task_modules: Sequence[str] = ()) -> bool:
    """Start the fork server of the workers now, importing what they need.

    Called by the builder before it prepares its tasks, so that the imports run in
    parallel with the preparation, and by ``build-many`` before it starts its Dask
    workers, which then come from the server (:func:`cartoqa.build_many.secure_local_cluster`).
    The server lives as long as the process that started it (it exits when that process
    does); a second build of the same process reuses it, with what it imported first.

    Parameters
    ----------
    task_modules : sequence of str
        Further modules to import: the tasks of the build
        (``cartoqa.tasks.cartomapqa.mml``, ...), Dask's for build-many.

    Returns
    -------
    bool
        Whether a fork server runs (False where the platform has none).
    """
    if _start_method() != "forkserver":
        return False
    from multiprocessing import forkserver

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([*WORKER_MODULES, *task_modules])
    forkserver.ensure_running()
    return True


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
                 bundle: bytes | dict[str, Any] | None = None,
                 env: dict[str, str] | None = None) -> None:
    """Worker start: its own build context, closed when the process ends.

    ``bundle`` is what the builder prepared (graphs, features and task states): the
    objects themselves in a worker forked from the builder, :func:`prepared_bundle`'s
    pickle in a worker of the fork server; ``env`` the builder's ``CARTOQA_*``
    variables (a worker of the fork server has the environment of the server, which
    may be older).
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
        prepared = pickle.loads(bundle) if isinstance(bundle, bytes) else bundle
        ctx._graph = prepared["graph"]
        ctx._naive_graph = prepared["naive_graph"]
        ctx._features = prepared["features"]
        states.update(prepared["states"])
    _WORKER["ctx"] = ctx
    _WORKER["states"] = states
    Finalize(ctx, ctx.close, exitpriority=10)


def _make_with(ctx: BuildContext, states: dict[str, Any], task: str, slot: int,
               accepted: Sequence[Mapping[str, Any]], planned: int) -> SlotResult:
    """Make one scenario with ``ctx`` (preparing the task on first use), skipping the
    candidates that repeat ``accepted`` (the first items accepted before the slot as far
    as this process knows; :meth:`~cartoqa.declarations.spec.TaskSpec.make_slot`);
    the candidates it rejected are returned, not counted in ``ctx.rejections`` (the
    builder counts them when, and only if, it commits the slot)."""
    spec = load_spec(task)
    if task not in states:
        states[task] = spec.prepare(ctx)
    counted = ctx.rejections
    ctx.rejections = Counter()
    try:
        scenario = spec.make_slot(ctx, states[task], slot, accepted, planned)
        rejected = ctx.rejections
    finally:
        ctx.rejections = counted
    return scenario, {k: n for k, n in rejected.items() if n}


def _make_slot(task: str, slot: int, planned: int, board: Path) -> SlotResult:
    """Worker entry: make one scenario (preparing the task on first use; see
    :func:`_make_with`), knowing the items the builder has posted on ``board``
    (:func:`post_accepted`) as they stand at each candidate."""
    return _make_with(_WORKER["ctx"], _WORKER["states"], task, slot,
                      PostedItems(board, task), planned)


class PostedItems(Sequence[Mapping[str, Any]]):
    """A task's accepted first items as the builder last posted them
    (:func:`post_accepted`), read again whenever the post changes, so that a worker
    checks each candidate against the latest ones.

    The items only grow (the builder accepts in slot order), so a candidate that
    repeats the items read at one check repeats those of any later check: whatever
    the timing, the slot gives the scenario it gives with all of them
    (:meth:`~cartoqa.declarations.spec.TaskSpec.make_slot`).
    """

    def __init__(self, board: Path, task: str) -> None:
        self._path = _posted_path(board, task)
        self._items: list[Mapping[str, Any]] = []
        self._seen: tuple[int, int, int] | None = None

    def _refresh(self) -> None:
        try:
            st = os.stat(self._path)
        except FileNotFoundError:
            return
        key = (st.st_ino, st.st_mtime_ns, st.st_size)
        if key != self._seen:
            self._seen = key
            items: list[Mapping[str, Any]] = pickle.loads(self._path.read_bytes())
            if len(items) > len(self._items):
                self._items = items

    def __len__(self) -> int:
        self._refresh()
        return len(self._items)

    def __iter__(self) -> Iterator[Mapping[str, Any]]:
        self._refresh()
        return iter(self._items)

    @overload
    def __getitem__(self, index: int) -> Mapping[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Mapping[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> Any:
        return self._items[index]


def _posted_path(board: Path, task: str) -> Path:
    """The file of ``board`` that holds a task's posted items (:func:`post_accepted`)."""
    return board / f"{task}.pickle"


def post_accepted(board: Path, task: str, accepted: Sequence[Mapping[str, Any]]) -> None:
    """Post the first items a task has accepted so far where the workers read them
    (:class:`PostedItems`): a file of ``board``, the builder's private folder
    (:func:`renderers.scratch.private_tempdir`), replaced whole."""
    path = _posted_path(board, task)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(pickle.dumps(list(accepted), protocol=pickle.HIGHEST_PROTOCOL))
    os.replace(tmp, path)


def _started() -> None:
    """Worker entry that does nothing: submitted to start the workers at once."""


@dataclass
class TaskPlan:
    """What the builder will ask of one task: the slots it still needs."""

    name: str
    n_slots: int
    max_slots: int


class SlotPool:
    """The builder and ``N - 1`` worker processes making scenarios, committed in slot order.

    Parameters
    ----------
    workers : int
        Processes that make scenarios, the builder included (at least 2; one build
        process makes its own scenarios without a pool).
    ctx : BuildContext
        The builder's context (extract, seed, size, cache and asset folders, options),
        after preparing its tasks; the builder makes its own share of the slots with
        it.
    images_dir : pathlib.Path
        The dataset's image folder (workers skip images already there, as the builder).
    plans : sequence of TaskPlan
        The tasks in build order.
    done : callable
        ``(task, slot) -> bool``: whether the journal already holds the slot.
    states : dict
        ``task -> state`` prepared by the builder.
    fork : bool, optional
        Fork the workers from the builder (default: where :func:`fork_is_safe`); else
        they come from the fork server (or are spawned) and get :func:`prepared_bundle`.
    """

    def __init__(self, workers: int, ctx: BuildContext, images_dir: Path,
                 plans: Sequence[TaskPlan], done: Callable[[str, int], bool], *,
                 states: dict[str, Any], fork: bool | None = None) -> None:
        if workers < 2:
            raise ValueError("a SlotPool needs at least 2 workers")
        self.workers = workers
        # Slots are consumed in order, so one slow scenario (an SRN slot that rejects
        # many routes) holds back the results behind it: a deep window keeps the other
        # processes busy meanwhile (Helsinki srn+mml, 2 workers: 8 per worker took 5 %
        # less wall time than 2 per worker; 16 per worker no less than 8).
        self.window = 8 * workers
        self._plans = list(plans)
        self._done = done
        self._ctx = ctx
        self._states = dict(states)
        self._pending: dict[tuple[str, int], Future[SlotResult]] = {}
        #: Slots the builder made ahead while the one it needed was in a worker's hands.
        self._own: dict[tuple[str, int], SlotResult] = {}
        self._finished: set[str] = set()
        #: The first items the builder has accepted per task, as of its latest ``get``
        #: (and posted on the board for the workers): slots are made skipping repeats.
        self._accepted: dict[str, list[Mapping[str, Any]]] = {}
        self._planned = {plan.name: plan.n_slots for plan in self._plans}
        #: Slots made by the builder and by the workers (for benchmarks and tests).
        self.made: Counter[str] = Counter()
        task_modules = [load_spec(plan.name).make_scenario.__module__ for plan in self._plans]
        self.forked = fork_is_safe(ctx) if fork is None else fork
        bundle: bytes | dict[str, Any]
        context: multiprocessing.context.BaseContext
        if self.forked:
            # The builder renders too: its imports are needed here anyway, and a
            # worker forked after them starts with them (and with the graphs and
            # states in its memory: nothing pickled, nothing imported again).
            import_worker_modules(task_modules)
            load_maps_ahead(ctx, {m for plan in self._plans
                                  for m in getattr(load_spec(plan.name), "mapnik_maps", ())})
            context = multiprocessing.get_context("fork")
            bundle = {"graph": ctx._graph, "naive_graph": ctx._naive_graph,
                      "features": ctx._features, "states": self._states}
        else:
            start_worker_server(task_modules)
            context = multiprocessing.get_context(_start_method())
            bundle = prepared_bundle(ctx, self._states)
        env = {k: v for k, v in os.environ.items() if k.startswith("CARTOQA_")}
        self._pool = ProcessPoolExecutor(
            max_workers=workers - 1, mp_context=context, initializer=_init_worker,
            initargs=(ctx.extract, ctx.seed, ctx.per_task, ctx.cache_dir, ctx.assets_dir,
                      dict(ctx.options), images_dir, bundle, env))
        #: Where the builder posts the accepted items as they grow, for a worker to read
        #: as it makes a slot (mode 0700; the folder of a builder killed
        #: outright is removed by the next one's, see renderers.scratch).
        self._board = private_tempdir("accepted")
        # Start the workers now, before the builder starts a browser or loads a map of
        # its own (a forked worker must not share them); they start theirs meanwhile.
        self._pool.submit(_started)

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
            if len(self._pending) + len(self._own) >= self.window:
                return
            if plan.name in self._finished:
                continue
            if i == 0:
                slots = self._wanted(plan, slot, max(plan.n_slots - ok_slots, 1))
            else:
                done_ok = sum(1 for s in range(plan.max_slots) if self._done(plan.name, s))
                slots = self._wanted(plan, 0, max(plan.n_slots - done_ok, 0))
            for s in slots:
                if len(self._pending) + len(self._own) >= self.window:
                    return
                key = (plan.name, s)
                if key not in self._pending and key not in self._own:
                    self._pending[key] = self._pool.submit(
                        _make_slot, plan.name, s, plan.n_slots, self._board)

    def get(self, name: str, slot: int, ok_slots: int,
            accepted: Sequence[Mapping[str, Any]] = ()) -> SlotResult:
        """The result of a slot, after queueing the slots after it.

        The builder makes the slot itself when no worker has started it; while a
        worker has it in hand, the builder makes the next queued slot no worker has
        started (kept for later) rather than wait. Every slot is made skipping the
        repeats of the items accepted as far as its maker knows
        (:meth:`~cartoqa.declarations.spec.TaskSpec.make_slot`); the builder checks
        the result against all of them, as it does any scenario.

        Parameters
        ----------
        name : str
            Task name.
        slot : int
            The slot the builder needs now.
        ok_slots : int
            Slots of this task accepted so far (how many more it may need).
        accepted : sequence of dict
            The first items of the task's scenarios accepted so far, in slot order.
        """
        key = (name, slot)
        if len(accepted) != len(self._accepted.get(name, [])):
            self._accepted[name] = list(accepted)
            post_accepted(self._board, name, accepted)
        while True:
            self._top_up(name, slot, ok_slots)
            if key in self._own:
                return self._own.pop(key)
            future = self._pending.get(key)
            if future is None or future.cancel():  # in no worker's hands: make it here
                self._pending.pop(key, None)
                return self._make_here(name, slot)
            if future.done() or not self._make_ahead():
                self._pending.pop(key)
                self.made["workers"] += 1
                return future.result()

    def _make_here(self, name: str, slot: int) -> SlotResult:
        self.made["builder"] += 1
        return _make_with(self._ctx, self._states, name, slot,
                          self._accepted.get(name, []), self._planned[name])

    def _make_ahead(self) -> bool:
        """Make the first queued slot no worker has started, here; False if none is left."""
        order = {plan.name: i for i, plan in enumerate(self._plans)}
        for key in sorted(self._pending, key=lambda k: (order[k[0]], k[1])):
            if self._pending[key].cancel():
                del self._pending[key]
                self._own[key] = self._make_here(*key)
                return True
        return False

    def finish_task(self, name: str) -> None:
        """The builder is done with a task: drop its slots still queued or made ahead."""
        self._finished.add(name)
        for key in [k for k in self._pending if k[0] == name]:
            self._pending.pop(key).cancel()
        for key in [k for k in self._own if k[0] == name]:
            del self._own[key]

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
        self._own.clear()
        if wait:
            self._pool.shutdown(wait=True, cancel_futures=True)
        else:
            processes = list(getattr(self._pool, "_processes", {}).values())
            self._pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                if process.is_alive():
                    process.terminate()
            for process in processes:
                process.join(timeout=30)
        shutil.rmtree(self._board, ignore_errors=True)
