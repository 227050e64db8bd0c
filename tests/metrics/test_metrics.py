"""Every metric against values computed by hand, with the edge cases the issue names."""

from __future__ import annotations

import math

import pytest

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
    match_counts,
    micro_prf,
    names_match,
    normalise_name,
    prf_from_counts,
    r2,
    register_metric,
    rmse,
    route_endpoints_ok,
    step_accuracy,
)

ROUTE = ["blue", "turn left", "Mannerheimintie", "turn right", "Lönnrotinkatu", "red"]


def test_accuracy_by_hand() -> None:
    assert accuracy([True, False, True, False, False]) == pytest.approx(0.4)
    assert math.isnan(accuracy([]))


def test_macro_f1_by_hand() -> None:
    # yes: TP 1, FP 0, FN 1 -> 2/3 ; no: TP 1, FP 1, FN 1 -> 1/2 ; mean 7/12
    assert macro_f1([True, True, False, False], [True, False, False, None]) == pytest.approx(7 / 12)
    # every answer invalid: each true class has F1 0
    assert macro_f1([True, False], [None, None]) == 0.0
    # only one class anywhere and all correct
    assert macro_f1([True, True], [True, True]) == 1.0
    with pytest.raises(ValueError):
        macro_f1([True], [])


def test_rmse_mae_by_hand() -> None:
    truth, pred = [0, 3, 5], [0, 0, 4]
    assert rmse(truth, pred) == pytest.approx(math.sqrt(10 / 3))
    assert mae(truth, pred) == pytest.approx(4 / 3)
    assert math.isnan(rmse([], []))


def test_count_of_zero() -> None:
    # a true count of zero predicted as zero is no error; as 2 it is an error of 2
    assert rmse([0], [0]) == 0.0
    assert rmse([0, 0], [2, 0]) == pytest.approx(math.sqrt(2))
    # MAPE leaves true zeros out: only the 100 -> 90 pair counts
    assert mape([0, 100], [5, 90]) == pytest.approx(10.0)
    assert math.isnan(mape([0, 0], [1, 2]))


def test_mape_is_a_percentage() -> None:
    assert mape([100, 304.8], [120, 300]) == pytest.approx((20.0 + 100 * 4.8 / 304.8) / 2)


def test_r2_by_hand() -> None:
    # mean 8/3, SS_tot = 114/9, SS_res = 10
    assert r2([0, 3, 5], [0, 0, 4]) == pytest.approx(1 - 10 / (114 / 9))
    assert r2([1, 2, 3], [3, 2, 1]) == pytest.approx(-3.0)


def test_r2_on_constant_truth_is_undefined() -> None:
    assert math.isnan(r2([4, 4, 4], [4, 4, 4]))  # even for perfect predictions
    assert math.isnan(r2([4, 4, 4], [1, 2, 3]))
    assert math.isnan(r2([4], [4]))


def test_prf_by_hand() -> None:
    s = list_prf(["Café Ekberg", "Kaffa Roastery", "Fazer"], ["cafe ekberg", "Robert's Coffee"])
    assert (s.precision, s.recall) == (pytest.approx(1 / 2), pytest.approx(1 / 3))
    assert s.f1 == pytest.approx(2 * (1 / 2) * (1 / 3) / (1 / 2 + 1 / 3))


def test_empty_lists() -> None:
    both = list_prf([], [])
    assert (both.precision, both.recall, both.f1) == (1.0, 1.0, 1.0)
    missed = list_prf(["A"], [])
    assert (missed.precision, missed.recall, missed.f1) == (0.0, 0.0, 0.0)
    invented = list_prf([], ["A"])
    assert (invented.precision, invented.recall, invented.f1) == (0.0, 0.0, 0.0)
    assert prf_from_counts(0, 0, 0).f1 == 1.0


def test_duplicate_names_in_a_prediction() -> None:
    # "Subway" twice but true once: one match, one extra name
    s = list_prf(["Subway", "Fazer"], ["Subway", "subway", "Fazer"])
    assert (s.tp, s.fp, s.fn) == (2, 1, 0)
    assert s.precision == pytest.approx(2 / 3) and s.recall == 1.0
    # two true branches of one chain, both listed: both match
    assert match_counts(["Subway", "Subway"], ["Subway", "SUBWAY"]) == (2, 0, 0)


