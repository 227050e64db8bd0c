"""Pick the parser for an item: :func:`parse_response`.

Each task declares the parser of each of its requests (``RequestSpec.parse`` in its
``SPEC``, see :mod:`cartoqa.declarations.spec`); this module looks it up when it runs, so that
the parsers do not depend on the task modules when they are imported.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from cartoqa.declarations.registry import request_spec, task_specs
from cartoqa.parsing.result import Invalid, ParseResult
from cartoqa.parsing.structured import drop_value_comments, find_structured, unfence_value
from cartoqa.parsing.text import json_answer, normalize_text

Item = Mapping[str, Any]


def parsers() -> dict[tuple[str, str], Callable[[Item, str], ParseResult]]:
    """Return the parser of every declared ``(task, request)``.

    Returns
    -------
    dict
        ``(task, request) -> parse(item, text)``, from the task declarations.

    Examples
    --------
    >>> ("stmf", "count") in parsers() and ("mml", "roads") in parsers()
    True
    """
    return {(t.name, r.name): r.parse for t in task_specs() for r in t.requests}


def parse_response(item: Item, text: str | None) -> ParseResult:
    """Parse a model's raw response to an item into the item's answer shape.

    Parameters
    ----------
    item : mapping
        The item (one line of ``items.jsonl``); its ``task`` and ``request`` choose the
        parser, and its ``options``, answer ``unit`` or answer ``types`` guide it.
    text : str or None
        The raw response; ``None`` (no prediction) is invalid.

    Returns
    -------
    Parsed or Invalid
        The structured answer or the reason it could not be read. Never raises on any
        text.

    Examples
    --------
    >>> parse_response({"task": "stmf", "request": "count"}, "Answer: 4").value
    {'count': 4}
    """
    if text is None:
        return Invalid("no prediction for this item")
    if not isinstance(text, str):
        return Invalid("response is not text")
    # '"turn left",  // onto X' in a JSON list; a fence around the whole JSON answer
    text = unfence_value(drop_value_comments(text))
    key = (str(item.get("task")), str(item.get("request")))
    found = request_spec(*key)
    if found is None:
        return Invalid(f"no parser for task {key[0]!r} request {key[1]!r}")
    cut = Invalid("truncated output: a list cut off at the end of the response")
    if truncated(text):
        return cut
    result = found[1].parse(item, text)
    if truncated(text, result):
        return cut
    if isinstance(result, Invalid) or result.notes or _only_json(text):
        # the JSON answer read as "Answer: ...", when the reader found nothing or left
        # parts out ({"ranking": ["Beijing", ...]}: '{"ranking": ["Beijing"' is no region)
        restated = restate_json_answer(text)
        if restated is not None:
            again = found[1].parse(item, restated)
            if not isinstance(again, Invalid) and (isinstance(result, Invalid)
                                                   or not again.notes):
                return again
            if isinstance(again, Invalid) and _only_json(text) and result.valid \
                    and not isinstance(result, Invalid) and not result.notes:
                return result
    return result


def open_list_tail(text: str) -> str | None:
    """The items after a ``[`` that is never closed, when they run to the end of the text.

    Examples
    --------
    >>> open_list_tail("[ID, UT, V"), open_list_tail("[ID, UT]"), open_list_tail("[TRUE")
    ('ID, UT, V', None, None)
    """
    start = text.rfind("[")
    if start < 0 or "]" in text[start:]:
        return None
    tail = text[start + 1:].strip()
    return tail if "," in tail else None


#: A list cut right after a separator: more was coming (``["blue", "turn left",``).
_SEPARATOR_AT_END = re.compile(r"(?:,|;|->|→|\|)\s*$")


def truncated(text: str, result: ParseResult | None = None) -> bool:
    """Whether a response was cut off inside a list it opened (so it is invalid).

    Rule (docs/scoring.md): a list left open at the end of the response (its last ``[``
    never closed, at least one comma after it) is truncated output when the cut shows:
    the last item is an unclosed quote (``["blue", "turn right", "Kasarmi``), the list
    ends at a separator (``["blue", "turn left", "X", "turn left",``: fix24zq), an open
    route never reaches ``red``, or the
    task's reader could not name the last item (``My answer is [ID, ME, UT, V``: ``V``
    is no region). An open list whose items are all whole (``[blue, turn left,
    Mikonkatu, red``, ``[TX, OH, CA``) is read as before: only the ``]`` is missing.

    Examples
    --------
    >>> truncated('Answer: ["blue", "turn right", "Kasarmi'), truncated("[blue, left, red")
    (True, False)
    >>> truncated('Answer: ["Lidl", "Alepa",'), truncated("Answer: [Lidl, Alepa")
    (True, False)
    >>> from cartoqa.parsing.result import Parsed
    >>> truncated("My answer is [ID, UT, V", Parsed({"items": ["ID", "UT", "unknown: V"]}))
    True
    >>> truncated("My answer is [ID, V, UT", Parsed({"items": ["ID", "unknown: V", "UT"]}))
    False
    """
    tail = open_list_tail(text)
    if tail is None:
        return False
    if tail.count('"') % 2 == 1 or _SEPARATOR_AT_END.search(tail):
        return True
    last = tail.rsplit(",", 1)[-1].strip().strip("'\"")
    value = getattr(result, "value", None)
    steps = value.get("steps") if isinstance(value, dict) else None
    if isinstance(steps, list) and steps and steps[-1] != "red":
        return True  # an open route list that never reached the red marker
    items = value.get("items") if isinstance(value, dict) else None
    return bool(last) and isinstance(items, list) and f"unknown: {last}" in items


def restate_json_answer(text: str) -> str | None:
    """A JSON object's ``answer`` value restated as ``Answer: ...``, else ``None``.

    Rule (docs/scoring.md): when a task's reader finds no answer in a response, the
    value of an ``answer`` / ``final_answer`` / ``Answer`` key of a JSON object in it is
    the answer; so is the value of an object's only key (``{"area": "B"}``,
    ``{"ranking": [...]}``) unless that key names reasoning (``explanation``). Only a
    text, number, true/false or a list of those is restated; a
    nested object is left to the task's own reader (MTMF, MFS read their own keys).

    Examples
    --------
    >>> restate_json_answer('```json\\n{"answer": ["KY", "VA"]}\\n```')
    'Answer: ["KY", "VA"]'
    >>> restate_json_answer('{"answer": "B"}'), restate_json_answer('{"counts": {"a": 1}}')
    ('Answer: B', None)
    >>> restate_json_answer('{"area": "B"}'), restate_json_answer('{"reasoning": "B is big"}')
    ('Answer: B', None)
    """
    value = json_answer(normalize_text(text))
    if value is None:
        value = _only_value(normalize_text(text))
    if isinstance(value, bool):
        return "Answer: " + ("TRUE" if value else "FALSE")
    if isinstance(value, (str, int, float)) and str(value).strip():
        return f"Answer: {value}"
    if (isinstance(value, list) and value
            and all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in value)):
        # quoted, so that a name with a comma stays one and every reader sees a list
        return "Answer: " + json.dumps([v if isinstance(v, str) else str(v) for v in value],
                                       ensure_ascii=False)
    return None


#: Keys whose only value is no answer (``{"reasoning": "..."}``).
_NOT_ANSWER_KEYS = frozenset({"reasoning", "reason", "explanation", "thought", "thoughts",
                              "analysis", "notes", "note", "comment", "comments", "thinking",
                              # a key that says the value is not a firm answer
                              "guess", "guesses", "candidates", "options", "possibilities",
                              "alternatives", "maybe"})


def _only_value(text: str) -> object:
    """The value of the only key of a JSON object in the text, else ``None``."""
    if "{" not in text:
        return None
    data = find_structured(text, kind=dict)
    if not isinstance(data, dict) or len(data) != 1:
        return None
    key, value = next(iter(data.items()))
    return None if str(key).strip().lower() in _NOT_ANSWER_KEYS else value


def _only_json(text: str) -> bool:
    """Whether the response is one JSON object and nothing else (fences aside): then its
    ``answer`` (or only) value is the answer, read before the raw text
    (``{"name": "Mikonkatu"}`` is Mikonkatu, not ``Mikonkatu"}``)."""
    body = re.sub(r"^```[A-Za-z]*\s*|\s*```$", "", text.strip())
    return body.startswith("{") and body.endswith("}")
