"""Atomic file writes: write beside the target, flush to disk, then rename over it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from renderers.files import write_atomic


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the whole new one.

    The bytes go to a temporary file in the same folder, are flushed to disk, and the
    file is renamed over ``path``; on any failure the temporary file is removed
    (:func:`renderers.files.write_atomic` with ``durable=True``).

    Parameters
    ----------
    path : pathlib.Path
        Target file; its folder is created if needed.
    data : bytes
        The new content.
    """
    write_atomic(path, data, durable=True)


def write_text_atomic(path: Path, text: str) -> None:
    """Write UTF-8 text atomically (see :func:`write_bytes_atomic`)."""
    write_bytes_atomic(path, text.encode("utf-8"))


def write_json_atomic(path: Path, value: Any) -> None:
    """Write a JSON document (indented, keys sorted, UTF-8) atomically."""
    write_text_atomic(path, json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True) + "\n")


def dumps_line(value: Any) -> str:
    """Serialise one JSON Lines record: compact, keys sorted, UTF-8 kept, no newline.

    Examples
    --------
    >>> dumps_line({"b": 1, "a": "ä"})
    '{"a":"ä","b":1}'
    """
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


#: A dataset's own files, which no other command may write over.
DATASET_OWN_FILES = ("items.jsonl", "manifest.json", "README.md")
#: A dataset's own folders (images; the build's staging folder).
DATASET_OWN_FOLDERS = ("images", ".cartoqa-build")


def dataset_part(dataset: Path, path: Path) -> str | None:
    """Name the part of a dataset that ``path`` is, if any (links and ``..`` resolved).

    Parameters
    ----------
    dataset : pathlib.Path
        The dataset folder.
    path : pathlib.Path
        A path some command is about to write.

    Returns
    -------
    str or None
        ``"items.jsonl"``, ``"images/"`` ..., or ``"the dataset folder"``; None when
        ``path`` is none of the dataset's own files or folders.

    Examples
    --------
    >>> dataset_part(Path("/d"), Path("/d/./items.jsonl"))
    'items.jsonl'
    >>> dataset_part(Path("/d"), Path("/d/images/x.png"))
    'images/'
    >>> dataset_part(Path("/d"), Path("/d/predictions/m.jsonl")) is None
    True
    """
    import os

    target = Path(os.path.realpath(path))
    root = Path(os.path.realpath(dataset))
    if target == root:
        return "the dataset folder"
    for name in DATASET_OWN_FILES:
        if target == root / name:
            return name
    for name in DATASET_OWN_FOLDERS:
        if target.is_relative_to(root / name):
            return f"{name}/"
    return None
