"""Every benchmark metric, importable and registered by name in :data:`METRICS`.

The registry is the one place that says what a metric means (its description is the
label score reports show) and which way is better (``higher_is_better``, which the
lmms-eval export writes); task declarations name their metrics from it.

>>> from cartoqa.metrics import METRICS, rmse
>>> sorted(METRICS)[:3]
['accuracy', 'connectivity', 'exact_route']
"""

from cartoqa.metrics.classification import accuracy, macro_f1
from cartoqa.metrics.mapwise import range_score, rank_score
from cartoqa.metrics.registry import METRICS, MetricInfo, get_metric, register_metric
from cartoqa.metrics.regression import mae, mape, r2, rmse
from cartoqa.metrics.routes import (
    connectivity,
    exact_route,
    normalise_route,
    normalise_step,
    route_endpoints_ok,
    step_accuracy,
)
from cartoqa.metrics.sets import (
    PRF,
    f1,
    list_prf,
    match_counts,
    micro_prf,
    precision,
    prf_from_counts,
    recall,
)
from cartoqa.parsing.names import NAME_ABBREVIATIONS, names_match, normalise_name

__all__ = [
    "METRICS",
    "NAME_ABBREVIATIONS",
    "PRF",
    "MetricInfo",
    "accuracy",
    "connectivity",
    "exact_route",
    "f1",
    "get_metric",
    "list_prf",
    "macro_f1",
    "mae",
    "mape",
    "match_counts",
    "micro_prf",
    "names_match",
    "normalise_name",
    "normalise_route",
    "normalise_step",
    "precision",
    "prf_from_counts",
    "r2",
    "range_score",
    "rank_score",
    "recall",
    "register_metric",
    "rmse",
    "route_endpoints_ok",
    "step_accuracy",
]
