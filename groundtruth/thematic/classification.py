"""Fisher-Jenks classes (five by default, as MapIQ) and the ranges a legend shows.

A class is numbered 1 (lowest) to ``k`` (highest). The range of a class runs from the
smallest to the largest value in it, so that ranges never overlap; legend labels
(:func:`range_labels`) are rounded to the fewest significant digits (at least three) that
keep every label bound distinct and increasing.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise

#: MapIQ's number of classes.
DEFAULT_K = 5


@dataclass(frozen=True)
class Classification:
    """Values classified into ``k`` ordered classes.

    Attributes
    ----------
    classes : dict
        Region -> class number, 1 (lowest) .. k.
    bounds : tuple of (float, float)
        ``(lowest value, highest value)`` of each class, class 1 first.
    labels : tuple of str
        Legend label of each class, e.g. ``"99.9–163"`` (en dash).
    label_bounds : tuple of (float, float)
        The rounded numbers shown in each label.
    method : str
        ``"fisher-jenks"`` (or ``"fisher-jenks, lone end values absorbed"``),
        ``"published"`` (given class ranges) or ``"breaks"``.
    absorbed : tuple of str
        Regions that Fisher-Jenks left alone in the lowest or highest class and that
        :func:`fisher_jenks_absorbing` put into the next class instead.
    """

    classes: dict[str, int]
    bounds: tuple[tuple[float, float], ...]
    labels: tuple[str, ...]
    label_bounds: tuple[tuple[float, float], ...]
    method: str = "fisher-jenks"
    absorbed: tuple[str, ...] = ()

    @property
    def k(self) -> int:
        """Number of classes."""
        return len(self.bounds)

    def label_of(self, region: str) -> str:
        """Legend label of a region's class.

        Parameters
        ----------
        region : str
            A region code of the classification.

        Returns
        -------
        str
            The label of the region's class in the legend.
        """
        return self.labels[self.classes[region] - 1]


def round_sig(x: float, digits: int) -> float:
    """Round to ``digits`` significant digits.

    Parameters
    ----------
    x : float
        The number.
    digits : int
        Significant digits kept.

    Returns
    -------
    float
        ``x`` rounded (0.0 stays 0.0).

    Examples
    --------
    >>> round_sig(163.24, 3), round_sig(0.012345, 2), round_sig(0.0, 3)
    (163.0, 0.012, 0.0)
    """
    if x == 0 or not math.isfinite(x):
        return x
    return round(x, digits - 1 - math.floor(math.log10(abs(x))))


def format_number(x: float, digits: int) -> str:
    """Text of ``x`` rounded to ``digits`` significant digits, without a trailing ``.0``.

    Parameters
    ----------
    x : float
        The number.
    digits : int
        Significant digits kept.

    Returns
    -------
    str
        The rounded number as a legend writes it.

    Examples
    --------
    >>> format_number(163.24, 3), format_number(99.94, 3), format_number(1234567, 3)
    ('163', '99.9', '1230000')
    >>> format_number(0.1234, 3)
    '0.123'
    """
    r = round_sig(x, digits)
    if r == int(r) and abs(r) < 1e15:
        return str(int(r))
    text = f"{r:.{max(0, digits - 1 - math.floor(math.log10(abs(r))))}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def range_labels(bounds: tuple[tuple[float, float], ...], min_digits: int = 3) -> tuple[
        tuple[str, ...], tuple[tuple[float, float], ...]]:
    """Legend labels ``"lo–hi"`` with the fewest digits that keep all bounds distinct.

    Parameters
    ----------
    bounds : tuple of (float, float)
        Each class's ``(lo, hi)``, in order.
    min_digits : int, optional
        Significant digits used at least.

    Returns
    -------
    tuple
        The labels, and the bounds as the labels write them (rounded).

    Examples
    --------
    >>> range_labels(((1.0, 2.0), (2.04, 3.0)))[0]
    ('1–2', '2.04–3')
    >>> range_labels(((10.0, 163.2), (163.4, 200.0)))[0]
    ('10–163.2', '163.4–200')
    """
    flat = [v for b in bounds for v in b]
    for digits in range(min_digits, 16):
        rounded = [round_sig(v, digits) for v in flat]
        # Within a class lo <= hi; between classes strictly increasing.
        ok = all(rounded[2 * i + 1] < rounded[2 * i + 2] for i in range(len(bounds) - 1))
        if ok:
            texts = [format_number(v, digits) for v in flat]
            labels = tuple(f"{texts[2 * i]}–{texts[2 * i + 1]}" for i in range(len(bounds)))
            nums = tuple((rounded[2 * i], rounded[2 * i + 1]) for i in range(len(bounds)))
            return labels, nums
    raise ValueError("class bounds cannot be told apart")


def fisher_jenks(values: Mapping[str, float], k: int = DEFAULT_K) -> Classification:
    """Classify values into ``k`` Fisher-Jenks classes (mapclassify's exact optimum).

    Parameters
    ----------
    values : mapping
        Region -> finite value.
    k : int
        Number of classes.

    Returns
    -------
    Classification

    Raises
    ------
    ValueError
        When there are fewer distinct values than classes, or a value is not finite.

    Examples
    --------
    >>> c = fisher_jenks({"a": 1, "b": 2, "c": 10, "d": 11, "e": 20, "f": 21, "g": 40,
    ...                   "h": 41, "i": 80, "j": 81})
    >>> [c.classes[r] for r in "abcdefghij"]
    [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    >>> c.labels
    ('1–2', '10–11', '20–21', '40–41', '80–81')
    """
    import mapclassify  # imported here: it pulls in scikit-learn
    import numpy as np

    regions = sorted(values)
    data = np.array([float(values[r]) for r in regions])
    if not np.all(np.isfinite(data)):
        raise ValueError("values must be finite numbers")
    if len(np.unique(data)) < k:
        raise ValueError(f"need at least {k} distinct values for {k} classes, "
                         f"got {len(np.unique(data))}")
    with warnings.catch_warnings():  # "Numba not installed": the pure version is exact
        warnings.simplefilter("ignore", UserWarning)
        fj = mapclassify.FisherJenks(data, k=k)
    yb = [int(b) + 1 for b in fj.yb]
    if sorted(set(yb)) != list(range(1, k + 1)):
        raise ValueError("Fisher-Jenks left a class empty")
    classes = dict(zip(regions, yb, strict=True))
    bounds = tuple(
        (float(data[[c == i for c in yb]].min()), float(data[[c == i for c in yb]].max()))
        for i in range(1, k + 1)
    )
    labels, nums = range_labels(bounds)
    return Classification(classes=classes, bounds=bounds, labels=labels, label_bounds=nums)


def fisher_jenks_absorbing(values: Mapping[str, float], k: int = DEFAULT_K,
                           max_per_end: int = 2) -> Classification:
    """Fisher-Jenks classes in which no end class holds a single region.

    Fisher-Jenks gives an extreme outlier a class of its own (DC alone in class 5, legend
    ``"1350–1350"``); then no class-5 cluster can exist and the "highest" answers are
    always that one region. Here such a lone region is set aside and the others are
    classified again, up to ``max_per_end`` times at each end; the regions set aside join
    the end class (whose range then reaches them: ``"845–1350"``). When the rest has too
    few distinct values to classify, the last valid classification is kept.

    Examples
    --------
    >>> vals = {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "i": 9,
    ...         "j": 10, "out": 100}
    >>> fisher_jenks(vals).labels[-1]
    '100–100'
    >>> c = fisher_jenks_absorbing(vals)
    >>> c.labels[-1], c.classes["out"], c.absorbed
    ('9–100', 5, ('out',))
    """
    base = fisher_jenks(values, k)
    rest = dict(values)
    low: list[str] = []
    high: list[str] = []
    current = base
    while True:
        members = {i: [r for r, c in current.classes.items() if c == i] for i in (1, k)}
        if len(members[k]) == 1 and len(high) < max_per_end:
            drop, side = members[k][0], high
        elif len(members[1]) == 1 and len(low) < max_per_end:
            drop, side = members[1][0], low
        else:
            break
        trial = {r: v for r, v in rest.items() if r != drop}
        try:
            nxt = fisher_jenks(trial, k)
        except ValueError:
            break
        side.append(drop)
        rest, current = trial, nxt
    if not low and not high:
        return base
    classes = dict(current.classes)
    classes.update({r: k for r in high})
    classes.update({r: 1 for r in low})
    classes = dict(sorted(classes.items()))
    bounds = tuple((min(float(values[r]) for r in classes if classes[r] == i),
                    max(float(values[r]) for r in classes if classes[r] == i))
                   for i in range(1, k + 1))
    labels, nums = range_labels(bounds)
    return Classification(classes=classes, bounds=bounds, labels=labels, label_bounds=nums,
                          method="fisher-jenks, lone end values absorbed",
                          absorbed=tuple(sorted(low + high)))


def class_of_value(value: float, bounds: tuple[tuple[float, float], ...]) -> int | None:
    """The class whose range holds ``value`` (None when it falls between ranges).

    Parameters
    ----------
    value : float
        The value.
    bounds : tuple of (float, float)
        Each class's ``(lo, hi)``, in order, ends included.

    Returns
    -------
    int or None
        The class number, counted from 1, or None.

    Examples
    --------
    >>> class_of_value(12, ((1, 5), (10, 20), (30, 40)))
    2
    >>> class_of_value(7, ((1, 5), (10, 20))) is None
    True
    """
    for i, (lo, hi) in enumerate(bounds, start=1):
        if lo <= value <= hi:
            return i
    return None


#: Class counts a legend may have (publishers draw 3 to 8 classes).
MIN_CLASSES, MAX_CLASSES = 3, 8


def published_classes(values: Mapping[str, float], ranges: list[tuple[float, float]],
                      labels: list[str] | None = None) -> Classification:
    """Classify values into published class ranges (MapWise's ``class_descriptions``,
    a publisher's legend): class ``i`` holds the values ``lo_i <= v <= hi_i``.

    Parameters
    ----------
    values : mapping
        Region -> value.
    ranges : list of (float, float)
        Each class's ``(lo, hi)``, lowest class first; increasing, not overlapping
        (published ranges may leave gaps: ``2.4-6.5``, ``6.8-10.5``).
    labels : list of str, optional
        The legend's text of each class (default ``"lo–hi"``).

    Raises
    ------
    ValueError
        For fewer than :data:`MIN_CLASSES` or more than :data:`MAX_CLASSES` classes,
        overlapping or decreasing ranges, or a value in no class.

    Examples
    --------
    >>> c = published_classes({"a": 2.4, "b": 7.0, "c": 25.3}, [(2.4, 6.5), (6.8, 10.5),
    ...                        (10.6, 14.2), (14.8, 25.3)])
    >>> c.classes, c.labels[1], c.method
    ({'a': 1, 'b': 2, 'c': 4}, '6.8–10.5', 'published')
    """
    k = len(ranges)
    if not MIN_CLASSES <= k <= MAX_CLASSES:
        raise ValueError(f"a legend needs {MIN_CLASSES} to {MAX_CLASSES} classes, got {k}")
    for i, (lo, hi) in enumerate(ranges):
        if lo > hi or (i and ranges[i - 1][1] > lo):
            raise ValueError(f"class ranges must increase without overlapping: {ranges}")
    classes = {}
    for region in sorted(values):
        v = float(values[region])
        cls = class_of_value(v, tuple(ranges))
        if cls is None:
            raise ValueError(f"{region}'s value {v:g} lies in no class of {ranges}")
        classes[region] = cls
    texts = list(labels) if labels else [f"{format_number(lo, 6)}–{format_number(hi, 6)}"
                                         for lo, hi in ranges]
    if len(texts) != k:
        raise ValueError(f"{len(texts)} labels for {k} classes")
    bounds = tuple((float(lo), float(hi)) for lo, hi in ranges)
    return Classification(classes=classes, bounds=bounds, labels=tuple(texts),
                          label_bounds=bounds, method="published")


def classes_from_breaks(values: Mapping[str, float], breaks: list[float]) -> Classification:
    """Classify values by user-given breaks ``b0 < b1 < ... < bk``: class ``i`` holds
    ``b_{i-1} < v <= b_i`` (class 1 also ``v = b0``); labels ``"b_{i-1}–b_i"``.

    Examples
    --------
    >>> c = classes_from_breaks({"a": 0.0, "b": 10.0, "c": 10.5, "d": 30.0}, [0, 10, 20, 30])
    >>> c.classes, c.labels
    ({'a': 1, 'b': 1, 'c': 2, 'd': 3}, ('0–10', '10–20', '20–30'))
    """
    edges = [float(b) for b in breaks]
    if any(a >= b for a, b in pairwise(edges)):
        raise ValueError(f"breaks must increase: {breaks}")
    k = len(edges) - 1
    if not MIN_CLASSES <= k <= MAX_CLASSES:
        raise ValueError(f"a legend needs {MIN_CLASSES} to {MAX_CLASSES} classes, got {k}")
    classes = {}
    for region in sorted(values):
        v = float(values[region])
        if not edges[0] <= v <= edges[-1]:
            raise ValueError(f"{region}'s value {v:g} lies outside the breaks {breaks}")
        classes[region] = next(i for i in range(1, k + 1) if v <= edges[i])
    bounds = tuple((edges[i], edges[i + 1]) for i in range(k))
    labels = tuple(f"{format_number(lo, 6)}–{format_number(hi, 6)}" for lo, hi in bounds)
    return Classification(classes=classes, bounds=bounds, labels=labels,
                          label_bounds=bounds, method="breaks")
