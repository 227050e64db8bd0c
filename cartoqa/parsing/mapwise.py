"""Parsers for MapWise's answer forms: ``My answer is [Yes]``, ``[Maharashtra]``, ``[4]``,
``[MH, UP]``, ``[1k - 2k]``, ``[MH, UP = TN, GA]``.

Each reads the text after the last "answer is" (brackets dropped) when there is one,
else the whole response. Regions may be written by name (current or older, e.g. Orissa)
or by code; they come back as codes of the item's country.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import pairwise
from typing import Any

from cartoqa.parsing.kinds import (
    item_country,
    item_labels,
    item_names,
    parse_rank_order,
    parse_regions,
)
from cartoqa.parsing.numbers import parse_count
from cartoqa.parsing.result import Invalid, Parsed, ParseResult
from cartoqa.parsing.rules import hedged, read_answer, unbracket

#: Multipliers of number suffixes (case-insensitive; ``m`` is million, as map legends use).
SUFFIXES: dict[str, float] = {
    "k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "b": 1e9, "bn": 1e9,
    "billion": 1e9, "lakh": 1e5, "lakhs": 1e5, "crore": 1e7, "crores": 1e7,
}

_NUM = re.compile(
    r"(?<![\w.])(-?\d[\d,]*(?:\.\d+)?|-?\.\d+)\s*"
    r"(k|thousand|mn|million|m|bn|billion|b|lakhs?|crores?)?(?![a-z])", re.IGNORECASE)


def normalise_number(text: str) -> float | None:
    """A number with thousands separators, units and suffixes, as a plain float.

    Examples
    --------
    >>> normalise_number("1k"), normalise_number("$2.5M"), normalise_number("1,200 km²")
    (1000.0, 2500000.0, 1200.0)
    >>> normalise_number("12.5%"), normalise_number("3 lakh"), normalise_number("none")
    (12.5, 300000.0, None)
    """
    m = _NUM.search(text)
    if not m:
        return None
    value = float(m.group(1).replace(",", ""))
    if m.group(2):
        value *= SUFFIXES[m.group(2).lower()]
    return value


def parse_range(text: str) -> tuple[float, float] | None:
    """A range ``lo–hi`` (hyphen, en dash, "to"), normalised; ``None`` if not two numbers.

    A hyphen right after a number separates; a minus sign follows a space or a dash.

    Examples
    --------
    >>> parse_range("1k-2k"), parse_range("10 to 20%"), parse_range("1,350–2,000")
    ((1000.0, 2000.0), (10.0, 20.0), (1350.0, 2000.0))
    >>> parse_range("-3 - -1"), parse_range("0.5M – 1.2M")
    ((-3.0, -1.0), (500000.0, 1200000.0))
    >>> parse_range("about 7") is None
    True
    """
    t = re.sub(r"(\d|[kmb%]|million|thousand|lakh|crore)\s*[-–—]\s*", r"\1 | ", text,
               flags=re.IGNORECASE)
    t = re.sub(r"\s+(?:to|and)\s+", " | ", t, flags=re.IGNORECASE)
    parts = [p for p in t.split("|") if p.strip()]
    if len(parts) != 2:
        return None
    lo, hi = normalise_number(parts[0]), normalise_number(parts[1])
    if lo is None or hi is None:
        return None
    return (min(lo, hi), max(lo, hi))


def _country(item: Mapping[str, Any]) -> str:
    return item_country(item)


def parse_region(item: Mapping[str, Any], text: str) -> ParseResult:
    """One region (the first named, when several are); ``A or B`` is invalid.

    Examples
    --------
    >>> parse_region({"provenance": {"country": "india"}}, "My answer is [Orissa]").value
    {'regions': ['OD']}
    >>> parse_region({"provenance": {"country": "china"}}, "Guangdong (GD)").value
    {'regions': ['GD']}
    >>> parse_region({"provenance": {"country": "china"}}, "Atlantis").valid
    False
    """
    found = parse_regions(text, item_names(item), single=True)
    if isinstance(found, Invalid) and found.reason == "no answer found":
        return Invalid("no region of this map")
    return found


def parse_region_list(item: Mapping[str, Any], text: str) -> ParseResult:
    """A list of regions (``[]`` or "none" for the empty list); a name of no region of
    the map is kept as a wrong item (``"unknown: ..."``), invalidating only itself.

    Examples
    --------
    >>> parse_region_list({"provenance": {"country": "usa"}}, "My answer is [TX, Ohio]").value
    {'items': ['OH', 'TX']}
    >>> parse_region_list({"provenance": {"country": "usa"}}, "My answer is []").value
    {'items': []}
    """
    found = parse_regions(text, item_names(item))
    if isinstance(found, Invalid) and found.reason == "no answer found":
        return Invalid("no list")
    return found


def _read_range(segment: str) -> ParseResult | None:
    bad = hedged(segment)
    if bad is not None:
        return bad
    inner = unbracket(segment).strip().rstrip(".")
    options = [p for p in re.split(r"\s+or\s+", inner, flags=re.IGNORECASE) if p.strip()]
    if len(options) > 1:
        readings = {parse_range(p) for p in options} - {None}
        if len(readings) > 1:
            return Invalid(f"alternatives ({inner}), not one answer")
    got = parse_range(inner)
    if got is None:
        value = normalise_number(inner) if _ONE_NUMBER.fullmatch(inner.strip()) else None
        if value is not None:
            return Parsed({"range": [value, value]}, ("one value, not a range",))
        return None
    return Parsed({"range": list(got)})


_ONE_NUMBER = re.compile(r"[^\d]{0,12}-?\d[\d,]*(?:\.\d+)?\s*[A-Za-z%]{0,9}\.?")


def parse_range_answer(item: Mapping[str, Any], text: str) -> ParseResult:
    """A range ``lo - hi`` with units and suffixes normalised (``1k`` = 1000); one value
    is read as the range ``[v, v]`` (with a note; it matches no legend class).

    Examples
    --------
    >>> parse_range_answer({}, "My answer is [1.5k - 2k]").value
    {'range': [1500.0, 2000.0]}
    """
    found = read_answer(text, _read_range, what="ranges", key=lambda p: p.value["range"],
                        whole_read=_read_range_in_sentence)
    if isinstance(found, Invalid) and found.reason == "no answer found":
        return Invalid("no range of two numbers")
    return in_legend_units(item, text, found)


# a unit word after a number: "9.8 million", "3.4k", "5 lakh"
_UNIT_WORD = re.compile(r"(?<=\d)\s*(?:k|thousand|mn|million|m|bn|billion|b|lakhs?|crores?)"
                        r"(?![a-z])", re.IGNORECASE)


def legend_span(item: Mapping[str, Any]) -> tuple[float, float] | None:
    """The lowest and highest value the item's legend shows (its classes, else its colour
    bar), or ``None`` when the item records neither.

    Examples
    --------
    >>> legend_span({"provenance": {"classification": {"labels": ["0–9.8", "11.9–26.6"]}}})
    (0.0, 26.6)
    >>> legend_span({"provenance": {"colour_bar": {"vmin": 0.0, "vmax": 25.0}}})
    (0.0, 25.0)
    """
    provenance = item.get("provenance") or {}
    bar = provenance.get("colour_bar") if isinstance(provenance, Mapping) else None
    if isinstance(bar, Mapping) and bar.get("vmin") is not None and bar.get("vmax") is not None:
        return float(bar["vmin"]), float(bar["vmax"])
    ranges = [r for label in item_labels(item) if (r := parse_range(label)) is not None]
    if not ranges:
        return None
    return min(r[0] for r in ranges), max(r[1] for r in ranges)


def in_legend_units(item: Mapping[str, Any], text: str, found: ParseResult) -> ParseResult:
    """A range read in the legend's own numbers when its unit word is the one the legend
    is already in (``[0 – 9.8 million]`` on a legend of millions whose class is 0–9.8): the
    scaled reading lies outside everything the legend shows, the unscaled one inside it
    (a low of 0 below the lowest class counts as inside when the scaled reading overshoots
    the legend tenfold: a colour bar starts there), or the
    map's title says its numbers are in that scale (``Population (millions)``).

    Examples
    --------
    >>> item = {"provenance": {"classification": {"labels": ["0–9.8", "11.9–26.6"]}}}
    >>> in_legend_units(item, "[0 – 9.8 million]", Parsed({"range": [0.0, 9.8e6]})).value
    {'range': [0.0, 9.8]}
    """
    span = legend_span(item)
    if not isinstance(found, Parsed) or not _UNIT_WORD.search(text):
        return found
    plain = parse_range_answer({}, _UNIT_WORD.sub("", text))
    if not isinstance(plain, Parsed) or plain.value == found.value:
        return found
    if _title_scale(item) is not None and _title_scale(item) == _said_scale(text):
        return Parsed(plain.value, (*plain.notes, "a unit word the legend's title carries"))
    if span is None:
        return found
    lo, hi = span
    # a colour bar starts at 0 below a legend's lowest class (0.064): a low of 0 counts as
    # inside when the scaled reading overshoots the legend tenfold (not [0 - 15k] on a
    # legend of 223 to 12600, which is 0 to 15000)
    far = max(abs(v) for v in found.value["range"]) > 10 * max(abs(hi), 1e-9)
    floor = min(lo, 0.0) if lo >= 0 and far else lo
    inside = [floor <= v <= hi for v in (*found.value["range"], *plain.value["range"])]
    if all(inside[2:]) and not all(inside[:2]):
        return Parsed(plain.value, (*plain.notes, "a unit word the legend is already in"))
    return found


# the scale a legend's title says its numbers are in: "Population, Census 2011 (millions)",
# "GDP in thousands", "(in lakh)"
_TITLE_SCALE = re.compile(
    r"(?:\(\s*(?:in\s+)?|\bin\s+)(?P<word>thousands?|millions?|billions?|lakhs?|crores?)"
    r"\s*\)?", re.IGNORECASE)


def _scale_of(word: str) -> float | None:
    word = word.lower()
    return SUFFIXES.get(word, SUFFIXES.get(word.rstrip("s")))


def _title_scale(item: Mapping[str, Any]) -> float | None:
    """The multiplier the item's map title says its numbers are in, if any.

    Examples
    --------
    >>> _title_scale({"provenance": {"title": "Population, Census 2011 (millions)"}})
    1000000.0
    >>> _title_scale({"provenance": {"title": "Population density"}}) is None
    True
    """
    provenance = item.get("provenance") or {}
    title = provenance.get("title") if isinstance(provenance, Mapping) else None
    m = _TITLE_SCALE.search(title) if isinstance(title, str) else None
    return _scale_of(m.group("word")) if m else None


def _said_scale(text: str) -> float | None:
    """The one multiplier the response's scale words say (``200 million``), if one."""
    said = {_scale_of(m.group(0).strip()) for m in _UNIT_WORD.finditer(text)}
    return said.pop() if len(said) == 1 else None


