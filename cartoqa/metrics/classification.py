"""Accuracy and macro-F1."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

from cartoqa.metrics.registry import register_metric


@register_metric("accuracy", description="share of correct answers",
                 higher_is_better=True)
def accuracy(correct: Sequence[bool]) -> float:
    """Share of correct answers.

    Parameters
    ----------
    correct : sequence of bool
        One flag per answer (an invalid answer is ``False``).

    Returns
    -------
    float
        The share in [0, 1]; NaN for no answers.

    Examples
    --------
    >>> accuracy([True, False, True, True])
    0.75
    """
    if not correct:
        return math.nan
    return sum(bool(c) for c in correct) / len(correct)


@register_metric("macro_f1", description="F1 of yes and of no, averaged",
                 higher_is_better=True)
def macro_f1(truth: Sequence[Hashable], predicted: Sequence[Hashable | None]) -> float:
    """Macro-averaged F1 over the classes in ``truth`` and ``predicted``.

    An invalid answer (``None``) is never correct: it is a missed true class and a
    false positive for no class. Classes are those that occur in ``truth`` or among the
    valid predictions; each class's F1 is ``2 TP / (2 TP + FP + FN)``.

    Parameters
    ----------
    truth : sequence
        True labels.
    predicted : sequence
        Predicted labels, ``None`` for invalid answers; same length as ``truth``.

    Returns
    -------
    float
        Mean F1 over the classes; NaN for no answers.

    Examples
    --------
    >>> macro_f1([True, True, False, False], [True, False, False, None])
    0.5833333333333333
    """
    if len(truth) != len(predicted):
        raise ValueError("truth and predicted differ in length")
    if not truth:
        return math.nan
    classes = set(truth) | {p for p in predicted if p is not None}
    scores = []
    for cls in classes:
        tp = sum(t == cls and p == cls for t, p in zip(truth, predicted, strict=True))
        fp = sum(t != cls and p == cls for t, p in zip(truth, predicted, strict=True))
        fn = sum(t == cls and p != cls for t, p in zip(truth, predicted, strict=True))
        scores.append(2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 1.0)
    return sum(scores) / len(scores)
