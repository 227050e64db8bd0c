"""JSON (or Python-literal) values inside free text: code fences, trailing text."""

from __future__ import annotations

import ast
import json
import re
from typing import Any

_FENCE = re.compile(r"```[A-Za-z0-9_+-]*[ \t]*\n?(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
# "// comment" or "# comment" to the end of a line, outside double-quoted strings
_LINE_COMMENT = re.compile(r'("(?:[^"\\\n]|\\.)*")|[ \t]*(?://|#)[^\n]*')
_MAX_ATTEMPTS = 60


def _loads(candidate: str) -> Any:
    """Decode JSON, then JSON without comments and trailing commas, then a Python literal."""
    bare = _TRAILING_COMMA.sub(r"\1", _strip_comments(candidate))
    for attempt in (candidate, bare):
        try:
            return json.loads(attempt)
        except (ValueError, RecursionError):
            pass
    if len(candidate) > 50_000:
        return None
    try:
        return ast.literal_eval(candidate.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def _strip_comments(text: str) -> str:
    """Remove ``// ...`` and ``# ...`` line comments (not inside double-quoted strings).

    Examples
    --------
    >>> _strip_comments('{"a": "x//y",  // note\\n "b": 1}')
    '{"a": "x//y",\\n "b": 1}'
    """
    if "//" not in text and "#" not in text:
        return text
    return _LINE_COMMENT.sub(lambda m: m.group(1) or "", text)


def _spans(text: str, opener: str) -> list[tuple[int, int]]:
    """Every closed ``opener ... closer`` span, in one pass (double quotes respected).

    Quotes are tracked only inside an open span, so apostrophes and quotes in the
    surrounding prose cannot hide a value.
    """
    closer = "}" if opener == "{" else "]"
    stack: list[int] = []
    spans: list[tuple[int, int]] = []
    in_quote = False
    escaped = False
    for i, ch in enumerate(text):
        if in_quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"' or ch == "\n":
                in_quote = False
            continue
        if ch == '"' and stack:
            in_quote = True
        elif ch == opener:
            stack.append(i)
        elif ch == closer and stack:
            spans.append((stack.pop(), i + 1))
    spans.sort()
    return spans


def find_structured(text: str, *, kind: type = dict) -> Any:
    """Find the last JSON (or Python-literal) value of a kind in text.

    Code fences are searched first (the last fence that decodes wins), then every
    balanced ``{...}`` or ``[...]`` span in the text; text before or after the value is
    ignored. Trailing commas and single quotes are tolerated.

    Parameters
    ----------
    text : str
        Normalised response text.
    kind : type
        ``dict`` or ``list``.

    Returns
    -------
    dict or list or None
        The decoded value, or ``None`` when none is found.

    Examples
    --------
    >>> find_structured('Here you go:\\n```json\\n{"a": 1,}\\n```\\nHope it helps.')
    {'a': 1}
    >>> find_structured("route: ['blue', 'red'] done", kind=list)
    ['blue', 'red']
    """
    opener = "{" if kind is dict else "["
    for block in reversed(_FENCE.findall(text)):
        value = _loads(block)
        if isinstance(value, kind):
            return value
        inner = find_structured(block.replace("```", ""), kind=kind) if opener in block else None
        if isinstance(inner, kind):
            return inner
    found = None
    consumed_to = -1
    attempts = 0
    for start, end in _spans(text, opener):
        if start < consumed_to:
            continue
        attempts += 1
        if attempts > _MAX_ATTEMPTS:
            break
        value = _loads(text[start:end])
        if isinstance(value, kind):
            found = value
            consumed_to = end
    return found
