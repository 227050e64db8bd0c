"""Precision, recall and F1 between lists of names."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from cartoqa.metrics.registry import register_metric
from cartoqa.parsing.names import normalise_name


@dataclass(frozen=True)
class PRF:
    """Precision, recall, F1 and the counts behind them.

    Parameters
    ----------
    precision, recall, f1 : float
        In [0, 1].
    tp, fp, fn : int
        Matched, extra predicted and missed names.
    """

    precision: float
    recall: float
    f1: float
    tp: int = 0
    fp: int = 0
    fn: int = 0


def prf_from_counts(tp: int, fp: int, fn: int) -> PRF:
    """Precision, recall and F1 from counts, with the empty-list rule.

    When nothing was to be found and nothing was predicted (all counts 0) the answer is
    perfect: 1, 1, 1. Otherwise a zero denominator gives 0 (an empty prediction has
    precision 0 against a non-empty truth; any prediction has recall 0 against an
    empty truth).

    Parameters
    ----------
    tp, fp, fn : int
        True positives, false positives, false negatives.

    Returns
    -------
    PRF
        The scores.

    Examples
    --------
    >>> prf_from_counts(2, 1, 1).f1
    0.6666666666666666
    >>> prf_from_counts(0, 0, 0).f1
    1.0
    """
    if tp + fp + fn == 0:
        return PRF(1.0, 1.0, 1.0, 0, 0, 0)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return PRF(precision, recall, f1, tp, fp, fn)


def match_counts(
    truth: Sequence[str],
    predicted: Sequence[str],
    *,
    normalise: Callable[[str], str] = normalise_name,
) -> tuple[int, int, int]:
    """Count matched, extra and missed names, as multisets of normalised names.

    Each true name can be matched once: a name predicted twice matches twice only if
    it is true twice (two cafés with one name). Names that normalise to the empty
    string are ignored on both sides.

    Parameters
    ----------
    truth, predicted : sequence of str
        Names as written.
    normalise : callable
        Name normaliser (:func:`~cartoqa.parsing.names.normalise_name`).

    Returns
    -------
    tuple of int
        ``(tp, fp, fn)``.

    Examples
    --------
    >>> match_counts(["Café A", "B"], ["cafe a", "cafe a", "C"])
    (1, 2, 1)
    """
    t = Counter(k for k in map(normalise, truth) if k)
    p = Counter(k for k in map(normalise, predicted) if k)
    tp = sum((t & p).values())
    return tp, sum(p.values()) - tp, sum(t.values()) - tp


@register_metric("list_prf", description="precision/recall/F1 of one predicted name list",
                 higher_is_better=True)
def list_prf(truth: Sequence[str], predicted: Sequence[str]) -> PRF:
    """Precision, recall and F1 of one predicted list of names.

    Parameters
    ----------
    truth, predicted : sequence of str
        Names as written (normalised and matched by :func:`match_counts`).

    Returns
    -------
    PRF
        The scores.

    Examples
    --------
    >>> list_prf(["Main Street", "Kauppatori"], ["main st", "Esplanadi"]).f1
    0.5
    """
    return prf_from_counts(*match_counts(truth, predicted))


@register_metric("micro_prf", description="precision/recall/F1 from counts summed over lists",
                 higher_is_better=True)
def micro_prf(pairs: Iterable[tuple[Sequence[str], Sequence[str]]]) -> PRF:
    """Micro-averaged precision, recall and F1 over several ``(truth, predicted)`` lists.

    Counts are summed over the lists (e.g. the 22 feature types of one MTMF map) before
    the scores are computed; names match only within their own list.

    Parameters
    ----------
    pairs : iterable of (sequence of str, sequence of str)
        ``(true names, predicted names)`` per list.

    Returns
    -------
    PRF
        The scores.

    Examples
    --------
    >>> micro_prf([(["A"], ["A", "B"]), ([], []), (["C"], [])]).f1
    0.5
    """
    tp = fp = fn = 0
    for truth, predicted in pairs:
        a, b, c = match_counts(truth, predicted)
        tp, fp, fn = tp + a, fp + b, fn + c
    return prf_from_counts(tp, fp, fn)


@register_metric("precision", description="share of predicted names that are true (normalised)",
                 higher_is_better=True)
def precision(truth: Sequence[str], predicted: Sequence[str]) -> float:
    """Precision of one predicted list of names (see :func:`list_prf`).

    Examples
    --------
    >>> precision(["Main Street"], ["main st", "Esplanadi"])
    0.5
    """
    return list_prf(truth, predicted).precision


@register_metric("recall", description="share of true names that are predicted (normalised)",
                 higher_is_better=True)
def recall(truth: Sequence[str], predicted: Sequence[str]) -> float:
    """Recall of one predicted list of names (see :func:`list_prf`).

    Examples
    --------
    >>> recall(["Main Street", "Kauppatori"], ["main st"])
    0.5
    """
    return list_prf(truth, predicted).recall


@register_metric("f1", description="harmonic mean of precision and recall", higher_is_better=True)
def f1(truth: Sequence[str], predicted: Sequence[str]) -> float:
    """F1 of one predicted list of names (see :func:`list_prf`).

    Examples
    --------
    >>> f1(["Main Street", "Kauppatori"], ["main st", "Esplanadi"])
    0.5
    """
    return list_prf(truth, predicted).f1
