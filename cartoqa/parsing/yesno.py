"""Yes/no answers (STMF presence)."""

from __future__ import annotations

import re

from cartoqa.parsing.result import Invalid, Parsed, ParseResult
from cartoqa.parsing.text import (
    agree,
    answer_segments,
    clean,
    drop_notes,
    hedge,
    json_answer,
    normalize_text,
)

_LEADING = re.compile(
    r"^[\W_]*(yes|yeah|yep|no|nope|true|false|present|absent|not\s+present|y|n)(?![A-Za-z])"
    r"(?!\s+(?:idea|clue|way|problem|worries|doubt|need)\b)",
    re.IGNORECASE,
)
_YES_WORDS = re.compile(r"\b(?:yes|true)\b", re.IGNORECASE)
_NO_WORDS = re.compile(
    r"\b(?:no(?!\s+(?:idea|clue|way|problem|worries|doubt|need)\b)|false|none)\b",
    re.IGNORECASE,
)
_NEGATIVE = re.compile(
    r"\b(?:there\s+(?:is|are)\s+(?:not|no)\b|(?:is|are)\s+not\s+(?:present|visible|shown|any)"
    r"|(?:isn't|aren't)\s+(?:present|visible|shown|any)"
    r"|(?:cannot|can't|can\s+not|don't|do\s+not|couldn't|could\s+not|did\s+not|didn't)"
    r"\s+(?:see|find|identify|spot|locate|detect)|absent|not\s+present)",
    re.IGNORECASE,
)
_POSITIVE = re.compile(
    r"\b(?:there\s+(?:is|are)\s+(?:a|an|one|some|several|two|three|many|\d+)\b"
    r"|(?:is|are)\s+(?:present|visible|shown)|(?:i\s+)?(?:can\s+)?"
    # "I can't see a pharmacy": a negated seeing is no sighting
    r"(?<!not\s)(?<!n't\s)(?<!cannot\s)(?<!never\s)see\s+(?:a|an|one|some|two)\b)",
    re.IGNORECASE,
)

# "TRUE or FALSE", "yes/no": both offered, neither chosen
_BOTH_OFFERED = re.compile(r"\b(?:yes|true)[\])]?\s*(?:or|/)\s*[\[(]?(?:no|false)\b"
                           r"|\b(?:no|false)[\])]?\s*(?:or|/)\s*[\[(]?(?:yes|true)\b",
                           re.IGNORECASE)

_UNSURE = re.compile(
    r"\b(?:sorry|unable|not\s+sure|unclear|uncertain|impossible\s+to|hard\s+to\s+(?:tell|say)"
    r"|(?:cannot|can't|can\s+not|could\s+not|couldn't)\s+(?:tell|determine|say|answer|help"
    r"|be\s+sure|decide|confirm|compare|judge|check|verify))\b|\b(?:whether|if)\s+there\s+"
    r"(?:is|are)\b"
    # "I cannot see Goa clearly ...": the map is not read, nothing is said absent
    r"|\b(?:cannot|can't|can\s+not|could\s+not|couldn't)\s+(?:see|read|make\s+out)\s+"
    r"[^.;\n]{1,40}?\s(?:clearly|properly|well|at\s+this\s+size)\b",
    re.IGNORECASE,
)

_FIRST_SENTENCE = re.compile(r"[^\n]*?(?:[.!?](?=\s|$)|$)", re.MULTILINE)

_VALUES = {
    "yes": True,
    "yeah": True,
    "yep": True,
    "nope": False,
    "y": True,
    "true": True,
    "present": True,
    "no": False,
    "n": False,
    "false": False,
    "absent": False,
}


def _unbracketed(text: str) -> str:
    """The text without brackets (``Yes] or [No`` reads ``Yes or No``)."""
    return re.sub(r"[\[\]()]", "", text)


def _leading(text: str) -> bool | None:
    m = _LEADING.match(text)
    if not m:
        return None
    word = re.sub(r"\s+", " ", m.group(1).lower())
    return False if word == "not present" else _VALUES[word]


def parse_yes_no(text: str) -> ParseResult:
    """Parse a yes/no answer, in any case and with or without an explanation.

    Rules, in order: the word after the ``Answer:`` cues (see
    :func:`~cartoqa.parsing.text.answer_segments`; cues that disagree, a hedge such as
    ``it might be yes`` or both words in one answer are invalid); a JSON ``answer`` key;
    a leading ``yes``/``no``
    (also ``true``/``false``, ``present``/``absent``); the only one of the words yes/no
    in the text; a negative phrase (``there is no``, ``I cannot see``) or a positive one
    (``there is a``, ``is visible``) when only one kind appears and the response does not
    say it cannot tell. Otherwise invalid.

    Parameters
    ----------
    text : str
        The raw response.

    Returns
    -------
    Parsed or Invalid
        ``Parsed({"present": True})`` or ``Parsed({"present": False})``.

    Examples
    --------
    >>> parse_yes_no("YES, there is one near the park.").value
    {'present': True}
    >>> parse_yes_no("I cannot see any pharmacy.").value
    {'present': False}
    """
    t = clean(text)
    if not t.strip():
        return Invalid("empty response")
    cued = agree([_read(seg) for seg in answer_segments(t)],
                 key=lambda p: p.value["present"])
    if cued is not None:
        return cued
    data = json_answer(normalize_text(text))
    if isinstance(data, bool):
        return Parsed({"present": data})
    if isinstance(data, str):
        found = _read(data)
        if found is not None:
            return found
    body = drop_notes(t)
    first = _FIRST_SENTENCE.match(body.strip())
    both = _BOTH_OFFERED.search(first.group(0)) if first else None
    if both:
        return Invalid(f"alternatives ({_unbracketed(both.group(0))})")
    value = _leading(body)
    if value is not None:
        hedged = hedge(first.group(0)) if first else None
        if hedged:
            return Invalid(f"a hedged answer ({hedged})")
        return Parsed({"present": value})
    hedged = hedge(body)
    if hedged:
        return Invalid(f"a hedged answer ({hedged})")
    has_yes = bool(_YES_WORDS.search(body))
    has_no = bool(_NO_WORDS.search(body))
    if has_yes != has_no:
        return Parsed({"present": has_yes})
    if has_yes and has_no:
        return Invalid("both yes and no in the response")
    if _UNSURE.search(body):
        return Invalid("no yes/no answer: the response says it cannot tell")
    negative = bool(_NEGATIVE.search(body))
    positive = bool(_POSITIVE.search(body))
    if negative != positive:
        return Parsed({"present": positive}, ("read from a sentence without yes/no",))
    return Invalid("no yes/no answer found")


def _read(segment: str) -> ParseResult | None:
    """The yes/no of one answer segment; ``None`` when it holds none."""
    hedged = hedge(segment)
    if hedged:
        return Invalid(f"a hedged answer ({hedged})")
    both = _BOTH_OFFERED.search(segment)
    if both:
        return Invalid(f"alternatives ({_unbracketed(both.group(0))}), not one answer")
    value = _leading(segment)
    if value is not None:
        return Parsed({"present": value})
    has_yes = bool(_YES_WORDS.search(segment))
    has_no = bool(_NO_WORDS.search(segment))
    if has_yes and has_no:
        return Invalid("both yes and no in the answer")
    if has_yes or has_no:
        return Parsed({"present": has_yes})
    negative = bool(_NEGATIVE.search(segment))
    positive = bool(_POSITIVE.search(segment))
    if negative != positive:
        return Parsed({"present": positive}, ("read from a sentence without yes/no",))
    return None
