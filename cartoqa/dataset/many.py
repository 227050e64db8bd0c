"""One export over every city of a ``cartoqa build-many`` folder.

``cartoqa export CITIES OUT --format F``, where ``CITIES`` is the output folder of
``cartoqa build-many`` (it holds the combined ``manifest.json`` of format
``cartoqa-build-many``), exports the items of all its cities as one dataset: the
items of each city in the order of the manifest, each with

* ``city``: the city's name (a ``city`` column in every format);
* ``id``: ``<city>/<id>`` (ids repeat from city to city: ``mml-0000`` in each);
* ``image`` (and each of ``images``, for a multi-map item): ``<city folder>/<image>``,
  relative to the build-many folder.

Each city's ``items.jsonl`` must still be the one the combined manifest records
(its SHA-256), so an export never mixes a city rebuilt since with the others.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from cartoqa.dataset.reader import read_items
from cartoqa.errors import CartoqaError

#: ``format`` of the combined manifest written by ``cartoqa build-many``.
MANY_FORMAT = "cartoqa-build-many"


def is_build_many(folder: Path) -> bool:
    """Whether ``folder`` is the output folder of a finished ``cartoqa build-many``.

    Examples
    --------
    >>> from pathlib import Path
    >>> is_build_many(Path("/nonexistent"))
    False
    """
    path = Path(folder) / "manifest.json"
    if not path.is_file():
        return False
    try:
        data = json.loads(path.read_text("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        return False
    return isinstance(data, dict) and data.get("format") == MANY_FORMAT


def city_item(item: dict[str, Any], city: str, folder: str) -> dict[str, Any]:
    """One city's item as an item of the combined export.

    Examples
    --------
    >>> city_item({"id": "mml-0000", "image": "images/mml-0000.png", "task": "mml"},
    ...           "kotka", "kotka")
    {'id': 'kotka/mml-0000', 'image': 'kotka/images/mml-0000.png', 'task': 'mml', 'city': 'kotka'}
    """
    out = dict(item)
    out["id"] = f"{city}/{item['id']}"
    out["image"] = f"{folder}/{item['image']}"
    if isinstance(item.get("images"), list):  # a multi-map item (FRIEDA)
        out["images"] = [f"{folder}/{path}" for path in item["images"]]
    out["city"] = city
    return out


def combined_items(root: Path, *,
                   required: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
    """The items of every city of a build-many folder, as :func:`city_item` makes them.

    ``required`` is the keys every item must have (default: those of
    :func:`cartoqa.dataset.reader.read_items`); the exports and ``cartoqa score`` read
    the cities through this one function, so a score names items as the export does.

    Raises
    ------
    CartoqaError
        A city's folder is missing or its ``items.jsonl`` is not the one the combined
        manifest records.
    """
    manifest = json.loads((root / "manifest.json").read_text("utf-8"))
    items: list[dict[str, Any]] = []
    for city in manifest.get("cities") or []:
        name, folder = str(city["name"]), str(city["folder"])
        path = root / folder / "items.jsonl"
        if not path.is_file():
            raise CartoqaError(f"city {name} of {root} has no {folder}/items.jsonl",
                               fix="run cartoqa build-many with the same spec again")
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest != city.get("items_sha256"):
            raise CartoqaError(
                f"{folder}/items.jsonl of {root} changed since build-many wrote its manifest",
                fix="run cartoqa build-many with the same spec again")
        city_items = (read_items(root / folder) if required is None
                      else read_items(root / folder, required=required))
        items += [city_item(item, name, folder) for item in city_items]
    return items
