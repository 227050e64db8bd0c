"""Pure retry decisions: which failures to retry and how long to wait."""

from __future__ import annotations

import email.utils

#: HTTP statuses retried besides every 5xx: timeout, too early, rate limited.
RETRYABLE_STATUS: frozenset[int] = frozenset({408, 425, 429})

#: Statuses that mean the whole run cannot work (bad key, no such model or route).
FATAL_STATUS: frozenset[int] = frozenset({401, 403, 404})

#: The longest ``Retry-After`` honoured, in seconds.
MAX_RETRY_AFTER_S = 600.0


def is_retryable_status(status: int) -> bool:
    """Tell whether an HTTP status is worth retrying.

    Parameters
    ----------
    status : int
        The HTTP status code.

    Returns
    -------
    bool
        True for 408, 425, 429 and every 5xx.

    Examples
    --------
    >>> is_retryable_status(429), is_retryable_status(503), is_retryable_status(400)
    (True, True, False)
    """
    return status in RETRYABLE_STATUS or 500 <= status <= 599


def parse_retry_after(value: str | None, *, now: float) -> float | None:
    """Parse a ``Retry-After`` header into seconds to wait.

    Parameters
    ----------
    value : str or None
        The header: delay seconds or an HTTP date.
    now : float
        The current time (Unix seconds), for the date form.

    Returns
    -------
    float or None
        Seconds to wait (0 or more, at most :data:`MAX_RETRY_AFTER_S`), or None when
        absent or unreadable.

    Examples
    --------
    >>> parse_retry_after("2", now=0.0)
    2.0
    >>> parse_retry_after("Thu, 01 Jan 1970 00:00:30 GMT", now=10.0)
    20.0
    >>> parse_retry_after("soon", now=0.0) is None
    True
    """
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
        if when is None:
            return None
        seconds = when.timestamp() - now
    if seconds != seconds:  # NaN
        return None
    return min(max(seconds, 0.0), MAX_RETRY_AFTER_S)


def backoff_delay(
    attempt: int,
    *,
    base: float,
    cap: float,
    jitter: float,
    retry_after: float | None = None,
) -> float:
    """Seconds to wait before retry number ``attempt`` (exponential, full jitter).

    The delay is ``jitter * min(cap, base * 2**attempt)``; a server's ``Retry-After``
    is a lower bound.

    Parameters
    ----------
    attempt : int
        How many attempts have failed so far, minus one (0 before the first retry).
    base : float
        The delay scale in seconds.
    cap : float
        The largest exponential delay in seconds.
    jitter : float
        A random number in [0, 1).
    retry_after : float, optional
        The server's requested wait, in seconds.

    Returns
    -------
    float
        Seconds to wait.

    Examples
    --------
    >>> backoff_delay(0, base=1.0, cap=60.0, jitter=0.5)
    0.5
    >>> backoff_delay(10, base=1.0, cap=60.0, jitter=0.5)
    30.0
    >>> backoff_delay(0, base=1.0, cap=60.0, jitter=0.5, retry_after=3.0)
    3.0
    """
    exponential = min(cap, base * (2.0 ** min(attempt, 60)))
    delay = jitter * exponential
    if retry_after is not None:
        delay = max(delay, retry_after)
    return delay
