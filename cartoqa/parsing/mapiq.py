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

from cartoqa.parsing.comparison import compared
from cartoqa.parsing.kinds import (
    Options,
    item_labels,
    parse_class_numbers,
    parse_options,
    parse_regions,
    parse_yes_no_value,
)
from cartoqa.parsing.result import Invalid, Parsed, ParseResult
from cartoqa.parsing.text import hedge
from groundtruth.thematic.region_names import region_names
from groundtruth.thematic.us_states import US_ZONE_NAMES

_CUE = re.compile(r"(?:answer\s+is|answer\s*:|final\s+answer\s*:?)", re.IGNORECASE)


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
    """TRUE/FALSE (also yes/no), by the shared rules (hedges and ``TRUE or FALSE`` invalid).

    Examples
    --------
    >>> parse_binary("My answer is [TRUE]").value, parse_binary("No.").value
    ({'value': True}, {'value': False})
    >>> parse_binary("TRUE or FALSE").valid, parse_binary("...so maybe TRUE.").valid
    (False, False)
    """
    return parse_yes_no_value(text)


_STOP = frozenset({"the", "a", "an", "map", "maps", "this", "that", "of", "on", "in", "its",
                   "shown", "drawn", "here"})
_YES_NO_QUESTION = re.compile(r"(?:^|[.!?\n]\s*)(?P<q>(?:is|are)\s+[^.!?\n]{3,120}\?)",
                              re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|isn't|aren't|no|never|neither|nor)\b|n't\b", re.IGNORECASE)


def _content(text: str) -> list[str]:
    words = re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", re.sub(r"'s\b", "", text.lower()))
    return [w for w in words if w not in _STOP]


def affirmed(question: str, text: str) -> ParseResult | None:
    """A yes/no answer given by restating the question's own statement, or ``None``.

    ``Is the map's legend discrete?`` answered ``The legend is discrete.`` is yes, and
    ``The legend is not discrete.`` no: the response is one short sentence without a cue
    that holds the question's words after ``Is``/``Are`` in the same order (so ``Ohio is
    higher than Texas`` does not affirm ``Is Texas higher than Ohio?``); a negation makes
    it no, a hedge invalid.

    Examples
    --------
    >>> q = "Is the map's legend discrete?"
    >>> affirmed(q, "The legend is discrete.").value
    {'value': True}
    >>> affirmed(q, "The legend isn't discrete.").value
    {'value': False}
    >>> affirmed("Is Texas higher than Ohio?", "Ohio is higher than Texas.") is None
    True
    """
    found = list(_YES_NO_QUESTION.finditer(question or ""))
    sentences = [x for x in re.split(r"(?<=[.!?])\s+|\n", (text or "").strip()) if x.strip()]
    if not found or len(sentences) != 1 or len(sentences[0].split()) > 15:
        return None
    asked = _content(re.sub(r"^(?:is|are)\s+", "", found[-1].group("q"), flags=re.I))
    said = _content(sentences[0])
    position = 0
    for word in asked:  # the question's words, in order, within the answer
        try:
            position = said.index(word, position) + 1
        except ValueError:
            return None
    if not asked:
        return None
    doubt = hedge(sentences[0]) or ("or" if re.search(r"\bor\b", sentences[0], re.I) else None)
    if doubt:
        return Invalid(f"a hedged answer ({doubt})")
    return Parsed({"value": not _NEGATION.search(sentences[0])})


def parse_binary_of_item(item: Mapping[str, Any], text: str) -> ParseResult:
    """:func:`parse_binary`, and when it finds no yes/no, the question's statement
    restated (:func:`affirmed`, with the item's ``question``).

    Examples
    --------
    >>> parse_binary_of_item({"question": "Is the map's legend discrete?"},
    ...                      "The legend is discrete.").value
    {'value': True}
    """
    found = parse_binary(text)
    if isinstance(found, Invalid) and found.reason == "no yes/no answer found":
        restated = affirmed(str(item.get("question") or ""), text)
        if restated is not None:
            return restated
        stated = compared(str(item.get("question") or ""), text)
        if stated is not None:
            return stated
    return found


def _options(options: Mapping[str, str] | None, item: Mapping[str, Any] | None) -> Options:
    return Options(dict(options or {}), labels=item_labels(item or {}),
                   names=region_names("usa"), zones=US_ZONE_NAMES)


def parse_letters(text: str, options: Mapping[str, str] | None,
                  item: Mapping[str, Any] | None = None) -> ParseResult:
    """MCQ letters, the options named by letter, text, class or state (see
    :func:`cartoqa.parsing.kinds.read_options`); choosing "None of the above" beside
    another option is contradictory and scores as wrong (MapIQ's rule), so it is kept as
    given.

    Examples
    --------
    >>> parse_letters("My answer is [a, C]", {"a": "x", "b": "y", "c": "z"}).value
    {'letters': ['a', 'c']}
    >>> parse_letters("My answer is [None of the above]", {"a": "x", "b": "None of the above"}
    ...               ).value
    {'letters': ['b']}
    >>> parse_letters("none", {"a": "x"}).valid
    False
    """
    return parse_options(text, _options(options, item))


def parse_items(text: str) -> ParseResult:
    """A list of states (names, postal or ISO codes) or zones; an unknown name is kept
    as a wrong item (``"unknown: ..."``), so it invalidates only itself.

    Examples
    --------
    >>> parse_items("My answer is [TX, new york, Ohio]").value
    {'items': ['NY', 'OH', 'TX']}
    >>> parse_items("My answer is [West zone and South]").value
    {'items': ['South', 'West']}
    >>> parse_items("My answer is []").value
    {'items': []}
    """
    return parse_regions(text, region_names("usa"), zones=US_ZONE_NAMES)


def parse_numbers(text: str, *, labels: Sequence[str] = (), by_class: bool = False
                  ) -> ParseResult:
    """The numbers of a class range ``99.9–163`` (or ``Class 2–Class 5``, ``class 3``).

    A hyphen between two numbers separates them; it is not a minus sign. ``Class k``
    is the k-th of ``labels`` (the legend's classes) unless ``by_class`` (classes named
    by number on a map without a legend).

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
    return parse_class_numbers(text, labels=labels, by_class=by_class)


def parse_single(item: Mapping[str, Any], text: str) -> ParseResult:
    """A single value of an item: ``Class k`` read as the item's legend class, or as the
    number k when the item's own answer names classes by number."""
    answer_text = str((item.get("answer") or {}).get("text") or "")
    by_class = answer_text.lower().startswith("class")
    return parse_numbers(text, labels=item_labels(item), by_class=by_class)


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