def test_micro_prf_sums_counts_over_lists() -> None:
    # restaurant: tp 1 fp 1 ; bank: fn 1 ; park: nothing -> P 1/2, R 1/2
    s = micro_prf([(["Savotta"], ["Savotta", "Kuu"]), (["Nordea"], []), ([], [])])
    assert (s.precision, s.recall, s.f1) == (0.5, 0.5, 0.5)
    # a name under the wrong type does not match
    assert micro_prf([(["A"], []), ([], ["A"])]).f1 == 0.0
    assert micro_prf([([], []), ([], [])]).f1 == 1.0


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Main St.", "main street"),
        ("5th Ave", "5th Avenue"),
        ("Abbey Rd", "ABBEY ROAD"),
        ("Lönnrotinkatu", "Lonnrotinkatu"),
        ("Café Ekberg", "CAFE EKBERG"),
        ("McDonald's", "McDonalds"),
        ("Ben & Jerry's", "Ben and Jerrys"),
        ("The Corner Bar", "Corner Bar"),
        ("Itä-Pasila", "ita pasila"),
        ("Øresund Blvd", "oresund boulevard"),
    ],
)
def test_names_match(a: str, b: str) -> None:
    assert names_match(a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [("Mannerheimintie", "Mannerheimvägen"), ("Main Street", "Main Road"), ("", ""),
     ("Kaivokatu", "Kaivotie")],
)
def test_names_differ(a: str, b: str) -> None:
    assert not names_match(a, b)


def test_normalise_name_is_idempotent_on_examples() -> None:
    for name in ["Main St.", "Lönnrotinkatu", "The Ben & Jerry's", "  a  b "]:
        key = normalise_name(name)
        assert normalise_name(key) == key


def test_truncated_route_is_not_exact() -> None:
    truncated = ROUTE[:4]
    assert not exact_route(ROUTE, truncated)
    assert not exact_route(ROUTE, [*ROUTE[:-1]])  # missing "red"
    assert not exact_route(ROUTE, [*ROUTE, "turn left"])  # extra step
    assert exact_route(ROUTE, ["BLUE", "Turn Left", "mannerheimintie", "turn right",
                               "Lonnrotinkatu", "Red"])
    # steps after the origin: 5; the truncated prediction gets 3 of them right
    assert step_accuracy(ROUTE, truncated) == pytest.approx(3 / 5)


def test_step_accuracy_by_hand() -> None:
    wrong_turn = ["blue", "turn left", "Mannerheimintie", "turn left", "Lönnrotinkatu", "red"]
    assert step_accuracy(ROUTE, wrong_turn) == pytest.approx(2 / 5)
    assert step_accuracy(ROUTE, ROUTE) == 1.0
    assert step_accuracy(ROUTE, ["blue"]) == 0.0
    assert step_accuracy(ROUTE, []) == 0.0
    # without the origin marker the prediction is compared from its first element
    assert step_accuracy(ROUTE, ROUTE[1:]) == 1.0
    assert not exact_route(ROUTE, ROUTE[1:])
    # a longer prediction scores its correct prefix only
    longer = ["blue", "turn left", "Mannerheimintie", "red", "turn left"]
    assert step_accuracy(ROUTE, longer) == pytest.approx(2 / 5)
    assert step_accuracy(["blue", "turn right", "Main St", "red"],
                         ["blue", "right", "Main Street", "red"]) == 1.0


def test_connectivity_share_and_endpoints() -> None:
    assert connectivity([True, False, False, True]) == 0.5
    assert math.isnan(connectivity([]))
    assert route_endpoints_ok(ROUTE)
    assert not route_endpoints_ok(ROUTE[:-1])
    assert not route_endpoints_ok(["blue"])


def test_registry() -> None:
    for name in ["accuracy", "macro_f1", "rmse", "mae", "mape", "r2", "list_prf", "micro_prf",
                 "exact_route", "step_accuracy", "connectivity"]:
        assert get_metric(name).function is METRICS[name].function
    assert get_metric("rmse").higher_is_better is False
    with pytest.raises(KeyError, match="unknown metric"):
        get_metric("bleu")
    with pytest.raises(ValueError, match="already registered"):
        register_metric("rmse", description="x", higher_is_better=False)(lambda: 0)
