"""Benchmark ``cartoqa score``: parse and score many responses, report the throughput.

Usage::

    .venv/bin/python scripts/bench_score.py [DATASET] [--copies 200]

Each item of DATASET (a folder with items.jsonl; default: a few built-in items) is
repeated ``--copies`` times with three kinds of response: the item's own answer
(``answer_as_text``), the same wrapped in reasoning text, and an unparseable reply. The
script checks the perfect copies score 1.0 and prints items per second.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.scoring import load_items, score_predictions

BUILT_IN: list[dict[str, Any]] = [
    {"task": "mfs", "request": "choice", "options": {"A": "bank", "B": "park", "C": "pharmacy",
                                                     "D": "parking", "E": "cafe"},
     "answer": {"letter": "C"}, "strata": {"category": "symbol"}},
    {"task": "stmf", "request": "presence", "answer": {"present": True}, "strata": {"zoom": 19}},
    {"task": "stmf", "request": "count", "answer": {"count": 12}, "strata": {"zoom": 19}},
    {"task": "stmf", "request": "names", "answer": {"names": ["Café Ekberg", "Fazer"]},
     "strata": {"zoom": 19}},
    {"task": "mtmf", "request": "all",
     "answer": {"types": {t: {"count": i % 3, "names": [f"{t} {j}" for j in range(i % 3)]}
                          for i, t in enumerate(["restaurant", "bank", "park", "ATM"])}},
     "strata": {"zoom": 19}},
    {"task": "rle", "request": "length", "answer": {"value": 523.4, "unit": "m"},
     "strata": {"difficulty": "simple", "unit": "m"}},
    {"task": "mml", "request": "roads", "answer": {"roads": ["Mannerheimintie", "Postikatu"]},
     "strata": {"color": "blue"}},
    {"task": "srn", "request": "route",
     "answer": {"steps": ["blue", "turn right", "Kaivokatu", "continue straight",
                          "Kaisaniemenkatu", "red"]}, "strata": {"n_steps": 2}},
]


def main() -> None:
    """Run the benchmark and print the numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", type=Path, default=None)
    parser.add_argument("--copies", type=int, default=200)
    args = parser.parse_args()
    base = load_items(args.dataset) if args.dataset else BUILT_IN
    items, responses = [], {}
    for copy in range(args.copies):
        for n, item in enumerate(base):
            for kind in ("perfect", "wrapped", "junk"):
                new = {**item, "id": f"{kind}-{copy}-{n}", "strata": {"kind": kind}}
                text = answer_as_text(item)
                if kind == "wrapped":
                    text = f"<think>Let me look at the map.</think>\nI checked the map.\n{text}"
                elif kind == "junk":
                    text = "I'm sorry, I cannot help with that image {[("
                items.append(new)
                responses[new["id"]] = text
    start = time.perf_counter()
    report = score_predictions(items, responses, include_items=False)
    seconds = time.perf_counter() - start
    for key, section in report["sections"].items():
        perfect = section["strata"]["kind"]["perfect"]
        rates = {m: v["all"] for m, v in perfect["metrics"].items()
                 if m not in ("rmse", "mae", "rmse_m", "mae_m", "mape", "r2")}
        assert all(v in (1.0, None) for v in rates.values()), (key, rates)
    print(json.dumps({"items": len(items), "seconds": round(seconds, 2),
                      "items_per_second": round(len(items) / seconds),
                      "invalid": report["n_invalid"]}))


if __name__ == "__main__":
    main()
