"""The suite table: every task, by suite, found through :data:`TASK_MODULES`.

The task interface
------------------
A task module (e.g. :mod:`cartoqa.tasks.cartomapqa.mml`) declares its task once, as
``SPEC = TaskSpec(...)`` (:class:`cartoqa.declarations.spec.TaskSpec`): its name, card blurb,
image size, items per scenario, whether it needs roads, its strata and options, the
build functions below, and per request (:class:`~cartoqa.declarations.spec.RequestSpec`) the
answer's JSON schema, the parser, the reference answer text and the scoring section
(measure, aggregation, metrics from :data:`cartoqa.metrics.METRICS`).

``prepare(ctx: BuildContext) -> object``
    Precompute candidates once per build (junctions, centres ...). May raise
    :class:`~cartoqa.errors.CartoqaError` when the extract cannot support the task.
``make_scenario(ctx: BuildContext, state: object, slot: int) -> Scenario | None``
    Make scenario number ``slot``: its items (ids from :func:`~cartoqa.tasks.common.base.item_id`)
    and the PNG bytes of its new images. It must depend only on ``ctx.seed``, the
    extract, ``slot`` and ``state`` (use :func:`~cartoqa.tasks.common.base.slot_rng`), never on
    earlier slots, so that an interrupted build resumes to the same result. Return
    ``None`` when no acceptable scenario was found for this slot.

Everything else is derived from the declarations (:mod:`cartoqa.declarations.registry`): the
item schema, the parsers, the scoring sections, the dataset card, ``cartoqa validate``
and the exports. ``docs/build.md`` ("Adding a task") has the checklist and an example.

The MFS task (:mod:`cartoqa.tasks.cartomapqa.mfs`) plugs in through the same interface; it is
listed in :data:`TASK_MODULES` but not in :data:`DEFAULT_TASKS`.

Suites
------
Tasks are registered per suite in :data:`SUITES`. The CartoMapQA tasks are built from an
OSM extract, scenario by scenario, through ``prepare``/``make_scenario``; the tasks of
another suite (MapIQ, :mod:`cartoqa.tasks.mapiq`; MapWise, :mod:`cartoqa.tasks.mapwise`)
are built by that suite's own builder
and declare ``prepare=None, make_scenario=None``, but their ``SPEC`` is a
:class:`~cartoqa.declarations.spec.TaskSpec` like any other, so the derived registries cover
them with no suite-specific code.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from cartoqa.errors import CartoqaError

#: Suite -> (task name -> module declaring it, ``SPEC``), in dataset order. A task's
#: ``SPEC.suite`` must be the suite it is registered under (the registry checks).
SUITES: dict[str, dict[str, str]] = {
    "cartomapqa": {
        "mfs": "cartoqa.tasks.cartomapqa.mfs",
        "stmf": "cartoqa.tasks.cartomapqa.stmf",
        "mtmf": "cartoqa.tasks.cartomapqa.mtmf",
        "rle": "cartoqa.tasks.cartomapqa.rle",
        "mml": "cartoqa.tasks.cartomapqa.mml",
        "srn": "cartoqa.tasks.cartomapqa.srn",
    },
    "mapiq": {
        "mapiq_rv": "cartoqa.tasks.mapiq.retrieve_value",
        "mapiq_ppc": "cartoqa.tasks.mapiq.pairwise_comparison",
        "mapiq_se": "cartoqa.tasks.mapiq.spatial_extremes",
        "mapiq_sc": "cartoqa.tasks.mapiq.spatial_clusters",
        "mapiq_dr": "cartoqa.tasks.mapiq.determine_range",
        "mapiq_rc": "cartoqa.tasks.mapiq.regional_comparison",
    },
    "mapwise": {
        "mapwise_binary": "cartoqa.tasks.mapwise.binary",
        "mapwise_single": "cartoqa.tasks.mapwise.single",
        "mapwise_count": "cartoqa.tasks.mapwise.count",
        "mapwise_list": "cartoqa.tasks.mapwise.lists",
        "mapwise_range": "cartoqa.tasks.mapwise.ranges",
        "mapwise_rank": "cartoqa.tasks.mapwise.rank",
    },
    "frieda": {
        "frieda_border": "cartoqa.tasks.frieda.border",
        "frieda_equal": "cartoqa.tasks.frieda.equal",
        "frieda_intersect": "cartoqa.tasks.frieda.intersect",
        "frieda_within": "cartoqa.tasks.frieda.within",
        "frieda_distance": "cartoqa.tasks.frieda.distance",
        "frieda_orientation": "cartoqa.tasks.frieda.orientation",
    },
}

#: Task name -> module declaring it (``SPEC``), every suite in dataset order: the one list
#: of tasks the registry (:mod:`cartoqa.declarations.registry`) derives everything from.
TASK_MODULES: dict[str, str] = {
    name: module for suite in SUITES.values() for name, module in suite.items()
}

def suite_of(name: str) -> str | None:
    """Return the suite a task is registered under in :data:`SUITES` (``None`` if none).

    Examples
    --------
    >>> suite_of("mml"), suite_of("mapiq_rv"), suite_of("mapwise_rank"), suite_of("maze")
    ('cartomapqa', 'mapiq', 'mapwise', None)
    """
    for suite, modules in SUITES.items():
        if name in modules:
            return suite
    return None


def extract_tasks() -> list[str]:
    """Return the tasks ``cartoqa build --tasks`` makes from an OSM extract, in order.

    Those of the CartoMapQA suite (and any task registered in :data:`TASK_MODULES` under
    no suite); the other suites are chosen with ``cartoqa build --suite``: MapIQ and
    MapWise have their own builders, FRIEDA's tasks (:func:`suite_tasks`) go through the
    same extract builder as these.

    Examples
    --------
    >>> tasks = extract_tasks()
    >>> set(DEFAULT_TASKS) <= set(tasks) and "mapiq_rv" not in tasks
    True
    """
    return [t for t in TASK_MODULES if suite_of(t) in (None, "cartomapqa")]


#: Tasks ``cartoqa build`` makes when ``--tasks`` is not given: the five map tasks.
DEFAULT_TASKS: tuple[str, ...] = ("stmf", "mtmf", "rle", "mml", "srn")


def suite_tasks(suite: str) -> list[str]:
    """Return the tasks of a suite, in dataset order.

    Examples
    --------
    >>> suite_tasks("frieda")[:2]
    ['frieda_border', 'frieda_equal']
    """
    if suite == "cartomapqa":
        return extract_tasks()
    return list(SUITES.get(suite, {}))


def parse_tasks(text: str, suite: str = "cartomapqa") -> list[str]:
    """Parse a comma-separated task list into known task names, in dataset order.

    Parameters
    ----------
    text : str
        For example ``"mml,srn"``; ``"all"`` means every task in :func:`extract_tasks`
        (or in the suite).
    suite : str, optional
        The suite whose tasks are known (default: the CartoMapQA tasks); a FRIEDA task
        may be named by its relation (``border`` for ``frieda_border``).

    Returns
    -------
    list of str
        Distinct names ordered as in :func:`extract_tasks`.

    Raises
    ------
    CartoqaError
        For an unknown or empty task name.

    Examples
    --------
    >>> parse_tasks("srn, mml,srn")
    ['mml', 'srn']
    >>> parse_tasks("distance,frieda_border", suite="frieda")
    ['frieda_border', 'frieda_distance']
    """
    known = suite_tasks(suite)
    names = [t.strip().lower() for t in text.split(",")]
    if suite == "frieda":
        names = [n if n in known or n == "all" else f"frieda_{n}" for n in names]
    if names == ["all"]:
        return list(known)
    unknown = [t for t in names if t not in known]
    if unknown or not names:
        raise CartoqaError(f"unknown task {', '.join(repr(u) for u in unknown) or repr(text)}",
                           fix="choose from " + ",".join(known))
    return [t for t in known if t in names]


class TaskNotInstalledError(CartoqaError):
    """A registered task whose package is not installed here (not a typo in its path)."""


def load_task(name: str) -> ModuleType:
    """Import the module of a task.

    Parameters
    ----------
    name : str
        A task name registered in :data:`TASK_MODULES`.

    Returns
    -------
    module
        The module that declares the task's ``SPEC``.

    Raises
    ------
    CartoqaError
        If the task is unknown, its module path names no module (a typo in
        :data:`SUITES`), or its module is not installed.
    """
    if name not in TASK_MODULES:
        raise CartoqaError(f"unknown task {name!r}", fix="choose from " + ",".join(TASK_MODULES))
    return import_task_module(name, TASK_MODULES[name])


def import_task_module(name: str, module_path: str) -> ModuleType:
    """Import the module registered for a task, naming a mistyped module path as such.

    Parameters
    ----------
    name : str
        The task name.
    module_path : str
        Its module, as registered in :data:`SUITES` (or :data:`TASK_MODULES`).

    Returns
    -------
    module
        The imported module.

    Raises
    ------
    CartoqaError
        When ``module_path`` names no module: a package on its path exists in this
        installation but the module does not (a typo), or its top package is missing
        (the task is not available in this installation).

    Examples
    --------
    >>> try:
    ...     import_task_module("mml", "cartoqa.tasks.cartomapqa.mmll")
    ... except CartoqaError as exc:
    ...     print(exc.message.split(", but ")[1])
    no module 'cartoqa.tasks.cartomapqa.mmll' exists
    """
    try:
        return importlib.import_module(module_path)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if not module_path.startswith(missing):
            raise  # the module exists, but something it imports is missing
        top = module_path.split(".")[0]
        if missing != top and importlib.util.find_spec(top) is not None:
            raise CartoqaError(
                f"task {name!r} is registered with module path {module_path!r}, "
                f"but no module {missing!r} exists",
                fix="correct the module path in cartoqa.declarations.suites.SUITES") from None
        raise TaskNotInstalledError(f"task {name!r} is not available in this installation",
                           fix="choose from " + ",".join(DEFAULT_TASKS)) from None
