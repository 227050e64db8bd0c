"""Text clean-up shared by the parsers: reasoning blocks, markdown, quotes, answer cues."""

from __future__ import annotations

import re
import unicodedata

#: Longest response the parsers look at; the tail is kept, since answers come last.
MAX_CHARS = 20_000

_THINK_END = re.compile(r"</think(?:ing)?>", re.IGNORECASE)
_DIGIT_GROUP_SPACE = re.compile(r"(?<=\d)[\u00a0\u202f\u2009\u2007](?=\d{3}(?!\d))")
_TRANSLATE = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u2033": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
        "\u2192": "->",
        "\u27f6": "->",
        "\u21d2": "->",
        "\u2022": "-",
        "\u00b7": "-",
        "\r": "\n",
    }
)
_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)\*(?=\S)|(?<=\S)\*(?!\w)|`")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s*", re.MULTILINE)
_CUE = re.compile(
    r"\b(?:final\s+answer|answer)\b(?:\s+is|\s+would\s+be|\s+will\s+be|\s+should\s+be)?"
    r"\s*(?:[:=]|-(?!>)|\bis\b)?",
    re.IGNORECASE,
)


def normalize_text(text: str) -> str:
    """Normalise a response before parsing.

    Keeps only what follows a closing ``</think>`` tag, joins digit groups split by a
    (narrow) no-break space, turns typographic quotes, dashes and arrows into ASCII and
    applies Unicode NFC. Markdown is kept (see :func:`strip_markdown`).

    Parameters
    ----------
    text : str
        The raw response.

    Returns
    -------
    str
        The normalised text.

    Examples
    --------
    >>> normalize_text("<think>hmm</think> “C” – final")
    ' "C" - final'
    """
    if not isinstance(text, str):
        return ""
    if len(text) > MAX_CHARS:
        text = text[-MAX_CHARS:]
    parts = _THINK_END.split(text)
    if len(parts) > 1:
        text = parts[-1]
    text = _DIGIT_GROUP_SPACE.sub("", text)
    text = text.translate(_TRANSLATE)
    text = unicodedata.normalize("NFC", text)
    return text.replace("\u00a0", " ").replace("\u202f", " ").replace("\t", " ")


def strip_markdown(text: str) -> str:
    """Remove markdown emphasis (``**``, ``__``, ``*``), backticks and heading marks.

    Parameters
    ----------
    text : str
        Normalised text.

    Returns
    -------
    str
        The text without emphasis markers; list bullets (``* item``) are kept.

    Examples
    --------
    >>> strip_markdown("**Answer:** `C`")
    'Answer: C'
    """
    text = _HEADING.sub("", text)
    return _EMPHASIS.sub("", text)


def clean(text: str) -> str:
    """Apply :func:`normalize_text` then :func:`strip_markdown`.

    Parameters
    ----------
    text : str
        The raw response.

    Returns
    -------
    str
        Cleaned text.
    """
    return strip_markdown(normalize_text(text))


def after_last_cue(text: str) -> str | None:
    """Return the text after the last ``Answer:`` / ``The answer is`` / ``Final answer:``.

    Parameters
    ----------
    text : str
        Cleaned text.

    Returns
    -------
    str or None
        The text after the cue (stripped), or ``None`` when there is no cue or nothing
        follows the last one.

    Examples
    --------
    >>> after_last_cue("Reasoning... The answer is 12.")
    '12.'
    >>> after_last_cue("no cue here") is None
    True
    """
    last = None
    for match in _CUE.finditer(text):
        last = match
    if last is None:
        return None
    rest = text[last.end() :].strip()
    return rest or None


def nonempty_lines(text: str) -> list[str]:
    """Split text into stripped, non-empty lines.

    Parameters
    ----------
    text : str
        Any text.

    Returns
    -------
    list of str
        The lines, without blank ones.
    """
    return [line.strip() for line in text.split("\n") if line.strip()]


def fold(text: str) -> str:
    """Case-fold and remove accents (NFKD without combining marks).

    Parameters
    ----------
    text : str
        Any text.

    Returns
    -------
    str
        Folded text, e.g. ``"Lönnrotinkatu"`` becomes ``"lonnrotinkatu"``.
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))
