"""Limits on hostile or careless input, and the checks that enforce them.

Every reader of text that a user, a model server or another program supplies goes
through these, so that input outside the limits is refused with one line (exit
status 2) instead of a traceback, an exhausted memory or a silent loss. The values
are listed in ``docs/security.md``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from cartoqa.errors import CartoqaError

#: The largest response body ``cartoqa run`` (and the answer extractor) reads, in bytes;
#: a longer one fails the item without a retry.
MAX_RESPONSE_BYTES = 8 * 1024 * 1024
#: Retries of a refused connection (nothing listens at the endpoint) before the run
#: stops with one line and exit status 2.
MAX_REFUSED_RETRIES = 2
#: Seconds between those retries.
REFUSED_RETRY_WAIT_S = 0.5
#: JSON nesting deeper than this (arrays and objects) is refused: in responses,
#: predictions files and lmms-eval logs (Python's own reader would raise
#: ``RecursionError`` near 1000).
MAX_JSON_DEPTH = 200
#: The largest field of a CSV or TSV file (a VLMEvalKit prediction, a thematic data
#: cell), in characters.
MAX_FIELD_CHARS = 16 * 1024 * 1024

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)


def redact(text: str, secret: str | None) -> str:
    """``text`` with every occurrence of ``secret`` replaced by ``[redacted]``.

    Parameters
    ----------
    text : str
        Text about to be printed or written.
    secret : str or None
        The API key (nothing is replaced when None or empty).

    Returns
    -------
    str
        The text without the secret.

    Examples
    --------
    >>> redact("invalid key Bearer sk-123", "sk-123")
    'invalid key Bearer [redacted]'
    >>> redact("x", None)
    'x'
    """
    if not secret:
        return text
    return text.replace(secret, "[redacted]")


def json_depth_ok(raw: bytes | str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Tell whether a JSON text nests at most ``limit`` arrays and objects deep.

    Brackets inside strings are not counted. Linear time, no recursion; a text with
    fewer brackets than ``limit`` is accepted at once.

    Parameters
    ----------
    raw : bytes or str
        The JSON text.
    limit : int
        The deepest nesting allowed.

    Returns
    -------
    bool
        False when some value lies deeper than ``limit``.

    Examples
    --------
    >>> json_depth_ok(b'[[["]]]]]]"]]]', limit=3), json_depth_ok(b"[[[[]]]]", limit=3)
    (True, False)
    """
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    if text.count("[") + text.count("{") <= limit:
        return True
    bare = _STRING.sub("", text)
    depth = 0
    for char in bare:
        if char in "[{":
            depth += 1
            if depth > limit:
                return False
        elif char in "]}":
            depth -= 1
    return True


class JsonTooDeepError(ValueError):
    """A JSON text nests deeper than :data:`MAX_JSON_DEPTH`."""


def loads_json(raw: bytes | str, *, limit: int = MAX_JSON_DEPTH) -> Any:
    """:func:`json.loads` that refuses nesting deeper than ``limit``.

    Parameters
    ----------
    raw : bytes or str
        The JSON text.
    limit : int
        The deepest nesting allowed.

    Returns
    -------
    Any
        The decoded value.

    Raises
    ------
    JsonTooDeepError
        The text nests deeper than ``limit`` (a :class:`ValueError`).
    json.JSONDecodeError
        The text is not JSON.

    Examples
    --------
    >>> loads_json("[[1]]")
    [[1]]
    >>> loads_json("[" * 300 + "]" * 300)
    Traceback (most recent call last):
    ...
    cartoqa.limits.JsonTooDeepError: JSON nested more than 200 levels deep
    """
    if not json_depth_ok(raw, limit):
        raise JsonTooDeepError(f"JSON nested more than {limit} levels deep")
    try:
        return json.loads(raw)
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise JsonTooDeepError(f"JSON nested more than {limit} levels deep") from None


def check_text_encodable(text: str, what: str) -> None:
    """Refuse text that cannot be written as UTF-8 (a lone surrogate such as ``\\ud800``).

    Parameters
    ----------
    text : str
        The text about to be written.
    what : str
        What it is, for the message.

    Raises
    ------
    CartoqaError
        The text holds a lone surrogate.

    Examples
    --------
    >>> check_text_encodable("ok", "x")
    >>> check_text_encodable("\\ud800", "--out")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cartoqa.errors.CartoqaError: --out holds a character that ... (U+D800, a lone surrogate)...
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        bad = text[exc.start]
        raise CartoqaError(
            f"{what} holds a character that cannot be written as UTF-8 "
            f"(U+{ord(bad):04X}, a lone surrogate)",
            fix="remove that character") from None


_SURROGATE = re.compile("[\ud800-\udfff]")


def without_surrogates(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD, so it can be written as UTF-8.

    JSON may spell a lone surrogate (``"\\ud800"``), which Python decodes to a string
    that no UTF-8 file can hold; a model's answer or a predictions file from another
    tool is cleaned with this before it is kept.

    Examples
    --------
    >>> without_surrogates("a\\ud800b") == "a\\ufffdb"
    True
    """
    return _SURROGATE.sub("\ufffd", text)
