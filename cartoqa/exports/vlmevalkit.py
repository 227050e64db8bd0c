"""Export a dataset as VLMEvalKit TSV files, one per task.

VLMEvalKit keeps a benchmark in one TSV (tab-separated, a header line; read with
``pandas.read_csv(path, sep="\\t")``) whose documented columns are ``index`` (unique
integer), ``image`` (base64 of the image file), ``question``, ``answer``,
``category``, ``l2-category`` and, for multiple choice, one column per option letter
``A``... A TSV with option columns is a multiple-choice benchmark, one without is
free-form VQA, so each task gets its own file: ``<NAME>_MFS.tsv`` with ``A``-``E``,
the others without. cartoqa's ``id``, ``task`` and ``request`` columns come along.
VLMEvalKit sends the model the ``question`` alone (no system message), so
``question`` holds the item's system prompt, a blank line and the question: the text
lmms-eval's ``doc_to_text`` gives (:func:`cartoqa.exports.prompt.prompt_text`).

A multi-map item (FRIEDA) is written the way VLMEvalKit stores multi-image
benchmarks: ``image`` holds a Python-literal list of the base64 images
(``['iVBOR...', 'iVBOR...']``, read back with ``vlmeval.smp.toliststr``) and an
``image_path`` column the list of their file names; a task's file has that column
only when one of its items has several images, and then every row fills it (a one-map
row with its one file name): VLMEvalKit's loader reads the column for every row and
stops (``NotImplementedError`` in ``toliststr``) on an empty cell, which pandas reads
as NaN.
"""

from __future__ import annotations

import base64
import csv
import io
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from cartoqa.dataset.reader import image_files, item_images, tasks_in
from cartoqa.exports.prompt import prompt_text

#: Option letters of MFS items.
OPTION_LETTERS: tuple[str, ...] = ("A", "B", "C", "D", "E")


def columns_for(task: str, *, multi_image: bool = False, city: bool = False) -> list[str]:
    """Return the TSV header of a task's file.

    Parameters
    ----------
    task : str
        A task name.
    multi_image : bool, optional
        Some item of the task has several images: add the ``image_path`` column.
    city : bool, optional
        Add a last column ``city`` (exports of a ``build-many`` folder).

    Returns
    -------
    list of str
        Column names; ``A``-``E`` only for ``mfs``.

    Examples
    --------
    >>> columns_for("rle")
    ['index', 'image', 'question', 'answer', 'category', 'l2-category', 'id', 'task', 'request']
    >>> columns_for("mfs")[4:9]
    ['A', 'B', 'C', 'D', 'E']
    """
    options = list(OPTION_LETTERS) if task == "mfs" else []
    paths = ["image_path"] if multi_image else []
    return ["index", "image", *paths, "question", "answer", *options, "category",
            "l2-category", "id", "task", "request", *(["city"] if city else [])]


def categories(item: dict[str, Any]) -> tuple[str, str]:
    """Return the ``category`` and ``l2-category`` of an item.

    MFS: the feature category (symbol/line/area) and OSM class; other tasks: the
    request (e.g. ``count``) and the zoom, so VLMEvalKit reports per-request accuracy.

    Parameters
    ----------
    item : dict
        One item.

    Returns
    -------
    tuple of str
        The two categories ("" when unknown).

    Examples
    --------
    >>> categories({"task": "mfs", "strata": {"category": "area", "osm_class": "leisure=park"}})
    ('area', 'leisure=park')
    >>> categories({"task": "stmf", "request": "count", "strata": {"zoom": 19}})
    ('count', 'zoom 19')
    """
    strata = item.get("strata") or {}
    if item.get("task") == "mfs":
        return str(strata.get("category", "")), str(strata.get("osm_class", ""))
    zoom = strata.get("zoom")
    return str(item.get("request") or item.get("task")), "" if zoom is None else f"zoom {zoom}"


