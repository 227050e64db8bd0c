"""One registry of metrics: name -> function, description and direction.

It is the only table of metric facts: score reports take their ``metric_labels`` from the
descriptions, the lmms-eval export its ``higher_is_better`` from the directions, and
task declarations (:class:`cartoqa.declarations.spec.RequestSpec`) name metrics from it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class MetricInfo:
    """A registered metric.

    Parameters
    ----------
    name : str
        Registry name, e.g. ``"rmse"``.
    function : callable
        The pure function computing it.
    description : str
        One line for reports (their ``metric_labels``) and ``docs/scoring.md``.
    higher_is_better : bool
        Direction of improvement.
    """

    name: str
    function: Callable[..., Any]
    description: str
    higher_is_better: bool


#: Every metric, by name.
METRICS: dict[str, MetricInfo] = {}


def register_metric(name: str, *, description: str, higher_is_better: bool) -> Callable[[F], F]:
    """Register a metric function under ``name`` (a decorator).

    Parameters
    ----------
    name : str
        Registry name; must be new (re-importing the same function is allowed).
    description : str
        One line describing the metric.
    higher_is_better : bool
        Direction of improvement.

    Returns
    -------
    callable
        The decorator, which returns the function unchanged.
    """

    def decorate(function: F) -> F:
        known = METRICS.get(name)
        if known is not None and known.function.__qualname__ != function.__qualname__:
            raise ValueError(f"metric {name!r} is already registered")
        METRICS[name] = MetricInfo(name, function, description, higher_is_better)
        return function

    return decorate


def get_metric(name: str) -> MetricInfo:
    """Look a metric up by name.

    Parameters
    ----------
    name : str
        Registry name.

    Returns
    -------
    MetricInfo
        The metric.

    Raises
    ------
    KeyError
        When no metric has that name (the message lists the known ones).
    """
    try:
        return METRICS[name]
    except KeyError:
        raise KeyError(f"unknown metric {name!r}; known: {', '.join(sorted(METRICS))}") from None
