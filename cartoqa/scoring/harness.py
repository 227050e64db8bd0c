"""Predictions written by other harnesses: VLMEvalKit files and lmms-eval sample logs.

``cartoqa score`` reads, besides cartoqa's own JSON lines (``{"id", "response"}``):

* **VLMEvalKit** prediction files (``<model>_<dataset>.xlsx``; with
  ``PRED_FORMAT=tsv`` or ``json`` the same table as ``.tsv`` or as a JSON list of
  records, one object per row): the columns of the TSV ``cartoqa export --format
  vlmevalkit`` wrote plus VLMEvalKit's ``prediction``; the item is found by the ``id``
  column.
* **lmms-eval** sample logs (``--log_samples``): JSON lines with ``doc_id``,
  ``resps`` and ``filtered_resps``, or one JSON object whose ``logs`` list holds such
  samples. The item is ``doc["id"]`` (the ``id`` column of the Hugging Face export the
  task folder loads) where the log keeps ``doc``; lmms-eval's own writer drops ``doc``,
  and then the item comes from the logged metrics: each cartoqa metric's value is the
  ``{"item", "response"}`` pair :func:`cartoqa.exports.lmms_eval_support.process_results`
  returned, so ``<metric>.item.id`` names it. The response is the first of
  ``filtered_resps`` (else of ``resps``).

Anything else is refused with one line saying which formats are read.

Given a harness's whole output folder (``work_dir/*.xlsx``), ``cartoqa score`` leaves
out the harness's own result files (:func:`harness_result_files`): VLMEvalKit names
each file it derives from a prediction file ``<model>_<dataset>.<ext>`` as
``<model>_<dataset>_<suffix>.<ext>`` (``_exact_matching_result.xlsx``, ``_acc.csv``,
``_score.json`` ...) and keeps its run status in ``status.json``; lmms-eval writes its
aggregated ``<date>_results.json`` beside its ``<date>_samples_<task>.jsonl``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from cartoqa.errors import CartoqaError
from cartoqa.limits import MAX_FIELD_CHARS, JsonTooDeepError, loads_json, without_surrogates

#: What the error for an unreadable file lists.
FORMATS = ("cartoqa JSON lines ({\"id\", \"response\"})",
           "a VLMEvalKit prediction file (.xlsx, .tsv or .json with `id` and `prediction` "
           "columns)",
           "an lmms-eval sample log (--log_samples JSON lines with `doc` and `resps`)")

_ID_COLUMNS = ("id", "cartoqa_id")

#: Suffixes of the files VLMEvalKit writes its predictions to (``PRED_FORMAT``).
VLMEVALKIT_PREDICTIONS = (".xlsx", ".tsv", ".json")
#: Suffixes of the files VLMEvalKit derives from a prediction file (results, scores).
VLMEVALKIT_DERIVED = (".xlsx", ".tsv", ".json", ".csv", ".pkl")
#: VLMEvalKit's run-status file in a work folder.
VLMEVALKIT_STATUS = "status.json"
_PREDICTION_COLUMNS = ("prediction", "response", "output")


def unknown_format(path: Path, why: str) -> CartoqaError:
    """The one-line error for a predictions file of no known format.

    Parameters
    ----------
    path : pathlib.Path
        The file.
    why : str
        What was found instead.

    Returns
    -------
    CartoqaError
        The error to raise.
    """
    return CartoqaError(f"{path} is not a predictions file cartoqa reads ({why})",
                        fix="give " + "; or ".join(FORMATS))


def harness_result_files(paths: Sequence[Path]) -> tuple[list[Path], list[str]]:
    """Split the files given to ``cartoqa score`` into predictions and harness results.

    A file is VLMEvalKit's result of another file given beside it when both are in one
    folder, the other is a prediction table (``.xlsx``, ``.tsv``, ``.json``) and this
    one's name is the other's stem, ``_``, a suffix and a table or pickle extension
    (``M_D.xlsx`` -> ``M_D_exact_matching_result.xlsx``, ``M_D_acc.csv``). Such files
    repeat the predictions' ids, so they are left out, as is ``status.json`` beside
    other files, and lmms-eval's ``<date>_results.json`` beside a sample log
    ``<date>_samples_<task>.jsonl`` of the same folder.

    Parameters
    ----------
    paths : sequence of pathlib.Path
        The files, in the order given.

    Returns
    -------
    tuple
        The files to read (in order) and one note per file left out.

    Examples
    --------
    >>> from pathlib import Path
    >>> keep, notes = harness_result_files([Path("w/M_D.xlsx"),
    ...     Path("w/M_D_exact_matching_result.xlsx"), Path("w/status.json")])
    >>> [p.name for p in keep]
    ['M_D.xlsx']
    >>> notes[0]
    'left out M_D_exact_matching_result.xlsx: a VLMEvalKit result of M_D.xlsx'
    >>> [p.name for p in harness_result_files([Path("a.jsonl"), Path("a_2.jsonl")])[0]]
    ['a.jsonl', 'a_2.jsonl']
    >>> [p.name for p in harness_result_files([Path("o/20260101_results.json"),
    ...     Path("o/20260101_samples_cartoqa_x_rle.jsonl")])[0]]
    ['20260101_samples_cartoqa_x_rle.jsonl']
    """
    keep: list[Path] = []
    notes: list[str] = []
    tables = [p for p in paths if p.suffix.lower() in VLMEVALKIT_PREDICTIONS]
    for path in paths:
        base = None
        if path.suffix.lower() in VLMEVALKIT_DERIVED:
            base = next((q for q in tables if q != path and q.parent == path.parent
                         and path.stem.startswith(f"{q.stem}_")), None)
        if base is not None:
            notes.append(f"left out {path.name}: a VLMEvalKit result of {base.name}")
        elif path.name == VLMEVALKIT_STATUS and len(paths) > 1:
            notes.append(f"left out {path.name}: VLMEvalKit's run status")
        elif path.name.endswith("_results.json") and any(
                q.parent == path.parent and q.name.startswith(
                    path.name[:-len("results.json")] + "samples_") for q in paths):
            notes.append(f"left out {path.name}: lmms-eval's aggregated results")
        else:
            keep.append(path)
    return keep, notes


def _first_text(value: Any) -> str | None:
    """The first string of a (nested) list, or the value when it is a string."""
    while isinstance(value, list):
        if not value:
            return None
        value = value[0]
    if value is None:
        return None
    return value if isinstance(value, str) else str(value)


def is_lmms_eval_sample(row: Any) -> bool:
    """Whether a decoded JSON value looks like one lmms-eval logged sample.

    Parameters
    ----------
    row : Any
        A decoded JSON value.

    Returns
    -------
    bool
        True for an object with ``doc`` or ``doc_id`` and ``resps`` or
        ``filtered_resps``.

    Examples
    --------
    >>> is_lmms_eval_sample({"doc_id": 0, "doc": {"id": "a"}, "resps": [["x"]]})
    True
    >>> is_lmms_eval_sample({"id": "a", "response": "x"})
    False
    """
    return (isinstance(row, dict) and ("doc" in row or "doc_id" in row)
            and ("resps" in row or "filtered_resps" in row))


def sample_item_id(row: dict[str, Any]) -> str | None:
    """The cartoqa item id of one lmms-eval logged sample, or ``None``.

    Parameters
    ----------
    row : dict
        One logged sample.

    Returns
    -------
    str or None
        ``doc["id"]`` when the log keeps the document, else the ``item.id`` inside the
        first logged metric that holds cartoqa's ``{"item", "response"}`` pair.

    Examples
    --------
    >>> sample_item_id({"doc_id": 3, "doc": {"id": "rle-0001"}, "resps": [["x"]]})
    'rle-0001'
    >>> sample_item_id({"doc_id": 3, "cartoqa_valid": 1.0, "resps": [["x"]],
    ...                 "rle_rmse_m": {"item": {"id": "rle-0001"}, "response": "x"}})
    'rle-0001'
    >>> sample_item_id({"doc_id": 3, "resps": [["x"]]}) is None
    True
    """
    doc = row.get("doc")
    if isinstance(doc, dict) and doc.get("id") is not None:
        return str(doc["id"])
    for value in row.values():
        if isinstance(value, dict) and isinstance(value.get("item"), dict):
            found = value["item"].get("id")
            if found is not None:
                return str(found)
    return None


def _lmms_samples(path: Path, text: str) -> Iterator[tuple[int, dict[str, Any]]]:
    stripped = text.lstrip()
    if stripped.startswith("{") and "\n{" not in stripped.rstrip():
        try:
            whole = loads_json(stripped)
        except JsonTooDeepError as exc:
            raise CartoqaError(f"{path}: {exc}", fix="give the log lmms-eval wrote") from None
        except json.JSONDecodeError:
            whole = None
        if isinstance(whole, dict) and isinstance(whole.get("logs"), list):
            for number, row in enumerate(whole["logs"], start=1):
                yield number, row
            return
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = loads_json(line)
        except JsonTooDeepError as exc:
            raise CartoqaError(f"{path} line {number}: {exc}",
                               fix="give the samples_*.jsonl file lmms-eval wrote") from None
        except json.JSONDecodeError as exc:
            if number == len(lines):
                continue  # a cut-off last line
            raise CartoqaError(f"{path} line {number} is not valid JSON ({exc.msg})",
                               fix="give the samples_*.jsonl file lmms-eval wrote") from None
        yield number, row


def read_lmms_eval(path: Path, text: str) -> tuple[dict[str, str], list[str]]:
    """Read an lmms-eval sample log.

    Parameters
    ----------
    path : pathlib.Path
        The file (for messages).
    text : str
        Its content.

    Returns
    -------
    tuple
        Response per item id, and notes.

    Raises
    ------
    CartoqaError
        A sample is not an lmms-eval sample, neither its ``doc`` nor a logged metric
        names the item, or one item has two different responses.
    """
    out: dict[str, str] = {}
    notes: list[str] = []
    for number, row in _lmms_samples(path, text):
        if not is_lmms_eval_sample(row):
            raise CartoqaError(f"{path} sample {number} is not an lmms-eval sample "
                               "(no doc/doc_id and resps)",
                               fix="give one samples_*.jsonl file of a cartoqa task")
        item_id = sample_item_id(row)
        if item_id is None:
            raise CartoqaError(f"{path} sample {number} names no item (no doc.id, and no "
                               "logged metric holds item.id)",
                               fix="run the task folder `cartoqa export --format lmms-eval` "
                               "wrote (its documents and metrics carry the item id)")
        response = _first_text(row.get("filtered_resps"))
        if response is None:
            response = _first_text(row.get("resps")) or ""
        key = without_surrogates(str(item_id))
        response = without_surrogates(response)
        if key in out and out[key] != response:
            raise CartoqaError(f"{path} has two different responses for item {key!r}",
                               fix="score one filter's samples at a time")
        out[key] = response
    notes.append(f"read {len(out)} lmms-eval samples from {path.name}")
    return out, notes


def _blank(value: Any) -> bool:
    """An empty cell: None, "" or NaN (pandas writes NaN for a missing JSON value)."""
    return value is None or value == "" or (isinstance(value, float) and value != value)


def _table_rows(path: Path) -> tuple[list[str], Iterable[tuple[Any, ...]]]:
    if path.suffix.lower() == ".xlsx":
        try:
            import openpyxl
        except ImportError:  # pragma: no cover - a dependency of cartoqa
            raise CartoqaError("reading .xlsx needs openpyxl",
                               fix="pip install openpyxl") from None
        try:
            book = openpyxl.load_workbook(path, read_only=True, data_only=True)
        except Exception as exc:  # openpyxl raises many kinds on a broken file
            raise unknown_format(path, f"not a readable .xlsx: {type(exc).__name__}") from None
        rows = list(book.active.iter_rows(values_only=True)) if book.active else []
        book.close()
    else:
        rows = _text_rows(path)
    if not rows:
        raise unknown_format(path, "an empty table")
    header = ["" if h is None else str(h).strip() for h in rows[0]]
    return header, rows[1:]


def is_vlmevalkit_records(value: Any) -> bool:
    """Whether a decoded JSON document is a VLMEvalKit prediction table.

    VLMEvalKit (``PRED_FORMAT=json``) writes its prediction table as a JSON list of
    records, one object per row, each with ``index`` and ``prediction``.

    Parameters
    ----------
    value : Any
        A decoded JSON document.

    Returns
    -------
    bool
        True for a non-empty list of objects, the first with a ``prediction`` key.

    Examples
    --------
    >>> is_vlmevalkit_records([{"index": 0, "id": "a", "prediction": "B"}])
    True
    >>> is_vlmevalkit_records({"id": "a", "response": "B"})
    False
    """
    return (isinstance(value, list) and bool(value) and isinstance(value[0], dict)
            and "prediction" in value[0])


def _record_rows(path: Path, records: list[Any]) -> tuple[list[str], list[tuple[Any, ...]]]:
    header: list[str] = []
    for number, record in enumerate(records, start=1):
        if not isinstance(record, dict):
            raise unknown_format(path, f"record {number} of its JSON list is not an object")
        header += [str(k) for k in record if str(k) not in header]
    rows = [tuple(record.get(name) for name in header) for record in records]
    return header, rows


def _text_rows(path: Path) -> list[tuple[Any, ...]]:
    """The rows of a .tsv/.csv table: UTF-8, fields up to :data:`MAX_FIELD_CHARS`."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise CartoqaError(f"{path} line {line} is not UTF-8 text (byte "
                           f"0x{data[exc.start]:02x})",
                           fix="save the table as UTF-8 (VLMEvalKit writes UTF-8)") from None
    delimiter = "\t" if path.suffix.lower() == ".tsv" else ","
    limit = csv.field_size_limit()
    csv.field_size_limit(MAX_FIELD_CHARS)
    try:
        rows = [tuple(r) for r in csv.reader(io.StringIO(text, newline=""),
                                             delimiter=delimiter)]
        plain = [tuple(r) for r in csv.reader(io.StringIO(text, newline=""),
                                              delimiter=delimiter, quoting=csv.QUOTE_NONE)]
    except csv.Error as exc:
        raise CartoqaError(f"{path} is not a readable table: {exc}",
                           fix=f"fields may hold at most {MAX_FIELD_CHARS} characters") from None
    finally:
        csv.field_size_limit(limit)
    _refuse_swallowed_rows(path, rows, plain)
    return rows


