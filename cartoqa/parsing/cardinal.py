"""Compass directions in free text (FRIEDA orientation answers)."""

from __future__ import annotations

import re

from cartoqa.parsing.result import Invalid, Parsed, ParseResult
from cartoqa.parsing.text import (
    agree,
    answer_segments,
    clean,
    drop_notes,
    hedge,
    nonempty_lines,
)

#: The eight directions, clockwise from north, as answers spell them.
DIRECTIONS: tuple[str, ...] = (
    "north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west",
)

_ABBREVIATIONS = {
    "n": "north", "ne": "north-east", "e": "east", "se": "south-east",
    "s": "south", "sw": "south-west", "w": "west", "nw": "north-west",
}
# "north-east", "north east", "northeast", "North-East", "NE", "N.E."; longest first
_DIRECTION = re.compile(
    r"(?<![A-Za-z])(?:(?P<word>(?:north|south)(?:[\s-]?(?:east|west))?|east|west)(?:ern|erly|ward|wards)?"
    r"|(?P<abbr>N\.?\s?E|N\.?\s?W|S\.?\s?E|S\.?\s?W|N|E|S|W)\.?)(?![A-Za-z])",
    re.IGNORECASE,
)


# "once the map is turned north-up", "the north arrow", "true north": directions that
# describe the map, never the answer
_NOT_AN_ANSWER = re.compile(
    r"\b(?:north|south|east|west)[\s-]?(?:up|facing|arrow|pointer|needle|mark(?:er)?)\b"
    r"|\b(?:true|magnetic|grid)\s+north\b|\bnorth\s+is\s+(?:up|at\s+the\s+top)\b"
    r"|\b(?:points?|pointing)\s+(?:to\s+)?north\b",
    re.IGNORECASE)


# a quadrant bearing "N45E", "N 45° E", "S30W", "S 12.5°W"
_QUADRANT = re.compile(r"(?<![A-Za-z])(?P<from>[NS])\s?(?P<deg>\d{1,2}(?:\.\d+)?)\s?°?\s?"
                       r"(?P<to>[EW])(?![A-Za-z])")
# an azimuth: "bearing 45°", "a bearing of 045 degrees", "azimuth: 135°", "heading 90°"
_AZIMUTH = re.compile(r"\b(?:bearing|azimuth|heading)\s*(?:of\s+|:\s*|=\s*|is\s+|at\s+)?"
                      r"(?:about\s+|approximately\s+|~\s*)?(?P<deg>\d{1,3}(?:\.\d+)?)\s*"
                      r"(?:°|degrees?|deg\b)", re.IGNORECASE)


#: what a bearing half-way between two of the eight directions reads as (no direction)
_HALF_WAY = "(a bearing half-way between two directions)"


def _nearest(degrees: float) -> str | None:
    """The one of the eight directions nearest an azimuth; ``None`` half-way between two."""
    steps = (degrees % 360) / 45
    if abs(steps - round(steps)) > 0.49:  # 22.5°: as near one neighbour as the other
        return None
    return DIRECTIONS[round(steps) % 8]


def bearings_as_words(text: str) -> str:
    """A text with each compass bearing replaced by the nearest of the eight directions.

    A quadrant bearing (``N45E``: 45° east of north) or an azimuth (``bearing 135°``)
    names one direction when it is nearer one of the eight than its neighbours; one
    half-way between two (``N22.5E``) names none.

    Examples
    --------
    >>> bearings_as_words("Answer: N45E"), bearings_as_words("S 30° W")
    ('Answer: north-east', 'south-west')
    >>> bearings_as_words("It lies on a bearing of 100°."), bearings_as_words("N22.5E")
    ('It lies on a east.', '(a bearing half-way between two directions)')
    """
    def quadrant(m: re.Match[str]) -> str:
        deg = float(m["deg"])
        if deg > 90:
            return m.group(0)
        base = 0.0 if m["from"] == "N" else 180.0
        sign = 1 if (m["from"] == "N") == (m["to"] == "E") else -1
        return _nearest(base + sign * deg) or _HALF_WAY

    def azimuth(m: re.Match[str]) -> str:
        deg = float(m["deg"])
        return (_nearest(deg) or _HALF_WAY) if deg <= 360 else m.group(0)

    text = _SIXTEEN_POINT.sub(_BETWEEN_TWO, text)
    return _AZIMUTH.sub(azimuth, _QUADRANT.sub(quadrant, text))


# a point of the sixteen-point rose, between two of the eight: "north-northeast", "NNE"
_SIXTEEN_POINT = re.compile(
    r"(?<![A-Za-z])(?:(?:north|south)[\s-]?(?:north|south)[\s-]?(?:east|west)"
    r"|(?:east|west)[\s-]?(?:north|south)[\s-]?(?:east|west))(?![A-Za-z])"
    r"|(?<![A-Za-z])(?:NNE|ENE|ESE|SSE|SSW|WSW|WNW|NNW)(?![A-Za-z])", re.IGNORECASE)
_BETWEEN_TWO = "(a point between two of the eight directions)"


