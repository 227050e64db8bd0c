"""Route metrics for SRN: exact route, step accuracy, connectivity."""

from __future__ import annotations

import math
from collections.abc import Sequence

from cartoqa.metrics.registry import register_metric
from cartoqa.parsing.names import normalise_name
from cartoqa.parsing.route import DESTINATION, ORIGIN, canonical_action, canonical_marker


def normalise_step(step: str) -> str:
    """Normalise one route element for comparison.

    Actions become one of the four canonical actions, marker names ``blue``/``red``,
    and road names are normalised with
    :func:`~cartoqa.parsing.names.normalise_name`.

    Parameters
    ----------
    step : str
        A route element.

    Returns
    -------
    str
        The comparison key.

    Examples
    --------
    >>> normalise_step("Turn Left"), normalise_step("Main St.")
    ('turn left', 'main street')
    """
    return canonical_marker(step) or canonical_action(step) or normalise_name(step)


def normalise_route(steps: Sequence[str]) -> list[str]:
    """Normalise every element of a route (see :func:`normalise_step`).

    Parameters
    ----------
    steps : sequence of str
        A route.

    Returns
    -------
    list of str
        Comparison keys.
    """
    return [normalise_step(s) for s in steps]


@register_metric("exact_route",
                 description="share of routes equal to the true route, element by element",
                 higher_is_better=True)
def exact_route(truth: Sequence[str], predicted: Sequence[str]) -> bool:
    """Whether the predicted route equals the true route, element by element.

    The full lists are compared after normalisation, so a truncated route, a route
    with extra steps or one missing its ``blue``/``red`` ends is not exact.

    Parameters
    ----------
    truth, predicted : sequence of str
        Routes ``[blue, action, road, ..., red]``.

    Returns
    -------
    bool
        ``True`` only for the same length and the same elements.

    Examples
    --------
    >>> exact_route(["blue", "turn left", "A", "red"], ["blue", "turn left", "A"])
    False
    """
    return normalise_route(truth) == normalise_route(predicted)


def _after_origin(route: list[str]) -> list[str]:
    return route[1:] if route and route[0] == ORIGIN else route


@register_metric("step_accuracy",
                 description="longest correct prefix after the origin / true steps, averaged",
                 higher_is_better=True)
def step_accuracy(truth: Sequence[str], predicted: Sequence[str]) -> float:
    """Share of the true steps that the prediction gets right before its first mistake.

    The steps of a route are its elements after the origin marker ``blue`` (actions,
    road names and the destination ``red``). The score is the length of the longest
    common prefix of the predicted and true steps divided by the number of true steps.
    A prediction that does not start with ``blue`` is compared from its first element.

    Parameters
    ----------
    truth, predicted : sequence of str
        Routes.

    Returns
    -------
    float
        In [0, 1]; NaN when the true route has no steps.

    Examples
    --------
    >>> step_accuracy(["blue", "turn left", "A", "turn right", "B", "red"],
    ...               ["blue", "turn left", "A", "turn left", "B", "red"])
    0.4
    """
    t = _after_origin(normalise_route(truth))
    p = _after_origin(normalise_route(predicted))
    if not t:
        return math.nan
    n = 0
    for a, b in zip(t, p, strict=False):
        if a != b:
            break
        n += 1
    return n / len(t)


def route_endpoints_ok(predicted: Sequence[str]) -> bool:
    """Whether a predicted route starts at ``blue`` and ends at ``red``.

    A route that does not can never describe a path from origin to destination, so it
    is not connected, whatever the road graph says.

    Parameters
    ----------
    predicted : sequence of str
        A route.

    Returns
    -------
    bool
        ``True`` when the first element is the origin and the last the destination.
    """
    route = normalise_route(predicted)
    return len(route) >= 2 and route[0] == ORIGIN and route[-1] == DESTINATION


@register_metric("connectivity",
                 description="share of routes that are connected drivable paths blue -> red",
                 higher_is_better=True)
def connectivity(connected: Sequence[bool]) -> float:
    """Share of routes that are connected drivable paths from origin to destination.

    Parameters
    ----------
    connected : sequence of bool
        One flag per checked route (an invalid answer is ``False``).

    Returns
    -------
    float
        The share; NaN when no route was checked.
    """
    if not connected:
        return math.nan
    return sum(bool(c) for c in connected) / len(connected)
