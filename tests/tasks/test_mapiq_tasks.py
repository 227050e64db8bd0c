"""Each MapIQ task's answers on a hand-made five-state map.

    WA --- ID          classes: WA 5, OR 5, ID 5 (West)
     \\   /                     TX 1, OK 3     (South)
      OR        TX --- OK      legend: 1–2, 3–4, 5–6, 7–8, 9–10

By hand: West is all class 5 (range 5 to 5, values 9–10) and forms a class-5 cluster
of three; South runs from class 1 to class 3 (values 1–6) and has no cluster; the
West's mean class (5) is clearly above the South's (2).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cartoqa.tasks.mapiq import task_modules
from cartoqa.tasks.mapiq.common import NOTA, MapContext
from groundtruth.thematic.classification import Classification

CLASSES = {"WA": 5, "OR": 5, "ID": 5, "TX": 1, "OK": 3}
ZONES = {"WA": "West", "OR": "West", "ID": "West", "TX": "South", "OK": "South"}
ADJ = {"WA": frozenset({"OR", "ID"}), "OR": frozenset({"WA", "ID"}),
       "ID": frozenset({"WA", "OR"}), "TX": frozenset({"OK"}), "OK": frozenset({"TX"})}
BOUNDS = ((1.0, 2.0), (3.0, 4.0), (5.0, 6.0), (7.0, 8.0), (9.0, 10.0))
LABELS = ("1–2", "3–4", "5–6", "7–8", "9–10")

# Hand-computed tables.
EXTREMES = {(None, "highest"): ["ID", "OR", "WA"], (None, "lowest"): ["TX"],
            ("West", "highest"): ["ID", "OR", "WA"], ("West", "lowest"): ["ID", "OR", "WA"],
            ("South", "highest"): ["OK"], ("South", "lowest"): ["TX"]}
CLUSTERED = {(None, True): ["ID", "OR", "WA"], (None, False): [],
             ("West", True): ["ID", "OR", "WA"], ("West", False): [],
             ("South", True): [], ("South", False): []}
ZONE_RANGE = {"West": (5, 5), "South": (1, 3)}
ZONE_VALUES = {"West": [9.0, 10.0], "South": [1.0, 6.0]}


def _ctx(variation: str = "baseline", map_type: str = "choropleth") -> MapContext:
    c = Classification(dict(CLASSES), BOUNDS, LABELS, BOUNDS)
    return MapContext(map_type, variation, "Test", c, dict(ZONES), ADJ)


def _chosen(q, key: str):  # type: ignore[no-untyped-def]
    return q.details.get(key)


def _letters_text(q) -> list[str]:  # type: ignore[no-untyped-def]
    return [q.options[x] for x in q.answer["letters"]]


def _check(task: str, q, ctx: MapContext) -> None:  # type: ignore[no-untyped-def]
    d = q.details
    if task == "mapiq_rv":
        if q.request == "binary":
            assert q.answer["value"] == (CLASSES[d["state"]] == d["class"])
        elif q.request in ("mcq", "single"):
            cls = CLASSES[d["state"]]
            want = LABELS[cls - 1] if ctx.legend else f"Class {cls}"
            if q.request == "mcq":
                offered = want in q.options.values()
                assert _letters_text(q) == ([want] if offered else [NOTA])
            else:
                numbers = list(BOUNDS[cls - 1]) if ctx.legend else [float(cls)]
                assert q.answer == {"text": want, "numbers": numbers}
        else:
            assert q.answer["items"] == sorted(s for s in CLASSES if ZONES[s] == d["zone"]
                                               and CLASSES[s] == d["class"])
    elif task == "mapiq_ppc":
        if q.request == "binary":
            a, b = d["states"]
            want = CLASSES[a] > CLASSES[b] if d["direction"] == "higher" else \
                CLASSES[a] < CLASSES[b]
            assert q.answer["value"] == want
        elif q.request == "mcq":
            higher = {s for s in CLASSES if CLASSES[s] > CLASSES[d["state"]]}
            chosen = set(_letters_text(q))
            assert chosen == (higher & set(q.options.values()) or {NOTA})
        else:
            assert q.answer["items"] == sorted(s for s in CLASSES if ZONES[s] == d["zone"]
                                               and CLASSES[s] > CLASSES[d["state"]])
    elif task == "mapiq_se":
        ext = EXTREMES[(d["zone"], d["direction"])]
        if q.request == "binary":
            assert q.answer["value"] == (d["state"] in ext)
        elif q.request == "mcq":
            assert set(_letters_text(q)) == (set(ext) & set(q.options.values()) or {NOTA})
        else:
            assert q.answer["items"] == ext
    elif task == "mapiq_sc":
        got = CLUSTERED[(d["zone"], d["high"])]
        if q.request == "binary":
            assert q.answer["value"] == bool(got)
        elif q.request == "mcq":
            assert set(_letters_text(q)) == (set(got) & set(q.options.values()) or {NOTA})
        else:
            assert q.answer["items"] == got and got
    elif task == "mapiq_dr":
        lo, hi = ZONE_RANGE[d["zone"]]
        if q.request == "binary":
            assert q.answer["value"] == (tuple(d["range"]) == (lo, hi))
        elif q.request == "mcq":
            want = f"{ctx.class_text(lo)} to {ctx.class_text(hi)}"
            assert _letters_text(q) == ([want] if want in q.options.values() else [NOTA])
        elif ctx.legend:
            assert q.answer["numbers"] == ZONE_VALUES[d["zone"]]
        else:
            assert q.answer["numbers"] == [float(lo), float(hi)]
    elif task == "mapiq_rc":
        if q.request == "binary":
            a, b = d["zones"]
            west_first = a == "West"
            assert q.answer["value"] == (west_first == (d["direction"] == "higher"))
        elif q.request == "mcq":
            # "higher than the South": West; "lower than the West": South; else NOTA
            beyond = {("higher", "South"): ["West zone"], ("lower", "West"): ["South zone"]}
            assert _letters_text(q) == beyond.get((d["direction"], d["zone"]), [NOTA])
        else:
            assert (d["direction"], d["zone"], q.answer["items"]) in (
                ("lower", "West", ["South"]), ("higher", "South", ["West"]))


@pytest.mark.parametrize("variation", ["baseline", "no_legend"])
def test_every_task_answers_the_hand_made_map(variation: str) -> None:
    ctx = _ctx(variation)
    seen: Counter[tuple[str, str]] = Counter()
    for seed in range(40):
        rng = random.Random(seed)
        for module in task_modules():
            for q in module.make_questions(ctx, rng, Counter()):
                assert q.request in [r.name for r in module.SPEC.requests]
                _check(module.SPEC.name, q, ctx)
                seen[(module.SPEC.name, q.request)] += 1
    assert len(seen) == 19  # every template was asked and checked


def test_no_legend_names_classes_by_number() -> None:
    ctx = _ctx("no_legend")
    assert ctx.class_text(3) == "Class 3" and ctx.class_numbers(3) == [3.0]
    assert _ctx().class_text(3) == "5–6"


def test_cartogram_clusters_use_the_context_adjacency() -> None:
    # Same classes, but OR no longer touches WA or ID: no class-5 cluster anywhere.
    ctx = _ctx(map_type="cartogram")
    ctx.adjacency = {**ADJ, "OR": frozenset(), "WA": frozenset({"ID"}),
                     "ID": frozenset({"WA"})}
    from cartoqa.tasks.mapiq import spatial_clusters

    for seed in range(10):
        for q in spatial_clusters.make_questions(ctx, random.Random(seed), Counter()):
            if q.request == "binary":
                assert q.answer["value"] is False
