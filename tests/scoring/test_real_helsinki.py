"""Parsing and scoring with real names and routes from the bundled Helsinki extract.

The truths come from :mod:`groundtruth` (OSM names with accents, ``&``, brackets and
repeats; shortest routes turned into SRN steps), so the parsers and metrics meet the
names real datasets hold, and connectivity runs on the real road graph.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import networkx as nx
import pytest

from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.scoring import groundtruth_checker, score_predictions
from groundtruth.extracts import resolve_extract
from groundtruth.features import load_features
from groundtruth.graph import load_road_graph
from groundtruth.routing import shortest_route
from groundtruth.turns import route_steps


@pytest.fixture(scope="module")
def graph() -> nx.MultiDiGraph:
    return load_road_graph("helsinki")


def _metrics(report: dict[str, Any], section: str) -> dict[str, Any]:
    return report["sections"][section]["metrics"]


def test_feature_names_round_trip() -> None:
    by_type: dict[str, list[str]] = defaultdict(list)
    for feature in load_features("helsinki"):
        if feature.name:
            by_type[feature.feature_type].append(feature.name)
    assert sum(len(v) for v in by_type.values()) > 300
    items = [{"id": f"n-{i}", "task": "stmf", "request": "names", "answer": {"names": names}}
             for i, names in enumerate(by_type.values())]
    perfect = score_predictions(items, {it["id"]: answer_as_text(it) for it in items})
    assert perfect["n_invalid"] == 0
    assert _metrics(perfect, "stmf/names")["f1"]["all"] == 1.0
    # the same names in capitals, without accents and in reverse order still match
    import unicodedata

    def plain(name: str) -> str:
        return "".join(c for c in unicodedata.normalize("NFKD", name.upper())
                       if not unicodedata.combining(c))

    shouted = {it["id"]: "\n".join(f"- {plain(n)}" for n in reversed(it["answer"]["names"]))
               for it in items}
    assert _metrics(score_predictions(items, shouted), "stmf/names")["f1"]["all"] == 1.0


def test_street_name_pairs(graph: nx.MultiDiGraph) -> None:
    names = sorted({str(d["name"]) for *_, d in graph.edges(data=True) if d.get("name")})
    assert len(names) > 50
    items, preds = [], {}
    styles = ["{a}, {b}", "{b} and {a}", "- {a}\n- {b}", "The marker is at the junction of {a} "
              "and {b}.", "Answer: {b}; {a}"]
    for i, (a, b) in enumerate(zip(names, names[1:] + names[:1], strict=True)):
        items.append({"id": f"j-{i}", "task": "mml", "request": "roads",
                      "answer": {"roads": [a, b]}})
        preds[f"j-{i}"] = styles[i % len(styles)].format(a=a, b=b)
    assert _metrics(score_predictions(items, preds), "mml")["accuracy"]["all"] == 1.0


def test_routes_on_the_real_road_graph(graph: nx.MultiDiGraph) -> None:
    extract = resolve_extract("helsinki")
    rng = random.Random(0)
    nodes = sorted(graph.nodes)
    items: list[dict[str, Any]] = []
    while len(items) < 12:
        origin, destination = rng.sample(nodes, 2)
        if not nx.has_path(graph, origin, destination):
            continue
        steps = route_steps(graph, shortest_route(graph, origin, destination))
        if len(steps) < 6:
            continue
        items.append({
            "id": f"s-{len(items)}", "task": "srn", "request": "route",
            "answer": {"steps": steps}, "strata": {"n_steps": (len(steps) - 2) // 2},
            "provenance": {"extract": "helsinki", "extract_sha256": extract.sha256,
                           "markers": [{"color": "blue", "node": origin},
                                       {"color": "red", "node": destination}]},
        })
    checker, note = groundtruth_checker()
    assert checker is not None, note
    perfect = score_predictions(items, {it["id"]: answer_as_text(it) for it in items},
                                is_connected=checker)
    assert {k: v["all"] for k, v in _metrics(perfect, "srn").items()} == {
        "exact_route": 1.0, "step_accuracy": 1.0, "connectivity": 1.0}
    # cut the last road off every route: no longer exact, and it stops short of red
    truncated = {it["id"]: str([*it["answer"]["steps"][:-3], "red"]) for it in items}
    report = score_predictions(items, truncated, is_connected=checker)
    metrics = _metrics(report, "srn")
    assert metrics["exact_route"]["all"] == 0.0
    assert 0.0 < metrics["step_accuracy"]["all"] < 1.0
    assert metrics["connectivity"]["all"] < 1.0
