"""Every benchmark metric, importable and registered by name in :data:`METRICS`.

>>> from cartoqa.metrics import METRICS, rmse
>>> sorted(METRICS)[:3]
['accuracy', 'connectivity', 'exact_route']
"""

from cartoqa.metrics.classification import accuracy, macro_f1
from cartoqa.metrics.names import NAME_ABBREVIATIONS, names_match, normalise_name
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
from cartoqa.metrics.sets import PRF, list_prf, match_counts, micro_prf, prf_from_counts

__all__ = [
    "METRICS",
    "NAME_ABBREVIATIONS",
    "PRF",
    "MetricInfo",
    "accuracy",
    "connectivity",
    "exact_route",
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
    "prf_from_counts",
    "r2",
    "register_metric",
    "rmse",
    "route_endpoints_ok",
    "step_accuracy",
]
