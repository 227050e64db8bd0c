"""A check every corpus loader makes on each entry before any is scored."""

from __future__ import annotations

from typing import Any


def text_response(entry: dict[str, Any], where: str) -> dict[str, Any]:
    """``entry`` unchanged when its ``response`` is text, else a clear error naming it.

    YAML 1.1 turns an unquoted ``TRUE``, ``yes``, ``no``, ``on``, ``off`` or number into a
    boolean or a number, so the reader would be given no text at all (fresh18#10,
    fresh20#7): the loaders refuse such an entry, so that a grader finds it before scoring.

    Examples
    --------
    >>> text_response({"response": "TRUE"}, "x.yaml#1")["response"]
    'TRUE'
    >>> text_response({"response": True}, "x.yaml#7")
    Traceback (most recent call last):
    ...
    ValueError: x.yaml#7: response is True (bool), not text: quote it in the YAML ('...')
    """
    response = entry.get("response")
    if not isinstance(response, str):
        raise ValueError(f"{where}: response is {response!r} ({type(response).__name__}), "
                         "not text: quote it in the YAML ('...')")
    return entry
