"""Per-task scoring: per-item measures and the metrics of a group of answers.

A *section* is one ``(task, request)`` pair (STMF has three). Every metric is reported
in two variants: ``all`` counts an invalid answer as wrong (accuracy, F1, exact route
and connectivity 0; for error metrics an invalid answer counts as a prediction of 0)
and ``valid_only`` uses the parsed answers only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cartoqa.metrics import (
    accuracy,
    connectivity,
    exact_route,
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
from cartoqa.metrics.mapwise import range_score, rank_score, single_word_score
from cartoqa.metrics.sets import prf_from_counts
from cartoqa.parsing import canonical_action, convert_length
from cartoqa.parsing.mapiq import numbers_match
from cartoqa.scoring.records import ConnectivityChecker, Record
from cartoqa.tasks.mapiq import TASKS as MAPIQ_TASKS
from cartoqa.tasks.mapiq.common import NOTA
from cartoqa.tasks.mapwise import TASKS as MAPWISE_TASKS

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
    """

    key: str
    task: str
    request: str
    metrics: tuple[str, ...]
    headline: tuple[str, ...]
    measure: Callable[[Record, ConnectivityChecker | None], dict[str, Any]]
    aggregate: Callable[[list[Record]], Aggregate]
    extra_strata: tuple[tuple[str, ...], ...] = ()


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


