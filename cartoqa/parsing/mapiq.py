"""Parsers for MapIQ's answer forms: ``My answer is [TRUE]``, ``My answer is [a, c]``,
``My answer is [TX, CA]``, ``My answer is 99.9–163``.

Each reads the text after the last "answer is" (or "answer:") when there is one, else
the whole response, and returns the item's answer shape: ``{"value": bool}``,
``{"letters": [...]}``, ``{"items": [...]}``, ``{"numbers": [...]}``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from cartoqa.parsing.result import Invalid, Parsed, ParseResult
from groundtruth.thematic.us_states import code_for_name

_CUE = re.compile(r"(?:answer\s+is|answer\s*:|final\s+answer\s*:?)", re.IGNORECASE)
_TRUE = re.compile(r"\b(?:true|yes)\b", re.IGNORECASE)
_FALSE = re.compile(r"\b(?:false|no)\b", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?|(?<![\w.])-?\.\d+")
_ZONES = ("west", "midwest", "northeast", "south")


def answer_part(text: str) -> str:
    """The text after the last answer cue, without brackets around it.

    Examples
    --------
    >>> answer_part("I think... My answer is [a, c].")
    'a, c'
    """
    parts = _CUE.split(text)
    tail = parts[-1] if len(parts) > 1 else text
    tail = tail.strip().strip(".").strip()
    m = re.search(r"\[([^\]]*)\]", tail)
    return (m.group(1) if m else tail).strip()


def parse_binary(text: str) -> ParseResult:
    """TRUE/FALSE (also yes/no).

    Examples
    --------
    >>> parse_binary("My answer is [TRUE]").value, parse_binary("No.").value
    ({'value': True}, {'value': False})
    >>> parse_binary("TRUE or FALSE").valid
    False
    """
    part = answer_part(text)
    yes, no = bool(_TRUE.search(part)), bool(_FALSE.search(part))
    if yes == no:
        return Invalid("no single TRUE or FALSE")
    return Parsed({"value": yes})


def parse_letters(text: str, options: Mapping[str, str] | None) -> ParseResult:
    """MCQ letters; choosing "None of the above" beside another option is contradictory
    and scores as wrong (MapIQ's rule), so it is kept as given.

    Examples
    --------
    >>> parse_letters("My answer is [a, C]", {"a": "x", "b": "y", "c": "z"}).value
    {'letters': ['a', 'c']}
    >>> parse_letters("none", {"a": "x"}).valid
    False
    """
    keys = [k.lower() for k in (options or {})]
    part = answer_part(text).lower()
    found = sorted({t for t in re.findall(r"(?<![a-z])([a-h])(?![a-z])", part) if t in keys})
    if not found:
        return Invalid("no option letter")
    return Parsed({"letters": found})


def _item_key(token: str) -> str | None:
    t = " ".join(re.sub(r"[^\w\s.]", " ", token).split()).strip(". ").lower()
    t = re.sub(r"\s+(?:zone|region)$", "", t)
    if t in _ZONES:
        return t.capitalize()
    return code_for_name(t)


def parse_items(text: str) -> ParseResult:
    """A list of states (names or codes) or zones.

    Examples
    --------
    >>> parse_items("My answer is [TX, new york, Ohio]").value
    {'items': ['NY', 'OH', 'TX']}
    >>> parse_items("My answer is [West zone and South]").value
    {'items': ['South', 'West']}
    >>> parse_items("My answer is []").value
    {'items': []}
    """
    part = answer_part(text)
    tokens = [t for t in re.split(r",|;|\band\b|\n", part) if t.strip()]
    if not tokens:
        if re.search(r"\[\s*\]|\bnone\b", text, re.IGNORECASE):
            return Parsed({"items": []})
        return Invalid("no list")
    keys = [_item_key(t) for t in tokens]
    if any(k is None for k in keys):
        bad = [t.strip() for t, k in zip(tokens, keys, strict=True) if k is None]
        return Invalid(f"unknown state or zone {bad[0]!r}")
    return Parsed({"items": sorted({k for k in keys if k})})


def parse_numbers(text: str) -> ParseResult:
    """The numbers of a class range ``99.9–163`` (or ``Class 2–Class 5``, ``class 3``).

    A hyphen between two numbers separates them; it is not a minus sign.

    Examples
    --------
    >>> parse_numbers("... the 99.9–163 range. My answer is 99.9–163.").value
    {'numbers': [99.9, 163.0]}
    >>> parse_numbers("My answer is [1,350-2,000]").value
    {'numbers': [1350.0, 2000.0]}
    >>> parse_numbers("Class 2 to Class 5").value
    {'numbers': [2.0, 5.0]}
    >>> parse_numbers("My answer is [-3 - -1]").value
    {'numbers': [-3.0, -1.0]}
    """
    part = answer_part(text)
    part = re.sub(r"(\d)\s*[-–—]\s*", r"\1 | ", part)
    part = re.sub(r"\s+to\s+", " | ", part)
    nums = [float(n.replace(",", "")) for n in _NUMBER.findall(part)]
    if not nums or len(nums) > 2:
        return Invalid("expected one class or one range")
    return Parsed({"numbers": nums})


def numbers_match(truth: Sequence[float], got: Sequence[float]) -> bool:
    """Whether parsed numbers equal the answer's (to the precision the legend shows).

    Examples
    --------
    >>> numbers_match([99.9, 163.0], [99.9, 163]), numbers_match([1.0], [1.0, 2.0])
    (True, False)
    """
    return len(truth) == len(got) and all(
        abs(a - b) <= 1e-6 * max(1.0, abs(a)) for a, b in zip(truth, got, strict=True))


def mapiq_answer_text(item: Mapping[str, Any]) -> str:
    """The item's own answer in MapIQ's response format (scores 1.0).

    Examples
    --------
    >>> mapiq_answer_text({"request": "mcq", "answer": {"letters": ["a", "c"]}})
    'My answer is [a, c]'
    """
    request, answer = item.get("request"), item.get("answer") or {}
    if request == "binary":
        return f"My answer is [{'TRUE' if answer['value'] else 'FALSE'}]"
    if request == "mcq":
        return f"My answer is [{', '.join(answer['letters'])}]"
    if request == "list":
        return f"My answer is [{', '.join(answer['items'])}]"
    if request == "single":
        return f"My answer is {answer['text']}"
    raise ValueError(f"unknown MapIQ request {request!r}")
