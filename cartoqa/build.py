"""``cartoqa build``: turn an extract into a dataset folder, resumably.

The build loads the extract, asks each task (its declaration ``SPEC``, see
:mod:`cartoqa.tasks` and :mod:`cartoqa.declarations.spec`) for its scenarios slot by slot,
writes each finished slot's images and items through the
:class:`~cartoqa.dataset.writer.DatasetWriter`, and finalises the folder at the end.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from cartoqa import __version__
from cartoqa.dataset.card import render_card
from cartoqa.dataset.manifest import FORMAT_VERSION, build_manifest
from cartoqa.dataset.versions import software_versions
from cartoqa.dataset.writer import ITEMS_FILE, DatasetWriter
from cartoqa.declarations.registry import load_spec
from cartoqa.declarations.spec import TaskSpec
from cartoqa.declarations.suites import DEFAULT_TASKS
from cartoqa.errors import CartoqaError
from cartoqa.parallel import SlotPool, TaskPlan
from cartoqa.settings import VIEW_HEIGHT, VIEW_WIDTH, cache_root, web_assets_dir
from cartoqa.stop_signals import raise_pending_stop
from cartoqa.tasks.common.base import BuildContext, slot_stride
from groundtruth.extracts import Extract, resolve_extract

#: Items per task when ``--per-task`` is not given.
DEFAULT_PER_TASK = 40
#: Seed when ``--seed`` is not given.
DEFAULT_SEED = 0
#: A task that has made no item yet stops after this many slots found no acceptable
#: scenario: the extract does not seem to support it (another ``--seed`` samples others).
MAX_FAILED_SLOTS_BEFORE_FIRST_ITEM = 6


@dataclass
class BuildReport:
    """The outcome of :func:`build_dataset`.

    Attributes
    ----------
    out : pathlib.Path
        The dataset folder.
    by_task : dict
        Items written per task.
    shortfalls : dict
        ``task -> {"requested", "written", "scenarios_requested", "scenarios_written",
        "reason"}`` for tasks that accepted fewer scenarios than planned (items
        requested and written; scenarios planned and accepted).
    already_complete : bool
        The folder already held this exact dataset; nothing was done.
    resumed_slots : int
        Slots taken over from an interrupted earlier run.
    rejections : dict
        Candidate scenarios rejected in this run, by ``(task, reason)``.
    """

    out: Path
    by_task: dict[str, int] = field(default_factory=dict)
    shortfalls: dict[str, dict[str, Any]] = field(default_factory=dict)
    already_complete: bool = False
    resumed_slots: int = 0
    rejections: dict[tuple[str, str], int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        """Items in the dataset."""
        return sum(self.by_task.values())


def build_key(extract: Extract, *, tasks: Sequence[str], per_task: int,
              seed: int, task_options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The options that determine a dataset; a resumed build must match them."""
    key: dict[str, Any] = {
        "cartoqa": __version__,
        "format_version": FORMAT_VERSION,
        "extract": extract.name,
        "extract_sha256": extract.sha256,
        "tasks": list(tasks),
        "per_task": per_task,
        "seed": seed,
    }
    if task_options:
        key["task_options"] = dict(task_options)
    return key


def dataset_is_finished(extract: str | Path | Extract, out: Path, *, tasks: Sequence[str],
                        per_task: int, seed: int,
                        task_options: dict[str, Any] | None = None) -> bool:
    """Whether ``out`` holds the finished dataset of these options already, so that
    :func:`build_dataset` would return at once (with ``already_complete``).

    Cheap where nothing is finished: the extract is not read unless ``out`` holds an
    ``items.jsonl``.

    Raises
    ------
    CartoqaError
        As :func:`build_dataset`: ``out`` holds a finished dataset of other options, or
        another build holds the folder.
    """
    if not (Path(out) / ITEMS_FILE).exists():
        return False
    ext = resolve_extract(extract) if not isinstance(extract, Extract) else extract
    writer = DatasetWriter(out, build_key=build_key(ext, tasks=tasks, per_task=per_task,
                                                    seed=seed, task_options=task_options))
    writer.lock()
    try:
        return writer.is_complete()
    finally:
        writer.unlock()


