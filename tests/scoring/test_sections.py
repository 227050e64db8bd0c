"""Section metrics in both variants (invalid counted as wrong / valid only), by hand."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from cartoqa.scoring import score_predictions


def _item(item_id: str, task: str, request: str, answer: dict[str, Any],
          strata: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    return {"id": item_id, "task": task, "request": request, "answer": answer,
            "strata": strata or {}, **extra}


def _metric(report: Mapping[str, Any], section: str, name: str) -> tuple[Any, Any]:
    m = report["sections"][section]["metrics"][name]
    return m["all"], m["valid_only"]


def test_mfs_accuracy_both_variants_and_strata() -> None:
    items = [_item(f"m{i}", "mfs", "choice", {"letter": letter}, {"category": cat})
             for i, (letter, cat) in enumerate([("A", "symbol"), ("B", "symbol"), ("C", "line"),
                                                ("D", "area")])]
    preds = {"m0": "Answer: A", "m1": "Answer: C", "m2": "(c)", "m3": "no idea"}
    report = score_predictions(items, preds)
    section = report["sections"]["mfs"]
    assert (section["n"], section["n_valid"], section["n_invalid"]) == (4, 3, 1)
    assert _metric(report, "mfs", "accuracy") == (pytest.approx(2 / 4), pytest.approx(2 / 3))
    acc = section["metrics"]["accuracy"]
    assert (acc["n"], acc["n_valid"], acc["n_invalid"]) == (4, 3, 1)
    symbol = section["strata"]["category"]["symbol"]["metrics"]["accuracy"]
    assert (symbol["all"], symbol["valid_only"]) == (0.5, 0.5)
    area = section["strata"]["category"]["area"]
    assert area["n_invalid"] == 1 and area["metrics"]["accuracy"]["valid_only"] is None
    assert section["invalid_reasons"] == {"no option letter found": 1}


def test_presence_accuracy_and_macro_f1() -> None:
    items = [_item(f"p{i}", "stmf", "presence", {"present": v})
             for i, v in enumerate([True, True, False, False])]
    preds = {"p0": "Yes", "p1": "No", "p2": "no", "p3": "hmm"}
    report = score_predictions(items, preds)
    assert _metric(report, "stmf/presence", "accuracy") == (0.5, pytest.approx(2 / 3))
    # all: yes F1 2/3, no F1 1/2 -> 7/12 ; valid: yes TP1 FN1 -> 2/3, no TP1 FP1 -> 2/3
    assert _metric(report, "stmf/presence", "macro_f1") == (pytest.approx(7 / 12),
                                                            pytest.approx(2 / 3))


def test_count_regression_both_variants() -> None:
    items = [_item(f"c{i}", "stmf", "count", {"count": v}) for i, v in enumerate([0, 3, 5])]
    preds = {"c0": "0", "c1": "unclear", "c2": "Answer: 4"}
    report = score_predictions(items, preds)
    # all: the invalid answer counts as a prediction of 0 -> errors 0, 3, 1
    assert _metric(report, "stmf/count", "rmse") == (pytest.approx(math.sqrt(10 / 3)),
                                                     pytest.approx(math.sqrt(1 / 2)))
    assert _metric(report, "stmf/count", "mae") == (pytest.approx(4 / 3), pytest.approx(1 / 2))
    assert _metric(report, "stmf/count", "r2") == (pytest.approx(1 - 10 / (114 / 9)),
                                                   pytest.approx(1 - 1 / 12.5))
    assert _metric(report, "stmf/count", "accuracy") == (pytest.approx(1 / 3), 0.5)


def test_count_r2_on_constant_truth_is_null_with_a_note() -> None:
    items = [_item(f"c{i}", "stmf", "count", {"count": 2}) for i in range(3)]
    report = score_predictions(items, {"c0": "2", "c1": "2", "c2": "3"})
    assert _metric(report, "stmf/count", "r2") == (None, None)
    assert any("every true value is the same" in n
               for n in report["sections"]["stmf/count"]["notes"])


def test_names_prf_averaged_over_items() -> None:
    items = [_item("n0", "stmf", "names", {"names": ["Café Ekberg", "Fazer"]}),
             _item("n1", "stmf", "names", {"names": []}),
             _item("n2", "stmf", "names", {"names": ["Main Street Diner"]})]
    preds = {"n0": "- cafe ekberg\n- Cafe Ekberg\n- Robert's", "n1": "None", "n2": ""}
    report = score_predictions(items, preds)
    # n0: tp 1, fp 2, fn 1 -> P 1/3, R 1/2, F1 0.4 ; n1: 1, 1, 1 ; n2 invalid
    assert _metric(report, "stmf/names", "precision") == (
        pytest.approx((1 / 3 + 1) / 3), pytest.approx((1 / 3 + 1) / 2))
    assert _metric(report, "stmf/names", "recall") == (pytest.approx(0.5), pytest.approx(0.75))
    assert _metric(report, "stmf/names", "f1") == (pytest.approx(1.4 / 3), pytest.approx(0.7))


def _types(counts: Sequence[int], names: Sequence[Sequence[str]]) -> dict[str, Any]:
    keys = ["restaurant", "bank", "park"]
    return {k: {"count": c, "names": list(n)} for k, c, n in zip(keys, counts, names,
                                                                strict=True)}


def test_mtmf_per_map_metrics_averaged_over_maps() -> None:
    items = [
        _item("t0", "mtmf", "all", {"types": _types([2, 1, 0], [["Savotta", "Kuu"], ["Nordea"],
                                                              []])}),
        _item("t1", "mtmf", "all", {"types": _types([1, 1, 1], [["A"], [], []])}),
        _item("t2", "mtmf", "all", {"types": _types([0, 3, 0], [[], [], []])}),
    ]
    preds = {
        "t0": '{"restaurant": {"count": 3, "names": ["Savotta", "X"]}, "bank": 1, "park": 0}',
        "t1": '```json\n{"restaurant": {"count": 1, "names": ["A"]}, "bank": 1, "park": 1}\n```',
        "t2": "I cannot tell",
    }
    report = score_predictions(items, preds)
    # t0: errors 1,0,0 -> rmse sqrt(1/3); truth mean 1, SS_tot 2, SS_res 1 -> r2 0.5
    #     names: restaurant tp1 fp1 fn1, bank fn1 -> P 1/2, R 1/3, F1 0.4
    # t1: rmse 0; r2 undefined (constant truth); P=R=F1=1
    # t2 invalid -> zeros: rmse sqrt(3), r2 = 1 - 9/6 = -0.5; P=R=F1 0 in "all"
    assert _metric(report, "mtmf", "rmse") == (
        pytest.approx((math.sqrt(1 / 3) + 0 + math.sqrt(3)) / 3),
        pytest.approx(math.sqrt(1 / 3) / 2))
    assert _metric(report, "mtmf", "r2") == (pytest.approx((0.5 - 0.5) / 2), pytest.approx(0.5))
    assert _metric(report, "mtmf", "precision") == (pytest.approx(1.5 / 3), pytest.approx(0.75))
    assert _metric(report, "mtmf", "recall") == (pytest.approx((1 / 3 + 1) / 3),
                                                 pytest.approx((1 / 3 + 1) / 2))
    assert _metric(report, "mtmf", "f1") == (pytest.approx(1.4 / 3), pytest.approx(0.7))
    assert any("r2 undefined on 1 map" in n for n in report["sections"]["mtmf"]["notes"])


def test_rle_metrics_in_metres_with_units_and_difficulty() -> None:
    items = [
        _item("r0", "rle", "length", {"value": 100.0, "unit": "m"},
              {"difficulty": "simple", "unit": "m"}),
        _item("r1", "rle", "length", {"value": 1000.0, "unit": "ft"},
              {"difficulty": "complex", "unit": "ft"}),
        _item("r2", "rle", "length", {"value": 50.0, "unit": "m"},
              {"difficulty": "complex", "unit": "m"}),
    ]
    preds = {"r0": "120 m", "r1": "Answer: 300 meters", "r2": "far away"}
    report = score_predictions(items, preds)
    e0, e1 = 20.0, 304.8 - 300.0
    assert _metric(report, "rle", "rmse_m") == (
        pytest.approx(math.sqrt((e0**2 + e1**2 + 50.0**2) / 3)),
        pytest.approx(math.sqrt((e0**2 + e1**2) / 2)))
    assert _metric(report, "rle", "mae_m") == (pytest.approx((e0 + e1 + 50) / 3),
                                               pytest.approx((e0 + e1) / 2))
    assert _metric(report, "rle", "mape") == (
        pytest.approx((20 + 100 * e1 / 304.8 + 100) / 3),
        pytest.approx((20 + 100 * e1 / 304.8) / 2))
    strata = report["sections"]["rle"]["strata"]
    assert set(strata) == {"difficulty", "unit", "difficulty+unit"}
    assert strata["unit"]["ft"]["metrics"]["mae_m"]["all"] == pytest.approx(e1)
    assert strata["difficulty+unit"]["complex/m"]["n_invalid"] == 1
    row = next(r for r in report["items"] if r["id"] == "r1")
    assert row["measures"]["predicted"] == pytest.approx(300 / 0.3048)  # in the item's unit
    assert row["measures"]["unit"] == "ft"


def test_mml_any_order_and_normalised() -> None:
    items = [_item(f"j{i}", "mml", "roads", {"roads": ["Main Street", "Lönnrotinkatu"]},
                   {"color": c}) for i, c in enumerate(["blue", "red", "red", "blue"])]
    preds = {"j0": "lonnrotinkatu and Main St.", "j1": "Main Street", "j2": "",
             "j3": "Main Street, Lönnrotinkatu, Kaivokatu"}
    report = score_predictions(items, preds)
    assert _metric(report, "mml", "accuracy") == (0.25, pytest.approx(1 / 3))
    assert report["sections"]["mml"]["strata"]["color"]["blue"]["metrics"]["accuracy"]["all"] == 0.5


ROUTE = ["blue", "turn left", "A Street", "turn right", "B Road", "red"]


def test_srn_route_metrics_with_a_checker() -> None:
    items = [_item(f"s{i}", "srn", "route", {"steps": ROUTE}, {"n_steps": 2}) for i in range(4)]
    preds = {
        "s0": "[blue, turn left, A St, turn right, B Rd, red]",
        "s1": "[blue, turn left, A Street, red]",  # truncated
        "s2": "[blue, turn right, A Street, turn right, B Road, red]",
        "s3": "",
    }
    seen: list[list[str]] = []

    def is_connected(item: Mapping[str, Any], steps: Sequence[str]) -> bool:
        seen.append(list(steps))
        return len(steps) == 6

    report = score_predictions(items, preds, is_connected=is_connected)
    assert _metric(report, "srn", "exact_route") == (0.25, pytest.approx(1 / 3))
    # step accuracy: 1, 2/5, 0 ; invalid 0
    assert _metric(report, "srn", "step_accuracy") == (pytest.approx(1.4 / 4),
                                                       pytest.approx(1.4 / 3))
    # connected: s0 yes, s1 no, s2 yes (a wrong but connected route); invalid no
    assert _metric(report, "srn", "connectivity") == (0.5, pytest.approx(2 / 3))
    assert len(seen) == 3


def test_srn_routes_not_ending_at_the_markers_are_not_connected() -> None:
    items = [_item("s0", "srn", "route", {"steps": ROUTE})]
    report = score_predictions(items, {"s0": "[turn left, A Street, red]"},
                               is_connected=lambda item, steps: True)
    assert _metric(report, "srn", "connectivity") == (0.0, 0.0)


def test_srn_without_a_checker_reports_null_connectivity() -> None:
    items = [_item("s0", "srn", "route", {"steps": ROUTE})]
    report = score_predictions(items, {"s0": str(ROUTE)}, connectivity_note="no graph")
    assert _metric(report, "srn", "connectivity") == (None, None)
    assert _metric(report, "srn", "exact_route") == (1.0, 1.0)
    assert "no graph" in report["sections"]["srn"]["notes"]


def test_unknown_task_and_stray_predictions_are_reported() -> None:
    items = [_item("x0", "maze", "solve", {}), _item("m0", "mfs", "choice", {"letter": "A"})]
    report = score_predictions(items, {"m0": "A", "zzz": "B"})
    assert report["unscored_item_ids"] == ["x0"]
    assert report["n_unknown_predictions"] == 1 and report["unknown_prediction_ids"] == ["zzz"]
    assert report["n_missing"] == 1


def test_a_malformed_answer_is_a_user_error() -> None:
    from cartoqa.errors import CartoqaError

    items = [_item("c0", "stmf", "count", {"count": "many"})]
    with pytest.raises(CartoqaError, match="malformed stmf/count answer"):
        score_predictions(items, {"c0": "3"})
