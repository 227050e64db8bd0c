"""Per-task scoring: per-item measures and the metrics of a group of answers.

A *section* is one ``(task, request)`` pair (STMF has three), derived from the task's
declaration (:class:`cartoqa.declarations.spec.RequestSpec` names its measure, aggregation and
metrics; the measures and aggregations live here). Every metric is reported in two
variants: ``all`` counts an invalid answer as wrong (accuracy, F1, exact route
and connectivity 0; for error metrics an invalid answer counts as a prediction of 0)
and ``valid_only`` uses the parsed answers only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from cartoqa.declarations.records import ConnectivityChecker, Record
from cartoqa.declarations.registry import task_specs
from cartoqa.metrics import (
    METRICS,
    accuracy,
    connectivity,
    exact_route,
    get_metric,
    list_prf,
    macro_f1,
    mae,
    mape,
    micro_prf,
    normalise_name,
    r2,
    rmse,
    route_endpoints_ok,
    step_accuracy,
)
from cartoqa.metrics.frieda import frieda_correct
from cartoqa.parsing import canonical_action, convert_length

if TYPE_CHECKING:
    from cartoqa.declarations.spec import RequestSpec, TaskSpec

Variants = dict[str, Any]
Aggregate = tuple[dict[str, Variants], list[str]]


@dataclass(frozen=True)
class Section:
    """How one ``(task, request)`` is scored.

    Parameters
    ----------
    key : str
        Report key, e.g. ``"stmf/count"``.
    task, request : str
        The items it scores.
    metrics : tuple of str
        Metric names, in report order.
    headline : tuple of str
        Metrics in [0, 1] drawn in the per-task bar chart.
    measure : callable
        ``measure(record, checker) -> dict`` of per-item measures for a valid answer.
    aggregate : callable
        ``aggregate(records) -> (metrics, notes)``.
    extra_strata : tuple of tuple of str
        Strata crossed with each other, e.g. ``(("difficulty", "unit"),)``.
    uses_connectivity : bool
        ``measure`` uses the connectivity checker (SRN); the report says why when there
        was none.
    """

    key: str
    task: str
    request: str
    metrics: tuple[str, ...]
    headline: tuple[str, ...]
    measure: Callable[[Record, ConnectivityChecker | None], dict[str, Any]]
    aggregate: Callable[[list[Record]], Aggregate]
    extra_strata: tuple[tuple[str, ...], ...] = ()
    uses_connectivity: bool = False


def _clean(x: float) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def _pair(all_value: float, valid_value: float) -> Variants:
    return {"all": _clean(all_value), "valid_only": _clean(valid_value)}


def _mean(values: Sequence[float]) -> float:
    finite = [v for v in values if not math.isnan(v)]
    return sum(finite) / len(finite) if finite else math.nan


def _mean_measure(records: list[Record], key: str) -> Variants:
    """Mean of a per-item measure: invalid answers score 0 in ``all``."""
    every = [float(r.measures[key]) if r.valid else 0.0 for r in records]
    valid = [float(r.measures[key]) for r in records if r.valid]
    return _pair(_mean(every) if every else math.nan, _mean(valid) if valid else math.nan)


# --- MFS, MML, STMF presence: one correct flag per answer ------------------------------


def measure_choice(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    """Per-item measure of a choice (MFS): ``correct`` when the letters agree."""
    predicted = str(record.value.get("letter", ""))
    return {"correct": predicted.upper() == str(record.answer.get("letter", "")).upper()}


def aggregate_correct(records: list[Record]) -> Aggregate:
    """``accuracy`` of the ``correct`` measures (MFS, MML)."""
    every = [bool(r.valid and r.measures["correct"]) for r in records]
    valid = [bool(r.measures["correct"]) for r in records if r.valid]
    return {"accuracy": _pair(accuracy(every), accuracy(valid))}, []


def measure_frieda(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    """Per-item measure of a FRIEDA answer: ``correct`` by FRIEDA's rules (a distance
    within 20%, a direction or one of its two neighbours, the same names;
    :func:`cartoqa.metrics.frieda.frieda_correct`)."""
    return {"correct": frieda_correct(record.answer, record.result)}


def measure_presence(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    """Per-item measure of a yes/no answer: ``correct``."""
    return {"correct": bool(record.value["present"]) == bool(record.answer.get("present"))}


def aggregate_presence(records: list[Record]) -> Aggregate:
    """``accuracy`` and ``macro_f1`` of yes/no answers."""
    metrics, notes = aggregate_correct(records)
    truth = [bool(r.answer.get("present")) for r in records]
    predicted = [bool(r.value["present"]) if r.valid else None for r in records]
    valid_t = [t for t, p in zip(truth, predicted, strict=True) if p is not None]
    valid_p = [p for p in predicted if p is not None]
    metrics["macro_f1"] = _pair(macro_f1(truth, predicted), macro_f1(valid_t, valid_p))
    return metrics, notes


def _road_key(names: Sequence[str]) -> list[str]:
    return sorted(normalise_name(n) for n in names)


def measure_roads(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    """Per-item measure of two road names: ``correct`` when they equal the truth in any order."""
    truth = list(record.answer.get("roads") or [])
    predicted = list(record.value.get("roads") or [])
    return {"correct": _road_key(truth) == _road_key(predicted)}


# --- STMF counts, RLE lengths: regression ---------------------------------------------


def _regression(
    truth: list[float], predicted: list[float | None], names: Sequence[str]
) -> dict[str, Variants]:
    """Regression metrics; a ``None`` prediction (invalid) counts as 0 in ``all``."""
    functions = {"rmse": rmse, "mae": mae, "mape": mape, "r2": r2,
                 "rmse_m": rmse, "mae_m": mae}
    every = [0.0 if p is None else p for p in predicted]
    vt = [t for t, p in zip(truth, predicted, strict=True) if p is not None]
    vp = [p for p in predicted if p is not None]
    return {n: _pair(functions[n](truth, every), functions[n](vt, vp)) for n in names}


def _r2_note(metrics: Mapping[str, Variants], truth: Sequence[float]) -> list[str]:
    if "r2" in metrics and (metrics["r2"]["all"] is None or metrics["r2"]["valid_only"] is None):
        return ["r2 is undefined (null) for fewer than two answers or when every true value "
                "is the same (within 0.01 %)"]
    return []


def measure_count(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    """Per-item measures of a count: ``correct`` (exact) and ``error``."""
    truth = float(record.answer.get("count", 0))
    predicted = float(record.value["count"])
    return {"correct": predicted == truth, "error": predicted - truth}


def aggregate_count(records: list[Record]) -> Aggregate:
    """``rmse``, ``mae``, ``r2`` and exact-count ``accuracy`` of counts."""
    truth = [float(r.answer.get("count", 0)) for r in records]
    predicted = [float(r.value["count"]) if r.valid else None for r in records]
    metrics = _regression(truth, predicted, ("rmse", "mae", "r2"))
    correct, _ = aggregate_correct(records)
    metrics["accuracy"] = correct["accuracy"]
    return metrics, _r2_note(metrics, truth)


def _true_metres(record: Record) -> float:
    answer = record.answer
    return convert_length(float(answer.get("value", 0.0)), str(answer.get("unit", "m")), "m")


def measure_length(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    """Per-item measures of a length: prediction and errors in metres."""
    unit = str(record.answer.get("unit", "m"))
    true_m = _true_metres(record)
    predicted_m = convert_length(float(record.value["value"]), str(record.value["unit"]), "m")
    return {
        "predicted": convert_length(predicted_m, "m", unit),
        "unit": unit,
        "predicted_m": predicted_m,
        "true_m": true_m,
        "abs_error_m": abs(predicted_m - true_m),
        "abs_pct_error": 100.0 * abs(predicted_m - true_m) / true_m if true_m else None,
    }


def aggregate_length(records: list[Record]) -> Aggregate:
    """``rmse_m``, ``mae_m``, ``mape`` and ``r2`` of lengths, compared in metres."""
    truth = [_true_metres(r) for r in records]
    predicted = [float(r.measures["predicted_m"]) if r.valid else None for r in records]
    metrics = _regression(truth, predicted, ("rmse_m", "mae_m", "mape", "r2"))
    notes = ["lengths are compared in metres (feet items converted)"]
    if any(t == 0 for t in truth):
        notes.append("MAPE leaves out items whose true length is 0")
    return metrics, notes + _r2_note(metrics, truth)


# --- STMF names, MTMF: lists of names -------------------------------------------------


def measure_names(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    """Per-item ``precision``, ``recall`` and ``f1`` of a list of names."""
    scores = list_prf(list(record.answer.get("names") or []), list(record.value["names"]))
    return {"precision": scores.precision, "recall": scores.recall, "f1": scores.f1}


def aggregate_prf(records: list[Record]) -> Aggregate:
    """Means of the per-item ``precision``, ``recall`` and ``f1``."""
    return {k: _mean_measure(records, k) for k in ("precision", "recall", "f1")}, []


def _map_counts(types: Mapping[str, Any], names: Sequence[str]) -> list[float]:
    return [float((types.get(n) or {}).get("count", 0) or 0) for n in names]


def measure_multi(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    """Per-map ``rmse`` and ``r2`` of the counts and micro P/R/F1 of the names (MTMF)."""
    true_types = record.answer.get("types") or {}
    predicted_types = record.value.get("types") or {}
    names = list(true_types)
    truth = _map_counts(true_types, names)
    predicted = _map_counts(predicted_types, names)
    scores = micro_prf(
        (list((true_types.get(n) or {}).get("names") or []),
         list((predicted_types.get(n) or {}).get("names") or []))
        for n in names
    )
    return {
        "rmse": rmse(truth, predicted),
        "r2": _clean(r2(truth, predicted)),
        "precision": scores.precision,
        "recall": scores.recall,
        "f1": scores.f1,
    }


def aggregate_multi(records: list[Record]) -> Aggregate:
    """Per-map MTMF measures averaged over maps."""
    metrics: dict[str, Variants] = {}
    notes: list[str] = ["per-map RMSE, r2 and micro P/R/F1 (over all types), averaged over maps"]
    for key in ("rmse", "r2"):
        every: list[float] = []
        valid: list[float] = []
        for r in records:
            if r.valid:
                value = r.measures[key]
                value = math.nan if value is None else float(value)
                every.append(value)
                valid.append(value)
            else:
                true_types = r.answer.get("types") or {}
                truth = _map_counts(true_types, list(true_types))
                zeros = [0.0] * len(truth)
                every.append(rmse(truth, zeros) if key == "rmse" else r2(truth, zeros))
        metrics[key] = _pair(_mean(every) if every else math.nan,
                             _mean(valid) if valid else math.nan)
        if key == "r2":
            undefined = sum(math.isnan(v) for v in every)
            if undefined:
                notes.append(f"r2 undefined on {undefined} map(s) with the same count for "
                             "every type: averaged over the other maps")
    for key in ("precision", "recall", "f1"):
        metrics[key] = _mean_measure(records, key)
    return metrics, notes


# --- SRN: routes ----------------------------------------------------------------------


def measure_route(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    """Per-item ``exact``, ``step_accuracy`` and ``connected`` of a route (SRN)."""
    truth = list(record.answer.get("steps") or [])
    predicted = list(record.value["steps"])
    connected: bool | None
    if checker is None:
        connected = None
    elif not route_endpoints_ok(predicted):
        connected = False
    else:
        connected = checker(record.item, predicted)
    return {
        "exact": exact_route(truth, predicted),
        "step_accuracy": step_accuracy(truth, predicted),
        "connected": connected,
    }


def aggregate_route(records: list[Record]) -> Aggregate:
    """``exact_route``, ``step_accuracy`` and ``connectivity`` of routes."""
    every = [bool(r.valid and r.measures["exact"]) for r in records]
    valid = [bool(r.measures["exact"]) for r in records if r.valid]
    metrics = {
        "exact_route": _pair(accuracy(every), accuracy(valid)),
        "step_accuracy": _mean_measure(records, "step_accuracy"),
    }
    notes: list[str] = []
    n_invalid = sum(not r.valid for r in records)
    checked = [bool(r.measures["connected"]) for r in records
               if r.valid and r.measures["connected"] is not None]
    unchecked = sum(1 for r in records if r.valid and r.measures["connected"] is None)
    if unchecked and not checked:
        metrics["connectivity"] = _pair(math.nan, math.nan)
        notes.append("connectivity not computed: no road-graph check was available")
    else:
        every = checked + [False] * n_invalid
        metrics["connectivity"] = _pair(connectivity(every), connectivity(checked))
        if unchecked:
            notes.append(f"connectivity left out {unchecked} route(s) that could not be checked")
    return metrics, notes


# --- answers as sets of labels (several letters, lists): per-response F1 ------------


def set_f1(truth: Sequence[str], predicted: Sequence[str]) -> float:
    """F1 of one predicted set against the true set (both empty: 1).

    Examples
    --------
    >>> set_f1(["a", "c"], ["a"]), set_f1([], []), set_f1(["a"], ["b"])
    (0.6666666666666666, 1.0, 0.0)
    """
    t, p = set(truth), set(predicted)
    if not t and not p:
        return 1.0
    hit = len(t & p)
    return 0.0 if hit == 0 else 2 * hit / (len(t) + len(p))


def aggregate_f1(records: list[Record]) -> Aggregate:
    """Mean of the per-item ``f1`` measures, as the metric ``f1``."""
    return {"f1": _mean_measure(records, "f1")}, []


def _section(task: TaskSpec, request: RequestSpec) -> Section:
    for name in (*request.metrics, *request.headline):
        get_metric(name)  # every metric is named from the one registry
    if not set(request.headline) <= set(request.metrics):
        raise ValueError(f"task {task.name!r} request {request.name!r}: headline metrics "
                         f"{request.headline} are not all reported")
    return Section(task.section_key(request), task.name, request.name, request.metrics,
                   request.headline, request.measure, request.aggregate,
                   request.extra_strata, request.uses_connectivity)


@cache
def _sections(specs: tuple[TaskSpec, ...]) -> tuple[Section, ...]:
    out = tuple(_section(task, request) for task in specs for request in task.requests)
    keys = [s.key for s in out]
    if len(set(keys)) != len(keys):
        raise ValueError(f"two scoring sections share a key: {keys}")
    return out


def sections() -> tuple[Section, ...]:
    """Return the scoring sections of the declared tasks, in report order.

    One section per request of each task in :func:`cartoqa.declarations.registry.task_specs`
    (derived from the task declarations, never kept by hand).

    Returns
    -------
    tuple of Section
        The sections.

    Raises
    ------
    KeyError
        When a declaration names a metric that :data:`cartoqa.metrics.METRICS` lacks.

    Examples
    --------
    >>> [s.key for s in sections()][:4]
    ['mfs', 'stmf/presence', 'stmf/count', 'stmf/names']
    """
    return _sections(task_specs())


def section_for(task: str, request: str) -> Section | None:
    """Return the section that scores ``(task, request)``, or ``None`` if none does.

    Parameters
    ----------
    task, request : str
        An item's ``task`` and ``request``.

    Returns
    -------
    Section or None
        The section.
    """
    for section in sections():
        if section.task == task and section.request == request:
            return section
    return None


def metric_labels(names: Iterable[str]) -> dict[str, str]:
    """Return what each metric means, from the metric registry, in registry order.

    Parameters
    ----------
    names : iterable of str
        Metric names (each registered in :data:`cartoqa.metrics.METRICS`).

    Returns
    -------
    dict
        ``name -> description`` for the given names.

    Examples
    --------
    >>> metric_labels(["rmse", "accuracy"])
    {'accuracy': 'share of correct answers', 'rmse': 'root mean squared error'}
    """
    wanted = set(names)
    for name in wanted:
        get_metric(name)
    return {name: info.description for name, info in METRICS.items() if name in wanted}


def n_steps(item: Mapping[str, Any]) -> int:
    """Number of steps of an SRN item: its ``n_steps`` stratum, else its action count.

    Parameters
    ----------
    item : mapping
        An SRN item.

    Returns
    -------
    int
        The number of steps.
    """
    strata = item.get("strata") or {}
    if "n_steps" in strata:
        return int(strata["n_steps"])
    steps = (item.get("answer") or {}).get("steps") or []
    return sum(1 for s in steps if canonical_action(str(s)) is not None)
