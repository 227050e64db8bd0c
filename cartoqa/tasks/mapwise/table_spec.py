"""The small spec beside a ``--data`` table: how a publisher drew the legend.

``mine.csv`` may have ``mine.json`` beside it::

    {"title": "Rate of legal abortions per 1,000 women", "units": "per 1,000",
     "legend": "discrete", "classes": ["2.4-6.5", "6.8-10.5", "10.6-14.2", "14.8-25.3"],
     "reversed": true}

Keys (all optional): ``title`` (the map title; default the column name), ``units``
(``"%"`` or a word with "percent" makes the map a percentage map), ``legend``
(``"discrete"`` or ``"continuous"``: only styles of that kind are drawn), ``classes``
(published class ranges, as ``[lo, hi]`` pairs or MapWise's ``"lo-hi"`` texts, which
are also the legend's labels), ``breaks`` (class edges ``b0 < ... < bk``), ``k`` (the
number of Fisher-Jenks classes, 3 to 8; default 5), ``reversed`` (legend listed from the
highest class down), ``column`` (the value column to draw; default every column).
``classes``, ``breaks`` and ``k`` exclude each other.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from cartoqa.errors import CartoqaError
from groundtruth.thematic.classification import (
    DEFAULT_K,
    MAX_CLASSES,
    MIN_CLASSES,
    Classification,
    classes_from_breaks,
    fisher_jenks,
    published_classes,
)

__all__ = ["TableSpec", "parse_spec", "read_spec", "spec_path"]

_KEYS = {"title", "units", "legend", "classes", "breaks", "k", "reversed", "column"}
_RANGE = re.compile(r"^\s*(-?[\d.,]+)\s*%?\s*(?:[-–]\s*(-?[\d.,]+)\s*%?)?\s*$")


@dataclass(frozen=True)
class TableSpec:
    """How a table's map is drawn (see the module docstring)."""

    title: str | None = None
    units: str | None = None
    legend: str | None = None
    classes: tuple[tuple[float, float], ...] | None = None
    labels: tuple[str, ...] | None = None
    breaks: tuple[float, ...] | None = None
    k: int = DEFAULT_K
    reversed: bool = False
    column: str | None = None

    @property
    def percent(self) -> bool | None:
        """Whether the units are percentages (None when no units are given)."""
        if self.units is None:
            return None
        return "%" in self.units or "percent" in self.units.lower()

    def classify(self, values: dict[str, float]) -> Classification:
        """Classes of the values: published ranges, breaks, or ``k`` Fisher-Jenks classes."""
        if self.classes is not None:
            return published_classes(values, list(self.classes),
                                     list(self.labels) if self.labels else None)
        if self.breaks is not None:
            return classes_from_breaks(values, list(self.breaks))
        return fisher_jenks(values, self.k)


def _range(item: Any, where: str) -> tuple[tuple[float, float], str | None]:
    if isinstance(item, str):
        m = _RANGE.match(item)
        if not m:
            raise CartoqaError(f"{where}: class {item!r} is not a range 'lo-hi'",
                               fix="write classes as \"2.4-6.5\" or [2.4, 6.5]")
        lo = float(m.group(1).replace(",", ""))
        hi = float(m.group(2).replace(",", "")) if m.group(2) else lo  # one value: "2%"
        return (lo, hi), item.strip()
    if (isinstance(item, list) and len(item) == 2
            and all(isinstance(x, int | float) for x in item)):
        return (float(item[0]), float(item[1])), None
    raise CartoqaError(f"{where}: class {item!r} is not a range",
                       fix="write classes as \"2.4-6.5\" or [2.4, 6.5]")


