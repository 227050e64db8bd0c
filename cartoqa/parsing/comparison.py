"""A yes/no comparison question answered by a concluding statement of the comparison or its
opposite ("..., so Rhode Island's value is lower than Idaho's." to "Does Rhode Island (RI)
have a higher value than Idaho (ID)?"; "so the colour gets darker, not lighter, as the value
increases." to "does the colour get lighter as the value increases?")."""

from __future__ import annotations

import re

from cartoqa.parsing.result import Parsed
from cartoqa.parsing.text import hedge

_UP = {"higher", "greater", "larger", "bigger", "more", "above"}
_DOWN = {"lower", "smaller", "less", "fewer", "below"}
_CMP = r"higher|greater|larger|bigger|more|above|lower|smaller|less|fewer|below"
_REGION = r"[A-Z][A-Za-z.'-]*(?:\s+[A-Z][A-Za-z.'-]*)*"
# "Does Rhode Island (RI) have a higher value than Idaho (ID)?"
_QUESTION = re.compile(
    rf"\b(?:Does|Do|Is|Has)\s+(?P<a>{_REGION})(?:\s*\((?P<ac>[A-Z]{{2,3}})\))?\s+"
    rf"(?:have\s+|has\s+)?(?:an?\s+)?(?P<cmp>{_CMP})\b[^?\n]*?\bthan\s+"
    rf"(?P<b>{_REGION})(?:\s*\((?P<bc>[A-Z]{{2,3}})\))?\s*\?")
# "does the colour get lighter as the value increases?"
_LEGEND_Q = re.compile(r"\bcolou?r\s+get\s+(?P<shade>lighter|darker)\s+as\s+the\s+values?\s+"
                       r"(?P<dir>increases?|decreases?)\b", re.IGNORECASE)
_LEGEND_A = re.compile(r"\bcolou?r\s+gets?\s+(?P<shade>lighter|darker)"
                       r"(?:\s*,?\s*not\s+(?P<not>lighter|darker)\s*,?)?\s+as\s+the\s+values?\s+"
                       r"(?P<dir>increases?|decreases?)\b", re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:not|no|never|neither|nor)\b|n't\b", re.IGNORECASE)
_CONCLUSION_WORD = re.compile(r"\b(?:so|therefore|thus)\b\s*,?", re.IGNORECASE)


def _conclusion(text: str) -> str | None:
    """The last sentence, from its last ``so``/``therefore``/``thus`` on; ``None`` for a
    question or a hedge."""
    plain = re.sub(r"[*_`#>]+", "", text).strip()
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", plain) if s.strip()]
    if not sentences or "?" in sentences[-1] or hedge(sentences[-1]):
        return None
    last = sentences[-1]
    words = list(_CONCLUSION_WORD.finditer(last))
    return last[words[-1].end():] if words else last


def compared(question: str, text: str) -> Parsed | None:
    """Yes/no from a concluding statement of the question's comparison, ``None`` when the
    conclusion is not unambiguously it or its opposite.

    Examples
    --------
    >>> q = "Does Rhode Island (RI) have a higher value than Idaho (ID)?"
    >>> compared(q, "RI shows 11.5 and ID 14.3, so Rhode Island's value is lower than Idaho's.")
    Parsed(value={'value': False}, notes=('read from the concluding comparison',))
    >>> compared(q, "Rhode Island's value is lower.") is None
    True
    """
    last = _conclusion(text)
    if last is None:
        return None
    legend = _LEGEND_Q.search(question)
    if legend:
        said = _LEGEND_A.search(last)
        if said is None or said.group("not") == said.group("shade").lower():
            return None
        if _NEGATED.search(last[:said.start()] + last[said.end():]):
            return None
        if said.group("not") is None and _NEGATED.search(said.group(0)):
            return None
        same_shade = said.group("shade").lower() == legend.group("shade").lower()
        same_dir = said.group("dir").lower()[:3] == legend.group("dir").lower()[:3]
        return Parsed({"value": same_shade == same_dir}, ("read from the concluding comparison",))
    q = _QUESTION.search(question)
    if q is None or _NEGATED.search(last):
        return None

    def names(region: str, code: str | None) -> str:
        forms = [re.escape(region.strip())] + ([re.escape(code)] if code else [])
        return r"\b(?:" + "|".join(forms) + r")\b"

    a, b = names(q.group("a"), q.group("ac")), names(q.group("b"), q.group("bc"))
    said_cmp = re.findall(rf"\b(?:{_CMP})\b", last, re.IGNORECASE)
    if len(said_cmp) != 1:
        return None
    # the question's own order only: "Ohio is higher than Texas" to "Is Texas higher than
    # Ohio?" is another statement, left invalid (tests/parsing/test_prose_answers.py)
    forward = re.search(rf"{a}.*\b(?:{_CMP})\b.*\bthan\b.*{b}", last)
    if forward is None or re.search(rf"{b}.*\b(?:{_CMP})\b.*\bthan\b.*{a}", last):
        return None
    same = (said_cmp[0].lower() in _UP) == (q.group("cmp").lower() in _UP)
    return Parsed({"value": same}, ("read from the concluding comparison",))