def tsv_row(
    item: dict[str, Any],
    index: int,
    image_bytes: bytes | Sequence[bytes],
    answer_text: Callable[[dict[str, Any]], str],
    *,
    image_path: bool = False,
) -> dict[str, Any]:
    """Build one TSV row.

    Parameters
    ----------
    item : dict
        One item.
    index : int
        Its unique integer index.
    image_bytes : bytes or sequence of bytes
        The image file's bytes, or those of each of a multi-map item's images in order
        (then ``image`` is a list literal and ``image_path`` names the files).
    answer_text : callable
        Renders the item's answer as text (for MFS the letter is used instead).
    image_path : bool, optional
        Fill ``image_path`` even for a one-image item (its file name, a plain string):
        the file has that column because another of its items has several images.

    Returns
    -------
    dict
        Column name to value; ``image_path`` for a multi-image item or when asked.

    Examples
    --------
    >>> item = {"id": "a", "task": "frieda_equal", "request": "textual",
    ...         "image": "images/a.png", "system_prompt": "Be exact.", "question": "Which?"}
    >>> row = tsv_row(item, 0, b"P", lambda it: "B", image_path=True)
    >>> row["image"], row["image_path"], row["question"]
    ('UA==', 'a.png', 'Be exact.\\n\\nWhich?')
    """
    category, l2 = categories(item)
    several = [image_bytes] if isinstance(image_bytes, bytes) else list(image_bytes)
    encoded = [base64.b64encode(b).decode("ascii") for b in several]
    row: dict[str, Any] = {
        "index": index,
        "image": encoded[0] if len(encoded) == 1 else repr(encoded),
        "question": prompt_text(item),
        "category": category,
        "l2-category": l2,
        "id": str(item["id"]),
        "task": str(item["task"]),
        "request": str(item.get("request") or ""),
    }
    if len(encoded) > 1 or image_path:
        names = [Path(p).name for p in item_images(item)]
        if "city" in item:  # file names repeat from city to city
            names = [f"{item['city']}-{name}" for name in names]
        row["image_path"] = repr(names) if len(names) > 1 else names[0]
    if "city" in item:
        row["city"] = str(item["city"])
    if item["task"] == "mfs":
        options = item.get("options") or {}
        for letter in OPTION_LETTERS:
            row[letter] = str(options.get(letter, ""))
        row["answer"] = str((item.get("answer") or {}).get("letter", ""))
    else:
        row["answer"] = answer_text(item)
    return row


def write_tsv(path: Path, header: Sequence[str], rows: Iterable[dict[str, Any]]) -> None:
    """Write rows as a tab-separated file that ``pandas.read_csv(sep="\\t")`` reads back.

    Fields holding tabs, newlines or quotes are quoted (doubling inner quotes).

    Parameters
    ----------
    path : pathlib.Path
        The file to write.
    header : sequence of str
        Column names.
    rows : iterable of dict
        The rows (consumed one at a time).
    """
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(header), delimiter="\t",
                                quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow(row)


def tsv_text(header: Sequence[str], rows: Sequence[dict[str, Any]]) -> str:
    """Return what :func:`write_tsv` writes, as a string (for tests and previews).

    Parameters
    ----------
    header : sequence of str
        Column names.
    rows : sequence of dict
        The rows.

    Returns
    -------
    str
        The TSV text.
    """
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(header), delimiter="\t",
                            quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(row)
    return buffer.getvalue()


def _rows(
    dataset: Path,
    items: Sequence[dict[str, Any]],
    answer_text: Callable[[dict[str, Any]], str],
    *,
    image_path: bool,
) -> Iterator[dict[str, Any]]:
    for index, item in enumerate(items):
        files = image_files(dataset, item)
        data = files[0].read_bytes() if len(files) == 1 else [p.read_bytes() for p in files]
        yield tsv_row(item, index, data, answer_text, image_path=image_path)


def write_vlmevalkit(
    dataset: Path,
    items: Sequence[dict[str, Any]],
    folder: Path,
    *,
    name: str,
    answer_text: Callable[[dict[str, Any]], str],
) -> dict[str, str]:
    """Write one TSV per task into ``folder``.

    Parameters
    ----------
    dataset : pathlib.Path
        The dataset folder.
    items : sequence of dict
        Its items.
    folder : pathlib.Path
        An existing output folder.
    name : str
        Benchmark name prefix; files are ``<name>_<TASK>.tsv``.
    answer_text : callable
        Renders non-MFS answers as text.

    Returns
    -------
    dict
        Task name to file name.
    """
    files: dict[str, str] = {}
    for task in tasks_in(list(items)):
        chosen = [item for item in items if str(item["task"]) == task]
        multi = any(len(item_images(item)) > 1 for item in chosen)
        rows = _rows(dataset, chosen, answer_text, image_path=multi)
        filename = f"{name}_{task.upper()}.tsv"
        city = any("city" in item for item in chosen)
        write_tsv(folder / filename, columns_for(task, multi_image=multi, city=city), rows)
        files[task] = filename
    return files
