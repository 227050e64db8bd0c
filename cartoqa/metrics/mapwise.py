"""MapWise's answer scoring: ranges with units and partial credit, single words with ties,
and Kendall's tau-b for rankings.

MapWise (Mukhopadhyay et al., §4) scores binary and count answers by exact match,
single-word answers by recall (several regions may be right), lists by precision and
recall, ranges after normalising them to plain numbers (``1k`` = 1000), exactly on
discrete maps and with 0.5 for an overlapping range on continuous maps, and rankings with
a rank metric. The paper does not name its rank metric; cartoqa uses **Kendall's tau-b**
between the true values and the predicted ranks, because both sides may hold ties: the
truth when regions share a class, the prediction when a model gives several regions the
same rank (what MapWise reports models doing).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from cartoqa.metrics.registry import register_metric

#: Relative tolerance of an exact range match (numbers as the legend prints them).
RANGE_RTOL = 1e-6


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= RANGE_RTOL * max(1.0, abs(a), abs(b))


def range_score(truth: Sequence[float], predicted: Sequence[float], continuous: bool) -> float:
    """MapWise's range score.

    1.0 when both bounds match; on continuous maps 0.5 when the two closed intervals
    overlap in more than a single point; else 0.

    Examples
    --------
    >>> range_score([10, 20], [10, 20], continuous=False)
    1.0
    >>> range_score([10, 20], [15, 25], continuous=False)
    0.0
    >>> range_score([10, 20], [15, 25], continuous=True)
    0.5
    >>> range_score([10, 20], [20, 30], continuous=True)  # touching is not overlapping
    0.0
    """
    (a, b), (c, d) = sorted(truth), sorted(predicted)
    if _same(a, c) and _same(b, d):
        return 1.0
    if continuous and min(b, d) - max(a, c) > RANGE_RTOL * max(1.0, abs(b), abs(d)):
        return 0.5
    return 0.0


def single_word_score(accepted: Sequence[str], predicted: Sequence[str]) -> float:
    """Recall of a one-word answer when several regions are right (a tie).

    The question needs one region; any of ``accepted`` is it. The response's first
    region is its answer (naming every region cannot game the score).

    Examples
    --------
    >>> single_word_score(["BR", "UP"], ["UP"]), single_word_score(["BR"], ["UP", "BR"])
    (1.0, 0.0)
    >>> single_word_score(["BR"], [])
    0.0
    """
    return 1.0 if predicted and predicted[0] in set(accepted) else 0.0


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's tau-b of two paired sequences (``None`` when either is all ties).

    ``(C - D) / sqrt((n0 - n1) (n0 - n2))`` with ``C``/``D`` the concordant/discordant
    pairs, ``n0`` all pairs, ``n1``/``n2`` the pairs tied in ``x``/``y``.

    Examples
    --------
    >>> kendall_tau_b([1, 2, 3], [1, 2, 3]), kendall_tau_b([1, 2, 3], [3, 2, 1])
    (1.0, -1.0)
    >>> round(kendall_tau_b([1, 2, 3, 4], [1, 2, 2, 4]), 4)  # one tie: 5/sqrt(6*5)
    0.9129
    >>> kendall_tau_b([1, 1], [1, 2]) is None
    True
    """
    n = len(x)
    if n != len(y):
        raise ValueError("sequences differ in length")
    c = d = tx = ty = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0:
                tx += 1
            if dy == 0:
                ty += 1
            if dx * dy > 0:
                c += 1
            elif dx * dy < 0:
                d += 1
    n0 = n * (n - 1) // 2
    denom = math.sqrt((n0 - tx) * (n0 - ty))
    return None if denom == 0 else (c - d) / denom


def rank_score(truth: Mapping[str, float], predicted: Mapping[str, float]) -> float:
    """Kendall's tau-b between true values (higher = rank 1) and predicted ranks.

    ``truth`` maps each asked region to its value (its class on a discrete map, so
    regions of one class tie); ``predicted`` maps regions to ranks (1 = highest, ties
    allowed). Regions the response leaves out share the rank after its last one. The
    score is in [-1, 1]; an undefined tau-b (the response ranks everything equal)
    scores 0.

    Examples
    --------
    >>> rank_score({"a": 30, "b": 20, "c": 10}, {"a": 1, "b": 2, "c": 3})
    1.0
    >>> round(rank_score({"a": 30, "b": 20, "c": 10}, {"a": 1, "b": 2, "c": 2}), 4)
    0.8165
    >>> rank_score({"a": 30, "b": 20, "c": 10}, {"a": 1, "b": 1, "c": 1})
    0.0
    """
    regions = sorted(truth)
    last = max(predicted.values(), default=0.0) + 1
    xs = [float(truth[r]) for r in regions]
    ys = [-float(predicted.get(r, last)) for r in regions]  # rank 1 is the highest value
    tau = kendall_tau_b(xs, ys)
    return 0.0 if tau is None else tau


# MapWise's two metrics of its own, registered under the names its reports use.
register_metric("range_score",
                description="MapWise range: 1 for the exact range, 0.5 for an overlapping one "
                            "on a colour bar, else 0",
                higher_is_better=True)(range_score)
register_metric("tau_b",
                description="Kendall's tau-b between true values and predicted ranks (ties "
                            "allowed), -1..1",
                higher_is_better=True)(rank_score)