def _check_roads(ctx: BuildContext, say: Callable[[str], None]) -> None:
    graph = ctx.graph()
    if graph.number_of_edges() == 0:
        raise CartoqaError(
            f"extract {ctx.extract.name} has no drivable roads",
            fix="use an extract that contains streets, or build only --tasks stmf,mtmf",
        )
    dropped = graph.graph.get("restrictions_dropped", 0)
    if dropped:
        reasons = ", ".join(f"{n} {why}" for why, n in
                            graph.graph.get("restrictions_dropped_by_reason", {}).items())
        say(f"extract {ctx.extract.name}: {dropped} turn restriction(s) dropped ({reasons}); "
            f"{len(graph.graph.get('restrictions', []))} applied")


def rejection_lines(rejections: Mapping[tuple[str, str], int]) -> list[str]:
    """One log line per task: its rejected candidates by reason, most frequent first.

    Examples
    --------
    >>> for line in rejection_lines({("srn", "short leg"): 3, ("srn", "marker on a step"): 5,
    ...                              ("rle", "doubles back"): 1}):
    ...     print(line)
    rle: rejected 1 candidate(s): 1 doubles back
    srn: rejected 8 candidate(s): 5 marker on a step, 3 short leg
    """
    by_task: dict[str, list[tuple[int, str]]] = {}
    for (task, reason), n in rejections.items():
        by_task.setdefault(task, []).append((n, reason))
    lines = []
    for task in sorted(by_task):
        counts = sorted(by_task[task], key=lambda c: (-c[0], c[1]))
        lines.append(f"{task}: rejected {sum(n for n, _ in counts)} candidate(s): "
                     + ", ".join(f"{n} {reason}" for n, reason in counts))
    return lines


def build_dataset(
    *,
    extract: str | Path,
    out: Path,
    tasks: Sequence[str] = DEFAULT_TASKS,
    per_task: int = DEFAULT_PER_TASK,
    seed: int = DEFAULT_SEED,
    progress: bool = True,
    log: Callable[[str], None] | None = None,
    cache_dir: Path | None = None,
    assets_dir: Path | None = None,
    task_options: dict[str, Any] | None = None,
    workers: int = 1,
    extract_source: dict[str, Any] | None = None,
) -> BuildReport:
    """Build (or resume, or confirm) a dataset folder.

    Parameters
    ----------
    extract : str or pathlib.Path
        A bundled extract name (``"helsinki"``) or an extract file.
    out : pathlib.Path
        The dataset folder to write.
    tasks : sequence of str
        Task names (already checked, see :func:`cartoqa.declarations.suites.parse_tasks`).
    per_task : int
        Items wanted per task (rounded up to whole scenarios).
    seed : int
        Seed of every random choice.
    progress : bool
        Show a progress bar per task on stderr.
    log : callable, optional
        Receives one-line notices (shortfalls, resumption); default prints to stderr.
    cache_dir, assets_dir : pathlib.Path, optional
        Cache root and Leaflet folder; default :func:`cartoqa.settings.cache_root` and
        :func:`cartoqa.settings.web_assets_dir`.
    task_options : dict, optional
        Options some tasks read from ``ctx.options`` (MFS: ``embedding``,
        ``clip_model``, ``clip_pretrained``); part of the build key and the manifest.
    workers : int, optional
        Processes that make scenarios, this one included (see :mod:`cartoqa.parallel`);
        the dataset is byte-identical whatever the number.
    extract_source : dict, optional
        Where a downloaded or clipped extract came from (URL, checksum, box: see
        :func:`cartoqa.download.obtain_extract`); recorded as the manifest's
        ``extract.source``.

    Returns
    -------
    BuildReport
        What was written.

    Raises
    ------
    CartoqaError
        Unknown task, ``per_task < 1``, unwritable or foreign output folder, an extract
        without drivable roads, or no item at all could be made. Nothing half-written
        is left behind: an interrupted build leaves no ``items.jsonl``.
    """
    say = log or (lambda msg: print(msg, file=sys.stderr))
    if per_task < 1:
        raise CartoqaError(f"--per-task must be at least 1, not {per_task}")
    if workers < 1:
        raise CartoqaError(f"--workers must be at least 1, not {workers}")
    specs = [load_spec(t) for t in tasks]
    ext = resolve_extract(extract) if not isinstance(extract, Extract) else extract
    writer = DatasetWriter(out, build_key=build_key(ext, tasks=tasks, per_task=per_task,
                                                    seed=seed, task_options=task_options))
    writer.lock()
    try:
        return _build_locked(writer, ext, specs, out=out, tasks=tasks, per_task=per_task,
                             seed=seed, progress=progress, say=say, cache_dir=cache_dir,
                             assets_dir=assets_dir, task_options=task_options,
                             workers=workers, extract_source=extract_source)
    finally:
        writer.unlock()


