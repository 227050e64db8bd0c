"""A small synthetic dataset for the scoring tests, written in place.

The items follow docs/dataset-format.md and cover every task and STMF request, with
strata; each has a tiny PNG written by PIL. The SRN items come from the hand-made
``assets/osm/grid.osm`` road network (routes checked by hand against its comment).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from PIL import Image

from groundtruth.assets import asset_path

GRID = asset_path("osm", "grid.osm")
OPTIONS = {"A": "pharmacy", "B": "bank", "C": "park", "D": "parking", "E": "bus stop"}
TYPES = ("restaurant", "coffee shop", "bank", "park", "bus stop")


def _types(counts: dict[str, int], names: dict[str, list[str]]) -> dict[str, Any]:
    return {t: {"count": counts.get(t, 0), "names": names.get(t, [])} for t in TYPES}


def _srn(idx: int, origin: int, destination: int, steps: list[str], zoom: int) -> dict[str, Any]:
    sha = hashlib.sha256(GRID.read_bytes()).hexdigest()
    return {
        "id": f"srn-{idx:04d}",
        "task": "srn",
        "request": "route",
        "options": None,
        "answer": {"steps": steps},
        "strata": {"zoom": zoom, "n_steps": sum(1 for s in steps[1:-1:2])},
        "provenance": {
            "extract": "grid.osm",
            "extract_sha256": sha,
            "seed": 0,
            "zoom": zoom,
            "markers": [
                {"color": "blue", "lat": 0.0, "lon": 0.0, "px": [0, 0], "node": origin},
                {"color": "red", "lat": 0.0, "lon": 0.0, "px": [0, 0], "node": destination},
            ],
        },
    }


def make_items() -> list[dict[str, Any]]:
    """The synthetic items, sorted by id."""
    items: list[dict[str, Any]] = []
    for i, (letter, category) in enumerate([("C", "area"), ("A", "symbol"), ("E", "symbol"),
                                            ("D", "line")]):
        items.append({"id": f"mfs-{i:04d}", "task": "mfs", "request": "choice",
                      "options": dict(OPTIONS), "answer": {"letter": letter,
                                                           "label": OPTIONS[letter]},
                      "strata": {"category": category, "osm_class": "x=y"}})
    for i, present in enumerate([True, False, True]):
        items.append({"id": f"stmf-p-{i:04d}", "task": "stmf", "request": "presence",
                      "options": None, "answer": {"present": present},
                      "strata": {"feature_type": "pharmacy", "zoom": 19}})
    for i, count in enumerate([0, 3, 1204]):
        items.append({"id": f"stmf-c-{i:04d}", "task": "stmf", "request": "count",
                      "options": None, "answer": {"count": count},
                      "strata": {"feature_type": "restaurant", "zoom": 18 + i % 2}})
    for i, names in enumerate([["Café Ekberg", "Kaffa Roastery"], [], ["Main St. Diner"]]):
        items.append({"id": f"stmf-n-{i:04d}", "task": "stmf", "request": "names",
                      "options": None, "answer": {"names": names, "unnamed": 1},
                      "strata": {"feature_type": "coffee shop", "zoom": 19}})
    items.append({"id": "mtmf-0000", "task": "mtmf", "request": "all", "options": None,
                  "answer": {"types": _types({"restaurant": 2, "bank": 1, "bus stop": 4},
                                             {"restaurant": ["Savotta", "Ravintola Kuu"],
                                              "bank": ["Nordea"]})},
                  "strata": {"zoom": 19}})
    items.append({"id": "mtmf-0001", "task": "mtmf", "request": "all", "options": None,
                  "answer": {"types": _types({"coffee shop": 1, "park": 2},
                                             {"coffee shop": ["Fazer Café"],
                                              "park": ["Esplanadi"]})},
                  "strata": {"zoom": 18}})
    lengths = [(523.4, "m", "simple"), (1000.0, "ft", "complex"), (87.0, "m", "complex")]
    for i, (value, unit, difficulty) in enumerate(lengths):
        items.append({"id": f"rle-{i:04d}", "task": "rle", "request": "length", "options": None,
                      "answer": {"value": value, "unit": unit},
                      "strata": {"difficulty": difficulty, "unit": unit, "zoom": 17 + i}})
    for i, (roads, color) in enumerate([(["Mannerheimintie", "Lönnrotinkatu"], "blue"),
                                        (["Main Street", "5th Avenue"], "red")]):
        items.append({"id": f"mml-{i:04d}", "task": "mml", "request": "roads", "options": None,
                      "answer": {"roads": roads}, "strata": {"color": color, "zoom": 18}})
    items.append(_srn(0, 21, 23, ["blue", "turn right", "Middle Street", "red"], 18))
    items.append(_srn(1, 11, 33, ["blue", "continue straight", "West Avenue", "turn right",
                                  "North Street", "red"], 17))
    for item in items:
        item["image"] = f"images/{item['id']}.png"
        item["system_prompt"] = "You are an expert map reader."
        item["question"] = f"Question for {item['id']}"
        item.setdefault("provenance", {"extract": "synthetic", "seed": 0})
    return sorted(items, key=lambda it: it["id"])


def write_dataset(folder: Path, items: list[dict[str, Any]]) -> Path:
    """Write ``items.jsonl``, tiny PNGs and a manifest into ``folder``."""
    (folder / "images").mkdir(parents=True, exist_ok=True)
    for n, item in enumerate(items):
        Image.new("RGB", (4, 4), (n % 256, 40, 200)).save(folder / item["image"])
    with (folder / "items.jsonl").open("w", encoding="utf-8") as fh:
        for item in items:
            fh.write(json.dumps(item, ensure_ascii=False) + "\n")
    counts: dict[str, int] = {}
    for item in items:
        counts[item["task"]] = counts.get(item["task"], 0) + 1
    (folder / "manifest.json").write_text(json.dumps({"counts": counts}), encoding="utf-8")
    return folder


def write_predictions(path: Path, responses: dict[str, str]) -> Path:
    """Write a predictions JSONL file."""
    with path.open("w", encoding="utf-8") as fh:
        for item_id, text in responses.items():
            fh.write(json.dumps({"id": item_id, "response": text}, ensure_ascii=False) + "\n")
    return path