def _read_range_in_sentence(segment: str) -> ParseResult | None:
    """A range read without a cue; else the one number of a one-line sentence as one
    value (``The darkest shade stands for 100.``: a one-value legend class).

    Examples
    --------
    >>> _read_range_in_sentence("The darkest shade stands for 100.").value
    {'range': [100.0, 100.0]}
    >>> _read_range_in_sentence("Of its 5 classes, the darkest stands for 100.") is None
    True
    """
    found = _read_range(segment)
    if found is not None or "\n" in segment.strip() or re.search(r"\bor\b", segment, re.I):
        return found
    numbers = list(_NUM.finditer(segment))
    if len(numbers) == 2:  # "..., falls in the lowest class, 0 to 3.25."
        return _range_said(segment, numbers[0], numbers[1])
    if len(numbers) > 2:
        return _range_said_again(segment, numbers)
    if len(numbers) != 1:
        return None
    value = normalise_number(numbers[0].group(0))
    if value is None:
        return None
    return Parsed({"range": [value, value]}, ("one value, not a range",))


_RANGE_JOIN = re.compile(r"\s*(?:to|through|-|\u2013|\u2014)\s*", re.IGNORECASE)


def _range_said(segment: str, low: re.Match[str], high: re.Match[str]) -> ParseResult | None:
    """The range of a sentence whose only two numbers are joined as ``low to high``.

    Examples
    --------
    >>> said = "It is in the lowest class, 0 to 3.25."
    >>> _range_said(said, *_NUM.finditer(said)).value
    {'range': [0.0, 3.25]}
    """
    if not _RANGE_JOIN.fullmatch(segment[low.end():high.start()]):
        return None
    lo, hi = normalise_number(low.group(0)), normalise_number(high.group(0))
    return None if lo is None or hi is None else Parsed({"range": [lo, hi]})


