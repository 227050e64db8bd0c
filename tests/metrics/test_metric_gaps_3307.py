"""Metrics at the places the fresh mutation sample of seed 3307 found untested (issue 33):
road names inside a route, and MapWise ranges that only touch, at every scale.
"""

from __future__ import annotations

import pytest

from cartoqa.metrics import exact_route, step_accuracy
from cartoqa.metrics.mapwise import range_score

ROUTE = ["blue", "turn left", "Mannerheimintie", "turn right", "Lönnrotinkatu", "red"]


def test_a_route_on_another_road_is_not_exact() -> None:
    other_road = ["blue", "turn left", "Runeberginkatu", "turn right", "Lönnrotinkatu", "red"]
    assert not exact_route(ROUTE, other_road)
    # the steps after blue: turn left (right), Runeberginkatu (wrong): 1 of 5
    assert step_accuracy(ROUTE, other_road) == pytest.approx(1 / 5)
    # the last road wrong: 3 of 5
    last_wrong = [*ROUTE[:4], "Bulevardi", "red"]
    assert step_accuracy(ROUTE, last_wrong) == pytest.approx(3 / 5)


def test_road_names_in_a_route_are_compared_normalised() -> None:
    truth = ["blue", "turn left", "Main Street", "red"]
    assert exact_route(truth, ["blue", "Turn Left", "main st.", "red"])
    assert step_accuracy(truth, ["blue", "turn left", "Main St", "red"]) == 1.0
    assert not exact_route(truth, ["blue", "turn left", "Main Road", "red"])


@pytest.mark.parametrize(("truth", "predicted"), [
    # the shared bound 0.3 and 0.2999993 are one number by the bounds' own tolerance
    # (1e-6 of max(1, |bound|)): the ranges touch, they do not overlap
    ([0.1, 0.3], [0.2999993, 0.5]),
    ([0.0, 3e6], [3e6 - 2.0, 5e6]),
    ([0.0, 1000.0], [999.5, 1e6]),   # 0.5 of a range a million wide: a touch
])
def test_ranges_that_only_touch_score_zero_at_any_scale(truth: list[float],
                                                        predicted: list[float]) -> None:
    assert range_score(truth, predicted, continuous=True) == 0.0
    assert range_score(predicted, truth, continuous=True) == 0.0


@pytest.mark.parametrize(("truth", "predicted"), [
    ([0.1, 0.3], [0.2999, 0.5]),
    ([0.0, 1000.0], [990.0, 1e6]),
    ([10.0, 20.0], [15.0, 25.0]),
    ([0.0, 1000.0], [999.5, 2000.0]),  # the same half unit, in ranges a thousand wide
])
def test_the_range_score_is_symmetric(truth: list[float], predicted: list[float]) -> None:
    assert range_score(truth, predicted, continuous=True) == 0.5
    assert range_score(predicted, truth, continuous=True) == 0.5