def parse_spec(raw: Any, where: str = "spec") -> TableSpec:
    """A :class:`TableSpec` from the JSON object of a spec file.

    Raises
    ------
    CartoqaError
        One line naming the key that is wrong.

    Examples
    --------
    >>> s = parse_spec({"classes": ["2.4-6.5", "6.8-10.5", "10.6-14.2"], "units": "%"})
    >>> s.classes, s.labels, s.percent
    (((2.4, 6.5), (6.8, 10.5), (10.6, 14.2)), ('2.4-6.5', '6.8-10.5', '10.6-14.2'), True)
    >>> parse_spec({"classes": ["2%", "5%-7%", "-0.01 - 100.00"]}).classes
    ((2.0, 2.0), (5.0, 7.0), (-0.01, 100.0))
    >>> parse_spec({"k": 9})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cartoqa.errors.CartoqaError: spec: k must be a whole number from 3 to 8, got 9 (...)
    """
    if not isinstance(raw, dict):
        raise CartoqaError(f"{where}: a spec is a JSON object", fix="write {\"title\": ...}")
    unknown = sorted(set(raw) - _KEYS)
    if unknown:
        raise CartoqaError(f"{where}: unknown key {unknown[0]!r}",
                           fix="use " + ", ".join(sorted(_KEYS)))
    if len({"classes", "breaks", "k"} & set(raw)) > 1:
        raise CartoqaError(f"{where}: give one of classes, breaks and k",
                           fix="drop the others")
    legend = raw.get("legend")
    if legend is not None and legend not in ("discrete", "continuous"):
        raise CartoqaError(f"{where}: legend must be 'discrete' or 'continuous', got "
                           f"{legend!r}", fix="pick one")
    for key in ("title", "units", "column"):
        if key in raw and not isinstance(raw[key], str):
            raise CartoqaError(f"{where}: {key} must be text", fix="quote it")
    if "reversed" in raw and not isinstance(raw["reversed"], bool):
        raise CartoqaError(f"{where}: reversed must be true or false", fix="fix it")
    k = raw.get("k", DEFAULT_K)
    if not isinstance(k, int) or isinstance(k, bool) or not MIN_CLASSES <= k <= MAX_CLASSES:
        raise CartoqaError(f"{where}: k must be a whole number from {MIN_CLASSES} to "
                           f"{MAX_CLASSES}, got {k}", fix="choose a class count in range")
    classes = labels = None
    if "classes" in raw:
        items = raw["classes"]
        if not isinstance(items, list) or not MIN_CLASSES <= len(items) <= MAX_CLASSES:
            raise CartoqaError(f"{where}: classes must list {MIN_CLASSES} to {MAX_CLASSES} "
                               "ranges", fix="give each class's range")
        parsed = [_range(it, where) for it in items]
        classes = tuple(r for r, _ in parsed)
        texts = [t for _, t in parsed]
        labels = tuple(t for t in texts if t) if all(texts) else None
    breaks = None
    if "breaks" in raw:
        items = raw["breaks"]
        if (not isinstance(items, list)
                or not all(isinstance(x, int | float) and not isinstance(x, bool)
                           for x in items)
                or not MIN_CLASSES + 1 <= len(items) <= MAX_CLASSES + 1
                or any(a >= b for a, b in pairwise(items))):
            raise CartoqaError(f"{where}: breaks must be {MIN_CLASSES + 1} to "
                               f"{MAX_CLASSES + 1} increasing numbers",
                               fix="e.g. [0, 10, 20, 30]")
        breaks = tuple(float(x) for x in items)
    return TableSpec(title=raw.get("title"), units=raw.get("units"), legend=legend,
                     classes=classes, labels=labels, breaks=breaks, k=k,
                     reversed=bool(raw.get("reversed", False)), column=raw.get("column"))


def spec_path(table: Path) -> Path:
    """Where a table's spec lies: beside it, same name, ``.json``."""
    return table.with_suffix(".json")


def read_spec(table: Path) -> TableSpec | None:
    """The spec beside a table, or None when there is none."""
    path = spec_path(table)
    if not path.is_file():
        return None
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise CartoqaError(f"{path}: not JSON ({exc.msg}, line {exc.lineno})",
                           fix="fix the spec file") from None
    return parse_spec(raw, str(path))