def _build_locked(writer: DatasetWriter, ext: Extract, specs: list[TaskSpec], *, out: Path,
                  tasks: Sequence[str], per_task: int, seed: int, progress: bool,
                  say: Callable[[str], None], cache_dir: Path | None,
                  assets_dir: Path | None, task_options: dict[str, Any] | None,
                  workers: int = 1, extract_source: dict[str, Any] | None = None
                  ) -> BuildReport:
    """The body of :func:`build_dataset`, run while the output folder is locked."""
    report = BuildReport(out=out)
    if writer.is_complete():
        report.already_complete = True
        return report
    previous = writer.open()
    report.resumed_slots = sum(1 for r in previous)
    if previous:
        say(f"resuming the build in {out}: {len(previous)} scenario(s) already done")
    ctx = BuildContext(ext, seed=seed, per_task=per_task,
                       cache_dir=cache_dir or cache_root(),
                       assets_dir=assets_dir or web_assets_dir())
    ctx.image_exists = writer.has_image
    ctx.options = dict(task_options or {})
    pool: Any = None
    try:
        if any(s.needs_roads for s in specs):
            _check_roads(ctx, say)
        # Prepared here in both modes: preparing records what the extract cannot give
        # (e.g. zooms it cannot fill), which the manifest reports whatever the workers.
        states = [s.prepare(ctx) for s in specs]
        for task, zooms in sorted(ctx.unfilled_zooms.items()):
            for zoom, why in sorted(zooms.items()):
                say(f"{task}: no view at zoom {zoom} ({why}); its slots go to the other zooms")
        if workers > 1:
            pool = _slot_pool(workers, specs, ctx, writer, per_task=per_task,
                              states=dict(zip([s.name for s in specs], states, strict=True)))
            for spec, state in zip(specs, states, strict=True):
                _run_task(spec, state, ctx, writer, per_task=per_task, progress=progress,
                          report=report, pool=pool)
                pool.finish_task(spec.name)
            # The slots still in the workers' hands are past what the build needs:
            # stop them now rather than wait (writes to shared caches are atomic).
            pool.close(wait=False)
        else:
            for spec, state in zip(specs, states, strict=True):
                _run_task(spec, state, ctx, writer, per_task=per_task, progress=progress,
                          report=report)
    except BaseException:
        # A build that fails before its first scenario leaves nothing behind; one that
        # fails later keeps its journal, so that running it again resumes.
        if pool is not None:
            pool.close(wait=False)
        writer.abandon()
        raise
    finally:
        ctx.close()
    report.rejections = dict(ctx.rejections)
    for line in rejection_lines(ctx.rejections):
        say(line)
    items = writer.items()
    if not items:
        writer.abandon_all()
        raise CartoqaError(f"extract {ext.name} gave no acceptable scenario for "
                           f"{', '.join(tasks)}", fix="use a larger extract")
    image_sizes = {s.name: (int(s.image_size[0]), int(s.image_size[1])) for s in specs}

    def manifest_for(its: list[dict[str, Any]]) -> dict[str, Any]:
        return build_manifest(
            its,
            extract={"name": ext.name, "sha256": ext.sha256, "bounds": ext.bounds,
                     **({"source": dict(extract_source)} if extract_source else {})},
            versions=software_versions(),
            image_sizes=image_sizes,
            shortfalls=report.shortfalls,
            unfilled_zooms=ctx.unfilled_zooms,
            rendering={"viewport": [VIEW_WIDTH, VIEW_HEIGHT], "tiles": "OSM-Carto via Mapnik",
                       "browser": "headless Chromium, Leaflet"},
        )

    written = writer.finalise(manifest_for=manifest_for, card_for=render_card)
    for item in written:
        report.by_task[item["task"]] = report.by_task.get(item["task"], 0) + 1
    for task, info in report.shortfalls.items():
        say(f"{task}: wrote {info['written']} of {info['requested']} items "
            f"({info['scenarios_written']} of {info['scenarios_requested']} scenarios): "
            f"{info['reason']}")
    return report


