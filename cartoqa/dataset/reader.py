"""Read a dataset folder (docs/dataset-format.md): its items and their image files.

Used by ``cartoqa run``, ``cartoqa export`` and ``cartoqa score``. Reading only:
building datasets is ``cartoqa build``'s business.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cartoqa.declarations.suites import TASK_MODULES
from cartoqa.errors import CartoqaError
from cartoqa.limits import JsonTooDeepError, loads_json

#: The task names of every suite, in the order datasets and exports list them (the task registry's).
TASK_ORDER: tuple[str, ...] = tuple(TASK_MODULES)

#: Keys every item must have for running and exporting.
REQUIRED_KEYS: tuple[str, ...] = ("id", "task", "image", "question")

_MIME_BY_SUFFIX = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
                   ".webp": "image/webp", ".gif": "image/gif"}


def parse_items(
    lines: list[str], *, source: str = "items.jsonl", required: tuple[str, ...] = REQUIRED_KEYS
) -> list[dict[str, Any]]:
    """Parse and check the lines of an ``items.jsonl``.

    Parameters
    ----------
    lines : list of str
        The file's lines; blank lines are skipped.
    source : str
        Name used in error messages.
    required : tuple of str
        Keys every item must have.

    Returns
    -------
    list of dict
        The items in file order.

    Raises
    ------
    CartoqaError
        A line is not a JSON object, lacks a required key, or an id repeats.
    """
    items: list[dict[str, Any]] = []
    seen: set[str] = set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            item = loads_json(line)
        except JsonTooDeepError as exc:
            raise CartoqaError(f"{source} line {number}: {exc}",
                               fix="rebuild the dataset with `cartoqa build`") from None
        except json.JSONDecodeError as exc:
            raise CartoqaError(
                f"{source} line {number} is not valid JSON ({exc.msg})",
                fix="rebuild the dataset with `cartoqa build`",
            ) from None
        if not isinstance(item, dict):
            raise CartoqaError(f"{source} line {number} is not a JSON object",
                               fix="rebuild the dataset with `cartoqa build`")
        missing = [key for key in required if key not in item]
        if missing:
            raise CartoqaError(
                f"{source} line {number} lacks {', '.join(missing)}",
                fix="see docs/dataset-format.md for the item keys",
            )
        item_id = str(item["id"])
        if item_id in seen:
            raise CartoqaError(f"{source} repeats the item id {item_id!r}",
                               fix="rebuild the dataset with `cartoqa build`")
        seen.add(item_id)
        items.append(item)
    return items


def read_items(
    dataset: str | Path, *, required: tuple[str, ...] = REQUIRED_KEYS
) -> list[dict[str, Any]]:
    """Read a dataset folder's items.

    Parameters
    ----------
    dataset : str or pathlib.Path
        The dataset folder (holding ``items.jsonl`` and ``images/``).
    required : tuple of str
        Keys every item must have (default: what running and exporting need).

    Returns
    -------
    list of dict
        The items, in file order.

    Raises
    ------
    CartoqaError
        The folder or its ``items.jsonl`` is missing or malformed.
    """
    dataset = Path(dataset)
    if not dataset.is_dir():
        raise CartoqaError(f"dataset folder {dataset} does not exist",
                           fix="pass the folder `cartoqa build` wrote")
    path = dataset / "items.jsonl"
    if not path.is_file():
        raise CartoqaError(f"{dataset} has no items.jsonl",
                           fix="pass the folder `cartoqa build` wrote")
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise CartoqaError(f"{path} line {line} is not UTF-8 text",
                           fix="rebuild the dataset with `cartoqa build`") from None
    return parse_items(text.splitlines(), source=str(path), required=required)


def item_images(item: Mapping[str, Any]) -> list[str]:
    """The image paths of an item, relative to the dataset folder, in order.

    An item names one image (``"image": "images/x.png"``) or several: a multi-map item
    (FRIEDA) also has ``"images": [...]``, whose first entry is ``image``. Both may be
    given; ``image`` comes first and repeats are dropped.

    Parameters
    ----------
    item : mapping
        One item.

    Returns
    -------
    list of str
        The paths, in order (empty when the item has none).

    Examples
    --------
    >>> item_images({"image": "images/a.png"})
    ['images/a.png']
    >>> item_images({"images": ["images/a.png", "images/b.png"]})
    ['images/a.png', 'images/b.png']
    >>> item_images({"image": "images/a.png", "images": ["images/a.png", "images/c.png"]})
    ['images/a.png', 'images/c.png']
    """
    out: list[str] = []
    single = item.get("image")
    if isinstance(single, str) and single:
        out.append(single)
    several = item.get("images")
    if isinstance(several, Sequence) and not isinstance(several, str):
        for path in several:
            if isinstance(path, str) and path and path not in out:
                out.append(path)
    return out


def images_list_problem(item: dict[str, Any]) -> str | None:
    """Say what is wrong with a multi-map item's ``images`` list, if anything.

    ``images`` is optional; when given, its first entry must be the item's ``image``
    (so that readers of one image see the first map).

    Parameters
    ----------
    item : dict
        One item.

    Returns
    -------
    str or None
        One message, or ``None`` when the list is absent or right.

    Examples
    --------
    >>> images_list_problem({"image": "images/a.png", "images": ["images/a.png", "images/b.png"]})
    >>> images_list_problem({"image": "images/b.png", "images": ["images/a.png", "images/b.png"]})
    "images[0] is 'images/a.png', not the item's image 'images/b.png'"
    """
    several = item.get("images")
    if several is None or not isinstance(several, list) or not several:
        return None  # absent, or a schema error reported already
    if several[0] != item.get("image"):
        return f"images[0] is {several[0]!r}, not the item's image {item.get('image')!r}"
    return None


def image_files(dataset: Path, item: dict[str, Any]) -> list[Path]:
    """Return the paths of all of an item's images, checking each (see :func:`image_file`).

    Parameters
    ----------
    dataset : pathlib.Path
        The dataset folder.
    item : dict
        One item.

    Returns
    -------
    list of pathlib.Path
        The image files, ``image`` first.

    Raises
    ------
    CartoqaError
        An image is missing or its path leaves the dataset folder.
    """
    return [_checked_image(dataset, item, rel) for rel in item_images(item)]


def image_file(dataset: Path, item: dict[str, Any]) -> Path:
    """Return the path of an item's (first) image, checking that it exists inside the dataset.

    Parameters
    ----------
    dataset : pathlib.Path
        The dataset folder.
    item : dict
        One item.

    Returns
    -------
    pathlib.Path
        The image file.

    Raises
    ------
    CartoqaError
        The image is missing or its path leaves the dataset folder.
    """
    return _checked_image(dataset, item, str(item["image"]))


def _checked_image(dataset: Path, item: dict[str, Any], rel: str) -> Path:
    path = (dataset / rel).resolve()
    if not path.is_relative_to(dataset.resolve()):
        raise CartoqaError(f"item {item['id']} names an image outside the dataset: {rel}",
                           fix="image paths must be relative, e.g. images/<id>.png")
    if not path.is_file():
        raise CartoqaError(f"image {rel} of item {item['id']} is missing",
                           fix="rebuild the dataset with `cartoqa build`")
    return path


def image_mime(path: Path) -> str:
    """Return the MIME type of an image file from its suffix (``image/png`` by default).

    Parameters
    ----------
    path : pathlib.Path
        The image file.

    Returns
    -------
    str
        E.g. ``"image/png"``.
    """
    return _MIME_BY_SUFFIX.get(path.suffix.lower(), "image/png")


def tasks_in(items: list[dict[str, Any]]) -> list[str]:
    """Return the tasks present in ``items``, in :data:`TASK_ORDER` (unknown ones last).

    Parameters
    ----------
    items : list of dict
        Items.

    Returns
    -------
    list of str
        Task names without repeats.
    """
    present = {str(item["task"]) for item in items}
    known = [task for task in TASK_ORDER if task in present]
    return known + sorted(present - set(TASK_ORDER))