def _range_said_again(segment: str, numbers: list[re.Match[str]]) -> ParseResult | None:
    """The range of a sentence that says one range twice and no other number (``The
    colour bar runs from 0 at the bottom to 500 at the top, so the legend covers 0 to
    500.``): two of its numbers are joined as ``low to high``, every number is one of them.

    Examples
    --------
    >>> said = "It runs from 0 at the bottom to 500 at the top, so it covers 0 to 500."
    >>> _range_said_again(said, list(_NUM.finditer(said))).value
    {'range': [0.0, 500.0]}
    >>> said = "It runs from 0 to 500, and Tibet is at 447."
    >>> _range_said_again(said, list(_NUM.finditer(said))) is None
    True
    """
    said = {tuple(r.value["range"]): r for a, b in pairwise(numbers)
            if isinstance(r := _range_said(segment, a, b), Parsed)}
    values = {normalise_number(n.group(0)) for n in numbers}
    if len(said) != 1:
        return None
    found = next(iter(said.values()))
    return found if values == set(found.value["range"]) else None


def parse_rank(item: Mapping[str, Any], text: str) -> ParseResult:
    """An order of regions, highest first; ``=`` joins regions given the same rank.

    Returns ``{"ranks": {code: rank}}`` with competition ranks (``A, B = C, D`` gives
    1, 2, 2, 4). ``A > B > C`` and ``A < B < C`` (lowest first) are read too.

    Examples
    --------
    >>> parse_rank({"provenance": {"country": "india"}}, "My answer is [MH, UP = TN, GA]").value
    {'ranks': {'MH': 1, 'UP': 2, 'TN': 2, 'GA': 4}}
    >>> parse_rank({"provenance": {"country": "india"}}, "My answer is [MH > Bihar > Goa]").value
    {'ranks': {'MH': 1, 'BR': 2, 'GA': 3}}
    """
    return parse_rank_order(text, item_names(item))


def parse_count_answer(text: str) -> ParseResult:
    """A whole number, by the street tasks' count reader (cues, hedges, corrections).

    Examples
    --------
    >>> parse_count_answer("My answer is [4]").value
    {'count': 4}
    """
    return parse_count(text)


def mapwise_answer_text(item: Mapping[str, Any]) -> str:
    """The item's own answer in MapWise's response format (scores 1.0).

    Examples
    --------
    >>> mapwise_answer_text({"request": "rank", "answer": {"order": ["MH", "UP"]}})
    'My answer is [MH, UP]'
    """
    request, answer = item.get("request"), item.get("answer") or {}
    if request == "binary":
        return f"My answer is [{'Yes' if answer['value'] else 'No'}]"
    if request == "single":
        return f"My answer is [{answer['accepted'][0]}]"
    if request == "count":
        return f"My answer is [{answer['count']}]"
    if request == "list":
        return f"My answer is [{', '.join(answer['items'])}]"
    if request == "range":
        return f"My answer is [{answer['text']}]"
    if request == "rank":
        return f"My answer is [{', '.join(answer['order'])}]"
    raise ValueError(f"unknown MapWise request {request!r}")