def _slot_pool(workers: int, specs: Sequence[TaskSpec], ctx: BuildContext,
               writer: DatasetWriter, *, per_task: int, states: dict[str, Any]) -> Any:
    """Start the ``N - 1`` worker processes of a ``--workers N`` build
    (:mod:`cartoqa.parallel`; this process makes scenarios too), handing them the
    graphs and task states prepared here."""
    plans = []
    for spec in specs:
        per = spec.items_per_scenario
        plans.append(TaskPlan(spec.name, math.ceil(per_task / per), slot_stride(per_task, per)))
    return SlotPool(workers, ctx, writer.images, plans,
                    lambda task, slot: writer.done(task, slot) is not None, states=states)


def _run_task(spec: TaskSpec, state: Any, ctx: BuildContext, writer: DatasetWriter, *,
              per_task: int, progress: bool, report: BuildReport, pool: Any = None) -> None:
    """Fill a task's slots in order, replacing failed slots by further ones.

    A task may try :func:`~cartoqa.tasks.common.base.slot_stride` slots (twice the scenarios it
    needs). It stops when it has its scenarios, when the slots left could no longer
    fill the plan even if every one succeeded (:func:`slots_exhausted`: the failed-slot
    budget is spent), or when its first :data:`MAX_FAILED_SLOTS_BEFORE_FIRST_ITEM`
    slots all failed. A scenario that is a near-duplicate of one already accepted
    (``spec.near_duplicate``) or reuses a place too often (``spec.overused``) is
    counted and replaced by the slot's next candidate that repeats nothing
    (``spec.remake_avoiding``, where the task has it) or else turned into a failed
    slot, here, in slot order.
    """
    name = spec.name
    n_slots = math.ceil(per_task / spec.items_per_scenario)
    done = sum(1 for r in writer.records() if r.task == name and r.status == "ok")
    written = 0
    ok_slots = 0
    failed = 0
    accepted: list[dict[str, Any]] = []   # first item of each accepted scenario, in order
    bar = tqdm(total=n_slots, initial=min(done, n_slots), desc=f"{name:>4}", unit="scenario",
               disable=not progress, file=sys.stderr, leave=True)
    max_slots = slot_stride(per_task, spec.items_per_scenario)
    slot = 0
    try:
        while (ok_slots < n_slots
               and not slots_exhausted(ok_slots=ok_slots, tried=slot, n_slots=n_slots,
                                       max_slots=max_slots)
               and not (ok_slots == 0 and failed >= MAX_FAILED_SLOTS_BEFORE_FIRST_ITEM)):
            raise_pending_stop()  # a SIGTERM whose exception Python dropped
            record = writer.done(name, slot)
            if record is None:
                if pool is None:  # repeats of the accepted items are not even drawn
                    scenario = spec.make_slot(ctx, state, slot, accepted, n_slots)
                else:  # made ahead of time by a worker process; committed here in order
                    scenario, rejected = pool.get(name, slot, ok_slots, accepted)
                    ctx.rejections.update(rejected)
                # a repeat costs the slot's next candidate that repeats nothing, or
                # the slot where the task cannot remake it
                scenario = spec.without_repeats(ctx, state, slot, scenario, accepted,
                                                n_slots)
                if scenario is None:
                    writer.record(name, slot, [], status="failed")
                else:
                    for image_name, png in sorted(scenario.images.items()):
                        if pool is None or not writer.has_image(image_name):
                            writer.write_image(image_name, png)
                    writer.record(name, slot, scenario.items)
                record = writer.done(name, slot)
                assert record is not None
                if record.status == "ok":
                    bar.update(1)
            if record.status == "ok":
                ok_slots += 1
                written += len(record.items)
                if record.items:
                    accepted.append(record.items[0])
            else:
                failed += 1
            slot += 1
    finally:
        bar.close()
    # short by scenarios, not items: a scenario may give more items than it was planned
    # for (FRIEDA's two settings), which must not hide a task that found too few
    if ok_slots < n_slots:
        report.shortfalls[name] = {
            "requested": per_task, "written": written,
            "scenarios_requested": n_slots, "scenarios_written": ok_slots,
            "reason": shortfall_reason(tried=slot, failed=failed, n_slots=n_slots,
                                       max_slots=max_slots),
        }


