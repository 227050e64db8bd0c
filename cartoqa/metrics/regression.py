"""RMSE, MAE, MAPE and the coefficient of determination r2."""

from __future__ import annotations

import math
from collections.abc import Sequence

from cartoqa.metrics.registry import register_metric

#: True values whose spread is within this share of the largest count as constant for
#: r2 (a path given once in metres and once in rounded feet is one value).
CONSTANT_REL_TOL = 1e-4


def _pairs(truth: Sequence[float], predicted: Sequence[float]) -> list[tuple[float, float]]:
    if len(truth) != len(predicted):
        raise ValueError("truth and predicted differ in length")
    return [(float(t), float(p)) for t, p in zip(truth, predicted, strict=True)]


@register_metric("rmse", description="root mean squared error", higher_is_better=False)
def rmse(truth: Sequence[float], predicted: Sequence[float]) -> float:
    """Root mean squared error.

    Parameters
    ----------
    truth, predicted : sequence of float
        Same length.

    Returns
    -------
    float
        ``sqrt(mean((p - t)**2))``; NaN for no values.

    Examples
    --------
    >>> rmse([1, 2, 3], [1, 2, 6])
    1.7320508075688772
    """
    pairs = _pairs(truth, predicted)
    if not pairs:
        return math.nan
    return math.sqrt(sum((p - t) ** 2 for t, p in pairs) / len(pairs))


@register_metric("mae", description="mean absolute error", higher_is_better=False)
def mae(truth: Sequence[float], predicted: Sequence[float]) -> float:
    """Mean absolute error.

    Parameters
    ----------
    truth, predicted : sequence of float
        Same length.

    Returns
    -------
    float
        ``mean(|p - t|)``; NaN for no values.

    Examples
    --------
    >>> mae([1, 2, 3], [2, 2, 6])
    1.3333333333333333
    """
    pairs = _pairs(truth, predicted)
    if not pairs:
        return math.nan
    return sum(abs(p - t) for t, p in pairs) / len(pairs)


@register_metric("mape", description="mean absolute percentage error, %",
                 higher_is_better=False)
def mape(truth: Sequence[float], predicted: Sequence[float]) -> float:
    """Mean absolute percentage error, as a percentage.

    Pairs whose true value is 0 are left out (their percentage error is undefined).

    Parameters
    ----------
    truth, predicted : sequence of float
        Same length.

    Returns
    -------
    float
        ``100 * mean(|p - t| / |t|)`` over pairs with ``t != 0``; NaN when there are none.

    Examples
    --------
    >>> mape([100, 200], [110, 100])
    30.0
    """
    pairs = [(t, p) for t, p in _pairs(truth, predicted) if t != 0]
    if not pairs:
        return math.nan
    return 100.0 * sum(abs(p - t) / abs(t) for t, p in pairs) / len(pairs)


@register_metric("r2", description="coefficient of determination (null when undefined)",
                 higher_is_better=True)
def r2(truth: Sequence[float], predicted: Sequence[float]) -> float:
    """Coefficient of determination ``1 - SS_res / SS_tot``.

    It is undefined, and NaN is returned (``null`` in reports, with a note), when there
    are fewer than two values or every true value is the same (``SS_tot = 0``; values
    within :data:`CONSTANT_REL_TOL` of each other, relative to the largest, count as the
    same), even if the predictions are perfect. It can be negative.

    Parameters
    ----------
    truth, predicted : sequence of float
        Same length.

    Returns
    -------
    float
        r2, or NaN when undefined.

    Examples
    --------
    >>> r2([1, 2, 3], [1, 2, 4])
    0.5
    >>> r2([2, 2, 2], [2, 2, 2])
    nan
    >>> r2([531.1, 1742.4 * 0.3048], [500.0, 560.0])  # one path, in m and in ft
    nan
    """
    pairs = _pairs(truth, predicted)
    if len(pairs) < 2:
        return math.nan
    values = [t for t, _ in pairs]
    if max(values) - min(values) <= CONSTANT_REL_TOL * max(abs(v) for v in values):
        return math.nan
    mean = sum(values) / len(values)
    ss_tot = sum((t - mean) ** 2 for t in values)
    ss_res = sum((p - t) ** 2 for t, p in pairs)
    return 1.0 - ss_res / ss_tot


# RLE compares lengths in metres: the same functions, registered under the names (and
# labels) its report uses.
register_metric("rmse_m", description="root mean squared error, metres",
                higher_is_better=False)(rmse)
register_metric("mae_m", description="mean absolute error, metres", higher_is_better=False)(mae)
