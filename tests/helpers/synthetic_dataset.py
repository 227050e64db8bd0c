"""Write a small synthetic cartoqa dataset folder (docs/dataset-format.md) for tests.

The items cover all six tasks and every STMF request; each item has its own tiny PNG
(distinct pixels, so image bytes identify the item). Nothing is rendered from OSM: use
this where a test needs the dataset *format*, not real maps.

Usage::

    from helpers.synthetic_dataset import write_synthetic_dataset
    root = write_synthetic_dataset(tmp_path / "ds", copies=2)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PIL import Image

SYSTEM_PROMPT = "You are an expert map reader. Answer from the map image only."

ATTRIBUTION = "© OpenStreetMap contributors"


def _base_items() -> list[dict[str, Any]]:
    """One item per task/request, without id and image (added per copy)."""
    return [
        {
            "task": "mfs",
            "request": "choice",
            "question": (
                "Which map feature is shown?\nA. pharmacy\nB. bank\nC. park\nD. river\n"
                "E. bus stop\nAnswer with one letter."
            ),
            "options": {"A": "pharmacy", "B": "bank", "C": "park", "D": "river", "E": "bus stop"},
            "answer": {"letter": "C", "label": "park"},
            "strata": {"category": "area", "osm_class": "leisure=park"},
        },
        {
            "task": "stmf",
            "request": "presence",
            "question": "Is there a pharmacy on this map? Answer yes or no.",
            "options": None,
            "answer": {"present": True},
            "strata": {"feature_type": "pharmacy", "zoom": 19},
        },
        {
            "task": "stmf",
            "request": "count",
            "question": "How many restaurants are on this map? Answer with a number.",
            "options": None,
            "answer": {"count": 3},
            "strata": {"feature_type": "restaurant", "zoom": 19},
        },
        {
            "task": "stmf",
            "request": "names",
            "question": "List the names of the coffee shops on this map, one per line.",
            "options": None,
            "answer": {"names": ["Café Ekberg", "Kaffa Roastery"], "unnamed": 1},
            "strata": {"feature_type": "coffee shop", "zoom": 19},
        },
        {
            "task": "mtmf",
            "request": "all",
            "question": "For each feature type, give the count and names as JSON.",
            "options": None,
            "answer": {
                "types": {
                    "restaurant": {"count": 2, "names": ["Savotta", "Ravintola Kuu"]},
                    "bank": {"count": 1, "names": ["Nordea"]},
                    "park": {"count": 0, "names": []},
                }
            },
            "strata": {"zoom": 19},
        },
        {
            "task": "rle",
            "request": "length",
            "question": "How long is the blue path in metres? Answer with a number and unit.",
            "options": None,
            "answer": {"value": 523.4, "unit": "m"},
            "strata": {"difficulty": "simple", "unit": "m", "zoom": 17},
        },
        {
            "task": "mml",
            "request": "roads",
            "question": "Name the two roads that meet at the blue marker.",
            "options": None,
            "answer": {"roads": ["Mannerheimintie", "Aleksanterinkatu"]},
            "strata": {"color": "blue", "zoom": 18},
        },
        {
            "task": "srn",
            "request": "route",
            "question": "Give the shortest drivable route from blue to red as a list.",
            "options": None,
            "answer": {
                "steps": [
                    "blue", "turn left", "Mannerheimintie", "turn right", "Lönnrotinkatu", "red"
                ]
            },
            "strata": {"zoom": 18, "n_steps": 2},
        },
    ]


def _write_png(path: Path, index: int, size: tuple[int, int]) -> None:
    """Write a tiny PNG whose pixels depend on ``index`` (distinct bytes per item)."""
    img = Image.new("RGB", size, ((index * 37) % 256, (index * 91) % 256, (index * 53) % 256))
    img.putpixel((index % size[0], (index // size[0]) % size[1]), (255, 255, 255))
    img.save(path, format="PNG")


def synthetic_items(*, copies: int = 1) -> list[dict[str, Any]]:
    """Return the synthetic items (with ids and image paths), sorted by id.

    Parameters
    ----------
    copies : int
        How many items of each task/request to make.

    Returns
    -------
    list of dict
        Items in the dataset format.
    """
    items: list[dict[str, Any]] = []
    counters: dict[str, int] = {}
    for copy in range(copies):
        for base in _base_items():
            task = base["task"]
            n = counters.get(task, 0)
            counters[task] = n + 1
            item_id = f"{task}-{n:04d}"
            item = {
                "id": item_id,
                "task": task,
                "request": base["request"],
                "image": f"images/{item_id}.png",
                "system_prompt": SYSTEM_PROMPT,
                "question": base["question"],
                "options": base["options"],
                "answer": base["answer"],
                "strata": base["strata"],
                "provenance": {
                    "extract": "synthetic",
                    "extract_sha256": "0" * 64,
                    "seed": copy,
                    "zoom": base["strata"].get("zoom", 19),
                    "center": [60.1675, 24.9425],
                    "bounds": [60.165, 24.93, 60.17, 24.955],
                },
            }
            items.append(item)
    items.sort(key=lambda it: it["id"])
    return items


def _stratum_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def count_items(items: list[dict[str, Any]]) -> dict[str, Any]:
    """Count items per task, request and stratum value, as ``manifest.json`` does.

    Parameters
    ----------
    items : list of dict
        Items.

    Returns
    -------
    dict
        ``{"total", "by_task", "by_request", "by_stratum"}`` with sorted keys.
    """
    by_task: dict[str, int] = {}
    by_request: dict[str, dict[str, int]] = {}
    by_stratum: dict[str, dict[str, dict[str, int]]] = {}
    for item in items:
        task = str(item["task"])
        by_task[task] = by_task.get(task, 0) + 1
        requests = by_request.setdefault(task, {})
        requests[str(item["request"])] = requests.get(str(item["request"]), 0) + 1
        for key, value in item["strata"].items():
            values = by_stratum.setdefault(task, {}).setdefault(str(key), {})
            text = _stratum_value(value)
            values[text] = values.get(text, 0) + 1

    def ordered(d: dict[str, Any]) -> dict[str, Any]:
        return {k: ordered(v) if isinstance(v, dict) else v for k, v in sorted(d.items())}

    return {"total": len(items), "by_task": ordered(by_task),
            "by_request": ordered(by_request), "by_stratum": ordered(by_stratum)}


def write_synthetic_dataset(
    root: Path, *, copies: int = 1, image_size: tuple[int, int] = (8, 6)
) -> Path:
    """Write a synthetic dataset folder and return its path.

    Parameters
    ----------
    root : pathlib.Path
        Folder to create (must not hold a dataset already).
    copies : int
        How many items of each task/request (8 items per copy).
    image_size : tuple of int
        Width and height of each PNG in pixels.

    Returns
    -------
    pathlib.Path
        ``root``, now holding ``items.jsonl``, ``images/``, ``manifest.json`` and
        ``README.md``; it passes ``cartoqa validate`` (the manifest's
        ``image_sizes`` record the tiny size).
    """
    return write_items_dataset(root, synthetic_items(copies=copies), image_size=image_size)


def spec_items() -> list[dict[str, Any]]:
    """Return one item per request of every declared task, from the declarations' samples.

    Unlike :func:`synthetic_items` (a fixed list), these follow the task registry: a
    newly declared task gets its items here without editing this file.

    Returns
    -------
    list of dict
        Items in the dataset format, sorted by id.
    """
    from cartoqa.declarations.registry import task_specs

    items: list[dict[str, Any]] = []
    for spec in task_specs():
        for n, request in enumerate(spec.requests):
            item_id = f"{spec.name}-{n:04d}"
            strata = dict(spec.sample_strata)
            items.append({
                "id": item_id,
                "task": spec.name,
                "request": request.name,
                "image": f"images/{item_id}.png",
                "system_prompt": SYSTEM_PROMPT,
                "question": f"A sample {spec.name} {request.name} question.",
                "options": dict(spec.sample_options) if spec.sample_options else None,
                "answer": json.loads(json.dumps(request.sample_answer)),
                "strata": strata,
                "provenance": (json.loads(json.dumps(spec.sample_provenance))
                               if spec.sample_provenance is not None else {
                    "extract": "synthetic",
                    "extract_sha256": "0" * 64,
                    "seed": 0,
                    "zoom": strata.get("zoom", 19),
                    "center": [60.1675, 24.9425],
                    "bounds": [60.165, 24.93, 60.17, 24.955],
                }),
            })
    items.sort(key=lambda it: it["id"])
    return items


def write_items_dataset(
    root: Path, items: list[dict[str, Any]], *, image_size: tuple[int, int] = (8, 6)
) -> Path:
    """Write a dataset folder holding ``items`` (each with its own tiny PNG).

    Parameters
    ----------
    root : pathlib.Path
        Folder to create (must not hold a dataset already).
    items : list of dict
        Items sorted by id, their ``image`` (and ``images``) under ``images/``.
    image_size : tuple of int
        Width and height of each PNG in pixels.

    Returns
    -------
    pathlib.Path
        ``root``, holding ``items.jsonl``, ``images/``, ``manifest.json``, ``README.md``.
    """
    from cartoqa.dataset.reader import item_images
    from cartoqa.dataset.writer import dataset_checksums

    (root / "images").mkdir(parents=True, exist_ok=True)
    index = 0
    for item in items:
        for rel in item_images(item):  # a multi-map item's every image
            if not (root / rel).is_file():
                _write_png(root / rel, index, image_size)
                index += 1

    items_text = "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items)
    (root / "items.jsonl").write_text(items_text, encoding="utf-8")
    manifest = {
        "name": "synthetic",
        "format_version": 1,
        "attribution": ATTRIBUTION,
        "extract": {"name": "synthetic", "sha256": "0" * 64},
        "image_sizes": {task: list(image_size) for task in sorted({i["task"] for i in items})},
        "counts": count_items(items),
        # as the writer records them, so that ``cartoqa validate`` can detect edits
        "checksums": dataset_checksums(root, items_text,
                                       sorted({r for i in items for r in item_images(i)})),
    }
    (root / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    (root / "README.md").write_text(
        f"# Synthetic cartoqa dataset\n\nFor tests only. Map data {ATTRIBUTION} (ODbL).\n",
        encoding="utf-8",
    )
    return root