def slots_exhausted(*, ok_slots: int, tried: int, n_slots: int, max_slots: int) -> bool:
    """Whether the slots left can no longer fill the plan, even if all succeed.

    Examples
    --------
    >>> slots_exhausted(ok_slots=30, tried=60, n_slots=40, max_slots=80)
    False
    >>> slots_exhausted(ok_slots=30, tried=71, n_slots=40, max_slots=80)
    True
    """
    return ok_slots + (max_slots - tried) < n_slots


def shortfall_reason(*, tried: int, failed: int, n_slots: int, max_slots: int) -> str:
    """Say why a task stopped short, without claiming more than was tried.

    Parameters
    ----------
    tried : int
        Scenario slots tried.
    failed : int
        Of those, slots that found no acceptable scenario.
    n_slots : int
        Scenarios the task needed.
    max_slots : int
        The most slots a task may try (its seed stride).

    Returns
    -------
    str
        One clause for the build's notice and the manifest.

    Examples
    --------
    >>> shortfall_reason(tried=6, failed=6, n_slots=40, max_slots=80)[:62]
    'stopped after its first 6 scenario slots found no acceptable s'
    >>> shortfall_reason(tried=71, failed=41, n_slots=40, max_slots=80)[:70]
    'stopped after 41 of 71 scenario slots found no acceptable scenario: th'
    >>> shortfall_reason(tried=12, failed=1, n_slots=6, max_slots=12)
    'all 12 scenario slots were tried (1 found no acceptable scenario)'
    """
    if tried >= max_slots:
        return f"all {max_slots} scenario slots were tried ({failed} found no acceptable scenario)"
    if failed == tried:
        return (f"stopped after its first {failed} scenario slots found no acceptable "
                "scenario; the extract may not support this task, or a new --seed "
                "samples other ones")
    return (f"stopped after {failed} of {tried} scenario slots found no acceptable scenario: "
            f"the {max_slots - tried} slots left (of {max_slots}) could no longer fill the "
            f"{n_slots} needed; the extract may hold more: a new --seed samples other ones")
