"""Yes/no answers (STMF presence)."""

from __future__ import annotations

import re

from cartoqa.parsing.result import Invalid, Parsed, ParseResult
from cartoqa.parsing.text import after_last_cue, clean

_LEADING = re.compile(
    r"^[\W_]*(yes|yeah|yep|no|nope|true|false|present|absent|not\s+present|y|n)(?![A-Za-z])"
    r"(?!\s+(?:idea|clue|way)\b)",
    re.IGNORECASE,
)
_YES_WORDS = re.compile(r"\b(?:yes|true)\b", re.IGNORECASE)
_NO_WORDS = re.compile(r"\b(?:no(?!\s+(?:idea|clue|way)\b)|false|none)\b", re.IGNORECASE)
_NEGATIVE = re.compile(
    r"\b(?:there\s+(?:is|are)\s+(?:not|no)\b|(?:is|are)\s+not\s+(?:present|visible|shown|any)"
    r"|(?:isn't|aren't)\s+(?:present|visible|shown|any)"
    r"|(?:cannot|can't|can\s+not|don't|do\s+not|couldn't|could\s+not|did\s+not|didn't)"
    r"\s+(?:see|find|identify|spot|locate|detect)|absent|not\s+present)",
    re.IGNORECASE,
)
_POSITIVE = re.compile(
    r"\b(?:there\s+(?:is|are)\s+(?:a|an|one|some|several|two|three|many|\d+)\b"
    r"|(?:is|are)\s+(?:present|visible|shown)|(?:i\s+)?(?:can\s+)?see\s+(?:a|an|one|some|two)\b)",
    re.IGNORECASE,
)

_UNSURE = re.compile(
    r"\b(?:sorry|unable|not\s+sure|unclear|uncertain|impossible\s+to|hard\s+to\s+(?:tell|say)"
    r"|(?:cannot|can't|can\s+not|could\s+not|couldn't)\s+(?:tell|determine|say|answer|help"
    r"|be\s+sure|decide|confirm))\b|\b(?:whether|if)\s+there\s+(?:is|are)\b",
    re.IGNORECASE,
)

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


def _leading(text: str) -> bool | None:
    m = _LEADING.match(text)
    if not m:
        return None
    word = re.sub(r"\s+", " ", m.group(1).lower())
    return False if word == "not present" else _VALUES[word]


def parse_yes_no(text: str) -> ParseResult:
    """Parse a yes/no answer, in any case and with or without an explanation.

    Rules, in order: the word after the last ``Answer:`` cue; a leading ``yes``/``no``
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
    cue = after_last_cue(t)
    if cue is not None:
        value = _leading(cue)
        if value is not None:
            return Parsed({"present": value})
    value = _leading(t)
    if value is not None:
        return Parsed({"present": value})
    has_yes = bool(_YES_WORDS.search(t))
    has_no = bool(_NO_WORDS.search(t))
    if has_yes != has_no:
        return Parsed({"present": has_yes})
    if has_yes and has_no:
        return Invalid("both yes and no in the response")
    if _UNSURE.search(t):
        return Invalid("no yes/no answer: the response says it cannot tell")
    negative = bool(_NEGATIVE.search(t))
    positive = bool(_POSITIVE.search(t))
    if negative != positive:
        return Parsed({"present": positive}, ("read from a sentence without yes/no",))
    return Invalid("no yes/no answer found")
