"""Read a dataset's items and a predictions file; write a report atomically."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cartoqa.dataset.files import write_bytes_atomic
from cartoqa.dataset.many import combined_items, is_build_many
from cartoqa.dataset.reader import read_items
from cartoqa.errors import CartoqaError
from cartoqa.limits import JsonTooDeepError, loads_json, without_surrogates
from cartoqa.scoring.harness import (
    is_lmms_eval_sample,
    is_vlmevalkit_records,
    read_lmms_eval,
    read_vlmevalkit,
    unknown_format,
)

#: Keys an item needs to be scored.
SCORING_KEYS: tuple[str, ...] = ("id", "task", "request", "answer")


def load_items(dataset_dir: str | Path) -> list[dict[str, Any]]:
    """Read ``items.jsonl`` of a dataset folder for scoring.

    Parameters
    ----------
    dataset_dir : str or pathlib.Path
        The dataset folder (see ``docs/dataset-format.md``), or the output folder of
        ``cartoqa build-many``: then the items of all its cities, named as its
        combined export names them (``<city>/<id>``, a ``city`` key; see
        :mod:`cartoqa.dataset.many`).

    Returns
    -------
    list of dict
        The items in file order.

    Raises
    ------
    CartoqaError
        The folder or file is missing, a line is not a JSON object, an item lacks
        ``id``, ``task``, ``request`` or ``answer``, or an id repeats.
    """
    if is_build_many(Path(dataset_dir)):
        return combined_items(Path(dataset_dir), required=SCORING_KEYS)
    return read_items(dataset_dir, required=SCORING_KEYS)


def read_predictions(path: str | Path) -> tuple[dict[str, str], list[str]]:
    """Read a predictions file: one ``{"id": ..., "response": ...}`` object per line.

    Other keys on a line are ignored. A ``null`` or missing response is read as the
    empty string (an invalid answer). A last line cut off mid-write (no newline and not
    valid JSON, as a killed ``cartoqa run`` can leave) is skipped with a note: that
    item counts as missing; a complete last object without its newline is read, as
    ``cartoqa run`` keeps it when resuming. VLMEvalKit prediction files (``.xlsx``,
    ``.tsv``, ``.json``) and lmms-eval sample logs are read too (:mod:`cartoqa.scoring.harness`);
    any other file is refused with one line.

    Parameters
    ----------
    path : str or pathlib.Path
        The JSON-lines file.

    Returns
    -------
    tuple
        Response text per item id, and notes about the file.

    Raises
    ------
    CartoqaError
        The file is missing, a line is not a JSON object with an ``id``, a response is
        not text, or an id repeats.
    """
    file = Path(path)
    if file.exists() and not file.is_file():
        raise CartoqaError(f"predictions file {file} is not a regular file",
                           fix="pass the JSON-lines file `cartoqa run` wrote")
    if not file.is_file():
        raise CartoqaError(f"predictions file {file} does not exist",
                           fix="pass the JSON-lines file `cartoqa run` wrote")
    if file.suffix.lower() in (".xlsx", ".tsv", ".csv"):
        return read_vlmevalkit(file)
    if file.suffix.lower() in (".xls", ".parquet", ".pkl", ".pickle"):
        raise unknown_format(file, f"a {file.suffix} file")
    text = file.read_text(encoding="utf-8", errors="replace")
    first = _first_value(text)
    if is_vlmevalkit_records(first):
        assert isinstance(first, list)
        return read_vlmevalkit(file, first)
    if is_lmms_eval_sample(first) or (isinstance(first, dict)
                                      and isinstance(first.get("logs"), list)):
        return read_lmms_eval(file, text)
    if first is not None and not (isinstance(first, dict) and "id" in first):
        raise unknown_format(file, "its first line is not an object with an id")
    lines = text.split("\n")
    out: dict[str, str] = {}
    notes: list[str] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = loads_json(line)
        except JsonTooDeepError as exc:
            raise CartoqaError(f"{file} line {number}: {exc}",
                               fix='each line must be {"id": ..., "response": ...}') from None
        except json.JSONDecodeError as exc:
            if number == len(lines):  # the last line has no newline: cut off mid-write
                notes.append(f"ignored the cut-off last line {number} of {file.name}")
                continue
            raise CartoqaError(f"{file} line {number} is not valid JSON ({exc.msg})",
                               fix='each line must be {"id": ..., "response": ...}') from None
        if not isinstance(row, dict) or "id" not in row:
            raise CartoqaError(f"{file} line {number} is not an object with an id",
                               fix='each line must be {"id": ..., "response": ...}')
        response = row.get("response")
        if response is None:
            response = ""
        if not isinstance(response, str):
            raise CartoqaError(f"{file} line {number}: response is not a string",
                               fix="write the model's raw text as the response")
        response = without_surrogates(response)  # "\ud800" cannot be written back as UTF-8
        item_id = without_surrogates(str(row["id"]))
        if item_id in out:
            raise CartoqaError(f"{file} has two predictions for item {item_id!r}",
                               fix="keep one response per item")
        out[item_id] = response
    return out, notes


def _first_value(text: str) -> object:
    """The first line's JSON value (or the whole text's, for one JSON document)."""
    for line in text.split("\n"):
        if line.strip():
            try:
                return loads_json(line)
            except JsonTooDeepError as exc:
                raise CartoqaError(f"the first line: {exc}",
                                   fix="give a predictions file, one object per line") from None
            except json.JSONDecodeError:
                try:
                    return loads_json(text)
                except ValueError:  # not JSON, or nested too deep
                    return None
    return None


def load_predictions(path: str | Path) -> dict[str, str]:
    """Read a predictions file (see :func:`read_predictions`), without the notes.

    Parameters
    ----------
    path : str or pathlib.Path
        The JSON-lines file.

    Returns
    -------
    dict of str to str
        Response text per item id.
    """
    return read_predictions(path)[0]


def write_json_atomic(path: str | Path, data: Any) -> Path:
    """Write JSON to ``path`` through a temporary file and a rename.

    Parameters
    ----------
    path : str or pathlib.Path
        Destination; its folder is created.
    data : Any
        JSON-serialisable data (NaN is not allowed: convert it to ``None`` first).

    Returns
    -------
    pathlib.Path
        The written path.
    """
    dest = Path(path)
    text = json.dumps(data, ensure_ascii=False, indent=1, allow_nan=False) + "\n"
    write_bytes_atomic(dest, text.encode("utf-8"))
    return dest
