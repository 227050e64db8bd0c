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


# "// note" or "# note" ending a line after a value of a list or object that goes on below
_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_VALUE_COMMENT = re.compile(r"""(?<=[,\[{"'\w\]}])[ \t]*(?://|#(?=\s))[^\n]*(?=\n)""")


def drop_value_comments(text: str) -> str:
    """Remove line comments written after the values of a list or object that runs over
    several lines (``"turn left",  // onto the esplanade``), wherever the text holds one.

    A comment is taken out only inside an open ``[`` or ``{``, after a value or its comma
    and outside double-quoted strings, so prose (``Answer: 3 // three``), URLs and a
    ``#`` inside a name are kept.

    Examples
    --------
    >>> drop_value_comments('[\\n  "blue",\\n  "turn left",  // onto it\\n  "red"\\n]')
    '[\\n  "blue",\\n  "turn left",\\n  "red"\\n]'
    >>> drop_value_comments('["a", "http://x",\\n "b"]\\nAnswer: 3 // three')
    '["a", "http://x",\\n "b"]\\nAnswer: 3 // three'
    """
    if "//" not in text and "#" not in text:
        return text
    return _VALUE_COMMENT.sub(lambda m: "" if _in_open_value(text, m.start()) else m.group(0),
                              text)


_WHOLE_FENCE = re.compile(r"\A\s*```[A-Za-z0-9_+-]*[ \t]*\n(?P<body>\s*[\[{].*?[\]}]\s*)```\s*\Z",
                          re.DOTALL)


def unfence_value(text: str) -> str:
    """A response that is one code fence holding a JSON list or object, as that value
    (the fence and its ``json`` tag are no part of the answer); else the text unchanged.

    Examples
    --------
    >>> unfence_value('```json\\n["Ohio",\\n "Iowa"]\\n```')
    '["Ohio",\\n "Iowa"]'
    >>> unfence_value('Here:\\n```json\\n["Ohio"]\\n```')
    'Here:\\n```json\\n["Ohio"]\\n```'
    """
    m = _WHOLE_FENCE.match(text)
    return m.group("body").strip() if m and "```" not in m.group("body") else text


def _in_open_value(text: str, at: int) -> bool:
    """Whether position ``at`` lies inside an open ``[``/``{`` and outside a string."""
    before = text[:at]
    line = before[before.rfind("\n") + 1:]
    if line.count('"') % 2:
        return False
    depth = 0
    for ch in _QUOTED.sub("", before):
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth = max(depth - 1, 0)
    return depth > 0


class _Strings:
    """The double-quoted strings a scan meets inside an open value: their brackets are
    no brackets. Quotes outside every value are not tracked, so apostrophes and quotes in
    the surrounding prose cannot hide a value.

    Parameters
    ----------
    newline_ends : bool
        Whether a line break ends a string left open (a quote typed by mistake).
    """

    def __init__(self, *, newline_ends: bool) -> None:
        self.newline_ends = newline_ends
        self.inside = False
        self._escaped = False

    def skip(self, ch: str, *, in_value: bool) -> bool:
        """Whether ``ch`` belongs to a string (or opens one), so is no bracket."""
        if self.inside:
            if self._escaped:
                self._escaped = False
            elif ch == "\\":
                self._escaped = True
            elif ch == '"' or (self.newline_ends and ch == "\n"):
                self.inside = False
            return True
        if ch == '"' and in_value:
            self.inside = True
            return True
        return False


def _spans(text: str, opener: str) -> list[tuple[int, int]]:
    """Every closed ``opener ... closer`` span, in one pass (double quotes respected,
    :class:`_Strings`)."""
    closer = "}" if opener == "{" else "]"
    stack: list[int] = []
    spans: list[tuple[int, int]] = []
    strings = _Strings(newline_ends=True)
    for i, ch in enumerate(text):
        if strings.skip(ch, in_value=bool(stack)):
            continue
        if ch == opener:
            stack.append(i)
        elif ch == closer and stack:
            spans.append((stack.pop(), i + 1))
    spans.sort()
    return spans


_CLOSING_FENCE = re.compile(r"\s*```\s*$")


def _open_at_end(text: str) -> tuple[int, str] | None:
    """Where the outermost value still open at the end of ``text`` starts, and the
    closers it lacks (innermost first); ``None`` when every value closes, or the text
    ends inside a string."""
    stack: list[tuple[int, str]] = []
    strings = _Strings(newline_ends=False)
    for i, ch in enumerate(text):
        if strings.skip(ch, in_value=bool(stack)):
            continue
        if ch in "[{":
            stack.append((i, "]" if ch == "[" else "}"))
        elif stack and ch == stack[-1][1]:
            stack.pop()
    if not stack or strings.inside:
        return None
    return stack[0][0], "".join(closer for _, closer in reversed(stack))


def closed_truncation(text: str, *, kind: type = dict) -> Any:
    """The value a response cut off before its closing brackets gives, closed: read only
    when the cut falls right after a complete inner value (``... "names": []}``), so
    nothing but closers is missing; ``None`` otherwise (a cut inside a string, after a
    key or inside a number is no answer).

    Examples
    --------
    >>> closed_truncation('Answer: {"a": {"count": 2}, "b": {"count": 1}')
    {'a': {'count': 2}, 'b': {'count': 1}}
    >>> closed_truncation('Answer: {"a": {"count": 2}, "b": {"cou') is None
    True
    >>> closed_truncation('Answer: {"a": {"count": 2}, "b": 1') is None
    True
    """
    head = _CLOSING_FENCE.sub("", text).rstrip().rstrip(",").rstrip()
    if head[-1:] not in ("}", "]"):
        return None
    found = _open_at_end(head)
    if found is None or head[found[0]] != ("{" if kind is dict else "["):
        return None
    value = _loads(head[found[0]:] + found[1])
    return value if isinstance(value, kind) else None


def find_structured(text: str, *, kind: type = dict) -> Any:
    """Find the last JSON (or Python-literal) value of a kind in text.

    Code fences are searched first (the last fence that decodes wins), then every
    balanced ``{...}`` or ``[...]`` span in the text; text before or after the value is
    ignored. Trailing commas and single quotes are tolerated. (A value cut off before its
    closing brackets is not: the readers that take one call :func:`closed_truncation`.)

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
