"""Metric rules a reader of a score table relies on, at their edges: tolerances, empty
responses, mismatched inputs and the registry that names every metric."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cartoqa.metrics import METRICS, names_match, register_metric
from cartoqa.metrics.frieda import distance_correct, parse_frieda
from cartoqa.metrics.mapwise import kendall_tau_b, range_score, rank_score
from cartoqa.metrics.sets import PRF, prf_from_counts
from cartoqa.parsing import Invalid
from cartoqa.parsing.mapwise import parse_range


def test_a_distance_within_the_tolerance_is_correct_even_under_a_metre() -> None:
    assert distance_correct(0.8, 0.9)
    assert not distance_correct(0.8, 1.2)
    with pytest.raises(ValueError, match="must be positive"):
        distance_correct(0.0, 1.0)


@pytest.mark.parametrize("text", [None, "", "   \n"])
def test_an_empty_frieda_response_is_invalid(text: str | None) -> None:
    parsed = parse_frieda({"type": "distance", "meters": 120.0}, text)
    assert isinstance(parsed, Invalid) and parsed.reason == "empty response"


def test_range_bounds_match_within_a_millionth() -> None:
    # a bound printed with a rounding difference still matches ...
    assert range_score([1000, 2000], [1000.0005, 2000], continuous=False) == 1.0
    assert range_score([0, 10], [1e-6, 10], continuous=False) == 1.0
    # ... a larger difference does not
    assert range_score([0, 10], [1.5e-6, 10], continuous=False) == 0.0
    assert range_score([1000, 2000], [1000.01, 2000], continuous=False) == 0.0


def test_rank_score_of_an_empty_ranking_is_zero() -> None:
    assert rank_score({"a": 30.0, "b": 20.0}, {}) == 0.0


def test_kendall_tau_needs_paired_sequences() -> None:
    with pytest.raises(ValueError, match="differ in length"):
        kendall_tau_b([1, 2, 3], [1, 2])


@pytest.fixture
def scratch_metric() -> Iterator[str]:
    name = "test_scratch_metric"
    yield name
    METRICS.pop(name, None)


def test_a_registered_metric_is_listed_with_what_it_means(scratch_metric: str) -> None:
    def hits(truth: list[int], predicted: list[int]) -> float:
        return float(sum(t == p for t, p in zip(truth, predicted, strict=True)))

    returned = register_metric(scratch_metric, description="Hits.",
                               higher_is_better=False)(hits)
    assert returned is hits
    info = METRICS[scratch_metric]
    assert (info.name, info.function, info.description, info.higher_is_better) == \
        (scratch_metric, hits, "Hits.", False)
    # registering the same function again (a re-import) is fine; another one is not
    register_metric(scratch_metric, description="Hits.", higher_is_better=False)(hits)

    def other(truth: list[int], predicted: list[int]) -> float:
        return 0.0

    with pytest.raises(ValueError, match="already registered"):
        register_metric(scratch_metric, description="Other.", higher_is_better=True)(other)
    assert METRICS[scratch_metric].function is hits


def test_a_range_needs_two_numbers() -> None:
    assert parse_range("from 10 to many") is None
    assert parse_range("lots to 20") is None
    assert parse_range("10 and 20") == (10.0, 20.0)


def test_nothing_to_name_and_nothing_named_is_perfect_with_zero_counts() -> None:
    empty = prf_from_counts(0, 0, 0)
    assert empty == PRF(1.0, 1.0, 1.0, 0, 0, 0)
    assert (empty.tp, empty.fp, empty.fn) == (0, 0, 0)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("St Catherine", "Saint Catherine", True),  # St before a name is Saint ...
        ("Main St", "Main Street", True),  # ... after one, or last, it is Street
        ("St Catherine", "Street Catherine", False),
        ("Ste Anne", "Sainte Anne", True),
        ("Mannerheimintie", "Mannerheimintie", True),
        ("St N", "Street N", True),  # before a compass point: Street
    ],
)
def test_st_is_saint_before_a_name_and_street_otherwise(a: str, b: str, same: bool) -> None:
    assert names_match(a, b) is same