def _measure_choice(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    predicted = str(record.value.get("letter", ""))
    return {"correct": predicted.upper() == str(record.answer.get("letter", "")).upper()}


def _aggregate_correct(records: list[Record]) -> Aggregate:
    every = [bool(r.valid and r.measures["correct"]) for r in records]
    valid = [bool(r.measures["correct"]) for r in records if r.valid]
    return {"accuracy": _pair(accuracy(every), accuracy(valid))}, []


def _measure_presence(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    return {"correct": bool(record.value["present"]) == bool(record.answer.get("present"))}


def _aggregate_presence(records: list[Record]) -> Aggregate:
    metrics, notes = _aggregate_correct(records)
    truth = [bool(r.answer.get("present")) for r in records]
    predicted = [bool(r.value["present"]) if r.valid else None for r in records]
    valid_t = [t for t, p in zip(truth, predicted, strict=True) if p is not None]
    valid_p = [p for p in predicted if p is not None]
    metrics["macro_f1"] = _pair(macro_f1(truth, predicted), macro_f1(valid_t, valid_p))
    return metrics, notes


def _road_key(names: Sequence[str]) -> list[str]:
    return sorted(normalise_name(n) for n in names)


def _measure_roads(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
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


def _measure_count(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    truth = float(record.answer.get("count", 0))
    predicted = float(record.value["count"])
    return {"correct": predicted == truth, "error": predicted - truth}


def _aggregate_count(records: list[Record]) -> Aggregate:
    truth = [float(r.answer.get("count", 0)) for r in records]
    predicted = [float(r.value["count"]) if r.valid else None for r in records]
    metrics = _regression(truth, predicted, ("rmse", "mae", "r2"))
    correct, _ = _aggregate_correct(records)
    metrics["accuracy"] = correct["accuracy"]
    return metrics, _r2_note(metrics, truth)


def _true_metres(record: Record) -> float:
    answer = record.answer
    return convert_length(float(answer.get("value", 0.0)), str(answer.get("unit", "m")), "m")


def _measure_length(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
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


def _aggregate_length(records: list[Record]) -> Aggregate:
    truth = [_true_metres(r) for r in records]
    predicted = [float(r.measures["predicted_m"]) if r.valid else None for r in records]
    metrics = _regression(truth, predicted, ("rmse_m", "mae_m", "mape", "r2"))
    notes = ["lengths are compared in metres (feet items converted)"]
    if any(t == 0 for t in truth):
        notes.append("MAPE leaves out items whose true length is 0")
    return metrics, notes + _r2_note(metrics, truth)


# --- STMF names, MTMF: lists of names -------------------------------------------------


def _measure_names(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    scores = list_prf(list(record.answer.get("names") or []), list(record.value["names"]))
    return {"precision": scores.precision, "recall": scores.recall, "f1": scores.f1}


def _aggregate_prf(records: list[Record]) -> Aggregate:
    return {k: _mean_measure(records, k) for k in ("precision", "recall", "f1")}, []


def _map_counts(types: Mapping[str, Any], names: Sequence[str]) -> list[float]:
    return [float((types.get(n) or {}).get("count", 0) or 0) for n in names]


def _measure_multi(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
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


def _aggregate_multi(records: list[Record]) -> Aggregate:
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


def _measure_route(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
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


def _aggregate_route(records: list[Record]) -> Aggregate:
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


# --- MapIQ: accuracy for binary and single value, per-response F1 for MCQ and lists ---


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


def _measure_binary(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    return {"correct": bool(record.value["value"]) == bool(record.answer.get("value"))}


def _measure_single(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    truth = [float(x) for x in record.answer.get("numbers") or []]
    return {"correct": numbers_match(truth, record.value["numbers"])}


def _measure_letters(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    predicted = list(record.value["letters"])
    options = record.item.get("options") or {}
    nota = [k for k, v in options.items() if v == NOTA]
    if len(predicted) > 1 and any(k in predicted for k in nota):
        return {"f1": 0.0}  # "None of the above" beside another option contradicts itself
    return {"f1": set_f1(list(record.answer.get("letters") or []), predicted)}


def _measure_items(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    return {"f1": set_f1(list(record.answer.get("items") or []), list(record.value["items"]))}


def _aggregate_f1(records: list[Record]) -> Aggregate:
    return {"f1": _mean_measure(records, "f1")}, []


_MAPIQ_SCORING: dict[str, tuple[tuple[str, ...], Callable[..., dict[str, Any]],
                                Callable[[list[Record]], Aggregate]]] = {
    "binary": (("accuracy",), _measure_binary, _aggregate_correct),
    "single": (("accuracy",), _measure_single, _aggregate_correct),
    "mcq": (("f1",), _measure_letters, _aggregate_f1),
    "list": (("f1",), _measure_items, _aggregate_f1),
}


def mapiq_sections() -> tuple[Section, ...]:
    """One section per MapIQ task and question type, from the task declarations."""
    out = []
    for spec in MAPIQ_TASKS.values():
        for request in spec.requests:
            metrics, measure, aggregate = _MAPIQ_SCORING[request]
            out.append(Section(f"{spec.name}/{request}", spec.name, request, metrics, metrics,
                               measure, aggregate))
    return tuple(out)


# --- MapWise: exact match (binary, count), recall with ties (single word), precision and
# recall (lists), range score (exact; 0.5 for overlap on colour bars), Kendall's tau-b --


def _measure_count_exact(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    return {"correct": float(record.value["count"]) == float(record.answer.get("count", -1))}


def _measure_region(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    return {"recall": single_word_score(list(record.answer.get("accepted") or []),
                                        list(record.value["regions"]))}


def _measure_region_list(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    scores = prf_from_counts(*_set_counts(list(record.answer.get("items") or []),
                                          list(record.value["items"])))
    return {"precision": scores.precision, "recall": scores.recall, "f1": scores.f1}


def _set_counts(truth: Sequence[str], predicted: Sequence[str]) -> tuple[int, int, int]:
    t, p = set(truth), set(predicted)
    return len(t & p), len(p - t), len(t - p)


def _measure_range(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    truth = [float(x) for x in record.answer.get("range") or []]
    return {"score": range_score(truth, record.value["range"],
                                 bool(record.answer.get("continuous")))}


def _measure_rank(record: Record, checker: ConnectivityChecker | None) -> dict[str, Any]:
    levels = {k: float(v) for k, v in (record.answer.get("levels") or {}).items()}
    ranks = {k: float(v) for k, v in record.value["ranks"].items() if k in levels}
    return {"tau_b": rank_score(levels, ranks)}


def _aggregate_mean(key: str) -> Callable[[list[Record]], Aggregate]:
    def aggregate(records: list[Record]) -> Aggregate:
        return {key: _mean_measure(records, key)}, []
    return aggregate


_MAPWISE_SCORING: dict[str, tuple[tuple[str, ...], tuple[str, ...],
                                  Callable[..., dict[str, Any]],
                                  Callable[[list[Record]], Aggregate]]] = {
    "binary": (("accuracy",), ("accuracy",), _measure_binary, _aggregate_correct),
    "count": (("accuracy",), ("accuracy",), _measure_count_exact, _aggregate_correct),
    "single": (("recall",), ("recall",), _measure_region, _aggregate_mean("recall")),
    "list": (("precision", "recall", "f1"), ("precision", "recall"), _measure_region_list,
             _aggregate_prf),
    "range": (("range_score",), ("range_score",),
              lambda r, c: {"range_score": _measure_range(r, c)["score"]},
              _aggregate_mean("range_score")),
    "rank": (("tau_b",), (), _measure_rank, _aggregate_mean("tau_b")),
}


def mapwise_sections() -> tuple[Section, ...]:
    """One section per MapWise answer type, from the task declarations."""
    out = []
    for spec in MAPWISE_TASKS.values():
        for request in spec.requests:
            metrics, headline, measure, aggregate = _MAPWISE_SCORING[request]
            out.append(Section(f"{spec.name}", spec.name, request, metrics, headline,
                               measure, aggregate, (("country", "legend"),)))
    return tuple(out)


#: The sections, in report order.
SECTIONS: tuple[Section, ...] = (
    Section("mfs", "mfs", "choice", ("accuracy",), ("accuracy",),
            _measure_choice, _aggregate_correct),
    Section("stmf/presence", "stmf", "presence", ("accuracy", "macro_f1"),
            ("accuracy", "macro_f1"), _measure_presence, _aggregate_presence),
    Section("stmf/count", "stmf", "count", ("rmse", "mae", "r2", "accuracy"), ("accuracy",),
            _measure_count, _aggregate_count),
    Section("stmf/names", "stmf", "names", ("precision", "recall", "f1"), ("f1",),
            _measure_names, _aggregate_prf),
    Section("mtmf", "mtmf", "all", ("rmse", "r2", "precision", "recall", "f1"), ("f1",),
            _measure_multi, _aggregate_multi),
    Section("rle", "rle", "length", ("rmse_m", "mae_m", "mape", "r2"), (),
            _measure_length, _aggregate_length, (("difficulty", "unit"),)),
    Section("mml", "mml", "roads", ("accuracy",), ("accuracy",),
            _measure_roads, _aggregate_correct),
    Section("srn", "srn", "route", ("exact_route", "step_accuracy", "connectivity"),
            ("exact_route", "step_accuracy", "connectivity"), _measure_route, _aggregate_route),
    *mapiq_sections(),
    *mapwise_sections(),
)

SECTION_BY_REQUEST: dict[tuple[str, str], Section] = {(s.task, s.request): s for s in SECTIONS}

#: What the metric names in a report mean.
METRIC_LABELS: dict[str, str] = {
    "accuracy": "share of correct answers",
    "macro_f1": "F1 of yes and of no, averaged",
    "rmse": "root mean squared error",
    "mae": "mean absolute error",
    "r2": "coefficient of determination (null when undefined)",
    "rmse_m": "root mean squared error, metres",
    "mae_m": "mean absolute error, metres",
    "mape": "mean absolute percentage error, %",
    "precision": "share of predicted names that are true (normalised)",
    "recall": "share of true names that are predicted (normalised)",
    "f1": "harmonic mean of precision and recall",
    "exact_route": "share of routes equal to the true route, element by element",
    "step_accuracy": "longest correct prefix after the origin / true steps, averaged",
    "connectivity": "share of routes that are connected drivable paths blue -> red",
    "range_score": "MapWise range: 1 for the exact range, 0.5 for an overlapping one on a "
                   "colour bar, else 0",
    "tau_b": "Kendall's tau-b between true values and predicted ranks (ties allowed), "
             "-1..1",
}


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