def _refuse_swallowed_rows(path: Path, rows: list[tuple[Any, ...]],
                           plain: list[tuple[Any, ...]]) -> None:
    """Refuse a table where a field opened a quote that swallowed the rows after it.

    A prediction that starts with ``"`` and never closes it makes the CSV reader read
    every following line into that one field: answers would be lost without a word.
    Read without quoting, such a file has more rows with the header's width whose
    first field the quoted reading never saw.
    """
    if not rows or not any("\n" in str(f) for r in rows for f in r):
        return
    width = len(rows[0])
    seen = {r[0] for r in rows[1:] if r}
    lost = [(n, r[0]) for n, r in enumerate(plain[1:], start=2)
            if len(r) == width and r[0] and r[0] not in seen and '"' not in r[0]]
    if lost:
        holder = next((n for n, r in enumerate(rows[1:], start=2)
                       if any("\n" in str(f) for f in r)), 2)
        raise CartoqaError(
            f"{path}: a field of row {holder} starts a quote (\") that is never closed, "
            f"so it swallows the rows after it ({', '.join(str(k) for _, k in lost[:3])}"
            f"{', ...' if len(lost) > 3 else ''} would be lost)",
            fix='quote that field as CSV does ("" for each " inside), or save as .xlsx')


def read_vlmevalkit(path: Path, records: list[Any] | None = None
                    ) -> tuple[dict[str, str], list[str]]:
    """Read a VLMEvalKit prediction table (``.xlsx``, ``.tsv``, ``.csv`` or ``.json``).

    Parameters
    ----------
    path : pathlib.Path
        The file.
    records : list, optional
        The decoded JSON list of a ``.json`` prediction file (see
        :func:`is_vlmevalkit_records`); the table is then read from it.

    Returns
    -------
    tuple
        Response per item id, and notes.

    Raises
    ------
    CartoqaError
        No ``id`` or ``prediction`` column, or one id with two different predictions.
    """
    header, rows = _table_rows(path) if records is None else _record_rows(path, records)
    lower = [h.lower() for h in header]
    id_col = next((lower.index(c) for c in _ID_COLUMNS if c in lower), None)
    pred_col = next((lower.index(c) for c in _PREDICTION_COLUMNS if c in lower), None)
    if pred_col is None:
        raise unknown_format(path, f"a table without a `prediction` column: {header[:8]}")
    if id_col is None:
        raise CartoqaError(f"{path} has no `id` column, so its rows cannot be matched to "
                           "items", fix="keep the `id` column of the TSV that `cartoqa "
                           "export --format vlmevalkit` wrote")
    out: dict[str, str] = {}
    for number, row in enumerate(rows, start=2):
        if id_col >= len(row) or _blank(row[id_col]):
            continue
        value = row[pred_col] if pred_col < len(row) else None
        response = "" if _blank(value) else without_surrogates(str(value))
        key = without_surrogates(str(row[id_col]))
        if key in out and out[key] != response:
            raise CartoqaError(f"{path} row {number}: a second prediction for item {key!r}",
                               fix="keep one prediction per item")
        out[key] = response
    return out, [f"read {len(out)} VLMEvalKit predictions from {path.name}"]
