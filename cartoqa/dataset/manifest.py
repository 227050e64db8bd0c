"""The dataset manifest: counts per task, request and stratum; versions; attribution."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from cartoqa.dataset import ATTRIBUTION, DATA_LICENSE

#: Version of the dataset layout (docs/dataset-format.md).
FORMAT_VERSION = 1


def count_items(items: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Count items per task, per request and per stratum value.

    Parameters
    ----------
    items : iterable of dict
        Dataset items.

    Returns
    -------
    dict
        ``{"total": n, "by_task": {task: n}, "by_request": {task: {request: n}},
        "by_stratum": {task: {key: {value: n}}}}``; stratum values are stringified.

    Examples
    --------
    >>> c = count_items([{"task": "mml", "request": "roads", "strata": {"color": "red"}}])
    >>> c["by_task"], c["by_stratum"]["mml"]["color"]
    ({'mml': 1}, {'red': 1})
    """
    by_task: Counter[str] = Counter()
    by_request: dict[str, Counter[str]] = defaultdict(Counter)
    by_stratum: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    total = 0
    for item in items:
        task = str(item["task"])
        total += 1
        by_task[task] += 1
        by_request[task][str(item.get("request"))] += 1
        for key, value in (item.get("strata") or {}).items():
            by_stratum[task][str(key)][_stratum_value(value)] += 1
    return {
        "total": total,
        "by_task": dict(sorted(by_task.items())),
        "by_request": {t: dict(sorted(c.items())) for t, c in sorted(by_request.items())},
        "by_stratum": {
            t: {k: dict(sorted(c.items())) for k, c in sorted(keys.items())}
            for t, keys in sorted(by_stratum.items())
        },
    }


def _stratum_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def build_manifest(
    items: list[dict[str, Any]],
    *,
    extract: Mapping[str, Any],
    versions: Mapping[str, str | None],
    image_sizes: Mapping[str, tuple[int, int]],
    shortfalls: Mapping[str, Mapping[str, Any]],
    rendering: Mapping[str, Any] | None = None,
    unfilled_zooms: Mapping[str, Mapping[int, str]] | None = None,
) -> dict[str, Any]:
    """Assemble ``manifest.json``.

    Parameters
    ----------
    items : list of dict
        The dataset's items.
    extract : dict
        ``name``, ``sha256`` and ``bounds`` of the extract.
    versions : dict
        Software versions (:func:`cartoqa.dataset.versions.software_versions`).
    image_sizes : dict
        ``task -> (width, height)`` of its images; ``cartoqa validate`` checks them.
    shortfalls : dict
        ``task -> {"requested": n, "written": m, "reason": str}`` for tasks the extract
        could not fill.
    rendering : dict, optional
        Rendering facts (viewport, tile source) to record.
    unfilled_zooms : dict, optional
        ``task -> {zoom: why}`` for zooms the extract's data cannot fill a view at
        (left out of that task's plan); written as ``zooms_not_filled``.

    Returns
    -------
    dict
        The manifest, without the ``build`` key (the writer adds it).
    """
    return {
        "format_version": FORMAT_VERSION,
        "attribution": ATTRIBUTION,
        "data_license": DATA_LICENSE,
        "extract": dict(extract),
        "versions": dict(versions),
        "image_sizes": {t: [int(w), int(h)] for t, (w, h) in sorted(image_sizes.items())},
        "counts": count_items(items),
        "shortfalls": {t: dict(v) for t, v in sorted(shortfalls.items())},
        "rendering": dict(rendering or {}),
        "zooms_not_filled": {t: {str(z): why for z, why in sorted(v.items())}
                             for t, v in sorted((unfilled_zooms or {}).items())},
    }