def canonical_direction(token: str) -> str | None:
    """One of :data:`DIRECTIONS` for a spelling of it, or ``None``.

    Parameters
    ----------
    token : str
        ``"NE"``, ``"north east"``, ``"Northeast"``, ``"north-eastern"``, ...

    Returns
    -------
    str or None

    Examples
    --------
    >>> canonical_direction("Northeast"), canonical_direction("S.W."), canonical_direction("up")
    ('north-east', 'south-west', None)
    """
    m = _DIRECTION.fullmatch(token.strip())
    if m is None:
        return None
    if m.group("word"):
        word = re.sub(r"[\s-]", "", m.group("word").lower())
        for name in DIRECTIONS:
            if name.replace("-", "") == word:
                return name
        return None
    return _ABBREVIATIONS[re.sub(r"[\s.]", "", m.group("abbr").lower())]


def _found(text: str, *, abbreviations: bool) -> list[str]:
    out = []
    for m in _DIRECTION.finditer(text):
        if m.group("abbr") and (not abbreviations or (m.group("abbr").lower() in {"e", "s"}
                                and m.group(0) == m.group(0).lower())):
            continue  # a lone lowercase "e" or "s" is a letter, not a direction
        name = canonical_direction(m.group(0))
        if name is not None:
            out.append(name)
    return out


def _read(segment: str, *, words_only: bool = False) -> ParseResult | None:
    """The direction of one answer: hedges (``probably north``) and alternatives
    (``N/NE``, ``north or north-east``) are invalid; else the first direction named."""
    found = _found(segment, abbreviations=not words_only)
    if not found:
        return None
    hedged = hedge(segment)
    if hedged:
        return Invalid(f"a hedged answer ({hedged})")
    parts = [p for p in _ALTERNATIVE.split(segment) if p.strip()]
    if len(parts) > 1:
        sides = {d for p in parts for d in _found(p, abbreviations=not words_only)[:1]}
        if len(sides) > 1:
            return Invalid(f"alternatives ({segment.strip()}), not one direction")
    if not words_only and len(set(found)) > 1 and _LISTED.search(segment):
        return Invalid(f"several directions ({segment.strip()}), not one")
    return Parsed({"direction": found[0]})


# two directions listed side by side: "north, north-east", "north and north-east"
_LISTED = re.compile(r"(?:north|south|east|west|\b[NSEW]{1,2}\b)[\w-]*\s*(?:,|;|\band\b)\s*"
                     r"(?:north|south|east|west|\b[NSEW]{1,2}\b)", re.IGNORECASE)
_ALTERNATIVE = re.compile(r"\s+or\s+|\s*/\s*", re.IGNORECASE)
# a direction that concludes the working: "so overall north", "Therefore, it is north-east."
_CONCLUDED = re.compile(
    r"(?:^|[.!?;,\n])\s*(?:and\s+)?(?:so|thus|therefore|hence|overall|altogether|combined|"
    r"(?:that|this|which)\s+(?:gives|makes|means))\b[\s,]*(?:overall\s+|altogether\s+)?"
    r"(?:(?:it(?:'s|\s+is)|the\s+(?:overall\s+)?(?:direction|answer|result)\s+is|it\s+lies)\s+)?"
    r"(?:(?:to\s+the|due)\s+)?(?P<rest>(?:north|south|east|west)[\w-]*)[^.\n]{0,40}[.!]?\s*$",
    re.IGNORECASE)


def parse_cardinal(text: str) -> ParseResult:
    """Parse one compass direction of eight.

    Rules, in order: the first direction after the last ``Answer:`` cue (capital
    abbreviations such as ``NE`` count; a hedge or ``N/NE`` is invalid); else the only
    direction named in the response
    (words only, repeated mentions of one direction count once); else the only
    direction on the last line. Several different directions otherwise are invalid.

    Parameters
    ----------
    text : str
        The raw response.

    Returns
    -------
    Parsed or Invalid
        ``Parsed({"direction": "north-east"})``.

    Examples
    --------
    >>> parse_cardinal("It lies to the northeast of the park.").value
    {'direction': 'north-east'}
    >>> parse_cardinal("Answer: SW").value
    {'direction': 'south-west'}
    >>> parse_cardinal("north or south?").valid
    False
    """
    t = bearings_as_words(_NOT_AN_ANSWER.sub(" ", clean(text)))
    if not t.strip():
        return Invalid("empty response")
    cued = agree([_read(seg) for seg in answer_segments(t)],
                 key=lambda p: p.value["direction"], what="directions")
    if cued is not None:
        return cued
    t = drop_notes(t)
    lines = nonempty_lines(t)
    if len(lines) == 1:
        short = _read(lines[0], words_only=len(lines[0]) > 12)
        if isinstance(short, Invalid):
            return short
    found = _found(t, abbreviations=False)
    if len(set(found)) == 1:
        return Parsed({"direction": found[0]})
    concluded = list(_CONCLUDED.finditer(t))  # "..., so overall north."
    if len(set(found)) > 1 and concluded and not hedge(concluded[-1].group(0)):
        last = _found(concluded[-1].group("rest"), abbreviations=False)
        if last and not _found(t[concluded[-1].end():], abbreviations=False):
            return Parsed({"direction": last[0]}, ("the direction the working concludes",))
    last = _found(nonempty_lines(t)[-1], abbreviations=True)
    if len(set(last)) == 1:
        return Parsed({"direction": last[0]})
    if not found:
        return Invalid("a point between two of the eight directions (NNE, ENE, ...)"
                       if _BETWEEN_TWO in t else "no compass direction found")
    return Invalid(f"several different directions ({len(set(found))}) and no 'Answer:' line")
