"""Score predictions against a dataset: parse, measure, group by task and stratum."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cartoqa import __version__
from cartoqa.declarations.dispatch import parse_response
from cartoqa.declarations.records import ConnectivityChecker, Record
from cartoqa.errors import CartoqaError
from cartoqa.parsing import ParseResult
from cartoqa.scoring.connectivity import groundtruth_checker
from cartoqa.scoring.conventions import CONVENTIONS, convention_record
from cartoqa.scoring.extraction import extract_answers, parse_extracted, rescore_summary
from cartoqa.scoring.harness import harness_result_files
from cartoqa.scoring.io import load_items, read_predictions
from cartoqa.scoring.sections import Section, metric_labels, section_for, sections

if TYPE_CHECKING:
    from cartoqa.scoring.extraction import AnswerExtractor

#: What the two variants of every metric mean.
VARIANTS: dict[str, str] = {
    "all": "every item; an invalid or missing answer counts as wrong (accuracy, F1, exact "
    "route, connectivity 0; error metrics take it as a prediction of 0)",
    "valid_only": "only the answers that could be parsed",
}


def section_of(item: Mapping[str, Any]) -> Section | None:
    """The section that scores an item (by its task and request), if any.

    Parameters
    ----------
    item : mapping
        A dataset item.

    Returns
    -------
    Section or None
        ``None`` for a task or request cartoqa does not score.
    """
    return section_for(str(item.get("task")), str(item.get("request")))


def score_records(
    items: Sequence[Mapping[str, Any]],
    predictions: Mapping[str, str],
    *,
    is_connected: ConnectivityChecker | None = None,
    convention: str = "cartoqa",
) -> list[Record]:
    """Parse and measure the answer to every item.

    Parameters
    ----------
    items : sequence of mapping
        Dataset items.
    predictions : mapping of str to str
        Raw response per item id; an item without one is invalid.
    is_connected : callable, optional
        SRN connectivity check (see :data:`~cartoqa.declarations.records.ConnectivityChecker`).
    convention : str
        ``"cartoqa"`` (default), or a paper's convention for its own suite's items
        (``"mapwise"``, ``"frieda"``; see :mod:`cartoqa.scoring.conventions`).

    Returns
    -------
    list of Record
        One record per item, in item order.

    Raises
    ------
    CartoqaError
        When an item's answer does not have its task's shape.
    """
    records = [measured_record(item, parse_response(item, predictions.get(str(item.get("id")))),
                               is_connected) for item in items]
    if convention == "cartoqa":
        return records

    return [convention_record(item, predictions.get(str(item.get("id"))), convention, record)
            for item, record in zip(items, records, strict=True)]


def measured_record(
    item: Mapping[str, Any],
    result: ParseResult,
    is_connected: ConnectivityChecker | None = None,
) -> Record:
    """A record of one item's parse result, with its measures when the answer is valid.

    Parameters
    ----------
    item : mapping
        The dataset item.
    result : Parsed or Invalid
        The parser's result.
    is_connected : callable, optional
        SRN connectivity check.

    Returns
    -------
    Record
        The record.

    Raises
    ------
    CartoqaError
        When the item's answer does not have its task's shape.
    """
    record = Record(item, result)
    section = section_of(item)
    if section is not None and record.valid:
        try:
            record.measures = section.measure(record, is_connected)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise CartoqaError(
                f"item {item.get('id')!r} has a malformed {section.key} answer ({exc!r})",
                fix="check the dataset with `cartoqa validate`",
            ) from None
    return record


def _check_every_item_is_scored(items: Sequence[Mapping[str, Any]],
                                 dataset_dir: str | Path) -> None:
    """Refuse a dataset with items no section scores (they would go silently unscored)."""
    unknown: Counter[tuple[str, str]] = Counter()
    first: dict[tuple[str, str], str] = {}
    for item in items:
        if section_of(item) is None:
            key = (str(item.get("task")), str(item.get("request")))
            unknown[key] += 1
            first.setdefault(key, str(item.get("id")))
    if unknown:
        pairs = ", ".join(f"task {t!r} request {r!r} ({n} item(s), first {first[(t, r)]!r})"
                          for (t, r), n in sorted(unknown.items()))
        known = ", ".join(s.key for s in sections())
        raise CartoqaError(f"{sum(unknown.values())} item(s) of {dataset_dir} belong to no "
                           f"scoring section: {pairs}",
                           fix=f"score a dataset of the declared tasks ({known}), or declare "
                           "the task (docs/build.md, Adding a task)")


def _reason_kind(reason: str) -> str:
    return re.sub(r"\s*\([^)]*\)", "", reason)


def _sort_key(value: str) -> tuple[int, float, str]:
    try:
        return (0, float(value), value)
    except ValueError:
        return (1, 0.0, value)


def _group(records: list[Record], section: Section) -> dict[str, Any]:
    metrics, notes = section.aggregate(records) if records else ({}, [])
    n_invalid = sum(not r.valid for r in records)
    out: dict[str, Any] = {"n": len(records), "n_valid": len(records) - n_invalid,
                           "n_invalid": n_invalid, "metrics": {}}
    for name in section.metrics:
        if name in metrics:
            out["metrics"][name] = {**metrics[name], "n": len(records),
                                    "n_valid": len(records) - n_invalid, "n_invalid": n_invalid}
    if notes:
        out["notes"] = notes
    return out


def _stratum_value(item: Mapping[str, Any], keys: Sequence[str]) -> str | None:
    strata = item.get("strata") or {}
    if not all(k in strata for k in keys):
        return None
    return "/".join(str(strata[k]) for k in keys)


def summarise_section(section: Section, records: list[Record]) -> dict[str, Any]:
    """Metrics of one section overall and per stratum.

    Parameters
    ----------
    section : Section
        The section.
    records : list of Record
        Its records.

    Returns
    -------
    dict
        ``{"task", "request", "n", "n_valid", "n_invalid", "invalid_reasons", "metrics",
        "notes", "strata": {key: {value: {...}}}}``.
    """
    out: dict[str, Any] = {"task": section.task, "request": section.request}
    out.update(_group(records, section))
    reasons = Counter(_reason_kind(r.result.reason) for r in records if not r.valid
                      and hasattr(r.result, "reason"))
    out["invalid_reasons"] = dict(reasons.most_common())
    keys: list[tuple[str, ...]] = []
    for r in records:
        for k in (r.item.get("strata") or {}):
            if (k,) not in keys:
                keys.append((k,))
    keys.extend(section.extra_strata)
    strata: dict[str, Any] = {}
    for key in keys:
        groups: dict[str, list[Record]] = defaultdict(list)
        for r in records:
            value = _stratum_value(r.item, key)
            if value is not None:
                groups[value].append(r)
        if groups:
            strata["+".join(key)] = {v: _group(groups[v], section)
                                     for v in sorted(groups, key=_sort_key)}
    out["strata"] = strata
    return out


def _item_row(record: Record, section_key: str) -> dict[str, Any]:
    row: dict[str, Any] = {"id": record.item.get("id"), "section": section_key,
                           "valid": record.valid}
    if record.valid:
        row["parsed"] = record.value
        notes = getattr(record.result, "notes", ())
        if notes:
            row["notes"] = list(notes)
        row["measures"] = record.measures
    else:
        row["reason"] = getattr(record.result, "reason", "")
    return row


def build_report(
    records: list[Record],
    *,
    predictions: Mapping[str, str] | None = None,
    include_items: bool = True,
    connectivity_note: str | None = None,
) -> dict[str, Any]:
    """Assemble the report of scored records.

    Parameters
    ----------
    records : list of Record
        From :func:`score_records`.
    predictions : mapping, optional
        The predictions, to count those that match no item.
    include_items : bool
        Include one row per item (parsed answer, reason, measures).
    connectivity_note : str, optional
        Why connectivity was not checked, added to the notes of every section that
        uses the check (SRN).

    Returns
    -------
    dict
        The JSON-serialisable report (NaN already turned into ``None``).
    """
    by_section: dict[str, list[Record]] = defaultdict(list)
    keys: list[str] = []
    unscored: list[str] = []
    for r in records:
        section = section_of(r.item)
        keys.append(section.key if section is not None else "unscored")
        if section is None:
            unscored.append(str(r.item.get("id")))
        else:
            by_section[section.key].append(r)
    summaries: dict[str, Any] = {}
    for section in sections():
        if by_section.get(section.key):
            summaries[section.key] = summarise_section(section, by_section[section.key])
            if connectivity_note and section.uses_connectivity:
                summaries[section.key].setdefault("notes", []).append(connectivity_note)
    ids = {str(r.item.get("id")) for r in records}
    report: dict[str, Any] = {
        "cartoqa_version": __version__,
        "n_items": len(records),
        "n_invalid": sum(not r.valid for r in records),
        "variants": VARIANTS,
        "metric_labels": metric_labels(m for s in summaries.values() for m in s["metrics"]),
        "sections": summaries,
    }
    if predictions is not None:
        unknown = sorted(set(predictions) - ids)
        report["n_predictions"] = len(predictions)
        report["n_missing"] = sum(1 for i in ids if i not in predictions)
        report["n_unknown_predictions"] = len(unknown)
        if unknown:
            report["unknown_prediction_ids"] = unknown[:20]
    if unscored:
        report["unscored_item_ids"] = unscored
    if include_items:
        report["items"] = [_item_row(r, key) for r, key in zip(records, keys, strict=True)]
    return report


def score_predictions(
    items: Sequence[Mapping[str, Any]],
    predictions: Mapping[str, str],
    *,
    is_connected: ConnectivityChecker | None = None,
    include_items: bool = True,
    connectivity_note: str | None = None,
) -> dict[str, Any]:
    """Score in-memory predictions against in-memory items.

    Parameters
    ----------
    items : sequence of mapping
        Dataset items.
    predictions : mapping of str to str
        Raw response per item id.
    is_connected : callable, optional
        SRN connectivity check; without it connectivity is reported as ``null``.
    include_items : bool
        Include per-item rows.
    connectivity_note : str, optional
        Why connectivity was not checked.

    Returns
    -------
    dict
        The report (see :func:`build_report`).
    """
    records = score_records(items, predictions, is_connected=is_connected)
    return build_report(records, predictions=predictions, include_items=include_items,
                        connectivity_note=connectivity_note)


def _add_extraction(
    report: dict[str, Any],
    extractor: AnswerExtractor,
    items: Sequence[Mapping[str, Any]],
    predictions: Mapping[str, str],
    records: list[Record],
    is_connected: ConnectivityChecker | None,
    note: str | None,
) -> None:
    """Ask the extractor, rescore with its answers, keep both in the report."""
    results = {str(r.item.get("id")): r.result for r in records}
    extracted, notes = extract_answers(extractor, items, predictions, results)
    second = []
    readings: dict[str, Record] = {}
    for record in records:
        item_id = str(record.item.get("id"))
        if item_id in extracted:
            record = measured_record(record.item, parse_extracted(record.item,
                                                                  extracted[item_id]),
                                     is_connected)
            readings[item_id] = record
        second.append(record)
    with_extractor = build_report(second, include_items=False, connectivity_note=note)
    report["with_extractor"] = rescore_summary(extractor, extracted, with_extractor, notes)
    for row in report.get("items") or []:
        reading = readings.get(str(row.get("id")))
        if reading is not None:
            entry: dict[str, Any] = {"text": extracted[str(row.get("id"))],
                                     "valid": reading.valid}
            if reading.valid:
                entry["parsed"] = reading.value
            else:
                entry["reason"] = getattr(reading.result, "reason", "")
            row["extractor"] = entry


def read_prediction_files(paths: Sequence[str | Path]) -> tuple[dict[str, str], list[str]]:
    """Read one or more predictions files into one mapping (an id may appear once).

    A harness's own result files given beside its predictions (VLMEvalKit's
    ``<model>_<dataset>_<suffix>.<ext>``, :func:`~cartoqa.scoring.harness.harness_result_files`)
    are left out with a note.

    Parameters
    ----------
    paths : sequence of str or pathlib.Path
        The files.

    Returns
    -------
    tuple
        Response per item id, and notes.

    Raises
    ------
    CartoqaError
        A file cannot be read, or two files answer the same item.
    """
    files, notes = harness_result_files([Path(p) for p in paths])
    merged: dict[str, str] = {}
    for path in files:
        predictions, file_notes = read_predictions(path)
        both = set(merged) & set(predictions)
        if both:
            raise CartoqaError(f"{path} answers item {sorted(both)[0]!r} again "
                               f"({len(both)} repeated ids)",
                               fix="give each item's prediction in one file only")
        merged.update(predictions)
        notes.extend(file_notes)
    return merged, notes


def score_dataset(
    dataset_dir: str | Path,
    predictions_path: str | Path | Sequence[str | Path],
    *,
    is_connected: ConnectivityChecker | None = None,
    check_connectivity: bool = True,
    extracts: Mapping[str, str] | None = None,
    include_items: bool = True,
    extractor: AnswerExtractor | None = None,
    convention: str = "cartoqa",
) -> dict[str, Any]:
    """Score a predictions file against a dataset folder.

    Parameters
    ----------
    dataset_dir : str or pathlib.Path
        The dataset folder (``items.jsonl``).
    predictions_path : str or pathlib.Path, or a sequence of them
        JSON lines ``{"id": ..., "response": ...}``, a VLMEvalKit prediction file or an
        lmms-eval sample log (see :func:`~cartoqa.scoring.io.read_predictions`);
        several files (e.g. VLMEvalKit's one per task) are read together.
    is_connected : callable, optional
        SRN connectivity check. When omitted and ``check_connectivity`` is true, the
        road-graph check of :mod:`groundtruth` is used if it is available.
    check_connectivity : bool
        ``False`` skips the connectivity check (reported as ``null``).
    extracts : mapping of str to str, optional
        Extract name (as items record it) or sha256 to file path, for extracts that
        are not bundled with cartoqa.
    include_items : bool
        Include one row per item in the report.
    extractor : AnswerExtractor, optional
        Send the responses in which the rules found no answer to this model
        (:mod:`cartoqa.scoring.extraction`); the report then also holds
        ``with_extractor``. Nothing is sent without it.
    convention : str
        ``"cartoqa"`` (default), ``"mapwise"`` or ``"frieda"``: score that paper's suite
        by the paper's own conventions (:mod:`cartoqa.scoring.conventions`); the report
        records it under ``convention``.

    Returns
    -------
    dict
        The report: ``sections`` per task (and STMF request) with metrics in two
        variants, strata, invalid counts and reasons, and per-item rows.

    Raises
    ------
    CartoqaError
        When the dataset or predictions cannot be read, an item belongs to no scoring
        section (a task or request no declared task has), the files hold no
        prediction, or no prediction is for an item of the dataset.
    """
    items = load_items(dataset_dir)
    _check_every_item_is_scored(items, dataset_dir)
    paths = ([predictions_path] if isinstance(predictions_path, str | Path)
             else list(predictions_path))
    predictions, file_notes = read_prediction_files(paths)
    ids = {str(item["id"]) for item in items}
    if not predictions:  # as refused as a file of foreign ids: nothing would be scored
        raise CartoqaError(
            f"{', '.join(map(str, paths))} holds no predictions",
            fix="give the file `cartoqa run` wrote, after it answered some items",
        )
    if not ids & set(predictions):
        raise CartoqaError(
            f"none of the {len(predictions)} predictions in {', '.join(map(str, paths))} is "
            "for an item "
            f"of {dataset_dir}",
            fix="score the predictions against the dataset they were made for",
        )
    note = None
    if is_connected is None and check_connectivity:
        is_connected, note = groundtruth_checker(extracts)
    elif not check_connectivity:
        is_connected, note = None, "connectivity not checked (turned off)"
    records = score_records(items, predictions, is_connected=is_connected,
                            convention=convention)
    report = build_report(records, predictions=predictions, include_items=include_items,
                          connectivity_note=note)

    report["convention"] = {"name": convention, "meaning": CONVENTIONS[convention]}
    if extractor is not None:
        _add_extraction(report, extractor, items, predictions, records, is_connected, note)
    problems = getattr(is_connected, "problems", None)
    if problems:
        for section in sections():
            if section.uses_connectivity and section.key in report["sections"]:
                report["sections"][section.key].setdefault("notes", []).extend(
                    sorted(set(problems.values())))
    if file_notes:
        report["notes"] = file_notes
    report["dataset"] = str(dataset_dir)
    report["predictions"] = str(paths[0]) if len(paths) == 1 else [str(p) for p in paths]
    return report
