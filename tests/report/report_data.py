"""A small synthetic dataset for report tests: the synthetic items of
``helpers.synthetic_dataset`` with map-like provenance (markers, paths, counted
features), one item with two images, and three predictions files (the reference
answers, a flawed model with wrong and invalid answers, and a partial one)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from helpers.synthetic_dataset import write_synthetic_dataset
from PIL import Image

from cartoqa.declarations.answer_text import answer_as_text

#: Image size of the synthetic items (the overlay is drawn in these pixels).
SIZE = (320, 180)
#: Item with two images.
MULTI_ID = "mml-0001"

#: Wrong (but readable) responses per task/request, and an unreadable one.
WRONG = {
    ("mfs", "choice"): "Answer: A",
    ("stmf", "presence"): "No",
    ("stmf", "count"): "Answer: 7",
    ("stmf", "names"): "- Somewhere Else",
    ("mtmf", "all"): '```json\n{"restaurant": {"count": 5, "names": []}}\n```',
    ("rle", "length"): "Answer: 2000 m",
    ("mml", "roads"): "- Kaivokatu\n- Mannerheimintie",
    ("srn", "route"): '["blue", "turn right", "Mannerheimintie", "red"]',
}
INVALID = "I'm sorry, I cannot tell from this image."


def read_items(root: Path) -> list[dict[str, Any]]:
    """The items of a dataset folder."""
    return [json.loads(line) for line in (root / "items.jsonl").read_text("utf-8").splitlines()]


def _augment(item: dict[str, Any], root: Path) -> None:
    prov = item["provenance"]
    task = item["task"]
    if task in ("rle", "srn"):
        lat, lon = prov["center"]
        prov["path"] = [[lat - 0.0002, lon - 0.0004], [lat, lon], [lat + 0.0002, lon]]
        prov["markers"] = [{"color": "blue", "lat": lat - 0.0002, "lon": lon - 0.0004,
                            "px": [100.0, 120.0]},
                           {"color": "blue" if task == "rle" else "red",
                            "lat": lat + 0.0002, "lon": lon, "px": [160.0, 60.0]}]
    if task == "mml":
        prov["markers"] = [{"color": "blue", "lat": prov["center"][0],
                            "lon": prov["center"][1], "px": [160.0, 90.0]}]
    if task == "stmf":
        names = item["answer"].get("names") or ["Café Ekberg"]
        prov["counted"] = [{"type": item["strata"]["feature_type"], "name": n,
                            "px": [60.0 + 40 * i, 50.0]} for i, n in enumerate(names)]
    if item["id"] == MULTI_ID:
        second = "images/mml-0001-b.png"
        Image.new("RGB", SIZE, (250, 200, 40)).save(root / second)
        item["images"] = [item["image"], second]


def write_report_dataset(root: Path, *, copies: int = 2) -> Path:
    """Write the dataset and return its folder."""
    write_synthetic_dataset(root, copies=copies, image_size=SIZE)
    items = read_items(root)
    for item in items:
        _augment(item, root)
    (root / "items.jsonl").write_text(
        "".join(json.dumps(it, ensure_ascii=False) + "\n" for it in items), encoding="utf-8")
    return root


def write_predictions(path: Path, responses: dict[str, str]) -> Path:
    """Write a predictions file."""
    path.write_text("".join(json.dumps({"id": k, "response": v}, ensure_ascii=False) + "\n"
                            for k, v in responses.items()), encoding="utf-8")
    return path


def reference_responses(items: list[dict[str, Any]]) -> dict[str, str]:
    """The reference answers (all correct)."""
    return {it["id"]: answer_as_text(it) for it in items}


def flawed_responses(items: list[dict[str, Any]]) -> dict[str, str]:
    """Per task and request, the first item right, the second wrong, the third invalid."""
    out = {}
    seen: dict[tuple[str, str], int] = {}
    for it in items:
        key = (it["task"], it["request"])
        n = seen[key] = seen.get(key, -1) + 1
        out[it["id"]] = [answer_as_text(it), WRONG[key], INVALID][n % 3]
    return out
